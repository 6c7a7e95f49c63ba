"""Every scenario under tests/scenarios runs as one test (the rules-conformance suite)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs.legacy.scenario import load_scenario, run_scenario

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(ROOT)) for f in FILES])
def test_scenario(path: Path) -> None:
    sc = load_scenario(path)
    failures = run_scenario(sc)
    if sc.game is not None:
        sc.game.close()
    assert not failures, "\n".join([sc.name, *failures])
