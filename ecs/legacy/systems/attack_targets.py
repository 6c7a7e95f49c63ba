"""Which players each player's creatures may attack (rules 801.3, 802, 803, 809.3c, 811.4).

Rules implemented here:

* 802    Attack multiple players: a player may attack any number of opponents.
* 801.3  Creatures can attack only opponents within their controller's range of
  influence; with no opponent in range, that player's creatures can't attack.
* 803.1a Attack left: a player can attack only an opponent seated immediately to
  their left; if the nearest opponent to the left is more than one seat away
  (a teammate, or a seat still held this turn by a player who left, sits in
  between), the player can't attack.
* 803.1b Attack right: the same, to the right.
* 809.3c Emperor and 811.4 Alternating Teams (``adjacent_only``): a player can
  attack only an opponent seated immediately next to them.

Planeswalkers and battles follow their controller/protector, so this player x
player mask is all a caller needs (801.3, 803.1).

Seats are the ``present`` seats of this turn's snapshot (801.2c, 807.4h): absent
seats are skipped, a seat held by a player who left this turn still counts.

Columns carry a leading game axis ``G`` (one game is ``G == 1``):

* ``in_range``      bool  (G, P, P): from ``systems.range_of_influence.in_range_mask``.
* ``seat``          int64 (G, P): clockwise seat 0..P-1; left neighbour at ``seat + 1``.
* ``present``       bool  (G, P): players occupying seats in this turn's snapshot.
* ``alive``         bool  (G, P): players still in the game.
* ``team``          int64 (G, P): team id; teammates are not opponents (free-for-all:
  every player has their own id).
* ``mode``          int64 (G,): ATTACK_MULTIPLE, ATTACK_LEFT or ATTACK_RIGHT.
* ``adjacent_only`` bool  (G,): Emperor / Alternating Teams restriction.
* ``out``           bool  (G, P, P): ``out[g, i, j]`` True iff player i's creatures
  may attack player j.

``attack_target_mask`` is the numba kernel, ``attack_target_mask_py`` its
plain-Python twin (the readable definition; a property test proves they agree).
"""

from __future__ import annotations

import numpy as np

from systems.jit import kernel

# Attack options (rules 802, 803). Same values as ecs.constants; kept local because
# a cached numba kernel does not notice edits to globals defined in other files.
ATTACK_MULTIPLE = 0
ATTACK_LEFT = 1
ATTACK_RIGHT = 2

__all__ = [
    "ATTACK_LEFT",
    "ATTACK_MULTIPLE",
    "ATTACK_RIGHT",
    "attack_target_mask",
    "attack_target_mask_py",
    "attack_targets",
    "attack_targets_one",
]


INT16_MIN = -32768
INT16_MAX = 32767


@kernel
def _opponents_in_range(
    in_range: np.ndarray, target: np.ndarray, team_row: np.ndarray, out: np.ndarray, g: int
) -> None:
    """Attack multiple, no seat restriction: ``out[g] = in_range[g] & target & (team != team[i])``.

    Branch-free so LLVM vectorises it; compiled separately for int16 and int64 team
    columns (narrow ids vectorise about five times better)."""
    P = target.shape[0]
    for i in range(P):
        if not target[i]:
            continue
        ti = team_row[i]
        for j in range(P):
            out[g, i, j] = in_range[g, i, j] & target[j] & (team_row[j] != ti)


