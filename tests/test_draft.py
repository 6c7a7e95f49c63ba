"""The draft engine (ecs/draft.py): draft scenarios (tests/drafts), determinism,
what drafters see (905.1c), deck building (905.1d), the command line pieces, and a
draft's decks played to the end on the engine."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path

import pytest
from draft_checks import assert_decks_legal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecs import draft as D
from ecs.cards import load_pool

DRAFTS = sorted((Path(__file__).parent / "drafts").glob("*.yaml"))


@pytest.fixture(scope="module")
def db():
    return load_pool()


@pytest.mark.parametrize("path", DRAFTS, ids=[p.stem for p in DRAFTS])
def test_draft_scenario(path: Path, db) -> None:
    data = D.load_draft_scenario(path)
    fails, _ = D.run_draft_scenario(data, db)
    assert not fails, "\n".join([data["name"], *fails])


def test_a_wrong_expectation_fails(db) -> None:
    data = D.load_draft_scenario(DRAFTS[0])
    data["expect"] = {"pools.Alex": ["Lightning Bolt"]}
    fails, _ = D.run_draft_scenario(data, db)
    assert fails and "pools.Alex" in fails[0]


def test_an_answer_that_isnt_an_option_fails(db) -> None:
    data = D.load_draft_scenario(DRAFTS[0])
    data["drafts"] = {"Alex": ["Serra Angel"]}
    fails, _ = D.run_draft_scenario(data, db)
    assert fails and "Serra Angel" in fails[0]


def test_same_seed_same_draft_other_seed_other_draft(db) -> None:
    cset = D.load_set("conspiracy")
    a = D.Draft(cset, 8, 11, db=db).run()
    b = D.Draft(cset, 8, 11, db=db).run()
    c = D.Draft(cset, 8, 12, db=db).run()
    assert a.pools == b.pools and a.picks == b.picks and a.notes == b.notes
    assert a.boosters != c.boosters
    r1 = D.Draft(cset, 5, 3, ["random"] * 5, db=db).run()
    r2 = D.Draft(cset, 5, 3, ["random"] * 5, db=db).run()
    assert r1.pools == r2.pools


def test_an_eight_player_draft_drafts_every_pack(db) -> None:
    """(Its speed is measured in bench/bench_draft.py.)"""
    r = D.Draft(D.load_set("conspiracy"), 8, 1, db=db).run()
    assert sum(len(p) for p in r.pools) + sum(len(x) for x in r.removed) >= 8 * 3 * 15 - 8


@pytest.mark.parametrize("n", [2, 3, 16])
def test_any_table_from_2_to_16(n: int, db) -> None:
    r = D.Draft(D.load_set("cns"), n, 5, ["random"] * n, db=db).run()
    assert len(r.pools) == n
    drafted = sum(len(p) for p in r.pools) + sum(len(x) for x in r.removed)
    assert drafted >= n * 45 - n  # (undrafted only when a draft ability stops someone)


@pytest.mark.parametrize("n", [1, 17, 0])
def test_other_table_sizes_are_refused(n: int, db) -> None:
    with pytest.raises(D.DraftError, match="players"):
        D.Draft(D.load_set("conspiracy"), n, 0, db=db)


def test_boosters_follow_the_set_layout(db) -> None:
    import numpy as np

    cset = D.load_set("cns")
    rng = np.random.default_rng(1)
    for _ in range(20):
        b = D.open_booster(cset, rng)
        assert len(b) == 15 and len(set(b)) == 15
        assert sum(cset.cards[c] == "C" for c in b[:10]) == 10
        assert b[14] in cset.sheets["conspiracies"]
        assert all(c not in cset.sheets["conspiracies"] for c in b[:14])


def test_what_a_drafter_sees(db) -> None:
    """905.1c: the booster it drafts from, its own picks, revealed and face-up cards,
    notes: never another player's booster or face-down picks."""
    seen: list = []

    def agent(view: D.DraftView, decision: D.Decision) -> int:
        seen.append((view, decision))
        return 0

    cset = D.load_set("conspiracy")
    drafters: list = ["rating"] * 8
    drafters[0] = D.CallbackDrafter(agent)
    r = D.Draft(cset, 8, 2, drafters, db=db).run()
    picks = [v for v, d in seen if d.kind == "pick"]
    assert len(picks) >= 40
    own = [x["card"] for x in r.picks if x["player"] == 0]
    for v, d in seen:
        assert v.player == 0
        if d.kind == "pick":
            assert list(d.options) == v.pack
        names = [n for n, _ in v.picks]
        assert all(names.count(n) <= own.count(n) for n in names)
        for _q, cards in v.face_up.items():  # only cards drafted face up (905.2c)
            for c in cards:
                assert (db.get(c).record.get("draft") or {}).get("face_up"), c
        for e in v.revealed:
            assert e["event"] == "reveal"


