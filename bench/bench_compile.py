"""The compiled engine's first run: a cold compile in a fresh cache directory and a
warm start from it, each in a fresh subprocess (``bench/compile_time.py`` does the
same for any set of compile levers and prints a table).

    python -m pytest bench/bench_compile.py --benchmark-only

One round each: a cold compile takes about two minutes on this machine (126 s on
2026-11-28), against issue 18's target of 60 s, asserted here.
"""

from __future__ import annotations

import pytest
from compile_time import compile_twice

COLD_START_TARGET_S = 60  # issue 18: the first run after installing, on this 2-core machine


@pytest.mark.benchmark(group="compiled first run")
def test_cold_and_warm_start(benchmark, tmp_path):
    result = benchmark.pedantic(
        lambda: compile_twice("all", str(tmp_path / "cache")), rounds=1, iterations=1
    )
    benchmark.extra_info.update(result)
    assert result["same_warm"] and result["functions"] > 0
    cold = result["cold_s"]
    assert cold <= COLD_START_TARGET_S, f"cold compile {cold:.0f} s, target {COLD_START_TARGET_S}"
