"""Commander (903) and Brawl (903.12) beyond the rules scenarios of
tests/scenarios/903-commander: games set up from decklists with a commander section,
the variant's defaults with every multiplayer variant, whole games played to the end,
the defaults where no one is asked, and the scenario runner's Commander fields."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from components import game as G
from components import objects as O
from components import players as PL
from components.rules import COMMAND
from components.state import GAME_LAYOUT
from ecs.cards import load_pool
from ecs.engine import (
    Game,
    Options,
    SetupError,
    call,
    casual_bits,
    pod_template,
    seed_rng,
    starting_life,
)
from ecs.scenario import ScenarioError, load_scenario, run_scenario

RED = ["Lightning Bolt", "Hill Giant", "Raging Goblin", "Lava Axe", "Wall of Stone",
       "Goblin Raiders", "Mountain Goat", "Pyroclasm", "Flame Rift", "Lightning Blast"]  # fmt: skip
GREEN = ["Grizzly Bears", "Craw Wurm", "Giant Growth", "Colossal Dreadmaw", "Giant Spider",
         "Runeclaw Bear", "Fog", "Giant Spider", "Thunderfoot Baloth", "Glistener Elf"]  # fmt: skip


class Decklist:
    """What ecs/decks.py reads from an Arena/MTGO export: a Commander section, a Deck."""

    def __init__(self, main: list[str], commander: list[str]):
        self.main, self.commander = main, commander


def red_deck() -> Decklist:
    return Decklist(["Mountain"] * 38 + (RED * 7)[:61], ["Kamahl, Pit Fighter"])


def green_deck() -> Decklist:
    return Decklist(["Forest"] * 38 + (GREEN * 7)[:61], ["Garruk Wildspeaker"])


def pod(n: int) -> list[Decklist]:
    return [red_deck() if p % 2 == 0 else green_deck() for p in range(n)]


@pytest.fixture(scope="module")
def db():
    return load_pool()


def _commanders(g: Game, p: int) -> list[int]:
    return [int(g.v.pl[p, PL.P_CMD + k]) for k in range(2) if g.v.pl[p, PL.P_CMD + k] >= 0]


# ----------------------------------------------------------------- setting a game up
def test_a_game_from_decklists_with_a_commander_section(db) -> None:
    g = Game.new(pod(4), seed=3, db=db)
    v = g.v
    assert v.s[G.S_CASUAL] == casual_bits("commander")
    assert v.s[G.S_COMMANDER_DAMAGE] == 21
    for p in range(4):
        (c,) = _commanders(g, p)
        assert v.o[c, O.F_ZONE] == COMMAND  # 903.6
        assert v.o[c, O.F_OWNER] == p and v.o[c, O.F_COMMANDER] == 1
        assert g.card_name(c) == ("Kamahl, Pit Fighter" if p % 2 == 0 else "Garruk Wildspeaker")
        assert int(v.pl[p, PL.P_LIFE]) == 40  # 903.7
        assert int(v.pl[p, PL.P_HANDN]) == 7 + (p == v.s[G.S_ACTIVE])  # (the first draw)
        assert int(v.pl[p, PL.P_LIBN]) + int(v.pl[p, PL.P_HANDN]) == 99
    view = g.view()
    assert view["players"]["P0"]["color_identity"] == ["R"]
    assert view["players"]["P1"]["color_identity"] == ["G"]
    assert view["players"]["P0"]["commanders"] == ["Kamahl, Pit Fighter"]
    assert view["players"]["P0"]["command"] == ["Kamahl, Pit Fighter"]
    assert list(view["players"]["P2"]["commander_tax"].values()) == [0]
    assert list(view["players"]["P2"]["commander_casts"].values()) == [0]


def test_card_name_decks_with_commanders_given_apart(db) -> None:
    decks = [d.main for d in pod(2)]
    g = Game.new(decks, variant="two-player", commanders=[["Kamahl, Pit Fighter"], []], db=db)
    assert len(_commanders(g, 0)) == 1 and _commanders(g, 1) == []
    assert g.view()["players"]["P1"]["color_identity"] == []  # 903.4f: undefined
    assert int(g.v.pl[0, PL.P_LIFE]) == 40


def test_a_partner_pair_has_two_slots_and_the_union_of_identities(db) -> None:
    deck = Decklist(["Mountain"] * 98, ["Kamahl, Pit Fighter", "Thunderfoot Baloth"])
    g = Game.new([deck, red_deck()], variant="two-player", db=db)
    a, b = _commanders(g, 0)
    assert (g.v.o[a, O.F_COMMANDER], g.v.o[b, O.F_COMMANDER]) == (1, 2)
    assert g.view()["players"]["P0"]["color_identity"] == ["R", "G"]
    three = Decklist(["Mountain"] * 97, ["Kamahl, Pit Fighter", "Thunderfoot Baloth", "Hill Giant"])
    with pytest.raises(SetupError, match="at most two commanders"):
        Game.new([three, red_deck()], variant="two-player", db=db)


def test_commanders_need_a_commander_game(db) -> None:
    with pytest.raises(SetupError, match="Commander or Brawl"):
        Game.new(pod(2), variant="two-player", casual="planechase", db=db)
    with pytest.raises(SetupError, match="unknown casual variant"):
        Game.new(pod(2), variant="two-player", casual="comander", db=db)


@pytest.mark.parametrize(
    ("variant", "n", "casual", "life"),
    [
        ("two-player", 2, "commander", 40),
        ("free-for-all", 4, "commander", 40),
        ("two-player", 2, "brawl", 25),  # 903.12f
        ("free-for-all", 4, "brawl", 30),
        ("two-headed-giant", 4, "commander", 40),  # the team's shared total (810.4)
        ("two-headed-giant", 4, "brawl", 30),
        ("team-vs-team", 4, "commander", 40),
        ("emperor", 6, "commander", 40),
        ("grand-melee", 10, "commander", 40),
    ],
)
def test_starting_life(variant: str, n: int, casual: str, life: int, db) -> None:
    assert starting_life(variant, n, 2, casual) == life
    g = Game.new(pod(n), variant=variant, casual=casual, seed=1, db=db)
    v = g.v
    for p in range(n):
        pool = int(v.pl[p, PL.P_LIFEPOOL])
        assert int(v.pl[pool, PL.P_LIFE]) == life
    assert v.s[G.S_COMMANDER_DAMAGE] == (0 if casual == "brawl" else 21)  # 903.12h
    assert v.s[G.S_FREE_MULLIGAN] == (1 if casual == "brawl" or n > 2 else 0)  # 903.12g


# ----------------------------------------------------------------- whole games
def _play_random(g: Game, rng: np.random.Generator, limit: int = 20000) -> int:
    n = g._n
    k = 0
    while not g.over and k < limit:
        n = g.step(int(rng.integers(n)))
        k += 1
    return k


@pytest.mark.parametrize(
    ("variant", "n", "casual", "options"),
    [
        ("free-for-all", 4, "commander", Options()),
        ("free-for-all", 5, "commander", Options(range_of_influence=1, attack="left")),
        ("two-player", 2, "brawl", Options()),
        ("two-headed-giant", 4, "commander", Options()),
        ("team-vs-team", 6, "commander", Options(teams=3)),
        ("emperor", 6, "commander", Options()),
        ("grand-melee", 8, "commander", Options()),
    ],
)
def test_random_games_end_without_errors(variant, n, casual, options, db) -> None:
    """Random players finish Commander games of every multiplayer variant: commanders
    are cast from the command zone, owners answer 903.9 choices, nothing breaks."""
    casts = 0
    for seed in range(2):
        g = Game.new(pod(n), variant=variant, casual=casual, seed=seed, db=db,
                     options=Options(**{**options.__dict__, "max_turns": 60}))  # fmt: skip
        _play_random(g, np.random.default_rng(seed))
        assert g.over and g.error == 0
        for p in range(n):  # how each loser lost is recorded (reports: how games end)
            assert bool(g.v.pl[p, PL.P_LOST]) == (
                g.v.pl[p, PL.P_HOW] not in (PL.HOW_PLAYING, PL.HOW_WON, PL.HOW_DRAW)
            )
        casts += int(sum(g.v.pl[p, PL.P_CMDCAST] + g.v.pl[p, PL.P_CMDCAST + 1] for p in range(n)))
    assert casts > 0


def test_the_batch_template_plays_a_pod(db) -> None:
    """pod_template: the arena a batch copies per game (seed, deal, play)."""
    comp, a = pod_template(pod(4), "free-for-all", Options(max_turns=80), db)
    A = np.tile(a, (3, 1))
    for g in range(3):
        seed_rng(A[g], g)
    from systems import entry

    call(entry.DEAL, A, comp.arena)
    call(entry.PLAY, A, comp.arena, 0)
    for g in range(3):
        v = GAME_LAYOUT.views(A[g])
        assert v.s[G.S_OVER] and v.s[G.S_ERROR] == 0
        assert v.s[G.S_CASUAL] == casual_bits("commander")
    assert not (A[0] == A[1]).all()  # each game its own seed


# ----------------------------------------------------------------- scenarios' fields
def _scenario(tmp_path: Path, text: str, db):
    text = text.replace("STEP", "precombat-main")
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return load_scenario(f, db)


BASE = """
name: t
game: {{variant: free-for-all, casual: {casual}, seed: 1}}
players:
  - name: Alex
    {alex}
  - name: Bianca
    {bianca}
  - {{name: Carissa}}
