import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest  # noqa: E402


@pytest.fixture
def per_second(benchmark):
    """``n`` per mean round time (games/s), or None under ``--benchmark-disable`` (each
    benchmark then runs once, untimed: how ``tests/test_readme.py`` runs them)."""
    return lambda n: n / benchmark.stats.stats.mean if benchmark.stats else None
