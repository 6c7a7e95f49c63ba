"""Batches: the results store, resuming, replays, the Ray backend, Monte Carlo agent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ecs.agents import MonteCarloAgent, RandomAgent, play_game
from ecs.decks import load_deck, stock_decks
from ecs.engine import Game, Options
from ecs.replay import replay, to_json
from ecs.results import ResultStore, load_rows
from ecs.simulate import run_batch

ROOT = Path(__file__).resolve().parents[1]
DECKS = [load_deck(d).main for d in stock_decks()]


def _cfg(**kw) -> dict:
    decks = stock_decks()
    cfg = {
        "variant": "free-for-all", "players": 4, "games": 6, "agents": ["random"],
        "decks": decks, "deck_cards": {d: load_deck(d).main for d in decks}, "seed": 5,
        "workers": 1, "range": None, "attack": "multiple", "max_turns": 200,
        "mulligans": False, "teams": None,
    }  # fmt: skip
    cfg.update(kw)
    return cfg


def test_store_rows_and_resume_without_repeats(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    store = ResultStore(db)
    # a batch killed after 3 games: only those rows exist
    partial = _cfg(games=3)
    rows3, _ = run_batch(partial, progress=False, store=store)
    store.close()
    # resume the full batch (same seeds: the first 3 game seeds are the same)
    store = ResultStore(db)
    full = _cfg(games=6)
    bid = store.start_batch(full)
    # simulate "killed midway": copy the 3 finished games into the full batch's id
    for r in rows3:
        store.add(bid, r)
    rows_rest, _ = run_batch(full, progress=False, store=store, resume=True)
    assert sorted(r["game"] for r in rows_rest) == [3, 4, 5]
    assert store.done_games(bid) == set(range(6))
    players = store.con.execute("SELECT count(*) FROM players WHERE batch_id = ?", [bid]).fetchone()
    assert players[0] == 6 * 4
    store.close()
    # and the resumed batch equals an uninterrupted one
    fresh, _ = run_batch(_cfg(games=6), progress=False)
    got = {r["game"]: (r["winners"], r["turns"]) for r in load_rows(db) if r["batch_id"] == bid}
    assert got == {r["game"]: (r["winners"], r["turns"]) for r in fresh}


def test_resume_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    cmd = [sys.executable, "-m", "ecs", "simulate", "--games", "3", "--workers", "1",
           "--db", str(db), "--json", "--seed", "9"]  # fmt: skip
    first = json.loads(subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT).stdout)
    again = json.loads(
        subprocess.run(cmd + ["--resume"], capture_output=True, text=True, cwd=ROOT).stdout
    )
    assert first["games"] == 3 and again["resumed"] == 3  # nothing repeated: none played
    assert again["games"] == 3 and again["wins_by_seat"] == first["wins_by_seat"]
    assert len(load_rows(db)) == 3


@pytest.mark.parametrize(
    "variant,players,opts",
    [
        ("two-player", 2, {}),
        ("free-for-all", 4, {}),
        ("free-for-all", 6, {"range_of_influence": 1, "attack": "left"}),
        ("team-vs-team", 4, {}),
        ("emperor", 6, {}),
        ("alternating-teams", 6, {}),
        ("two-headed-giant", 4, {}),
        ("grand-melee", 8, {}),
    ],
)
def test_replay_reaches_identical_final_state(variant: str, players: int, opts: dict) -> None:
    g = Game.new(
        [DECKS[k % len(DECKS)] for k in range(players)], variant=variant, seed=3,
        options=Options(max_turns=60, mulligans=True, **opts),
    )  # fmt: skip
    play_game(g, [RandomAgent(p) for p in range(players)])
    data = json.loads(json.dumps(to_json(g)))
    again = replay(data)
    assert again.fingerprint() == data["final"]["hash"] == g.fingerprint()
    assert again.winners == g.winners and again.turn == g.turn


def test_batch_games_do_not_depend_on_the_chunking_or_workers() -> None:
    one, _ = run_batch(_cfg(games=8, workers=1), progress=False)
    two, _ = run_batch(_cfg(games=8, workers=2), progress=False)
    key = lambda rows: sorted((r["game"], r["winners"], r["turns"], r["actions"]) for r in rows)  # noqa: E731
    assert key(one) == key(two)
    from ecs.batch import BatchPlayer
    from ecs.simulate import game_seeds

    bp = BatchPlayer(_cfg())
    seeds = game_seeds(5, 8)
    alone = [bp.play(k, [seeds[k]])[0] for k in range(8)]
    assert key(alone) == key(one)


def test_replay_command(tmp_path: Path) -> None:
    out = tmp_path / "replays"
    subprocess.run(
        [sys.executable, "-m", "ecs", "simulate", "--games", "2", "--workers", "1", "--no-db",
         "--json", "--replays", str(out)], check=True, capture_output=True, cwd=ROOT,
    )  # fmt: skip
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    r = subprocess.run([sys.executable, "-m", "ecs", "replay", str(files[0])], capture_output=True,
                       text=True, cwd=ROOT)  # fmt: skip
    assert r.returncode == 0 and "identical final state" in r.stdout
    bad = tmp_path / "bad.json"
    data = json.loads(files[0].read_text())
    data["actions"] = data["actions"][:-3]
    bad.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "ecs", "replay", str(bad)], capture_output=True,
                       text=True, cwd=ROOT)  # fmt: skip
    assert r.returncode == 1 and "DIFFERENT" in r.stdout


def test_ray_backend_gives_the_same_results() -> None:
    pytest.importorskip("ray")
    local, _ = run_batch(_cfg(games=4), progress=False)
    remote, _ = run_batch(_cfg(games=4, backend="ray"), progress=False)
    key = lambda rows: sorted((r["game"], r["winners"], r["turns"]) for r in rows)  # noqa: E731
    assert key(local) == key(remote)


def test_montecarlo_beats_random() -> None:
    wins = 0
    for seed in range(4):
        g = Game.new([DECKS[seed % 6], DECKS[(seed + 1) % 6]], variant="two-player", seed=seed,
                     options=Options(max_turns=80))  # fmt: skip
        play_game(
            g, [MonteCarloAgent(seed, playouts=2, horizon=4, max_actions=6), RandomAgent(seed)]
        )
        wins += g.winners == [0]
    assert wins >= 3


@pytest.mark.parametrize(
    "change,needle",
    [
        (lambda d: d.update(setup=None), "setup: expected an object, got None"),
        (lambda d: d["setup"].update(seed=None), "setup.seed: expected a whole number >= 0"),
        (lambda d: d["setup"].update(seed="7"), "setup.seed: expected a whole number >= 0, got '7'"),
        (lambda d: d["setup"]["decks"][0].__setitem__(0, 5), "setup.decks[0]: expected a list"),
        (lambda d: d["setup"].update(options={"foo": 1}), "setup.options: expected an object"),
        (lambda d: d["setup"]["options"].update(max_turns=-3), "setup.options.max_turns"),
        (lambda d: d["setup"].update(room=[1]), "setup.room"),
        (lambda d: d["setup"].update(agents=["random"]), "setup.agents"),
        (lambda d: d["setup"].update(commanders=[5, 6]), "setup.commanders: expected null or one"),
        (lambda d: d["setup"].update(casual_setup={"planes": []}), "setup.casual_setup: expected"),
        (lambda d: d["setup"].update(casual_setup={"casual": ["planechase"], "planar_decks": [[1]]}),
         "setup.casual_setup"),
        (lambda d: d["setup"].update(casual_setup={"casual": ["planechase"],
                                                   "planar_decks": [["No Such Plane"]] * 2}),
         "setup: the game can't be made"),
        (lambda d: d["actions"].__setitem__(0, None), "actions: expected a list of option indexes"),
        (lambda d: d["actions"].__setitem__(0, -2), "actions: expected a list of option indexes"),
        (lambda d: d["actions"].__setitem__(0, 9999), "actions[0]: refused by the engine"),
        (lambda d: d.update(final=None), "final: expected an object"),
        (lambda d: d.clear(), "format: expected 'melee-replay/2'"),
    ],
)  # fmt: skip
def test_replay_files_with_wrong_fields_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture, change, needle: str
) -> None:
    from ecs.cli import main

    g = Game.new(DECKS[:2], variant="two-player", seed=1, options=Options(max_turns=2))
    play_game(g, [RandomAgent(0), RandomAgent(1)])
    data = to_json(g)
    change(data)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    assert main(["replay", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"melee replay: error: {f}: ") and needle in err, err
    assert len(err.splitlines()) == 1


def test_creatures_deployed_back_and_forth_do_not_fill_the_effects_table() -> None:
    """Emperor (809) with deploy (804.2): random agents hand creatures back and forth;
    each deploy is an indefinite control change (layer 2), which supersedes the earlier
    ones on that creature. This game once ended with ERR_FULL after 256 such effects."""
    decks = ["burn", "big-green", "white-fliers", "dimir-control", "red-aggro", "selesnya-midrange"]
    cfg = {
        "variant": "emperor", "players": 6, "games": 2, "agents": ["random"], "decks": decks,
        "deck_cards": {d: load_deck(d).main for d in decks}, "seed": 0, "workers": 1,
        "range": None, "attack": None, "max_turns": 200, "mulligans": False, "teams": None,
    }  # fmt: skip
    rows, _ = run_batch(cfg, progress=False)
    assert len(rows) == 2 and all(r["turns"] > 0 for r in rows)


def test_the_engine_frees_every_array_it_makes_while_playing() -> None:
    """Kernels make small arrays (np.empty) as they play; each must be released. With
    numba's IR legalisation left out of the kernels' pipeline (systems/jit.py), no
    variable was ever released: 381 arrays a two-player game leaked (190 kB), a batch
    of 100,000 games would have taken 19 GB, and the fresh pages cost a quarter of the
    run's time."""
    from numba.core.runtime import _nrt_python, rtsys

    from ecs.batch import BatchPlayer
    from ecs.simulate import game_seeds

    bp = BatchPlayer(_cfg(variant="two-player", players=2))
    bp.play(0, game_seeds(2, 2))  # the engine loaded
    _nrt_python.memsys_enable_stats()
    before = rtsys.get_allocation_stats()
    bp.play(0, game_seeds(2, 20))
    after = rtsys.get_allocation_stats()
    made, freed = after.alloc - before.alloc, after.free - before.free
    assert made > 20  # the games do make arrays (else this test would test nothing)
    assert freed == made, f"{made - freed} of {made} arrays not released"


