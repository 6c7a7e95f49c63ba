"""Deck construction rules per format (ecs/deck_rules.py): the stock decks are legal,
and each rule refuses the deck that breaks it, saying which card and which rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs.cards import load_pool
from ecs.deck_rules import ParsedDeck, check_deck, color_identity, parse_deck

DECKS = Path(__file__).parent.parent / "ecs" / "data" / "decks" / "stock"
STOCK = sorted(p for p in DECKS.glob("*.txt") if p.stem.startswith(("commander-", "constructed-")))


@pytest.fixture(scope="module")
def db():
    return load_pool()


def _fmt(p: Path) -> str:
    return "commander" if p.stem.startswith("commander-") else "constructed"


def test_fourteen_stock_decks() -> None:
    names = [p.stem for p in STOCK]
    assert len([n for n in names if n.startswith("commander-")]) == 6
    assert len([n for n in names if n.startswith("constructed-")]) == 8
    assert "commander-edgar-markov" in names and "constructed-mono-red-burn" in names


@pytest.mark.parametrize("path", STOCK, ids=[p.stem for p in STOCK])
def test_stock_deck_is_legal(path: Path, db) -> None:
    deck = parse_deck(path.read_text(), db, path.stem)
    assert check_deck(deck, _fmt(path), db) == []
    if _fmt(path) == "commander":
        assert len(deck.commander) == 1 and len(deck.main) == 99
    else:
        assert len(deck.main) == 60


def _constructed(**extra: int) -> ParsedDeck:
    cards = {"Mountain": 20, "Lightning Bolt": 4, "Goblin Raiders": 4, "Hill Giant": 4,
             "Raging Goblin": 4, "Lava Axe": 4, "Searing Spear": 4, "Incinerate": 4,
             "Flame Rift": 4, "Lightning Strike": 4, "Monastery Swiftspear": 4}  # fmt: skip
    cards.update(extra)
    return ParsedDeck(main=[n for n, k in cards.items() for _ in range(k)])


def test_constructed_legal(db) -> None:
    assert check_deck(_constructed(), "constructed", db) == []


def test_constructed_too_few_cards(db) -> None:
    problems = check_deck(_constructed(Mountain=19), "constructed", db)
    assert problems == ["the main deck has 59 cards: at least 60 (100.2a)"]


def test_constructed_five_of_refused_basics_free(db) -> None:
    problems = check_deck(_constructed(**{"Lightning Bolt": 5, "Mountain": 40}), "constructed", db)
    assert problems == ["Lightning Bolt: 5 copies, at most 4 (100.2a)"]


def test_constructed_sideboard_counts_for_four_of(db) -> None:
    deck = _constructed()
    deck.sideboard = ["Lightning Bolt"]
    assert check_deck(deck, "constructed", db) == ["Lightning Bolt: 5 copies, at most 4 (100.2a)"]


def test_unknown_card_did_you_mean(db) -> None:
    deck = parse_deck("4 Lightning Bolts\n56 Mountain\n", db)
    problems = check_deck(deck, "constructed", db)
    assert len(problems) == 1
    assert (
        "unknown card 'Lightning Bolts'" in problems[0]
        and "did you mean 'Lightning Bolt'" in problems[0]
    )


def test_names_case_insensitive_and_export_tails(db) -> None:
    deck = parse_deck("Deck\n4 lightning bolt (M10) 146\n56 MOUNTAIN\n", db)
    assert deck.main.count("Lightning Bolt") == 4 and deck.main.count("Mountain") == 56
    assert check_deck(deck, "constructed", db) == []


def test_not_real_card_refused(db) -> None:
    deck = _constructed(Mountain=16, **{"Sky Knight Duo": 4})
    assert check_deck(deck, "constructed", db) == [
        "Sky Knight Duo: not a real card (a token or an invented rules example)"
    ]


def _commander_deck(db, text: str | None = None) -> ParsedDeck:
    path = DECKS / "commander-krenko-mob-boss.txt"
    return parse_deck(text if text is not None else path.read_text(), db)


def test_commander_legal(db) -> None:
    assert check_deck(_commander_deck(db), "commander", db) == []


def test_commander_99_cards_refused(db) -> None:
    deck = _commander_deck(db)
    deck.main.remove("Mountain")
    assert check_deck(deck, "commander", db) == [
        "the deck has 99 cards counting the commander: exactly 100 (903.5a)"
    ]


def test_commander_singleton(db) -> None:
    deck = _commander_deck(db)
    deck.main.remove("Mountain")
    deck.main.append("Sol Ring")
    assert check_deck(deck, "commander", db) == [
        "Sol Ring: 2 copies, a singleton deck has one (903.5b)"
    ]


def test_commander_colour_identity(db) -> None:
    deck = _commander_deck(db)
    deck.main.remove("Mountain")
    deck.main.append("Counterspell")
    assert check_deck(deck, "commander", db) == [
        "Counterspell: colour identity U outside the commander's (R) (903.5c)"
    ]


def test_commander_identity_from_rules_text_and_hybrid(db) -> None:
    assert color_identity(db, "Golgari Signet") == {"B", "G"}  # its mana ability
    assert color_identity(db, "Boros Reckoner") == {"R", "W"}  # hybrid symbols
    assert color_identity(db, "Command Tower") == set()
    assert color_identity(db, "Zagoth Triome") == {"B", "G", "U"}
    assert color_identity(db, "Atraxa, Praetors' Voice") == {"W", "U", "B", "G"}


def test_commander_must_be_legendary_creature(db) -> None:
    deck = _commander_deck(db)
    deck.commander = ["Goblin Raiders"]
    problems = check_deck(deck, "commander", db)
    assert (
        "Goblin Raiders: can't be a commander (903.3: a legendary creature, or a card that says so)"
        in problems
    )


def test_commander_can_be_commander_planeswalker(db) -> None:
    text = "Commander\n1 Teferi, Temporal Archmage\n\nDeck\n" + "99 Island\n"
    assert check_deck(parse_deck(text, db), "commander", db) == []


def test_partner_commanders(db) -> None:
    text = "Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n98 Plains\n"
    assert check_deck(parse_deck(text, db), "commander", db) == []
    text = "Commander\n1 Krenko, Mob Boss\n1 Tymna the Weaver\n\nDeck\n98 Plains\n"
    problems = check_deck(parse_deck(text, db), "commander", db)
    assert (
        "Krenko, Mob Boss and Tymna the Weaver: two commanders need partner (702.124)" in problems
    )


def test_brawl_sixty_cards_and_planeswalker_commander(db) -> None:
    text = "Commander\n1 Garruk Wildspeaker\n\nDeck\n59 Forest\n"
    assert check_deck(parse_deck(text, db), "brawl", db) == []
    assert check_deck(parse_deck(text, db), "commander", db) != []
    text = "Commander\n1 Garruk Wildspeaker\n\nDeck\n99 Forest\n"
    assert check_deck(parse_deck(text, db), "brawl", db) == [
        "the deck has 100 cards counting the commander: exactly 60 (903.12)"
    ]


def test_unknown_format(db) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        check_deck(_constructed(), "vintage", db)
