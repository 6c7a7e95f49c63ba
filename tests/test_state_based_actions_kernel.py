"""The SBA kernel and its plain-Python twin agree (OpenSpiel-style consistency test)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs.legacy.systems.state_based_actions import (
    DIE_DESTROY,
    DIE_LOYALTY,
    DIE_NONE,
    DIE_TOUGHNESS,
    sba_kernel,
    sba_kernel_py,
)


def _tables(seed: int, G: int, N: int, P: int):
    r = np.random.default_rng(seed)
    cols = dict(
        zone=r.integers(0, 8, (G, N)).astype(np.int8),
        types=r.choice([1, 2, 4, 6, 16, 2 | 16], (G, N)).astype(np.int64),
        toughness=r.integers(-2, 6, (G, N)).astype(np.int32),
        damage=r.integers(0, 6, (G, N)).astype(np.int32),
        deathtouch=r.random((G, N)) < 0.2,
        counters=r.integers(0, 3, (G, N, 4)).astype(np.int32),
        alive=r.random((G, P)) < 0.8,
        life=r.integers(-3, 25, (G, P)).astype(np.int32),
        poison=r.integers(0, 12, (G, P)).astype(np.int32),
        drew_empty=r.random((G, P)) < 0.1,
        zero_life_ok=r.random((G, P)) < 0.2,
        poison_limit=r.choice([10, 15], G).astype(np.int64),
    )
    return cols


def _extra(seed: int, G: int, N: int, C: int = 20):
    r = np.random.default_rng(seed + 1)
    return (
        r.integers(-1, C, (G, N)).astype(np.int32),
        r.random((G, N)) < 0.1,
        r.random(C) < 0.2,
    )


def _run(fn, cols, G, N, P, extra=None):
    dies = np.zeros((G, N), np.int8)
    ann = np.zeros((G, N), np.int32)
    loses = np.zeros((G, P), np.bool_)
    work = np.zeros(G, np.int64)
    if extra is None:
        extra = (np.full((G, N), -1, np.int32), np.zeros((G, N), bool), np.zeros(1, bool))
    fn(*cols.values(), dies, ann, loses, *extra, work)
    return dies, ann, loses, work


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    G=st.integers(1, 8),
    N=st.integers(0, 300),
    P=st.integers(2, 40),
)
def test_kernel_matches_twin(seed: int, G: int, N: int, P: int) -> None:
    cols = _tables(seed, G, N, P)
    ex = _extra(seed, G, N)
    for a, b in zip(_run(sba_kernel, cols, G, N, P, ex), _run(sba_kernel_py, cols, G, N, P, ex)):
        np.testing.assert_array_equal(a, b)


def _one(**kw):
    base = dict(
        zone=np.array([[2]], np.int8),
        types=np.array([[2]], np.int64),
        toughness=np.array([[2]], np.int32),
        damage=np.array([[0]], np.int32),
        deathtouch=np.array([[False]]),
        counters=np.zeros((1, 1, 4), np.int32),
        alive=np.array([[True, True]]),
        life=np.array([[20, 20]], np.int32),
        poison=np.array([[0, 0]], np.int32),
        drew_empty=np.array([[False, False]]),
        zero_life_ok=np.array([[False, False]]),
        poison_limit=np.array([10], np.int64),
    )
    base.update(kw)
    return base


def test_rule_cases() -> None:
    """704.5f toughness 0, 704.5g lethal damage, 704.5h deathtouch, 704.5i loyalty, 704.5a/c."""
    for fn in (sba_kernel, sba_kernel_py):
        d, _, _, _ = _run(fn, _one(toughness=np.array([[0]], np.int32)), 1, 1, 2)
        assert d[0, 0] == DIE_TOUGHNESS
        d, _, _, _ = _run(fn, _one(damage=np.array([[2]], np.int32)), 1, 1, 2)
        assert d[0, 0] == DIE_DESTROY
        d, _, _, _ = _run(fn, _one(damage=np.array([[1]], np.int32)), 1, 1, 2)
        assert d[0, 0] == DIE_NONE
        d, _, _, _ = _run(
            fn, _one(damage=np.array([[1]], np.int32), deathtouch=np.array([[True]])), 1, 1, 2
        )
        assert d[0, 0] == DIE_DESTROY
        d, _, _, _ = _run(fn, _one(types=np.array([[16]], np.int64)), 1, 1, 2)
        assert d[0, 0] == DIE_LOYALTY
        c = np.zeros((1, 1, 4), np.int32)
        c[0, 0, :2] = (2, 3)
        _, a, _, _ = _run(fn, _one(counters=c), 1, 1, 2)
        assert a[0, 0] == 2  # 704.5q
        _, _, lose, _ = _run(fn, _one(life=np.array([[0, 20]], np.int32)), 1, 1, 2)
        assert lose.tolist() == [[True, False]]
        _, _, lose, _ = _run(
            fn,
            _one(life=np.array([[0, 20]], np.int32), zero_life_ok=np.array([[True, False]])),
            1,
            1,
            2,
        )
        assert lose.tolist() == [[False, False]]  # Transcendence
        _, _, lose, _ = _run(fn, _one(poison=np.array([[9, 10]], np.int32)), 1, 1, 2)
        assert lose.tolist() == [[False, True]]
        _, _, lose, _ = _run(
            fn, _one(poison=np.array([[14, 15]], np.int32), poison_limit=np.array([15])), 1, 1, 2
        )
        assert lose.tolist() == [[False, True]]  # 810.10: team poison threshold is a column
