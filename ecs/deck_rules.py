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

Every card must be in the pool and be a real card; an unknown name gets "did you
mean". The messages name the card and the rule."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from ecs.cards import CardDB

FORMATS = ("constructed", "commander", "brawl")
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


def check_deck(deck: Any, fmt: str, db: CardDB) -> list[str]:
    """What makes the deck illegal in format ``fmt`` (constructed, commander, brawl);
    an empty list when it is legal. ``deck`` is a ParsedDeck or anything with ``main``
    (and ``commander``, ``sideboard``) lists of card names."""
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
    for name in commanders:
        rec = db.get(name).record
        types = rec.get("types") or []
        legendary = "Legendary" in (rec.get("supertypes") or [])
        ok = (legendary and "Creature" in types) or bool(rec.get("can_be_commander"))
        if brawl and legendary and "Planeswalker" in types:
            ok = True
        if not ok:
            what = "a legendary creature or planeswalker" if brawl else "a legendary creature"
            problems.append(f"{name}: can't be a commander (903.3: {what}, or a card that says so)")
    if len(commanders) == 2 and not all(_has_partner(db, c) for c in commanders):
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