@kernel
def attack_target_mask(
    in_range: np.ndarray,
    seat: np.ndarray,
    present: np.ndarray,
    alive: np.ndarray,
    team: np.ndarray,
    mode: np.ndarray,
    adjacent_only: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``out[g, i, j]`` = player i's creatures may attack player j.

    Attack multiple (no seat restriction) is one branch-free pass over the
    in-range rows. Otherwise at most two candidates per attacker are checked:
    the first present seat to the left and/or to the right. Under attack left,
    "nearest opponent to the left is immediately to the left" is the same as
    "the first present seat to the left holds an opponent".
    """
    G, P = seat.shape
    player_at = np.empty(P, np.int64)  # seat -> player
    ring = np.empty(P, np.int64)  # k-th present player in clockwise seat order
    target = np.empty(P, np.bool_)  # present and alive: may be attacked at all
    team16 = np.empty(P, np.int16)  # this game's team ids, narrowed when they fit
    for g in range(G):
        out[g, :, :] = False
        m = mode[g]
        if m != ATTACK_MULTIPLE and m != ATTACK_LEFT and m != ATTACK_RIGHT:
            raise ValueError("mode must be ATTACK_MULTIPLE, ATTACK_LEFT or ATTACK_RIGHT")
        for p in range(P):
            target[p] = present[g, p] and alive[g, p]

        if m == ATTACK_MULTIPLE and not adjacent_only[g]:
            narrow = True
            for p in range(P):
                t = team[g, p]
                if t < INT16_MIN or t > INT16_MAX:
                    narrow = False
                    break
                team16[p] = t
            if narrow:
                _opponents_in_range(in_range, target, team16, out, g)
            else:
                _opponents_in_range(in_range, target, team[g], out, g)
            continue

        # Ring of present players in clockwise seat order, built in O(P).
        for p in range(P):
            player_at[seat[g, p]] = p
        n = 0
        for s in range(P):
            p = player_at[s]
            if present[g, p]:
                ring[n] = p
                n += 1
        check_left = m != ATTACK_RIGHT  # attack left, or adjacent under multiple
        check_right = m != ATTACK_LEFT
        for k in range(n):
            i = ring[k]
            if not target[i]:
                continue
            ti = team[g, i]
            if check_left:
                j = ring[k + 1] if k + 1 < n else ring[0]
                if target[j] and team[g, j] != ti and in_range[g, i, j]:
                    out[g, i, j] = True
            if check_right:
                j = ring[k - 1] if k > 0 else ring[n - 1]
                if target[j] and team[g, j] != ti and in_range[g, i, j]:
                    out[g, i, j] = True


def _first_present_seat(
    seats: list[int], player_at: list[int], here: list[bool], player: int, step: int
) -> int | None:
    """Walk from ``player``'s seat (step +1 = left, -1 = right) to the first
    present seat and return who sits there; None if nobody else is present."""
    P = len(seats)
    for k in range(1, P):
        p = player_at[(seats[player] + step * k) % P]
        if here[p]:
            return p
    return None


def _nearest_opponent(
    seats: list[int],
    player_at: list[int],
    here: list[bool],
    teams: list[int],
    player: int,
    step: int,
) -> int | None:
    """Walk from ``player``'s seat over present seats, skipping teammates, to the
    nearest opponent on that side (step +1 = left, -1 = right)."""
    P = len(seats)
    for k in range(1, P):
        p = player_at[(seats[player] + step * k) % P]
        if here[p] and teams[p] != teams[player]:
            return p
    return None


def attack_target_mask_py(
    in_range: np.ndarray,
    seat: np.ndarray,
    present: np.ndarray,
    alive: np.ndarray,
    team: np.ndarray,
    mode: np.ndarray,
    adjacent_only: np.ndarray,
    out: np.ndarray,
) -> None:
    """Plain-Python twin of :func:`attack_target_mask`: the readable definition.

    Player i may attack player j when both are still in the game (and seated in
    this turn's snapshot), j is an opponent of i, j is within i's range of
    influence (801.3), and the seating restriction of the game allows it:

    * attack left (803.1a): j is i's nearest opponent to the left, and that
      opponent is also the first present seat to the left;
    * attack right (803.1b): the same to the right;
    * adjacent only (809.3c, 811.4): j is the first present seat to i's left or right.
    """
    G, P = seat.shape
    for g in range(G):
        option = int(mode[g])
        if option not in (ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT):
            raise ValueError("mode must be ATTACK_MULTIPLE, ATTACK_LEFT or ATTACK_RIGHT")
        adjacent = bool(adjacent_only[g])
        seats = seat[g].tolist()
        here = present[g].tolist()
        living = alive[g].tolist()
        teams = team[g].tolist()
        player_at = [0] * P
        for p in range(P):
            player_at[seats[p]] = p

        out[g, :, :] = False
        for i in range(P):
            if not (here[i] and living[i]):
                continue
            left = _first_present_seat(seats, player_at, here, i, +1)
            right = _first_present_seat(seats, player_at, here, i, -1)
            nearest_left = _nearest_opponent(seats, player_at, here, teams, i, +1)
            nearest_right = _nearest_opponent(seats, player_at, here, teams, i, -1)
            reachable = in_range[g, i].tolist()
            row = [False] * P
            for j in range(P):
                if not (here[j] and living[j]):
                    continue  # left the game: can't be attacked
                if teams[j] == teams[i]:
                    continue  # not an opponent
                if not reachable[j]:
                    continue  # 801.3: outside i's range of influence
                if option == ATTACK_LEFT and not (j == nearest_left and j == left):
                    continue  # 803.1a
                if option == ATTACK_RIGHT and not (j == nearest_right and j == right):
                    continue  # 803.1b
                if adjacent and j not in (left, right):
                    continue  # 809.3c, 811.4
                row[j] = True
            out[g, i, :] = row


def _columns(
    in_range: np.ndarray,
    seat: np.ndarray,
    present: np.ndarray,
    alive: np.ndarray,
    team: np.ndarray,
    mode: np.ndarray,
    adjacent_only: np.ndarray,
) -> tuple[np.ndarray, ...]:
    in_range = np.ascontiguousarray(in_range, dtype=np.bool_)
    seat = np.ascontiguousarray(seat, dtype=np.int64)
    present = np.ascontiguousarray(present, dtype=np.bool_)
    alive = np.ascontiguousarray(alive, dtype=np.bool_)
    team = np.ascontiguousarray(team, dtype=np.int64)
    mode = np.ascontiguousarray(mode, dtype=np.int64)
    adjacent_only = np.ascontiguousarray(adjacent_only, dtype=np.bool_)
    if seat.ndim != 2:
        raise ValueError(f"seat must be (G, P); got {seat.shape}")
    G, P = seat.shape
    for name, a, shape in (
        ("in_range", in_range, (G, P, P)),
        ("present", present, (G, P)),
        ("alive", alive, (G, P)),
        ("team", team, (G, P)),
        ("mode", mode, (G,)),
        ("adjacent_only", adjacent_only, (G,)),
    ):
        if a.shape != shape:
            raise ValueError(f"{name} must have shape {shape}; got {a.shape}")
    return in_range, seat, present, alive, team, mode, adjacent_only


def attack_targets(
    in_range: np.ndarray,
    seat: np.ndarray,
    present: np.ndarray,
    alive: np.ndarray,
    team: np.ndarray,
    mode: np.ndarray,
    adjacent_only: np.ndarray,
) -> np.ndarray:
    """Allocate and return the (G, P, P) attack-target mask for a batch of games."""
    cols = _columns(in_range, seat, present, alive, team, mode, adjacent_only)
    G, P = cols[1].shape
    out = np.empty((G, P, P), dtype=np.bool_)
    attack_target_mask(*cols, out)
    return out


def attack_targets_one(
    in_range: np.ndarray,
    seat: np.ndarray,
    present: np.ndarray,
    alive: np.ndarray,
    team: np.ndarray,
    mode: int = ATTACK_MULTIPLE,
    adjacent_only: bool = False,
) -> np.ndarray:
    """One game: (P, P) ``in_range`` and (P,) columns in, (P, P) mask out."""
    return attack_targets(
        np.asarray(in_range)[None],
        np.asarray(seat)[None],
        np.asarray(present)[None],
        np.asarray(alive)[None],
        np.asarray(team)[None],
        np.array([mode], dtype=np.int64),
        np.array([adjacent_only], dtype=np.bool_),
    )[0]
