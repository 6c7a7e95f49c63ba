"""Commander Draft with Commander Legends: Battle for Baldur's Gate boosters (903.13): the
bundled playable subset (ecs/data/sets/baldurs-gate.yaml) and Faceless One, which each
drafter may add, up to two, as their commanders (903.13e; the set flag faceless_one,
ecs/deck_rules.py and ecs/draft.py). Modelled on the Prismatic Piper tests of
tests/test_draft.py and tests/test_deck_rules.py."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml
from draft_checks import assert_decks_legal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecs import draft as D
from ecs.cards import load_pool
from ecs.deck_rules import FACELESS, ParsedDeck, check_deck

RECORDS = Path(D.__file__).parent / "data" / "cards" / "baldurs-gate.yaml"


@pytest.fixture(scope="module")
def db():
    return load_pool()


@pytest.fixture(scope="module")
def cset():
    return D.load_set("baldurs-gate")


def _deck(commander: list[str], main: dict[str, int]) -> ParsedDeck:
    return ParsedDeck(main=[n for n, k in main.items() for _ in range(k)], commander=commander)


POOL = ["Dream Fracture", "Winter Eladrin", "Tymora's Invoker", "Ambition's Cost", "Murder",
        "Cadira, Caller of the Small", "Roving Harper", "Poison the Blade"]  # fmt: skip


def _check(deck: ParsedDeck, db, **kw) -> list[str]:
    return check_deck(deck, "commander-draft", db, pool=POOL, **kw)


# ------------------------------------------------------------ the set file
def test_baldurs_gate_set(cset, db) -> None:
    """903.13b: picks of two, three rounds, 20-card boosters with one legendary card;
    every card a real Battle for Baldur's Gate card that plays; Faceless One is no
    booster card (special rarity) but the set's flag."""
    assert cset.code == "clb" and cset.picks == 2 and cset.rounds == 3
    assert cset.faceless_one and not cset.prismatic_piper and not cset.masters_partner
    assert cset.booster_size == 20
    assert len(cset.cards) >= 60
    for c in cset.cards:
        assert c in db and db.check(c) is None, c
    legends = cset.sheets["legendary"]
    for c in legends:
        rec = db.get(c).record
        assert "Legendary" in rec["supertypes"] and "Creature" in rec["types"], c
    for slot in cset.booster:  # enough cards that a booster never repeats one
        have = cset.sheets[slot.sheet] if slot.sheet else cset.by_rarity(slot.rarity)
        assert len(have) > slot.count, slot
    for seed in range(8):  # eight drafters' boosters
        booster = D.open_booster(cset, np.random.default_rng(seed))
        assert len(booster) == 20 == len(set(booster))
        assert sum(c in legends for c in booster) == 1
    assert FACELESS in db and FACELESS not in cset.cards


def test_new_records_compile_and_render(db) -> None:
    """Every record of ecs/data/cards/baldurs-gate.yaml plays (db.check) and renders."""
    names = list(yaml.safe_load(RECORDS.read_text()))
    assert len(names) >= 60
    for n in names:
        assert db.check(n) is None, n
        assert db.text(n).startswith(n)


def test_faceless_one_record(db) -> None:
    """Faceless One: a colourless legendary enchantment creature (a Background) whose
    colour is chosen when it is a commander (903.4b), like The Prismatic Piper."""
    rec = db.get(FACELESS).record
    assert rec["cost"] == "{5}" and rec["power"] == rec["toughness"] == 3
    assert rec["types"] == ["Enchantment", "Creature"] and rec["subtypes"] == ["Background"]
    assert rec["supertypes"] == ["Legendary"] and rec["commander_color_choice"] is True
    assert "choose a Background" in rec["note"].replace("Choose", "choose")
    assert "choose a colour before the game begins" in db.text(FACELESS)


