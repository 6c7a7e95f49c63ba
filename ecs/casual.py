"""Setting up the casual variants that live in the command zone: Planechase (901),
Vanguard (902), Archenemy and Supervillain Rumble (904).

Two uses:

- positions (the scenario runner): ``add_planar_deck``, ``add_scheme_deck``,
  ``add_face_up``, ``add_vanguard`` put those cards where the rules keep them (the
  command zone: face-down decks, face-up planes and schemes, the vanguard card);
- games from ordinary decks (batches): ``casual_game`` / ``casual_arena`` add stock
  planar decks, scheme decks and avatars chosen by the seed to a set of decks, with the
  variant's setup (the archenemy's team and life, 904.2-904.6; the vanguard modifiers,
  902.4-902.5), combinable with each other and with Commander (the players'
  commanders in the command zone beside them, 903.6).

Stock cards are every plane, phenomenon, scheme and vanguard of the pool
(``ecs/data/cards/planes.yaml``, ``schemes.yaml``, ``vanguard.yaml``) that compiles."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from components import game as G
from components import objects as O
from components import players as PL
from components.rules import (
    COMMAND,
    COUNTER_NAMES,
    T_PHENOMENON,
    T_PLANE,
    T_SCHEME,
    T_VANGUARD,
)
from components.state import GAME_LAYOUT
from ecs.cards import TYPE_BIT, CardDB, Compiled, load_pool
from ecs.engine import (
    Game,
    Options,
    SetupError,
    add_commanders,
    add_library,
    add_object,
    checked_commanders,
    new_arena,
    set_masks,
)

PLANECHASE, VANGUARD, ARCHENEMY, RUMBLE = (
    "planechase",
    "vanguard",
    "archenemy",
    "supervillain-rumble",
)
ARCHENEMY_LIFE = 40  # 904.5
PLANAR_DECK_SIZE = 10  # 901.3
SCHEME_DECK_SIZE = 20  # 904.3


# ----------------------------------------------------------------- placing the cards
def _views(a: np.ndarray):
    return GAME_LAYOUT.views(a)


def _off_the_list(v, i: int) -> None:
    """A face-down deck card: in the command zone, out of its list of objects whose
    abilities function (systems/planechase.py)."""
    v.o[i, O.F_FACE_DOWN] = 1
    n = int(v.s[G.S_NCZ])
    if n and int(v.cz[n - 1]) == i:  # (the card just placed: the last of the list)
        v.s[G.S_NCZ] = n - 1
        return
    ids = [int(x) for x in v.cz[:n] if int(x) != i]
    v.cz[: len(ids)] = ids
    v.s[G.S_NCZ] = len(ids)


def add_planar_deck(a: np.ndarray, compiled: Compiled, p: int, names: list[str]) -> list[int]:
    """p's planar deck (901.3), ``names`` top first: face-down command-zone cards."""
    v = _views(a)
    ids = []
    for name in reversed(names):  # the deck table is bottom first
        i = add_object(a, compiled, name, p, COMMAND, v)
        _off_the_list(v, i)
        n = int(v.pl[p, PL.P_PDECKN])
        if n >= v.pdeck.shape[1]:
            raise SetupError(f"a planar deck of at most {v.pdeck.shape[1]} cards")
        v.pdeck[p, n] = i
        v.pl[p, PL.P_PDECKN] = n + 1
        ids.append(i)
    return ids[::-1]


def add_communal_deck(a: np.ndarray, compiled: Compiled, names: list[str], owner: int) -> list[int]:
    """The single planar deck (901.15), ``names`` top first; its cards are owned by the
    planar controller (901.15b): ``owner`` for now."""
    v = _views(a)
    ids = []
    for name in reversed(names):
        i = add_object(a, compiled, name, owner, COMMAND, v)
        _off_the_list(v, i)
        n = int(v.s[G.S_NCOMMUNAL])
        if n >= v.cdeck.shape[0]:
            raise SetupError(f"a single planar deck of at most {v.cdeck.shape[0]} cards")
        v.cdeck[n] = i
        v.s[G.S_NCOMMUNAL] = n + 1
        ids.append(i)
    return ids[::-1]


def add_scheme_deck(a: np.ndarray, compiled: Compiled, p: int, names: list[str]) -> list[int]:
    """p's scheme deck (904.3), ``names`` top first: face-down command-zone cards."""
    v = _views(a)
    ids = []
    for name in reversed(names):
        i = add_object(a, compiled, name, p, COMMAND, v)
        _off_the_list(v, i)
        n = int(v.pl[p, PL.P_SDECKN])
        if n >= v.sdeck.shape[1]:
            raise SetupError(f"a scheme deck of at most {v.sdeck.shape[1]} cards")
        v.sdeck[p, n] = i
        v.pl[p, PL.P_SDECKN] = n + 1
        ids.append(i)
    return ids[::-1]


