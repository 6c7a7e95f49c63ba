"""The casual variants that live in the command zone (901 Planechase, 902 Vanguard, 904
Archenemy / Supervillain Rumble): every plane, phenomenon, scheme and avatar of the pool
is played in a smoke game to its end by random agents; the stock setup for batches
(ecs/casual.py) is drawn from the seed and follows the variants' setup rules."""

from __future__ import annotations

import numpy as np
import pytest

from components import game as G
from components import players as PL
from components.rules import T_PLANE
from components.state import GAME_LAYOUT
from ecs import casual as C
from ecs.cards import load_pool
from ecs.engine import Options, call

DB = load_pool()
DECK = ["Mountain"] * 8 + ["Forest"] * 8 + ["Grizzly Bears"] * 4 + ["Hill Giant"] * 4


def _play(decks, setup, variant="free-for-all", seed=1, turns=12):
    from systems import entry

    g = C.casual_game(decks, setup.casual, variant, seed, Options(max_turns=turns), setup, DB)
    n = call(entry.PLAY, g.arena, g.compiled.arena, 0)
    v = GAME_LAYOUT.views(g.arena)
    assert v.s[G.S_ERROR] == 0, G.ERROR_NAMES[int(v.s[G.S_ERROR])]
    assert v.s[G.S_OVER] == 1
    return g, n


def test_every_casual_card_compiles():
    for names in (
        C.stock_planes(DB),
        C.stock_phenomena(DB),
        C.stock_schemes(DB),
        C.stock_avatars(DB),
    ):
        assert names
        for name in names:
            assert DB.check(name) is None


def test_stock_lists_are_kept_but_handed_out_as_copies():
    planes = C.stock_planes(DB)
    planes.clear()  # (a caller's list: the pool's stays whole)
    again = C.stock_planes(DB)
    assert again and again == C._find_of_type(DB, T_PLANE)


@pytest.mark.parametrize("card", C.stock_planes(DB) + C.stock_phenomena(DB))
def test_each_plane_and_phenomenon_plays(card):
    """The card first in a ten-card planar deck of each player (901.4's least; a
    phenomenon is encountered when someone planeswalks to it; random agents roll the
    die). (With three-card decks, Pools of Becoming revealing the other player's Pools
    of Becoming again and again is a loop no state repeats in.)"""
    planes = [c for c in C.stock_planes(DB) if c != card]
    setup = C.CasualSetup(
        ("planechase",), planar_decks=[[card, *planes[9 * k : 9 * k + 9]] for k in range(2)]
    )
    g, _ = _play([DECK, DECK], setup, "two-player")
    assert int(GAME_LAYOUT.views(g.arena).s[G.S_TURN]) >= 1


@pytest.mark.parametrize("card", C.stock_schemes(DB))
def test_each_scheme_plays(card):
    setup = C.CasualSetup(("archenemy",), scheme_decks=[[card, card], [], []], archenemy=0)
    g, _ = _play([DECK, DECK, DECK], setup)
    v = GAME_LAYOUT.views(g.arena)
    assert v.pl[0, PL.P_ROLE] == PL.ROLE_ARCHENEMY


@pytest.mark.parametrize("card", C.stock_avatars(DB))
def test_each_avatar_plays(card):
    setup = C.CasualSetup(("vanguard",), vanguards=[card, "Orim"])
    hand, life = C.modifiers(DB.compile([card]), card)
    g, _ = _play([DECK, DECK], setup, "two-player", turns=1)
    v = GAME_LAYOUT.views(g.arena)
    assert v.pl[0, PL.P_START_HAND] == 7 + hand
    assert v.pl[0, PL.P_MAXHAND] == 7 + hand


