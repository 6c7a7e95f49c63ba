"""The compiled engine (systems/compiled_game.py) against the Python engine.

OpenSpiel-style consistency: the compiled engine plays a game with random agents and
records every decision (who decided, how many legal actions there were, which one
was taken) and every random event (shuffles, random discards). The Python engine then
replays the game from the same setup: at every decision the pending player, the
number of legal actions and the chosen action (kind, object, argument, targets, at
the same index) must agree; random events are fed from the trace. At the end the
outcome (who won, lost, drew; turns; life and poison) must agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from ecs.compiled import (
    Batch,
    TraceRng,
    Unsupported,
    _setup,
    agent_seed,
    compiled_cards,
    deal_columns,
    play_compiled,
    run_batch,
    supports,
)
from ecs.decks import load_deck, stock_decks
from ecs.game import Game, Options
from ecs.legacy.systems import compiled_game as k

DECKS = {d: load_deck(d).main for d in stock_decks()}
NAMES = sorted(DECKS)
PEND = {k.PEND_PRIORITY: "priority", k.PEND_ATTACK: "attack", k.PEND_BLOCK: "block"}
PEND[k.PEND_DISCARD] = "discard"
KIND = {
    k.A_PASS: "pass", k.A_LAND: "play_land", k.A_CAST: "cast", k.A_ACTIVATE: "activate",
    k.A_ATTACK: "attack", k.A_ATTACK_DONE: "attack_done", k.A_BLOCK: "block",
    k.A_BLOCK_DONE: "block_done", k.A_BLOCK_RESET: "block_reset", k.A_DISCARD: "discard",
}  # fmt: skip
ScriptedRng = TraceRng  # the compiled game's random events, in order (no fallback here)


def _new(decks, seed, max_turns=200, reach=None, attack=None, variant=None) -> Game:
    variant = variant or ("two-player" if len(decks) == 2 else "free-for-all")
    opts = Options(range_of_influence=reach, attack=attack)
    return Game.new(
        decks, variant=variant, seed=seed, max_turns=max_turns, auto_pass=True, options=opts
    )


def compiled_trace(decks, seed, max_turns=200, reach=None, attack=None, variant=None):
    """The compiled game and its trace: exported from ``Game.new``'s game at its first
    decision, or (Grand Melee, whose markers aren't exported) dealt by ``_setup``."""
    cc = compiled_cards()
    n = sum(len(d) for d in decks)  # room for long games (play_compiled grows on demand)
    batch = Batch(1, len(decks), n + 4 * (64 * len(decks) + 256), trace=200_000, scale=4)
    if variant == "grand-melee":
        cols = deal_columns([np.array([cc.db.index(c) for c in d]) for d in decks])
        _setup(batch, 0, *cols, variant, len(decks), seed, max_turns, cc.ct,
               agent_seed(seed), reach, attack)  # fmt: skip
    else:
        g = _new(decks, seed, max_turns, reach, attack, variant)
        batch.load(0, g, seed=agent_seed(seed))
        g.close()
    run_batch(batch, cc)
    n = int(batch.S[0, k.S_NTR])
    assert n < batch.TR.shape[1], "trace too short"
    return batch, batch.TR[0, :n]


def replay(decks, seed, max_turns=200, reach=None, attack=None, variant=None):
    batch, tr = compiled_trace(decks, seed, max_turns, reach, attack, variant)
    assert batch.S[0, k.S_ERROR] == 0
    py = _new(decks, seed, max_turns, reach, attack, variant)
    py.rng = ScriptedRng([r for r in tr if r[0] in (k.T_SHUFFLE, k.T_RANDOM)])
    decisions = [r for r in tr if r[0] in PEND]
    for n, r in enumerate(decisions):
        where = f"decision {n} (turn {py.turn}, step {py.step_name()})"
        assert not py.over, f"{where}: the Python game is over"
        assert py.pending.kind == PEND[int(r[0])], f"{where}: {py.pending} vs {PEND[int(r[0])]}"
        assert py.pending.player == r[1], f"{where}: player {py.pending.player} vs {r[1]}"
        legal = py.legal_actions()
        a = legal[int(r[8])] if r[8] < len(legal) else None
        want = (
            KIND[int(r[3])],
            int(r[4]),
            int(r[5]),
            tuple(int(t) for t in r[6:8] if t != k.NO_TARGET),
        )
        got = (a.kind, a.obj, a.arg if a.kind != "cast" else 0, a.targets) if a else None
        assert len(legal) == r[2] and got == want, (
            f"{where}: {len(legal)} legal actions in Python, {r[2]} compiled; "
            f"index {r[8]}: Python {got} vs compiled {want}; Python's list: {legal[:12]}"
        )
        py.step(a)
    assert py.over and batch.S[0, k.S_OVER], "both games are over"
    P = len(decks)
    assert py.turn == batch.S[0, k.S_TURN]
    assert list(py.pl.won) == [bool(x) for x in batch.PL[0, :P, k.P_WON]]
    assert list(py.pl.drawn) == [bool(x) for x in batch.PL[0, :P, k.P_DRAWN]]
    assert list(py.pl.lost) == [bool(x) for x in batch.PL[0, :P, k.P_LOST]]
    assert list(py.pl.life) == list(batch.PL[0, :P, k.P_LIFE])
    assert list(py.pl.poison) == list(batch.PL[0, :P, k.P_POISON])
    return len(decisions)


@pytest.mark.parametrize("seed", range(24))
def test_two_player_games_agree(seed):
    decks = [DECKS[NAMES[seed % 6]], DECKS[NAMES[(seed // 6 + seed + 1) % 6]]]
    assert replay(decks, seed) > 0


@pytest.mark.parametrize("seed", range(24))
def test_four_player_games_agree(seed):
    decks = [DECKS[NAMES[(seed + i) % 6]] for i in range(4)]
    assert replay(decks, 100 + seed) > 0


@pytest.mark.parametrize("seed", range(4))
def test_six_player_games_agree(seed):
    decks = [DECKS[NAMES[(seed + i) % 6]] for i in range(6)]
    assert replay(decks, 200 + seed) > 0


@pytest.mark.parametrize("players,reach,attack", [(2, None, None), (4, None, None), (5, 1, "left")])
def test_fast_setup_makes_the_same_games_as_game_new(players, reach, attack):
    """play_compiled deals games without building a Python Game (ecs.compiled._setup):
    the same seats, libraries, starting player, opening hands and so the same games."""
    cc = compiled_cards()
    for seed in range(6):
        decks = [DECKS[NAMES[(seed + i) % 6]] for i in range(players)]
        batch, tr = compiled_trace(decks, seed, reach=reach, attack=attack)
        fast = Batch(1, players, 64 * players + 256, trace=40_000)
        cols = deal_columns([np.array([cc.db.index(c) for c in d]) for d in decks])
        variant = "two-player" if players == 2 else "free-for-all"
        _setup(fast, 0, *cols, variant, players, seed, 200, cc.ct,
               agent_seed(seed), reach, attack)  # fmt: skip
        run_batch(fast, cc)
        assert (fast.TR[0, : fast.S[0, k.S_NTR]] == tr).all()
        assert (fast.PL[0, :, : k.P_HA_VER] == batch.PL[0, :, : k.P_HA_VER]).all()
        assert fast.S[0, k.S_TURN] == batch.S[0, k.S_TURN]


@pytest.mark.parametrize(
    "players,reach,attack",
    [(5, 1, "left"), (6, 1, "right"), (6, 2, "multiple"), (4, None, "left"), (8, 1, "left")],
)
@pytest.mark.parametrize("seed", range(3))
def test_range_of_influence_games_agree(players, reach, attack, seed):
    """801 (targets, effects, triggers, prevention, layers, SBAs within range) and 803."""
    decks = [DECKS[NAMES[(seed + i) % 6]] for i in range(players)]
    assert replay(decks, 300 + seed, reach=reach, attack=attack) > 0


@pytest.mark.parametrize("players", [4, 5, 8, 9, 12, 16])
@pytest.mark.parametrize("seed", range(2))
def test_grand_melee_games_agree(players, seed):
    """807: turn markers (one per four players, 807.4a-b), simultaneous turns advanced in
    the documented interleaving, one stack per marker with priority only within range
    (807.5a), markers passed left, waiting (807.4d) and removed as players leave
    (807.4e-g); range 1 and attack left by default (807.2-807.3)."""
    decks = [DECKS[NAMES[(seed + i) % 6]] for i in range(players)]
    assert replay(decks, 500 + seed, variant="grand-melee") > 0


def test_a_24_player_grand_melee_agrees():
    """Six markers round a big table (checked by hand up to 100 players)."""
    decks = [DECKS[NAMES[i % 6]] for i in range(24)]
    assert replay(decks, 24, variant="grand-melee") > 0


@pytest.mark.parametrize("variant", ["free-for-all", "grand-melee"])
def test_object_indexes_follow_the_zones(variant):
    """The kernel's id-ordered lists (``hand``: each player's hand; ``bf``: the
    permanents) say what the zone column says, stopped mid-game after any number of
    decisions and at the end."""
    cc = compiled_cards()
    P, checked, grouped = 8, 0, 0
    for budget in (40, 150, 400, 1_000_000):
        batch = Batch(4, P, 8 * 60 + 4 * (64 * P + 256), scale=4)
        for g in range(4):
            decks = [DECKS[NAMES[(g + i) % 6]] for i in range(P)]
            cols = deal_columns([np.array([cc.db.index(c) for c in d]) for d in decks])
            _setup(batch, g, *cols, variant, P, 40 + g, 200, cc.ct, agent_seed(g), None, None)
        run_batch(batch, cc, max_decisions=budget)
        for g in range(4):
            zone = batch.O[g, : batch.S[g, k.S_N], k.F_ZONE]
            owner = batch.O[g, : batch.S[g, k.S_N], k.F_OWNER]
            for p in range(P):
                hand = np.flatnonzero((zone == k.HAND) & (owner == p))
                assert list(batch.HAND[g, p, : batch.PL[g, p, k.P_HANDN]]) == list(hand)
            bf = np.flatnonzero(zone == k.BATTLEFIELD)
            assert list(batch.BF[g, : batch.S[g, k.S_NBF]]) == list(bf)
            if batch.S[g, k.S_LDIRTY] == 0 and not batch.S[g, k.S_OVER]:  # layers fresh
                ctl = batch.O[g, bf, k.F_CTL]
                for p in range(P):
                    h0, nh = batch.PL[g, p, k.P_HELD0], batch.PL[g, p, k.P_NHELD]
                    assert list(batch.HELD[g, h0 : h0 + nh]) == list(bf[ctl == p])
                    grouped += 1
            checked += len(bf) > 0
    assert checked >= 12  # (most of the games have permanents by then)
    assert grouped >= 4 * P  # (most stops are at a decision the layers were looked at for)


def test_grand_melee_turn_cap_counts_rounds():
    """The safety cap counts max_turns turns for each marker the game began with."""
    decks = [DECKS[NAMES[i % 6]] for i in range(8)]
    replay(decks, 7, max_turns=3, variant="grand-melee")
    res = play_compiled(decks, 8, 2, seed=7, max_turns=3, variant="grand-melee")
    assert (res["turns"] == 6).all() and res["drawn"].any()


def test_turn_cap_is_a_draw_in_both():
    decks = [DECKS["big-green"], DECKS["white-fliers"]]
    replay(decks, 5, max_turns=3)
    res = play_compiled(decks, 2, 3, seed=5, max_turns=3)
    assert (res["turns"] == 3).all() and res["drawn"].all() and (res["winner"] == -1).all()


def test_same_seed_same_games():
    decks = [DECKS[n] for n in NAMES]
    a = play_compiled(decks, 4, 6, seed=11)
    b = play_compiled(decks, 4, 6, seed=11)
    for key in ("turns", "winner", "life", "decisions"):
        assert (a[key] == b[key]).all()
    c = play_compiled(decks, 4, 6, seed=12)
    assert not (a["decisions"] == c["decisions"]).all()


def test_a_reused_batch_plays_the_same_games():
    """play_compiled keeps its batch for the next call and deals into slots used before:
    any chunk size, any order of calls, the same games."""
    decks = [DECKS[n] for n in NAMES]
    for players, variant in ((8, "grand-melee"), (4, "free-for-all")):
        a = play_compiled(decks, players, 7, seed=3, variant=variant, chunk=7)
        b = play_compiled(decks, players, 7, seed=3, variant=variant, chunk=3)
        c = play_compiled(decks, players, 7, seed=3, variant=variant, chunk=2)
        for key in ("turns", "winner", "life", "decisions", "won", "lost"):
            assert (a[key] == b[key]).all() and (a[key] == c[key]).all(), key


def test_what_runs_compiled():
    stock = [DECKS[n] for n in NAMES]
    assert supports("free-for-all", stock) is None
    assert supports("two-player", stock[:2]) is None
    assert supports("grand-melee", stock) is None
    assert "two-headed-giant" in supports("two-headed-giant", stock)
    assert supports("free-for-all", stock, range_of_influence=1, attack="left") is None
    assert "Fact or Fiction" in supports("free-for-all", [["Fact or Fiction"] * 40] * 4)
    with pytest.raises(Unsupported, match="mulligans"):
        raise Unsupported(supports("free-for-all", stock, mulligans=True))


def test_every_stock_card_compiles():
    cc = compiled_cards()
    for deck in DECKS.values():
        for name in set(deck):
            assert cc.supported[cc.db.index(name)], cc.why.get(cc.db.index(name))


def test_a_full_table_is_flagged_and_the_game_played_again():
    """A game whose objects outgrow the arrays stops with an error flag; play_compiled
    plays it again with bigger tables, which gives the same game."""
    cc = compiled_cards()
    decks = [DECKS[NAMES[i % 6]] for i in range(4)]
    cols = deal_columns([np.array([cc.db.index(c) for c in d]) for d in decks])
    small = Batch(1, 4, 240 + 12)  # room for the cards and a dozen more objects
    _setup(small, 0, *cols, "free-for-all", 4, 3, 200, cc.ct, agent_seed(3))
    run_batch(small, cc)
    assert small.S[0, k.S_ERROR] == k.ERR_OVERFLOW and small.S[0, k.S_OVER]
    big = play_compiled(decks, 4, 1, seeds=[3])
    assert big["errors"][0] == 0 and big["turns"][0] > small.S[0, k.S_TURN]
    retried = play_compiled(decks, 4, 1, seeds=[3], objects=240 + 12)  # overflows, then again
    assert retried["errors"][0] == 0
    for key in ("life", "turns", "decisions", "won"):
        assert (big[key] == retried[key]).all()


def _kernel_state(batch: Batch) -> tuple:
    """Slot 0 of a batch as the kernel's (GameState, CardTables), to call its functions."""
    arrays = [a if a is batch.ACTS else a[0] for a in batch.arrays()]
    return k.GameState(*arrays), compiled_cards().tables()


def test_807_4g_a_designation_passed_to_a_waiting_marker_removes_it_at_once():
    """807.4g: a marker designated twice is removed when its turn ends and the marker to
    its right is designated once; that marker's holder isn't taking a turn (waiting,
    807.4d), so it is removed immediately. Both engines, from the same table."""
    decks = [DECKS[NAMES[i % 6]] for i in range(12)]
    g = _new(decks, 3, variant="grand-melee")
    from ecs.legacy.systems import turn_markers

    assert [m.number for m in g.markers] == [1, 2, 3]
    right = turn_markers._marker_to_right(g, g.markers[0].holder, exclude=g.markers[0])
    assert right is g.markers[2]  # (the third marker sits four seats to the first's right)
    turn_markers.save(g)
    turn_markers.load(g, 0)
    g.markers[0].removal = 2
    g.markers[2].waiting = True
    turn_markers.end_turn(g)
    assert [m.number for m in g.markers] == [2]

    cc = compiled_cards()
    batch = Batch(1, 12, sum(len(d) for d in decks) + 4 * (64 * 12 + 256), scale=4)
    cols = deal_columns([np.array([cc.db.index(c) for c in d]) for d in decks])
    _setup(batch, 0, *cols, "grand-melee", 12, 3, 200, cc.ct, agent_seed(3))
    st, cd = _kernel_state(batch)
    k.start_game(st, cd)
    assert list(batch.MK[0, :3, k.K_NUMBER]) == [1, 2, 3]
    k.marker_save(st)
    k.marker_load(st, 0)
    batch.MK[0, 0, k.K_REMOVAL] = 2
    batch.MK[0, 2, k.K_WAITING] = 1
    k.marker_end_turn(st, cd)
    assert batch.S[0, k.S_NMARK] == 1 and batch.MK[0, 0, k.K_NUMBER] == 2
