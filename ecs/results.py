"""The results store: one DuckDB file, rows written as games finish.

Why DuckDB: an embedded, single-file analytical database that users can query
with SQL straight away (``duckdb melee-results.duckdb``), read from pandas or
polars, and export to Parquet (``COPY games TO 'games.parquet'``); appending a
row per finished game is cheap and durable, so a batch killed midway keeps
every finished game and ``--resume`` can skip them.

Tables:
- ``batches(batch_id, config, created)``: one row per distinct batch config.
- ``games(batch_id, game, seed, variant, players, range, attack, teams, decks,
  agents, winners, losers, drawn, draw, capped, turns, actions, duration_s)``:
  seats are counted clockwise from the starting player (seat 0 took the first
  turn); list columns hold per-seat values.
- ``players(batch_id, game, seat, deck, agent, team, won, lost, drew)``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS batches (
        batch_id VARCHAR PRIMARY KEY, config VARCHAR, created TIMESTAMP DEFAULT current_timestamp)""",
    """CREATE TABLE IF NOT EXISTS games (
        batch_id VARCHAR, game INTEGER, seed UBIGINT, variant VARCHAR, players INTEGER,
        range INTEGER, attack VARCHAR, teams INTEGER[], decks VARCHAR[], agents VARCHAR[],
        winners INTEGER[], losers INTEGER[], drawn INTEGER[], draw BOOLEAN, capped BOOLEAN,
        turns INTEGER, actions INTEGER, duration_s DOUBLE, PRIMARY KEY (batch_id, game))""",
    """CREATE TABLE IF NOT EXISTS players (
        batch_id VARCHAR, game INTEGER, seat INTEGER, deck VARCHAR, agent VARCHAR,
        team INTEGER, won BOOLEAN, lost BOOLEAN, drew BOOLEAN)""",
]

CONFIG_KEYS = (
    "variant", "players", "games", "agents", "decks", "seed", "range", "attack",
    "max_turns", "mulligans", "teams", "team_turns", "engine",
)  # fmt: skip


def batch_id(cfg: dict[str, Any]) -> str:
    """Batches with the same configuration share an id (what --resume continues)."""
    key = json.dumps({k: cfg.get(k) for k in CONFIG_KEYS}, sort_keys=True)
    return hashlib.sha1(key.encode()).hexdigest()[:16]


class ResultStore:
    """Append-only writer/reader over a DuckDB file."""

    def __init__(self, path: str | Path, read_only: bool = False):
        import duckdb

        self.path = str(path)
        if not read_only:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.con = duckdb.connect(self.path, read_only=read_only)
        if not read_only:
            for stmt in SCHEMA:
                self.con.execute(stmt)

    def start_batch(self, cfg: dict[str, Any], resume: bool = True) -> str:
        """Register the batch; unless resuming, a re-run replaces its earlier rows."""
        bid = batch_id(cfg)
        if not resume:
            self.con.execute("DELETE FROM games WHERE batch_id = ?", [bid])
            self.con.execute("DELETE FROM players WHERE batch_id = ?", [bid])
        config = json.dumps({k: cfg.get(k) for k in CONFIG_KEYS}, sort_keys=True)
        self.con.execute(
            "INSERT INTO batches (batch_id, config) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [bid, config],
        )
        return bid

    def done_games(self, bid: str) -> set[int]:
        rows = self.con.execute("SELECT game FROM games WHERE batch_id = ?", [bid]).fetchall()
        return {r[0] for r in rows}

    def add(self, bid: str, row: dict[str, Any]) -> None:
        """Write one finished game (and its players) in one transaction."""
        n = row["players"]
        teams = row.get("teams") or list(range(n))
        self.con.execute("BEGIN TRANSACTION")
        self.con.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                bid, row["game"], row["seed"], row["variant"], n, row["range"], row["attack"],
                teams, row["decks"], row["agents"], row["winners"], row["losers"],
                row["drawn"], row["draw"], row["capped"], row["turns"], row["actions"],
                row["duration_s"],
            ],
        )  # fmt: skip
        self.con.executemany(
            "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                [
                    bid, row["game"], s, row["decks"][s], row["agents"][s], teams[s],
                    s in row["winners"], s in row["losers"], s in row["drawn"],
                ]
                for s in range(n)
            ],
        )  # fmt: skip
        self.con.execute("COMMIT")

    def games(self, bid: str | None = None) -> list[dict[str, Any]]:
        q = (
            "SELECT * FROM games"
            + (" WHERE batch_id = ?" if bid else "")
            + " ORDER BY batch_id, game"
        )
        cur = self.con.execute(q, [bid] if bid else [])
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]

    def batches(self) -> list[dict[str, Any]]:
        cur = self.con.execute("SELECT batch_id, config, created FROM batches ORDER BY created")
        return [
            {"batch_id": b, "config": json.loads(c), "created": t} for b, c, t in cur.fetchall()
        ]

    def close(self) -> None:
        self.con.close()


def load_rows(path: str | Path) -> list[dict[str, Any]]:
    """Game rows from a DuckDB store or a JSON-lines file (``simulate --out x.jsonl``)."""
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"{path}: no such results file")
    if p.suffix in (".jsonl", ".json"):
        rows = []
        for k, line in enumerate(p.read_text().splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{k}: not a JSON line ({e.msg})") from None
        return rows
    store = ResultStore(p, read_only=True)
    try:
        return store.games()
    finally:
        store.close()
