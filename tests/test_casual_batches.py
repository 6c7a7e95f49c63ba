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


@pytest.mark.parametrize(
    "casual", ["commander,planechase", "commander,vanguard", "commander,archenemy"]
)
def test_commander_combines_with_the_command_zone_variants(casual: str) -> None:
    """903 with 901, 902 or 904 in one batch: each seat's commander in the command zone
    beside the planar decks, avatars or the archenemy's scheme deck; life 40 (903.7; an
    avatar's modifier on top, 902.4); games play to the end."""
    from components import game as G
    from components import objects as O
    from components import players as PL
    from components.rules import COMMAND, T_PLANE, T_SCHEME, T_VANGUARD
    from components.state import GAME_LAYOUT
    from ecs.batch import BatchPlayer

    cfg = _cfg("--casual", casual, "--games", "3", "--seed", "5", "--workers", "1")
    bp = BatchPlayer(cfg)
    v = GAME_LAYOUT.views(bp.template(0))
    n = int(v.s[G.S_N])
    command = [i for i in range(n) if v.o[i, O.F_ZONE] == COMMAND]
    owners = sorted(int(v.o[i, O.F_OWNER]) for i in command if v.o[i, O.F_COMMANDER])
    assert owners == [0, 1, 2, 3]
    kind = {"planechase": T_PLANE, "vanguard": T_VANGUARD, "archenemy": T_SCHEME}[
        casual.split(",")[1]
    ]
    assert any(v.o[i, O.F_TYPES] & kind for i in command)
    assert all(int(v.pl[p, PL.P_LIFE]) == 40 for p in range(4))
    rows, _ = S.run_batch(cfg, progress=False)
    assert len(rows) == 3
    for r in rows:
        assert r["variant"].endswith("+" + casual.replace(",", "+"))
        assert all(len(c) == 1 for c in r["commanders"])
        assert r["turns"] > 0 and r["draw"] == (not r["winners"])
        if casual.endswith("archenemy"):
            assert sorted(r["roles"]).count("archenemy") == 1


@pytest.mark.parametrize(
    "casual", ["commander", "planechase", "archenemy", "vanguard", "commander,planechase"]
)
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
        if "commander" in casual:
            assert data["setup"]["commanders"]
        if casual != "commander":
            assert data["setup"]["casual_setup"]
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


def test_random_agents_finish_games_with_a_free_ability() -> None:
    """Eladamri's {0} ability (B_FREE) may be activated any number of times: the compiled
    random agent activates it, but not again from the same avatar while one activation
    waits on the stack, so four Eladamris never fill the tables and every game ends."""
    from ecs import casual as C
    from ecs.decks import load_deck
    from ecs.engine import Game, Options

    deck = load_deck("big-green").main
    setup = C.CasualSetup(("vanguard",), vanguards=["Eladamri"] * 4)
    activations = 0
    for seed in range(4):  # (each activation is an object: room for ~200 of them)
        g = Game.new([deck] * 4, seed=seed, options=Options(max_turns=60), casual_setup=setup,
                     room=(800, 60))  # fmt: skip
        while not g.over:
            k = g.policy_choice("random")
            a = g.legal_actions()[k]
            if a.kind == "activate" and g.card_name(a.obj) == "Eladamri":
                activations += 1
                waiting = [i for i in g.view()["stack"] if i == "ability of Eladamri"]
                assert len(waiting) < 4  # at most one from each of the other avatars
            g.step(k)
        assert g.error == 0 and (g.winners or g.drawn or g.capped)
    assert activations > 0
