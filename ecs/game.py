"""The game facade: state, setup, and the step API (legal_actions / step / clone / observe).

A :class:`Game` holds one game's state: object and player columns
(``components/``), ordered zones, the stack(s), the esper world of rare
objects, and the pending decision. Rules live in ``systems/``; this module only
wires them together. ``Game.step`` validates an action before it changes
anything, so an illegal action leaves the state exactly as it was (730.1).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ecs.actions import Action, IllegalAction
from ecs.constants import (
    ATTACK_OPTION,
    BATTLEFIELD,
    HAND,
    LIBRARY,
    NO_LIMIT,
    PREGAME,
    STEP_NAMES,
)
from ecs.legacy.cards import CardDB, load_cards
from ecs.legacy.components.objects import ObjectColumns
from ecs.legacy.components.players import PlayerColumns
from ecs.legacy.components.stack import Decision, StackItem
from ecs.world import World

VARIANTS = (
    "two-player",
    "free-for-all",
    "grand-melee",
    "team-vs-team",
    "emperor",
    "two-headed-giant",
    "alternating-teams",
)
SUPPORTED_VARIANTS = (
    "two-player",
    "free-for-all",
    "team-vs-team",
    "emperor",
    "alternating-teams",
    "two-headed-giant",
    "grand-melee",
)


@dataclass
class Options:
    """Multiplayer options (800.2); ``None`` fields take the variant's default."""

    range_of_influence: int | None = None  # None = the variant's default (unlimited for most)
    attack: str | None = None  # None = the variant's default (left in Grand Melee, 807.2b)
    deploy_creatures: bool | None = None  # None = the variant's default (on for Emperor)
    shared_team_turns: bool = False


