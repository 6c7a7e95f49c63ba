"""Batches of the casual variants as users run them (issues 13 and 14): ``melee simulate
--casual NAME``'s default path (the results store on, one worker, random agents, 4
players; Commander with the six stock Commander decks, the others with the stock decks
and command-zone cards drawn from the batch seed), games/s, target 200 each; and
Commander with Planechase, which has no target of its own.

    python -m pytest bench/bench_casual.py --benchmark-only
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from ecs import simulate as S
from ecs.results import ResultStore

GAMES = 400
TARGET = 200
CASES = [
    "commander",
    "planechase",
    "vanguard",
    "archenemy",
    "supervillain-rumble",
    "commander,planechase",
]  # (the last: a combination, no target of its own)


def cfg(casual: str, games: int, seed: int) -> dict:
    ap = argparse.ArgumentParser()
    S.add_arguments(ap)
    args = ap.parse_args(["--casual", casual, "--games", str(games), "--seed", str(seed),
                          "--workers", "1", "--no-db"])  # fmt: skip
    return S.check_args(args)


@pytest.mark.benchmark(group="casual batches (default path: results store on, 1 worker)")
@pytest.mark.parametrize("casual", CASES)
def test_casual_batch_default_path(benchmark, per_second, tmp_path: Path, casual: str) -> None:
    S.run_batch(cfg(casual, 2, 0), progress=False)  # load the engine
    seeds = iter(range(1, 1000))

    def one() -> int:
        store = ResultStore(tmp_path / f"{casual}-{next(seeds)}.duckdb")
        try:
            rows, _ = S.run_batch(cfg(casual, GAMES, 1), progress=False, store=store,
                                  keep_rows=False)  # fmt: skip
        finally:
            store.close()
        return len(rows)

    benchmark.pedantic(one, rounds=3, iterations=1)
    rate = per_second(GAMES)
    benchmark.extra_info["games_per_s"] = rate
    if "," in casual:
        return
    benchmark.extra_info["target"] = TARGET
    if rate is not None:
        assert rate >= TARGET, f"{casual}: {rate:.0f} games/s, target {TARGET}"