# ------------------------------------------------------------ deck rules (903.13e)
def test_faceless_one_allowed_as_commander(db) -> None:
    """903.13e: with Battle for Baldur's Gate boosters Faceless One is added as a
    commander; its chosen colour is its colour identity (903.4b), given or found; not in
    the main deck; not without those boosters."""
    deck = _deck([FACELESS], {"Dream Fracture": 1, "Winter Eladrin": 1, "Island": 58})
    assert _check(deck, db, faceless=True, colors=["U"]) == []
    assert _check(deck, db, faceless=True) == []  # (blue: the colour that fits)
    assert _check(deck, db, faceless=True, colors=["G"]) == [
        "Dream Fracture: colour identity U outside the commander's (G) (903.5c)",
        "Island: a card with the basic land type Island makes U, outside the commander's "
        "colour identity (G) (903.5d)",
        "Winter Eladrin: colour identity U outside the commander's (G) (903.5c)",
    ]
    assert _check(deck, db) == [
        "Faceless One: not in the card pool (903.13e adds it only in a draft with "
        "Commander Legends: Battle for Baldur's Gate boosters)"
    ]
    assert _check(deck, db, piper=True) == _check(deck, db)  # (the Piper's sets: no)
    deck.main.append(FACELESS)  # only as a commander
    assert _check(deck, db, faceless=True) == [
        "Faceless One: 1 in the main deck, 0 in the card pool (903.13e adds it as a commander only)"
    ]


def test_two_faceless_ones_are_a_background_pair(db) -> None:
    """903.13e "up to two": each Faceless One has "choose a Background" and is a
    legendary Background, so two of them are two commanders (702.124), each with its own
    chosen colour; a third is too many; Faceless One with a legend that has neither
    partner nor "choose a Background" is no pair, nor with The Prismatic Piper."""
    two = _deck([FACELESS, FACELESS], {"Dream Fracture": 1, "Murder": 1, "Island": 29,
                                       "Swamp": 28})  # fmt: skip
    assert _check(two, db, faceless=True, colors=["U", "B"]) == []
    assert _check(two, db, faceless=True) == []  # (the colours that fit: U and B)
    assert _check(two, db, faceless=True, colors=["U"]) == [
        "colors U: one colour letter (WUBRG) for each commander whose colour is chosen (2) (903.4b)"
    ]
    three = _deck([FACELESS] * 3, {"Island": 57})
    assert "3 commanders: one, or two with partner (903.3c)" in _check(three, db, faceless=True)
    with_cadira = _deck(["Cadira, Caller of the Small", FACELESS], {"Forest": 29, "Plains": 29})
    assert _check(with_cadira, db, faceless=True) == [
        "Cadira, Caller of the Small and Faceless One: two commanders need partner (702.124)"
    ]
    with_piper = _deck(["The Prismatic Piper", FACELESS], {"Island": 58})
    assert "two commanders need partner" in " ".join(
        _check(with_piper, db, faceless=True, piper=True)
    )


# ------------------------------------------------------------ the deck builder
def test_commander_deck_without_a_commander_in_the_pool(cset, db) -> None:
    """903.13e: no legendary creature drafted: Faceless One leads the deck, in the colour
    the pool's cards fit best, or two of them for two colours; without Battle for
    Baldur's Gate boosters, no deck."""
    pool = ["Dream Fracture", "Winter Eladrin", "Tymora's Invoker", "Pseudodragon Familiar"]
    deck = D.build_commander_deck(0, pool, cset, db=db)
    assert deck.commander == [FACELESS] and deck.colors == ["U"]
    assert deck.main.count("Island") == 55
    assert D.commander_label(deck) == "Faceless One (U)"
    deck = D.build_commander_deck(0, pool + ["Murder", "Ambition's Cost"], cset, db=db)
    assert deck.commander == [FACELESS] * 2 and deck.colors == ["U", "B"]
    assert D.commander_label(deck) == "Faceless One (U) + Faceless One (B)"
    assert "Murder" in deck.main and deck.main.count("Swamp") >= 1
    assert check_deck(deck, "commander-draft", db, pool=pool + ["Murder", "Ambition's Cost"],
                      faceless=True, colors=deck.colors) == []  # fmt: skip
    with pytest.raises(D.DraftError, match="Faceless One"):
        D.build_commander_deck(0, pool, replace(cset, faceless_one=False), db=db)


