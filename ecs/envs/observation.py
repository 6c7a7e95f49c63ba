"""Observations for the environments: the layout of the vector (the features are
declared in components/observation.py; systems/observation.py fills it) and the
helpers to make one for a game.

    layout = ObsLayout(max_players=8, max_cards=256, max_actions=512)
    vec = layout.observe(game, player)       # float32, layout.size long
    parts = layout.split(vec)                # game, players, cards, actions as 2-D views
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from components import observation as OB
from ecs.cards import CHOSEN, Compiled, split_chosen_key


def card_ids(compiled: Compiled) -> np.ndarray:
    """For each row of a cards arena, the card's index in the pool's sorted names: the
    same number for a card in every game of the pool."""
    index = {n: k for k, n in enumerate(sorted(compiled.db.cards))}
    ids = np.zeros(max(1, len(compiled.tables.rows["ct"])), np.int32)
    for name, row in compiled.row_of.items():
        if name.startswith(CHOSEN):  # (903.4b: the card in its chosen colour)
            name = split_chosen_key(name)[1]
        ids[row] = index.get(name, -1)
    return ids


@dataclass(frozen=True)
class ObsLayout:
    """An observation's dimensions; ``size`` floats in four sections."""

    max_players: int = 8
    max_cards: int = 256
    max_actions: int = 512
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("max_players", "max_cards", "max_actions"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise ValueError(f"{name}: a whole number >= 1, got {v!r}")

    @property
    def offsets(self) -> tuple[int, int, int, int]:
        return OB.offsets(self.max_players, self.max_cards, self.max_actions)

    @property
    def size(self) -> int:
        return self.offsets[3]

    def ints(self, compiled: Compiled) -> np.ndarray:
        """What the kernel needs besides the game: the dims and the card-id map."""
        key = id(compiled.arena)
        got = self._cache.get(key)
        if got is None or got[0] is not compiled.arena:
            head = np.array([self.max_players, self.max_cards, self.max_actions, -1], np.int32)
            got = (compiled.arena, np.concatenate([head, card_ids(compiled)]))
            self._cache.clear()
            self._cache[key] = got
        return got[1]

    def observe(self, game, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """Player ``player``'s observation of ``game`` (into ``out`` if given)."""
        from ecs.engine import call
        from systems import entry

        vec = np.zeros(self.size, np.float32) if out is None else out
        call(entry.OBSERVE, game.arena, game.compiled.arena, player, self.ints(game.compiled),
             out=vec.reshape(1, -1))  # fmt: skip
        return vec

    def mask(self, n_options: int) -> np.ndarray:
        m = np.zeros(self.max_actions, np.int8)
        m[: min(max(n_options, 0), self.max_actions)] = 1
        return m

    def split(self, vec: np.ndarray) -> dict[str, np.ndarray]:
        """Views of a flat observation: game (features,), players, cards, actions (rows x
        features)."""
        p0, c0, a0, end = self.offsets
        return {
            "game": vec[:p0],
            "players": vec[p0:c0].reshape(self.max_players, OB.NP),
            "cards": vec[c0:a0].reshape(self.max_cards, OB.NC),
            "actions": vec[a0:end].reshape(self.max_actions, OB.NA),
        }
