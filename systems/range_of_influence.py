"""Limited range of influence (801.2): who is within each player's reach, fixed as each
turn begins (801.2c, 807.4h).

801.2 A player's range is the maximum distance, in seats, they can affect; 801.2a range
1 is the player and the players next to them, and players may have different ranges
(P_REACH; 0 = unlimited); 801.2b a player is always within their own range; 801.2c
the seats counted are those of the players in the game as the turn began (a player
who leaves this turn keeps their seat until the next turn begins, 807.4h). Distance is
the shorter walk around the table over those seats. 801.2d: objects are in range when
their controller is (``players.in_range``)."""

from __future__ import annotations

from components.players import P_ALIVE, P_REACH
from systems.jit import kernel
from systems.state import touch


@kernel
def snapshot(st, ring):
    """Fill rm[0] (q within p's range) from the players in the game now, and their seats
    in clockwise order into ``ring``; returns how many. Marks the layers dirty when a
    range changed (801.11: what a static ability sees)."""
    pl, rm, seat = st.pl, st.rm, st.seat
    P = pl.shape[0]
    n = 0
    for k in range(P):  # the seat table is in seat order
        p = seat[k]
        if pl[p, P_ALIVE]:
            ring[n] = p
            n += 1
    changed = False
    for x in range(n):
        i = ring[x]
        r = pl[i, P_REACH]
        for j in range(P):
            old = rm[0, i, j]
            want = 0
            if pl[j, P_ALIVE]:
                if r <= 0 or r >= n // 2:
                    want = 1
            rm[0, i, j] = want
            if want != old:
                changed = True
        if r > 0 and r < n // 2:
            for d in range(-r, r + 1):
                j = ring[(x + d) % n]
                if rm[0, i, j] == 0:
                    changed = True
                rm[0, i, j] = 1
    for i in range(P):
        if not pl[i, P_ALIVE]:
            for j in range(P):
                if rm[0, i, j]:
                    changed = True
                rm[0, i, j] = 0
    if changed:
        touch(st)
    return n
