"""The game from Python: make a game, list its options, take one, clone it.

    from ecs.engine import new_game
    g = new_game([deck1, deck2, deck3, deck4], variant="free-for-all", seed=1)
    while not g.over:
        actions = g.legal_actions()        # the pending decision's options
        g.step(0)                          # an index into them (or an Action)
    g.winners, g.turn

A game is two arrays: its arena (components/state.py: every table of the state, one
int32 array) and the cards arena its cards were compiled into. ``clone`` copies the
arena; pickling a Game pickles both arrays and the names. Every rule runs in the
compiled systems (systems/); this module sets a game up (the variant's defaults and
the decks into the arena) and reads the arena back for Python."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from components import cards as K
from components import decisions as D
from components import game as G
from components import objects as O
from components import players as PL
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    GRAVEYARD,
    HAND,
    KW_FLASH,
    LIBRARY,
    PREGAME,
    STEP_NAMES,
    T_INSTANT,
    T_NONTRADITIONAL,
)
from components.state import GAME_LAYOUT, capacities
from components.variants import (
    ATTACK_NAMES,
    CASUAL_BRAWL,
    CASUAL_COMMANDER,
    CASUAL_CONSPIRACY,
    CASUAL_NAMES,
    CASUAL_SINGLE_PLANAR_DECK,
    COMMANDER_RULES,
    VARIANT_NAMES,
)
from ecs.cards import (
    CHOSEN,
    CardDB,
    CardError,
    Compiled,
    chosen_color_key,
    chosen_color_of,
    load_pool,
    manual_mana,
)


class IllegalAction(ValueError):
    """An action that isn't one of the pending decision's options (nothing changed)."""


class SetupError(ValueError):
    """A game that can't be set up as asked (the message says why)."""


@dataclass(frozen=True)
class VariantRules:
    """Defaults of a multiplayer variant (806.2, 807.2, 808.3, 809.3, 810, 811.2)."""

    name: str
    teams: bool
    default_range: int  # 0 = unlimited
    default_attack: str
    deploy: bool
    min_players: int = 2
    team_turns: bool = False
    shared_life: bool = False


VARIANTS: dict[str, VariantRules] = {
    "two-player": VariantRules("two-player", False, 0, "multiple", False, 2),
    "free-for-all": VariantRules("free-for-all", False, 0, "multiple", False, 2),
    "grand-melee": VariantRules("grand-melee", False, 1, "left", False, 4),
    "team-vs-team": VariantRules("team-vs-team", True, 0, "multiple", False, 4),
    "emperor": VariantRules("emperor", True, -1, "multiple", True, 6),  # -1: 809.3a / 809.6a
    "two-headed-giant": VariantRules("two-headed-giant", True, 0, "multiple", False, 4, True, True),
    "alternating-teams": VariantRules("alternating-teams", True, 2, "multiple", False, 4),
}
MAX_PLAYERS = 1000


@dataclass(frozen=True)
class Options:
    """A game's options; None takes the variant's default."""

    range_of_influence: int | None = None  # 0 or None-with-default 0: unlimited
    attack: str | None = None
    deploy: bool | None = None
    shared_team_turns: bool | None = None
    teams: int | None = None
    max_turns: int = 0  # 0: no cap
    max_decisions: int = 0
    mulligans: bool = False
    autopass: bool = True
    casual: str | tuple[str, ...] = ()  # "commander", "brawl", ... or several (900-905)
    single_planar_deck: bool = False  # 901.15

    def __post_init__(self) -> None:
        if isinstance(self.casual, list):  # (from JSON: a replay's setup) hashable again
            object.__setattr__(self, "casual", tuple(self.casual))