def add_face_up(
    a: np.ndarray,
    compiled: Compiled,
    name: str,
    owner: int,
    controller: int | None = None,
    counters: dict[str, int] | None = None,
) -> int:
    """A face-up plane, phenomenon or (ongoing) scheme in the command zone."""
    v = _views(a)
    i = add_object(a, compiled, name, owner, COMMAND, v)
    ctl = owner if controller is None else controller
    v.o[i, O.F_BCTL] = v.o[i, O.F_CTL] = v.o[i, O.F_LCTL] = ctl
    for k, n in (counters or {}).items():
        if k not in COUNTER_NAMES:
            raise SetupError(f"unknown counter kind {k!r}")
        v.o[i, O.F_CTR + COUNTER_NAMES.index(k)] = n
    return i


def add_vanguard(a: np.ndarray, compiled: Compiled, p: int, name: str) -> int:
    """p's vanguard card, face up in the command zone (902.3)."""
    v = _views(a)
    i = add_object(a, compiled, name, p, COMMAND, v)
    v.pl[p, PL.P_VANGUARD] = i
    return i


def modifiers(compiled: Compiled, name: str) -> tuple[int, int]:
    """(hand, life) modifiers of a vanguard card (902.4-902.5)."""
    from components import cards as K

    row = compiled.tables.rows["ct"][compiled.row(name)]
    return int(row[K.C_HAND_MOD]), int(row[K.C_LIFE_MOD])


# ----------------------------------------------------------------- the stock cards
def _of_type(db: CardDB, bits: int) -> list[str]:
    """The pool's playable cards of these types (kept: a batch draws a setup per game;
    a card added to the pool makes it look again)."""
    cache = db.__dict__.setdefault("_of_type", {})
    key = (bits, len(db.cards))
    if key not in cache:
        cache[key] = _find_of_type(db, bits)
    return list(cache[key])


def _find_of_type(db: CardDB, bits: int) -> list[str]:
    out = []
    for name in db.names():
        rec = db.get(name).record
        t = 0
        for ty in rec.get("types") or []:
            t |= TYPE_BIT.get(ty, 0)
        if t & bits and db.check(name) is None:
            out.append(name)
    return out


def stock_planes(db: CardDB | None = None) -> list[str]:
    """Every plane of the pool that the engine plays."""
    return _of_type(db or load_pool(), T_PLANE)


def stock_phenomena(db: CardDB | None = None) -> list[str]:
    return _of_type(db or load_pool(), T_PHENOMENON)


def stock_schemes(db: CardDB | None = None) -> list[str]:
    return _of_type(db or load_pool(), T_SCHEME)


def stock_avatars(db: CardDB | None = None) -> list[str]:
    return _of_type(db or load_pool(), T_VANGUARD)


def random_planar_deck(rng: np.random.Generator, db: CardDB | None = None,
                       size: int = PLANAR_DECK_SIZE, phenomena: int = 2) -> list[str]:  # fmt: skip
    """901.3: ``size`` different cards, at most two of them phenomena."""
    planes, phen = stock_planes(db), stock_phenomena(db)
    k = min(phenomena, len(phen), size)
    out = list(rng.choice(phen, k, replace=False)) if k else []
    out += list(rng.choice(planes, min(size - k, len(planes)), replace=False))
    rng.shuffle(out)
    return [str(x) for x in out]


def random_scheme_deck(rng: np.random.Generator, db: CardDB | None = None,
                       size: int = SCHEME_DECK_SIZE) -> list[str]:  # fmt: skip
    """904.3: ``size`` schemes, no more than two of any name."""
    schemes = stock_schemes(db)
    pool = [s for s in schemes for _ in range(2)]
    out = list(rng.choice(pool, min(size, len(pool)), replace=False))
    rng.shuffle(out)
    return [str(x) for x in out]


def random_avatar(rng: np.random.Generator, db: CardDB | None = None) -> str:
    return str(rng.choice(stock_avatars(db)))


# ----------------------------------------------------------------- games from decks
@dataclass
class CasualSetup:
    """What a casual game adds to the players' decks; chosen by ``choose`` from the seed
    unless given."""

    casual: tuple[str, ...]
    planar_decks: list[list[str]] = field(default_factory=list)  # per player
    communal_deck: list[str] = field(default_factory=list)  # 901.15
    scheme_decks: list[list[str]] = field(default_factory=list)  # per player ([] none)
    vanguards: list[str | None] = field(default_factory=list)
    archenemy: int = -1  # the archenemy's index (904.2a); -1 none

    def cards(self) -> set[str]:
        out = set(self.communal_deck)
        for d in self.planar_decks + self.scheme_decks:
            out.update(d)
        out.update(x for x in self.vanguards if x)
        return out


def choose(casual: tuple[str, ...] | list[str], n: int, seed: int,
           single_planar_deck: bool = False, db: CardDB | None = None) -> CasualSetup:  # fmt: skip
    """Stock planar decks, scheme decks and avatars for ``n`` players, drawn from the seed
    (a generator of its own: the game's generator is seeded separately)."""
    casual = tuple(casual)
    rng = np.random.default_rng([int(seed), 0x901])
    db = db or load_pool()
    setup = CasualSetup(casual)
    if PLANECHASE in casual:
        if single_planar_deck:
            size = min(40, 10 * n)  # 901.15a
            setup.communal_deck = random_planar_deck(rng, db, size=size, phenomena=2 * n)
        else:
            setup.planar_decks = [random_planar_deck(rng, db) for _ in range(n)]
    if ARCHENEMY in casual or RUMBLE in casual:
        rumble = RUMBLE in casual
        setup.archenemy = -1 if rumble else int(rng.integers(n))
        setup.scheme_decks = [
            random_scheme_deck(rng, db) if rumble or p == setup.archenemy else [] for p in range(n)
        ]
    if VANGUARD in casual:
        setup.vanguards = [random_avatar(rng, db) for _ in range(n)]
    return setup


