"""Melee as a PettingZoo AEC environment: multiplayer Magic with action masks.

Usage::

    from ecs.envs import melee_v0

    env = melee_v0.env(variant="free-for-all", players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs)  # any index with mask 1
        env.step(action)

Agents are ``"player_0" .. "player_{n-1}"``; ``player_i`` is the engine's player ``i``
(seats are dealt by the variant; the observation is always relative to the observer).
``env.unwrapped.game`` is the live :class:`ecs.engine.Game`.

Action space
------------
``Discrete(max_actions)``. Action ``k`` means *the k-th option of the pending
decision* (``game.legal_actions()[k]``). The engine lists every decision's options in a
fixed, documented order (``systems/legal_actions.py``: pass first, then lands, spells,
abilities by object id; attacks and blocks one creature at a time, closed by
``attack_done`` / ``block_done``; choices in the order the rules or the effect give),
so the mapping is deterministic for a given state and complete.
``observation["action_mask"][k] == 1`` exactly when ``k`` is an option. A masked-out
index (or anything that is not an integer) raises :class:`ValueError` naming the
action; nothing changes. Agents that are terminated or truncated must step ``None``.

Priority stops where passing is the only option are skipped by the engine (auto-pass);
decisions with a single option are still put to the agent.

Observation
-----------
``Dict(observation=Box(float32, (size,)), action_mask=Box(0, 1, (max_actions,), int8))``:
the vector of ``components/observation.py`` (game, players by seat from the observer,
the visible cards, the options), filled by the compiled engine.
``ObsLayout.split`` (``env.unwrapped.layout``) returns its sections as 2-D views.
Hidden information stays hidden: other players' hands and every library appear only
as counts; face-down cards of others show no card; library order never appears.

Rewards and endings
-------------------
When a player leaves the game (loses, concedes, or draws) their agent is terminated at
once with -1 (lost) or 0 (drawn). When the game ends the remaining agents are
terminated with +1 (winners), -1 (losers) or 0 (drawn). If the turn cap
(``max_turns``) ends the game as a draw, the remaining agents are *truncated* with 0.
``infos[agent]["result"]`` is ``"win"``/``"loss"``/``"draw"`` once an agent is done.
"""

from __future__ import annotations

import operator
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from components import players as PL
from components.decisions import PEND_NAMES
from ecs.cards import load_pool
from ecs.decks import load_deck, stock_decks
from ecs.engine import VARIANTS, Action, Game, Options, SetupError, check_setup, default_teams
from ecs.envs.observation import ObsLayout

OBS_LIMIT = float(2**20)
DEFAULT_LAYOUT = ObsLayout(max_players=8, max_cards=256, max_actions=512)


def _stock() -> dict[str, list[str]]:
    out = {}
    for name in stock_decks():
        try:
            out[name] = load_deck(name).main
        except ValueError:  # a stock deck whose cards the pool can't play yet
            continue
    return out


