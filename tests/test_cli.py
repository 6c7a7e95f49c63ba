"""The command line: scenario runner output and exit codes, simulate --json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "tests" / "scenarios" / "800-general" / "800.4a-mind-control-controller-leaves.yaml"


def melee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ecs", *args], capture_output=True, text=True, cwd=ROOT, timeout=600
    )


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


def test_simulate_engines() -> None:
    """auto picks the compiled engine for random agents in free-for-all and Grand Melee
    and the Python engine otherwise; asking for the compiled engine where it can't play is exit 2."""
    base = ("simulate", "--games", "3", "--workers", "1", "--json", "--no-db", "--seed", "2")
    auto = json.loads(melee(*base).stdout)
    assert auto["engine"] == "compiled" and auto["games"] == 3
    py = json.loads(melee(*base, "--engine", "python").stdout)
    assert py["engine"] == "python" and py["games"] == 3
    heur = json.loads(melee(*base, "--agents", "heuristic").stdout)
    assert heur["engine"] == "python"
    gm = json.loads(melee(*base, "--variant", "grand-melee", "--players", "8").stdout)
    assert gm["engine"] == "compiled" and gm["games"] == 3
    hg = json.loads(melee(*base, "--variant", "two-headed-giant", "--players", "4").stdout)
    assert hg["engine"] == "python"
    r = melee(*base, "--engine", "compiled", "--mulligans")
    assert (
        r.returncode == 2 and "compiled engine can't play" in r.stderr and "mulligans" in r.stderr
    )
    ranged = json.loads(melee(*base, "--players", "6", "--range", "1", "--attack", "left").stdout)
    assert ranged["engine"] == "compiled" and ranged["games"] == 3
