"""Deck construction rules per format: pure functions over a parsed deck and the card
pool (ecs/cards.py CardDB).

    deck = parse_deck(text, db)                 # Arena / MTGO export text
    problems = check_deck(deck, "commander", db)   # [] when the deck is legal

Formats:

- ``constructed``: at least 60 cards in the main deck; at most four copies of a card
  (basic lands excepted), counting the sideboard (100.2a).
- ``commander`` (903.5): 100 cards counting the commander (two with partner, 702.124);
  the commander a legendary creature, or a card that says it can be your commander
  (903.3); no two cards of the same name except basic lands (903.5b); every card's
  colour identity within the commander's (903.4, 903.5c): the colours of the mana
  symbols in its cost and rules text, and its colour indicator (back faces included);
  a card with a basic land type only if each colour of mana it could make is (903.5d).
- ``brawl`` (903.12): the same with 60 cards, and the commander may be a legendary
  planeswalker; with a colourless commander, any number of basic lands of one basic
  land type (903.12e).
- ``commander-draft`` (903.13e-f): a deck built from a drafted card pool (``pool=``, the
  names the player drafted): Commander's rules with three exceptions: at least 60 cards
  counting the commander, no maximum; any number of cards of the same name, each copy
  drafted; and (``masters=True``, a draft with Commander Masters boosters) a card that
  can be a commander by itself with a colour identity of at most one colour counts as
  having partner. Basic lands are added freely, as in every limited format. With
  ``piper=True`` (a draft with Commander Legends or Commander Masters boosters, 903.13e)
  up to two cards named The Prismatic Piper may be added, as commanders only; a
  commander that has its colour chosen (903.4b) takes ``colors`` (one letter per such
  commander, in order), or else the colour that makes the deck legal. With
  ``faceless=True`` (a draft with Commander Legends: Battle for Baldur's Gate boosters,
  903.13e) up to two cards named Faceless One may be added the same way. Faceless One has
  "choose a Background" and is itself a legendary Background enchantment, so two of them
  may be the two commanders (702.124: one chooses the other as its Background).

"Choose a Background" (702.124, a partner variant) is the record keyword
``choose a Background`` (a keyword of deck building only: no ability in the game). In every
format with commanders, two commanders may be one that can be a commander by itself and
has it, and a legendary Background enchantment card (205.3h), which is then a commander
though not a creature (702.124k); the colour identity is both commanders' (903.4c).

Every card must be in the pool and be a real card; an unknown name gets "did you
mean". The messages name the card and the rule."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from ecs.cards import CardDB

FORMATS = ("constructed", "commander", "brawl", "commander-draft")
PIPER = "The Prismatic Piper"  # 903.13e
FACELESS = "Faceless One"  # 903.13e (Battle for Baldur's Gate boosters)
CHOOSE_BACKGROUND = "choose a Background"  # 702.124: the record keyword
ADDED = {
    PIPER: "Commander Legends or Commander Masters",
    FACELESS: "Commander Legends: Battle for Baldur's Gate",
}  # 903.13e: whose boosters
COLOR_ORDER = "WUBRG"
# 305.6: the mana ability each basic land type gives
BASIC_LAND_COLORS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_SYMBOL = re.compile(r"\{([^}]+)\}")
_LINE = re.compile(r"^(?:(\d+)\s*[xX]?\s+)?(.+?)\s*$")
_EXPORT_TAIL = re.compile(r"\s+\([A-Za-z0-9_]{2,8}\)(?:\s+[A-Za-z0-9-]+)?(?:\s+\*[A-Z]+\*)?$")
_SECTIONS = {
    "deck": "main", "main": "main", "maindeck": "main", "mainboard": "main",
    "sideboard": "sideboard", "commander": "commander", "companion": "companion",
    "about": "about",
}  # fmt: skip


@dataclass
class ParsedDeck:
    """A decklist's cards by section, one entry per copy; ``unknown`` the names that
    aren't in the pool, with their line numbers."""

    name: str = ""
    main: list[str] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)
    commander: list[str] = field(default_factory=list)
    companion: list[str] = field(default_factory=list)
    unknown: list[tuple[int, str]] = field(default_factory=list)


def parse_deck(text: str, db: CardDB, name: str = "") -> ParsedDeck:
    """Read Arena / MTGO export text (sections Commander, Deck, Sideboard, Companion,
    About; ``COUNT NAME`` lines, set codes ignored). Names are matched without regard
    to case; unknown names are kept in ``unknown`` (check_deck reports them)."""
    deck = ParsedDeck(name=name)
    section = "main"
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("//"):
            continue
        key = line.rstrip(":").strip().lower()
        if key in _SECTIONS:
            section = _SECTIONS[key]
            continue
        if section == "about":
            if line.lower().startswith("name "):
                deck.name = line[5:].strip()
            continue
        m = _LINE.match(line)
        count = int(m.group(1)) if m and m.group(1) else 1
        card = _EXPORT_TAIL.sub("", m.group(2) if m else line).strip()
        if card not in db:
            deck.unknown.append((n, card))
            continue
        getattr(deck, section).extend([db.get(card).name] * count)
    return deck