start: {{active: Alex, step: STEP, turn: 2}}
actions: {actions}
expect: {expect}
"""


def test_a_commander_needs_a_commander_game(tmp_path, db) -> None:
    text = BASE.format(casual="none", alex="command: [{card: Hill Giant, commander: true}]",
                       bianca="", actions="[]", expect="{}")  # fmt: skip
    with pytest.raises(ScenarioError, match="casual: commander or brawl"):
        _scenario(tmp_path, text, db)


def test_a_count_never_applies_to_a_commander(tmp_path, db) -> None:
    text = BASE.format(casual="commander",
                       alex="command: [{card: Hill Giant, commander: true, count: 2}]",
                       bianca="", actions="[]", expect="{}")  # fmt: skip
    with pytest.raises(ScenarioError, match="count never applies"):
        _scenario(tmp_path, text, db)


def test_commander_damage_keys_are_card_references(tmp_path, db) -> None:
    text = BASE.format(casual="commander", alex="command: [{card: Hill Giant, commander: true}]",
                       bianca="commander_damage: {Giant: 3}", actions="[]", expect="{}")  # fmt: skip
    with pytest.raises(ScenarioError, match="unknown card 'Giant'"):
        _scenario(tmp_path, text, db)


def test_only_the_owner_has_commander_casts(tmp_path, db) -> None:
    text = BASE.format(casual="commander", alex="command: [{card: Hill Giant, commander: true}]",
                       bianca="commander_casts: {Hill Giant: 1}", actions="[]", expect="{}")  # fmt: skip
    fails = run_scenario(_scenario(tmp_path, text, db), db)
    assert fails and "903.8" in fails[0]


def test_choose_command_zone_with_nothing_pending_is_refused(tmp_path, db) -> None:
    text = BASE.format(casual="commander", alex="command: [{card: Hill Giant, commander: true}]",
                       bianca="", actions="[{player: Alex, choose: {command_zone: true}}]",
                       expect="{}")  # fmt: skip
    fails = run_scenario(_scenario(tmp_path, text, db), db)
    assert fails and "no commander is waiting" in fails[0]


def test_where_no_one_asks_a_commander_goes_to_the_command_zone(tmp_path, db) -> None:
    """903.9b's documented default: a commander drawn from its owner's library (the
    owner let it go there earlier) goes to the command zone instead of the hand; the
    draw is over (the next card stays)."""
    text = BASE.format(
        casual="commander",
        alex="library: [{card: Hill Giant, commander: true, id: g}, Mountain]",
        bianca="",
        actions="[{advance_to: {step: draw}}]",
        expect="{cards.g.zone: command, players.Alex.hand: [], players.Alex.library: [Mountain]}",
    ).replace("STEP", "upkeep")
    sc = _scenario(tmp_path, text, db)
    assert run_scenario(sc, db) == []
    v = sc.game.v
    g = sc.refs_by_id["g"]
    assert v.o[g, O.F_ZONE] == COMMAND and v.pl[0, PL.P_HANDN] == 0 and v.pl[0, PL.P_LIBN] == 1


def test_how_players_lose_is_recorded(tmp_path, db) -> None:
    """P_HOW: 21 commander damage (903.10a) in a combat damage step is commander damage,
    not combat; a player at 0 life after combat damage lost in combat."""
    text = BASE.format(
        casual="commander",
        alex='battlefield: [{card: "Kamahl, Pit Fighter", commander: true, id: k}, Hill Giant]',
        bianca="commander_damage: {k: 15}",
        actions="[{player: Alex, attack: {k: Bianca, Hill Giant: Carissa}},"
        " {advance_to: {step: end-of-combat}}]",
        expect="{players.Bianca.in_game: false, players.Carissa.in_game: false}",
    ).replace("{name: Carissa}", "{name: Carissa, life: 3}")
    sc = _scenario(tmp_path, text, db)
    assert run_scenario(sc, db) == []
    pl = sc.game.v.pl
    assert PL.HOW_NAMES[pl[1, PL.P_HOW]] == "commander-damage"
    assert PL.HOW_NAMES[pl[2, PL.P_HOW]] == "combat"
    assert pl[0, PL.P_HOW] == PL.HOW_WON and pl[0, PL.P_WON]


TWIN = """
import hashlib, sys
import numpy as np
sys.path.insert(0, "tests")
from test_commander import pod
from components.state import GAME_LAYOUT
from ecs.engine import Options, call, pod_template, seed_rng
from systems import entry
prints = []
for variant, n, casual in [("free-for-all", 4, "commander"), ("two-headed-giant", 4, "commander"),
                           ("two-player", 2, "brawl"), ("emperor", 6, "commander")]:
    comp, a = pod_template(pod(n), variant, Options(max_turns=120, casual=(casual,)))
    A = np.tile(a, (3, 1))
    for g in range(3):
        seed_rng(A[g], 100 + g)
    call(entry.DEAL, A, comp.arena)
    call(entry.PLAY, A, comp.arena, 0)
    prints += [GAME_LAYOUT.fingerprint(A[g]) for g in range(3)]
