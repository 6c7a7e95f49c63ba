"""The priority pre-check kernel agrees with its twin, and is never wrong when it says no."""

from __future__ import annotations

import numpy as np

from ecs.agents import Observation, RandomAgent
from ecs.decks import load_deck, stock_decks
from ecs.game import Game
from ecs.legacy.systems.legal_actions import priority_actions
from ecs.legacy.systems.priority_precheck import (
    can_act,
    can_act_kernel,
    can_act_kernel_py,
    kernel_args,
)


def _args(g: Game):
    ok = np.zeros(g.n_players, dtype=bool)
    ok[g.active] = True
    return kernel_args(g, ok)


def test_kernel_twin_and_soundness_over_random_games() -> None:
    decks = [load_deck(d).main for d in stock_decks()[:4]]
    checked = 0
    for seed in range(3):
        g = Game.new(decks, seed=seed, max_turns=30)
        agent = RandomAgent(seed)
        while not g.over and checked < 400:
            d = g.pending
            if d.kind == "priority":
                a, b = np.zeros((1, 4), bool), np.zeros((1, 4), bool)
                can_act_kernel(*_args(g), a)
                can_act_kernel_py(*_args(g), b)
                np.testing.assert_array_equal(a, b)
                mask = can_act(g)
                for p in g.alive_players():
                    if not mask[p]:  # "no" must be certain
                        assert [x.kind for x in priority_actions(g, p)] == ["pass"]
                checked += 1
            g.step(agent.act(Observation(g, d.player), g.legal_actions()))
        g.close()
    assert checked > 100