def casual_cards(setup: CasualSetup) -> int:
    """How many card objects ``setup`` adds to a game (its command-zone cards)."""
    extra = len(setup.cards()) + sum(len(d) for d in setup.planar_decks + setup.scheme_decks)
    return extra + len(setup.communal_deck)


def casual_arena(
    compiled: Compiled,
    decks: list[list[str]],
    variant: str,
    options: Options,
    setup: CasualSetup,
    trace: int = 0,
    room: tuple[int, int] | None = None,
    commanders: list[list[str]] | None = None,
    commander_colors: list[Any] | None = None,
) -> np.ndarray:
    """The arena of a casual game in the pregame (``systems/setup.deal`` seats the players
    and applies the vanguard modifiers, ``begin`` starts it): the decks in the libraries,
    the variant's command-zone cards, teams and life. Archenemy (904.2): the archenemy
    alone on one team, the others on the other, Team vs. Team with shared team turns.
    ``room``: (cards, largest library) for the arena, the command-zone cards included
    (a batch's arenas have one size: see ``casual_cards``). ``commanders``: each
    player's commanders in a Commander or Brawl game combined with these variants (903.6:
    in the command zone, face up, as ``engine.template`` puts them; ``commander_colors``
    as there)."""
    n = len(decks)
    casual = tuple(setup.casual)
    options = replace(options, casual=casual)
    commanders = checked_commanders(compiled, n, commanders, casual, commander_colors)
    if ARCHENEMY in casual and RUMBLE not in casual:
        if setup.archenemy < 0:
            raise SetupError("archenemy: one player must be the archenemy (904.2a)")
        team = [0 if p == setup.archenemy else 1 for p in range(n)]
        variant = "team-vs-team"
        if options.shared_team_turns is None:
            options = replace(options, shared_team_turns=True)
    elif variant in ("team-vs-team", "two-headed-giant", "emperor", "alternating-teams"):
        from ecs.engine import default_teams

        team = default_teams(variant, n, options.teams)
    else:
        team = list(range(n))
    extra = len(setup.cards()) + sum(len(d) for d in setup.planar_decks + setup.scheme_decks)
    if room is not None:  # (the caller's room includes the command-zone cards)
        cards, library = room
    else:
        cards = sum(len(d) for d in decks) + extra + len(setup.communal_deck)
        cards += sum(len(c) for c in commanders)
        library = max(len(d) for d in decks)
    a = new_arena(variant, options, team, cards, library, trace)
    v = _views(a)
    for p, deck in enumerate(decks):
        add_library(a, compiled, p, deck, v)
    add_commanders(a, compiled, commanders)
    if setup.communal_deck:
        add_communal_deck(a, compiled, setup.communal_deck, 0)
    for p, d in enumerate(setup.planar_decks):
        add_planar_deck(a, compiled, p, d)
    for p, d in enumerate(setup.scheme_decks):
        if d:
            add_scheme_deck(a, compiled, p, d)
    for p, name in enumerate(setup.vanguards):
        if name:
            add_vanguard(a, compiled, p, name)
    if ARCHENEMY in casual or RUMBLE in casual:
        for p in range(n):
            if RUMBLE in casual or p == setup.archenemy:
                v.pl[p, PL.P_ROLE] = PL.ROLE_ARCHENEMY
                v.pl[p, PL.P_LIFE] = ARCHENEMY_LIFE  # 904.5, 904.12c
    set_masks(v.s, compiled)
    return a


def casual_game(
    decks: list[list[str]],
    casual: tuple[str, ...] | list[str],
    variant: str = "free-for-all",
    seed: int = 0,
    options: Options | None = None,
    setup: CasualSetup | None = None,
    db: CardDB | None = None,
    names: list[str] | None = None,
) -> Game:
    """A game of the casual variants from ordinary decks: stock command-zone cards drawn
    from the seed unless ``setup`` gives them (``Game.new`` with ``casual_setup``: the
    game can be saved and replayed)."""
    db = db or load_pool()
    options = options or Options()
    setup = setup or choose(casual, len(decks), seed, options.single_planar_deck, db)
    return Game.new(decks, variant, seed, options, db, names, casual_setup=setup)


__all__ = [
    "CasualSetup", "add_communal_deck", "add_face_up", "add_planar_deck", "add_scheme_deck",
    "add_vanguard", "casual_arena", "casual_game", "choose", "modifiers", "random_avatar",
    "random_planar_deck", "random_scheme_deck", "stock_avatars", "stock_planes",
    "stock_schemes",
]  # fmt: skip
