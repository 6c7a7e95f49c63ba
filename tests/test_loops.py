"""801.16 / 104.4b: a loop of mandatory actions is detected and ends as a draw.

No card in the stock pool can start a mandatory loop, so these tests add two
cards to a copy of the pool: "Echo Loop" makes any life gain cause a life loss
and any life loss cause a life gain, forever.
"""

from __future__ import annotations

import yaml

from components import game as G
from ecs.cards import DATA, CardDB, _read
from ecs.scenario import Scenario, build_game, run_scenario, validate

LOOP_CARDS = {
    "Echo Loop": {
        "cost": "{1}",
        "types": ["Enchantment"],
        "abilities": [
            {
                "triggered": {
                    "when": {"event": "gains_life", "who": "any"},
                    "effects": [{"lose_life": {"amount": 1, "who": "event.player"}}],
                }
            },
            {
                "triggered": {
                    "when": {"event": "loses_life", "who": "any"},
                    "effects": [{"gain_life": {"amount": 1, "who": "event.player"}}],
                }
            },
        ],
    },  # fmt: skip
    "Spark of Life": {
        "cost": "{W}",
        "types": ["Instant"],
        "abilities": [{"spell": {"effects": [{"gain_life": {"amount": 1, "who": "you"}}]}}],
    },
}


def _db() -> CardDB:
    records: dict = {}
    for path in sorted(DATA.glob("*.yaml")):
        records.update(_read(path))
    records.update(LOOP_CARDS)
    return CardDB(records)


def _run(text: str) -> tuple[list[str], dict]:
    db = _db()
    data = yaml.safe_load(text)
    validate("loop.yaml", data, db)
    sc = Scenario("loop.yaml", data["name"], data)
    failures = run_scenario(sc, db)
    return failures, sc.game.view()


TWO_PLAYER = """
name: "104.4b a mandatory loop in a two-player game is a draw"
game: {variant: two-player, seed: 1}
players:
  - name: Alex
    battlefield: [Echo Loop, Plains]
    hand: [Spark of Life]
  - name: Bianca
start: {active: Alex, step: precombat-main, turn: 2}
actions:
  - {player: Alex, cast: Spark of Life}
  - {resolve: all}
expect:
  game.over: true
  game.drawn: [Alex, Bianca]
  game.winners: []
"""

RANGED = """
name: "801.16 a mandatory loop is a draw for its controller and the players in range"
game: {variant: free-for-all, options: {range_of_influence: 1}, seed: 1}
players:
  - name: Alex
    battlefield: [Echo Loop, Plains]
    hand: [Spark of Life]
  - name: Bianca
  - name: Carissa
  - name: Dana
  - name: Eli
start: {active: Alex, step: precombat-main, turn: 2}
actions:
  - {player: Alex, cast: Spark of Life}
  - {resolve: all}
expect:
  game.over: false
  game.drawn: [Alex, Bianca, Eli]
  players.Carissa.in_game: true
  players.Dana.in_game: true
  players.Alex.in_game: false
  stack: []
"""


def test_mandatory_loop_two_player_is_a_draw() -> None:
    failures, view = _run(TWO_PLAYER)
    assert not failures, failures


def test_mandatory_loop_with_range_of_influence() -> None:
    failures, view = _run(RANGED)
    assert not failures, failures


def test_loop_detected_in_auto_pass_mode_too() -> None:
    db = _db()
    data = yaml.safe_load(TWO_PLAYER)
    g = build_game(Scenario("loop.yaml", data["name"], data), db)
    g.v.s[G.S_AUTOPASS] = 1
    g.step(next(k for k, a in enumerate(g.legal_actions()) if a.kind == "cast"))
    steps = 0
    while not g.over and steps < 1000:  # only passes remain: the engine stops the loop
        assert [a.kind for a in g.legal_actions()] == ["pass"]
        g.step(0)
        steps += 1
    assert sorted(g.names[p] for p in g.drawn) == ["Alex", "Bianca"]


def test_a_spell_outside_the_loop_does_not_stop_it() -> None:
    """729.5: no player can be forced to take an action that would end a loop other than
    those its objects call for: Bianca holding a castable Lightning Bolt (nothing of the
    loop) doesn't make the loop optional; passing through it, the game is a draw."""
    db = _db()
    data = yaml.safe_load(TWO_PLAYER)
    data["players"][1]["battlefield"] = ["Mountain"]
    data["players"][1]["hand"] = ["Lightning Bolt"]
    g = build_game(Scenario("loop.yaml", data["name"], data), db)
    g.step(next(k for k, a in enumerate(g.legal_actions()) if a.kind == "cast"))
    for _ in range(200):
        if g.over:
            break
        assert any(a.kind == "cast" for a in g.legal_actions()) or g.pending()[1] == 0
        g.step(next(k for k, a in enumerate(g.legal_actions()) if a.kind == "pass"))
    assert g.over and not g.winners and g.drawn
