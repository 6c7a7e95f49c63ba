"""Benchmarks for systems.range_of_influence (rule 801.2).

Run from the repo root:
    python -m pytest -p no:cacheprovider bench/bench_range_of_influence.py --benchmark-only -q

Targets: 1,000-seat single game < 1 ms warm; 4,096 four-seat games < 1 ms.
"""

from __future__ import annotations

import numpy as np
import pytest

from ecs.legacy.systems.range_of_influence import UNLIMITED, in_range_mask, in_range_mask_py


def table(G: int, P: int, reach: int, seed: int = 0):
    """G games of P seats in shuffled player order, ~90% of seats occupied."""
    rng = np.random.default_rng(seed)
    seat = np.argsort(rng.random((G, P)), axis=1).astype(np.int64)
    present = rng.random((G, P)) < 0.9
    present[:, 0] = True
    reaches = np.full((G, P), reach, np.int64)
    out = np.empty((G, P, P), dtype=np.bool_)
    return seat, present, reaches, out


@pytest.mark.benchmark(group="range 1000 seats")
@pytest.mark.parametrize("reach", [1, 2, UNLIMITED], ids=["r1", "r2", "unlimited"])
def test_numba_1000_seats(benchmark, reach):
    seat, present, reaches, out = table(1, 1000, reach)
    in_range_mask(seat, present, reaches, out)  # warm: compile or load the cache first
    benchmark(in_range_mask, seat, present, reaches, out)
    assert out[0].diagonal().sum() == present.sum()


@pytest.mark.benchmark(group="range 1000 seats")
@pytest.mark.parametrize("reach", [1, UNLIMITED], ids=["r1", "unlimited"])
def test_twin_1000_seats(benchmark, reach):
    seat, present, reaches, out = table(1, 1000, reach)
    benchmark.pedantic(in_range_mask_py, (seat, present, reaches, out), rounds=3, iterations=1)
    assert out[0].diagonal().sum() == present.sum()


@pytest.mark.benchmark(group="range 100 seats")
def test_numba_100_seats(benchmark):
    seat, present, reaches, out = table(1, 100, 2)
    in_range_mask(seat, present, reaches, out)
    benchmark(in_range_mask, seat, present, reaches, out)


@pytest.mark.benchmark(group="range 100 seats")
def test_twin_100_seats(benchmark):
    seat, present, reaches, out = table(1, 100, 2)
    benchmark(in_range_mask_py, seat, present, reaches, out)


@pytest.mark.benchmark(group="range batch of 4-seat games")
def test_numba_batch_4096x4(benchmark):
    seat, present, reaches, out = table(4096, 4, 1)
    in_range_mask(seat, present, reaches, out)
    benchmark(in_range_mask, seat, present, reaches, out)
    assert out.any(axis=(1, 2)).all()


@pytest.mark.benchmark(group="range batch of 4-seat games")
def test_twin_batch_256x4(benchmark):
    seat, present, reaches, out = table(256, 4, 1)
    benchmark(in_range_mask_py, seat, present, reaches, out)
