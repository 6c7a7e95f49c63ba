"""Decklists in the plain-text format players export.

    # comments and blank lines are ignored
    4 Lightning Bolt
    20 Mountain
    Sideboard
    2 Fog
    Commander
    1 Some Legend

A line is ``COUNT NAME`` (``4x NAME`` also accepted); a bare ``NAME`` counts one.
Section headers: ``Deck``/``Main``, ``Sideboard``, ``Commander`` (an optional
trailing colon is fine). An unknown card or a bad line is a :class:`DeckError`
naming the file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ecs.legacy.cards import CardDB, load_cards

DECKS = Path(__file__).parent / "data" / "decks"
_LINE = re.compile(r"^(?:(\d+)\s*x?\s+)?(.+?)\s*$", re.IGNORECASE)
_SECTIONS = {
    "deck": "main",
    "main": "main",
    "mainboard": "main",
    "sideboard": "sideboard",
    "commander": "commander",
}


class DeckError(ValueError):
    """A decklist is wrong; the message names the file and line."""


@dataclass
class Deck:
    name: str
    main: list[str] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)
    commander: list[str] = field(default_factory=list)


def parse_decklist(text: str, where: str = "<decklist>", db: CardDB | None = None) -> Deck:
    db = db or load_cards()
    deck = Deck(name=Path(where).stem)
    section = "main"
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].split("//", 1)[0].strip()
        if not line:
            continue
        key = line.rstrip(":").strip().lower()
        if key in _SECTIONS:
            section = _SECTIONS[key]
            continue
        m = _LINE.match(line)
        if not m:
            raise DeckError(f"{where}:{n}: can't read {raw!r} (expected 'COUNT CARD NAME')")
        count = int(m.group(1)) if m.group(1) else 1
        name = m.group(2)
        if count < 1:
            raise DeckError(f"{where}:{n}: count must be at least 1 in {raw!r}")
        if name not in db:
            raise DeckError(f"{where}:{n}: unknown card {name!r}")
        getattr(deck, section).extend([name] * count)
    if not deck.main:
        raise DeckError(f"{where}: the deck has no main-deck cards")
    return deck


def load_deck(path: str | Path, db: CardDB | None = None) -> Deck:
    p = Path(path)
    if not p.exists():
        cand = DECKS / f"{path}.txt"
        if cand.exists():
            p = cand
        else:
            raise DeckError(
                f"{path}: no such deck file or stock deck (stock: {', '.join(stock_decks())})"
            )
    return parse_decklist(p.read_text(), str(p), db)


def stock_decks() -> list[str]:
    return sorted(p.stem for p in DECKS.glob("*.txt"))
