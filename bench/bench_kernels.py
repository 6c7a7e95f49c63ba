"""The state-based-action and priority pre-check kernels beside their Python twins.

python -m pytest bench/bench_kernels.py --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest

from ecs.legacy.systems.priority_precheck import can_act_kernel, can_act_kernel_py
from ecs.legacy.systems.state_based_actions import sba_kernel, sba_kernel_py


def sba_tables(G: int, N: int, P: int):
    r = np.random.default_rng(0)
    return (
        r.integers(0, 8, (G, N)).astype(np.int8),
        r.choice([1, 2, 4, 16], (G, N)).astype(np.int64),
        r.integers(0, 6, (G, N)).astype(np.int32),
        r.integers(0, 6, (G, N)).astype(np.int32),
        r.random((G, N)) < 0.1,
        r.integers(0, 3, (G, N, 4)).astype(np.int32),
        np.ones((G, P), bool),
        r.integers(-2, 20, (G, P)).astype(np.int32),
        r.integers(0, 11, (G, P)).astype(np.int32),
        np.zeros((G, P), bool),
        np.zeros((G, P), bool),
        np.full(G, 10, np.int64),
        np.zeros((G, N), np.int8),
        np.zeros((G, N), np.int32),
        np.zeros((G, P), bool),
        r.integers(-1, 40, (G, N)).astype(np.int32),
        r.random((G, N)) < 0.05,
        r.random(40) < 0.1,
        np.zeros(G, np.int64),
    )


@pytest.mark.benchmark(group="sba")
@pytest.mark.parametrize("G", [1, 4096])
def test_sba_numba(benchmark, G):
    t = sba_tables(G, 256, 4)
    sba_kernel(*t)
    benchmark(sba_kernel, *t)


@pytest.mark.benchmark(group="sba")
@pytest.mark.parametrize("G", [1, 64])
def test_sba_twin(benchmark, G):
    t = sba_tables(G, 256, 4)
    benchmark.pedantic(sba_kernel_py, t, rounds=3, iterations=1)


def precheck_tables(G: int, N: int, P: int, C: int = 50):
    r = np.random.default_rng(0)
    return (
        r.integers(0, 4, (G, N)).astype(np.int8),
        r.integers(0, P, (G, N)).astype(np.int16),
        r.integers(0, P, (G, N)).astype(np.int16),
        r.integers(-1, C, (G, N)).astype(np.int32),
        r.random((G, N)) < 0.3,
        r.choice([1, 2, 32, 64], C).astype(np.int64),
        r.random(C) < 0.3,
        np.c_[r.integers(1, 6, C), np.zeros((C, 6), np.int64)].astype(np.int64),
        r.integers(-1, 5, C).astype(np.int64),
        r.random(C) < 0.1,
        r.random(C) < 0.05,
        np.zeros((G, P, 6), np.int32),
        np.zeros((G, P), np.int32),
        np.eye(P, dtype=bool)[np.zeros(G, np.int64)],
        np.zeros((G, P), bool),
    )


@pytest.mark.benchmark(group="precheck")
@pytest.mark.parametrize("G", [1, 4096])
def test_precheck_numba(benchmark, G):
    t = precheck_tables(G, 256, 4)
    can_act_kernel(*t)
    benchmark(can_act_kernel, *t)


@pytest.mark.benchmark(group="precheck")
@pytest.mark.parametrize("G", [1, 64])
def test_precheck_twin(benchmark, G):
    t = precheck_tables(G, 256, 4)
    benchmark.pedantic(can_act_kernel_py, t, rounds=3, iterations=1)
