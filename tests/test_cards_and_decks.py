"""Card records and decklists: bad input gets an error naming what was wrong."""

from __future__ import annotations

import pytest

from components import cards as K
from components.rules import KW_FLYING, KW_VIGILANCE, T_CREATURE
from ecs.cards import CardDB, CardError, load_pool
from ecs.decks import DeckError, load_deck, parse_decklist, stock_decks

POOL = [
    "Grizzly Bears", "Runeclaw Bear", "Hill Giant", "Craw Wurm", "Colossal Dreadmaw",
    "Assault Griffin", "Serra Angel", "Giant Spider", "Raging Goblin", "Mountain Goat",
    "Wall of Stone", "Typhoid Rats", "Youthful Knight", "Vampire Nighthawk", "Glistener Elf",
    "Hypnotic Specter", "Platinum Angel", "Lightning Bolt", "Lightning Blast", "Lava Axe",
    "Pyroclasm", "Flame Rift", "Giant Growth", "Mending Hands", "Fog", "Murder", "Divination",
    "Act of Treason", "Time Walk", "Beacon of Immortality", "Repay in Kind", "Mind Control",
    "Pacifism", "Bonesplitter", "Concordant Crossroads", "Coat of Arms", "Genesis Chamber",
    "Test of Endurance", "Divine Intervention", "Transcendence", "Garruk Wildspeaker",
    "Plains", "Island", "Swamp", "Mountain", "Forest",
]  # fmt: skip


def test_pool_has_every_card_of_the_previous_pool() -> None:
    db = load_pool()
    assert [c for c in POOL if c not in db] == []


def test_records_compile_to_tables() -> None:
    comp = load_pool().compile(["Serra Angel"])
    ct = comp.tables.rows["ct"][comp.row("Serra Angel")]
    assert ct[K.C_TYPES] & T_CREATURE
    assert ct[K.C_KW] & KW_FLYING and ct[K.C_KW] & KW_VIGILANCE
    assert (ct[K.C_POW], ct[K.C_TOU]) == (4, 4)


def _granting(spell_type: str, keywords: list[str]) -> dict:
    """An enchantment record whose static gives these keywords to spells you cast."""
    what = {"type": spell_type, "zone": "stack", "controller": "you"}
    grant = {"grant": {"what": what, "keywords": keywords}}
    return {"Bad": {"types": ["Enchantment"], "abilities": [{"static": grant}]}}


@pytest.mark.parametrize(
    ("records", "needle"),
    [
        ({"Bad": {"types": ["Creture"]}}, "card 'Bad': types: unknown card type 'Creture'"),
        ({"Bad": {"types": ["Creature"], "keywords": ["flyng"]}}, "unknown keyword 'flyng'"),
        (  # a bare filter word in `is:` would read the battlefield only: refused
            {
                "Bad": {
                    "types": ["Sorcery"],
                    "abilities": [
                        {
                            "spell": {
                                "effects": [
                                    {"draw": {"amount": 1}},
                                    {
                                        "if": {
                                            "cond": {"is": {"what": "it", "filter": "creature"}},
                                            "then": [{"draw": {"amount": 1}}],
                                        }
                                    },
                                ]
                            }
                        }
                    ],
                }
            },
            "condition: is: filter is a mapping",
        ),
        (  # a spell's cost instead of its mana cost: mana only (life was never paid)
            {
                "Bad": {
                    "types": ["Sorcery"],
                    "keywords": [{"flashback": {"mana": "{1}", "life": 3}}],
                    "abilities": [{"spell": {"effects": [{"draw": {"amount": 1}}]}}],
                }
            },
            "flashback: a mana cost only",
        ),
        (  # "not a commander" has no column: refused, not read as "any"
            {
                "Bad": {
                    "types": ["Sorcery"],
                    "abilities": [
                        {"spell": {"effects": [{"destroy": {"each": {"commander": False}}}]}}
                    ],
                }
            },
            "filter: commander is true",
        ),
        (  # distribute_counters needs a divided amount among the targets (601.2d)
            {
                "Bad": {
                    "types": ["Sorcery"],
                    "abilities": [{"spell": {"effects": [{"distribute_counters": "+1/+1"}]}}],
                }
            },
            "distribute_counters: the ability needs a target spec with divide",
        ),
        (  # conspire copies instants and sorceries only (a permanent spell's copy: 707.10b)
            {"Bad": {"types": ["Creature"], "power": 1, "toughness": 1, "keywords": ["conspire"]}},
            "conspire on an instant or sorcery card",
        ),
        (  # granted conspire: to spells you cast, alone
            _granting("Instant", ["conspire", "flying"]),
            "conspire alone",
        ),
        (_granting("Creature", ["conspire"]), "grant conspire: to instant or sorcery spells"),
        (  # an effect can't give conspire (only a static ability of the spells you cast)
            {
                "Bad": {
                    "types": ["Sorcery"],
                    "abilities": [
                        {
                            "spell": {
                                "effects": [{"grant": {"what": "self", "keywords": ["conspire"]}}]
                            }
                        }
                    ],
                }
            },
            "conspire is given to spells by a static ability alone",
        ),
    ],
)
def test_bad_card_records_name_card_and_field(records: dict, needle: str) -> None:
    with pytest.raises(CardError, match=needle):
        CardDB(records).compile(["Bad"])


