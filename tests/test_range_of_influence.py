"""Tests for systems.range_of_influence (rules 801.2, 801.2a-c, 807.4h).

Hand-written cases read like the rules they cite and run against both the numba
kernel and its plain-Python twin; property tests check that the two agree on
random tables of 2 to 1,000 seats, one game or a batch.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ecs.legacy.systems.range_of_influence import (
    UNLIMITED,
    in_range_mask,
    in_range_mask_py,
    range_mask,
    range_mask_one,
)

IMPLEMENTATIONS = {"numba": in_range_mask, "python": in_range_mask_py}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def in_range(request):
    """One game through the chosen implementation: names in seat order -> {name: set}.

    ``table`` lists players clockwise (each entry's left neighbour is the next one),
    ``reach`` is one int for everyone or a {name: int} dict, ``gone`` are players not
    in this turn's snapshot of occupied seats.
    """
    kernel = IMPLEMENTATIONS[request.param]

    def run(table, reach, gone=()):
        P = len(table)
        # Shuffle player indices so that player index != seat (catches mix-ups).
        order = np.random.default_rng(P).permutation(P)
        seat = np.empty(P, np.int64)
        seat[order] = np.arange(P)
        names = [table[s] for s in seat]
        present = np.array([n not in gone for n in names])
        if isinstance(reach, dict):
            reaches = np.array([reach[n] for n in names], np.int64)
        else:
            reaches = np.full(P, reach, np.int64)
        out = np.empty((1, P, P), bool)
        kernel(seat[None], present[None], reaches[None], out)
        return {names[i]: {names[j] for j in range(P) if out[0, i, j]} for i in range(P)}

    return run


FIVE = ["A", "B", "C", "D", "E"]
SEVEN = ["A", "B", "C", "D", "E", "F", "G"]


def test_801_2a_range_one_is_you_and_your_two_neighbours(in_range):
    """801.2a: range 1 = you and the players seated directly next to you."""
    got = in_range(SEVEN, 1)
    assert got["A"] == {"G", "A", "B"}
    assert got["D"] == {"C", "D", "E"}


def test_801_2a_range_two_is_two_players_each_side(in_range):
    """801.2a: range 2 = you and the two players to your left and to your right."""
    got = in_range(SEVEN, 2)
    assert got["A"] == {"F", "G", "A", "B", "C"}
    assert got["E"] == {"C", "D", "E", "F", "G"}


def test_801_2a_different_players_different_ranges(in_range):
    """801.2a: different players may have different ranges; range isn't symmetric."""
    got = in_range(SEVEN, {"A": 2, "B": 1, "C": 1, "D": 3, "E": 1, "F": 1, "G": 0})
    assert got["A"] == {"F", "G", "A", "B", "C"}
    assert "A" not in got["C"]  # A reaches C, C doesn't reach A
    assert got["D"] == set(SEVEN)  # 3 seats each side covers a 7-seat table
    assert got["G"] == {"G"}


def test_801_2b_always_in_own_range(in_range):
    """801.2b: a player is always within their own range of influence."""
    got = in_range(FIVE, 0)
    assert got == {n: {n} for n in FIVE}


def test_unlimited_range_covers_every_present_player(in_range):
    """801.1: without the option (negative reach) everyone present is in range."""
    got = in_range(SEVEN, UNLIMITED, gone={"C"})
    present = set(SEVEN) - {"C"}
    assert got["A"] == present
    assert got["C"] == set()


def test_801_2c_example_carissa_enters_alex_range_next_turn(in_range):
    """801.2c example: range 1, Alex sits to the left of Rob and Carissa to Rob's
    right. Carissa is not in Alex's range. If Rob leaves the game, Carissa enters
    Alex's range at the start of the next turn."""
    table = ["Carissa", "Rob", "Alex", "Dana", "Eve"]  # clockwise: Rob's left is Alex
    before = in_range(table, 1)
    assert before["Alex"] == {"Rob", "Alex", "Dana"}
    assert "Carissa" not in before["Alex"]

    # Rob left during this turn: his seat is still in this turn's snapshot (807.4h).
    same_turn = in_range(table, 1)
    assert "Carissa" not in same_turn["Alex"]

    # The next turn begins without Rob: the seats close up.
    next_turn = in_range(table, 1, gone={"Rob"})
    assert next_turn["Alex"] == {"Carissa", "Alex", "Dana"}
    assert next_turn["Carissa"] == {"Eve", "Carissa", "Alex"}
    assert next_turn["Rob"] == set()
    assert all("Rob" not in seen for seen in next_turn.values())


def test_absent_seat_is_skipped_when_counting_distance(in_range):
    """801.2: distance counts seats of players in the game; 5 players, range 1,
    the player in seat 1 gone: seat 0 reaches seats 4 and 2."""
    got = in_range(FIVE, 1, gone={"B"})
    assert got["A"] == {"E", "A", "C"}


def test_807_4h_consecutive_departures_close_up_next_turn(in_range):
    """807.4h: if consecutively seated players leave, the players on either side
    don't enter one another's range until the next turn begins."""
    table = ["A", "B", "C", "D", "E", "F", "G", "H"]
    same_turn = in_range(table, 1)  # C and D just left; still in the snapshot
    assert "E" not in same_turn["B"]
    next_turn = in_range(table, 1, gone={"C", "D"})
    assert next_turn["B"] == {"A", "B", "E"}
    assert next_turn["E"] == {"B", "E", "F"}


def test_small_tables_everyone_in_range(in_range):
    """801.2a on tiny tables: with 2 or 3 players, range 1 reaches everyone."""
    assert in_range(["A", "B"], 1) == {"A": {"A", "B"}, "B": {"A", "B"}}
    assert in_range(["A", "B", "C"], 1)["A"] == {"A", "B", "C"}
    assert in_range(["A", "B", "C", "D"], 1)["A"] == {"D", "A", "B"}


def test_lone_present_player_sees_only_themself(in_range):
    """801.2b with everyone else gone."""
    got = in_range(FIVE, 2, gone={"A", "B", "D", "E"})
    assert got["C"] == {"C"}


# --- wrappers -------------------------------------------------------------------------------


def test_range_mask_one_matches_batched_and_coerces_dtypes():
    seat = [0, 1, 2, 3, 4]
    present = [1, 0, 1, 1, 1]
    one = range_mask_one(seat, present, [1] * 5)
    assert one.shape == (5, 5) and one.dtype == np.bool_
    assert np.flatnonzero(one[0]).tolist() == [0, 2, 4]
    batched = range_mask(np.array([seat]), np.array([present], bool), np.ones((1, 5), np.int32))
    np.testing.assert_array_equal(batched[0], one)


def test_range_mask_rejects_mismatched_shapes():
    with pytest.raises(ValueError):
        range_mask(np.zeros((2, 4)), np.ones((2, 3), bool), np.ones((2, 4)))


def test_kernel_overwrites_stale_output():
    seat = np.arange(6)[None]
    present = np.ones((1, 6), bool)
    reach = np.ones((1, 6), np.int64)
    out = np.ones((1, 6, 6), bool)
    in_range_mask(seat, present, reach, out)
    assert out.sum() == 6 * 3


# --- property tests: kernel == twin, and invariants -------------------------------------------


@st.composite
def tables(draw, max_games: int = 6):
    """Random batches: mostly small tables, some medium, a few up to 1,000 seats."""
    size_class = draw(st.sampled_from(["small"] * 12 + ["medium"] * 5 + ["large"]))
    if size_class == "small":
        P = draw(st.integers(2, 12))
    elif size_class == "medium":
        P = draw(st.integers(13, 120))
    else:
        P = draw(st.integers(121, 1000))
    G = draw(st.integers(1, max_games if P <= 120 else 1))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    seat = np.argsort(rng.random((G, P)), axis=1).astype(np.int64)
    p_present = rng.choice([1.0, 0.9, 0.6, 0.2], size=(G, 1))
    present = rng.random((G, P)) < p_present
    small_reach = rng.integers(-1, 4, size=(G, P))
    any_reach = rng.integers(-3, P + 2, size=(G, P))
    reach = np.where(rng.random((G, P)) < 0.7, small_reach, any_reach).astype(np.int64)
    return seat, present, reach


PROPERTY = settings(
    max_examples=50,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@PROPERTY
@given(tables())
def test_kernel_agrees_with_twin(table):
    seat, present, reach = table
    G, P = seat.shape
    event("seats: " + ("2-12" if P <= 12 else "13-120" if P <= 120 else "121-1000"))
    fast = np.ones((G, P, P), bool)  # stale garbage must be overwritten
    slow = np.zeros((G, P, P), bool)
    in_range_mask(seat, present, reach, fast)
    in_range_mask_py(seat, present, reach, slow)
    np.testing.assert_array_equal(fast, slow)


@PROPERTY
@given(tables())
def test_range_invariants(table):
    """801.2b diagonal, absent players nowhere, row sizes 2r+1 capped at the table."""
    seat, present, reach = table
    out = range_mask(seat, present, reach)
    G, P = seat.shape
    for g in range(G):
        n = int(present[g].sum())
        np.testing.assert_array_equal(np.diagonal(out[g]), present[g])
        assert not out[g][~present[g]].any()
        assert not out[g][:, ~present[g]].any()
        r = reach[g]
        expected = np.where(r < 0, n, np.minimum(2 * r + 1, n)) * present[g]
        np.testing.assert_array_equal(out[g].sum(axis=1), expected)
        equal_reach = r[present[g]]
        if equal_reach.size and (equal_reach == equal_reach[0]).all():
            np.testing.assert_array_equal(out[g], out[g].T)


@pytest.mark.parametrize("reach_value", [1, 2, 7, UNLIMITED])
def test_kernel_agrees_with_twin_on_1000_seats(reach_value):
    """A full 1,000-seat table every run (hypothesis draws these only sometimes)."""
    rng = np.random.default_rng(1000 + reach_value)
    P = 1000
    seat = rng.permutation(P)[None].astype(np.int64)
    present = rng.random((1, P)) < 0.8
    reach = np.full((1, P), reach_value, np.int64)
    reach[0, ::37] = rng.integers(-1, 600, size=reach[0, ::37].size)
    fast = np.ones((1, P, P), bool)
    slow = np.zeros((1, P, P), bool)
    in_range_mask(seat, present, reach, fast)
    in_range_mask_py(seat, present, reach, slow)
    np.testing.assert_array_equal(fast, slow)
