"""The command line: scenario runner output and exit codes, simulate --json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "tests" / "scenarios" / "800-general" / "800.4a-mind-control-controller-leaves.yaml"


def melee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ecs", *args], capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def test_scenario_pass_exit_0() -> None:
    r = melee("scenario", str(GOOD))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "1 passed, 0 failed"
    assert r.stdout.startswith("PASS ")


def test_scenario_fail_exit_1_with_diff(tmp_path: Path) -> None:
    bad = tmp_path / "wrong.yaml"
    bad.write_text(GOOD.read_text().replace("controller: Bianca", "controller: Carissa"))
    r = melee("scenario", str(tmp_path))
    assert r.returncode == 1
    assert "FAIL" in r.stdout and "expected 'Carissa', got 'Bianca'" in r.stdout
    assert r.stdout.splitlines()[-1] == "0 passed, 1 failed"


def test_scenario_invalid_exit_2_names_file_and_field(tmp_path: Path) -> None:
    cases = {
        "card.yaml": ("Assault Griffin]", "Assault Grifin]", "unknown card 'Assault Grifin'"),
        "yaml.yaml": ("players:", "players: [", "malformed YAML"),
        "player.yaml": (
            "{player: Alex, leave: true}",
            "{player: Zed, leave: true}",
            "unknown player 'Zed'",
        ),
        "step.yaml": ("step: precombat-main", "step: second-main", "start.step"),
    }
    for fname, (old, new, needle) in cases.items():
        f = tmp_path / fname
        f.write_text(GOOD.read_text().replace(old, new))
        r = melee("scenario", str(f))
        assert r.returncode == 2, fname
        assert str(f) in r.stdout and needle in r.stdout, (fname, r.stdout)
    r = melee("scenario", str(tmp_path / "nope.yaml"))
    assert r.returncode == 2 and "cannot read file" in r.stdout


def test_scenario_json_and_dump() -> None:
    r = melee("scenario", "--json", "--dump", str(GOOD))
    data = json.loads(r.stdout)
    assert data["passed"] == 1 and data["failed"] == 0
    state = data["scenarios"][0]["state"]
    assert state["players"]["Alex"]["in_game"] is False
    assert state["cards"]["Assault Griffin"]["controller"] == "Bianca"


def test_simulate_json_summary() -> None:
    r = melee("simulate", "--games", "4", "--workers", "1", "--json", "--seed", "3", "--no-db")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    for key in ("games", "wall_s", "games_per_s", "turns_mean", "wins_by_seat", "draws"):
        assert key in s
    assert s["games"] == 4
    assert sum(s["wins_by_seat"].values()) + s["draws"] >= 4


def test_simulate_same_results_whatever_the_workers(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    db = str(tmp_path / "r.duckdb")
    melee("simulate", "--games", "6", "--workers", "1", "--json", "--out", str(a), "--db", db)
    melee("simulate", "--games", "6", "--workers", "2", "--json", "--out", str(b), "--db", db)

    def rows(p: Path) -> list:
        out = [json.loads(x) for x in p.read_text().splitlines()]
        return sorted((r["game"], r["winners"], r["turns"], r["actions"]) for r in out)

    assert rows(a) == rows(b) and len(rows(a)) == 6


def test_simulate_bad_input() -> None:
    r = melee("simulate", "--decks", "no-such-deck", "--games", "1")
    assert r.returncode == 2 and "no such deck" in r.stderr
    r = melee("simulate", "--agents", "genius", "--games", "1")
    assert r.returncode == 2 and "unknown agent" in r.stderr


def test_simulate_every_variant_and_agent() -> None:
    """Every variant and both compiled agents play in the one engine, from the CLI."""
    base = ("simulate", "--games", "3", "--workers", "1", "--json", "--no-db", "--seed", "2")
    for extra in ((), ("--agents", "heuristic,random"), ("--variant", "grand-melee", "--players", "8"),
                  ("--variant", "two-headed-giant", "--players", "4"), ("--mulligans",),
                  ("--players", "6", "--range", "1", "--attack", "left"),
                  ("--variant", "emperor", "--players", "6")):  # fmt: skip
        r = melee(*base, *extra)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["games"] == 3 and sum(out["wins_by_seat"].values()) + out["draws"] >= 3


# --- a CLI that helps: help, every flag checked, one line and exit 2 ------------------


def run_main(argv: list[str], capsys) -> tuple[int, str, str]:
    """``melee ARGV`` in this process: exit status, stdout, stderr."""
    from ecs.cli import main

    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_melee_alone_prints_help_and_exit_0() -> None:
    r = melee()
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: melee") and "simulate" in r.stdout and "query" in r.stdout


def test_every_simulate_option_is_explained_with_its_default(capsys) -> None:
    from ecs.cli import build_parser

    sim = build_parser()._subparsers._group_actions[0].choices["simulate"]
    text = sim.format_help()
    for action in sim._actions:
        assert action.help, action.option_strings
        if action.default is not None and action.default is not False and action.nargs != 0:
            assert (
                "default" in action.help
                or "%(default)" in sim._get_formatter()._get_help_string(action)
            )
    assert "RANGE_" not in text and "(default: 0)" in text and "(default: 200)" in text
    for variant in ("two-player", "free-for-all", "team-vs-team", "emperor",
                    "alternating-teams", "two-headed-giant", "grand-melee"):  # fmt: skip
        assert variant in " ".join(text.split()).replace("- ", "-"), variant


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--seed", "-1"], "argument --seed: expected a whole number from 0"),
        (["--seed", "x"], "argument --seed: expected a whole number"),
        (["--games", "-5"], "argument --games: expected a whole number from 1"),
        (["--games", "0"], "argument --games"),
        (["--workers", "0"], "argument --workers: expected a whole number from 1 to 256"),
        (["--workers", "1000"], "argument --workers: expected a whole number from 1 to 256"),
        (["--max-turns", "-1"], "argument --max-turns: expected a whole number from 1"),
        (["--players", "10000"], "argument --players: expected a whole number from 2 to 1,000"),
        (["--players", "1"], "argument --players"),
        (["--range", "0"], "argument --range"),
        (["--variant", "grand-melee", "--players", "3"], "--players: grand-melee needs at least 4"),
        (["--variant", "two-player", "--players", "3"], "--players: two-player games have 2"),
        (["--variant", "emperor", "--players", "4"], "--players: emperor needs at least 6"),
        (["--variant", "team-vs-team", "--teams", "3"], "--variant team-vs-team"),
        (["--variant", "planechase"], "argument --variant: invalid choice"),
        (["--attack", "up"], "argument --attack: invalid choice"),
        (["--agents", "genius"], "--agents: unknown agent 'genius'"),
        (["--decks", "brun"], "--decks: brun: no such deck file or stock deck (did you mean 'burn'?"),
        (["--address", "auto"], "--address: only with --backend ray"),
        (["--resume", "--no-db"], "--resume: needs the results store"),
        (["--db", "no/such/folder/r.duckdb"], "--db no/such/folder/r.duckdb: the folder"),
        (["--out", "no/such/folder/r.jsonl"], "--out no/such/folder/r.jsonl: the folder"),
        (["--replays", "no/such/folder/replays"], "--replays no/such/folder/replays: the folder"),
        (["--agents", "random,montecarlo"], "--agents: unknown agent 'montecarlo'"),
        (["--team-turns"], "--team-turns: shared team turns are for teams"),
        (["--variant", "emperor", "--players", "6", "--team-turns"], "--team-turns"),
        (["--teams", "2"], "--teams: free-for-all is not played in teams"),
        (["--decks", ""], "--decks: expected a comma-separated list, got ''"),
        (["--casual", ","], "--casual: expected a comma-separated list"),
        (["--casual", "supervillain-rumble", "--attack", "left"], "only the attack multiple"),
        (["--casual", "supervillain-rumble", "--range", "1"], "(904.12a): drop --range"),
        (["--casual", "supervillain-rumble", "--variant", "team-vs-team"],
         "--casual supervillain-rumble: a Free-for-All game (904.12a), not team-vs-team"),
    ],
)  # fmt: skip
def test_bad_simulate_flags_get_one_line_and_exit_2(
    argv: list[str], needle: str, capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["simulate", "--games", "1", *argv] if "--games" not in argv
                              else ["simulate", *argv], capsys)  # fmt: skip
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("melee simulate: error: "), err
    assert needle in lines[0], lines[0]
    assert list(tmp_path.iterdir()) == []  # nothing created


def test_ray_missing_or_unreachable_is_one_line(tmp_path: Path) -> None:
    shim = tmp_path / "shim" / "ray"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError('no ray here')\n")
    env = {**os.environ, "PYTHONPATH": f"{shim.parent}{os.pathsep}{ROOT}"}
    r = subprocess.run([sys.executable, "-m", "ecs", "simulate", "--backend", "ray", "--games", "1"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)  # fmt: skip
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == (
        "melee simulate: error: --backend ray: Ray is not installed "
        "(pip install -e '.[ray]', or pip install ray)"
    )
    pytest.importorskip("ray")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_TMPDIR": str(tmp_path / "ray")}
    env.pop("RAY_ADDRESS", None)
    r = subprocess.run(
        [sys.executable, "-m", "ecs", "simulate", "--backend", "ray", "--address", "auto",
         "--games", "1", "--db", str(tmp_path / "r.duckdb")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )  # fmt: skip
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "--address auto: no running Ray cluster found" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.duckdb").exists()


def test_query_prints_a_table_and_refuses_writes(tmp_path: Path) -> None:
    db = tmp_path / "q.duckdb"
    r = melee(
        "simulate", "--games", "3", "--workers", "1", "--seed", "2", "--db", str(db), "--json"
    )
    assert r.returncode == 0, r.stderr
    r = melee("query", "select count(*) as n, min(game) as first from games", "--db", str(db))
    assert r.returncode == 0, r.stderr
    assert "┃ n" in r.stdout and "│ 3 " in r.stdout and "│ 0 " in r.stdout
    r = melee("query", "select * from games", "--db", str(db))  # piped: as wide as the table
    header = next(line for line in r.stdout.splitlines() if "batch_id" in line)
    assert "duration_s" in header and "winners" in header, r.stdout[:400]
    r = melee("query", "select game, turns from games order by game", "--db", str(db), "--csv")
    assert r.stdout.splitlines()[0] == "game,turns" and len(r.stdout.splitlines()) == 4
    r = melee("query", "select game from games order by game", "--db", str(db), "--json",
              "--limit", "2")  # fmt: skip
    assert [json.loads(x)["game"] for x in r.stdout.splitlines()] == [0, 1]
    r = melee("query", "delete from games", "--db", str(db))
    assert r.returncode == 2 and r.stderr.startswith("melee query: error: SQL: ")
    assert len(r.stderr.strip().splitlines()) == 1
    r = melee("query", "select count(*) from games", "--db", str(db), "--csv")
    assert r.stdout.splitlines()[1] == "3"  # nothing was deleted
    for empty in ("", " ", ";", "-- a comment"):
        r = melee("query", empty, "--db", str(db))
        assert r.returncode == 2 and "no SQL statement to run" in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    r = melee("query", "selec 1", "--db", str(db))
    assert r.returncode == 2 and "SQL: Parser Error" in r.stderr
    r = melee("query", "select 1", "--db", str(tmp_path / "none.duckdb"))
    assert r.returncode == 2 and "no such results file" in r.stderr
    assert not (tmp_path / "none.duckdb").exists()