def check_deck(deck: Any, fmt: str, db: CardDB, pool: Any = None, piper: bool = False,
               masters: bool = False, colors: Any = None, faceless: bool = False
               ) -> list[str]:  # fmt: skip
    """What makes the deck illegal in format ``fmt`` (constructed, commander, brawl,
    commander-draft); an empty list when it is legal. ``deck`` is a ParsedDeck or anything
    with ``main`` (and ``commander``, ``sideboard``) lists of card names. Commander Draft
    takes the player's card ``pool``, the draft's options (``piper``, ``masters``,
    ``faceless``) and the chosen colours of commanders that ask for one (``colors``,
    903.4b)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    problems = [
        f"line {n}: unknown card {name!r}{did_you_mean(name, db)}"
        for n, name in getattr(deck, "unknown", [])
    ]
    main = list(getattr(deck, "main", []))
    side = list(getattr(deck, "sideboard", []) or [])
    commanders = list(getattr(deck, "commander", []) or [])
    for name in main + side + commanders:
        if name not in db:
            problems.append(f"unknown card {name!r}{did_you_mean(name, db)}")
    known = [n for n in main + side + commanders if n in db]
    for name in sorted(set(known)):
        card = db.get(name)
        if not card.real:
            problems.append(f"{card.name}: not a real card (a token or an invented rules example)")
    if problems:
        return problems
    if fmt == "constructed":
        return _constructed(main, side, db)
    if fmt == "commander-draft":
        if pool is None:
            raise ValueError("commander-draft: the player's card pool is needed (pool=)")
        return _commander_draft(main, commanders, list(pool), db, piper, masters, colors, faceless)
    return _commander(main, commanders, db, brawl=fmt == "brawl")


def _constructed(main: list[str], side: list[str], db: CardDB) -> list[str]:
    problems = []
    if len(main) < 60:
        problems.append(f"the main deck has {len(main)} cards: at least 60 (100.2a)")
    counts: dict[str, int] = {}
    for name in main + side:
        counts[name] = counts.get(name, 0) + 1
    for name, k in sorted(counts.items()):
        if k > 4 and not is_basic(db, name):
            problems.append(f"{name}: {k} copies, at most 4 (100.2a)")
    return problems


def _commander(main: list[str], commanders: list[str], db: CardDB, brawl: bool) -> list[str]:
    rule = "903.12" if brawl else "903.5a"
    size = 60 if brawl else 100
    problems = []
    total = len(main) + len(commanders)
    if total != size:
        problems.append(
            f"the deck has {total} cards counting the commander: exactly {size} ({rule})"
        )
    if not commanders:
        problems.append("no commander (903.3)")
    elif len(commanders) > 2:
        problems.append(f"{len(commanders)} commanders: one, or two with partner (903.3c)")
    paired = len(commanders) == 2 and background_pair(db, *commanders)
    for name in commanders:
        rec = db.get(name).record
        types = rec.get("types") or []
        legendary = "Legendary" in (rec.get("supertypes") or [])
        ok = (legendary and "Creature" in types) or bool(rec.get("can_be_commander"))
        if brawl and legendary and "Planeswalker" in types:
            ok = True
        if paired and is_background(db, name):  # 702.124k: a chosen Background
            ok = True
        if not ok:
            what = "a legendary creature or planeswalker" if brawl else "a legendary creature"
            problems.append(f"{name}: can't be a commander (903.3: {what}, or a card that says so)")
    if (len(commanders) == 2 and not paired
            and not all(_has_partner(db, c) for c in commanders)):  # fmt: skip
        problems.append(f"{' and '.join(commanders)}: two commanders need partner (702.124)")
    counts: dict[str, int] = {}
    for name in main + commanders:
        counts[name] = counts.get(name, 0) + 1
    for name, k in sorted(counts.items()):
        if k > 1 and not is_basic(db, name):
            problems.append(f"{name}: {k} copies, a singleton deck has one (903.5b)")
    allowed = set()
    for name in commanders:
        allowed |= color_identity(db, name)
    return problems + _identity_problems(main, allowed, db, brawl)


def _identity_problems(main: list[str], allowed: set[str], db: CardDB, brawl: bool = False
                       ) -> list[str]:  # fmt: skip
    """903.5c-d (and 903.12e): the main deck's cards against the commanders' colour
    identity ``allowed``."""
    problems: list[str] = []
    letters = "".join(c for c in COLOR_ORDER if c in allowed) or "colorless"
    exempt: set[str] = set()
    if brawl and not allowed:  # 903.12e: basic lands of one basic land type
        basics = {n: _basic_types(db, n) for n in set(main) if is_basic(db, n)}
        kinds = set().union(*basics.values()) if basics else set()
        if len(kinds) > 1:
            problems.append(
                f"{', '.join(sorted(n for n, t in basics.items() if t))}: basic lands of more than"
                " one basic land type with a colourless commander (903.12e: one type)"
            )
        exempt = set(basics)
    for name in sorted(set(main) - exempt):
        kinds = _basic_types(db, name)
        if kinds:  # 903.5d: each colour of mana a card with a basic land type could make
            makes = color_identity(db, name) | {BASIC_LAND_COLORS[t] for t in kinds}
            outside = makes - allowed
            if outside:
                off = "".join(c for c in COLOR_ORDER if c in outside)
                problems.append(
                    f"{name}: a card with the basic land type {'/'.join(kinds)} makes {off},"
                    f" outside the commander's colour identity ({letters}) (903.5d)"
                )
            continue
        outside = color_identity(db, name) - allowed
        if outside:
            off = "".join(c for c in COLOR_ORDER if c in outside)
            problems.append(
                f"{name}: colour identity {off} outside the commander's ({letters}) (903.5c)"
            )
    return problems


def _commander_draft(main: list[str], commanders: list[str], pool: list[str], db: CardDB,
                     piper: bool, masters: bool, colors: Any, faceless: bool = False
                     ) -> list[str]:  # fmt: skip
    """903.13e-f (see the module docstring)."""
    problems = []
    total = len(main) + len(commanders)
    if total < 60:
        problems.append(f"the deck has {total} cards counting the commander: at least 60 "
                        "(903.13f)")  # fmt: skip
    if not commanders:
        problems.append("no commander (903.3)")
    elif len(commanders) > 2:
        problems.append(f"{len(commanders)} commanders: one, or two with partner (903.3c)")
    paired = len(commanders) == 2 and background_pair(db, *commanders)
    for name in commanders:
        if not can_be_commander(db, name) and not (paired and is_background(db, name)):
            problems.append(f"{name}: can't be a commander (903.3: a legendary creature, or a "
                            "card that says so)")  # fmt: skip
    if len(commanders) == 2 and not paired:
        partners = [_has_partner(db, c) or (masters and _masters_partner(db, c))
                    for c in commanders]  # fmt: skip
        if not all(partners):
            why = ("; with Commander Masters boosters, commanders of one colour or none "
                   "count as partners, 903.13f" if masters else "")  # fmt: skip
            problems.append(f"{' and '.join(commanders)}: two commanders need partner "
                            f"(702.124{why})")  # fmt: skip
    have: dict[str, int] = {}
    for name in pool:
        name = db.get(name).name if name in db else name
        have[name] = have.get(name, 0) + 1
    want: dict[str, int] = {}
    for name in main + commanders:
        if not is_basic(db, name):
            want[name] = want.get(name, 0) + 1
    added = {PIPER: piper, FACELESS: faceless}  # 903.13e: the set's boosters allow them
    for name, k in sorted(want.items()):
        n = have.get(name, 0)
        if added.get(name):  # 903.13e: up to two added, as commanders only
            if main.count(name) > n:
                problems.append(f"{name}: {main.count(name)} in the main deck, {n} in the "
                                "card pool (903.13e adds it as a commander only)")  # fmt: skip
        elif k > n:
            if name in commanders and not n and name not in ADDED:
                problems.append(f"{name}: the commander is not in the card pool (903.13e-f: "
                                "a deck, its commander included, comes from the pool)")  # fmt: skip
            elif name in ADDED and not n:
                problems.append(
                    f"{name}: not in the card pool (903.13e adds it only in a "
                    f"draft with {ADDED[name]} boosters)"
                )
            else:
                problems.append(f"{name}: {k} in the deck, {n} in the card pool (903.13e-f: "
                                "only cards the player drafted, and basic lands)")  # fmt: skip
    choosers = [c for c in commanders if _chooses_color(db, c)]
    fixed: set[str] = set()
    for name in commanders:
        if name not in choosers:
            fixed |= color_identity(db, name)
    if colors is not None:
        chosen = [str(c).upper() for c in (colors if isinstance(colors, (list, tuple))
                                             else [colors])]  # fmt: skip
        bad = [c for c in chosen if c not in COLOR_ORDER]
        if bad or len(chosen) != len(choosers):
            problems.append(
                f"colors {''.join(chosen) or '-'}: one colour letter (WUBRG) for "
                f"each commander whose colour is chosen ({len(choosers)}) (903.4b)"
            )
            return problems
        return problems + _identity_problems(main, fixed | set(chosen), db)
    if not choosers:
        return problems + _identity_problems(main, fixed, db)
    # 903.4b: no colour given: the choice that makes the deck legal, if one does
    best: list[str] | None = None
    for combo in _color_choices(len(choosers)):
        found = _identity_problems(main, fixed | set(combo), db)
        if best is None or len(found) < len(best):
            best = found
    return problems + (best or [])


def _color_choices(n: int) -> list[tuple[str, ...]]:
    if n == 0:
        return [()]
    return [(c,) + rest for c in COLOR_ORDER for rest in _color_choices(n - 1)]


def can_be_commander(db: CardDB, name: str) -> bool:
    """903.3: a legendary creature, or a card that says it can be your commander."""
    rec = db.get(name).record
    legendary = "Legendary" in (rec.get("supertypes") or [])
    return (legendary and "Creature" in (rec.get("types") or [])) or bool(
        rec.get("can_be_commander")
    )


def background_pair(db: CardDB, a: str, b: str) -> bool:
    """702.124 ("choose a Background", a partner variant): two commanders are allowed if
    one can be a commander by itself and has "choose a Background", and the other is a
    legendary Background enchantment card (two Faceless Ones: each is both)."""
    return any(
        chooses_background(db, x) and can_be_commander(db, x) and is_background(db, y)
        for x, y in ((a, b), (b, a))
    )


def chooses_background(db: CardDB, name: str) -> bool:
    """A card with "choose a Background" (702.124): the record keyword."""
    return CHOOSE_BACKGROUND in (db.get(name).record.get("keywords") or [])


def is_background(db: CardDB, name: str) -> bool:
    """A legendary Background enchantment card (702.124, 205.3h)."""
    rec = db.get(name).record
    return (
        "Legendary" in (rec.get("supertypes") or [])
        and "Enchantment" in (rec.get("types") or [])
        and "Background" in (rec.get("subtypes") or [])
    )


def _chooses_color(db: CardDB, name: str) -> bool:
    """903.4b: a commander whose colour its player chooses before the game (The Prismatic
    Piper): that choice is its colour identity."""
    return bool(db.get(name).record.get("commander_color_choice"))


def _masters_partner(db: CardDB, name: str) -> bool:
    """903.13f(3): with Commander Masters boosters, a card that can be a commander by
    itself with a colour identity of one colour or none counts as having partner."""
    return can_be_commander(db, name) and len(color_identity(db, name)) <= 1


def _basic_types(db: CardDB, name: str) -> list[str]:
    """The basic land types of the card (205.3i), in the record's order."""
    return [t for t in db.get(name).record.get("subtypes") or [] if t in BASIC_LAND_COLORS]


