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
(seats are random in free-for-all; the observation is always relative to the observer).
``env.unwrapped.game`` is the live :class:`ecs.game.Game`.

Action space
------------
``Discrete(MAX_ACTIONS)``. Action ``k`` means *the k-th entry of*
``game.legal_actions()`` for the pending decision. The engine lists every decision kind
(priority, attack, block, mulligan, bottom, discard, choose) in a fixed, documented
order (``systems/legal_actions.py``: pass first, then lands, spells, abilities by object
id; attack/block declarations one creature at a time, closed by ``attack_done`` /
``block_done``), so the mapping is deterministic for a given state and complete: every
decision the engine asks is reachable. ``observation["action_mask"][k] == 1`` exactly
when ``k < len(legal_actions)``. If the engine ever lists more than ``MAX_ACTIONS``
actions, only the first ``MAX_ACTIONS`` are offered (the stock pool peaks near 100).
``env.unwrapped.legal_actions()`` / ``action_of(k)`` decode indices to engine
:class:`~ecs.actions.Action` values, and the ``actions`` section of the observation
describes each index (kind, object, defender, targets), so a learner can tell them apart.
A masked-out index (or anything that is not an integer) raises :class:`ValueError`
naming the action; nothing changes. Agents that are terminated or truncated must step
``None`` (PettingZoo's dead step).

The env sets ``game.auto_pass = True``: priority stops where passing is the only legal
action are skipped by the engine (the env also skips the pass-only stop
``Game.new`` leaves before auto-pass is switched on). Decisions with a single legal
option (e.g. bottoming the last card) are still put to the agent.

Observation
-----------
``Dict(observation=Box(-OBS_LIMIT, OBS_LIMIT, (OBS_SIZE,), float32),
action_mask=Box(0, 1, (MAX_ACTIONS,), int8))``. ``observation`` is one flat vector of
four sections (``split_observation`` returns them as 2-D views); raw counts, clipped to
``+-OBS_LIMIT``; "seat" means the clockwise seat distance from the observer (0 = me,
1 = my left neighbour, the next player in turn order); "slot" is 1 + a row of the
``cards`` section (0 = none / not shown); "card" is 1 + the card's index in
``ecs/data/cards.yaml`` (0 = none or hidden):

- ``game`` (``GAME_FEATURES``): turn, step, pending decision kind, ...
- ``players`` (``MAX_PLAYERS`` rows x ``PLAYER_FEATURES``): row ``k`` is the player at
  seat distance ``k``; rows past the player count are all zero.
- ``cards`` (``MAX_CARDS`` rows x ``CARD_FEATURES``): visible objects in this order:
  cards revealed by a pending choice, the observer's own hand (by object id), the stack
  (top first, abilities included), battlefield (by controller seat, then id), graveyards
  (by owner seat, most recent first), exile and command zone (by owner seat, then id).
  Truncated at ``MAX_CARDS`` rows.
- ``actions`` (``MAX_ACTIONS`` rows x ``ACTION_FEATURES``): row ``k`` describes legal
  action ``k`` (only for the player who must decide; zeros for everyone else).

Sections start at ``GAME_OFFSET``, ``PLAYER_OFFSET``, ``CARD_OFFSET`` and
``ACTION_OFFSET``; ``G``, ``P``, ``C`` and ``A`` map feature names to columns
(``OBS_SIZE`` = 13545 with the defaults: 17 + 8 x 27 + 256 x 28 + 512 x 12).

Hidden information stays hidden: other players' hands and every library appear only as
counts; face-down cards of others show no card; library order never appears (object
ids are not features). The observer's own hand is visible.

Rewards and endings
-------------------
When a player leaves the game (loses, concedes, or draws under range of influence) their
agent is terminated at once with -1 (lost) or 0 (drawn). When the game ends the
remaining agents are terminated with +1 (winners), -1 (losers) or 0 (drawn). If the
engine's turn cap (``max_turns``) ends the game as a draw, the remaining agents are
*truncated* with 0. ``infos[agent]["result"]`` is ``"win"``/``"loss"``/``"draw"`` once
an agent is done.
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

from ecs.actions import Action
from ecs.constants import (
    ATTACK_OPTION,
    BATTLEFIELD,
    COMMAND,
    COUNTER_KINDS,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    STACK,
    STEP_NAMES,
)
from ecs.game import SUPPORTED_VARIANTS, VARIANTS, Game, Options
from ecs.legacy.cards import load_cards

# ----------------------------------------------------------------------------- layout
MAX_PLAYERS = 8
MAX_CARDS = 256  # visible objects shown (6-player random games peak near 120)
MAX_ACTIONS = 512  # discrete action space size (stock pool peaks near 100 legal actions)
OBS_LIMIT = float(2**20)  # observation values are clipped to +-OBS_LIMIT

DECISION_KINDS = ("priority", "attack", "block", "mulligan", "bottom", "discard", "choose")
CHOICE_KINDS = ("target", "pile", "piles", "pay_life", "redistribute")
ACTION_KINDS = (
    "pass",
    "play_land",
    "cast",
    "activate",
    "attack",
    "attack_done",
    "block",
    "block_done",
    "block_reset",
    "mulligan",
    "keep",
    "bottom",
    "discard",
    "choose",
    "leave",
)

GAME_FEATURES = (
    "turn",  # engine turn counter
    "step",  # ecs.constants step id (UNTAP=0 .. CLEANUP=12, PREGAME=13)
    "decision",  # 1 + DECISION_KINDS index of the pending decision (0 = none / over)
    "decision_count",  # cards still to bottom / discard
    "i_decide",  # the pending decision is mine
    "choice",  # 1 + CHOICE_KINDS index while a "choose" decision is pending
    "stack_size",
    "players",
    "players_in_game",
    "active_seat",  # seat distance of the active player
    "starting_seat",  # seat distance of the player who took the first turn
    "variant",  # VARIANTS index (ecs.game)
    "attack_option",  # 0 multiple, 1 left, 2 right
    "multiplayer",
    "legal_actions",  # number of legal actions (0 unless i_decide)
    "over",
    "max_turns",
)
PLAYER_FEATURES = (
    "present",  # this row is a player of the game
    "in_game",
    "is_me",
    "teammate",  # same team as me (me included)
    "seat",  # seat distance from me (= row index)
    "is_active",
    "is_deciding",
    "life",
    "poison",
    "hand_size",
    "library_size",
    "graveyard_size",
    "battlefield_size",  # permanents controlled
    "lands_played",  # this turn
    "in_my_range",  # 801.2
    "i_can_attack",  # attack option / adjacency allows me to attack them
    "won",
    "lost",
    "drawn",
    "mulligans",
    "mana_W",
    "mana_U",
    "mana_B",
    "mana_R",
    "mana_G",
    "mana_C",
    "emperor",  # role in Emperor games
)
CARD_FEATURES = (
    "present",
    "card",  # 1 + card index; an ability on the stack shows its source's card
    "is_ability",
    "zone",  # 1 + ecs.constants zone id (library = 1 only for cards a choice reveals)
    "owner_seat",
    "controller_seat",  # owner outside the battlefield and stack
    "mine",  # controller is me
    "teammate",  # controller is on my team (me included)
    "tapped",
    "sick",
    "power",
    "toughness",
    "damage",
    *(f"counter_{k}" for k in COUNTER_KINDS),
    "attacking",  # 1 + seat distance of the player it attacks (0 = none)
    "attacking_slot",  # planeswalker / battle it attacks
    "blocking_slot",  # attacker it blocks
    "blocked",
    "attached_slot",  # what it is attached to
    "token",
    "types",  # card type bits (ecs.constants.TYPE_BITS)
    "keywords",  # keyword bits (ecs.constants.KW), after continuous effects
    "stack_pos",  # 1 = top of the stack, 0 = not on the stack
    "pile",  # 1 / 2 while a pile choice is pending (Fact or Fiction)
)
ACTION_FEATURES = (
    "kind",  # 1 + ACTION_KINDS index (0 = no action in this row)
    "obj_seat",  # 1 + seat distance when the chosen thing is a player ("choose" a target)
    "obj_slot",  # the card / attacker / blocker / chosen object
    "obj_card",  # its card (when visible to me)
    "arg",  # X (cast), ability index (activate), pile (choose), pile-1 bitmask (piles)
    "arg_seat",  # 1 + seat distance of the attacked player
    "arg_slot",  # attacked planeswalker, or the attacker a blocker blocks
    "n_targets",
    "target0_seat",
    "target0_slot",
    "target1_seat",
    "target1_slot",
)

G = {n: i for i, n in enumerate(GAME_FEATURES)}
P = {n: i for i, n in enumerate(PLAYER_FEATURES)}
C = {n: i for i, n in enumerate(CARD_FEATURES)}
A = {n: i for i, n in enumerate(ACTION_FEATURES)}

GAME_OFFSET = 0
PLAYER_OFFSET = GAME_OFFSET + len(GAME_FEATURES)
CARD_OFFSET = PLAYER_OFFSET + MAX_PLAYERS * len(PLAYER_FEATURES)
ACTION_OFFSET = CARD_OFFSET + MAX_CARDS * len(CARD_FEATURES)
OBS_SIZE = ACTION_OFFSET + MAX_ACTIONS * len(ACTION_FEATURES)

_KIND_ID = {k: i + 1 for i, k in enumerate(ACTION_KINDS)}
_DECISION_ID = {k: i + 1 for i, k in enumerate(DECISION_KINDS)}
_CHOICE_ID = {k: i + 1 for i, k in enumerate(CHOICE_KINDS)}
_VARIANT_ID = {v: i for i, v in enumerate(VARIANTS)}


def split_observation(vec: np.ndarray) -> dict[str, np.ndarray]:
    """Views of a flat observation: game (G,), players, cards, actions (rows x features)."""
    return {
        "game": vec[GAME_OFFSET:PLAYER_OFFSET],
        "players": vec[PLAYER_OFFSET:CARD_OFFSET].reshape(MAX_PLAYERS, len(PLAYER_FEATURES)),
        "cards": vec[CARD_OFFSET:ACTION_OFFSET].reshape(MAX_CARDS, len(CARD_FEATURES)),
        "actions": vec[ACTION_OFFSET:OBS_SIZE].reshape(MAX_ACTIONS, len(ACTION_FEATURES)),
    }


# ----------------------------------------------------------------------------- observation
def _revealed(g: Game) -> tuple[list[int], dict[int, int]]:
    """Cards a pending choice reveals to everyone (Fact or Fiction), and their pile."""
    c = g.choice
    if c is None or g.pending is None or g.pending.kind != "choose":
        return [], {}
    if "piles" in c.info:
        first, second = c.info["piles"]
        pile = {int(i): 1 for i in first} | {int(i): 2 for i in second}
        return [int(i) for i in (*first, *second)], pile
    if "cards" in c.info:
        return [int(i) for i in c.info["cards"]], {}
    return [], {}


def build_observation(
    g: Game, me: int, legal: list[Action] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The flat observation vector and the action mask of player ``me``.

    ``legal`` is the pending decision's legal-action list (computed when omitted); it is
    only used when ``me`` is the player who must decide.
    """
    from ecs.legacy.systems.continuous_effects import recompute

    recompute(g)
    o, pl = g.obj, g.pl
    n, N = pl.n, o.n
    vec = np.zeros(OBS_SIZE, dtype=np.float32)
    mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
    sec = split_observation(vec)
    seat = pl.seat.astype(np.int64)
    rel = (seat - seat[me]) % n  # seat distance of each player from me
    team = pl.team
    zone, owner, ctl = o.zone[:N], o.owner[:N].astype(np.int64), o.controller[:N].astype(np.int64)
    d = g.pending
    deciding = -1 if (g.over or d is None) else int(d.player)
    if deciding == me and legal is None:
        legal = g.legal_actions()
    acts = (legal or [])[:MAX_ACTIONS] if deciding == me else []

    # ---- game
    gv = sec["game"]
    gv[G["turn"]] = g.turn
    gv[G["step"]] = g.step_no
    gv[G["decision"]] = _DECISION_ID.get(d.kind, 0) if deciding >= 0 else 0
    gv[G["decision_count"]] = d.count if deciding >= 0 else 0
    gv[G["i_decide"]] = deciding == me
    if deciding >= 0 and d.kind == "choose" and g.choice is not None:
        gv[G["choice"]] = _CHOICE_ID.get(g.choice.kind, 0)
    gv[G["stack_size"]] = len(g.stack)
    gv[G["players"]] = n
    gv[G["players_in_game"]] = int(pl.alive.sum())
    gv[G["active_seat"]] = rel[g.active]
    gv[G["starting_seat"]] = rel[g.starting_player]
    gv[G["variant"]] = _VARIANT_ID.get(g.variant, 0)
    gv[G["attack_option"]] = g.attack_mode
    gv[G["multiplayer"]] = g.multiplayer
    gv[G["legal_actions"]] = len(acts)
    gv[G["over"]] = g.over
    gv[G["max_turns"]] = g.max_turns

    # ---- players
    pv = sec["players"]
    in_hand = zone == HAND
    hand_n = np.bincount(owner[in_hand], minlength=n)[:n]
    gy_n = np.bincount(owner[zone == GRAVEYARD], minlength=n)[:n]
    on_bf = (zone == BATTLEFIELD) & (ctl >= 0)
    bf_n = np.bincount(ctl[on_bf], minlength=n)[:n]
    rows = rel
    pv[rows, P["present"]] = 1
    pv[rows, P["in_game"]] = pl.alive
    pv[rows, P["is_me"]] = np.arange(n) == me
    pv[rows, P["teammate"]] = team == team[me]
    pv[rows, P["seat"]] = rel
    pv[rows, P["is_active"]] = np.arange(n) == g.active
    pv[rows, P["is_deciding"]] = np.arange(n) == deciding
    pv[rows, P["life"]] = pl.life
    pv[rows, P["poison"]] = pl.poison
    pv[rows, P["hand_size"]] = hand_n
    pv[rows, P["library_size"]] = [len(lib) for lib in g.library]
    pv[rows, P["graveyard_size"]] = gy_n
    pv[rows, P["battlefield_size"]] = bf_n
    pv[rows, P["lands_played"]] = pl.lands_played
    pv[rows, P["in_my_range"]] = g.range_mask[me] & pl.alive
    pv[rows, P["i_can_attack"]] = g.attack_mask[me] & pl.alive
    pv[rows, P["won"]] = pl.won
    pv[rows, P["lost"]] = pl.lost
    pv[rows, P["drawn"]] = pl.drawn
    pv[rows, P["mulligans"]] = pl.mulligans
    pv[rows, P["mana_W"] : P["mana_C"] + 1] = pl.mana
    pv[rows, P["emperor"]] = [r == "emperor" for r in g.roles]

    # ---- cards (visible objects only)
    revealed, pile = _revealed(g)
    hand = np.flatnonzero(in_hand & (owner == me))
    stack = [int(i) for i in reversed(g.stack)]
    bf = np.flatnonzero(zone == BATTLEFIELD)
    bf = bf[np.lexsort((bf, rel[np.clip(ctl[bf], 0, n - 1)]))]
    gy = np.flatnonzero(zone == GRAVEYARD)
    gy = gy[np.lexsort((-o.zpos[gy], rel[np.clip(owner[gy], 0, n - 1)]))]
    ex = np.flatnonzero((zone == EXILE) | (zone == COMMAND))
    ex = ex[np.lexsort((ex, rel[np.clip(owner[ex], 0, n - 1)]))]
    ids = np.concatenate(
        [np.asarray(revealed, dtype=np.int64), hand, np.asarray(stack, dtype=np.int64), bf, gy, ex]
    ).astype(np.int64)[:MAX_CARDS]
    slot_of = np.zeros(N + 1, dtype=np.int64)  # index N stands for "none"
    slot_of[ids] = np.arange(1, len(ids) + 1)

    def slot(codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes, dtype=np.int64)
        ok = (codes >= 0) & (codes < N)
        return np.where(ok, slot_of[np.where(ok, codes, N)], 0)

    k = len(ids)
    cv = sec["cards"]
    if k:
        card = o.card[ids].astype(np.int64)
        is_ab = card < 0
        if is_ab.any():
            for r in np.flatnonzero(is_ab):
                i = int(ids[r])
                item = g.items.get(i)
                src = item.source if item is not None else int(o.source[i])
                card[r] = o.card[src] if 0 <= src < N else -1
        z = zone[ids]
        own = owner[ids]
        c = np.where((z == BATTLEFIELD) | (z == STACK), ctl[ids], own)
        c = np.where(c >= 0, c, own)
        hidden = ~o.face_up[ids] & (own != me) & (c != me)
        cv[:k, C["present"]] = 1
        cv[:k, C["card"]] = np.where(hidden | (card < 0), 0, card + 1)
        cv[:k, C["is_ability"]] = is_ab
        cv[:k, C["zone"]] = z + 1
        cv[:k, C["owner_seat"]] = np.where(own >= 0, rel[np.clip(own, 0, n - 1)], 0)
        cv[:k, C["controller_seat"]] = np.where(c >= 0, rel[np.clip(c, 0, n - 1)], 0)
        cv[:k, C["mine"]] = c == me
        cv[:k, C["teammate"]] = (c >= 0) & (team[np.clip(c, 0, n - 1)] == team[me])
        cv[:k, C["tapped"]] = o.tapped[ids]
        cv[:k, C["sick"]] = o.sick[ids]
        cv[:k, C["power"]] = o.power[ids]
        cv[:k, C["toughness"]] = o.toughness[ids]
        cv[:k, C["damage"]] = o.damage[ids]
        c0 = C[f"counter_{COUNTER_KINDS[0]}"]
        cv[:k, c0 : c0 + len(COUNTER_KINDS)] = o.counters[ids]
        ap = o.attacking_player[ids].astype(np.int64)
        cv[:k, C["attacking"]] = np.where(ap >= 0, rel[np.clip(ap, 0, n - 1)] + 1, 0)
        cv[:k, C["attacking_slot"]] = slot(o.attacking_object[ids])
        cv[:k, C["blocking_slot"]] = slot(o.blocking[ids])
        cv[:k, C["blocked"]] = o.blocked[ids]
        cv[:k, C["attached_slot"]] = slot(o.attached_to[ids])
        cv[:k, C["token"]] = o.token[ids]
        cv[:k, C["types"]] = np.where(hidden, 0, o.types[ids])
        cv[:k, C["keywords"]] = np.where(hidden, 0, o.kw[ids])
        if stack:
            pos = {i: r + 1 for r, i in enumerate(stack)}
            cv[:k, C["stack_pos"]] = [pos.get(int(i), 0) for i in ids]
        if pile:
            cv[:k, C["pile"]] = [pile.get(int(i), 0) for i in ids]

    # ---- actions
    if acts:
        av = sec["actions"]
        mask[: len(acts)] = 1

        def put(r: int, seat_col: int, slot_col: int, code: int) -> None:
            if code < 0:
                q = -1 - code
                if 0 <= q < n:
                    av[r, seat_col] = rel[q] + 1
            elif code < N:
                av[r, slot_col] = slot_of[code]

        def visible(i: int) -> bool:
            if slot_of[i]:
                return True
            zi = zone[i]
            return zi not in (LIBRARY, HAND) or owner[i] == me

        cards_of_choice = list(g.choice.info.get("cards", ())) if g.choice is not None else []
        for r, a in enumerate(acts):
            av[r, A["kind"]] = _KIND_ID.get(a.kind, 0)
            if a.obj != -1:
                put(r, A["obj_seat"], A["obj_slot"], a.obj)
                if 0 <= a.obj < N and o.card[a.obj] >= 0 and visible(a.obj):
                    av[r, A["obj_card"]] = o.card[a.obj] + 1
            if a.kind in ("cast", "activate"):
                av[r, A["arg"]] = max(a.arg, 0)
            elif a.kind in ("attack", "block"):  # defender code / attacker id
                put(r, A["arg_seat"], A["arg_slot"], a.arg)
            elif a.kind == "choose" and a.arg >= 0:
                av[r, A["arg"]] = a.arg
            if a.kind == "choose" and a.targets and cards_of_choice:  # piles: pile-1 bitmask
                av[r, A["arg"]] = sum(
                    1 << j for j, i in enumerate(cards_of_choice) if i in a.targets
                )
            av[r, A["n_targets"]] = len(a.targets)
            for j, t in enumerate(a.targets[:2]):
                put(r, A[f"target{j}_seat"], A[f"target{j}_slot"], int(t))

    np.clip(vec, -OBS_LIMIT, OBS_LIMIT, out=vec)
    return vec, mask


# ----------------------------------------------------------------------------- decks
_STOCK: dict[str, list[str]] = {}


def _stock() -> dict[str, list[str]]:
    if not _STOCK:
        from ecs.decks import load_deck, stock_decks

        for name in stock_decks():
            _STOCK[name] = load_deck(name).main
    return _STOCK


def _deck_list(spec: Any) -> list[str]:
    from ecs.decks import load_deck

    if isinstance(spec, str):
        return list(_stock().get(spec) or load_deck(spec).main)
    if hasattr(spec, "main"):
        return list(spec.main)
    return [str(c) for c in spec]


# ----------------------------------------------------------------------------- the env
def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (recommended)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # noqa: N801  (PettingZoo naming convention)
    """Melee as an AEC environment; see the module docstring for spaces and rewards.

    Args:
        variant: one of ``ecs.game.SUPPORTED_VARIANTS``.
        players: number of players (2..MAX_PLAYERS; two-player needs 2).
        decks: ``None`` (each reset deals every player a random stock deck), or one deck
            for everyone, or a list of decks used by player index (cycled when shorter).
            A deck is a stock deck name, a decklist path, an ``ecs.decks.Deck`` or a
            list of card names.
        range_of_influence: ``None`` (the variant's default) or an int (801).
        attack: ``"multiple"``, ``"left"`` or ``"right"`` (802, 803).
        teams: number of teams for team variants (``None``: the variant's default).
        max_turns: the engine's turn cap (0 = none); reaching it truncates the episode.
        render_mode: ``None``, ``"human"`` (print) or ``"ansi"`` (return a string).
        mulligans: play London mulligans (the opening decisions become mulligan/bottom).
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
    ):
        super().__init__()
        if variant not in SUPPORTED_VARIANTS:
            raise ValueError(f"unsupported variant {variant!r} (supported: {SUPPORTED_VARIANTS})")
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be between 2 and {MAX_PLAYERS}, got {players}")
        if variant == "two-player" and players != 2:
            raise ValueError("two-player games have exactly two players")
        if attack is not None and attack not in ATTACK_OPTION:
            raise ValueError(f"unknown attack option {attack!r} (expected one of {ATTACK_OPTION})")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        from ecs.legacy.systems.variants import VARIANTS as RULES
        from ecs.legacy.systems.variants import default_teams

        if players < RULES[variant].min_players:
            raise ValueError(f"{variant} needs at least {RULES[variant].min_players} players")
        default_teams(variant, players, teams)  # raises on an impossible team split
        self.variant = variant
        self.n_players = players
        self.range_of_influence = range_of_influence
        self.attack = attack
        self.teams = teams
        self.max_turns = max_turns
        self.mulligans = mulligans
        self.render_mode = render_mode
        self.db = load_cards()
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
        self.observation_spaces = {a: _observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(MAX_ACTIONS) for a in self.possible_agents}
        self.game: Game | None = None
        self.np_random: np.random.Generator | None = None
        self._legal: list[Action] | None = None
        self._skip_agent_selection = None
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ engine access
    def legal_actions(self) -> list[Action]:
        """The engine actions behind indices ``0 .. n-1`` (at most ``MAX_ACTIONS``)."""
        if self.game is None or self.game.over or self.game.pending is None:
            return []
        if self._legal is None:
            self._legal = self.game.legal_actions()[:MAX_ACTIONS]
        return self._legal

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
        legal = self.legal_actions()
        if not 0 <= k < len(legal):
            d = self.game.pending if self.game is not None else None
            what = f"the {d.kind} decision" if d is not None else "no decision"
            raise ValueError(
                f"illegal action {k} for {agent}: {what} has {len(legal)} legal actions "
                f"(valid indices 0..{len(legal) - 1}, see observe(agent)['action_mask'])"
            )
        return k

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        rng = self.np_random
        if self.game is not None:
            self.game.close()
        if self.decks is None:
            stock = _stock()
            names = sorted(stock)
            lists = [stock[names[int(rng.integers(len(names)))]] for _ in range(self.n_players)]
        else:
            lists = [self.decks[p % len(self.decks)] for p in range(self.n_players)]
        g = Game.new(
            lists,
            variant=self.variant,
            options=Options(range_of_influence=self.range_of_influence, attack=self.attack),
            seed=int(rng.integers(2**62)),
            db=self.db,
            mulligans=self.mulligans,
            max_turns=self.max_turns,
            teams=self.teams,
        )
        g.auto_pass = True
        self.game = g
        self._legal = None
        # Game.new stops at the first priority before auto-pass is on: skip pass-only stops
        while not g.over and g.pending is not None and g.pending.kind == "priority":
            acts = self.legal_actions()
            if len(acts) != 1:
                break
            g.step(acts[0])
            self._legal = None

        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[max(g.current_player(), 0)]
        self._update_done()
        self._deads_step_first()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        k = self._index(action)  # raises ValueError before anything changes
        self.game.step(self._legal[k])  # IllegalAction (a ValueError) leaves the game as it was
        self._legal = None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._update_done()
        g = self.game
        if not g.over and g.current_player() >= 0:
            self.agent_selection = self.possible_agents[g.current_player()]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _update_done(self) -> None:
        """Terminate (or truncate) the agents of players who left or whose game ended."""
        g = self.game
        capped = g.over and not g.winners and g.max_turns > 0 and g.turn >= g.max_turns
        for a in self.agents:
            if self.terminations[a] or self.truncations[a]:
                continue
            p = self.agent_name_mapping[a]
            if not g.over and g.pl.alive[p]:
                continue
            if p in g.winners:
                reward, result = 1.0, "win"
            elif p in g.losers:
                reward, result = -1.0, "loss"
            else:
                reward, result = 0.0, "draw"
            self.rewards[a] = reward
            self.infos[a] = {"result": result, "turn": int(g.turn)}
            if capped and p in g.drawn:
                self.truncations[a] = True
            else:
                self.terminations[a] = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.agent_name_mapping[agent]
        g = self.game
        deciding = (
            g.current_player() == p
            and agent in self.terminations
            and not (self.terminations[agent] or self.truncations[agent])
        )
        vec, mask = build_observation(g, p, self.legal_actions() if deciding else [])
        return {"observation": vec, "action_mask": mask}

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
        d = g.pending
        head = f"turn {g.turn} {STEP_NAMES[g.step_no]}"
        if g.over:
            head += f"  over: winners {[self.possible_agents[p] for p in g.winners]}"
        elif d is not None:
            head += f"  {self.possible_agents[d.player]} to decide ({d.kind})"
        lines = [head]
        for p in sorted(range(g.n_players), key=lambda q: g.pl.seat[q]):
            bf = ", ".join(
                g.name_of(i) + (" (T)" if g.obj.tapped[i] else "") for i in g.battlefield(p)
            )
            lines.append(
                f"  {self.possible_agents[p]:>9} life {g.pl.life[p]:>3} poison {g.pl.poison[p]} "
                f"hand {len(g.hand(p))} library {len(g.library[p])}"
                f"{'' if g.pl.alive[p] else ' [left]'}: {bf}"
            )
        if g.stack:
            lines.append("  stack: " + ", ".join(g.name_of(i) for i in reversed(g.stack)))
        return "\n".join(lines)

    def close(self) -> None:
        if self.game is not None:
            self.game.close()
            self.game = None


def _observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(-OBS_LIMIT, OBS_LIMIT, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), np.int8),
        }
    )


__all__ = [
    "env",
    "raw_env",
    "build_observation",
    "split_observation",
    "MAX_ACTIONS",
    "MAX_CARDS",
    "MAX_PLAYERS",
    "OBS_SIZE",
    "OBS_LIMIT",
    "GAME_FEATURES",
    "PLAYER_FEATURES",
    "CARD_FEATURES",
    "ACTION_FEATURES",
    "DECISION_KINDS",
    "ACTION_KINDS",
]