def test_a_bad_answer_is_refused(db) -> None:
    bad = D.CallbackDrafter(lambda v, d: 99)
    with pytest.raises(D.DraftError, match="answered 99"):
        D.Draft(D.load_set("conspiracy"), 2, 0, [bad, "random"], db=db).run()


def test_notes_are_json_and_reach_the_game(db) -> None:
    r = D.Draft(D.load_set("conspiracy"), 8, 7, db=db).run()
    data = json.loads(json.dumps(r.to_json(r.build_decks(db=db))))
    assert data["pools"][0]["cards"] == r.pools[0]
    assert all({"player", "card"} <= set(n) for n in data["notes"])


def test_deck_builder(db) -> None:
    r = D.Draft(D.load_set("conspiracy"), 8, 9, db=db).run()
    for deck in r.build_decks(db=db):
        pool = list(r.pools[deck.player])
        assert len(deck.main) == D.DECK_SIZE
        for c in deck.main + [e["card"] for e in deck.command]:
            if c in D.BASICS.values():
                continue
            assert c in pool, c
            pool.remove(c)
        for e in deck.command:
            assert "Conspiracy" in db.get(e["card"]).record["types"]
            if not e["face_up"]:
                assert e["named"]


def test_own_deck_lists(db) -> None:
    pool = ["Grizzly Bears", "Advantageous Proclamation", "Double Stroke", "Lightning Bolt"]
    text = "2 Grizzly Bears\n33 Forest\nConspiracies\nAdvantageous Proclamation\n"
    text += "Double Stroke = Lightning Bolt\n"
    with pytest.raises(D.DraftError, match="not in their card pool"):
        D.deck_from_list(0, pool, text, db)
    deck = D.deck_from_list(0, pool, text.replace("2 Grizzly", "1 Grizzly").replace(
        "33 Forest", "34 Forest"), db)  # fmt: skip
    assert len(deck.main) == 35  # (Advantageous Proclamation: five fewer than 40)
    assert deck.command[1] == {"card": "Double Stroke", "named": "Lightning Bolt", "face_up": False}
    with pytest.raises(D.DraftError, match="at least 40"):
        D.deck_from_list(0, pool, {"main": ["Grizzly Bears"] + ["Forest"] * 35}, db)
    realm = ["Sovereign's Realm"] + ["Grizzly Bears"] * 40
    with pytest.raises(D.DraftError, match="basic"):
        D.deck_from_list(0, realm, {"main": ["Forest"] * 40, "command": ["Sovereign's Realm"]}, db)


def test_stock_cube_cards_exist_and_its_pool_plays(db) -> None:
    cset = D.load_set("conspiracy")
    for c in cset.cards:
        assert c in db, c
    sheet = set(cset.sheets["draft-matters"])
    assert len(sheet) == 46
    for c in cset.by_rarity("C"):
        assert db.check(c) is None, c


