"""The base-layers kernel agrees with its twin (613: copiable values, base control, counters)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ecs.legacy.systems.continuous_effects import base_layers, base_layers_py


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), G=st.integers(1, 5), N=st.integers(0, 300))
def test_base_layers_kernel_matches_twin(seed: int, G: int, N: int) -> None:
    r = np.random.default_rng(seed)
    C = 30
    ins = (
        r.integers(-1, C, (G, N)).astype(np.int32),
        r.integers(0, 8, (G, N)).astype(np.int8),
        r.integers(0, 4, (G, N)).astype(np.int16),
        r.integers(0, 3, (G, N, 4)).astype(np.int32),
        r.integers(0, 2**17, C).astype(np.int64),
        r.integers(0, 8, C).astype(np.int64),
        r.integers(0, 8, C).astype(np.int64),
        r.random(C) < 0.2,
        r.integers(1, 256, C).astype(np.int64),
    )

    def run(fn):
        outs = (
            np.zeros((G, N), np.int16),
            np.zeros((G, N), np.int64),
            np.zeros((G, N), np.int32),
            np.zeros((G, N), np.int32),
            np.ones((G, N), np.int8),
            np.zeros(G, np.int64),
            np.zeros((G, N), np.int64),
        )
        fn(*ins, *outs)
        return outs

    for a, b in zip(run(base_layers), run(base_layers_py)):
        np.testing.assert_array_equal(a, b)
    # counters: a +1/+1 counter on a 2/2 makes it 3/3 (613.4c)
    out = run(base_layers)
    card, counters = ins[0], ins[3]
    for g in range(G):
        for i in range(N):
            if card[g, i] >= 0:
                d = counters[g, i, 0] - counters[g, i, 1]
                assert out[2][g, i] == ins[5][card[g, i]] + d
