"""Files we never see will be run against the runner: mutated scenario files must be
reported as invalid (ScenarioError, exit 2) or run to PASS/FAIL, never crash, and never
hit an engine error."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from ecs.cards import load_pool as load_cards
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


# --- files that are not scenarios: refused with file and field, bounded, nothing written --

BASE = "name: x\nplayers:\n  - name: A\n    hand: [{card: Forest, count: %s}]\n  - name: B\n"
BAD_FILES = {
    "latin1.yaml": ("name: caf\xe9\n".encode("latin-1"), "latin1.yaml:1: not UTF-8 text"),
    "binary.yaml": (b"\x7fELF\x02\x01\x01\x00\x00", "a binary file"),
    "deep.yaml": (("name: x\nplayers: " + "[" * 500 + "]" * 500).encode(), "nested more than 64 deep"),
    "int32.yaml": (BASE.replace("hand: [{card: Forest, count: %s}]", "life: 99999999999").encode(),
                   "players[0].life: expected a whole number from -2147483648 to 2147483647"),
    "int64.yaml": (BASE.replace("hand: [{card: Forest, count: %s}]", "poison: 99999999999999999999999").encode(),
                   "players[0].poison: expected a whole number"),
    "million.yaml": ((BASE % "1000000").encode(), "players[0].hand[0].count: expected a whole number from 1 to 5000"),
    "1e9.yaml": ((BASE % "1e9").encode(), "players[0].hand[0].count: expected a whole number from 1 to 5000"),
    "billion.yaml": ((BASE % "1000000000").encode(), "players[0].hand[0].count"),
    "many.yaml": ((BASE % "5000" + "    hand: [{card: Forest, count: 5000}]\n").encode(),
                  "more than 5,000 cards"),
    "aliases.yaml": (b"name: x\na: &a [1, 1]\nb: [*a, *a]\nplayers: []\n", "YAML anchors (&name) are not supported"),
    "seed.yaml": (b"name: x\ngame: {seed: -1}\nplayers: [{name: A}, {name: B}]\n", "game.seed"),
    "typo.yaml": (b"name: x\nplayers:\n  - {name: A, hand: [Lightnig Bolt]}\n  - {name: B}\n",
                  "players[0].hand[0].card: unknown card 'Lightnig Bolt'; did you mean 'Lightning Bolt'"),
    "chooser.yaml": ((BASE % "1" + "actions: [{player: A, choose: {starting_player: Zed}}]\n").encode(),
                     "actions[0].choose.starting_player: unknown player 'Zed'"),
    "chosen.yaml": ((BASE % "1" + "actions: [{player: A, choose: {targets: [B, Not A Card]}}]\n").encode(),
                    "actions[0].choose.targets[1]: unknown card or player 'Not A Card'"),
    "named.yaml": (b"name: x\nplayers:\n  - name: A\n    command: [{card: Double Stroke, face_up: false,"
                   b" named: Black Lotus}]\n  - name: B\n",
                   "players[0].command[0].named: unknown card 'Black Lotus'"),
}  # fmt: skip


@pytest.mark.parametrize("fname", sorted(BAD_FILES))
def test_files_that_are_not_scenarios_are_refused(tmp_path: Path, fname: str) -> None:
    from ecs.scenario import load_scenario

    content, needle = BAD_FILES[fname]
    f = tmp_path / fname
    f.write_bytes(content)
    with pytest.raises(ScenarioError) as e:
        load_scenario(f)
    assert str(e.value).startswith(str(f)) and needle in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_the_runner_refuses_them_with_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    for fname, (content, _) in BAD_FILES.items():
        (tmp_path / fname).write_bytes(content)
    before = sorted(p.name for p in tmp_path.iterdir())
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run(
        [sys.executable, "-m", "ecs", "scenario", str(tmp_path)], capture_output=True, text=True,
        cwd=tmp_path, timeout=300, env={**os.environ, "PYTHONPATH": str(root)},
    )  # fmt: skip
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout.count("INVALID ") == len(BAD_FILES)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_bounds_are_inclusive(tmp_path: Path) -> None:
    from ecs.scenario import load_scenario

    f = tmp_path / "ok.yaml"
    f.write_text(BASE % "5000" + "    life: 2147483647\n")
    sc = load_scenario(f)
    assert sc.data["players"][0]["hand"][0]["count"] == 5000


def test_a_device_is_read_up_to_the_limit_only() -> None:
    """/dev/zero has no size to check first: the runner stops reading at 16 MiB."""
    from ecs.scenario import load_scenario

    with pytest.raises(ScenarioError) as e:
        load_scenario(Path("/dev/zero"))
    assert "/dev/zero: more than the 16,777,216 bytes allowed" in str(e.value)