def _deck_list(spec: Any) -> list[str]:
    if isinstance(spec, str):
        return list(load_deck(spec).main)
    if hasattr(spec, "main"):
        return list(spec.main)
    return [str(c) for c in spec]


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (recommended)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801  (PettingZoo naming convention)
    """Melee as an AEC environment; see the module docstring for spaces and rewards.

    Args:
        variant: one of ``ecs.engine.VARIANTS``.
        players: number of players (2..layout.max_players; two-player needs 2).
        decks: ``None`` (each reset deals every player a random stock deck), or one deck
            for everyone, or a list of decks by player index (cycled when shorter). A
            deck is a stock deck name, a decklist path, an ``ecs.decks.Deck`` or a list
            of card names.
        range_of_influence, attack, teams: the variant's options (801-803, 808-811).
        max_turns: the turn cap (0 = none); reaching it truncates the episode.
        render_mode: ``None``, ``"human"`` (print) or ``"ansi"`` (return a string).
        mulligans: play mulligans (the opening decisions become mulligan/bottom).
        layout: the observation's dimensions (``ObsLayout``).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "melee_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "free-for-all",
        players: int = 4,
        decks: Any = None,
        range_of_influence: int | None = None,
        attack: str | None = None,
        teams: int | None = None,
        max_turns: int = 200,
        render_mode: str | None = None,
        mulligans: bool = False,
        layout: ObsLayout = DEFAULT_LAYOUT,
    ):
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
        if not 2 <= players <= layout.max_players:
            raise ValueError(f"players must be between 2 and {layout.max_players}, got {players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.options = Options(range_of_influence=range_of_influence, attack=attack, teams=teams,
                               max_turns=max_turns, mulligans=mulligans)  # fmt: skip
        try:
            check_setup(variant, players, self.options)
            default_teams(variant, players, teams)
        except SetupError as e:
            raise ValueError(str(e)) from None
        self.variant = variant
        self.n_players = players
        self.render_mode = render_mode
        self.layout = layout
        self.db = load_pool()
        if decks is None:
            self.decks: list[list[str]] | None = None
        elif isinstance(decks, str) or hasattr(decks, "main"):
            self.decks = [_deck_list(decks)]
        else:
            self.decks = [_deck_list(d) for d in decks]
            if not self.decks:
                raise ValueError("decks must not be empty")
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(-OBS_LIMIT, OBS_LIMIT, (layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (layout.max_actions,), np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(layout.max_actions) for a in self.possible_agents}
        self.game: Game | None = None
        self.np_random: np.random.Generator | None = None
        self.agents: list[str] = []
        self._stock: dict[str, list[str]] | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ engine access
    def legal_actions(self) -> list[Action]:
        """The engine actions behind indices ``0 .. n-1`` (at most ``max_actions``)."""
        if self.game is None or self.game.over:
            return []
        return self.game.legal_actions()[: self.layout.max_actions]

    def action_of(self, index: int) -> Action:
        """The engine action that ``index`` stands for now (ValueError if masked out)."""
        return self.legal_actions()[self._index(index)]

    def _index(self, action: Any) -> int:
        agent = getattr(self, "agent_selection", None)
        if isinstance(action, (bool, np.bool_)) or action is None:
            raise ValueError(f"illegal action {action!r} for {agent}: expected an integer index")
        try:
            k = operator.index(action)
        except TypeError:
            raise ValueError(
                f"illegal action {action!r} for {agent}: expected an integer index"
            ) from None
        g = self.game
        n = 0 if g is None or g.over else min(g.n_actions(), self.layout.max_actions)
        if not 0 <= k < n:
            what = (
                f"the {g.pending()[0]} decision" if g is not None and not g.over else "no decision"
            )
            raise ValueError(
                f"illegal action {k} for {agent}: {what} has {n} options "
                f"(valid indices 0..{n - 1}, see observe(agent)['action_mask'])"
            )
        return k

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        rng = self.np_random
        if self.decks is None:
            if self._stock is None:
                self._stock = _stock()
            names = sorted(self._stock)
            lists = [
                self._stock[names[int(rng.integers(len(names)))]] for _ in range(self.n_players)
            ]
        else:
            lists = [self.decks[p % len(self.decks)] for p in range(self.n_players)]
        self.game = g = Game.new(lists, variant=self.variant, options=self.options,
                                 seed=int(rng.integers(2**62)), db=self.db,
                                 names=list(self.possible_agents))  # fmt: skip
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[max(g.current_player(), 0)]
        self._update_done()
        self._deads_step_first()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        k = self._index(action)  # raises ValueError before anything changes
        g = self.game
        g.step(k)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._update_done()
        if not g.over:
            self.agent_selection = self.possible_agents[g.current_player()]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _update_done(self) -> None:
        """Terminate (or truncate) the agents of players who left or whose game ended."""
        g = self.game
        pl = g.v.pl
        capped = g.over and g.capped
        for a in self.agents:
            if self.terminations[a] or self.truncations[a]:
                continue
            p = self.agent_name_mapping[a]
            if not g.over and pl[p, PL.P_ALIVE]:
                continue
            if pl[p, PL.P_WON]:
                reward, result = 1.0, "win"
            elif pl[p, PL.P_LOST]:
                reward, result = -1.0, "loss"
            else:
                reward, result = 0.0, "draw"
            self.rewards[a] = reward
            self.infos[a] = {"result": result, "turn": g.turn}
            if capped and not pl[p, PL.P_LOST] and not pl[p, PL.P_WON]:
                self.truncations[a] = True
            else:
                self.terminations[a] = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.agent_name_mapping[agent]
        g = self.game
        vec = self.layout.observe(g, p)
        deciding = (
            not g.over
            and g.current_player() == p
            and not (self.terminations.get(agent) or self.truncations.get(agent))
        )
        return {
            "observation": vec,
            "action_mask": self.layout.mask(g.n_actions() if deciding else 0),
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'human' or 'ansi')")
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        g = self.game
        if g is None:
            return "<melee_v0: not reset>"
        view = g.view()
        kind, who = g.pending()
        head = f"turn {g.turn} {g.step_name}"
        if g.over:
            head += f"  over: winners {[g.names[p] for p in g.winners]}"
        else:
            head += f"  {g.names[who]} to decide ({kind})"
        lines = [head]
        for name, pv in view["players"].items():
            lines.append(
                f"  {name:>9} life {pv['life']:>3} poison {pv['poison']} hand {pv['hand_size']} "
                f"library {pv['library_size']}{'' if pv['in_game'] else ' [left]'}: "
                + ", ".join(pv["battlefield"])
            )
        if view.get("stack"):
            lines.append("  stack: " + ", ".join(view["stack"]))
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None


DECISION_KINDS = PEND_NAMES

__all__ = ["env", "raw_env", "DEFAULT_LAYOUT", "DECISION_KINDS", "OBS_LIMIT"]
