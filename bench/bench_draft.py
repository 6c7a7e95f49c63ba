"""An 8-player Conspiracy draft (905.1, ecs/draft.py) with random drafters, as
``melee draft`` runs it: seconds per draft, target under half a second.

    python -m pytest bench/bench_draft.py --benchmark-only
"""

from __future__ import annotations

import pytest

from ecs import draft as D
from ecs.cards import load_pool

TARGET_S = 0.5


@pytest.mark.benchmark(group="draft")
def test_eight_player_draft(benchmark) -> None:
    db = load_pool()
    cset = D.load_set("conspiracy")
    D.Draft(cset, 8, 0, db=db).run()  # (card facts cached)
    seeds = iter(range(1, 10_000))
    benchmark.pedantic(lambda: D.Draft(cset, 8, next(seeds), db=db).run(), rounds=5)
    if benchmark.stats:
        mean = benchmark.stats.stats.mean
        benchmark.extra_info["seconds"] = mean
        assert mean < TARGET_S, f"an 8-player draft takes {mean:.2f} s, target {TARGET_S}"