print(hashlib.sha256("".join(prints).encode()).hexdigest())
"""


@pytest.mark.slow
def test_the_twin_and_the_jit_play_the_same_commander_games() -> None:
    """Seeded Commander and Brawl pods (free-for-all, Two-Headed Giant, duel, Emperor)
    played to the end as the Python twin and compiled: the same final states."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    runs = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable, PYTHONPATH=str(root))
        out = subprocess.run([sys.executable, "-W", "ignore", "-c", TWIN], cwd=root, env=env,
                             capture_output=True, text=True, check=True)  # fmt: skip
        runs.append(out.stdout.strip().splitlines()[-1])
    assert runs[0] == runs[1]


# ----------------------------------------------------- a colour chosen before the game
PIPER = "The Prismatic Piper"


def piper_deck(commanders: list[str] | None = None) -> Decklist:
    return Decklist(["Forest"] * 40 + ["Command Tower", "Arcane Signet"] + (GREEN * 6)[:57],
                    commanders or [PIPER])  # fmt: skip


def _piper_objects(g: Game) -> list[int]:
    return [i for i in range(int(g.v.s[G.S_N])) if g.v.o[i, O.F_CARD] >= 0
            and g.card_name(i) == PIPER]  # fmt: skip


def test_the_piper_as_a_commander_is_its_chosen_colour(db) -> None:
    """903.4b, 604.3: "If The Prismatic Piper is your commander, choose a color before the
    game begins. The Prismatic Piper is the chosen color": green chosen, it is green in
    the command zone, its owner's colour identity is green (Command Tower, Arcane Signet
    make {G}); the other player's Piper, not a commander, is colourless."""
    other = Decklist(red_deck().main[:-1] + [PIPER], ["Kamahl, Pit Fighter"])
    g = Game.new([piper_deck(), other], variant="two-player", seed=2, db=db,
                 commander_colors=[["G"], []])  # fmt: skip
    (c,) = _commanders(g, 0)
    assert g.card_name(c) == PIPER and g.v.o[c, O.F_ZONE] == COMMAND
    assert int(g.v.o[c, O.F_COLORS]) == 16  # G
    view = g.view()
    assert view["players"]["P0"]["command"] == [PIPER]
    assert [e["colors"] for e in view["cards"].values()
            if e["name"] == PIPER and e["zone"] == "command"] == [["G"]]  # fmt: skip
    assert view["players"]["P0"]["color_identity"] == ["G"]
    assert view["players"]["P1"]["color_identity"] == ["R"]
    (plain,) = [i for i in _piper_objects(g) if i != c]  # P1's, in its library or hand
    assert int(g.v.o[plain, O.F_OWNER]) == 1 and int(g.v.o[plain, O.F_COLORS]) == 0
    assert g.setup["commander_colors"] == [["G"], []]


