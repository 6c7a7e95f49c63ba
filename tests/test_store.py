"""The results store at engine speed: chunked writes, killed and interrupted batches,
exact resumes, one writer at a time."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from ecs.results import ResultStore, StoreError, load_rows
from ecs.simulate import game_seeds, seed_blocks

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
# big Grand Melee games: slow enough (a few games a second) to stop a batch midway
N = 48
SLOW = ["simulate", "--variant", "grand-melee", "--players", str(N), "--seed", "4", "--no-progress"]


def melee(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ecs", *args], capture_output=True, text=True, cwd=cwd,
        timeout=600, env=ENV,
    )  # fmt: skip


def _foreground() -> None:
    """A terminal's foreground job gets Ctrl-C: undo an inherited "ignore SIGINT" (a
    test run started in the background by a non-interactive shell passes one on, and
    Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    """``melee ARGS`` in its own process group (as a terminal's foreground job is)."""
    return subprocess.Popen(
        [sys.executable, "-m", "ecs", *args], cwd=cwd, env=ENV, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_foreground,
    )  # fmt: skip


def wait_for_lines(path: Path, proc: subprocess.Popen) -> None:
    """Until the batch has written its first chunk of games (or ended)."""
    while proc.poll() is None and not (path.exists() and path.stat().st_size > 0):
        time.sleep(0.05)
    assert proc.poll() is None, "the batch ended before it could be stopped"


