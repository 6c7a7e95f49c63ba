"""A vectorised environment: N games stepped in one call, numpy observations and masks.

    from ecs.envs.vector import VectorEnv
    env = VectorEnv(num_envs=1024, variant="free-for-all", players=4, seed=0)
    obs, mask, player = env.reset()            # (N, size) float32, (N, A) int8, (N,)
    while training:
        actions = policy(obs, mask)            # one option index per game
        obs, mask, player, done, results = env.step(actions)

Each game's observation is that of the player who decides next (``player``); every
option index must have mask 1. A game that ends is started again at once from the
same decks with a generator drawn from the finished game (so a run is reproducible
from ``seed``): ``done[g]`` is then True and ``results[g]`` holds each player's result
of the game that ended (1 won, -1 lost, 0 drawn; players beyond the game's are 0).
The whole step — every game's action, rules, restarts and observations — is one
call into the compiled engine (systems/vector_env.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from components.observation import VR_ACTION, VR_DONE, VR_NOPTIONS, VR_PLAYER, VR_RESULT
from ecs.cards import load_pool
from ecs.decks import load_deck, stock_decks
from ecs.engine import Options, call, seed_rng, template
from ecs.envs.observation import ObsLayout

MAX_ENVS = 1 << 16


class VectorEnv:
    """``num_envs`` games of one configuration (decks dealt by player index, cycled)."""

    def __init__(
        self,
        num_envs: int = 64,
        variant: str = "free-for-all",
        players: int = 4,
        decks: list[Any] | None = None,
        options: Options | None = None,
        seed: int = 0,
        layout: ObsLayout | None = None,
        observe: bool = True,
    ):
        if not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs: a whole number from 1 to {MAX_ENVS}, got {num_envs!r}")
        self.num_envs, self.players = num_envs, players
        self.layout = layout or ObsLayout(
            max_players=max(2, players), max_cards=128, max_actions=128
        )
        if players > self.layout.max_players:
            raise ValueError(
                f"players ({players}) above layout.max_players ({self.layout.max_players})"
            )
        names = decks or [d for d in stock_decks() if not d.startswith("commander")]
        lists = [list(d) if isinstance(d, (list, tuple)) else load_deck(d).main for d in names]
        lists = [lists[p % len(lists)] for p in range(players)]
        self.compiled = load_pool().compile(sorted({c for d in lists for c in d}))
        self.template = template(self.compiled, lists, variant, options or Options(max_turns=200))
        self.seed = seed
        self.A = np.empty((num_envs + 1, self.template.size), np.int32)
        self.ints = self.layout.ints(self.compiled)
        self.obs = np.zeros((num_envs, self.layout.size if observe else 0), np.float32)
        self.res = np.zeros((num_envs, VR_RESULT + players), np.int32)
        self._cols = np.arange(self.layout.max_actions)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every game dealt anew (game g from ``seed`` + g); their first observations."""
        from systems import entry

        if seed is not None:
            self.seed = seed
        self.A[:] = self.template
        seeds = np.random.SeedSequence(self.seed).generate_state(self.num_envs, np.uint64)
        for g in range(self.num_envs):
            seed_rng(self.A[g], int(seeds[g]))
        call(entry.DEAL, self.A[: self.num_envs], self.compiled.arena)
        call(entry.VBEGIN, self.A, self.compiled.arena, 0, self.ints, self.obs, self.res)
        return self.obs, self.mask(), self.res[:, VR_PLAYER].copy()

    def mask(self) -> np.ndarray:
        n = self.res[:, VR_NOPTIONS]
        return (self._cols[None, :] < n[:, None]).astype(np.int8)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        """Take one option in every game: (obs, mask, player, done, results)."""
        from systems import entry

        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions: expected {self.num_envs} option indexes (integers), got "
                             f"{a.dtype} array of shape {a.shape}")  # fmt: skip
        n = self.res[:, VR_NOPTIONS]
        bad = np.flatnonzero((a < 0) | (a >= np.minimum(n, self.layout.max_actions)))
        if bad.size:
            g = int(bad[0])
            raise ValueError(f"actions[{g}] = {int(a[g])}: game {g} has {int(n[g])} options "
                             f"(see the mask); nothing was stepped")  # fmt: skip
        self.res[:, VR_ACTION] = a
        call(entry.VSTEP, self.A, self.compiled.arena, 0, self.ints, self.obs, self.res)
        done = self.res[:, VR_DONE].astype(bool)
        return (self.obs, self.mask(), self.res[:, VR_PLAYER].copy(), done,
                self.res[:, VR_RESULT:].copy())  # fmt: skip