def test_a_drafted_legend_comes_first(cset, db) -> None:
    pool = ["Cadira, Caller of the Small", "Roving Harper", "Poison the Blade", "Murder"]
    deck = D.build_commander_deck(0, pool, cset, db=db)
    assert deck.commander == ["Cadira, Caller of the Small"] and deck.colors == []


def test_own_faceless_one_deck(cset, db) -> None:
    pool = ["Dream Fracture", "Dream Fracture", "Murder"]
    text = "Commander\n1 Faceless One\n\nDeck\n2 Dream Fracture\n57 Island\n"
    deck = D.commander_deck_from_list(0, pool, text, cset, db)
    assert deck.commander == [FACELESS] and deck.colors == ["U"] and deck.sideboard == ["Murder"]
    two = "Commander\n2 Faceless One\nDeck\n2 Dream Fracture\n1 Murder\n28 Island\n27 Swamp\n"
    assert D.commander_deck_from_list(0, pool, two, cset, db).colors == ["U", "B"]
    with pytest.raises(D.DraftError, match="Faceless One: not in the card pool"):
        D.commander_deck_from_list(0, pool, text, D.load_set("commander-legends"), db)


@pytest.mark.parametrize("seed", [1, 2])
def test_commander_deck_builder(seed: int, cset, db) -> None:
    """903.13e-f: each built deck is legal by ecs.deck_rules (a drafted commander or
    Faceless One with a chosen colour, 60 cards, only drafted cards and basic lands)."""
    r = D.Draft(cset, 4, seed, db=db).run()
    assert all(len(p) == 60 for p in r.pools)  # three boosters of 20, two cards a pick
    for deck in r.build_decks(db=db, fmt="commander"):
        pool = r.pools[deck.player]
        assert 1 <= len(deck.commander) <= 2
        assert len(deck.main) + len(deck.commander) == 60
        for c in deck.commander:
            assert c in pool or c == FACELESS
        assert len(deck.colors) == deck.commander.count(FACELESS)
        assert check_deck(deck, "commander-draft", db, pool=pool, faceless=True,
                          colors=deck.colors) == []  # fmt: skip


_CLB = sorted(D.load_set("baldurs-gate").cards)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool=st.lists(st.sampled_from(_CLB), min_size=0, max_size=70))
def test_any_baldurs_gate_pool_builds_a_legal_deck(pool: list[str]) -> None:
    db = load_pool()
    deck = D.build_commander_deck(0, pool, D.load_set("baldurs-gate"), db=db)
    assert len(deck.main) + len(deck.commander) == 60
    assert check_deck(deck, "commander-draft", db, pool=pool, faceless=True,
                      colors=deck.colors) == []  # fmt: skip


# ------------------------------------------------------------ scenarios and the CLI
def test_draft_scenario_faceless_one(tmp_path: Path, db) -> None:
    """A draft scenario (tests/drafts/README.md) with faceless_one: true: Alex adds two
    Faceless Ones (blue and black); Bianca puts one in her main deck (903.13e: commanders
    only); Cara has no Baldur's Gate boosters (the flag is off for her scenario)."""
    data = {
        "name": "903.13e Faceless One added as commanders",
        "players": ["Alex", "Bianca"], "picks": 2, "faceless_one": True,
        "boosters": [[["Dream Fracture", "Murder", "Roving Harper", "Poison the Blade"],
                      ["Winter Eladrin", "Ambition's Cost", "Guiding Bolt", "Breath Weapon"]]],
        "drafts": {"Alex": ["Dream Fracture", "Murder", "Winter Eladrin"],
                   "Bianca": ["Guiding Bolt", "Breath Weapon", "Roving Harper"]},
        "decks": {
            "Alex": {"commander": ["Faceless One", "Faceless One"], "colors": ["U", "B"],
                     "main": ["Dream Fracture", "Murder", "Winter Eladrin", "Ambition's Cost",
                              "28 Island", "26 Swamp"]},
            "Bianca": {"commander": ["Faceless One"],
                       "main": ["Faceless One", "Guiding Bolt", "Roving Harper", "57 Plains"]},
        },
        "expect": {"decks.Alex.legal": True, "decks.Bianca.legal": False,
                   "decks.Bianca.rules": ["903.13e"]},
    }  # fmt: skip
    path = tmp_path / "faceless.yaml"
    path.write_text(yaml.safe_dump(data))
    fails, _ = D.run_draft_scenario(D.load_draft_scenario(path), db)
    assert fails == []
    data["faceless_one"] = False
    data["expect"] = {"decks.Alex.legal": False}
    path.write_text(yaml.safe_dump(data))
    fails, _ = D.run_draft_scenario(D.load_draft_scenario(path), db)
    assert fails == []
    data["faceless_one"] = "yes"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(D.DraftError, match="faceless_one: true or false"):
        D.load_draft_scenario(path)


