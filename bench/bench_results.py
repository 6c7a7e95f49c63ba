"""The results store at engine speed (issue 18, item 1).

    python -m pytest bench/bench_results.py --benchmark-only

- ``test_store_absorbs_rows``: how many games a second the store can take from a
  synthetic producer (4-player rows, in the chunks ``melee simulate`` writes);
  target > 20,000 games/s, so the store costs under 10% of a batch while the
  engine plays under 2,000 games/s per process.
- ``test_batch_default_path_vs_no_db``: whole ``run_batch`` batches on the compiled
  engine, one worker, with the store (the default path) and without it
  (``--no-db``); ``extra_info["store_cost"]`` is the default path's slowdown.

games/s = games per round / mean seconds per round (``extra_info["games_per_s"]``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ecs.decks import load_deck, stock_decks
from ecs.results import ResultStore
from ecs.simulate import FLUSH_ROWS, run_batch

CHUNK = 1000  # games per transaction (a chunk of a 700 games/s batch is ~700 games)


def _row(k: int, n: int = 4) -> dict:
    w = k % (n + 1)
    return {
        "game": k, "seed": random.getrandbits(63), "variant": "free-for-all", "players": n,
        "range": None, "attack": "multiple", "decks": ["burn", "big-green", "white-fliers",
        "dimir-control"][:n], "agents": ["random"] * n, "winners": [w] if w < n else [],
        "losers": [s for s in range(n) if s != w], "drawn": [] if w < n else list(range(n)),
        "draw": w == n, "capped": False, "turns": 40, "actions": 300, "duration_s": 0.0015,
        "engine": "compiled",
    }  # fmt: skip


@pytest.mark.benchmark(group="results store")
@pytest.mark.parametrize("chunk", [CHUNK, FLUSH_ROWS])
def test_store_absorbs_rows(benchmark, per_second, tmp_path: Path, chunk: int) -> None:
    games = 20_000
    rows = [_row(k) for k in range(games)]
    runs = iter(range(100))

    def write() -> None:
        store = ResultStore(tmp_path / f"s{next(runs)}.duckdb")
        bid = store.start_batch({"seed": 1})
        for i in range(0, games, chunk):
            store.add_rows(bid, rows[i : i + chunk])
        store.close()

    benchmark.pedantic(write, rounds=3, iterations=1)
    benchmark.extra_info["games_per_round"] = games
    benchmark.extra_info["games_per_s"] = per_second(games)
    benchmark.extra_info["chunk"] = chunk


def _cfg(players: int, games: int, seed: int) -> dict:
    decks = stock_decks()
    return {
        "variant": "two-player" if players == 2 else "free-for-all", "players": players,
        "games": games, "agents": ["random"], "decks": decks,
        "deck_cards": {d: load_deck(d).main for d in decks}, "seed": seed, "workers": 1,
        "range": None, "attack": None, "max_turns": 200, "mulligans": False, "teams": None,
        "engine": "compiled",
    }  # fmt: skip


@pytest.mark.benchmark(group="default path vs --no-db")
@pytest.mark.parametrize("players", [2, 4], ids=["two-player", "ffa-4"])
@pytest.mark.parametrize("store", [True, False], ids=["default", "no-db"])
def test_batch_default_path_vs_no_db(
    benchmark, per_second, tmp_path: Path, players: int, store: bool
):
    games = 2000
    seeds = iter(range(100))

    def batch() -> None:
        s = ResultStore(tmp_path / f"r{next(seeds)}.duckdb") if store else None
        run_batch(_cfg(players, games, 1), progress=False, store=s, keep_rows=False)
        if s is not None:
            s.close()

    run_batch(_cfg(players, 8, 0), progress=False)  # the kernel loaded before timing
    benchmark.pedantic(batch, rounds=3, iterations=1)
    benchmark.extra_info["games_per_round"] = games
    benchmark.extra_info["games_per_s"] = per_second(games)
