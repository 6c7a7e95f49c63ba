"""Auto-pass (batches and the environments skip priority stops where passing is the
only option) must change no outcome: beginning-of-step work still happens, and a
player whose only option is an ability still gets priority."""

from __future__ import annotations

import yaml

from components import game as G
from components import objects as O
from components.rules import EXILE
from ecs.engine import Game
from ecs.scenario import Scenario, build_game

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


def _game(text: str) -> Game:
    """The position, with auto-pass on (scenarios play every priority stop)."""
    data = yaml.safe_load(text)
    g = build_game(Scenario("auto.yaml", data["name"], data))
    g.v.s[G.S_AUTOPASS] = 1
    return g


def _object(g: Game, name: str) -> int:
    return next(i for i in range(g.v.o.shape[0]) if g.v.o[i, O.F_CARD] >= 0
                and g.card_name(i) == name)  # fmt: skip


def test_delayed_end_step_trigger_fires_when_the_end_step_is_quiet() -> None:
    g = _game(SETUP)
    demon = _object(g, "Extractor Demon")
    k = next(k for k, a in enumerate(g.legal_actions()) if a.kind == "activate" and a.obj == demon)
    g.step(k)
    while g.turn == 2 and not g.over:  # only passes and empty declarations from here
        acts = g.legal_actions()
        g.step(
            next(k for k, a in enumerate(acts) if a.kind in ("pass", "attack_done", "block_done"))
        )
    assert g.v.o[demon, O.F_ZONE] == EXILE  # 702.84a: exiled at the beginning of the end step


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


def test_a_player_whose_only_option_is_an_ability_still_gets_priority() -> None:
    g = _game(EQUIP_ONLY)
    assert g.pending() == ("priority", 0) and g.step_name == "upkeep"
    g.step(0)  # pass the upkeep; the draw step has nothing to do (auto-pass)
    assert g.pending() == ("priority", 0)
    assert g.step_name == "precombat-main"
    assert [a.kind for a in g.legal_actions()] == ["pass", "activate"]  # equip onto the Bears
