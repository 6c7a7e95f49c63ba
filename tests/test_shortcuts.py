"""Shortcuts and loops (729) through the step API and in compiled batches: a shortcut
proposed and answered as decisions, taken for the agreed repetitions or refused whole;
729.3's "choose otherwise" for agents that would repeat an action from the same state;
729.4's mandatory loops ending as draws instead of running to a cap."""

from __future__ import annotations

import random

import pytest
import yaml

from components import game as G
from components.decisions import PEND_SHORTCUT
from components.objects import F_TOKEN, F_ZONE
from components.rules import BATTLEFIELD
from ecs.cards import load_pool
from ecs.engine import RESOLVE, Action, IllegalAction, _ops, call
from ecs.scenario import Scenario, build_game, validate

GOND = """
name: gond
game: {variant: two-player, seed: 1}
players:
  - name: Alex
    battlefield: [{card: Grizzly Bears, id: gb}, {card: Presence of Gond, attached_to: gb}]
  - name: Bianca
    battlefield: [Intruder Alarm]
start: {active: Alex, step: precombat-main, turn: 2}
"""


def _position(text: str):
    db = load_pool()
    data = yaml.safe_load(text)
    validate("t.yaml", data, db)
    sc = Scenario("t.yaml", data["name"], data)
    g = build_game(sc, db)
    return g, sc


def _activate_gb(g, sc) -> Action:
    gb = sc.refs_by_id["gb"]
    (a,) = [a for a in g.legal_actions() if a.kind == "activate" and a.obj == gb]
    return a


@pytest.mark.parametrize(("answer", "made"), [(0, 5), (3, 2)])
def test_a_shortcut_is_proposed_answered_and_taken(answer: int, made: int) -> None:
    g, sc = _position(GOND)
    act = _activate_gb(g, sc)
    n = g.propose_shortcut([act, RESOLVE], 5)
    assert g.pending() == ("shortcut", 1) and n == 6  # accept, then stop after 0..4
    opts = g.legal_actions()
    assert opts[0].arg == 5 and [o.arg for o in opts[1:]] == [0, 1, 2, 3, 4]
    g.step(answer)  # Bianca accepts, or shortens it to two repetitions
    assert g.pending() == ("priority", 0) and g.v.s[G.S_NSTK] == 0
    v = g.v
    o = v.o[: int(v.s[G.S_N])]
    assert int(((o[:, F_ZONE] == BATTLEFIELD) & (o[:, F_TOKEN] == 1)).sum()) == made


def test_an_illegal_shortcut_is_refused_whole() -> None:
    g, sc = _position(GOND.replace("battlefield: [Intruder Alarm]", "battlefield: []"))
    act = _activate_gb(g, sc)  # without Intruder Alarm the creature stays tapped
    before = g.fingerprint()
    with pytest.raises(IllegalAction):
        g.propose_shortcut([act, RESOLVE], 3)
        g.step(0)
    assert g.fingerprint() == before


LOOP = """
name: loop
game: {variant: two-player, seed: 1}
players:
  - {name: Alex, life: 20, battlefield: [Transcendence, Platinum Angel]}
  - {name: Bianca, battlefield: [Seal of Cleansing]}
start: {active: Alex, step: precombat-main, turn: 2}
"""


@pytest.mark.parametrize("seal", [False, True])
@pytest.mark.parametrize("autopass", [0, 1])
def test_a_mandatory_loop_ends_as_a_draw_for_compiled_agents(autopass: int, seal: bool) -> None:
    g, _ = _position(LOOP if seal else LOOP.replace("[Seal of Cleansing]", "[]"))
    g.main_v.s[G.S_AUTOPASS] = autopass
    g.main_v.s[G.S_MAXDECISIONS] = 5000
    A = g.arena.reshape(1, -1)
    made = call(_ops().PLAY, A, g.compiled.arena, 0)
    s = g.main_v.s
    assert s[G.S_OVER] == 1 and s[G.S_CAPPED] == 0 and made < 1000
    if seal:
        assert g.drawn or g.winners  # a draw, unless the random Bianca broke it (729.5)
    else:
        assert g.drawn == [0, 1] and not g.winners  # 104.4b


TOGGLE = """
name: toggle
game: {variant: two-player, seed: 1}
players:
  - name: Alex
    battlefield: [Wing-Toggle Drake, {card: Island, count: 2}]
    library: [{card: Island, count: 20}]
  - name: Bianca
    battlefield: [Gravity Toggle, Grizzly Bears]
    library: [{card: Forest, count: 20}]
start: {active: Alex, step: precombat-main, turn: 2}
"""


def test_agents_cannot_burn_decisions_in_a_loop_729_3() -> None:
    """{0} abilities that undo each other: a random agent would loop; 729.3 makes the
    player the rule names choose otherwise once the state repeats."""
    g, _ = _position(TOGGLE)
    rng = random.Random(3)
    steps = 0
    while not g.over and g.turn <= 6 and steps < 3000:
        acts = g.legal_actions()
        ks = [k for k, a in enumerate(acts) if a.kind == "activate"]
        k = rng.choice(ks) if ks and rng.random() < 0.9 else 0  # an agent that loves {0}
        g.step(k)
        steps += 1
    assert g.turn > 6 or g.over  # the game went on: no endless toggling
    assert steps < 3000


def test_compiled_random_play_with_zero_cost_abilities_ends() -> None:
    g, _ = _position(TOGGLE)
    g.main_v.s[G.S_MAXTURNS] = 8
    A = g.arena.reshape(1, -1)
    made = call(_ops().PLAY, A, g.compiled.arena, 0)
    assert g.main_v.s[G.S_OVER] == 1 and made < 20000


def test_shortcut_answers_are_listed_only_to_the_answering_player() -> None:
    g, sc = _position(GOND)
    g.propose_shortcut(None, 1000)
    assert int(g.v.s[G.S_PEND]) == PEND_SHORTCUT
    acts = g.legal_actions()
    assert all(a.player == 1 for a in acts) and len(acts) == 256
    assert not any(a.kind == "activate" for a in acts)
    g.step(1)  # stop after 0 repetitions
    assert g.shortcut_agreed() == 0 and g.pending() == ("priority", 0)
    assert any(a.kind == "activate" and a.obj == sc.refs_by_id["gb"] for a in g.legal_actions())
