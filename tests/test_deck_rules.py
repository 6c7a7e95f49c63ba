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


def test_903_4_example_bosh_identity_from_rules_text(db) -> None:
    """903.4 example: Bosh, Iron Golem costs {8}; the {R} of its ability makes it red."""
    assert color_identity(db, "Bosh, Iron Golem") == {"R"}
    text = "Commander\n1 Bosh, Iron Golem\n\nDeck\n1 Lightning Bolt\n98 Mountain\n"
    assert check_deck(parse_deck(text, db), "commander", db) == []


def test_903_4d_example_civilized_scholar_back_face(db) -> None:
    """903.4d example: Civilized Scholar ({2}{U}) // Homicidal Brute (red colour
    indicator) is blue and red: a mono-blue Talrand deck can't have it."""
    assert color_identity(db, "Civilized Scholar") == {"U", "R"}
    text = "Commander\n1 Talrand, Sky Summoner\n\nDeck\n1 Civilized Scholar\n98 Island\n"
    assert check_deck(parse_deck(text, db), "commander", db) == [
        "Civilized Scholar: colour identity R outside the commander's (U) (903.5c)"
    ]


def _wort(*cards: str) -> str:
    return (
        "Commander\n1 Wort, the Raidmother\n\nDeck\n"
        + "".join(f"1 {c}\n" for c in cards)
        + f"{99 - len(cards)} Mountain\n"
    )


def test_903_5c_example_wort_hybrid_identity(db) -> None:
    """903.5c example: Wort, the Raidmother ({4}{R/G}{R/G}) is red and green; its deck
    may hold red, green, red-and-green and colourless cards, nothing else, hybrid
    symbols counting both halves."""
    assert color_identity(db, "Wort, the Raidmother") == {"R", "G"}
    legal = _wort("Lightning Bolt", "Llanowar Elves", "Kessig Naturalist", "Sol Ring")
    assert check_deck(parse_deck(legal, db), "commander", db) == []
    assert check_deck(parse_deck(_wort("Boros Reckoner"), db), "commander", db) == [
        "Boros Reckoner: colour identity W outside the commander's (RG) (903.5c)"
    ]
    assert check_deck(parse_deck(_wort("Golgari Signet"), db), "commander", db) == [
        "Golgari Signet: colour identity B outside the commander's (RG) (903.5c)"
    ]


def test_903_5d_example_wort_basic_land_types(db) -> None:
    """903.5d example: a Wort deck may have lands with the basic land types Mountain and
    Forest, none with Plains, Island or Swamp (Zagoth Triome is a Swamp Forest Island)."""
    text = "Commander\n1 Wort, the Raidmother\n\nDeck\n50 Mountain\n49 Forest\n"
    assert check_deck(parse_deck(text, db), "commander", db) == []
    for land, kinds, off in (("Plains", "Plains", "W"), ("Island", "Island", "U"),
                             ("Swamp", "Swamp", "B"),
                             ("Zagoth Triome", "Swamp/Forest/Island", "UB")):  # fmt: skip
        assert check_deck(parse_deck(_wort(land), db), "commander", db) == [
            f"{land}: a card with the basic land type {kinds} makes {off}, outside the"
            " commander's colour identity (RG) (903.5d)"
        ]


def test_903_12e_colourless_brawl_commander_one_basic_land_type(db) -> None:
    """903.12e: with a colourless commander (Karn Liberated) a Brawl deck may hold any
    number of basic lands of one basic land type, not of two; in Commander, 903.5d
    holds (no Mountains for a colourless commander)."""
    text = "Commander\n1 Karn Liberated\n\nDeck\n58 Mountain\n1 Sol Ring\n"
    assert check_deck(parse_deck(text, db), "brawl", db) == []
    text = "Commander\n1 Karn Liberated\n\nDeck\n29 Mountain\n29 Forest\n1 Sol Ring\n"
    assert check_deck(parse_deck(text, db), "brawl", db) == [
        "Forest, Mountain: basic lands of more than one basic land type with a colourless"
        " commander (903.12e: one type)"
    ]
    text = "Commander\n1 Kamahl, Pit Fighter\n\nDeck\n58 Forest\n1 Sol Ring\n"
    assert check_deck(parse_deck(text, db), "brawl", db) == [
        "Forest: a card with the basic land type Forest makes G, outside the commander's"
        " colour identity (R) (903.5d)"
    ]
    text = "Commander\n1 Bosh, Iron Golem\n\nDeck\n99 Forest\n"
    assert "(903.5d)" in check_deck(parse_deck(text, db), "commander", db)[0]