def test_stock_setup_follows_the_rules_and_the_seed():
    a = C.choose(["planechase", "archenemy", "vanguard"], 4, 5, db=DB)
    b = C.choose(["planechase", "archenemy", "vanguard"], 4, 5, db=DB)
    assert a == b
    for deck in a.planar_decks:  # 901.3: ten different cards, at most two phenomena
        assert len(deck) == 10 and len(set(deck)) == 10
        assert sum(c in C.stock_phenomena(DB) for c in deck) <= 2
    arch = a.scheme_decks[a.archenemy]  # 904.3: twenty, no more than two of a name
    assert len(arch) == 20 and max(arch.count(c) for c in arch) <= 2
    assert all(not d for p, d in enumerate(a.scheme_decks) if p != a.archenemy)
    assert all(v in C.stock_avatars(DB) for v in a.vanguards)
    single = C.choose(["planechase"], 3, 5, single_planar_deck=True, db=DB)
    room = len(C.stock_planes(DB)) + min(
        6, len(C.stock_phenomena(DB))
    )  # 901.15a (as the pool allows)
    assert len(single.communal_deck) == min(40, 30, room) and not single.planar_decks
    assert sum(c in C.stock_phenomena(DB) for c in single.communal_deck) <= 6


def test_archenemy_setup_life_team_and_first_turn():
    """904.2-904.6: the archenemy alone against the rest, 40 life against 20, the first
    turn; the heroes share their turns."""
    setup = C.choose(["archenemy"], 4, 3, db=DB)
    g = C.casual_game([DECK] * 4, ["archenemy"], seed=3, setup=setup, db=DB)
    v = GAME_LAYOUT.views(g.arena)
    arch = setup.archenemy
    assert v.s[G.S_STARTING] == arch and v.s[G.S_TEAM_TURNS] == 1
    for p in range(4):
        assert v.pl[p, PL.P_LIFE] == (40 if p == arch else 20)
        assert (v.pl[p, PL.P_TEAM] == v.pl[arch, PL.P_TEAM]) == (p == arch)


@pytest.mark.parametrize("casual", [["planechase"], ["vanguard"], ["archenemy"], ["supervillain-rumble"],
                                    ["planechase", "archenemy", "vanguard"]])  # fmt: skip
def test_four_player_batches_play_to_the_end(casual):
    from systems import entry

    setup = C.choose(casual, 4, 11, db=DB)
    comp = DB.compile(sorted(set(DECK) | setup.cards()))
    a = C.casual_arena(comp, [DECK] * 4, "free-for-all", Options(max_turns=40), setup)
    A = np.tile(a, (3, 1))
    from ecs.engine import seed_rng

    for k in range(3):
        seed_rng(A[k], k)
    call(entry.DEAL, A, comp.arena)
    call(entry.PLAY, A, comp.arena, 0)
    for k in range(3):
        v = GAME_LAYOUT.views(A[k])
        assert v.s[G.S_OVER] == 1 and v.s[G.S_ERROR] == 0


TWIN_SCRIPT = """
import numpy as np
from ecs import casual as C
from ecs.cards import load_pool
from ecs.engine import Options, call, seed_rng
from components.state import GAME_LAYOUT
from systems import entry
db = load_pool()
deck = {deck!r}
for casual in (["planechase"], ["vanguard"], ["archenemy"], ["supervillain-rumble"]):
    setup = C.choose(casual, 4, 7, db=db)
    comp = db.compile(sorted(set(deck) | setup.cards()))
    a = C.casual_arena(comp, [deck] * 4, "free-for-all", Options(max_turns=60), setup)
    A = np.tile(a, (3, 1))
    for g in range(3):
        seed_rng(A[g], g)
    call(entry.DEAL, A, comp.arena)
    call(entry.PLAY, A, comp.arena, 0)
    print(casual, [GAME_LAYOUT.fingerprint(A[g]) for g in range(3)])
"""


@pytest.mark.slow
def test_the_jit_plays_the_casual_variants_like_the_twin(tmp_path):
    """The compiled engine and its Python twin (NUMBA_DISABLE_JIT=1) play the same
    seeded games of every casual variant here (the same final states)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    script = TWIN_SCRIPT.format(deck=DECK)
    out = []
    for twin in (False, True):
        env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(tmp_path / "nbc"))
        if twin:
            env["NUMBA_DISABLE_JIT"] = "1"
        else:
            env.pop("NUMBA_DISABLE_JIT", None)
        r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True)  # fmt: skip
        out.append([line for line in r.stdout.splitlines() if line.startswith("[")])
    assert out[0] == out[1] and len(out[0]) == 4
