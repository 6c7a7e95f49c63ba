"""801.16 / 104.4b: a loop of mandatory actions is detected and ends as a draw.

No card in the stock pool can start a mandatory loop, so these tests add two
cards to a copy of the pool: "Echo Loop" makes any life gain cause a life loss
and any life loss cause a life gain, forever.
"""

from __future__ import annotations

import yaml

from ecs.legacy.cards import DATA, CardDB
from ecs.legacy.scenario import Scenario, build_game, run_scenario, validate

LOOP_CARDS = {
    "Echo Loop": {
        "cost": "{1}",
        "types": ["Enchantment"],
        "triggers": [
            {
                "when": "any_player_gains_life",
                "effects": [{"lose_life": {"amount": 1, "who": "event.player"}}],
            },
            {
                "when": "any_player_loses_life",
                "effects": [{"gain_life": {"amount": 1, "who": "event.player"}}],
            },
        ],
    },  # fmt: skip
    "Spark of Life": {
        "cost": "{W}",
        "types": ["Instant"],
        "spell": {"effects": [{"gain_life": {"amount": 1, "who": "controller"}}]},
    },
}


def _db() -> CardDB:
    records = yaml.safe_load((DATA / "cards.yaml").read_text())
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
    g.auto_pass = True
    from ecs.actions import Action

    spark = next(i for i in g.hand(0) if g.name_of(i) == "Spark of Life")
    g.step(Action("cast", 0, spark))
    while not g.over:  # only passes remain: the engine must stop the loop on its own
        acts = g.legal_actions()
        assert [a.kind for a in acts] == ["pass"]
        g.step(acts[0])
    assert sorted(g.names[p] for p in g.drawn) == ["Alex", "Bianca"]


def test_a_real_choice_is_not_a_loop() -> None:
    """Passing while holding a castable instant is a choice: no loop is declared."""
    db = _db()
    data = yaml.safe_load(TWO_PLAYER)
    data["players"][1]["battlefield"] = ["Mountain"]
    data["players"][1]["hand"] = ["Lightning Bolt"]
    g = build_game(Scenario("loop.yaml", data["name"], data), db)
    from ecs.actions import Action

    spark = next(i for i in g.hand(0) if g.name_of(i) == "Spark of Life")
    g.step(Action("cast", 0, spark))
    for _ in range(40):  # Bianca could Bolt at every stop, so it isn't mandatory
        g.step(Action("pass", g.pending.player))
    assert not g.over
