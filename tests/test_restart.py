"""723 / 801.17: after a restart the state is a consistent new game."""

from __future__ import annotations

import yaml

from ecs.actions import Action
from ecs.agents import Observation, RandomAgent
from ecs.legacy.scenario import Scenario, build_game
from tests.test_api import check_invariants

SETUP = """
name: restart
game: {variant: free-for-all, seed: 2}
players:
  - name: Alex
    battlefield: [{card: Karn Liberated, counters: {loyalty: 14}}, Genesis Chamber, Forest]
    hand: [Grizzly Bears]
    library: [{card: Forest, count: 12}]
    graveyard: [Fog]
  - name: Bianca
    battlefield: [Craw Wurm, {card: Mind Control, attached_to: Hill Giant}]
    library: [{card: Island, count: 12}]
  - name: Carissa
    battlefield: [Hill Giant]
    library: [{card: Mountain, count: 12}]
start: {active: Alex, step: precombat-main, turn: 4}
"""


def test_restart_gives_a_consistent_new_game_that_plays_on() -> None:
    data = yaml.safe_load(SETUP)
    g = build_game(Scenario("restart.yaml", "restart", data))
    karn = next(i for i in g.battlefield(0) if g.name_of(i) == "Karn Liberated")
    g.step(Action("activate", 0, karn, 2))
    while g.stack:
        g.step(Action("pass", g.pending.player))
    check_invariants(g)
    assert g.turn == 1 and g.active == 0
    assert all(len(g.hand(p)) == 7 for p in range(3))
    assert not g.battlefield() and not g.stack
    assert list(g.pl.life) == [20, 20, 20]
    assert g.obj.controller[g.obj.n - 1] >= 0
    agent = RandomAgent(1)
    for _ in range(300):  # and the new game plays on normally
        if g.over:
            break
        g.step(agent.act(Observation(g, g.pending.player), g.legal_actions()))
        check_invariants(g)