def test_two_pipers_as_partners_each_their_own_colour(db) -> None:
    g = Game.new([piper_deck([PIPER, PIPER]), red_deck()], variant="two-player", db=db,
                 commander_colors=["UB", []])  # fmt: skip
    a, b = _commanders(g, 0)
    assert (int(g.v.o[a, O.F_COLORS]), int(g.v.o[b, O.F_COLORS])) == (2, 4)  # U, B
    assert g.view()["players"]["P0"]["color_identity"] == ["U", "B"]
    assert g.card_name(a) == g.card_name(b) == PIPER


def test_a_piper_commander_without_a_colour_is_refused(db) -> None:
    with pytest.raises(SetupError, match=f"{PIPER}: player 0's commander.*commander_colors"):
        Game.new([piper_deck(), red_deck()], variant="two-player", db=db)
    with pytest.raises(SetupError, match="commander_colors"):
        Game.new([piper_deck(), red_deck()], variant="two-player", db=db,
                 commander_colors=[[], []])  # fmt: skip
    with pytest.raises(SetupError, match="not a colour"):
        Game.new([piper_deck(), red_deck()], variant="two-player", db=db,
                 commander_colors=[["X"], []])  # fmt: skip
    with pytest.raises(SetupError, match=r"commander_colors\[1\]: R left over"):
        Game.new([piper_deck(), red_deck()], variant="two-player", db=db,
                 commander_colors=[["G"], ["R"]])  # fmt: skip
    with pytest.raises(SetupError, match="chosen colours are for commanders"):
        Game.new([red_deck().main, red_deck().main], variant="two-player", db=db,
                 commander_colors=[["G"], []])  # fmt: skip
    with pytest.raises(SetupError, match="its colour is chosen before the game"):
        pod_template([piper_deck(), red_deck()], "two-player", db=db)  # (a batch's pods)