def test_unknown_card_name_gets_a_did_you_mean() -> None:
    with pytest.raises(CardError, match="unknown card 'Black Lotus'"):
        load_pool().get("Black Lotus")
    with pytest.raises(CardError, match="did you mean 'Serra Angel'"):
        load_pool().get("Sera Angel")


def test_the_original_stock_decks_are_sixty_cards() -> None:
    names = stock_decks()
    for d in (
        "burn",
        "big-green",
        "white-fliers",
        "dimir-control",
        "red-aggro",
        "selesnya-midrange",
    ):
        assert d in names
        assert len(load_deck(d).main) == 60, d


def test_decklist_format() -> None:
    deck = parse_decklist(
        "# burn\n4 Lightning Bolt\n2x Mountain\nForest\n\nSideboard:\n2 Fog\nCommander\n1 Serra Angel\n",
        "x.txt",
    )
    assert deck.main == ["Lightning Bolt"] * 4 + ["Mountain"] * 2 + ["Forest"]
    assert deck.sideboard == ["Fog", "Fog"]
    assert deck.commander == ["Serra Angel"]


def test_decklist_errors_name_file_and_line(tmp_path) -> None:
    with pytest.raises(DeckError, match=r"my\.txt:2: unknown card 'Lightning Bolts'"):
        parse_decklist("4 Mountain\n4 Lightning Bolts\n", "my.txt")
    with pytest.raises(DeckError, match=r"my\.txt:1: count must be at least 1"):
        parse_decklist("0 Mountain\n", "my.txt")
    with pytest.raises(DeckError, match="no such deck"):
        load_deck(tmp_path / "missing.txt")


def test_decklist_names_are_case_insensitive_and_export_lines_are_read() -> None:
    arena = (
        "About\nName Bolt Tribal\n\nCommander\n1 serra angel (M10) 43\n\nCompanion\n"
        "1 Hill Giant (M10) 146\n\nDeck\n4 LIGHTNING BOLT (M10) 146\n16 mountain (ZEN) 234\n\n"
        "Sideboard\n2 Fog (M10) 182\n"
    )
    deck = parse_decklist(arena, "arena.txt")
    assert deck.name == "Bolt Tribal"
    assert deck.main == ["Lightning Bolt"] * 4 + ["Mountain"] * 16
    assert deck.commander == ["Serra Angel"] and deck.companion == ["Hill Giant"]
    assert deck.sideboard == ["Fog"] * 2
    # MTGO: no headers, the sideboard after a blank line
    mtgo = parse_decklist("4 Lightning Bolt\n20 Mountain\n\n3 Fog\n", "mtgo.txt")
    assert mtgo.main == ["Lightning Bolt"] * 4 + ["Mountain"] * 20 and mtgo.sideboard == ["Fog"] * 3
    # blocks that can't be a sideboard (more than 15 cards, or three blocks) stay in the deck
    grouped = parse_decklist("4 Hill Giant\n\n20 Mountain\n", "g.txt")
    assert len(grouped.main) == 24 and not grouped.sideboard
    three = parse_decklist("// creatures\n4 Hill Giant\n\n4 Fog\n\n2 Mountain\n", "t.txt")
    assert len(three.main) == 10 and not three.sideboard


@pytest.mark.parametrize(
    "text,needle",
    [
        ("4 Mountain\n4 Lightning Blot\n", r"d\.txt:2: unknown card 'Lightning Blot' \(did you mean 'Lightning Bolt'\?\)"),
        ("4 Mountain\n-4 Lightning Bolt\n", r"d\.txt:2: count must be at least 1, got -4"),
        ("99999999999999999999 Mountain\n", r"d\.txt:1: count must be at most 1000"),
        ("600 Mountain\n600 Forest\n", r"d\.txt:2: more than 1000 cards in the main section"),
        ("", r"d\.txt: the deck has no main-deck cards"),
        ("# nothing\n\nSideboard\n2 Fog\n", r"d\.txt: the deck has no main-deck cards"),
    ],
)  # fmt: skip
def test_decklist_bad_lines_name_file_and_line(text: str, needle: str) -> None:
    with pytest.raises(DeckError, match=needle):
        parse_decklist(text, "d.txt")


def test_deck_files_that_are_not_decklists(tmp_path) -> None:
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"4 Mountain\n\x00\x01\x02\xff")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("4 Mountain\n1 Jötun Grunt\n".encode("latin-1"))
    for path, needle in (
        (binary, "a binary file"),
        (latin, "latin.txt:2: not UTF-8 text"),
        (tmp_path, "is a folder"),
    ):
        with pytest.raises(DeckError, match=needle):
            load_deck(path)
    with pytest.raises(DeckError, match="did you mean 'burn'"):
        load_deck("brun")


def test_stock_commander_decks_load_by_name() -> None:
    deck = load_deck("stock/commander-edgar-markov")
    assert deck.commander == ["Edgar Markov"] and len(deck.main) + len(deck.commander) == 100
