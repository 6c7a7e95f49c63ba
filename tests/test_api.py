"""The step API (ecs.engine.Game): random legal play with the state's invariants after
every action, refused actions leave the state exactly as it was (730.1), determinism,
cloning and pickling, the compiled agents, and the Python twin playing the same games
as the compiled engine."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from components import cards as K
from components import game as G
from components import objects as O
from components import players as PL
from components.rules import BATTLEFIELD, GONE, GRAVEYARD, HAND, LIBRARY, STACK
from ecs.agents import MonteCarloAgent, PolicyAgent, RandomAgent, play_game
from ecs.decks import load_deck
from ecs.engine import Action, Game, IllegalAction, Options, SetupError

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("burn", "big-green", "white-fliers", "dimir-control", "red-aggro", "selesnya-midrange")
DECKS = {d: load_deck(d).main for d in NAMES}


def _decks(n: int, k: int = 0) -> list[list[str]]:
    return [DECKS[NAMES[(k + i) % len(NAMES)]] for i in range(n)]


def check_invariants(g: Game) -> None:
    v = g.v
    s, o, pl = v.s, v.o, v.pl
    n = int(s[G.S_N])
    zone = o[:n, O.F_ZONE]
    for p in range(len(g.names)):  # the ordered zones agree with the zone column
        lib = [int(i) for i in v.lib[p, : pl[p, PL.P_LIBN]]]
        hand = [int(i) for i in v.hand[p, : pl[p, PL.P_HANDN]]]
        assert len(set(lib)) == len(lib) and len(set(hand)) == len(hand)
        assert all(zone[i] == LIBRARY and o[i, O.F_OWNER] == p for i in lib)
        assert all(zone[i] == HAND and o[i, O.F_OWNER] == p for i in hand)
    assert sum(int(pl[p, PL.P_LIBN]) for p in range(len(g.names))) == int((zone == LIBRARY).sum())
    assert sum(int(pl[p, PL.P_HANDN]) for p in range(len(g.names))) == int((zone == HAND).sum())
    bf = [int(i) for i in v.bf[: s[G.S_NBF]]]
    assert sorted(bf) == [int(i) for i in np.flatnonzero(zone == BATTLEFIELD)]
    if not s[G.S_NMARK]:  # one stack (Grand Melee keeps one per marker)
        stk = [int(i) for i in v.stk[: s[G.S_NSTK]]]
        assert sorted(stk) == [int(i) for i in np.flatnonzero(zone == STACK)]
    flags = np.array([r[K.C_FLAGS] for r in g.compiled.tables.rows["ct"]])
    cards = o[:n, O.F_CARD]
    works = (cards >= 0) & ((flags[np.maximum(cards, 0)] & K.CF_FROM_GRAVEYARD) != 0)
    for p in range(len(g.names)):  # the listing's count of cards that work from a graveyard
        mine = (zone == GRAVEYARD) & (o[:n, O.F_OWNER] == p) & (o[:n, O.F_TOKEN] == 0) & works
        assert int(pl[p, PL.P_NGRAVE_ACT]) == int(mine.sum())
    assert (o[:n, O.F_DMG] >= 0).all() and (o[:n, O.F_CTR : O.F_CTR + 8] >= 0).all()
    assert (pl[:, PL.P_MANA : PL.P_MANA + 6] >= 0).all()
    for p in range(len(g.names)):  # 800.4a: players who left own nothing left in the game
        if not pl[p, PL.P_ALIVE] and not g.over:  # (104.2: an ended game keeps its position)
            assert not ((o[:n, O.F_OWNER] == p) & (zone != GONE)).any()
    if s[G.S_VARIANT] == 5:  # two-headed giant: 810.4 one life total per team
        for p in range(len(g.names)):
            assert pl[p, PL.P_LIFEPOOL] == pl[int(pl[p, PL.P_LIFEPOOL]), PL.P_LIFEPOOL]
    teams = {int(pl[p, PL.P_TEAM]) for p in range(len(g.names)) if pl[p, PL.P_ALIVE]}
    if g.over:
        assert len(teams) <= 1 or g.drawn or g.capped
    else:
        assert g.n_actions() > 0, "a pending decision always has an option"
        assert pl[g.current_player(), PL.P_ALIVE]


CONFIGS = [
    (2, "two-player"), (4, "free-for-all"), (5, "free-for-all"), (4, "team-vs-team"),
    (6, "emperor"), (6, "alternating-teams"), (4, "two-headed-giant"), (8, "grand-melee"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_random_play_keeps_the_invariants(players: int, variant: str) -> None:
    for seed in range(2):
        g = Game.new(_decks(players, seed), variant=variant, seed=seed,
                     options=Options(max_turns=40, mulligans=True))  # fmt: skip
        rng = np.random.default_rng(seed)
        steps = 0
        while not g.over and steps < 4000:
            check_invariants(g)
            n = g.n_actions()
            g.clone().step(n - 1)  # every listed option is accepted (on a clone)
            g.step(int(rng.integers(n)))
            steps += 1
        check_invariants(g)
        assert g.over


def test_block_options_after_a_declaration_are_the_full_listing() -> None:
    """After a blocker is declared, the next listing is the one before without that
    blocker's rows (systems/legal_actions._block_relist); it must be exactly what a
    listing afresh gives (forced on a clone by forgetting the declaration)."""
    compared = 0
    for seed in range(8):
        g = Game.new(_decks(4, seed), variant="free-for-all", seed=seed)
        rng = np.random.default_rng(seed)
        after_block = False
        while not g.over and g.turn < 60:
            if after_block and g.pending()[0] == "block":
                fresh = g.clone()
                fresh.v.s[G.S_BLOCK_LAST] = 0
                fresh.refresh()
                assert fresh.legal_actions() == g.legal_actions()
                compared += 1
            n = g.n_actions()
            k = int(rng.integers(n))
            after_block = g.legal_actions()[k].kind == "block"
            g.step(k)
    assert compared >= 20, compared


def test_random_play_with_cards_that_work_from_the_graveyard() -> None:
    """Unearth (Extractor Demon, whose trigger mills), flashback (Cackling Counterpart) and
    a mutate cast from the graveyard (Brokkos): random play keeps the invariants, the count
    of such cards in each graveyard among them, and casts and activations from a graveyard
    are offered."""
    deck = (["Swamp"] * 8 + ["Island"] * 8 + ["Forest"] * 8 + ["Mountain"] * 6
            + ["Extractor Demon", "Cackling Counterpart", "Brokkos, Apex of Forever",
               "Lightning Bolt", "Grizzly Bears"] * 4)  # fmt: skip
    used = 0
    for seed in range(3):
        g = Game.new([deck, deck], variant="two-player", seed=seed, options=Options(max_turns=40))
        rng = np.random.default_rng(seed)
        while not g.over:
            check_invariants(g)
            n = g.n_actions()
            for a in g.legal_actions():
                if a.kind in ("cast", "activate") and a.obj >= 0:
                    used += int(g.v.o[a.obj, O.F_ZONE] == GRAVEYARD)
            g.step(int(rng.integers(n)))
        check_invariants(g)
    assert used > 0


def test_refused_options_leave_the_state_exactly_as_it_was() -> None:
    g = Game.new(_decks(4), seed=3, options=Options(max_turns=40))
    rng = np.random.default_rng(0)
    refused = 0
    while not g.over and refused < 200:
        n = g.n_actions()
        p = g.current_player()
        legal = set(g.legal_actions())
        bogus = [Action("cast", p, 0), Action("play_land", (p + 1) % 4, 1), Action("attack", p, 0, -1),
                 Action("block", p, 0, 1), Action("pass", (p + 1) % 4)]  # fmt: skip
        before = g.fingerprint()
        for b in bogus:
            if b in legal:
                continue
            with pytest.raises(IllegalAction):
                g.step(b)
            refused += 1
        for k in (n, n + 5, -1):
            with pytest.raises(IllegalAction):
                g.step(k)
            refused += 1
        assert g.fingerprint() == before
        g.step(int(rng.integers(n)))
    assert refused >= 200


def _play(seed: int, players: int = 4) -> tuple:
    g = Game.new(_decks(players, seed), seed=seed, options=Options(max_turns=60))
    play_game(g, [RandomAgent(seed + p) for p in range(players)])
    return g.turn, tuple(g.winners), tuple(g.drawn), tuple(g.history), g.fingerprint()


def test_same_seed_same_game() -> None:
    assert _play(11) == _play(11)
    assert _play(11) != _play(12)


def test_clone_is_independent_and_replays_identically() -> None:
    g = Game.new(_decks(4), seed=5, options=Options(max_turns=60))
    r = np.random.default_rng(1)
    for _ in range(40):
        g.step(int(r.integers(g.n_actions())))
    before = g.fingerprint()
    c = g.clone()
    c.play_out("random")
    assert c.over and g.fingerprint() == before
    c1, c2 = g.clone(), g.clone()
    r1, r2 = np.random.default_rng(3), np.random.default_rng(3)
    while not c1.over:
        c1.step(int(r1.integers(c1.n_actions())))
        c2.step(int(r2.integers(c2.n_actions())))
    assert c1.fingerprint() == c2.fingerprint()


@pytest.mark.parametrize(
    ("variant", "players"), [("grand-melee", 9), ("two-headed-giant", 4), ("emperor", 6)]
)
def test_clone_mid_game_every_variant(variant: str, players: int) -> None:
    g = Game.new(_decks(players), variant=variant, seed=4, options=Options(max_turns=60))
    r = np.random.default_rng(1)
    for _ in range(120):
        if g.over:
            break
        g.step(int(r.integers(g.n_actions())))
    before = g.fingerprint()
    c1, c2 = g.clone(), g.clone()
    c1.play_out("random")
    c2.play_out("random")
    assert c1.fingerprint() == c2.fingerprint()
    assert g.fingerprint() == before


def test_a_game_pickles_mid_game_and_goes_on_the_same() -> None:
    g = Game.new(_decks(4), seed=8, options=Options(max_turns=60))
    r = np.random.default_rng(2)
    for _ in range(60):
        g.step(int(r.integers(g.n_actions())))
    h = pickle.loads(pickle.dumps(g))
    assert h.fingerprint() == g.fingerprint() and h.history == g.history
    g.play_out("random")
    h.play_out("random")
    assert g.fingerprint() == h.fingerprint()


def test_view_hides_hidden_information() -> None:
    g = Game.new(_decks(4), seed=1)
    v = g.view(viewer=0)
    for name, pv in v["players"].items():
        assert pv["library"] is None
        if name != g.names[0]:
            assert pv["hand"] is None and pv["hand_size"] == 7
    assert v["players"][g.names[0]]["hand"] is not None


def test_policy_agent_plays_as_the_batch_does() -> None:
    """A compiled agent asked from Python takes the options it takes in a batch."""
    g = Game.new(_decks(4), seed=21, options=Options(max_turns=80), agents=["heuristic"] * 4)
    h = g.clone()
    play_game(g, [PolicyAgent("heuristic")] * 4)
    h.play_out(None)
    assert g.over and g.fingerprint() == h.fingerprint()


def test_heuristic_beats_random_two_player() -> None:
    wins = 0
    for seed in range(16):
        g = Game.new(_decks(2, seed), variant="two-player", seed=seed, options=Options(max_turns=80),
                     agents=["heuristic", "random"])  # fmt: skip
        g.play_out(None)
        wins += g.winners == [0]
    assert wins >= 11


def test_montecarlo_agent_plays_a_game() -> None:
    g = Game.new(_decks(2), variant="two-player", seed=2, options=Options(max_turns=30))
    play_game(g, [MonteCarloAgent(1, playouts=1, horizon=2, max_actions=3), RandomAgent(2)])
    assert g.over


def test_bad_setup_is_a_clear_error() -> None:
    with pytest.raises(SetupError, match="unknown variant 'pentagram'"):
        Game.new(_decks(4), variant="pentagram")
    with pytest.raises(SetupError, match="attack option"):
        Game.new(_decks(2), options=Options(attack="sideways"))
    with pytest.raises(SetupError, match="two-player: exactly 2 players"):
        Game.new(_decks(3), variant="two-player")
    with pytest.raises(ValueError, match="unknown compiled agent"):
        Game.new(_decks(2), agents=["clever", "random"])


_TWIN = """
import json, sys
from ecs.decks import load_deck
from ecs.engine import Game, Options
from components import game as G
names = ("burn", "big-green", "white-fliers", "dimir-control", "red-aggro", "selesnya-midrange")
out = []
for seed, (variant, n) in enumerate([("two-player", 2), ("free-for-all", 4), ("two-headed-giant", 4),
                                     ("grand-melee", 8), ("emperor", 6)]):
    g = Game.new([load_deck(names[(seed + p) % 6]).main for p in range(n)], variant=variant, seed=seed,
                 options=Options(max_turns=30), trace=20000, agents=["random"] * n)
    g.play_out(None)
    v = g.v
    out.append([g.fingerprint(), v.tr[: int(v.s[G.S_NTR])].tolist()])
print(json.dumps(out))
"""


def test_the_python_twin_plays_the_same_games_as_the_compiled_engine() -> None:
    """The kernels' twin (the same source without the JIT) and the compiled engine give
    identical traces and final states for seeded games of five variants."""
    code = _TWIN
    runs = []
    for twin in (False, True):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        if twin:
            env["NUMBA_DISABLE_JIT"] = "1"
        else:
            env.pop("NUMBA_DISABLE_JIT", None)
        r = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env, cwd=ROOT,
                           capture_output=True, text=True, timeout=1800)  # fmt: skip
        assert r.returncode == 0, r.stderr[-2000:]
        runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1]
    assert all(len(trace) > 50 for _, trace in runs[0])