def test_set_file_flag_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ncards: {Murder: C}\nbooster: [{count: 1, rarity: C}]\n"
                   "faceless_one: 1\n")  # fmt: skip
    with pytest.raises(D.DraftError, match="faceless_one: true or false"):
        D.load_set(bad)


def test_cli_baldurs_gate_commander_draft_plays(tmp_path: Path, capsys) -> None:
    """`melee draft --format commander --set baldurs-gate --players 3 --play`: three legal
    decks (Faceless One where no legend was drafted) and one Commander game."""
    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    out = tmp_path / "clb.json"
    argv = ["--format", "commander", "--set", "baldurs-gate", "--players", "3", "--seed", "2",
            "--play", "--max-turns", "40", "--out", str(out)]  # fmt: skip
    assert D.main(ap.parse_args(argv)) == 0
    text = capsys.readouterr().out
    assert "Battle for Baldur's Gate" in text and "commander" in text
    data = json.loads(out.read_text())
    assert len(data["decks"]) == 3 and len(data["picks"]) == 3 * 60
    assert_decks_legal(data, faceless=True)
    (game,) = data["games"]
    assert game["winners"] or game["capped"]


# ------------------------------------------------------------ choose a Background (702.124)
CHOOSERS = ["Ganax, Astral Hunter", "Livaan, Cultist of Tiamat", "Viconia, Drow Apostate",
            "Erinis, Gloom Stalker", "Wilson, Refined Grizzly"]  # fmt: skip
BACKGROUND = {"cost": "{1}{W}", "types": ["Enchantment"], "supertypes": ["Legendary"],
              "subtypes": ["Background"], "abilities": [{"static": {"pump": {
                  "what": {"type": "Creature", "commander": True, "owner": "you"},
                  "power": 1, "toughness": 1}}}]}  # fmt: skip


@pytest.fixture(scope="module")
def bg_db():
    """The pool and two Backgrounds for the deck rules (real ones: none plays yet)."""
    from ecs.cards import CardDB

    base = load_pool()
    recs = {n: c.record for n, c in base.cards.items()}
    recs["Test Background"] = dict(BACKGROUND)
    recs["Other Background"] = dict(BACKGROUND, cost="{1}{U}")
    return CardDB(recs)


def test_choose_a_background_is_a_record_keyword(db) -> None:
    """The keyword compiles (no game bit: deck building only), renders, and is what the
    deck rules read; Background is an enchantment type, not a creature type (205.3h)."""
    from components import cards as K
    from ecs.cards import CardDB, CardError
    from ecs.deck_rules import chooses_background, is_background

    for n in CHOOSERS + [FACELESS]:
        assert "choose a Background" in db.get(n).record["keywords"], n
        assert db.check(n) is None and "hoose a Background" in db.text(n), n
        assert chooses_background(db, n)
    assert is_background(db, FACELESS) and not is_background(db, CHOOSERS[0])
    assert not chooses_background(db, "Cadira, Caller of the Small")
    assert "Background" not in db.creature_types
    assert db.subtype_ids["Background"] >= K.SUBTYPE_NONCREATURE
    bad = CardDB({"Odd Grant": {"types": ["Instant"], "abilities": [{"spell": {
        "targets": ["creature"], "effects": [{"grant": {"what": "target",
                                              "keywords": ["choose a Background"]}}]}}]}})  # fmt: skip
    with pytest.raises(CardError, match="choose a Background"):
        bad.compile(["Odd Grant"])


