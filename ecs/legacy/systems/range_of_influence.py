"""Limited range of influence: who is within each player's reach (rule 801).

Rules implemented here:

* 801.2  A player's range of influence is the maximum distance from that player,
  measured in player seats, that the player can affect.
* 801.2a Range 1 is you and the players seated directly next to you; range 2 is
  you and two players to each side. Different players may have different ranges.
* 801.2b A player is always within their own range of influence.
* 801.2c The players within each player's range are determined as each turn
  begins, so the caller passes ``present``: the players occupying seats in the
  snapshot taken when the current turn began.
* 801.2d (note) Objects are in range when their controller (battles: protector)
  is in range, so this player x player mask is all a caller needs for objects.
* 807.4h Players on either side of seats whose players left the game don't enter
  one another's range until the next turn begins: a player who left during this
  turn is still ``present`` and their seat still counts.

Seat distance counts only present seats (absent seats are skipped, i.e. the table
has "closed up"), and is the shorter of the leftward and rightward walks.

Columns carry a leading game axis ``G`` so one game (``G == 1``) and a batch of
thousands run the same kernel:

* ``seat``    int64 (G, P): seat position 0..P-1 of each player, clockwise; a
  player's LEFT neighbour sits at ``seat + 1`` (mod P), the right one at ``seat - 1``.
  Each row must be a permutation of 0..P-1.
* ``present`` bool (G, P): players occupying seats in this turn's snapshot.
* ``reach``   int64 (G, P): each player's range of influence; negative = unlimited.
* ``out``     bool (G, P, P): ``out[g, i, j]`` is True iff player j is within
  player i's range of influence (both present).

``in_range_mask`` is the numba kernel, ``in_range_mask_py`` its plain-Python twin
(the readable definition; a property test proves they agree).
"""

from __future__ import annotations

import numpy as np

from systems.jit import kernel

UNLIMITED = -1  # any negative reach means an unlimited range of influence

__all__ = [
    "UNLIMITED",
    "in_range_mask",
    "in_range_mask_py",
    "range_mask",
    "range_mask_one",
]


@kernel
def in_range_mask(
    seat: np.ndarray, present: np.ndarray, reach: np.ndarray, out: np.ndarray
) -> None:
    """Fill ``out[g, i, j]`` = player j is within player i's range (801.2, 807.4h).

    Per game: one O(P) pass builds the ring of present players in seat order
    (via a seat -> player index), then each present player marks ``reach`` ring
    positions to each side, or the whole ring when the reach covers it.
    """
    G, P = seat.shape
    player_at = np.empty(P, np.int64)  # seat -> player
    ring = np.empty(P, np.int64)  # k-th present player in clockwise seat order
    for g in range(G):
        out[g, :, :] = False
        for p in range(P):
            player_at[seat[g, p]] = p
        n = 0
        for s in range(P):
            p = player_at[s]
            if present[g, p]:
                ring[n] = p
                n += 1
        for k in range(n):
            i = ring[k]
            r = reach[g, i]
            if r < 0 or r >= n // 2:
                # The farthest present player is n // 2 seats away: every present
                # player is in range (a contiguous copy, cheaper than scattered writes).
                for j in range(P):
                    out[g, i, j] = present[g, j]
            else:
                out[g, i, i] = True  # 801.2b
                # 0 <= 2r < n, so the 2r positions below are distinct and not k.
                for d in range(1, r + 1):
                    left = k + d
                    if left >= n:
                        left -= n
                    right = k - d
                    if right < 0:
                        right += n
                    out[g, i, ring[left]] = True
                    out[g, i, ring[right]] = True


def in_range_mask_py(
    seat: np.ndarray, present: np.ndarray, reach: np.ndarray, out: np.ndarray
) -> None:
    """Plain-Python twin of :func:`in_range_mask`: the readable definition.

    For every pair of present players, count the present seats between them
    walking left and walking right; j is in i's range if the shorter walk is at
    most i's reach (801.2, 801.2a), or i's reach is unlimited. Distance from a
    player to themself is 0, so a player is always in their own range (801.2b).
    Absent seats are not counted (801.2c); a player who left this turn is still
    present, so their seat still counts until the next turn (807.4h).
    """
    G, P = seat.shape
    for g in range(G):
        seats = seat[g].tolist()
        here = present[g].tolist()
        reaches = reach[g].tolist()

        # Present players in clockwise seat order; a player's left is the next entry.
        table = sorted((p for p in range(P) if here[p]), key=lambda p: seats[p])
        n = len(table)
        place = {p: k for k, p in enumerate(table)}

        out[g, :, :] = False
        for i in table:
            row = [False] * P
            for j in table:
                steps_left = (place[j] - place[i]) % n
                steps_right = (place[i] - place[j]) % n
                distance = min(steps_left, steps_right)
                unlimited = reaches[i] < 0
                row[j] = unlimited or distance <= reaches[i]
            out[g, i, :] = row


def _columns(
    seat: np.ndarray, present: np.ndarray, reach: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seat = np.ascontiguousarray(seat, dtype=np.int64)
    present = np.ascontiguousarray(present, dtype=np.bool_)
    reach = np.ascontiguousarray(reach, dtype=np.int64)
    if seat.ndim != 2 or present.shape != seat.shape or reach.shape != seat.shape:
        raise ValueError(
            f"seat, present, reach must share one (G, P) shape; got "
            f"{seat.shape}, {present.shape}, {reach.shape}"
        )
    return seat, present, reach


def range_mask(seat: np.ndarray, present: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """Allocate and return the (G, P, P) in-range mask for a batch of games."""
    seat, present, reach = _columns(seat, present, reach)
    G, P = seat.shape
    out = np.empty((G, P, P), dtype=np.bool_)
    in_range_mask(seat, present, reach, out)
    return out


def range_mask_one(seat: np.ndarray, present: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """One game: 1-D (P,) columns in, (P, P) mask out (``out[i, j]``: j in i's range)."""
    seat, present, reach = _columns(
        np.asarray(seat)[None, :], np.asarray(present)[None, :], np.asarray(reach)[None, :]
    )
    return range_mask(seat, present, reach)[0]
