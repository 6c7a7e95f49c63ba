"""The results store: one DuckDB file, rows written a chunk of games at a time.

Why DuckDB: an embedded, single-file analytical database that users query with
SQL straight away (``melee query "select * from games"``), read from pandas or
polars, and export to Parquet (``COPY games TO 'games.parquet'``).

How rows get there: the batch's parent process is the only writer. It gathers
finished games and writes them with :meth:`ResultStore.add_rows`, one
transaction per chunk, as Arrow tables (one bulk insert per table, not one
statement per row). A batch killed midway keeps every committed chunk, and
``--resume`` plays exactly the games that are not stored: ``(batch_id, game)``
is the key of ``games``, and a game's ``players`` rows are committed in the
same transaction as its ``games`` row.

Tables:
- ``batches(batch_id, config, created)``: one row per distinct batch config.
- ``games(batch_id, game, seed, variant, players, range, attack, teams, decks,
  agents, winners, losers, drawn, draw, capped, turns, actions, duration_s,
  engine, roles, how)``: seats are counted clockwise from the starting player (seat 0
  took the first turn); list columns hold per-seat values.
- ``players(batch_id, game, seat, deck, agent, team, won, lost, drew, role, how)``:
  ``how`` is how the player's game ended (life, poison, decking, commander-damage,
  conceded, effect, draw, won, team: left with their team).

A DuckDB file has one writer at a time: opening one that another process holds
raises :class:`StoreError` with a one-line message (who holds it), not DuckDB's
IOException.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
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
    # added later: files written by earlier versions get the columns (NULL for old rows)
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS engine VARCHAR",
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS roles VARCHAR[]",
    "ALTER TABLE players ADD COLUMN IF NOT EXISTS role VARCHAR",
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS how VARCHAR[]",
    "ALTER TABLE players ADD COLUMN IF NOT EXISTS how VARCHAR",
]

CONFIG_KEYS = (
    "variant", "players", "games", "agents", "decks", "seed", "range", "attack",
    "max_turns", "mulligans", "teams", "team_turns", "engine",
)  # fmt: skip

GAME_COLUMNS = (
    "batch_id", "game", "seed", "variant", "players", "range", "attack", "teams", "decks",
    "agents", "winners", "losers", "drawn", "draw", "capped", "turns", "actions", "duration_s",
    "engine", "roles", "how",
)  # fmt: skip
PLAYER_COLUMNS = (
    "batch_id", "game", "seat", "deck", "agent", "team", "won", "lost", "drew", "role", "how",
)  # fmt: skip


class StoreError(Exception):
    """The results file can't be opened (locked by another writer, not a DuckDB file...);
    the message is one line naming the file."""


def batch_id(cfg: dict[str, Any]) -> str:
    """Batches with the same configuration share an id (what --resume continues)."""
    key = json.dumps({k: cfg.get(k) for k in CONFIG_KEYS}, sort_keys=True)
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def _connect(path: str, read_only: bool):
    import duckdb

    try:
        return duckdb.connect(path, read_only=read_only)
    except duckdb.IOException as e:
        msg = str(e)
        if "lock" in msg.lower():
            pid = re.search(r"\(PID (\d+)\)", msg)
            who = f" (process {pid.group(1)})" if pid else ""
            raise StoreError(
                f"{path}: the results file is in use by another process{who}; "
                "wait for it to finish, or choose another file"
            ) from None
        raise StoreError(f"{path}: not a results file ({msg.splitlines()[0]})") from None
    except duckdb.Error as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise StoreError(f"{path}: not a results file ({first})") from None


class ResultStore:
    """Append-only writer/reader over a DuckDB file.

    The file's folder must exist (nothing is created but the file itself); a file
    another process writes raises :class:`StoreError`.
    """

    def __init__(self, path: str | Path, read_only: bool = False):
        self.path = str(path)
        parent = Path(self.path).parent
        if not read_only and not parent.is_dir():
            raise StoreError(f"{self.path}: the folder {str(parent)!r} does not exist")
        self.con = _connect(self.path, read_only)
        if not read_only:
            for stmt in SCHEMA:
                self.con.execute(stmt)

    def start_batch(self, cfg: dict[str, Any], resume: bool = True) -> str:
        """Register the batch; unless resuming, a re-run replaces its earlier rows."""
        bid = batch_id(cfg)
        config = json.dumps({k: cfg.get(k) for k in CONFIG_KEYS}, sort_keys=True)
        self.con.execute("BEGIN TRANSACTION")
        if not resume:
            self.con.execute("DELETE FROM games WHERE batch_id = ?", [bid])
            self.con.execute("DELETE FROM players WHERE batch_id = ?", [bid])
        self.con.execute(
            "INSERT INTO batches (batch_id, config) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [bid, config],
        )
        self.con.execute("COMMIT")
        return bid

    def done_games(self, bid: str, first: int = 0, stop: int | None = None) -> set[int]:
        """The stored games of batch ``bid`` (those in ``first .. stop - 1`` if given)."""
        q = "SELECT game FROM games WHERE batch_id = ? AND game >= ?"
        params: list[Any] = [bid, first]
        if stop is not None:
            q += " AND game < ?"
            params.append(stop)
        return {r[0] for r in self.con.execute(q, params).fetchall()}

    def count_games(self, bid: str) -> int:
        """How many games of batch ``bid`` are stored."""
        return self.con.execute("SELECT count(*) FROM games WHERE batch_id = ?", [bid]).fetchone()[
            0
        ]

    def add(self, bid: str, row: dict[str, Any]) -> None:
        """Write one finished game (and its players) in one transaction."""
        self.add_rows(bid, [row])

    def add_rows(self, bid: str, rows: Sequence[dict[str, Any]]) -> None:
        """Write finished games and their players in one transaction (two bulk inserts)."""
        if not rows:
            return
        games, players = arrow_tables(bid, rows)
        con = self.con
        con.register("_melee_games", games)
        con.register("_melee_players", players)
        try:
            con.execute("BEGIN TRANSACTION")
            try:
                con.execute(
                    f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
                    f"SELECT {', '.join(GAME_COLUMNS)} FROM _melee_games"
                )
                con.execute(
                    f"INSERT INTO players ({', '.join(PLAYER_COLUMNS)}) "
                    f"SELECT {', '.join(PLAYER_COLUMNS)} FROM _melee_players"
                )
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
        finally:
            con.unregister("_melee_games")
            con.unregister("_melee_players")

    def games(self, bid: str | None = None) -> list[dict[str, Any]]:
        return list(self.iter_games(bid))

    def iter_games(self, bid: str | None = None, size: int = 10_000) -> Iterator[dict[str, Any]]:
        """Game rows in (batch, game) order, fetched ``size`` at a time; each row also
        has ``batch_seed``, the seed of its batch (``melee simulate --seed``)."""
        q = (
            "SELECT g.*, b.config AS batch_config FROM games g "
            "LEFT JOIN batches b USING (batch_id)"
            + (" WHERE batch_id = ?" if bid else "")
            + " ORDER BY batch_id, game"
        )
        cur = self.con.execute(q, [bid] if bid else [])
        cols = [d[0] for d in cur.description]
        while chunk := cur.fetchmany(size):
            for r in chunk:
                row = dict(zip(cols, r))
                config = row.pop("batch_config")
                row["batch_seed"] = json.loads(config).get("seed") if config else None
                yield row

    def batches(self) -> list[dict[str, Any]]:
        cur = self.con.execute("SELECT batch_id, config, created FROM batches ORDER BY created")
        return [
            {"batch_id": b, "config": json.loads(c), "created": t} for b, c, t in cur.fetchall()
        ]

    def close(self) -> None:
        self.con.close()


def arrow_tables(bid: str, rows: Sequence[dict[str, Any]]):
    """The ``games`` and ``players`` rows of finished games as two Arrow tables."""
    import pyarrow as pa

    n_games = len(rows)
    g: dict[str, list] = {c: [] for c in GAME_COLUMNS}
    p: dict[str, list] = {c: [] for c in PLAYER_COLUMNS}
    for row in rows:
        n = row["players"]
        teams = row.get("teams") or list(range(n))
        roles = row.get("roles")
        game = row["game"]
        for c in GAME_COLUMNS[1:]:
            g[c].append(row.get(c))
        g["teams"][-1] = teams
        winners, losers, drawn = set(row["winners"]), set(row["losers"]), set(row["drawn"])
        p["game"] += [game] * n
        p["seat"] += range(n)
        p["deck"] += row["decks"]
        p["agent"] += row["agents"]
        p["team"] += teams
        p["won"] += [s in winners for s in range(n)]
        p["lost"] += [s in losers for s in range(n)]
        p["drew"] += [s in drawn for s in range(n)]
        p["role"] += roles if roles else [None] * n
        p["how"] += row.get("how") or [None] * n
    g["batch_id"] = [bid] * n_games
    p["batch_id"] = [bid] * len(p["game"])
    ints, strs, bools = pa.list_(pa.int32()), pa.list_(pa.string()), pa.bool_()
    gtypes = {
        "batch_id": pa.string(), "game": pa.int32(), "seed": pa.uint64(),
        "variant": pa.string(), "players": pa.int32(), "range": pa.int32(),
        "attack": pa.string(), "teams": ints, "decks": strs, "agents": strs, "winners": ints,
        "losers": ints, "drawn": ints, "draw": bools, "capped": bools, "turns": pa.int32(),
        "actions": pa.int32(), "duration_s": pa.float64(), "engine": pa.string(), "roles": strs, "how": strs,
    }  # fmt: skip
    ptypes = {
        "batch_id": pa.string(), "game": pa.int32(), "seat": pa.int32(), "deck": pa.string(),
        "agent": pa.string(), "team": pa.int32(), "won": bools, "lost": bools, "drew": bools,
        "role": pa.string(), "how": pa.string(),
    }  # fmt: skip
    games = pa.table({c: pa.array(g[c], type=gtypes[c]) for c in GAME_COLUMNS})
    players = pa.table({c: pa.array(p[c], type=ptypes[c]) for c in PLAYER_COLUMNS})
    return games, players


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
