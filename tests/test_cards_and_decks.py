"""Card records and decklists: bad input gets an error naming what was wrong."""

from __future__ import annotations

import pytest

from ecs.constants import KW_FLYING, KW_VIGILANCE, T_CREATURE
from ecs.decks import DeckError, load_deck, parse_decklist, stock_decks
from ecs.legacy.cards import CardDB, CardError, load_cards

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


def test_pool_has_every_required_card() -> None:
    db = load_cards()
    missing = [c for c in POOL if c not in db]
    assert not missing


def test_records_compile_to_columns() -> None:
    db = load_cards()
    i = db.index("Serra Angel")
    assert db.types[i] & T_CREATURE
    assert db.kw[i] & KW_FLYING and db.kw[i] & KW_VIGILANCE
    assert (db.power[i], db.toughness[i], db.mana_value[i]) == (4, 4, 5)
    assert "Myr Token" in db and "Beast Token" in db  # 111.4 token names


@pytest.mark.parametrize(
    "records,needle",
    [
        ({"Bad": {"types": ["Creature"], "powr": 2}}, "card 'Bad': unknown field 'powr'"),
        ({"Bad": {"types": ["Creture"]}}, "unknown card type 'Creture'"),
        ({"Bad": {"types": ["Creature"], "keywords": ["flyng"]}}, "unknown keyword 'flyng'"),
        ({"Bad": {"types": ["Instant"], "cost": "{Q}"}}, "unknown mana symbol"),
        (
            {"Bad": {"types": ["Instant"], "spell": {"effects": [{"explode": 3}]}}},
            "unknown effect 'explode'",
        ),
        (
            {"Bad": {"types": ["Instant"], "spell": {"targets": ["planet"]}}},
            "unknown target kind 'planet'",
        ),
        (
            {"Bad": {"types": ["Enchantment"], "triggers": [{"when": "sometimes"}]}},
            "unknown trigger event",
        ),
    ],
)
def test_bad_card_records_name_card_and_field(records: dict, needle: str) -> None:
    with pytest.raises(CardError, match=needle.replace("(", r"\(").replace("{", r"\{")):
        CardDB(records)


def test_unknown_card_name() -> None:
    with pytest.raises(CardError, match="unknown card 'Black Lotus'"):
        load_cards().index("Black Lotus")


def test_stock_decks_are_sixty_cards() -> None:
    names = stock_decks()
    assert len(names) >= 6
    for d in names:
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
