"""The environments' step rates (issue 12, item 5), with the targets as assertions.

    python -m pytest bench/bench_envs.py --benchmark-only

- ``test_step_api``: ``Game.step`` from a Python loop choosing uniformly among the
  options (4-player free-for-all; a new game when one ends); target 50,000 steps/s.
- ``test_pettingzoo``: the AEC env's loop (``observe`` + ``step``, random legal
  actions); reported, no target of its own.
- ``test_vector_env``: ``VectorEnv.step`` on 1,024 games (observations and masks
  included); target 500,000 steps/s.
"""

from __future__ import annotations

import numpy as np
import pytest

from ecs.decks import load_deck
from ecs.engine import Game, Options
from ecs.envs import melee_v0
from ecs.envs.vector import VectorEnv

DECKS = [load_deck(d).main for d in ("burn", "big-green", "white-fliers", "dimir-control")]
STEPS = 20_000


def _step_loop() -> int:
    rng = np.random.default_rng(1)
    g, k, games = Game.new(DECKS, seed=0, options=Options(max_turns=200)), 0, 1
    while k < STEPS:
        if g.over:
            g = Game.new(DECKS, seed=games, options=Options(max_turns=200))
            games += 1
        g.step(int(rng.integers(g.n_actions())))
        k += 1
    return k


@pytest.mark.benchmark(group="environments")
def test_step_api(benchmark, per_second) -> None:
    Game.new(DECKS, seed=0)  # load the engine
    benchmark.pedantic(_step_loop, rounds=3, iterations=1)
    rate = per_second(STEPS)
    benchmark.extra_info["steps_per_s"] = rate
    if rate is not None:
        assert rate >= 50_000, f"{rate:.0f} steps/s"


@pytest.mark.benchmark(group="environments")
def test_pettingzoo(benchmark, per_second) -> None:
    env = melee_v0.raw_env(players=4, decks=DECKS)
    rng = np.random.default_rng(2)

    def loop() -> None:
        env.reset(seed=int(rng.integers(1 << 30)))
        k = 0
        while k < STEPS // 4:
            if not env.agents:
                env.reset()
                continue
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            k += 1

    loop()
    benchmark.pedantic(loop, rounds=3, iterations=1)
    benchmark.extra_info["steps_per_s"] = per_second(STEPS // 4)


@pytest.mark.benchmark(group="environments")
def test_vector_env(benchmark, per_second) -> None:
    n = 1024
    env = VectorEnv(num_envs=n, players=4, decks=DECKS, seed=3)
    obs, mask, _ = env.reset()
    rng = np.random.default_rng(3)
    rounds = 50

    def run() -> None:
        nonlocal mask
        for _ in range(rounds):
            counts = mask.sum(1)
            _, mask, *_ = env.step((rng.random(n) * counts).astype(np.int64))

    benchmark.pedantic(run, rounds=3, iterations=1)
    rate = per_second(n * rounds)
    benchmark.extra_info["steps_per_s"] = rate
    if rate is not None:
        assert rate >= 500_000, f"{rate:.0f} steps/s"
