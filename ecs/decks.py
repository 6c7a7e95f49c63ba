"""Decklists in the plain-text formats players export.

    # comments and blank lines are ignored
    4 Lightning Bolt
    20 mountain                    # card names are case-insensitive
    4 Lightning Bolt (M10) 146     # Arena / MTGO export: set code and number ignored
    Sideboard
    2 Fog
    Commander
    1 Some Legend

A line is ``COUNT NAME`` (``4x NAME`` also accepted); a bare ``NAME`` counts one.
Section headers: ``Deck``/``Main``/``Mainboard``, ``Sideboard``, ``Commander``,
``Companion`` (an optional trailing colon is fine); Arena's ``About`` section
(``Name My Deck``) names the deck. Lines starting with ``#`` or ``//`` are
comments. An MTGO export without headers puts the sideboard after a blank line:
a list with no section headers whose cards form exactly two blank-separated
blocks, the second of at most 15 cards, reads the second block as the sideboard.

Bounds: a count is 1 to ``MAX_CARDS`` and so is each section's total; a file is
text (UTF-8) of at most 16 MiB. An unknown card, a bad line or a file that is not
a decklist is a :class:`DeckError` naming the file and line; unknown names get a
"did you mean" from the card pool.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ecs.cards import CardDB, load_pool
from ecs.checks import InputError, read_text

DECKS = Path(__file__).parent / "data" / "decks"
MAX_CARDS = 1000
SIDEBOARD_MAX = 15
_LINE = re.compile(r"^(?:([+-]?\d+)\s*[xX]?\s+)?(.+?)\s*$")
_EXPORT_TAIL = re.compile(r"\s+\([A-Za-z0-9_]{2,8}\)(?:\s+[A-Za-z0-9-]+)?(?:\s+\*[A-Z]+\*)?$")
_SECTIONS = {
    "deck": "main",
    "main": "main",
    "maindeck": "main",
    "mainboard": "main",
    "sideboard": "sideboard",
    "commander": "commander",
    "companion": "companion",
    "about": "about",
}


class DeckError(ValueError):
    """A decklist is wrong; the message names the file and line."""


@dataclass
class Deck:
    name: str
    main: list[str] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)
    commander: list[str] = field(default_factory=list)
    companion: list[str] = field(default_factory=list)


def _names(db: CardDB) -> dict[str, str]:
    """Lower-case name -> the pool's spelling (every card but tokens)."""
    return {n.lower(): n for n, c in db.cards.items() if not c.token}


def _unknown(name: str, names: dict[str, str]) -> str:
    close = difflib.get_close_matches(name.lower(), list(names), n=1, cutoff=0.75)
    hint = f" (did you mean {names[close[0]]!r}?)" if close else ""
    return f"unknown card {name!r}{hint}"


def parse_decklist(text: str, where: str = "<decklist>", db: CardDB | None = None) -> Deck:
    """Read a decklist; :class:`DeckError` naming ``where`` and the line if it is wrong."""
    db = db or load_pool()
    names = _names(db)
    deck = Deck(name=Path(where).stem)
    section = "main"
    headers = False
    blocks: list[list[tuple[int, str]]] = [[]]  # main-section entries between blank lines
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("//"):
            continue
        if not line:
            if blocks[-1]:
                blocks.append([])
            continue
        key = line.rstrip(":").strip().lower()
        if key in _SECTIONS:
            section, headers = _SECTIONS[key], True
            continue
        if section == "about":  # Arena: "Name My Deck"
            if line.lower().startswith("name "):
                deck.name = line[5:].strip() or deck.name
            continue
        m = _LINE.match(line)
        if not m:  # pragma: no cover - the pattern matches any non-empty line
            raise DeckError(f"{where}:{n}: can't read {raw!r} (expected 'COUNT CARD NAME')")
        count = int(m.group(1)) if m.group(1) else 1
        if count < 1:
            raise DeckError(f"{where}:{n}: count must be at least 1, got {m.group(1)}")
        if count > MAX_CARDS:
            raise DeckError(f"{where}:{n}: count must be at most {MAX_CARDS}, got {count}")
        name = _EXPORT_TAIL.sub("", m.group(2)).strip()
        card = names.get(name.lower()) or names.get(" ".join(name.split()).lower())
        if card is None:
            raise DeckError(f"{where}:{n}: {_unknown(name, names)}")
        cards = getattr(deck, section)
        if len(cards) + count > MAX_CARDS:
            raise DeckError(f"{where}:{n}: more than {MAX_CARDS} cards in the {section} section")
        cards.extend([card] * count)
        if section == "main":
            blocks[-1].append((count, card))
    blocks = [b for b in blocks if b]
    if not headers and len(blocks) == 2 and sum(c for c, _ in blocks[1]) <= SIDEBOARD_MAX:
        deck.main = [card for c, card in blocks[0] for _ in range(c)]
        deck.sideboard = [card for c, card in blocks[1] for _ in range(c)]
    if not deck.main:
        raise DeckError(f"{where}: the deck has no main-deck cards")
    return deck


def load_deck(path: str | Path, db: CardDB | None = None) -> Deck:
    """A decklist file, or a stock deck by name (``burn``; the Commander and constructed
    decks of ``ecs/data/decks/stock/`` as ``stock/NAME``); :class:`DeckError` otherwise."""
    if not str(path).strip():
        raise DeckError(f"expected a stock deck name or a decklist file, got {str(path)!r}")
    p = Path(path)
    if not p.exists():
        cand = DECKS / f"{path}.txt"
        if str(path) and ("/" not in str(path) or str(path).startswith("stock/")) and cand.exists():
            p = cand
        else:
            stock = stock_decks()
            close = difflib.get_close_matches(str(path), stock, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise DeckError(
                f"{path}: no such deck file or stock deck ({hint}stock: {', '.join(stock)})"
            )
    try:
        text = read_text(p)
    except InputError as e:
        raise DeckError(str(e)) from None
    return parse_decklist(text, str(p), db)


def stock_decks() -> list[str]:
    return sorted(p.stem for p in DECKS.glob("*.txt"))