def test_background_pair_deck_rules(bg_db) -> None:
    """702.124: a legend with "choose a Background" and a legendary Background enchantment
    card are two commanders (the Background a commander though not a creature); colour
    identity the union (903.4c); not two Backgrounds, not a legend without the keyword, not
    a Background alone."""
    db = bg_db
    pool = ["Ganax, Astral Hunter", "Test Background", "Other Background",
            "Cadira, Caller of the Small", "Guiding Bolt", "Lightning Bolt", "Dream Fracture"]  # fmt: skip

    def check(cmds, main, fmt="commander-draft", **kw):
        deck = _deck(cmds, main)
        if fmt == "commander-draft":
            return check_deck(deck, fmt, db, pool=pool, **kw)
        return check_deck(deck, fmt, db)

    pair = ["Ganax, Astral Hunter", "Test Background"]
    main = {"Guiding Bolt": 1, "Lightning Bolt": 1, "Mountain": 28, "Plains": 28}
    assert check(pair, main) == []
    assert check(list(reversed(pair)), main) == []
    assert check(pair, dict(main, **{"Dream Fracture": 1})) == [
        "Dream Fracture: colour identity U outside the commander's (WR) (903.5c)"
    ]
    assert check(pair, {**main, "Plains": 68}, fmt="commander") == []  # (100 cards)
    two = check(["Test Background", "Other Background"], {"Plains": 29, "Island": 29})
    assert "Test Background: can't be a commander" in " ".join(two)
    assert "two commanders need partner (702.124)" in " ".join(two)
    no_kw = check(["Cadira, Caller of the Small", "Test Background"],
                  {"Forest": 29, "Plains": 29})  # fmt: skip
    assert "Test Background: can't be a commander" in " ".join(no_kw)
    assert "two commanders need partner" in " ".join(no_kw)
    alone = check(["Test Background"], {"Plains": 59})
    assert alone and "can't be a commander" in alone[0]
    # Faceless One is a Background: any legend that chooses one may take it (903.13e)
    with_fo = _deck(["Ganax, Astral Hunter", FACELESS], {"Dream Fracture": 1, "Mountain": 29,
                                                          "Island": 28})  # fmt: skip
    assert check_deck(with_fo, "commander-draft", db, pool=pool, faceless=True,
                      colors=["U"]) == []  # fmt: skip
    assert check_deck(with_fo, "commander-draft", db, pool=pool, faceless=True) == []


def test_builder_pairs_a_legend_with_a_background(cset, bg_db) -> None:
    """The draft's builder offers a "choose a Background" legend with a drafted
    Background, or with Faceless One in a chosen colour; the deck is legal."""
    db = bg_db
    pool = ["Ganax, Astral Hunter", "Test Background", "Guiding Bolt", "Dawnbringer Cleric",
            "Icewind Stalwart", "Lightning Bolt", "Breath Weapon", "Reckless Barbarian"]  # fmt: skip
    deck = D.build_commander_deck(0, pool, cset, db=db)
    assert deck.commander == ["Ganax, Astral Hunter", "Test Background"] and deck.colors == []
    assert "Guiding Bolt" in deck.main and "Lightning Bolt" in deck.main
    assert check_deck(deck, "commander-draft", db, pool=pool, faceless=True, colors=[]) == []
    pool = ["Ganax, Astral Hunter", "Lightning Bolt", "Breath Weapon", "Dream Fracture",
            "Winter Eladrin", "Tymora's Invoker", "Pseudodragon Familiar"]  # fmt: skip
    deck = D.build_commander_deck(0, pool, cset, db=db)
    assert deck.commander == ["Ganax, Astral Hunter", FACELESS] and deck.colors == ["U"]
    assert check_deck(deck, "commander-draft", db, pool=pool, faceless=True,
                      colors=deck.colors) == []  # fmt: skip
