"""Commander Draft with the bundled Commander Masters subset (903.13): its boosters, the
partner rule of 903.13f(3) for one-colour and colourless commanders, decks built from its
pools, and a draft played from the CLI."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path

import numpy as np
import pytest
from draft_checks import assert_decks_legal

import ecs.draft as D
from ecs.cards import load_pool
from ecs.deck_rules import check_deck, color_identity


@pytest.fixture(scope="module")
def db():
    return load_pool()


@pytest.fixture(scope="module")
def cset():
    return D.load_set("commander-masters")


def test_commander_masters_set(cset, db) -> None:
    """903.13a-b, 903.13e-f: picks of two, The Prismatic Piper and the masters partner
    rule on; 20-card boosters with three legendary cards; every card plays."""
    assert cset.picks == 2 and cset.prismatic_piper and cset.masters_partner
    assert cset.booster_size == 20
    for c in cset.cards:
        assert c in db and db.check(c) is None, c
    legends = cset.sheets["legendary"]
    assert len(legends) >= 8
    from ecs.deck_rules import can_be_commander

    assert all(can_be_commander(db, c) for c in legends)
    rng = np.random.default_rng(5)
    for _ in range(50):
        booster = D.open_booster(cset, rng)
        assert len(booster) == 20 and len(set(booster)) == 20
        assert sum(c in legends for c in booster) == 3


def test_one_colour_commanders_pair_only_with_masters_boosters(cset, db) -> None:
    """903.13f(3): two one-colour legends without partner may lead a deck together in a
    Commander Masters draft, not in another Commander Draft."""
    mono = [c for c in sorted(cset.sheets["legendary"]) if len(color_identity(db, c)) == 1]
    a, b = mono[0], next(c for c in mono if color_identity(db, c) != color_identity(db, mono[0]))
    basics = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
    land = basics[sorted(color_identity(db, a))[0]]
    deck = D.Deck(0, [land] * 58, commander=[a, b])
    pool = [a, b]
    assert check_deck(deck, "commander-draft", db, pool=pool, piper=True, masters=True) == []
    problems = check_deck(deck, "commander-draft", db, pool=pool, piper=True, masters=False)
    assert problems and "partner" in problems[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_commander_deck_builder(seed: int, cset, db) -> None:
    r = D.Draft(cset, 4, seed, db=db).run()
    for deck in r.build_decks(db=db, fmt="commander"):
        pool = r.pools[deck.player]
        assert len(deck.main) + len(deck.commander) == 60
        assert check_deck(deck, "commander-draft", db, pool=pool, piper=True, masters=True,
                          colors=deck.colors) == []  # fmt: skip


def test_cli_commander_masters_draft_plays(tmp_path: Path, capsys) -> None:
    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    out = tmp_path / "cmm.json"
    argv = ["--format", "commander", "--set", "commander-masters", "--players", "4",
            "--seed", "1", "--play", "--max-turns", "60", "--out", str(out)]  # fmt: skip
    assert D.main(ap.parse_args(argv)) == 0
    assert "Commander Masters" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert len(data["picks"]) == 4 * 60
    assert_decks_legal(data, piper=True, masters=True)
    (game,) = data["games"]
    assert game["winners"] or game["capped"]
