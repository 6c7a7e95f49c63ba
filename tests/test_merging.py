"""Merged permanents (727) beyond what the state view shows: keywords of every component
(702.140e), a token copy keeping the merge (727.2a), leaving with every card (727.3)."""

from __future__ import annotations

import yaml

from components import game as G
from components import objects as O
from components.rules import KW_FLYING, KW_REACH, KW_TRAMPLE
from ecs.cards import load_pool
from ecs.scenario import Scenario, build_game, run_action, validate

POSITION = """
name: copy
game: {variant: two-player, seed: 1}
players:
  - name: Alex
    hand: [Cackling Counterpart]
    battlefield: [{card: Gemrazer, merged: [Gemrazer, Dreamtail Heron], id: m}, {card: Island, count: 3}]
  - {name: Bianca}
start: {active: Alex, step: precombat-main, turn: 2}
"""


def test_merged_permanent_and_its_copy_have_every_components_keywords() -> None:
    db = load_pool()
    data = yaml.safe_load(POSITION)
    validate("t.yaml", data, db)
    sc = Scenario("t.yaml", "copy", data)
    g = build_game(sc, db)
    m = sc.refs_by_id["m"]
    kw = int(g.v.o[m, O.F_KW])
    assert kw & KW_FLYING and kw & KW_REACH and kw & KW_TRAMPLE  # Heron's flying, Gemrazer's
    assert int(g.v.o[m, O.F_POW]) == 4  # the top card's characteristics
    run_action(sc, {"player": "Alex", "cast": "Cackling Counterpart", "targets": ["m"]})
    run_action(sc, {"resolve": "all"})
    v = g.v
    n = int(v.s[G.S_N])
    copies = [i for i in range(n) if v.o[i, O.F_COPY] and v.o[i, O.F_MERGED_IN] < 0]
    assert len(copies) == 1
    t = copies[0]
    assert v.o[t, O.F_ZONE] == 2 and v.o[t, O.F_TOKEN] == 1
    assert int(v.o[t, O.F_KW]) & KW_FLYING  # the copy has the Heron's flying too
    assert g.view(refs=sc.refs)["cards"]["Gemrazer#1"]["merged"] == ["Gemrazer"]