def test_903_5b_singleton_but_basic_lands(db) -> None:
    """903.5b: other than basic lands, each card has a different name: 97 Mountains are
    fine, two Command Towers (a land, not basic) are not."""
    text = "Commander\n1 Krenko, Mob Boss\n\nDeck\n2 Command Tower\n97 Mountain\n"
    assert check_deck(parse_deck(text, db), "commander", db) == [
        "Command Tower: 2 copies, a singleton deck has one (903.5b)"
    ]


def test_903_12c_planeswalker_commander_only_in_brawl_unless_it_says_so(db) -> None:
    """903.12c: a legendary planeswalker is a Brawl commander; in Commander only one that
    says it can be your commander (903.3a: Teferi, Temporal Archmage)."""
    text = "Commander\n1 Vivien Reid\n\nDeck\n59 Forest\n"
    assert check_deck(parse_deck(text, db), "brawl", db) == []
    text = "Commander\n1 Vivien Reid\n\nDeck\n99 Forest\n"
    assert check_deck(parse_deck(text, db), "commander", db) == [
        "Vivien Reid: can't be a commander (903.3: a legendary creature, or a card that says so)"
    ]


def test_unknown_format(db) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        check_deck(_constructed(), "vintage", db)


# ------------------------------------------------------------ Commander Draft (903.13e-f)
POOL = ["Siani, Eye of the Storm", "Preordain", "Preordain", "Strategic Planning",
        "Horizon Scholar", "Murder", "Kamahl, Heart of Krosa", "Rograkh, Son of Rohgahh",
        "Falthis, Shadowcat Familiar"]  # fmt: skip


def _draft_deck(commander: list[str], main: dict[str, int]) -> ParsedDeck:
    return ParsedDeck(main=[n for n, k in main.items() for _ in range(k)], commander=commander)


def _draft_check(deck: ParsedDeck, db, **kw) -> list[str]:
    return check_deck(deck, "commander-draft", db, pool=POOL, **kw)


def test_commander_draft_deck_is_legal(db) -> None:
    """903.13f: 60 cards counting the commander, both drafted Preordains, basics freely."""
    deck = _draft_deck(["Siani, Eye of the Storm"],
                       {"Preordain": 2, "Strategic Planning": 1, "Island": 56})  # fmt: skip
    assert _draft_check(deck, db) == []
    deck.main += ["Island"] * 40  # no maximum
    assert _draft_check(deck, db) == []


def test_commander_draft_too_few_cards(db) -> None:
    deck = _draft_deck(["Siani, Eye of the Storm"], {"Preordain": 2, "Island": 56})
    assert _draft_check(deck, db) == [
        "the deck has 59 cards counting the commander: at least 60 (903.13f)"
    ]


def test_commander_draft_card_not_in_pool(db) -> None:
    deck = _draft_deck(["Siani, Eye of the Storm"], {"Preordain": 3, "Counterspell": 1,
                                                     "Island": 56})  # fmt: skip
    assert _draft_check(deck, db) == [
        "Counterspell: 1 in the deck, 0 in the card pool (903.13e-f: only cards the player "
        "drafted, and basic lands)",
        "Preordain: 3 in the deck, 2 in the card pool (903.13e-f: only cards the player "
        "drafted, and basic lands)",
    ]


def test_commander_draft_commander_outside_pool(db) -> None:
    deck = _draft_deck(["Talrand, Sky Summoner"], {"Preordain": 2, "Island": 57})
    assert _draft_check(deck, db) == [
        "Talrand, Sky Summoner: the commander is not in the card pool (903.13e-f: a deck, its "
        "commander included, comes from the pool)"
    ]


def test_commander_draft_colour_identity(db) -> None:
    deck = _draft_deck(["Siani, Eye of the Storm"], {"Preordain": 2, "Murder": 1, "Swamp": 1,
                                                     "Island": 55})  # fmt: skip
    assert _draft_check(deck, db) == [
        "Murder: colour identity B outside the commander's (U) (903.5c)",
        "Swamp: a card with the basic land type Swamp makes B, outside the commander's colour "
        "identity (U) (903.5d)",
    ]


