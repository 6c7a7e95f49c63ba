"""Auto-pass (used by simulations and the environment) skips stops and quiet steps but
must change no outcome: beginning-of-step work still happens."""

from __future__ import annotations

import yaml

from ecs.actions import Action
from ecs.constants import EXILE
from ecs.legacy.scenario import Scenario, build_game

SETUP = """
name: unearth under auto-pass
game: {variant: two-player, seed: 1}
players:
  - name: Alex
    graveyard: [Extractor Demon]
    battlefield: [{card: Swamp, count: 3}]
    library: [Swamp, Swamp, Swamp]
  - name: Bianca
    library: [Swamp, Swamp, Swamp]
start: {active: Alex, step: precombat-main, turn: 2}
"""


def test_delayed_end_step_trigger_fires_when_the_end_step_is_quiet() -> None:
    data = yaml.safe_load(SETUP)
    g = build_game(Scenario("auto.yaml", data["name"], data))
    g.auto_pass = True
    demon = g.refs.get("Extractor Demon") or next(i for i in g.zone_objects(3))
    g.step(Action("activate", 0, demon, 0))
    while g.turn == 2 and not g.over:  # only passes and empty declarations from here
        acts = g.legal_actions()
        done = [a for a in acts if a.kind in ("pass", "attack_done", "block_done")]
        g.step(done[0])
    assert g.obj.zone[demon] == EXILE  # 702.84a: exiled at the beginning of the end step


EQUIP_ONLY = """
name: equip is the only thing to do
game: {variant: two-player, seed: 1}
players:
  - name: Alex
    battlefield: [Bonesplitter, Grizzly Bears, Mountain]
    library: [Lava Axe, Lava Axe, Lava Axe]
  - name: Bianca
    library: [Swamp, Swamp, Swamp]
start: {active: Alex, step: upkeep, turn: 2}
"""


def test_a_player_whose_only_action_is_an_ability_still_gets_priority() -> None:
    """Found by the compiled engine's consistency test: the auto-pass check asked the
    activation check, which refused because nobody had priority yet, so equip and
    loyalty abilities alone never stopped the game."""
    data = yaml.safe_load(EQUIP_ONLY)
    g = build_game(Scenario("auto.yaml", data["name"], data))
    g.auto_pass = True
    g.step(g.legal_actions()[0])  # pass the upkeep; the draw step has nothing to do
    assert g.pending.kind == "priority" and g.pending.player == 0
    assert g.step_name() == "precombat-main"
    kinds = [a.kind for a in g.legal_actions()]
    assert kinds == ["pass", "activate"]  # equip Bonesplitter onto the Bears