class Game:
    """One game of Magic. Build with :meth:`Game.new` or ``ecs.legacy.scenario``."""

    def __init__(
        self,
        names: list[str],
        variant: str = "free-for-all",
        options: Options | None = None,
        seed: int = 0,
        db: CardDB | None = None,
        teams: list[int] | None = None,
        roles: list[str | None] | None = None,
    ):
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r} (expected one of {VARIANTS})")
        if variant not in SUPPORTED_VARIANTS:
            raise NotImplementedError(
                f"variant {variant!r} is not implemented yet (supported: {SUPPORTED_VARIANTS})"
            )
        if len(names) < 2:
            raise ValueError("a game needs at least two players")
        if variant == "two-player" and len(names) != 2:
            raise ValueError("two-player games have exactly two players")
        self.db = db or load_cards()
        self.variant = variant
        self.options = options or Options()
        if self.options.attack is None:
            from ecs.legacy.systems.variants import VARIANTS as _RULES

            self.options = replace(self.options, attack=_RULES[variant].default_attack)
        if self.options.attack not in ATTACK_OPTION:
            raise ValueError(f"unknown attack option {self.options.attack!r}")
        self.names = list(names)
        self.team_names: list[str] | None = None
        n = len(names)
        self.multiplayer = n > 2  # 800.1
        self.obj = ObjectColumns()
        self.pl = PlayerColumns(n)
        self.pl.seat[:] = np.arange(n)
        self.pl.team[:] = np.asarray(teams if teams is not None else np.arange(n))
        from ecs.legacy.systems.variants import VARIANTS as RULES

        self.rules = RULES[variant]
        self.roles: list[str | None] = list(roles) if roles else [None] * n
        reach = self.options.range_of_influence
        if reach is None:
            reach = self.rules.default_range
        self.pl.reach[:] = NO_LIMIT if reach is None else reach
        deploy = self.options.deploy_creatures
        self.deploy = self.rules.deploy if deploy is None else bool(deploy)
        self.team_turns = self.rules.team_turns or bool(self.options.shared_team_turns)  # 805
        if self.team_turns and variant not in ("team-vs-team", "two-headed-giant"):
            raise ValueError(
                f"shared team turns need teams sitting together (805.1), not {variant}"
            )
        self.shared_life = self.rules.shared_life  # 810.4, 810.10
        self.active_players: list[int] = [0]  # everyone taking this turn (805.4a: the active team)
        self.markers: list = []  # Grand Melee turn markers (systems/turn_markers.py, 807.4)
        self.cur = 0  # the marker whose turn is loaded into the fields above
        self.deferred_extra: dict[int, int] = {}  # 807.4i-j: extra turns taken before the next
        self.library: list[list[int]] = [[] for _ in range(n)]  # top of library = end of list
        self.stack: list[int] = []  # bottom .. top
        self.items: dict[int, StackItem] = {}
        self.world = World()
        self._finalizer = weakref.finalize(self, World.close, self.world)
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.turn = 0
        self.step_no = PREGAME
        self.active = 0  # whose turn it is (may have left the game, 800.4j)
        self.starting_player = 0
        self.passes = 0
        self.pending: Decision | None = None
        self.extra_turns: list[int] = []
        self.ts = 0  # timestamp counter (613.7)
        self.zctr = 0
        self.triggers: list[tuple[int, Any, int, dict]] = []  # (source, ability, controller, event)
        self.over = False
        self.winners: list[int] = []
        self.losers: list[int] = []
        self.drawn: list[int] = []
        self.created: dict[str, int] = {}  # token/copy name -> count, for NAME#N references
        self.refs: dict[str, int] = {}  # scenario ids and NAME#N -> object id
        self.auto_pass = False  # skip priority stops where passing is the only legal action
        self.history: list[Action] = []
        self.range_mask = np.ones((n, n), dtype=np.bool_)
        self.declared_attackers = False
        self.blockers_to_declare: list[int] = []
        self.block_order: dict[int, list[int]] = {}  # attacker -> blockers in declaration order
        self.first_strike_step = False
        self.max_turns = 0  # 0 = no cap; a capped game ends as a draw
        self.setup: dict | None = None  # Game.new's arguments, for replays
        self._layers_dirty = True
        self.sba_dirty = True
        self.version = 0  # bumped by every change (cache key for pre-checks)
        self._can_act_version = -1
        self._can_act = np.zeros(n, dtype=np.bool_)
        self.trigger_kinds: set[str] = set()
        self.static_kinds: set[str] = set()  # static abilities some card of this game has
        self._seat_cache: tuple = (b"", [], [])
        self._sba_buf = None
        self._static_count = np.zeros(1, dtype=np.int64)
        self._sba_work = np.zeros(1, dtype=np.int64)
        self._mana_cache: dict = {}
        self._target_cache: dict = {}
        self.poison_limit = np.array([10], dtype=np.int64)  # 704.5c (810.10: 15 for 2HG)
        self.static_objs: list[int] = []  # battlefield objects with static abilities (layers)
        self.todo = "begin"  # turn_structure state: begin | priority | end
        self.priority_to = 0
        self.attack_decl: dict[int, int] = {}
        self.block_decl: dict[int, int] = {}
        self.attack_mode = ATTACK_OPTION[self.options.attack]
        self.adjacent_only = self.rules.adjacent_only
        self.attack_mask = np.ones((n, n), dtype=np.bool_) & ~np.eye(n, dtype=np.bool_)
        self.cleanup_again = False
        self.lookback: list[int] | None = None  # leave-the-battlefield sources during an SBA batch
        self.restarted = False  # set by a restart (723) while an ability resolves
        self.loop_seen: set[bytes] = set()
        self.loop_run = 0  # pass-only priority stops in a row (systems/loops.py)  # systems/loops.py: pass-only states since a choice
        self.choice = None  # systems.choices.Choice while a "choose" decision is pending
        self.mull_kept: set[int] = set()
        self.mull_take: set[int] = set()
        self.mull_queue: list[int] = []
        self.mull_bottomed: dict[int, int] = {}

    # ------------------------------------------------------------------ helpers
    @property
    def dirty(self) -> bool:
        """Derived columns (layers) need recomputing."""
        return self._layers_dirty

    @dirty.setter
    def dirty(self, value: bool) -> None:
        self._layers_dirty = value
        if value:
            self.version += 1
            self.sba_dirty = True  # something changed: state-based actions must look again

    @property
    def n_players(self) -> int:
        return self.pl.n

    def step_name(self) -> str:
        return STEP_NAMES[self.step_no]

    def stamp(self) -> int:
        self.ts += 1
        return self.ts

    def new_object(self, card: int, owner: int, zone: int) -> int:
        i = self.obj.add()
        o = self.obj
        o.card[i] = card
        o.types[i] = self.db.types[card] if card >= 0 else 0
        o.owner[i] = owner
        o.base_controller[i] = owner
        o.controller[i] = owner
        o.last_controller[i] = owner
        o.zone[i] = zone
        o.timestamp[i] = self.stamp()
        if card >= 0:
            for t in self.db.defs[card].triggers:  # which trigger events this game must watch
                self.trigger_kinds.add(t.when)
            for k, _ in self.db.defs[card].static:  # and which static abilities it may meet
                self.static_kinds.add(k)
        self.dirty = True
        return i

    def card_def(self, i: int):
        return self.db.defs[self.obj.card[i]]

    def name_of(self, i: int) -> str:
        c = self.obj.card[i]
        if c < 0:
            item = self.items.get(i)
            src = item.source if item else self.obj.source[i]
            return f"ability of {self.name_of(src)}" if src >= 0 else "ability"
        return self.db.defs[c].name

    def alive_players(self) -> list[int]:
        return [int(p) for p in np.flatnonzero(self.pl.alive)]

    def _seating(self) -> tuple[list[int], list[int]]:
        """(players in clockwise seat order, each player's position in it); seats never move."""
        key = self.pl.seat.tobytes()
        if self._seat_cache[0] != key:
            order = [int(q) for q in np.argsort(self.pl.seat, kind="stable")]
            pos = [0] * len(order)
            for k, q in enumerate(order):
                pos[q] = k
            self._seat_cache = (key, order, pos)
        return self._seat_cache[1], self._seat_cache[2]

    def turn_order_from(self, p: int) -> list[int]:
        """Players still in the game in turn order starting with p (or the next after p)."""
        order, pos = self._seating()
        n = len(order)
        alive = self.pl.alive
        start = pos[p]
        return [q for k in range(n) if alive[q := order[(start + k) % n]]]

    def next_in_turn_order(self, p: int) -> int:
        """The next player still in the game after p (to p's left)."""
        order, pos = self._seating()
        n = len(order)
        alive = self.pl.alive
        start = pos[p]
        for k in range(1, n + 1):
            q = order[(start + k) % n]
            if alive[q]:
                return q
        return -1

    def turn_cap(self) -> int:
        """The safety cap on turns (0 = none); in Grand Melee it counts rounds of the table:
        ``max_turns`` turns for each marker the game began with (807.4a)."""
        from ecs.legacy.systems.variants import turn_cap

        return turn_cap(self.variant, self.n_players, self.max_turns)

    def is_active(self, p: int) -> bool:
        """Is p taking the current turn (the active player, or on the active team, 805.4a)?"""
        return p in self.active_players

    def teammates(self, p: int) -> list[int]:
        """p and the players on p's team still in the game, in turn order from p."""
        t = self.pl.team[p]
        return [q for q in self.turn_order_from(p) if self.pl.team[q] == t] or [p]

    def primary(self, p: int) -> int:
        """805.2: the team's primary player (its first seat in turn order), still in the game."""
        t = self.pl.team[p]
        order, _ = self._seating()
        members = [q for q in order if self.pl.team[q] == t and self.pl.alive[q]]
        if not members:
            return p
        # the team's seats are consecutive: the primary is the member whose right-hand
        # neighbour (previous seat) is not a teammate
        for q in members:
            prev = self.prev_in_turn_order(q)
            if prev < 0 or self.pl.team[prev] != t or prev == q:
                return q
        return members[0]

    def prev_in_turn_order(self, p: int) -> int:
        order, pos = self._seating()
        n = len(order)
        for k in range(1, n + 1):
            q = order[(pos[p] - k) % n]
            if self.pl.alive[q]:
                return q
        return -1

    def apnap(self) -> list[int]:
        """Active player, then nonactive players in turn order (101.4)."""
        return self.turn_order_from(self.active)

    def opponents(self, p: int) -> list[int]:
        t = self.pl.team[p]
        return [q for q in self.alive_players() if self.pl.team[q] != t]

    def in_range(self, p: int, q: int) -> bool:
        """Is player q within player p's range of influence (801.2)? q must be in the game."""
        return bool(self.range_mask[p, q]) and bool(self.pl.alive[q])

    def obj_in_range(self, p: int, i: int) -> bool:
        """801.2d: an object is in range if its controller is (a battle: or its protector)."""
        if self.in_range(p, int(self.obj.controller[i])):
            return True
        q = int(self.obj.protector[i])
        return q >= 0 and self.in_range(p, q)

    def zone_objects(
        self, zone: int, player: int | None = None, by: str = "controller"
    ) -> list[int]:
        o = self.obj
        n = o.n
        mask = o.zone[:n] == zone
        if player is not None:
            col = o.controller if by == "controller" else o.owner
            mask &= col[:n] == player
        return np.flatnonzero(mask).tolist()

    def hand(self, p: int) -> list[int]:
        return self.zone_objects(HAND, p, by="owner")

    def battlefield(self, p: int | None = None) -> list[int]:
        return self.zone_objects(BATTLEFIELD, p)

    # ------------------------------------------------------------------ public API
    def legal_actions(self) -> list[Action]:
        """Every action the pending decision allows, in a fixed order."""
        from ecs.legacy.systems.legal_actions import legal_actions

        return legal_actions(self)

    def step(self, action: Action) -> None:
        """Apply one action, then advance to the next decision. Illegal actions raise
        :class:`IllegalAction` and change nothing."""
        from ecs.legacy.systems.legal_actions import apply_action

        if self.over:
            raise IllegalAction("the game is over")
        apply_action(self, action)
        self.history.append(action)

    def current_player(self) -> int:
        """The player who must act now (-1 when the game is over)."""
        return -1 if self.over or self.pending is None else self.pending.player

    def clone(self) -> Game:
        """A deep, independent copy (array copies; the esper world is copied too)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.obj = self.obj.copy()
        g.pl = self.pl.copy()
        g.library = [list(x) for x in self.library]
        g.stack = list(self.stack)
        g.items = {k: replace(v) for k, v in self.items.items()}
        g.world = self.world.clone()
        g._finalizer = weakref.finalize(g, World.close, g.world)
        g.rng = np.random.default_rng()
        g.rng.bit_generator.state = self.rng.bit_generator.state
        g.extra_turns = list(self.extra_turns)
        g.active_players = list(self.active_players)
        g.markers = [m.copy() for m in self.markers]
        g.deferred_extra = dict(self.deferred_extra)
        g.triggers = list(self.triggers)
        g.winners, g.losers, g.drawn = list(self.winners), list(self.losers), list(self.drawn)
        g.created = dict(self.created)
        g.trigger_kinds = set(self.trigger_kinds)
        g.static_kinds = set(self.static_kinds)
        g.loop_seen = set(self.loop_seen)
        g.refs = dict(self.refs)
        g.history = list(self.history)
        g.range_mask = self.range_mask.copy()
        g._sba_buf = None
        g._static_count = np.zeros(1, dtype=np.int64)
        g._sba_work = np.zeros(1, dtype=np.int64)
        g._mana_cache = {}
        g._target_cache = {}
        g.blockers_to_declare = list(self.blockers_to_declare)
        g.block_order = {k: list(v) for k, v in self.block_order.items()}
        g.pending = None if self.pending is None else Decision(**vars(self.pending))
        g.attack_decl = dict(self.attack_decl)
        g.block_decl = dict(self.block_decl)
        g.attack_mask = self.attack_mask.copy()
        g.mull_kept, g.mull_take = set(self.mull_kept), set(self.mull_take)
        g.mull_queue, g.mull_bottomed = list(self.mull_queue), dict(self.mull_bottomed)
        return g

    def restore(self, snapshot: Game) -> None:
        """Become ``snapshot`` (a clone taken earlier), which must not be used afterwards."""
        self._finalizer.detach()
        snapshot._finalizer.detach()
        old = self.world
        self.__dict__.update({k: v for k, v in snapshot.__dict__.items() if k != "_finalizer"})
        self._finalizer = weakref.finalize(self, World.close, self.world)
        old.close()

    def fingerprint(self) -> str:
        """Everything that makes up the state, as text: equal fingerprints, equal states."""
        import json

        arrays = {**self.obj.arrays(), "mana": self.pl.mana}
        for name in ("life", "poison", "alive", "lands_played", "reach", "seat", "team"):
            arrays[name] = getattr(self.pl, name)
        parts = [json.dumps(self.view(), sort_keys=True, default=str)]
        parts += [f"{k}:{np.asarray(v).tobytes().hex()}" for k, v in sorted(arrays.items())]
        parts.append(
            repr(
                (self.stack, self.turn, self.step_no, self.pending, self.passes,
                 self.priority_to, self.library, self.attack_decl, self.block_decl,
                 self.triggers, self.extra_turns, self.todo)
            )
        )  # fmt: skip
        return "\n".join(parts)

    def state_hash(self) -> str:
        import hashlib

        return hashlib.sha256(self.fingerprint().encode()).hexdigest()

    def observe(self, player: int) -> dict:
        """The state as ``player`` may see it: hidden zones of others are counts only."""
        from ecs.legacy.view import state_view

        return state_view(self, viewer=player)

    def view(self) -> dict:
        """The full state view of ../shared/SCENARIOS.md."""
        from ecs.legacy.view import state_view

        return state_view(self)

    def close(self) -> None:
        self._finalizer()

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(
        cls,
        decks: list[list[str]],
        names: list[str] | None = None,
        variant: str = "free-for-all",
        options: Options | None = None,
        seed: int = 0,
        db: CardDB | None = None,
        mulligans: bool = False,
        max_turns: int = 0,
        teams: int | None = None,
        auto_pass: bool = False,
    ) -> Game:
        """A fresh game from decklists (card names), seated by the variant's rules
        (806.3, 808.2, 809.2, 811.3; ``teams`` = number of teams for team variants),
        with the variant's first player (103.1, 808.4, 809.4); opening hands are drawn."""
        from ecs.legacy.systems.variants import default_teams, seat_players, starting_player

        n = len(decks)
        names = names or [f"P{i + 1}" for i in range(n)]
        team = default_teams(variant, n, teams)
        g = cls(names, variant=variant, options=options, seed=seed, db=db, teams=team)
        g.max_turns = max_turns
        g.auto_pass = auto_pass
        g.setup = {  # what a replay needs to rebuild this game (ecs/replay.py)
            "decks": [list(d) for d in decks],
            "names": list(names),
            "variant": variant,
            "options": vars(g.options).copy(),
            "seed": seed,
            "mulligans": mulligans,
            "max_turns": max_turns,
            "teams": teams,
            "auto_pass": auto_pass,
        }
        seat, roles = seat_players(variant, team, g.rng)
        g.pl.seat[:] = seat
        g.roles = roles
        if g.rules.teams:
            g.team_names = [f"Team {chr(65 + t)}" for t in range(max(team) + 1)]
        apply_variant_ranges(g)
        for p, deck in enumerate(decks):
            for name in deck:
                i = g.new_object(g.db.index(name, f"deck of {names[p]}: "), p, LIBRARY)
                g.library[p].append(i)
            g.rng.shuffle(g.library[p])
        g.starting_player = starting_player(variant, g.pl.seat, g.pl.team, g.roles, g.rng)
        from ecs.legacy.systems.turn_structure import start_game

        start_game(g, mulligans=mulligans)
        return g

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant} turn={self.turn} step={self.step_name()} "
            f"active={self.names[self.active]} over={self.over}>"
        )


def apply_variant_ranges(g: Game) -> None:
    """809.3a / 809.6a: Emperor ranges by role, unless the options set one range for all;
    the variant's starting life and poison limit (103.4, 704.5c, 810.4, 810.11)."""
    from ecs.legacy.systems.variants import poison_limit, starting_life

    n_teams = len(set(int(t) for t in g.pl.team))
    g.pl.life[:] = starting_life(g.variant, g.n_players, n_teams)
    g.poison_limit[:] = poison_limit(g.variant, g.n_players, n_teams)
    if g.variant == "emperor" and g.options.range_of_influence is None:
        from ecs.legacy.systems.variants import emperor_ranges

        g.pl.reach[:] = emperor_ranges(g.pl.seat, g.pl.team, g.roles)


__all__ = ["Game", "Options", "Decision", "StackItem", "IllegalAction", "Action"]
