"""Tests for systems.attack_targets (rules 801.3, 802, 803.1a-b, 809.3c, 811.4).

Hand-written cases read like the rules they cite and run against both the numba
kernel and its plain-Python twin; property tests check that the two agree on
random tables of 2 to 1,000 seats, one game or a batch.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ecs.legacy.systems.attack_targets import (
    ATTACK_LEFT,
    ATTACK_MULTIPLE,
    ATTACK_RIGHT,
    attack_target_mask,
    attack_target_mask_py,
    attack_targets,
    attack_targets_one,
)
from ecs.legacy.systems.range_of_influence import UNLIMITED, range_mask, range_mask_one

IMPLEMENTATIONS = {"numba": attack_target_mask, "python": attack_target_mask_py}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def targets(request):
    """One game through the chosen implementation: returns {name: set of attackable names}.

    ``table`` lists players clockwise (each entry's left neighbour is the next one).
    ``teams`` maps name -> team (default: free-for-all). ``reach`` is one int or a
    dict. ``gone`` left before this turn began (not in the seat snapshot); ``dead``
    left during this turn (still seated in the snapshot, no longer in the game).
    """
    kernel = IMPLEMENTATIONS[request.param]

    def run(
        table,
        mode=ATTACK_MULTIPLE,
        adjacent_only=False,
        teams=None,
        reach=UNLIMITED,
        gone=(),
        dead=(),
        in_range=None,
    ):
        P = len(table)
        order = np.random.default_rng(P + 1).permutation(P)  # player index != seat
        seat = np.empty(P, np.int64)
        seat[order] = np.arange(P)
        names = [table[s] for s in seat]
        present = np.array([n not in gone for n in names])
        alive = np.array([n not in gone and n not in dead for n in names])
        team_of = teams or {n: k for k, n in enumerate(table)}
        team = np.array([team_of[n] for n in names], np.int64)
        if isinstance(reach, dict):
            reaches = np.array([reach[n] for n in names], np.int64)
        else:
            reaches = np.full(P, reach, np.int64)
        mask = range_mask_one(seat, present, reaches)
        if in_range is not None:  # a hand-made mask, given by name
            mask = np.array([[names[j] in in_range[names[i]] for j in range(P)] for i in range(P)])
        out = np.empty((1, P, P), bool)
        kernel(
            mask[None],
            seat[None],
            present[None],
            alive[None],
            team[None],
            np.array([mode], np.int64),
            np.array([adjacent_only]),
            out,
        )
        return {names[i]: {names[j] for j in range(P) if out[0, i, j]} for i in range(P)}

    return run


FOUR = ["A", "B", "C", "D"]
SIX = ["A", "B", "C", "D", "E", "F"]


def test_802_attack_multiple_players_free_for_all(targets):
    """802.2: with attack multiple players, every opponent may be attacked."""
    got = targets(FOUR)
    assert got == {n: set(FOUR) - {n} for n in FOUR}


def test_teammates_are_never_attacked(targets):
    """802.2 (Two-Headed Giant-like teams): only opponents are defending players."""
    got = targets(FOUR, teams={"A": 0, "B": 0, "C": 1, "D": 1})
    assert got["A"] == {"C", "D"}
    assert got["C"] == {"A", "B"}


def test_801_3_attack_only_opponents_in_range(targets):
    """801.3: creatures can attack only opponents within their controller's range."""
    got = targets(SIX, reach=1)
    assert got["A"] == {"F", "B"}
    assert got["D"] == {"C", "E"}


def test_801_3_no_opponents_in_range_no_attack(targets):
    """801.3: if no opponents are within a player's range, their creatures can't attack."""
    teams = {"A": 0, "B": 0, "C": 0, "D": 1, "E": 1, "F": 1}
    got = targets(SIX, teams=teams, reach=1)
    assert got["B"] == set()  # neighbours A and C are teammates
    assert got["E"] == set()
    assert got["C"] == {"D"}
    assert got["A"] == {"F"}


def test_801_3_range_is_per_attacker(targets):
    """801.2a + 801.3: A (range 2) can attack C, C (range 1) can't attack A."""
    reach = {"A": 2, "B": 1, "C": 1, "D": 1, "E": 1, "F": 1}
    got = targets(SIX, reach=reach)
    assert got["A"] == {"E", "F", "B", "C"}
    assert got["C"] == {"B", "D"}


def test_803_1a_attack_left_free_for_all(targets):
    """803.1a: with attack left, a player attacks only the opponent immediately to their left."""
    got = targets(FOUR, mode=ATTACK_LEFT)
    assert got == {"A": {"B"}, "B": {"C"}, "C": {"D"}, "D": {"A"}}


def test_803_1b_attack_right_free_for_all(targets):
    """803.1b: with attack right, only the opponent immediately to the right."""
    got = targets(FOUR, mode=ATTACK_RIGHT)
    assert got == {"A": {"D"}, "B": {"A"}, "C": {"B"}, "D": {"C"}}


def test_803_1a_teammate_to_the_left_blocks_attack(targets):
    """803.1a: if a player's nearest opponent to the left is more than one seat away
    (a teammate sits in between), the player can't attack."""
    teams = {"A": 0, "B": 0, "C": 1, "D": 1}
    left = targets(FOUR, mode=ATTACK_LEFT, teams=teams)
    assert left == {"A": set(), "B": {"C"}, "C": set(), "D": {"A"}}
    right = targets(FOUR, mode=ATTACK_RIGHT, teams=teams)  # 803.1b
    assert right == {"A": {"D"}, "B": set(), "C": {"B"}, "D": set()}


def test_803_1a_seat_of_player_who_left_this_turn_is_a_gap(targets):
    """803.1a with 807.4h: B left during this turn, so B's seat still counts this
    turn and A's nearest opponent to the left (C) is two seats away: A can't attack.
    Once the next turn begins the seats close up and A attacks C."""
    this_turn = targets(FOUR, mode=ATTACK_LEFT, dead={"B"})
    assert this_turn["A"] == set()
    assert this_turn["B"] == set()
    assert this_turn["C"] == {"D"}
    next_turn = targets(FOUR, mode=ATTACK_LEFT, gone={"B"})
    assert next_turn["A"] == {"C"}


def test_803_1a_left_neighbour_out_of_range_cannot_be_attacked(targets):
    """801.3 applies on top of 803.1a: the left neighbour must also be in range."""
    in_range = {"A": {"A"}, "B": {"B", "C"}, "C": {"C", "D"}, "D": {"D", "A"}}
    got = targets(FOUR, mode=ATTACK_LEFT, in_range=in_range)
    assert got == {"A": set(), "B": {"C"}, "C": {"D"}, "D": {"A"}}


def test_two_player_game_left_and_right_are_the_same_opponent(targets):
    """803.1a/b with two players: the opponent is on both sides."""
    assert targets(["A", "B"], mode=ATTACK_LEFT) == {"A": {"B"}, "B": {"A"}}
    assert targets(["A", "B"], mode=ATTACK_RIGHT) == {"A": {"B"}, "B": {"A"}}


def test_809_3c_emperor_attacks_only_adjacent_opponents(targets):
    """809.3c (Emperor, ranges per 809.3a: emperors 2, generals 1): a player can
    attack only an opponent seated immediately next to them. The emperor sits
    between two generals, so no emperor can attack even though range 2 reaches
    an opposing general."""
    table = ["g1", "EMP1", "g2", "h1", "EMP2", "h2"]
    teams = {"g1": 0, "EMP1": 0, "g2": 0, "h1": 1, "EMP2": 1, "h2": 1}
    reach = {"g1": 1, "EMP1": 2, "g2": 1, "h1": 1, "EMP2": 2, "h2": 1}
    got = targets(table, adjacent_only=True, teams=teams, reach=reach)
    assert got["EMP1"] == set() and got["EMP2"] == set()
    assert got["g2"] == {"h1"} and got["h1"] == {"g2"}
    assert got["h2"] == {"g1"} and got["g1"] == {"h2"}
    without_restriction = targets(table, teams=teams, reach=reach)
    # Range 2 alone reaches both opposing generals around the six-seat table.
    assert without_restriction["EMP1"] == {"h1", "h2"}


def test_811_4_alternating_teams_attack_only_neighbours(targets):
    """811.4 (Alternating Teams, range 2 per 811.2a): a player can't attack opponents
    who aren't seated next to them, even when in range."""
    table = ["A1", "B1", "C1", "A2", "B2", "C2"]
    teams = {n: ord(n[0]) for n in table}  # team A, B or C
    got = targets(table, adjacent_only=True, teams=teams, reach=2)
    assert got["A1"] == {"C2", "B1"}
    assert got["B1"] == {"A1", "C1"}
    free = targets(table, teams=teams, reach=2)
    assert free["A1"] == {"B1", "C1", "B2", "C2"}


def test_811_2b_alternating_teams_with_attack_left(targets):
    """811.2b + 811.4 + 803.1a: adjacent-only combined with attack left leaves the
    left neighbour."""
    table = ["A1", "B1", "A2", "B2"]
    teams = {"A1": 0, "B1": 1, "A2": 0, "B2": 1}
    got = targets(table, mode=ATTACK_LEFT, adjacent_only=True, teams=teams)
    assert got == {"A1": {"B1"}, "B1": {"A2"}, "A2": {"B2"}, "B2": {"A1"}}


def test_players_out_of_the_game_neither_attack_nor_are_attacked(targets):
    """800.4 / 801.3: a player who has left the game neither attacks nor is attacked."""
    got = targets(FOUR, dead={"C"})
    assert got["C"] == set()
    assert all("C" not in t for t in got.values())
    got = targets(FOUR, gone={"C"})
    assert got["A"] == {"B", "D"}


def test_adjacent_only_after_a_seat_closes_up(targets):
    """809.3c / 811.4 with seats closed up (801.2c): the next present seat is adjacent."""
    got = targets(SIX, adjacent_only=True, gone={"B"})
    assert got["A"] == {"F", "C"}
    this_turn = targets(SIX, adjacent_only=True, dead={"B"})
    assert this_turn["A"] == {"F"}


@pytest.mark.parametrize("kernel", [attack_target_mask, attack_target_mask_py])
@pytest.mark.parametrize("mode", [ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT])
def test_player_without_a_seat_in_the_snapshot_is_ignored(kernel, mode):
    """801.2c: only players seated in this turn's snapshot take part, even if the
    other columns (alive, a hand-made in_range) say otherwise."""
    P = 4
    present = np.array([[True, True, False, True]])
    out = np.empty((1, P, P), bool)
    kernel(
        np.ones((1, P, P), bool),
        np.arange(P)[None],
        present,
        np.ones((1, P), bool),
        np.arange(P)[None],
        np.array([mode]),
        np.array([False]),
        out,
    )
    assert not out[0, 2].any() and not out[0, :, 2].any()
    assert out[0].any()


# --- wrappers -------------------------------------------------------------------------------


def test_attack_targets_one_and_batched_wrapper_agree():
    seat = np.arange(5)
    present = np.ones(5, bool)
    mask = range_mask_one(seat, present, np.ones(5, np.int64))
    one = attack_targets_one(mask, seat, present, present, np.arange(5), ATTACK_RIGHT)
    assert one.shape == (5, 5) and one.dtype == np.bool_
    assert [np.flatnonzero(r).tolist() for r in one] == [[4], [0], [1], [2], [3]]
    batched = attack_targets(
        mask[None], seat[None], present[None], present[None], np.arange(5)[None], [2], [False]
    )
    np.testing.assert_array_equal(batched[0], one)


@pytest.mark.parametrize("kernel", [attack_target_mask, attack_target_mask_py])
def test_unknown_attack_mode_is_rejected(kernel):
    P = 3
    with pytest.raises(ValueError):
        kernel(
            np.ones((1, P, P), bool),
            np.arange(P)[None],
            np.ones((1, P), bool),
            np.ones((1, P), bool),
            np.arange(P)[None],
            np.array([7]),
            np.array([False]),
            np.empty((1, P, P), bool),
        )


def test_wrapper_rejects_mismatched_shapes():
    with pytest.raises(ValueError):
        attack_targets(
            np.ones((1, 3, 3), bool),
            np.arange(4)[None],
            np.ones((1, 4), bool),
            np.ones((1, 4), bool),
            np.arange(4)[None],
            [0],
            [False],
        )


def test_mode_constants_match_engine_constants():
    constants = pytest.importorskip("ecs.constants")
    assert (constants.ATTACK_MULTIPLE, constants.ATTACK_LEFT, constants.ATTACK_RIGHT) == (
        ATTACK_MULTIPLE,
        ATTACK_LEFT,
        ATTACK_RIGHT,
    )


# --- property tests: kernel == twin, and invariants -------------------------------------------


@st.composite
def games(draw, max_games: int = 6):
    """Random batches (fixed P per batch): seats, snapshots, reaches, teams, options."""
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
    present = rng.random((G, P)) < rng.choice([1.0, 0.9, 0.6, 0.2], size=(G, 1))
    reach = np.where(
        rng.random((G, P)) < 0.7,
        rng.integers(-1, 4, size=(G, P)),
        rng.integers(-3, P + 2, size=(G, P)),
    ).astype(np.int64)
    in_range = range_mask(seat, present, reach)
    u = rng.random()
    if u < 0.3:  # arbitrary (even asymmetric) sub-masks must be respected
        in_range &= rng.random((G, P, P)) < 0.7
    elif u < 0.4:  # inconsistent masks (absent players "in range") must still agree
        in_range = rng.random((G, P, P)) < 0.5
    alive = present & (rng.random((G, P)) < rng.choice([1.0, 0.8], size=(G, 1)))
    if rng.random() < 0.1:  # inconsistent columns (alive but not seated) must still agree
        alive = rng.random((G, P)) < 0.8
    team_style = draw(st.sampled_from(["free-for-all", "few", "many", "wide-ids"]))
    if team_style == "free-for-all":
        team = np.tile(np.arange(P, dtype=np.int64), (G, 1))
    elif team_style == "few":
        team = rng.integers(0, 3, size=(G, P))
    elif team_style == "many":
        team = rng.integers(-5, max(2, P // 2), size=(G, P))
    else:  # ids that don't fit in int16 (and collide if truncated): the kernel's wide path
        team = rng.integers(0, 4, size=(G, P)) * 2**16 - 2**40
    mode = rng.integers(0, 3, size=G).astype(np.int64)
    adjacent_only = rng.random(G) < 0.4
    return in_range, seat, present, alive, team.astype(np.int64), mode, adjacent_only


PROPERTY = settings(
    max_examples=50,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@PROPERTY
@given(games())
def test_kernel_agrees_with_twin(game):
    G, P = game[1].shape
    event("seats: " + ("2-12" if P <= 12 else "13-120" if P <= 120 else "121-1000"))
    fast = np.ones((G, P, P), bool)  # stale garbage must be overwritten
    slow = np.zeros((G, P, P), bool)
    attack_target_mask(*game, fast)
    attack_target_mask_py(*game, slow)
    np.testing.assert_array_equal(fast, slow)


@PROPERTY
@given(games())
def test_attack_invariants(game):
    """801.3 subset of range; never self, teammates or players out of the game;
    attack left/right name at most one defender, adjacent-only at most two."""
    in_range, seat, present, alive, team, mode, adjacent_only = game
    out = attack_targets(*game)
    for g in range(seat.shape[0]):
        o = out[g]
        assert not (o & ~in_range[g]).any()
        assert not (o & (team[g][:, None] == team[g][None, :])).any()
        in_game = alive[g] & present[g]
        assert not o[~in_game].any() and not o[:, ~in_game].any()
        assert not o.diagonal().any()
        per_row = o.sum(axis=1)
        if mode[g] != ATTACK_MULTIPLE:
            assert per_row.max(initial=0) <= 1
        if adjacent_only[g]:
            assert per_row.max(initial=0) <= 2
        if mode[g] == ATTACK_MULTIPLE and not adjacent_only[g]:
            expected = in_range[g] & in_game[None, :] & in_game[:, None]
            expected &= team[g][:, None] != team[g][None, :]
            np.testing.assert_array_equal(o, expected)


@pytest.mark.parametrize("mode", [ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT])
@pytest.mark.parametrize("adjacent_only", [False, True])
def test_kernel_agrees_with_twin_on_1000_seats(mode, adjacent_only):
    """A full 1,000-seat table every run (hypothesis draws these only sometimes)."""
    rng = np.random.default_rng(7 + mode + 3 * adjacent_only)
    P = 1000
    seat = rng.permutation(P)[None].astype(np.int64)
    present = rng.random((1, P)) < 0.8
    in_range = range_mask(seat, present, rng.integers(-1, 4, size=(1, P)))
    alive = present & (rng.random((1, P)) < 0.9)
    team = rng.integers(0, 250, size=(1, P)).astype(np.int64)
    game = (in_range, seat, present, alive, team, np.array([mode]), np.array([adjacent_only]))
    fast = np.ones((1, P, P), bool)
    slow = np.zeros((1, P, P), bool)
    attack_target_mask(*game, fast)
    attack_target_mask_py(*game, slow)
    np.testing.assert_array_equal(fast, slow)
    assert fast.any()