@pytest.mark.parametrize(
    ("argv", "msg"),
    [
        (["--set", "nope"], "unknown set"),
        (["--out", "/no/such/folder/d.json"], "doesn't exist"),
        (["--drafters", "clever"], "--drafters"),
        (["--deck", "9=x.txt"], "--deck"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv, msg, capsys) -> None:
    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    assert D.main(ap.parse_args(argv)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0]


def test_cli_players_out_of_range(capsys) -> None:
    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    with pytest.raises(SystemExit) as e:
        ap.parse_args(["--players", "17"])
    assert e.value.code == 2


def test_cli_writes_pools_picks_and_decks(tmp_path: Path, capsys) -> None:
    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    out = tmp_path / "draft.json"
    assert D.main(ap.parse_args(["--players", "4", "--seed", "3", "--out", str(out)])) == 0
    data = json.loads(out.read_text())
    assert [p["player"] for p in data["pools"]] == [0, 1, 2, 3]
    assert all(len(p["cards"]) >= 40 for p in data["pools"])
    assert len(data["decks"]) == 4 and len(data["picks"]) >= 4 * 45
    assert "wrote" in capsys.readouterr().out


def test_pods() -> None:
    assert D.pods(8) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert [len(p) for p in D.pods(7)] == [4, 3]
    assert [len(p) for p in D.pods(6)] == [3, 3]
    assert D.pods(2) == [[0, 1]] and D.pods(5) == [[0, 1, 2, 3, 4]]
    assert sorted(x for p in D.pods(16) for x in p) == list(range(16))


def test_a_draft_played_to_the_end(db) -> None:
    """905.3-905.6: the decks (conspiracies in the command zone, the draft's notes) play
    a free-for-all game to a winner or the turn cap on the engine."""
    r = D.Draft(D.load_set("conspiracy"), 3, 5, db=db).run()
    decks = r.build_decks(db=db)
    rows = D.play_games(r, decks, seed=1, max_turns=120, db=db)
    assert len(rows) == 1 and rows[0]["players"] == ["P0", "P1", "P2"]
    assert rows[0]["winners"] or rows[0]["capped"]


# ------------------------------------------------------------ Commander Draft (903.13)
def test_commander_legends_set(db) -> None:
    """903.13a-b: the bundled Commander Legends subset: picks of two, 20-card boosters
    with two legendary creatures, every card a real Commander Legends card that plays."""
    cset = D.load_set("commander-legends")
    assert cset.picks == 2 and cset.prismatic_piper and not cset.masters_partner
    assert cset.booster_size == 20
    for c in cset.cards:
        assert c in db and db.check(c) is None, c
    legends = cset.sheets["legendary"]
    assert len(legends) >= 10
    for c in legends:
        rec = db.get(c).record
        assert "Legendary" in rec["supertypes"] and "Creature" in rec["types"], c
    import numpy as np

    booster = D.open_booster(cset, np.random.default_rng(3))
    assert len(booster) == 20 and sum(c in legends for c in booster) == 2
    assert "The Prismatic Piper" in db and "The Prismatic Piper" not in cset.cards


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_commander_deck_builder(seed: int, db) -> None:
    """903.13e-f: each built deck is legal by ecs.deck_rules (its commander from the pool
    or The Prismatic Piper with a chosen colour, at least 60 cards, only drafted cards
    and basic lands)."""
    from ecs.deck_rules import check_deck

    cset = D.load_set("commander-legends")
    r = D.Draft(cset, 4, seed, db=db).run()
    for deck in r.build_decks(db=db, fmt="commander"):
        pool = r.pools[deck.player]
        assert 1 <= len(deck.commander) <= 2
        assert len(deck.main) + len(deck.commander) == 60
        for c in deck.commander:
            assert c in pool or c == "The Prismatic Piper"
        assert len(deck.colors) == deck.commander.count("The Prismatic Piper")
        assert check_deck(deck, "commander-draft", db, pool=pool, piper=True,
                          colors=deck.colors) == []  # fmt: skip
        used = [c for c in deck.main + deck.commander if c in pool]
        assert sorted(deck.sideboard + used) == sorted(pool)


def test_commander_deck_without_a_commander_in_the_pool(db) -> None:
    """903.13e: no legendary creature drafted: The Prismatic Piper leads the deck, in the
    colour the pool's cards fit best, or two Pipers (partners) for two colours; without
    Commander Legends boosters, no deck."""
    cset = D.load_set("commander-legends")
    pool = ["Preordain", "Strategic Planning", "Horizon Scholar", "Prying Eyes"]
    deck = D.build_commander_deck(0, pool, cset, db=db)
    assert deck.commander == ["The Prismatic Piper"] and deck.colors == ["U"]
    assert deck.main.count("Island") == 55
    deck = D.build_commander_deck(0, pool + ["Murder"], cset, db=db)
    assert deck.commander == ["The Prismatic Piper"] * 2 and deck.colors == ["U", "B"]
    assert "Murder" in deck.main and deck.main.count("Swamp") >= 1
    from dataclasses import replace

    with pytest.raises(D.DraftError, match="Prismatic Piper"):
        D.build_commander_deck(0, pool, replace(cset, prismatic_piper=False), db=db)


def test_own_commander_draft_deck(db) -> None:
    cset = D.load_set("commander-legends")
    pool = ["Siani, Eye of the Storm", "Preordain", "Preordain", "Murder"]
    text = "Commander\n1 Siani, Eye of the Storm\n\nDeck\n2 Preordain\n57 Island\n"
    deck = D.commander_deck_from_list(0, pool, text, cset, db)
    assert deck.commander == ["Siani, Eye of the Storm"] and len(deck.main) == 59
    assert deck.sideboard == ["Murder"]
    with pytest.raises(D.DraftError, match=r"Murder: colour identity B .* \(and 1 more\)"):
        D.commander_deck_from_list(0, pool, text + "1 Murder\n1 Swamp\n", cset, db)
    piper = "Commander\nThe Prismatic Piper\nDeck\n2 Preordain\n57 Island\n"
    assert D.commander_deck_from_list(0, pool, piper, cset, db).colors == ["U"]


def test_cli_commander_draft_plays_commander_games(tmp_path: Path, capsys) -> None:
    """`melee draft --format commander --players 4 --seed 1 --play`: a draft of two cards a
    pick, four legal Commander Draft decks, one Commander game (life 40, commanders in the
    command zone)."""

    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    out = tmp_path / "cd.json"
    argv = ["--format", "commander", "--players", "4", "--seed", "1", "--play",
            "--max-turns", "60", "--out", str(out)]  # fmt: skip
    assert D.main(ap.parse_args(argv)) == 0
    text = capsys.readouterr().out
    assert "Commander Legends" in text and "commander" in text
    data = json.loads(out.read_text())
    assert data["format"] == "commander" and len(data["decks"]) == 4
    assert len(data["picks"]) == 4 * 60  # 3 boosters of 20 cards each
    assert_decks_legal(data, piper=True)
    (game,) = data["games"]
    assert game["players"] == ["P0", "P1", "P2", "P3"]
    assert game["winners"] or game["capped"]
    assert set(game["commanders"]) == {"P0", "P1", "P2", "P3"}


def test_cli_commander_bad_deck_is_one_line(tmp_path: Path, capsys) -> None:
    ap = ArgumentParser(prog="melee draft")
    D.add_arguments(ap)
    bad = tmp_path / "deck.txt"
    bad.write_text("Commander\n1 Talrand, Sky Summoner\nDeck\n59 Island\n")
    argv = ["--format", "commander", "--players", "4", "--seed", "1", "--deck", f"0={bad}"]
    assert D.main(ap.parse_args(argv)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Talrand, Sky Summoner" in err[0] and "pool" in err[0]
    with pytest.raises(SystemExit) as e:
        ap.parse_args(["--format", "chaos"])
    assert e.value.code == 2


_CMR = sorted(D.load_set("commander-legends").cards)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool=st.lists(st.sampled_from(_CMR), min_size=0, max_size=70))
def test_any_commander_legends_pool_builds_a_legal_deck(pool: list[str]) -> None:
    """903.13e-f, for any pool of the set's cards (duplicates, no legendary creature, no
    spells at all): the builder's deck is legal by ecs.deck_rules, 60 cards."""
    from ecs.deck_rules import check_deck

    db = load_pool()
    deck = D.build_commander_deck(0, pool, D.load_set("commander-legends"), db=db)
    assert len(deck.main) + len(deck.commander) == 60
    assert check_deck(deck, "commander-draft", db, pool=pool, piper=True,
                      colors=deck.colors) == []  # fmt: skip
