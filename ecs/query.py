"""``melee query "SQL" [--db FILE]``: run SQL on the results store, print a table.

The store is opened read-only (nothing in it can change); tables ``batches``,
``games`` and ``players`` (see ``ecs/results.py``). ``--limit`` bounds the rows
printed (the query itself runs in full), ``--csv``/``--json`` print machine-readable
rows instead of a table. Examples::

    melee query "select variant, count(*) as games, avg(turns) from games group by variant"
    melee query "select deck, avg(won::int) as win_rate from players group by deck order by 2 desc"
    melee query "copy games to 'games.parquet'"       # export (writes the Parquet file only)
"""

from __future__ import annotations

import argparse
import csv
import datetime
import decimal
import json
import sys
from pathlib import Path
from typing import Any

from ecs.checks import int_arg

DEFAULT_LIMIT = 100


def add_arguments(ap: argparse.ArgumentParser) -> None:
    from ecs.simulate import DEFAULT_DB

    ap.add_argument("sql", metavar="SQL", help="the query (tables: batches, games, players)")
    ap.add_argument("--db", default=DEFAULT_DB, metavar="FILE.duckdb", help="results store")
    ap.add_argument(
        "--limit", type=int_arg(0, 10**9), default=DEFAULT_LIMIT, metavar="N",
        help="print at most N rows (0: all)",
    )  # fmt: skip
    fmt = ap.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    fmt.add_argument("--json", action="store_true", help="print one JSON object per row")


def run(db: str, sql: str, limit: int) -> tuple[list[str], list[tuple], bool]:
    """Column names, up to ``limit`` rows (0: all) and whether more rows were left out."""
    import duckdb

    from ecs.results import ResultStore

    store = ResultStore(db, read_only=True)
    try:
        try:
            cur = store.con.execute(sql)
        except duckdb.Error as e:
            raise QueryError(" ".join(str(e).split())) from None
        if cur is None:  # (an empty or comment-only text)
            raise QueryError("no SQL statement to run, e.g. 'select * from games limit 5'")
        if cur.description is None:
            return [], [], False
        cols = [d[0] for d in cur.description]
        rows = cur.fetchmany(limit + 1) if limit else cur.fetchall()
    finally:
        store.close()
    more = bool(limit) and len(rows) > limit
    return cols, rows[:limit] if limit else rows, more


class QueryError(Exception):
    """The SQL was refused (a syntax error, a write on the read-only store, ...)."""


def _plain(v: Any) -> Any:
    if isinstance(v, (datetime.date, datetime.datetime, datetime.time, decimal.Decimal)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def _cell(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(_plain(v))


def main(args: argparse.Namespace) -> int:
    from ecs.results import StoreError

    if not Path(args.db).is_file():
        print(f"melee query: error: --db {args.db}: no such results file", file=sys.stderr)
        return 2
    try:
        cols, rows, more = run(args.db, args.sql, args.limit)
    except StoreError as e:
        print(f"melee query: error: --db {e}", file=sys.stderr)
        return 2
    except QueryError as e:
        print(f"melee query: error: SQL: {e}", file=sys.stderr)
        return 2
    if args.json:
        for r in rows:
            print(json.dumps(dict(zip(cols, map(_plain, r)))))
    elif args.csv:
        w = csv.writer(sys.stdout)
        w.writerow(cols)
        w.writerows([[_cell(v) for v in r] for r in rows])
    elif cols:
        from rich.console import Console
        from rich.table import Table

        t = Table()
        for c in cols:
            t.add_column(c, overflow="fold")
        cells = [[_cell(v) for v in r] for r in rows]
        for r in cells:
            t.add_row(*r)
        width = None  # a terminal's width; piped or redirected: as wide as the table
        if not sys.stdout.isatty():
            widths = [max([len(c), *(len(r[k]) for r in cells)]) for k, c in enumerate(cols)]
            width = max(80, min(4000, sum(widths) + 3 * len(cols) + 1))
        Console(soft_wrap=True, width=width).print(t)
    if more and not args.json and not args.csv:
        print(f"(first {args.limit} rows; --limit 0 prints all)", file=sys.stderr)
    return 0