def casual_names(casual: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """The casual variants asked for ("none", a name, a comma list or a sequence)."""
    if not casual:
        return ()
    names = casual.split(",") if isinstance(casual, str) else list(casual)
    out = tuple(n.strip() for n in names if n.strip() and n.strip() != "none")
    for n in out:
        if n not in CASUAL_NAMES:
            raise SetupError(
                f"unknown casual variant {n!r} (expected one of {', '.join(CASUAL_NAMES)})"
            )
    return out


def casual_bits(
    casual: str | tuple[str, ...] | list[str] | None, single_planar_deck: bool = False
) -> int:
    """S_CASUAL: the bit of each casual variant (components/variants.py), and 901.15's
    single planar deck option."""
    bits = sum(1 << CASUAL_NAMES.index(n) for n in set(casual_names(casual)))
    return bits | (CASUAL_SINGLE_PLANAR_DECK if single_planar_deck else 0)


def commander_game(casual: str | tuple[str, ...] | list[str] | None) -> bool:
    """Is this a Commander game (903; Brawl is one, 903.12a)?"""
    return bool(casual_bits(casual) & COMMANDER_RULES)


def starting_life(variant: str, players: int, teams: int, casual: Any = ()) -> int:
    """103.4: 20; a Two-Headed Giant team shares 30, +15 per head beyond two (810.11).
    Commander: 40 (903.7); Brawl: 25 in a two-player game, 30 in a multiplayer one
    (903.12f). A team sharing its life total (810.4) starts with the Commander number:
    903.7 sets each player's life total to it, and a shared total is each member's."""
    bits = casual_bits(casual)
    if bits & CASUAL_BRAWL:
        return 25 if players == 2 else 30
    if bits & CASUAL_COMMANDER:
        return 40
    if variant == "two-headed-giant":
        return 30 + 15 * max(0, players // max(teams, 1) - 2)
    return 20


def poison_limit(variant: str, players: int, teams: int) -> int:
    """704.5c: 10; a Two-Headed Giant team loses at 15, +5 per head beyond two (810.11)."""
    if variant == "two-headed-giant":
        return 15 + 5 * max(0, players // max(teams, 1) - 2)
    return 10


def default_teams(variant: str, n: int, teams: int | None) -> list[int]:
    rules = VARIANTS[variant]
    if not rules.teams:
        return list(range(n))
    k = teams or (n // 3 if variant == "emperor" else 2)
    if k < 2 or n % k:
        raise SetupError(f"{variant}: {n} players can't form {k} equal teams")
    if variant == "emperor" and n // k < 3:
        raise SetupError("emperor: teams need at least three players (809.1)")
    return [p // (n // k) for p in range(n)]


def check_setup(variant: str, n: int, options: Options) -> None:
    if variant not in VARIANTS:
        raise SetupError(f"unknown variant {variant!r} (expected one of {', '.join(VARIANTS)})")
    rules = VARIANTS[variant]
    if variant == "two-player" and n != 2:
        raise SetupError("two-player: exactly 2 players")
    least = rules.min_players
    if variant == "team-vs-team" and "archenemy" in options.casual:
        least = 3  # 904.2: the archenemy against a team of two or more
    if not least <= n <= MAX_PLAYERS:
        raise SetupError(
            f"{variant}: between {rules.min_players} and {MAX_PLAYERS} players, not {n}"
        )
    if options.attack is not None and options.attack not in ATTACK_NAMES:
        raise SetupError(f"attack option {options.attack!r}: expected multiple, left or right")
    if options.range_of_influence is not None and options.range_of_influence < 0:
        raise SetupError("range of influence: a whole number >= 1 (0 or none: unlimited)")


def chooses_color(db: CardDB, name: str) -> bool:
    """903.4b: a card whose colour its owner chooses before the game when it is their
    commander (The Prismatic Piper: the record's ``commander_color_choice``)."""
    return name in db and bool(db.get(name).record.get("commander_color_choice"))


def commander_keys(
    db: CardDB, commanders: list[list[str]], colors: list[Any] | None = None
) -> list[list[str]]:
    """Each player's commanders as the names to compile and put into the game. A
    commander whose colour its player chooses before the game (903.4b; 604.3: the
    ability works in every zone, for the whole game) takes the next of that player's
    ``colors`` (one letter per such commander, in order, as ``ecs.draft.Deck.colors``)
    and becomes ``chosen_color_key(name, colour)``: that card in that colour, with that
    colour identity (903.4). SetupError (naming the card and ``commander_colors``) for
    a colour missing, extra or not one of W U B R G."""
    if colors is not None and len(colors) != len(commanders):
        raise SetupError(f"commander_colors: {len(colors)} lists for {len(commanders)} players "
                         "(one list of chosen colours per player)")  # fmt: skip
    out = []
    for p, names in enumerate(commanders):
        given = colors[p] if colors is not None else None
        chosen = [str(c).upper() for c in ([given] if isinstance(given, str) else given or [])]
        chosen = [c for x in chosen for c in x]  # ("GU" or ["G", "U"])
        keys = []
        for name in names:
            if not name.startswith(CHOSEN) and chooses_color(db, name):
                if not chosen:
                    raise SetupError(
                        f"{db.get(name).name}: player {p}'s commander: its colour is chosen "
                        f"before the game (903.4b); give it in commander_colors (one of W U B R G)"
                    )
                c = chosen.pop(0)
                if c not in "WUBRG":
                    raise SetupError(f"commander_colors[{p}]: {c!r} is not a colour (W U B R G)")
                name = chosen_color_key(db.get(name).name, c)
            keys.append(name)
        if chosen:
            raise SetupError(
                f"commander_colors[{p}]: {''.join(chosen)} left over: one colour per commander "
                f"whose colour is chosen before the game (903.4b; The Prismatic Piper)"
            )
        out.append(keys)
    return out


def template(
    compiled: Compiled,
    decks: list[list[str]],
    variant: str,
    options: Options,
    trace: int = 0,
    room: tuple[int, int] | None = None,
    commanders: list[list[str]] | None = None,
    commander_colors: list[Any] | None = None,
) -> np.ndarray:
    """An arena with the players and their decks (each library in deck order, the top
    last), the variant's options, in the pregame: ``systems/setup.deal`` seats them
    and ``begin`` starts the game. ``room``: (cards, largest library) to size the
    arena for, when several templates must have one size (a batch's deck rotations).
    In a Commander game (``options.casual``) each player's ``commanders`` (one, or a
    partner pair) start in the command zone, face up (903.6), and fix the player's
    colour identity (903.4); ``commander_colors``: the colours chosen for them before
    the game (903.4b, :func:`commander_keys`; ``compiled`` must hold those keys)."""
    n = len(decks)
    check_setup(variant, n, options)
    team = default_teams(variant, n, options.teams)
    commanders = checked_commanders(compiled, n, commanders, options.casual, commander_colors)
    for d in decks:
        for name in d:
            if name.startswith(CHOSEN):
                raise SetupError(f"{name}: a colour is chosen only for a commander (903.4b)")
    cards = sum(len(d) for d in decks) + sum(len(c) for c in commanders)
    cards, library = room or (cards, max(len(d) for d in decks))
    a = new_arena(variant, options, team, cards, library, trace)
    v = GAME_LAYOUT.views(a)
    for p, deck in enumerate(decks):
        add_library(a, compiled, p, deck, v)
    add_commanders(a, compiled, commanders, v)
    set_masks(v.s, compiled)
    return a


def checked_commanders(
    compiled: Compiled,
    n: int,
    commanders: list[list[str]] | None,
    casual: Any,
    commander_colors: list[Any] | None = None,
) -> list[list[str]]:
    """Each of n players' commanders as keys of ``compiled`` (903.4b: with the colours
    chosen for them); :class:`SetupError` unless a Commander or Brawl game has them."""
    commanders = commanders or [[] for _ in range(n)]
    if len(commanders) != n:
        raise SetupError(f"{len(commanders)} commander lists for {n} decks")
    if any(commanders) and not commander_game(casual):
        raise SetupError("commanders are for a Commander or Brawl game (casual: commander)")
    if commander_colors is not None and any(commander_colors) and not any(commanders):
        raise SetupError("commander_colors: chosen colours are for commanders (903.4b) in a "
                         "Commander or Brawl game; this game has none")  # fmt: skip
    return commander_keys(compiled.db, commanders, commander_colors)


def add_commanders(a: np.ndarray, compiled: Compiled, commanders: list[list[str]],
                   v: Any = None) -> None:  # fmt: skip
    """Each player's commanders into the command zone, face up, designated (903.6)."""
    for p, names in enumerate(commanders):
        for name in names:
            designate(a, compiled, p, add_object(a, compiled, name, p, COMMAND, v))


def designate(a: np.ndarray, compiled: Compiled, p: int, i: int) -> None:
    """Card object i is one of player p's commanders (903.3; two with partner, 702.124):
    its slot, and p's colour identity grows by its card's (903.4, fixed before the game
    begins, 903.4a)."""
    v = GAME_LAYOUT.views(a)
    if v.pl[p, PL.P_CMD + 1] >= 0:
        raise SetupError("a player has at most two commanders (702.124)")
    slot = 0 if v.pl[p, PL.P_CMD] < 0 else 1
    c = int(v.o[i, O.F_CARD])
    name = compiled.name_of(c)
    if chooses_color(compiled.db, name) and chosen_color_of(compiled, c) is None:
        raise SetupError(f"{name}: as a commander its colour is chosen before the game "
                         "(903.4b): give commander_colors (a scenario: color: on its entry)")  # fmt: skip
    v.pl[p, PL.P_CMD + slot] = i
    v.o[i, O.F_COMMANDER] = slot + 1
    v.pl[p, PL.P_IDENTITY] |= int(compiled.tables.rows["ct"][c][K.C_IDENTITY]) & 31


def deck_lists(decks: list[Any]) -> tuple[list[list[str]], list[list[str]]]:
    """(the main decks, the commanders) of ``decks``: card-name lists, or decklists with
    ``main`` and ``commander`` (ecs/decks.py ``Deck``, a ``Commander`` section)."""
    mains, cmds = [], []
    for d in decks:
        if hasattr(d, "main"):
            mains.append(list(d.main))
            cmds.append(list(getattr(d, "commander", None) or []))
        else:
            mains.append(list(d))
            cmds.append([])
    return mains, cmds


def pod_template(
    decks: list[Any],
    variant: str = "free-for-all",
    options: Options | None = None,
    db: CardDB | None = None,
    trace: int = 0,
    compiled: Compiled | None = None,
    commander_colors: list[Any] | None = None,
) -> tuple[Compiled, np.ndarray]:
    """The cards compiled for a pod and its game template, for batches: copy the arena
    per game (``np.tile``), give each its seed (``seed_rng``), deal (``entry.DEAL``) and
    play. ``decks`` are decklists with a ``commander`` section (a Commander game unless
    ``options.casual`` says otherwise) or card-name lists. Pods drawn from one set of
    decks can share one ``compiled`` (compiled once from all their cards): then only the
    template is built (a few milliseconds). ``commander_colors``: the colours chosen
    before the game for commanders that ask for one (903.4b, :func:`commander_keys`)."""
    options = options or Options()
    mains, cmds = deck_lists(decks)
    if any(cmds) and not options.casual:
        options = replace(options, casual=("commander",))
    if compiled is None:
        db = db or load_pool()
        keys = commander_keys(db, cmds, commander_colors)
        compiled = db.compile(sorted({c for d in mains + keys for c in d}))
    return compiled, template(compiled, mains, variant, options, trace, commanders=cmds,
                              commander_colors=commander_colors)  # fmt: skip


def new_arena(
    variant: str, options: Options, team: list[int], cards: int, library: int, trace: int = 0
) -> np.ndarray:
    """An arena for len(team) players of this variant, with its options, no objects yet."""
    n = len(team)
    check_setup(variant, n, options)
    rules = VARIANTS[variant]
    nteams = len(set(team))
    markers = max(1, n // 4) if variant == "grand-melee" else 1
    caps = capacities(n, cards, library, trace=trace, markers=markers)
    a = GAME_LAYOUT.alloc(caps)
    v = GAME_LAYOUT.views(a)
    s, pl = v.s, v.pl
    s[G.S_VARIANT] = VARIANT_NAMES.index(variant)
    s[G.S_NPLAYERS] = n
    rng = options.range_of_influence
    reach = rules.default_range if rng is None else rng
    s[G.S_ATTACK_MODE] = ATTACK_NAMES.index(options.attack or rules.default_attack)
    team_turns = (
        rules.team_turns if options.shared_team_turns is None else options.shared_team_turns
    )
    s[G.S_TEAM_TURNS] = int(bool(team_turns))
    s[G.S_DEPLOY] = int(bool(rules.deploy if options.deploy is None else options.deploy))
    s[G.S_POISON_LIMIT] = poison_limit(variant, n, nteams)
    s[G.S_SKIP_FIRST_DRAW] = int(n == 2 or variant == "two-headed-giant")  # 103.8, 800.7, 810.6
    s[G.S_FREE_MULLIGAN] = int(n > 2)  # 800.6
    s[G.S_CASUAL] = casual_bits(options.casual, options.single_planar_deck)
    if s[G.S_CASUAL] & CASUAL_BRAWL:
        s[G.S_FREE_MULLIGAN] = 1  # 903.12g: in any Brawl game
    elif s[G.S_CASUAL] & CASUAL_COMMANDER:
        s[G.S_COMMANDER_DAMAGE] = 21  # 903.10a (Brawl has none, 903.12h)
    cap = options.max_turns
    s[G.S_MAXTURNS] = cap * max(1, n // 4) if variant == "grand-melee" and cap else cap
    s[G.S_MAXDECISIONS] = options.max_decisions
    s[G.S_AUTOPASS] = int(options.autopass)
    s[G.S_MULLIGANS] = int(options.mulligans)
    s[G.S_STEP] = PREGAME
    s[G.S_LDIRTY] = s[G.S_SDIRTY] = 1  # (the layers and state-based actions look first)
    s[G.S_CASTING] = -1
    s[G.S_RES] = -1
    s[G.S_PLANAR_CTL] = -1
    s[G.S_MONARCH] = -1
    s[G.S_PREV_ACTIVE] = -1
    s[G.S_STARTING] = 0
    life = starting_life(variant, n, nteams, options.casual)
    s[G.S_START_LIFE] = life  # (726.2: a subgame's players start with it)
    for p in range(n):
        pl[p, PL.P_LIFE] = life
        pl[p, PL.P_START_LIFE] = life
        pl[p, PL.P_LIFEPOOL] = p
        pl[p, PL.P_ALIVE] = 1
        pl[p, PL.P_TEAM] = team[p]
        pl[p, PL.P_SEATPOS] = p
        pl[p, PL.P_REACH] = reach
        pl[p, PL.P_MAXHAND] = 7
        pl[p, PL.P_START_HAND] = 7
        pl[p, PL.P_LAND_DROPS] = 1
        pl[p, PL.P_VANGUARD] = -1
        pl[p, PL.P_CMD] = -1
        pl[p, PL.P_CMD + 1] = -1
        pl[p, PL.P_HA_VER] = -1
        v.seat[p] = p
    return a


def needs(compiled: Compiled) -> int:
    """S_NEEDS: the kinds of rules some card of the cards arena uses (checks skip the others)."""
    bits = 0
    for row in compiled.tables.rows["ab"]:
        if (
            row[K.B_ZONE] == GRAVEYARD
            and row[K.B_KIND] in (K.AB_ACTIVATED, K.AB_MANA)
            and row[K.B_CARD] >= 0  # (a card's: not the unearth a plane may grant)
        ):
            bits |= G.NEED_GRAVEYARD_ABILITIES
    for row in compiled.tables.rows["sa"]:
        if row[K.A_KIND] in (K.ST_COST_LESS, K.ST_COST_MORE):
            bits |= G.NEED_COST_CHANGES
        if row[K.A_KIND] in CONSPIRACY_STATICS:
            bits |= G.NEED_CONSPIRACY
    for row in compiled.tables.rows["ab"]:  # (Conspiracy Draft: abilities granted)
        if row[K.B_GRANT] >= 0:
            bits |= G.NEED_GRANTED
            if not compiled.tables.rows["ct"][row[K.B_CARD]][K.C_TYPES] & T_NONTRADITIONAL:
                bits |= G.NEED_GRANTED_BY_PERMANENTS  # (a permanent's: Backgrounds)
    for row in compiled.tables.rows["ct"]:  # (Brokkos: a mutate cast from the graveyard)
        if row[K.C_FLAGS] & K.CF_MUTATE_FROM_GRAVEYARD:
            bits |= G.NEED_GRAVEYARD_CASTS
        if row[K.C_FLAGS] & K.CF_LIVE_STATICS:  # (their sources are watched: S_LIVE_STATICS)
            bits |= G.NEED_CONDITIONAL_STATICS
        if row[K.C_CONSPIRE]:  # 702.78 (Burn Trail)
            bits |= G.NEED_CONSPIRE
    for row in compiled.tables.rows["sa"]:
        if row[K.A_KIND] == K.ST_GRANT_CONSPIRE:  # (Wort: spells you cast have it)
            bits |= G.NEED_CONSPIRE
        if row[K.A_KIND] == K.ST_DOESNT_UNTAP:
            bits |= G.NEED_DOESNT_UNTAP
    for row in compiled.tables.rows["ab"]:
        if row[K.B_KIND] == K.AB_ACTIVATED and row[K.B_ARG] == 1:
            bits |= G.NEED_GRANTED_ABILITIES
        if row[K.B_KIND] == K.AB_TRIGGERED and row[K.B_ZONE] == GRAVEYARD:
            bits |= G.NEED_GRAVEYARD_TRIGGERS
    bits |= _pool_needs(compiled)
    return bits


def _pool_needs(compiled: Compiled) -> int:
    """S_NEEDS bits of the card pool's words (issue 17): cycling from the hand, exile
    until a source leaves, mana abilities with costs, extra land drops, triggers of a
    card about itself in another zone."""
    bits = 0
    rows = compiled.tables.rows
    for row in rows["ab"]:
        if row[K.B_ZONE] == HAND and row[K.B_KIND] == K.AB_ACTIVATED:
            bits |= G.NEED_HAND_ABILITIES
        if row[K.B_KIND] == K.AB_TRIGGERED and (
            row[K.B_ZONE] not in (BATTLEFIELD, COMMAND) or row[K.B_WHEN] == K.EV_PUT_INTO_GRAVEYARD
        ):
            bits |= G.NEED_SELF_TRIGGERS  # (and "whenever a card is put into a graveyard")
        if row[K.B_KIND] == K.AB_MANA and manual_mana(row):
            bits |= G.NEED_COSTED_MANA
        if row[K.B_FREE]:
            bits |= G.NEED_FREE_ABILITIES
    for row in rows["ep"]:
        if row[K.E_OP] == K.OP_EXILE and row[K.E_A] == 2:
            bits |= G.NEED_EXILE_UNTIL
        if row[K.E_OP] in (K.OP_BECOME_COPY, K.OP_ENTER_AS_COPY):
            bits |= G.NEED_COPY_EFFECTS
        if row[K.E_OP] == K.OP_GRANT_ABILITY:  # (the listing looks for X_GRANT_ABILITY)
            bits |= G.NEED_GRANT_ABILITY_EFFECTS
    if any(row[K.C_FLASHBACK] for row in rows["ct"]) or any(
        row[K.A_KIND] == K.ST_GRANT_FLASHBACK for row in rows["sa"]
    ):
        bits |= G.NEED_FLASHBACK
    if any(row[K.A_KIND] == K.ST_GRANT_FLASHBACK for row in rows["sa"]):
        bits |= G.NEED_GRANTED_FLASHBACK
    if any(row[K.A_KIND] == K.ST_SUSPEND_ANY for row in rows["sa"]):
        bits |= G.NEED_SUSPEND
    if any(row[K.A_KIND] == K.ST_PLAY_FROM_TOP for row in rows["sa"]):
        bits |= G.NEED_PLAY_FROM_TOP
    if any(row[K.A_KIND] == K.ST_GRANT_UNEARTH for row in rows["sa"]):
        bits |= G.NEED_GRANTED_UNEARTH
    for row in rows["sa"]:
        if row[K.A_KIND] == K.ST_EXTRA_LAND:
            bits |= G.NEED_LAND_DROPS
        if row[K.A_KIND] == K.ST_FLASH_FOR:  # (Tawnos)
            bits |= G.NEED_FLASH_FOR
    return bits


CONSPIRACY_STATICS = (
    K.ST_ENTERS_COUNTERS, K.ST_CANT_CAST, K.ST_ANY_COLOR, K.ST_TOUGHNESS_DAMAGE,
    K.ST_MUST_ATTACK,
)  # fmt: skip


def trigger_events(compiled: Compiled) -> int:
    """Bits of every event some card of the cards arena waits for (the trigger checks
    skip the others)."""
    mask = 0
    for row in compiled.tables.rows["ct"]:
        mask |= int(row[K.C_TRIGMASK])
    return mask


def graveyard_trigger_events(compiled: Compiled) -> int:
    """Bits of the events the cards with an ability that triggers from a graveyard wait
    for (any of their abilities': a superset is safe); the others skip the look through
    the graveyards."""
    ab = compiled.tables.rows["ab"]
    mask = 0
    for row in compiled.tables.rows["ct"]:
        a0, n = int(row[K.C_AB0]), int(row[K.C_NAB])
        if any(ab[a][K.B_KIND] == K.AB_TRIGGERED and ab[a][K.B_ZONE] == GRAVEYARD
               for a in range(a0, a0 + n)):  # fmt: skip
            mask |= int(row[K.C_TRIGMASK])
    return mask


def set_masks(s: np.ndarray, compiled: Compiled) -> None:
    """The game's S_NEEDS and trigger masks, from the cards of its cards arena."""
    s[G.S_TRIGMASK] = trigger_events(compiled)
    s[G.S_GY_TRIGMASK] = graveyard_trigger_events(compiled)
    s[G.S_NEEDS] = needs(compiled)


def _prototypes(compiled: Compiled, width: int) -> np.ndarray:
    """Each card's object row (``width`` fields) as a setup places it (owner, zone and
    timestamp aside), made once per cards arena."""
    protos = compiled.__dict__.get("_object_rows")
    if protos is None or protos.shape[1] != width:
        cts = compiled.tables.rows["ct"]
        protos = np.zeros((len(cts), width), np.int32)
        for c, ct in enumerate(cts):
            r = protos[c]
            r[O.F_CARD] = c
            for f in (O.F_ATT, O.F_ATKP, O.F_ATKO, O.F_BLOCKING, O.F_PROTECTOR, O.F_EXILED_BY,
                      O.F_MERGED, O.F_MERGED_IN, O.F_NAMED, O.F_IAB, O.F_SRC, O.F_CHOOSER,
                      O.F_EVP, O.F_EVO, O.F_EVC):  # fmt: skip
                r[f] = -1
            r[O.F_DECL] = -(10**6)
            r[O.F_TYPES] = ct[K.C_TYPES]
            r[O.F_COLORS] = ct[K.C_COLORS]
            r[O.F_KW] = ct[K.C_KW]
            r[O.F_POW] = ct[K.C_POW]
            r[O.F_TOU] = ct[K.C_TOU]
        compiled.__dict__["_object_rows"] = protos
    return protos


_OWNED = (O.F_OWNER, O.F_BCTL, O.F_CTL, O.F_LCTL)


def add_library(a: np.ndarray, compiled: Compiled, p: int, names: list[str], v: Any) -> None:
    """p's library, ``names`` bottom first (as :func:`add_object` would place them one by
    one, in one go); ``v``: the arena's views."""
    s, o = v.s, v.o
    i, n = int(s[G.S_N]), len(names)
    libn = int(v.pl[p, PL.P_LIBN])
    if i + n > o.shape[0] or libn + n > v.lib.shape[1]:
        raise SetupError("too many objects for this arena")
    rows = np.fromiter((compiled.row(x) for x in names), np.int64, n)
    block = o[i : i + n]
    block[:] = _prototypes(compiled, o.shape[1])[rows]
    block[:, O.F_ZONE] = LIBRARY
    for f in _OWNED:
        block[:, f] = p
    block[:, O.F_TS] = np.arange(int(s[G.S_TSC]) + 1, int(s[G.S_TSC]) + 1 + n)
    s[G.S_TSC] += n
    s[G.S_N] = i + n
    v.lib[p, libn : libn + n] = np.arange(i, i + n)
    v.pl[p, PL.P_LIBN] = libn + n


def add_object(
    a: np.ndarray, compiled: Compiled, name: str, owner: int, zone: int, v: Any = None
) -> int:
    """A card object appended to the arena (setup only: no rules run); ``v``: the arena's
    views, when the caller has them (building them is most of the cost)."""
    v = v if v is not None else GAME_LAYOUT.views(a)
    s, o = v.s, v.o
    i = int(s[G.S_N])
    if zone == LIBRARY:  # (on top of owner's library)
        add_library(a, compiled, owner, [name], v)
        return i
    if i >= o.shape[0]:
        raise SetupError("too many objects for this arena")
    s[G.S_N] = i + 1
    c = compiled.row(name)
    ct = compiled.tables.rows["ct"][c]
    o[i, :] = _prototypes(compiled, o.shape[1])[c]
    o[i, O.F_ZONE] = zone
    for f in _OWNED:
        o[i, f] = owner
    s[G.S_TSC] += 1
    o[i, O.F_TS] = s[G.S_TSC]
    if zone == HAND:
        n = int(v.pl[owner, PL.P_HANDN])
        v.hand[owner, n] = i  # (appended in id order)
        v.pl[owner, PL.P_HANDN] = n + 1
        if ct[K.C_TYPES] & T_INSTANT or ct[K.C_KW] & KW_FLASH:
            v.pl[owner, PL.P_NINSTANT] += 1
    elif zone == GRAVEYARD and ct[K.C_FLAGS] & K.CF_FROM_GRAVEYARD:
        v.pl[owner, PL.P_NGRAVE_ACT] += 1  # (systems/zones.py counts the moves)
    elif zone == BATTLEFIELD:
        n = int(s[G.S_NBF])
        v.bf[n] = i
        s[G.S_NBF] = n + 1
    elif zone == COMMAND:
        n = int(s[G.S_NCZ])
        v.cz[n] = i
        s[G.S_NCZ] = n + 1
    return i


# ----------------------------------------------------------------- actions
@dataclass(frozen=True)
class Action:
    """One option of the pending decision (a row of the arena's action list)."""

    kind: str  # components.decisions ACTION_NAMES
    player: int
    obj: int = -1
    arg: int = 0
    arg2: int = 0

    @classmethod
    def of_row(cls, row: np.ndarray) -> Action:
        return cls(D.ACTION_NAMES[int(row[D.AC_KIND])], int(row[D.AC_PLAYER]), int(row[D.AC_OBJ]),
                   int(row[D.AC_ARG]), int(row[D.AC_ARG2]))  # fmt: skip


_NO_INTS = np.zeros(1, np.int32)
_NO_OUT = np.zeros((1, 0), np.float32)
_NO_RES = np.zeros((1, 0), np.int32)


def call(
    op: int,
    arena: np.ndarray,
    cards: np.ndarray,
    x: int = 0,
    ints: np.ndarray | None = None,
    out: np.ndarray | None = None,
    res: np.ndarray | None = None,
) -> int:
    """The engine's one entry point (systems/entry.py), for one arena or a 2-D batch.
    Imported on first use: importing compiles nothing; the first call loads the
    engine from numba's cache, or compiles it (with progress on stderr)."""
    from systems import entry

    A = arena.reshape(1, -1) if arena.ndim == 1 else arena
    ints = _NO_INTS if ints is None else np.ascontiguousarray(ints, np.int32)
    return int(entry.call(op, A, cards, int(x), ints,
                          _NO_OUT if out is None else out, _NO_RES if res is None else res))  # fmt: skip


def _ops():
    from systems import entry

    return entry


_TEMPLATES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
"""Arenas of recent Game.new set-ups before dealing (a new game of the same decks copies one)."""


RESOLVE = "resolve"  # a shortcut's step: every player passes until every stack is empty


class Level:
    """One game of a game's chain as Python reads it: the main game (depth 0) or a
    subgame (726) being played inside it (depth 1, a subgame of that: 2 ...). Has what
    the state view reads of a game (``v``, ``names``, ``winners``...)."""

    def __init__(self, game: Game, depth: int):
        self.game = game
        self.depth = depth
        self.arena = game.chain[depth]
        self.compiled = game.compiled
        self.names = game.names
        self.team_names = game.team_names
        s = GAME_LAYOUT.views(self.arena).s
        self.created_from = game.created_from if depth == 0 else int(s[G.S_SUB_BASE])

    @property
    def v(self):
        return GAME_LAYOUT.views(self.arena)

    @property
    def variant_name(self) -> str:
        return VARIANT_NAMES[int(self.v.s[G.S_VARIANT])]

    def _who(self, f: int) -> list[int]:
        pl = self.v.pl
        return [p for p in range(len(self.names)) if pl[p, f]]

    @property
    def winners(self) -> list[int]:
        return self._who(PL.P_WON)

    @property
    def losers(self) -> list[int]:
        return self._who(PL.P_LOST)

    @property
    def drawn(self) -> list[int]:
        return self._who(PL.P_DRAWN)

    def card_name(self, i: int) -> str:
        return self.compiled.name_of(int(self.v.o[i, O.F_CARD]))


class Game:
    """One game on the compiled engine.

    A game is its arena; while a subgame is played (726) the game holds a chain of
    arenas, its own first (``chain``, rows ``0..depth``). Decisions are the innermost
    game's: ``v``, ``pending``, ``legal_actions``, ``step``, ``concede`` work on it,
    and when it asks for a subgame or one is over the game makes or ends it
    (systems/subgames.py). ``over``, ``turn``, ``winners`` and the view's top level are
    the main game's (``main_v``; ``level(d)`` for any of them)."""

    def __init__(self, arena: np.ndarray, compiled: Compiled, names: list[str]):
        self.chain = arena.reshape(1, -1)  # (the same memory as ``arena``)
        self.depth = 0
        self.compiled = compiled
        self.names = list(names)
        self._n = -1
        self.team_names: list[str] | None = None
        self.created_from = int(GAME_LAYOUT.views(arena).s[G.S_N])  # later objects: NAME#N
        self.setup: dict[str, Any] | None = None  # Game.new's arguments (replays)
        self.history: list[int] = []  # the options taken, in order (replays)
        self._views: tuple[Any, int, Any] | None = None  # (chain, depth, views)
        self.positions: dict[int, int] = {}  # scripts: mutate positions given as cast
        self.auto_subgames = True  # a subgame asked for is made at once (its starting player
        # at random); a script turns this off to name one (``start_subgame``)
        self.hold_subgame = False
        self._shortcut: tuple | None = None  # a shortcut proposed, being answered (729.2)

    # --------------------------------------------------------- making one
    @classmethod
    def new(
        cls,
        decks: list[list[str]],
        variant: str = "free-for-all",
        seed: int = 0,
        options: Options | None = None,
        db: CardDB | None = None,
        names: list[str] | None = None,
        trace: int = 0,
        room: tuple[int, int] | None = None,
        agents: list[str] | None = None,
        cards: list[str] | None = None,
        command: list[list[dict]] | None = None,
        notes: list[dict] | None = None,
        pool_outside: list[int] | None = None,
        casual: str | tuple[str, ...] | None = None,
        commanders: list[list[str]] | None = None,
        commander_colors: list[Any] | None = None,
        casual_setup: Any = None,
    ) -> Game:
        """A game of these decks (one per player, in seating order before the variant
        seats them), dealt from ``seed`` and started up to its first decision.
        ``decks``: card-name lists, or decklists with a ``commander`` section (then a
        Commander game unless ``casual`` names another); ``casual`` ("commander",
        "brawl", or several) sets ``options.casual``; ``commanders`` gives each player's
        commanders for card-name decks. ``room`` sizes the arena (see
        :func:`template`); ``agents`` names the compiled agent of each player (for
        :meth:`play_out` with each player's own); ``cards``: more cards to compile with
        the decks' (a batch compiles every deck's once). Conspiracy Draft (905):
        ``command``: each player's conspiracies (905.4: ``{card, face_up, named}``);
        ``notes``: what the draft noted (905.2b; ecs.draft); ``pool_outside``: how many
        cards of each player's draft pool stay outside the game (Worldknit).
        ``commander_colors``: each player's colours chosen before the game for their
        commanders that ask for one (903.4b: The Prismatic Piper is the chosen colour in
        every zone, 604.3); one letter per such commander, in order; required for them.
        ``casual_setup``: the command-zone cards of Planechase, Archenemy and Vanguard
        (an ``ecs.casual.CasualSetup`` or its fields as a mapping: a replay's), whose
        ``casual`` then names the game's casual variants."""
        db = db or load_pool()
        options = options or Options()
        if casual is not None:
            options = replace(options, casual=casual)
        if casual_setup is not None:
            from ecs.casual import CasualSetup

            if isinstance(casual_setup, dict):
                casual_setup = CasualSetup(**casual_setup)
            casual_setup.casual = tuple(casual_setup.casual)
            options = replace(options, casual=casual_setup.casual)
        decks, cmds = deck_lists(decks)
        if commanders is not None:
            cmds = [list(c) for c in commanders]
        if any(cmds) and not options.casual:
            options = replace(options, casual=("commander",))
        if commander_colors is not None and any(commander_colors) and not any(cmds):
            raise SetupError("commander_colors: chosen colours are for commanders (903.4b) "
                             "in a Commander or Brawl game; this game has none")  # fmt: skip
        keys = commander_keys(db, cmds, commander_colors)  # 903.4b: chosen colours
        wanted = {c for d in decks + keys for c in d} | set(cards or ())
        if casual_setup is not None:
            wanted |= casual_setup.cards()
        for entries in command or []:
            for e in entries:
                wanted.add(e["card"])
                named = e.get("named")
                wanted.update(n for n in ([named] if isinstance(named, str) else named or [])
                              if n in db)  # fmt: skip
        wanted.update(n for n in noted_names(notes or []) if n in db and db.check(n) is None)
        compiled = db.compiled(sorted(wanted))
        key = (id(compiled.arena), tuple(tuple(d) for d in decks), variant, options, trace, room,
               tuple(agents or ()), tuple(tuple(c) for c in keys),
               repr(casual_setup) if casual_setup is not None else None)  # fmt: skip
        base = _TEMPLATES.get(key)
        if base is None or base[0] is not compiled.arena:
            if casual_setup is not None:
                from ecs.casual import casual_arena

                a = casual_arena(compiled, decks, variant, options, casual_setup, trace=trace,
                                 room=room, commanders=keys)  # fmt: skip
            else:
                a = template(compiled, decks, variant, options, trace=trace, room=room,
                             commanders=keys)  # fmt: skip
            if agents is not None:
                v = GAME_LAYOUT.views(a)
                for p, name in enumerate(agents):
                    v.pl[p, PL.P_POLICY] = policy_id(name)
            if len(_TEMPLATES) >= 16:
                _TEMPLATES.clear()
            _TEMPLATES[key] = base = (compiled.arena, a)
        a = base[1].copy()
        for p, entries in enumerate(command or []):
            for e in entries:
                add_conspiracy(a, compiled, p, e)
        if notes:
            a = add_notes(a, compiled, notes)
        for p, n in enumerate(pool_outside or []):
            GAME_LAYOUT.views(a).pl[p, PL.P_OUTSIDE] = n
        if command or notes:
            GAME_LAYOUT.views(a).s[G.S_CASUAL] |= CASUAL_CONSPIRACY
        seed_rng(a, seed)
        ops = _ops()
        call(ops.DEAL, a, compiled.arena)
        g = cls(a, compiled, names or [f"P{p}" for p in range(len(decks))])
        g.setup = {"decks": [list(d) for d in decks], "variant": variant, "seed": int(seed),
                   "options": asdict(options), "names": list(g.names),
                   "room": list(room) if room else None, "agents": agents, "trace": trace,
                   "cards": sorted(cards) if cards else None,
                   "commanders": cmds if any(cmds) else None}  # fmt: skip
        if commander_colors is not None and any(commander_colors):
            g.setup["commander_colors"] = [list(c or []) for c in commander_colors]
        if command or notes or pool_outside:
            g.setup.update(command=command, notes=notes, pool_outside=pool_outside)
        if casual_setup is not None:
            g.setup["casual_setup"] = asdict(casual_setup)
        g._n = g._settle(call(ops.BEGIN, a, compiled.arena))
        return g

    @property
    def arena(self) -> np.ndarray:
        """The main game's arena."""
        return self.chain[0]

    @property
    def inner(self) -> np.ndarray:
        """The arena of the innermost game (the one whose decision is pending)."""
        return self.chain[self.depth]

    @property
    def variant_name(self) -> str:
        return VARIANT_NAMES[int(self.main_v.s[G.S_VARIANT])]

    def concede(self, p: int) -> int:
        """104.3a: player p concedes (any time) the innermost game."""
        n = call(_ops().CONCEDE, self.inner, self.compiled.arena, p)
        if n < 0:
            raise IllegalAction(f"{self.names[p]} is not in the game")
        return self._settle(n)

    # --------------------------------------------------------- subgames (726)
    def level(self, depth: int) -> Level:
        return Level(self, depth)

    def subgame_requested(self) -> bool:
        """Does the innermost game wait for a subgame to be made (726.1)?"""
        s = self.v.s
        return int(s[G.S_PEND]) == D.PEND_SUBGAME and not s[G.S_OVER]

    def start_subgame(self, starting: int | None = None) -> int:
        """Make the subgame the innermost game asks for (726.2), its starting player
        ``starting`` (else at random from the game's generator), and begin it."""
        if not self.subgame_requested():
            raise IllegalAction("no subgame is asked for now")
        d = self.depth
        if self.chain.shape[0] < d + 2:
            grown = np.zeros((d + 2, self.chain.shape[1]), self.chain.dtype)
            grown[: d + 1] = self.chain[: d + 1]
            self.chain = grown
        x = -1 if starting is None else int(starting)
        n = call(_ops().SUBGAME_START, self.chain[d : d + 2], self.compiled.arena, x)
        self.depth = d + 1
        return self._settle(n)

    def _finish_subgame(self) -> int:
        d = self.depth
        n = call(_ops().SUBGAME_END, self.chain[d - 1 : d + 1], self.compiled.arena)
        self.depth = d - 1
        return n

    def _settle(self, n: int) -> int:
        """After an action: make the subgame asked for (if ``auto_subgames``), end the
        subgames that are over, move what was brought into a subgame (726.4a)."""
        while True:
            s = self.v.s
            if self.auto_subgames and self.subgame_requested():
                self.start_subgame(None)
                continue
            if s[G.S_OVER] and self.depth > 0:
                n = self._finish_subgame()
                continue
            if self.depth > 0 and s[G.S_NBROUGHT]:
                d = self.depth
                n = call(_ops().SUBGAME_SYNC, self.chain[d - 1 : d + 1], self.compiled.arena)
            if self._shortcut is not None and int(s[G.S_PEND]) != D.PEND_SHORTCUT:
                return self._take_shortcut()  # 729.2c: every player answered
            return int(self.v.s[G.S_NACTS]) if n >= 0 else n

    # --------------------------------------------------------- shortcuts (729.2)
    def propose_shortcut(self, unit: list | None, times: int) -> int:
        """729.2a: the player with priority in the innermost game proposes ``unit`` (a
        list of Actions and ``RESOLVE``: every player passes until every stack is empty)
        repeated ``times`` times. The other players answer in turn order with ``step``
        (PEND_SHORTCUT: option 0 accepts, the others shorten it to K repetitions); then
        the agreed repetitions are taken (729.2c). An illegal choice on the way refuses
        the whole shortcut (the state as it was). ``unit`` None: the caller takes them
        (``shortcut_agreed``). Returns the next decision's number of options."""
        s = self.v.s
        p = int(s[G.S_PPLAYER])
        if int(s[G.S_PEND]) != D.PEND_PRIORITY or times < 0:
            raise IllegalAction("a shortcut is proposed by the player with priority (729.2a)")
        snap = self.snapshot()
        n = call(_ops().SHORTCUT, self.inner, self.compiled.arena, int(times),
                 np.array([p], np.int32))  # fmt: skip
        if n < 0:
            raise IllegalAction("this player can't propose a shortcut now")
        self._shortcut = (unit, snap) if unit is not None else None
        return self._settle(n)

    def shortcut_agreed(self) -> int:
        """The repetitions the last shortcut proposal was accepted for (729.2c)."""
        return int(self.v.s[G.S_SC_STOP])

    def _take_shortcut(self) -> int:
        unit, snap = self._shortcut
        self._shortcut = None
        n = self.n_actions()
        try:
            for _ in range(self.shortcut_agreed()):
                for el in unit:
                    if isinstance(el, str) and el == RESOLVE:
                        n = self._resolve_all()
                    else:
                        n = self.step(self.index_of(el))
        except IllegalAction as e:
            self.restore(snap)
            raise IllegalAction(f"the shortcut can't be taken as proposed (729.2a): {e}") from None
        return n

    def _resolve_all(self) -> int:
        n = self.n_actions()
        for _ in range(100000):
            v = self.v
            if self.over or int(v.s[G.S_NSTK]) == 0 and int(v.s[G.S_PEND]) == D.PEND_PRIORITY:
                return n
            n = self.step(0)
        raise IllegalAction("the stack didn't empty")

    def local(self, i: int) -> int:
        """The object main-game object i is in the innermost game (-1: none)."""
        for d in range(1, self.depth + 1):
            o = GAME_LAYOUT.views(self.chain[d]).o
            n = int(GAME_LAYOUT.views(self.chain[d]).s[G.S_N])
            hit = np.nonzero(o[:n, O.F_ORIGIN] == i + 1)[0]
            if len(hit) == 0:
                return -1  # (a card outside a subgame is there too, F_OUTSIDE)
            i = int(hit[0])
        return i

    # --------------------------------------------------------- the state
    @property
    def v(self):
        """The innermost game's tables (the main game's unless a subgame is played;
        made once per arena)."""
        c = self._views
        if c is None or c[0] is not self.chain or c[1] != self.depth:
            c = self._views = (self.chain, self.depth, GAME_LAYOUT.views(self.chain[self.depth]))
        return c[2]

    @property
    def main_v(self):
        return GAME_LAYOUT.views(self.chain[0]) if self.depth else self.v

    @property
    def over(self) -> bool:
        return bool(self.main_v.s[G.S_OVER])

    @property
    def turn(self) -> int:
        return int(self.main_v.s[G.S_TURN])

    @property
    def winners(self) -> list[int]:
        return self.level(0).winners

    @property
    def losers(self) -> list[int]:
        return self.level(0).losers

    @property
    def drawn(self) -> list[int]:
        return self.level(0).drawn

    @property
    def capped(self) -> bool:
        return bool(self.main_v.s[G.S_CAPPED])

    @property
    def error(self) -> int:
        return int(self.main_v.s[G.S_ERROR])

    def pending(self) -> tuple[str, int]:
        """(kind of the pending decision, who decides) in the innermost game."""
        s = self.v.s
        return D.PEND_NAMES[int(s[G.S_PEND])], int(s[G.S_PPLAYER])

    def current_player(self) -> int:
        return int(self.v.s[G.S_PPLAYER])

    @property
    def step_name(self) -> str:
        st = int(self.v.s[G.S_STEP])
        return STEP_NAMES[st] if 0 <= st < len(STEP_NAMES) else "pregame"

    # --------------------------------------------------------- deciding
    def legal_actions(self) -> list[Action]:
        v = self.v
        n = int(v.s[G.S_NACTS])
        return [Action.of_row(v.acts[k]) for k in range(n)]

    def n_actions(self) -> int:
        return int(self.v.s[G.S_NACTS])

    def step(self, action: int | Action) -> int:
        """Take an option of the innermost game's pending decision (its index, or an
        Action equal to one); returns how many options the next decision has.
        IllegalAction if it isn't an option."""
        k = action if isinstance(action, (int, np.integer)) else self.index_of(action)
        n = call(_ops().STEP, self.inner, self.compiled.arena, int(k))
        if n < 0:
            raise IllegalAction(f"option {k} is not one of the {self.n_actions()} options")
        self.history.append(int(k))
        return self._settle(n)

    def policy_choice(self, policy: str) -> int:
        """The option a compiled agent (systems/policies: random, heuristic) would take
        now, drawn from the game's own generator as in batches."""
        return call(_ops().POLICY, self.arena, self.compiled.arena, policy_id(policy))

    def play_out(self, policy: str | None = "random") -> int:
        """A compiled agent (None: each player's own, ``agents`` of :meth:`new`) plays
        every decision to the end of the game, as batches do; returns the decisions
        taken (not recorded in ``history``)."""
        pid = -1 if policy is None else policy_id(policy)
        return call(_ops().PLAY, self.arena, self.compiled.arena, pid)

    def index_of(self, action: Action) -> int:
        for k, a in enumerate(self.legal_actions()):
            if a == action:
                return k
        raise IllegalAction(f"{action} is not an option of the pending decision")

    def refresh(self) -> int:
        return call(_ops().REFRESH, self.inner, self.compiled.arena)

    # --------------------------------------------------------- copies
    def clone(self) -> Game:
        """An independent copy (the arenas copied; the cards arena shared, read-only)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.chain = self.chain[: self.depth + 1].copy()
        g.positions = dict(self.positions)
        g.history = list(self.history)
        g._views = None
        return g

    def snapshot(self) -> tuple[np.ndarray, int]:
        """The whole state (every game of the chain), for ``restore`` (730.1)."""
        return self.chain[: self.depth + 1].copy(), self.depth

    def restore(self, snap: tuple[np.ndarray, int]) -> None:
        chain, depth = snap
        self.chain[: depth + 1] = chain
        self.depth = depth

    def fingerprint(self) -> str:
        """A hash of the state: the main game's, and each subgame's being played."""
        prints = [GAME_LAYOUT.fingerprint(self.chain[d]) for d in range(self.depth + 1)]
        return prints[0] if len(prints) == 1 else "/".join(prints)

    def view(self, viewer: int | None = None, refs: dict[int, str] | None = None) -> dict:
        """The state view of ../shared/SCENARIOS.md (ecs/view.py)."""
        from ecs.view import state_view

        return state_view(self, viewer, refs)

    def card_name(self, i: int) -> str:
        """The name of the innermost game's object i."""
        return self.compiled.name_of(int(self.v.o[i, O.F_CARD]))

    def __getstate__(self) -> dict[str, Any]:
        return {"arena": self.arena, "cards": self.compiled.arena, "names": self.names,
                "card_names": list(self.compiled.names), "team_names": self.team_names,
                "created_from": self.created_from, "setup": self.setup,
                "history": self.history,
                "subgames": self.chain[1 : self.depth + 1]}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        db = load_pool()
        compiled = db.compiled(state["card_names"]) if state["card_names"] else None
        if compiled is None or tuple(compiled.names) != tuple(state["card_names"]):
            compiled = db.compile(state["card_names"])
        if compiled.arena.shape != state["cards"].shape or (compiled.arena != state["cards"]).any():
            raise CardError("this game's cards were compiled from other records")
        subs = state.get("subgames")
        arena = state["arena"]
        self.chain = arena.reshape(1, -1) if subs is None or len(subs) == 0 else (
            np.concatenate([arena.reshape(1, -1), subs]))  # fmt: skip
        self.depth = self.chain.shape[0] - 1
        self.compiled = compiled
        self.names = state["names"]
        self._n = -1
        self.team_names = state.get("team_names")
        self.created_from = state.get("created_from", 0)
        self.setup = state.get("setup")
        self.history = list(state.get("history", []))
        self._views = None
        self.positions = {}
        self.auto_subgames = True
        self.hold_subgame = False
        self._shortcut = None


def policy_id(name: str) -> int:
    """The compiled agent's number (systems/policies POLICY_NAMES)."""
    from systems.policies import POLICY_NAMES

    if name not in POLICY_NAMES:
        raise ValueError(
            f"unknown compiled agent {name!r} (expected one of {', '.join(POLICY_NAMES)})"
        )
    return POLICY_NAMES.index(name)


def seed_rng(a: np.ndarray, seed: int) -> None:
    """The game's generator state from a seed (splitmix64 starting point)."""
    s = GAME_LAYOUT.view(a, "s")
    xy = np.random.SeedSequence(int(seed)).generate_state(2, np.uint64).view(np.int32)
    s[G.S_RNG : G.S_RNG + 2] = xy[:2]  # (little-endian halves: the low word first)
    s[G.S_AGENT_RNG : G.S_AGENT_RNG + 2] = xy[2:]


def new_game(decks: list[list[str]], **kw: Any) -> Game:
    return Game.new(decks, **kw)


__all__ = [
    "Action", "Game", "IllegalAction", "Level", "Options", "SetupError", "VARIANTS", "new_game",
]  # fmt: skip


# ----------------------------------------------------------------- Conspiracy Draft (905)
def add_conspiracy(a: np.ndarray, compiled: Compiled, p: int, entry: dict) -> int:
    """905.4: a conspiracy put into p's command zone before the game: ``entry`` is
    ``{card, face_up, named, number}``; face up unless it has hidden agenda (905.4a),
    ``named`` the card name (a list of two for a double agenda) its agenda names,
    ``number`` a number chosen for it before the game (Emissary's Ploy). Its owner
    and controller is p (905.5). Names of cards outside the game's cards match nothing."""
    i = add_object(a, compiled, entry["card"], p, COMMAND)
    set_agenda(a, compiled, i, entry)
    return i


def set_agenda(a: np.ndarray, compiled: Compiled, i: int, entry: dict) -> None:
    """Command-zone card i as ``entry`` says (see add_conspiracy)."""
    o = GAME_LAYOUT.views(a).o
    rec = compiled.db.get(entry["card"]).record
    kws = rec.get("keywords") or []
    agenda = "hidden agenda" in kws or "double agenda" in kws
    o[i, O.F_FACE_DOWN] = int(not entry.get("face_up", not agenda))
    named = entry.get("named")
    names = [named] if isinstance(named, str) else list(named or [])
    rows = [_row_or_none(compiled, n) for n in names]
    if rows:
        o[i, O.F_NAMED] = rows[0]
    if len(rows) > 1:
        o[i, O.F_NAMED2] = rows[1] + 1 if rows[1] >= 0 else 0
    o[i, O.F_NUMBER] = int(entry.get("number", 0) or 0)


def _row_or_none(compiled: Compiled, name: str) -> int:
    """A card name's row in this cards arena; -2 for a name no card of the game has
    (a hidden agenda may name any card: nothing here matches it)."""
    try:
        return compiled.row(name)
    except (KeyError, CardError):
        return -2


NOTE_KEYS = {"number", "removed", "passer", "colors", "correct", "name", "types"}


def add_notes(a: np.ndarray, compiled: Compiled, notes: list[dict],
              seat_of: dict[int, int] | None = None) -> np.ndarray:  # fmt: skip
    """905.2b: what the draft noted, for the cards that refer to it (a draft's notes, as
    ``ecs.draft`` records them: ``{player, card, number | removed | passer | colors |
    correct | name | types}``). ``seat_of`` maps drafters to this game's players (notes
    of drafters not in the game are left out). Returns the arena (regrown if the notes
    need more rows than it has)."""
    rows = []
    for n in notes:
        p = n["player"] if seat_of is None else seat_of.get(n["player"])
        if p is None:
            continue
        card = _row_or_none(compiled, n["card"])
        if card < 0:
            continue
        if "number" in n:
            rows.append((p, card, PL.NOTE_NUMBER, int(n["number"])))
        if "removed" in n:
            rows.append((p, card, PL.NOTE_REMOVED, int(n["removed"])))
        if n.get("passer") is not None:
            q = n["passer"] if seat_of is None else seat_of.get(n["passer"])
            if q is not None:
                rows.append((p, card, PL.NOTE_PLAYER, int(q)))
        if "colors" in n:
            bits = sum(1 << "WUBRG".index(c) for c in n["colors"])
            rows.append((p, card, PL.NOTE_COLORS, bits))
        if n.get("correct"):
            rows.append((p, card, PL.NOTE_CORRECT, 1))
        if "name" in n:
            rows.append((p, card, PL.NOTE_NAME, _row_or_none(compiled, n["name"])))
        for t in n.get("types") or []:
            rows.append((p, card, PL.NOTE_TYPE, compiled.db.subtype_id(t)))
    v = GAME_LAYOUT.views(a)
    if len(rows) > v.nt.shape[0]:
        a = GAME_LAYOUT.regrow(a, {"notes": len(rows)})
        v = GAME_LAYOUT.views(a)
    for k, r in enumerate(rows):
        v.nt[k, PL.NT_PLAYER], v.nt[k, PL.NT_CARD], v.nt[k, PL.NT_KIND], v.nt[k, PL.NT_VALUE] = r
    v.s[G.S_NNOTES] = len(rows)
    return a


def noted_names(notes: list[dict]) -> set[str]:
    """The card names a draft's notes mention (compiled into a game so they can match)."""
    out = set()
    for n in notes:
        out.add(n["card"])
        if "name" in n:
            out.add(n["name"])
    return out