def stored(db: Path) -> tuple[list[int], int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        games = [r[0] for r in con.execute("SELECT game FROM games ORDER BY game").fetchall()]
        players = con.execute("SELECT count(*) FROM players").fetchone()[0]
    finally:
        con.close()
    return games, players


def outcomes(rows: list[dict]) -> dict[int, tuple]:
    return {r["game"]: (r["seed"], list(r["winners"]), r["turns"]) for r in rows}


def test_seed_blocks_are_the_batch_seeds() -> None:
    whole = game_seeds(11, 10)
    assert [s for b in seed_blocks(11, 10, 3) for s in b] == whole
    assert [len(b) for b in seed_blocks(11, 10, 3)] == [3, 3, 3, 1]
    assert len(set(whole)) == 10


def test_add_rows_writes_games_and_players_in_one_chunk(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "r.duckdb")
    bid = store.start_batch({"seed": 1})
    rows = [
        {"game": k, "seed": 100 + k, "variant": "emperor", "players": 6, "range": None,
         "attack": "multiple", "decks": [f"d{s}" for s in range(6)], "agents": ["random"] * 6,
         "winners": [0, 2, 4], "losers": [1, 3, 5], "drawn": [], "draw": False,
         "capped": False, "turns": 30 + k, "actions": 99, "duration_s": 0.1,
         "teams": [0, 1, 0, 1, 0, 1], "roles": ["general", "general", "emperor", "emperor",
                                                 "general", "general"]}
        for k in range(3)
    ]  # fmt: skip
    store.add_rows(bid, rows)
    assert store.done_games(bid) == {0, 1, 2} and store.count_games(bid) == 3
    assert store.done_games(bid, 1, 2) == {1}
    got = store.con.execute(
        "SELECT seat, deck, team, won, lost, role FROM players WHERE game = 1 ORDER BY seat"
    ).fetchall()
    assert got[2] == (2, "d2", 0, True, False, "emperor")
    assert got[1] == (1, "d1", 1, False, True, "general")
    g = store.games(bid)
    assert [r["turns"] for r in g] == [30, 31, 32] and g[0]["roles"][2] == "emperor"
    assert g[0]["batch_seed"] == 1
    with pytest.raises(duckdb.ConstraintException):  # a game is never stored twice
        store.add_rows(bid, rows[:1])
    assert store.count_games(bid) == 3
    assert store.con.execute("SELECT count(*) FROM players").fetchone()[0] == 18  # rolled back
    store.close()


def test_old_store_files_get_the_new_columns(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE games (batch_id VARCHAR, game INTEGER)")
    con.close()
    ResultStore(db).close()
    con = duckdb.connect(str(db), read_only=True)
    cols = {r[0] for r in con.execute("DESCRIBE games").fetchall()}
    con.close()
    assert {"engine", "roles", "how"} <= cols


def test_a_second_writer_gets_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "busy.duckdb"
    holder = duckdb.connect(str(db))  # another process writing the file
    try:
        r = melee("simulate", "--games", "2", "--workers", "1", "--db", str(db))
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "in use by another process" in lines[0], r.stderr
        assert str(db) in lines[0] and "Traceback" not in r.stderr
        r = melee("query", "select 1", "--db", str(db))
        assert r.returncode == 2 and "in use by another process" in r.stderr
    finally:
        holder.close()
    with pytest.raises(StoreError, match="does not exist"):
        ResultStore(tmp_path / "no" / "r.duckdb")
    assert not (tmp_path / "no").exists()


def test_killed_batch_keeps_committed_chunks_and_resume_finishes_it_exactly(
    tmp_path: Path,
) -> None:
    db, out = tmp_path / "k.duckdb", tmp_path / "k.jsonl"
    args = [*SLOW, "--games", "60", "--workers", "1", "--db", str(db), "--out", str(out)]
    proc = start(args, tmp_path)
    wait_for_lines(out, proc)  # a chunk is committed before its JSON lines are written
    os.killpg(proc.pid, signal.SIGKILL)  # no chance to write anything more
    proc.communicate(timeout=60)
    games, players = stored(db)
    assert 0 < len(games) < 60 and players == N * len(games)
    r = melee(*args, "--resume", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)  # only the missing ones played; the summary of all 60
    assert summary["games"] == 60 and summary["resumed"] == len(games)
    games, players = stored(db)
    assert games == list(range(60)) and players == N * 60  # none twice, none missing
    fresh = melee(*SLOW, "--games", "60", "--workers", "2", "--no-db", "--out", "f.jsonl",
                  "--json", cwd=tmp_path)  # fmt: skip
    assert fresh.returncode == 0, fresh.stderr
    whole_summary = json.loads(fresh.stdout)
    for key in ("games", "wins_by_seat", "draws", "capped", "turns_mean", "turns_median"):
        assert summary[key] == whole_summary[key], key
    assert "wins_by_team" not in summary and "wins_by_team" not in whole_summary  # (no teams)
    whole = [json.loads(x) for x in (tmp_path / "f.jsonl").read_text().splitlines()]
    assert outcomes(load_rows(db)) == outcomes(whole)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_the_batch_keeps_finished_games_and_prints_the_resume_command(
    tmp_path: Path, workers: int
) -> None:
    db, out = tmp_path / "i.duckdb", tmp_path / "i.jsonl"
    args = [*SLOW, "--games", "2000", "--workers", str(workers), "--db", str(db), "--out", str(out)]
    proc = start(args, tmp_path)
    wait_for_lines(out, proc)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group gets SIGINT
    _, err = proc.communicate(timeout=60)  # a hang fails here
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    games, players = stored(db)
    assert 0 < len(games) < 2000 and players == N * len(games)
    assert f"interrupted: {len(games)} finished games stored in {db}" in err
    resume = [line for line in err.splitlines() if line.startswith("resume with: ")]
    assert len(resume) == 1
    cmd = shlex.split(resume[0].removeprefix("resume with: "))
    assert cmd[:3] == [sys.executable, "-m", "ecs"]
    assert cmd[3:] == ["simulate", *args[1:], "--resume"]
    # the printed command goes on with the same batch (stopped again after a chunk)
    more = start(cmd[3:], tmp_path)
    before = out.stat().st_size
    while more.poll() is None and out.stat().st_size == before:
        time.sleep(0.05)
    os.killpg(more.pid, signal.SIGINT)
    _, err2 = more.communicate(timeout=60)
    assert more.returncode == 130, err2
    again, _ = stored(db)
    assert again[: len(games)] == games and len(again) > len(games)
    assert len(set(again)) == len(again)


def test_ctrl_c_stops_a_comparison_without_a_traceback(tmp_path: Path) -> None:
    examples = sorted((Path(__file__).resolve().parents[1] / "examples" / "compare").glob("*.yaml"))
    proc = start(["compare", *map(str, examples), "--games", "100000", "--workers", "1"], tmp_path)
    time.sleep(8)  # (loading the engine, then playing)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)  # a hang fails here
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err


def test_tally_summary_equals_the_summary_of_kept_rows() -> None:
    """simulate keeps no rows (memory flat in the games); its running tally must give
    the summary the rows give."""
    import numpy as np

    from ecs.decks import load_deck, stock_decks
    from ecs.simulate import Tally, run_batch, summarise

    decks = stock_decks()
    cfg = {
        "variant": "team-vs-team", "players": 4, "games": 7, "agents": ["random"],
        "decks": decks, "deck_cards": {d: load_deck(d).main for d in decks}, "seed": 8,
        "workers": 1, "range": None, "attack": None, "max_turns": 200, "mulligans": False,
        "teams": None,
    }  # fmt: skip
    tally = Tally(4)
    none, wall = run_batch(cfg, progress=False, keep_rows=False, on_row=tally.add)
    rows, _ = run_batch(cfg, progress=False)
    assert none == [] and len(rows) == 7
    assert tally.summary(wall, cfg) == summarise(rows, wall, cfg)
    s = tally.summary(wall, cfg)
    assert s["turns_median"] == float(np.median([r["turns"] for r in rows]))
    assert sum(s["wins_by_team"].values()) + s["draws"] == 7
    assert set(s["wins_by_team"]) <= {"team of seat 0", "team of seat 1"}