def test_a_library_placed_in_one_go_is_the_one_placed_card_by_card() -> None:
    import numpy as np

    from components import objects as O
    from components import players as PL
    from components.rules import LIBRARY
    from components.state import GAME_LAYOUT
    from ecs.cards import load_pool
    from ecs.engine import SetupError, add_library, add_object, new_arena

    db = load_pool()
    decks = [load_deck(d).main for d in stock_decks()[:3]]
    compiled = db.compiled({c for d in decks for c in d})
    arenas = []
    for one_go in (True, False):
        a = new_arena("free-for-all", Options(), [0, 1, 2], 200, 70)
        v = GAME_LAYOUT.views(a)
        for p, deck in enumerate(decks):
            if one_go:
                add_library(a, compiled, p, deck, v)
            else:
                for name in deck:
                    add_object(a, compiled, name, p, LIBRARY, v)
        arenas.append(a)
    assert (arenas[0] == arenas[1]).all()
    v = GAME_LAYOUT.views(arenas[0])
    assert [int(n) for n in v.pl[:3, PL.P_LIBN]] == [len(d) for d in decks]
    top = int(v.lib[2, len(decks[2]) - 1])  # (the last name placed is the top card)
    assert int(v.o[top, O.F_CARD]) == compiled.row(decks[2][-1])
    assert int(v.o[top, O.F_OWNER]) == int(v.o[top, O.F_CTL]) == 2
    ts = v.o[: sum(map(len, decks)), O.F_TS]
    assert (np.diff(ts) == 1).all()  # (each object its own timestamp, in order)
    small = new_arena("free-for-all", Options(), [0, 1], 30, 20)
    with pytest.raises(SetupError, match="too many objects"):
        add_library(small, compiled, 0, decks[0] * 10, GAME_LAYOUT.views(small))
