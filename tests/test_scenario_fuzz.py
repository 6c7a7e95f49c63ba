"""Files we never see will be run against the runner: mutated scenario files must be
reported as invalid (ScenarioError, exit 2) or run to PASS/FAIL, never crash, and never
hit an engine error."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from ecs.legacy.cards import load_cards
from ecs.scenario import Scenario, ScenarioError, run_scenario, validate

FILES = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))
JUNK = [None, 0, -1, 1.5, "x", [], {}, [1], {"a": 1}, True, "Lightning Bolt", "combat-damage"]


def _mutate(rng: random.Random, d) -> None:
    if isinstance(d, dict) and d:
        k = rng.choice(list(d))
        r = rng.random()
        if r < 0.3:
            d.pop(k)
        elif r < 0.6:
            d[k] = rng.choice(JUNK)
        else:
            _mutate(rng, d[k])
    elif isinstance(d, list) and d:
        i = rng.randrange(len(d))
        r = rng.random()
        if r < 0.3:
            d.pop(i)
        elif r < 0.6:
            d[i] = rng.choice(JUNK)
        else:
            _mutate(rng, d[i])


@pytest.mark.parametrize("seed", range(4))
def test_mutated_scenarios_never_crash(seed: int) -> None:
    db = load_cards()
    rng = random.Random(seed)
    for _ in range(40):
        f = rng.choice(FILES)
        data = yaml.safe_load(f.read_text())
        for _ in range(rng.randint(1, 3)):
            _mutate(rng, data)
        try:
            validate(str(f), data, db)
        except ScenarioError as e:
            assert str(f) in str(e)  # the message names the file
            continue
        failures = run_scenario(Scenario(str(f), str(data.get("name")), data), db)
        assert not [m for m in failures if "engine error" in m], (f, failures)
