"""``melee report`` and ``melee compare``: statistics, outputs, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ecs.stats import distribution, game_stats, percentile, rate, wilson

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def melee(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ecs", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def assert_png(path: Path) -> None:
    assert path.is_file(), path
    data = path.read_bytes()
    assert len(data) > 1000 and data.startswith(PNG_MAGIC), path


# --- statistics -----------------------------------------------------------------------


def test_wilson_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)  # one-sided at the edges
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    lo, hi = wilson(1, 4)
    assert (lo, hi) == (pytest.approx(0.0456, abs=1e-4), pytest.approx(0.6994, abs=1e-4))
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(5, 4)
    r = rate(3, 12)
    assert r["rate"] == 0.25 and r["count"] == 3 and r["total"] == 12
    assert r["ci_low"] < 0.25 < r["ci_high"]


def test_distribution_matches_numpy() -> None:
    import numpy as np

    xs = [35, 7, 12, 40, 22, 18, 9, 30, 27]
    d = distribution(xs)
    assert d["n"] == 9 and d["mean"] == pytest.approx(np.mean(xs))
    for key, q in (("median", 50), ("p10", 10), ("p90", 90)):
        assert d[key] == pytest.approx(np.percentile(xs, q))
    assert (d["min"], d["max"]) == (7, 40)
    assert percentile([1.0, 3.0], 50) == 2.0
    assert distribution([])["mean"] is None


def test_game_stats_teams() -> None:
    rows = [
        {"winners": [0, 2], "draw": False, "capped": False, "turns": 10, "teams": [0, 1, 0, 1]},
        {"winners": [1, 3], "draw": False, "capped": False, "turns": 12, "teams": [1, 0, 1, 0]},
        {"winners": [1, 3], "draw": False, "capped": False, "turns": 14, "teams": [0, 1, 0, 1]},
        {"winners": [], "draw": True, "capped": True, "turns": 200, "teams": [0, 1, 0, 1]},
    ]
    s = game_stats(rows, 4)
    assert [x["count"] for x in s["seats"]] == [1, 2, 1, 2]
    # teams named by their lowest seat in each game (seat 0's team took the first turn)
    assert [(t["team"], t["count"]) for t in s["teams"]] == [
        ("team of seat 0", 1),
        ("team of seat 1", 2),
    ]
    assert s["first_team"]["count"] == 1  # only game 0: seat 0's team won
    assert s["draws"]["count"] == 1 and s["capped"]["count"] == 1


# --- report ---------------------------------------------------------------------------


def _row(game: int, winners: list[int], players: int = 4, turns: int = 10, **kw) -> dict:
    row = {
        "game": game,
        "seed": 1000 + game,
        "variant": "free-for-all" if players > 2 else "two-player",
        "players": players,
        "range": None,
        "attack": "multiple",
        "decks": ["burn", "big-green", "white-fliers", "dimir-control"][:players],
        "agents": ["random"] * players,
        "winners": winners,
        "losers": [s for s in range(players) if winners and s not in winners],
        "drawn": [] if winners else list(range(players)),
        "draw": not winners,
        "capped": False,
        "turns": turns,
        "actions": 100,
        "duration_s": 0.1,
    }
    row.update(kw)
    return row


@pytest.fixture
def jsonl(tmp_path: Path) -> Path:
    # 10 four-player games: seat 0 wins 4, seat 1 wins 3, seat 2 wins 1, 2 draws (1 capped);
    # then 4 two-player games (another configuration): seat 1 wins 3, seat 0 wins 1.
    winners = [[0], [0], [1], [0], [1], [2], [], [0], [1], []]
    turns = [10, 12, 14, 16, 18, 20, 22, 24, 26, 200]
    rows = [_row(k, w, turns=t, capped=t == 200) for k, (w, t) in enumerate(zip(winners, turns))]
    rows += [_row(k, [1 if k % 4 else 0], players=2, turns=8 + k) for k in range(4)]
    p = tmp_path / "results.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return p


def test_report_jsonl_numbers_and_files(jsonl: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    r = melee("report", str(jsonl), "--json", "--out", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 14 and len(data["groups"]) == 2
    ffa, duel = data["groups"]
    assert (ffa["variant"], ffa["players"], ffa["games"]) == ("free-for-all", 4, 10)
    assert [s["count"] for s in ffa["seats"]] == [4, 3, 1, 0]
    assert [s["rate"] for s in ffa["seats"]] == pytest.approx([0.4, 0.3, 0.1, 0.0])
    lo, hi = wilson(4, 10)
    assert ffa["seats"][0]["ci_low"] == pytest.approx(lo)
    assert ffa["seats"][0]["ci_high"] == pytest.approx(hi)
    assert ffa["seats"][0]["ci_low"] == pytest.approx(0.1682, abs=1e-4)
    assert ffa["draws"]["count"] == 2 and ffa["draws"]["rate"] == pytest.approx(0.2)
    assert ffa["capped"]["count"] == 1
    assert ffa["turns"]["mean"] == pytest.approx(36.2)
    assert ffa["turns"]["median"] == pytest.approx(19.0)
    assert ffa["turns"]["p10"] == pytest.approx(11.8)
    assert ffa["turns"]["p90"] == pytest.approx(43.4)
    assert ffa["teams"] is None
    assert ffa["decks"] == sorted(["burn", "big-green", "white-fliers", "dimir-control"])
    assert (duel["variant"], duel["games"]) == ("two-player", 4)
    assert [s["count"] for s in duel["seats"]] == [1, 3]
    assert duel["draws"]["count"] == 0
    # files
    summary = out / "summary.md"
    assert summary.is_file()
    text = summary.read_text()
    for g in data["groups"]:
        assert f"## {g['name']}" in text
        assert_png(out / f"winrate_by_seat_{g['name']}.png")
        assert_png(out / f"turns_{g['name']}.png")
    assert "| seat 0 | 4 | 40.0% |" in text
    assert sorted(data["outputs"]) == sorted(str(p) for p in out.iterdir())


def test_report_terminal_table(jsonl: Path) -> None:
    r = melee("report", str(jsonl))
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())  # rich wraps lines to the terminal width
    assert "14 games in 2 configurations" in text
    assert "40.0%" in text and "seat 3" in text and "median 19" in text


def test_report_splits_disjoint_deck_pools(tmp_path: Path) -> None:
    rows = [_row(k, [0], decks=["burn", "big-green"] * 2) for k in range(3)]
    rows += [_row(k, [1], decks=["white-fliers", "dimir-control"] * 2) for k in range(2)]
    p = tmp_path / "pools.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows))
    data = json.loads(melee("report", str(p), "--json").stdout)
    assert [g["games"] for g in data["groups"]] == [3, 2]
    assert data["groups"][1]["decks"] == ["dimir-control", "white-fliers"]
    assert len({g["name"] for g in data["groups"]}) == 2


def test_report_duckdb_store_from_simulate(tmp_path: Path) -> None:
    db = tmp_path / "res.duckdb"
    sim = melee(
        "simulate", "--games", "4", "--workers", "1", "--db", str(db), "--no-progress", "--json"
    )
    assert sim.returncode == 0, sim.stderr
    wins = json.loads(sim.stdout)["wins_by_seat"]
    out = tmp_path / "rep"
    r = melee("report", str(db), "--json", "--out", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 4 and len(data["groups"]) == 1
    g = data["groups"][0]
    assert g["batch_id"] and g["variant"] == "free-for-all" and g["players"] == 4
    assert g["teams"] is None  # the store fills teams for every game; these are not team games
    assert {str(s["seat"]): s["count"] for s in g["seats"]} == wins
    assert g["turns"]["n"] == 4 and g["turns"]["min"] <= g["turns"]["median"] <= g["turns"]["max"]
    assert (out / "summary.md").stat().st_size > 0
    assert_png(out / f"winrate_by_seat_{g['name']}.png")
    assert_png(out / f"turns_{g['name']}.png")


def test_report_by_deck_agent_team_and_role_with_readable_names(tmp_path: Path) -> None:
    """Emperor (teams and roles, Python engine): the report's teams are named as
    simulate names them, group names read as the configuration and seed (no hash)."""
    db = tmp_path / "emp.duckdb"
    sim = melee("simulate", "--variant", "emperor", "--players", "6", "--games", "6",
                "--workers", "1", "--seed", "3", "--db", str(db), "--json")  # fmt: skip
    assert sim.returncode == 0, sim.stderr
    summary = json.loads(sim.stdout)
    r = melee("report", str(db), "--json", "--out", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stderr
    g = json.loads(r.stdout)["groups"][0]
    assert g["name"] == "emperor-6p-2teams-random-seed3"
    assert {t["team"]: t["count"] for t in g["teams"]} == summary["wins_by_team"]
    assert set(summary["wins_by_team"]) <= {"team of seat 0", "team of seat 1", "team of seat 2"}
    roles = {x["name"]: x for x in g["by_role"]}
    assert set(roles) == {"emperor", "general"}
    assert roles["emperor"]["total"] == 6 * 2 and roles["general"]["total"] == 6 * 4
    assert sum(x["total"] for x in g["by_deck"]) == 6 * 6
    # every winning seat is a win of its deck
    assert sum(x["count"] for x in g["by_deck"]) == sum(s["count"] for s in g["seats"])
    assert [x["name"] for x in g["by_agent"]] == ["random"]
    for x in g["by_deck"] + g["by_role"]:
        assert 0 <= x["ci_low"] <= x["rate"] <= x["ci_high"] <= 1
    assert_png(tmp_path / "rep" / f"winrate_by_deck_{g['name']}.png")
    assert_png(tmp_path / "rep" / f"winrate_by_role_{g['name']}.png")
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "| emperor |" in md and "| team of seat 0 |" in md


def test_plot_axes_fit_the_intervals() -> None:
    from ecs.report import fitted_limits

    rates = [rate(230, 1000), rate(270, 1000)]
    lo, hi = fitted_limits(rates, fair=0.25)
    assert 0.15 < lo < rates[0]["ci_low"] and rates[1]["ci_high"] < hi < 0.35
    assert fitted_limits([rate(0, 10), rate(10, 10)]) == (0.0, 1.0)  # clamped to 0..1


def test_report_shows_how_games_end(tmp_path: Path) -> None:
    rows = [
        _row(0, [0], how=["won", "combat", "combat", "decking"]),
        _row(1, [1], how=["life", "won", "combat", "conceded"]),
        _row(2, [], how=["draw", "draw", "draw", "draw"]),
    ]
    p = tmp_path / "ends.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    r = melee("report", str(p), "--json", "--out", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stderr
    ends = json.loads(r.stdout)["groups"][0]["ends"]
    assert [(e["how"], e["count"]) for e in ends] == [
        ("draw", 4),
        ("combat", 3),
        ("conceded", 1),
        ("decking", 1),
        ("life", 1),
    ]
    assert ends[0]["rate"] == pytest.approx(0.4)
    text = (tmp_path / "rep" / "summary.md").read_text()
    assert "how games end (seats that didn't win): draw 40.0% (4), combat 30.0% (3)" in text
    r = melee("report", str(p))
    assert "how games end" in " ".join(r.stdout.split())
    r = melee("report", str(p), "--out", str(tmp_path / "no" / "such" / "dir"))
    assert r.returncode == 2 and "does not exist" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "no").exists()


def test_report_bad_input(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n")
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"games": 4, "wins_by_seat": {"0": 1}}))
    cases = {
        tmp_path / "missing.duckdb": "no such results file",
        empty: "no games",
        text: "not a results file",
        garbage: "not a results file",
        summary: "not a results file",
        tmp_path: "not a results file",
    }
    for path, needle in cases.items():
        r = melee("report", str(path))
        assert r.returncode == 2, (path, r.stdout, r.stderr)
        assert str(path) in r.stderr and needle in r.stderr, (path, r.stderr)
        assert r.stderr.startswith("melee report: error: ") and "Traceback" not in r.stderr


# --- compare --------------------------------------------------------------------------


def test_compare_two_configs(tmp_path: Path) -> None:
    a = tmp_path / "duel.yaml"
    a.write_text("name: duel\nvariant: two-player\ndecks: [burn, big-green]\ngames: 50\n")
    b = tmp_path / "ffa3-left.yaml"
    b.write_text(
        "variant: free-for-all\nplayers: 3\nattack: left\nrange: 1\n"
        "agents: [random]\ndecks: burn,big-green,white-fliers\n"
    )
    out = tmp_path / "cmp"
    args = ["compare", str(a), str(b), "--games", "3", "--workers", "1", "--seed", "5"]
    r = melee(*args, "--json", "--out", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    duel, ffa = data["configs"]
    assert duel["name"] == "duel" and ffa["name"] == "ffa3-left"  # default name: file stem
    assert duel["games"] == ffa["games"] == 3  # --games overrides the file
    assert (ffa["players"], ffa["attack"], ffa["range"]) == (3, "left", 1)
    for c in (duel, ffa):
        assert len(c["seats"]) == c["players"]
        # no teams: every game has one winner or is a draw
        assert sum(s["count"] for s in c["seats"]) + c["draws"]["count"] == c["games"]
        seat0 = c["seats"][0]["rate"]
        assert c["first_player_advantage"] == pytest.approx(seat0 - 1 / c["players"])
        assert c["games_per_s"] > 0 and c["turns"]["n"] == 3
    md = (out / "compare.md").read_text()
    assert "|  | duel | ffa3-left |" in md
    assert "first-player advantage" in md and "seat 2 win rate" in md
    assert_png(out / "winrate_by_seat.png")
    assert_png(out / "turns.png")
    # terminal table: one column per configuration
    t = melee(*args)
    assert t.returncode == 0, t.stderr
    assert "duel" in t.stdout and "ffa3-left" in t.stdout and "first-player" in t.stdout
    # the same seed gives the same games
    again = json.loads(melee(*args, "--json").stdout)
    assert [c["seats"] for c in again["configs"]] == [duel["seats"], ffa["seats"]]
    assert [c["turns"] for c in again["configs"]] == [duel["turns"], ffa["turns"]]


def test_compare_bad_configs(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("variant: two-player\ngames: 1\n")
    cases = {
        "key.yaml": ("variant: free-for-all\nplayer: 6\n", "unknown key 'player'"),
        "variant.yaml": ("variant: planechase\n", "variant"),
        "attack.yaml": ("attack: up\n", "attack"),
        "players.yaml": ("players: two\n", "players"),
        "agents.yaml": ("agents: [genius]\n", "unknown agent 'genius'"),
        "decks.yaml": ("decks: [no-such-deck]\n", "decks"),
        "teams.yaml": ("variant: team-vs-team\nplayers: 5\n", "team-vs-team"),
        "list.yaml": ("- variant: two-player\n", "expected a mapping"),
        "yaml.yaml": ("variant: [\n", "malformed YAML"),
    }
    for fname, (body, needle) in cases.items():
        f = tmp_path / fname
        f.write_text(body)
        r = melee("compare", str(good), str(f), "--games", "1", "--workers", "1")
        assert r.returncode == 2, (fname, r.stdout, r.stderr)
        assert str(f) in r.stderr and needle in r.stderr, (fname, r.stderr)
        assert "Traceback" not in r.stderr and r.stdout == ""
    r = melee("compare", str(tmp_path / "nope.yaml"))
    assert r.returncode == 2 and "nope.yaml" in r.stderr and "cannot read" in r.stderr


def test_example_configs_load() -> None:
    from ecs.compare import build_cfg, load_config

    files = sorted((ROOT / "examples" / "compare").glob("*.yaml"))
    specs = {s["name"]: s for s in map(load_config, files)}
    assert set(specs) == {"ffa-6", "ffa-6-range-1", "ffa-6-attack-left"}
    assert all(s["players"] == 6 and s["variant"] == "free-for-all" for s in specs.values())
    assert specs["ffa-6-range-1"]["range"] == 1 and specs["ffa-6-attack-left"]["attack"] == "left"
    assert (specs["ffa-6"]["range"], specs["ffa-6"]["attack"]) == (None, "multiple")
    for s in specs.values():
        assert build_cfg(s, 2, 0, 1)["games"] == 2


def test_compare_help_describes_it_and_errors_name_the_command(tmp_path: Path) -> None:
    r = melee("compare", "--help")
    assert r.returncode == 0 and "same seeds" in " ".join(r.stdout.split())
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [\n")
    r = melee("compare", str(bad))
    assert r.returncode == 2 and r.stderr.startswith("melee compare: error: "), r.stderr
