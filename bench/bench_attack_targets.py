"""Benchmarks for systems.attack_targets (rules 801.3, 802, 803, 809.3c, 811.4).

Run from the repo root:
    python -m pytest -p no:cacheprovider bench/bench_attack_targets.py --benchmark-only -q

Targets: 1,000-seat single game < 1 ms warm; 4,096 four-seat games < 1 ms.
"""

from __future__ import annotations

import numpy as np
import pytest

from ecs.legacy.systems.attack_targets import (
    ATTACK_LEFT,
    ATTACK_MULTIPLE,
    attack_target_mask,
    attack_target_mask_py,
)
from ecs.legacy.systems.range_of_influence import UNLIMITED, range_mask

MODES = {
    "multiple": (ATTACK_MULTIPLE, False),
    "left": (ATTACK_LEFT, False),
    "adjacent": (ATTACK_MULTIPLE, True),
}


def game(G: int, P: int, mode: int, adjacent_only: bool, reach: int = UNLIMITED, seed: int = 0):
    """G games of P seats: ~90% seated, ~90% of those alive, free-for-all teams."""
    rng = np.random.default_rng(seed)
    seat = np.argsort(rng.random((G, P)), axis=1).astype(np.int64)
    present = rng.random((G, P)) < 0.9
    alive = present & (rng.random((G, P)) < 0.9)
    team = np.tile(np.arange(P, dtype=np.int64), (G, 1))
    in_range = range_mask(seat, present, np.full((G, P), reach, np.int64))
    modes = np.full(G, mode, np.int64)
    adjacent = np.full(G, adjacent_only, np.bool_)
    out = np.empty((G, P, P), dtype=np.bool_)
    return (in_range, seat, present, alive, team, modes, adjacent, out)


@pytest.mark.benchmark(group="attack 1000 seats")
@pytest.mark.parametrize("option", sorted(MODES))
def test_numba_1000_seats(benchmark, option):
    args = game(1, 1000, *MODES[option])
    attack_target_mask(*args)  # warm: compile or load the cache first
    benchmark(attack_target_mask, *args)
    assert args[-1].any()


@pytest.mark.benchmark(group="attack 1000 seats")
@pytest.mark.parametrize("option", ["multiple", "left"])
def test_twin_1000_seats(benchmark, option):
    args = game(1, 1000, *MODES[option])
    benchmark.pedantic(attack_target_mask_py, args, rounds=3, iterations=1)
    assert args[-1].any()


@pytest.mark.benchmark(group="attack 100 seats")
def test_numba_100_seats(benchmark):
    args = game(1, 100, ATTACK_MULTIPLE, False, reach=2)
    attack_target_mask(*args)
    benchmark(attack_target_mask, *args)


@pytest.mark.benchmark(group="attack 100 seats")
def test_twin_100_seats(benchmark):
    args = game(1, 100, ATTACK_MULTIPLE, False, reach=2)
    benchmark(attack_target_mask_py, *args)


def mixed_batch(G: int):
    """G four-seat games with every option mixed in."""
    args = list(game(G, 4, ATTACK_MULTIPLE, False))
    rng = np.random.default_rng(1)
    args[5] = rng.integers(0, 3, size=G).astype(np.int64)
    args[6] = rng.random(G) < 0.3
    return tuple(args)


@pytest.mark.benchmark(group="attack batch of 4-seat games")
def test_numba_batch_4096x4(benchmark):
    args = mixed_batch(4096)
    attack_target_mask(*args)
    benchmark(attack_target_mask, *args)
    assert args[-1].any(axis=(1, 2)).mean() > 0.5


@pytest.mark.benchmark(group="attack batch of 4-seat games")
def test_twin_batch_256x4(benchmark):
    args = mixed_batch(256)
    benchmark(attack_target_mask_py, *args)