def is_basic(db: CardDB, name: str) -> bool:
    return "Basic" in (db.get(name).record.get("supertypes") or [])


def _has_partner(db: CardDB, name: str) -> bool:
    return any(k == "partner" or (isinstance(k, dict) and "partner_with" in k)
               for k in db.get(name).record.get("keywords") or [])  # fmt: skip


def color_identity(db: CardDB, name: str) -> set[str]:
    """903.4: the colours of every mana symbol in the card's cost and rules text (its
    abilities; hybrid symbols count both halves), and its colour indicator, of both
    faces. ("Add one mana of any colour" has no mana symbol: it adds nothing.)"""
    rec = db.get(name).record
    return _identity(rec)


def _identity(rec: dict) -> set[str]:
    colors: set[str] = set()

    def scan(v: Any, key: str = "") -> None:
        if isinstance(v, str):
            for sym in _SYMBOL.findall(v):
                colors.update(c for c in sym.upper().split("/") if c in COLOR_ORDER)
        elif isinstance(v, dict):
            for k, x in v.items():
                if k in ("note", "name", "back"):
                    continue
                if k == "one_of":  # {one_of: [R, G]}: "add {R} or {G}"
                    colors.update(c for c in x if c in COLOR_ORDER)
                    continue
                scan(x, k)
        elif isinstance(v, list):
            for x in v:
                scan(x, key)

    scan(rec.get("cost", ""))
    scan(rec.get("abilities", []))
    scan([k for k in rec.get("keywords") or [] if isinstance(k, dict)])
    colors.update(c for c in rec.get("colors") or [] if c in COLOR_ORDER)
    if isinstance(rec.get("back"), dict):
        colors |= _identity(rec["back"])
    return colors


def did_you_mean(name: str, db: CardDB) -> str:
    close = difflib.get_close_matches(str(name), db.names(), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
