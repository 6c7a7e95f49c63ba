"""Batches of the casual variants (``melee simulate --casual``): each plays to the end
on the compiled engine with consistent rows, the same seed gives the same games for any
number of workers, and impossible combinations are refused with exit status 2."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from ecs import simulate as S

ROOT = Path(__file__).resolve().parents[1]


def _cfg(*flags: str) -> dict:
    ap = argparse.ArgumentParser()
    S.add_arguments(ap)
    return S.check_args(ap.parse_args([*flags, "--no-db"]))


@pytest.mark.parametrize(
    "casual", ["commander", "planechase", "vanguard", "archenemy", "supervillain-rumble"]
)
def test_each_casual_variant_plays_a_batch(casual: str) -> None:
    cfg = _cfg("--casual", casual, "--games", "4", "--seed", "3", "--workers", "1")
    rows, _ = S.run_batch(cfg, progress=False)
    assert len(rows) == 4
    for r in rows:
        assert r["variant"].endswith("+" + casual)
        assert r["turns"] > 0 and len(r["how"]) == 4
        assert r["draw"] == (not r["winners"])
        if casual == "commander":  # each seat's commander recorded; life 40 (903.7)
            assert all(len(c) == 1 for c in r["commanders"])
        if casual == "archenemy":  # 904.2: one archenemy against the others
            assert sorted(r["roles"]).count("archenemy") == 1
        if casual == "supervillain-rumble":  # 904.12: everyone is an archenemy
            assert set(r["roles"]) == {"archenemy"}


def test_commander_decks_have_their_commanders_in_the_command_zone() -> None:
    from components import game as G
    from components import objects as O
    from components import players as PL
    from components.rules import COMMAND
    from components.state import GAME_LAYOUT
    from ecs.batch import BatchPlayer

    cfg = _cfg("--casual", "commander", "--games", "1")
    bp = BatchPlayer(cfg)
    v = GAME_LAYOUT.views(bp.template(0))
    n = int(v.s[G.S_N])
    cmd = [i for i in range(n) if v.o[i, O.F_ZONE] == COMMAND and v.o[i, O.F_COMMANDER]]
    assert len(cmd) == 4
    assert int(v.pl[0, PL.P_LIFE]) == 40


def test_casual_batches_do_not_depend_on_the_workers() -> None:
    one = _cfg("--casual", "planechase", "--games", "6", "--seed", "9", "--workers", "1")
    two = dict(one, workers=2)
    a, _ = S.run_batch(one, progress=False)
    b, _ = S.run_batch(two, progress=False)
    key = lambda r: (r["game"], r["winners"], r["turns"], r["actions"])  # noqa: E731
    assert sorted(map(key, a)) == sorted(map(key, b))


@pytest.mark.parametrize(
    "flags",
    [
        ["--casual", "frobnicate"],
        ["--casual", "commander,brawl"],
        ["--casual", "commander,planechase"],
        ["--casual", "brawl"],
        ["--casual", "archenemy", "--variant", "team-vs-team"],
        ["--casual", "conspiracy"],
    ],
)
def test_bad_casual_flags_exit_2(flags: list[str], tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "ecs", "simulate", *flags, "--games", "1", "--no-db"],
        cwd=tmp_path, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT),
                                                             "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert r.returncode == 2, r.stderr
    assert "--casual" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("casual", ["commander", "planechase", "archenemy", "vanguard"])
def test_casual_batch_replays_reach_the_same_final_state(tmp_path: Path, casual: str) -> None:
    """A replay written by a casual batch holds what the game was made of beyond the decks
    (each seat's commanders, the planar/scheme decks and avatars drawn from the seed):
    ``melee replay`` rebuilds the same game and takes the same options to the same end."""
    import json

    from ecs.replay import replay

    out = tmp_path / "r"
    cfg = _cfg("--casual", casual, "--games", "2", "--seed", "4", "--workers", "1",
               "--replays", str(out))  # fmt: skip
    out.mkdir()
    rows, _ = S.run_batch(cfg, progress=False)
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    for f, row in zip(files, sorted(rows, key=lambda r: r["game"]), strict=True):
        data = json.loads(f.read_text())
        key = "commanders" if casual == "commander" else "casual_setup"
        assert data["setup"][key]
        g = replay(data, str(f))
        assert g.fingerprint() == data["final"]["hash"]
        assert g.turn == row["turns"] and sorted(g.names[p] for p in g.winners) == sorted(
            data["final"]["winners"]
        )


def test_a_casual_game_made_in_python_saves_and_replays() -> None:
    import json

    from ecs import casual as C
    from ecs.agents import RandomAgent, play_game
    from ecs.decks import load_deck
    from ecs.engine import Options
    from ecs.replay import replay, to_json

    deck = load_deck("big-green").main
    g = C.casual_game([deck] * 4, ["planechase", "vanguard"], seed=2,
                      options=Options(max_turns=30))  # fmt: skip
    play_game(g, [RandomAgent(p) for p in range(4)])
    data = json.loads(json.dumps(to_json(g)))
    assert (
        data["setup"]["casual_setup"]["vanguards"] and data["setup"]["casual_setup"]["planar_decks"]
    )
    again = replay(data)
    assert again.fingerprint() == g.fingerprint() and again.winners == g.winners