def test_a_scenario_gives_the_chosen_colour_on_the_commander_entry(tmp_path, db) -> None:
    text = BASE.format(casual="commander", alex=f"command: [{{card: {PIPER}, commander: true}}]",
                       bianca="", actions="[]", expect="{}")  # fmt: skip
    with pytest.raises(ScenarioError, match="color.*903.4b"):
        _scenario(tmp_path, text, db)
    text = BASE.format(casual="commander", alex=f"hand: [{{card: {PIPER}, color: G}}]",
                       bianca="", actions="[]", expect="{}")  # fmt: skip
    with pytest.raises(ScenarioError, match="only for a commander"):
        _scenario(tmp_path, text, db)
    text = BASE.format(casual="commander",
                       alex=f"command: [{{card: {PIPER}, commander: true, color: g}}]",
                       bianca="", actions="[]", expect="{}")  # fmt: skip
    with pytest.raises(ScenarioError, match="W, U, B, R or G"):
        _scenario(tmp_path, text, db)


def test_a_commander_draft_game_plays_the_piper_in_its_colour(db, monkeypatch) -> None:
    """903.13e, 903.13g: `melee draft --format commander --play` gives each deck's chosen
    colours to the game."""
    from types import SimpleNamespace

    from ecs import draft as D
    from ecs import engine

    cset = D.load_set("commander-legends")
    pool = ["Preordain", "Strategic Planning", "Horizon Scholar", "Prying Eyes"]
    one = D.build_commander_deck(0, pool, cset, db=db)
    two = D.build_commander_deck(1, pool + ["Murder"], cset, db=db)
    assert (one.colors, two.colors) == (["U"], ["U", "B"])
    games = []
    new = engine.Game.new.__func__

    def spy(cls, *args, **kw):
        games.append(new(cls, *args, **kw))
        return games[-1]

    monkeypatch.setattr(engine.Game, "new", classmethod(spy))
    rows = D.play_games(SimpleNamespace(notes=[]), [one, two], seed=1, max_turns=4, db=db)
    assert rows[0]["commanders"] == {"P0": [PIPER], "P1": [PIPER, PIPER]}
    g = games[0]
    assert g.view()["players"]["P0"]["color_identity"] == ["U"]
    assert g.view()["players"]["P1"]["color_identity"] == ["U", "B"]
    colors = sorted(int(g.v.o[i, O.F_COLORS]) for p in range(2) for i in _commanders(g, p))
    assert colors == [2, 2, 4]
