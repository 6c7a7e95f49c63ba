"""The compiled engine's first run: a cold compile in a fresh cache directory and a
warm start from it, each in a fresh subprocess (``bench/compile_time.py`` does the
same for any set of compile levers and prints a table).

    python -m pytest bench/bench_compile.py --benchmark-only

One round each: a cold compile takes about 30 s on this machine.
"""

from __future__ import annotations

import pytest
from compile_time import compile_twice


@pytest.mark.benchmark(group="compiled first run")
def test_cold_and_warm_start(benchmark, tmp_path):
    result = benchmark.pedantic(
        lambda: compile_twice("all", str(tmp_path / "cache")), rounds=1, iterations=1
    )
    benchmark.extra_info.update(result)
    assert result["same_warm"] and result["functions"] > 0
