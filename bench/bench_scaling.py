"""Throughput scaling: the same 40-game batch on 1 and on 2 worker processes.

    python -m pytest bench/bench_scaling.py --benchmark-only

``extra_info.games_per_s`` of each run; the README reports the ratio.
"""

from __future__ import annotations

import pytest

from ecs.decks import load_deck, stock_decks
from ecs.simulate import run_batch

GAMES = 40


def cfg(workers: int) -> dict:
    decks = stock_decks()
    return {
        "variant": "free-for-all", "players": 4, "games": GAMES, "agents": ["random"],
        "decks": decks, "deck_cards": {d: load_deck(d).main for d in decks}, "seed": 1,
        "workers": workers, "range": None, "attack": "multiple", "max_turns": 200,
        "mulligans": False, "teams": None,
    }  # fmt: skip


@pytest.mark.benchmark(group="scaling")
@pytest.mark.parametrize("workers", [1, 2])
def test_batch_workers(benchmark, per_second, workers):
    run_batch(cfg(1) | {"games": 1}, progress=False)  # warm the numba caches
    rows, _ = benchmark.pedantic(lambda: run_batch(cfg(workers), progress=False), rounds=2)
    benchmark.extra_info["games_per_s"] = per_second(GAMES)
    assert len(rows) == GAMES