def test_commander_draft_commander_must_be_legendary_creature(db) -> None:
    deck = _draft_deck(["Horizon Scholar"], {"Preordain": 2, "Island": 57})
    assert _draft_check(deck, db) == [
        "Horizon Scholar: can't be a commander (903.3: a legendary creature, or a card that "
        "says so)"
    ]


def test_commander_draft_partners(db) -> None:
    """702.124: Kamahl and Rograkh both have partner; Siani does too, but Falthis +
    Kamahl + Rograkh are three."""
    deck = _draft_deck(["Kamahl, Heart of Krosa", "Rograkh, Son of Rohgahh"],
                       {"Mountain": 29, "Forest": 29})  # fmt: skip
    assert _draft_check(deck, db) == []
    deck.commander.append("Falthis, Shadowcat Familiar")
    assert "3 commanders: one, or two with partner (903.3c)" in _draft_check(deck, db)


def test_prismatic_piper_allowed_as_commander(db) -> None:
    """903.13e: with Commander Legends boosters the Piper is added as a commander; its
    chosen colour is its colour identity (903.4b), given or found."""
    deck = _draft_deck(["The Prismatic Piper"], {"Preordain": 2, "Horizon Scholar": 1,
                                                 "Island": 56})  # fmt: skip
    assert _draft_check(deck, db, piper=True, colors=["U"]) == []
    assert _draft_check(deck, db, piper=True) == []  # (blue: the colour that fits)
    assert _draft_check(deck, db, piper=True, colors=["G"]) == [
        "Horizon Scholar: colour identity U outside the commander's (G) (903.5c)",
        "Island: a card with the basic land type Island makes U, outside the commander's "
        "colour identity (G) (903.5d)",
        "Preordain: colour identity U outside the commander's (G) (903.5c)",
    ]
    assert _draft_check(deck, db) == [
        "The Prismatic Piper: not in the card pool (903.13e adds it only in a draft with "
        "Commander Legends or Commander Masters boosters)"
    ]
    deck.main.append("The Prismatic Piper")  # only as a commander
    assert _draft_check(deck, db, piper=True) == [
        "The Prismatic Piper: 1 in the main deck, 0 in the card pool (903.13e adds it as a "
        "commander only)"
    ]
    two = _draft_deck(["The Prismatic Piper", "The Prismatic Piper"], {"Preordain": 2,
                      "Murder": 1, "Island": 28, "Swamp": 28})  # fmt: skip
    assert _draft_check(two, db, piper=True, colors=["U", "B"]) == []  # (partner)
    with_siani = _draft_deck(["Siani, Eye of the Storm", "The Prismatic Piper"],
                             {"Murder": 1, "Island": 29, "Swamp": 29})  # fmt: skip
    assert _draft_check(with_siani, db, piper=True) == []


def test_commander_masters_partner_clause(db) -> None:
    """903.13f(3): with Commander Masters boosters, commanders of one colour or none
    count as having partner; Kwain (white and blue) does not."""
    pool = ["Krenko, Mob Boss", "Talrand, Sky Summoner", "Kwain, Itinerant Meddler"]
    deck = _draft_deck(["Krenko, Mob Boss", "Talrand, Sky Summoner"],
                       {"Island": 29, "Mountain": 29})  # fmt: skip
    assert check_deck(deck, "commander-draft", db, pool=pool, masters=True) == []
    assert check_deck(deck, "commander-draft", db, pool=pool) == [
        "Krenko, Mob Boss and Talrand, Sky Summoner: two commanders need partner (702.124)"
    ]
    deck.commander = ["Krenko, Mob Boss", "Kwain, Itinerant Meddler"]
    deck.main = ["Plains"] * 20 + ["Island"] * 19 + ["Mountain"] * 19
    assert check_deck(deck, "commander-draft", db, pool=pool, masters=True) == [
        "Krenko, Mob Boss and Kwain, Itinerant Meddler: two commanders need partner (702.124; "
        "with Commander Masters boosters, commanders of one colour or none count as partners, "
        "903.13f)"
    ]


def test_commander_draft_needs_the_pool(db) -> None:
    with pytest.raises(ValueError, match="pool"):
        check_deck(_draft_deck(["Siani, Eye of the Storm"], {"Island": 59}), "commander-draft", db)
