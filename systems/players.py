"""Players: turn order and seats (101.4, 102), teams and opponents (102.2-102.3, 808-811),
ranges of influence as each turn fixed them (801.2), life and poison (119, 122.1f) with
shared team totals (810.9-810.10) and "can't gain / lose life" (119.7-119.8)."""

from __future__ import annotations

from components.game import S_ACTIVE, S_TEAM_TURNS
from components.players import (
    P_ALIVE,
    P_LIFE,
    P_LIFEPOOL,
    P_POISON,
    P_SEATPOS,
    P_TEAM,
)
from systems.jit import kernel


@kernel(inline="always")
def seat_index(st, p):
    """Where p sits in the seat table."""
    return st.pl[p, P_SEATPOS]


@kernel(inline="always")
def next_in_turn_order(st, p):
    """The next player still in the game to p's left (101.4); -1 if none."""
    n = st.seat.shape[0]
    k0 = st.pl[p, P_SEATPOS]
    for k in range(1, n + 1):
        q = st.seat[(k0 + k) % n]
        if st.pl[q, P_ALIVE]:
            return q
    return -1


@kernel(inline="always")
def prev_in_turn_order(st, p):
    """The next player still in the game to p's right; -1 if none."""
    n = st.seat.shape[0]
    k0 = st.pl[p, P_SEATPOS]
    for k in range(1, n + 1):
        q = st.seat[(k0 - k) % n]
        if st.pl[q, P_ALIVE]:
            return q
    return -1


@kernel(inline="always")
def turn_order_from(st, p, out):
    """The players still in the game in turn order starting with p (APNAP from p,
    101.4); returns how many were written to out."""
    n = st.seat.shape[0]
    k0 = st.pl[p, P_SEATPOS]
    m = 0
    for k in range(n):
        q = st.seat[(k0 + k) % n]
        if st.pl[q, P_ALIVE]:
            out[m] = q
            m += 1
    return m


@kernel(inline="always")
def n_alive(st):
    k = 0
    for q in range(st.pl.shape[0]):
        k += st.pl[q, P_ALIVE]
    return k


@kernel(inline="always")
def teammates(st, p, q):
    """Are p and q on the same team (p is its own teammate)?"""
    return st.pl[p, P_TEAM] == st.pl[q, P_TEAM]


@kernel(inline="always")
def is_opponent(st, p, q):
    """102.3: in team games, the players on other teams."""
    return st.pl[p, P_TEAM] != st.pl[q, P_TEAM]


@kernel(inline="always")
def in_range(st, p, q):
    """801.2: is player q (still in the game) within p's range of influence (as the
    current turn fixed it, 801.2c)?"""
    return st.rm[0, p, q] == 1 and st.pl[q, P_ALIVE] == 1


@kernel(inline="always")
def is_active(st, p):
    """Is p an active player (in shared team turns, every member of the active team)?"""
    a = st.s[S_ACTIVE]
    if p == a:
        return True
    return st.s[S_TEAM_TURNS] == 1 and st.pl[p, P_TEAM] == st.pl[a, P_TEAM]


# ----------------------------------------------------------------- life and poison
@kernel(inline="always")
def life(st, p):
    """p's life total (a shared team total in Two-Headed Giant, 810.9)."""
    return st.pl[st.pl[p, P_LIFEPOOL], P_LIFE]


@kernel(inline="always")
def poison(st, p):
    return st.pl[st.pl[p, P_LIFEPOOL], P_POISON]


@kernel(inline="always")
def add_poison(st, p, n):
    st.pl[st.pl[p, P_LIFEPOOL], P_POISON] += n


@kernel(inline="always")
def shares_life(st, p, q):
    return st.pl[p, P_LIFEPOOL] == st.pl[q, P_LIFEPOOL]


@kernel(inline="always")
def change_life(st, p, delta):
    """The arithmetic of a life change (the rules of who may change it, and what
    triggers, are in systems/damage.py)."""
    st.pl[st.pl[p, P_LIFEPOOL], P_LIFE] += delta


@kernel
def primary(st, p):
    """805.2: the primary player of p's team: its member in the game seated rightmost
    from the team's perspective (the one whose right-hand neighbour isn't a teammate)."""
    t = st.pl[p, P_TEAM]
    n = st.seat.shape[0]
    for k in range(n):
        q = st.seat[k]
        if st.pl[q, P_ALIVE] and st.pl[q, P_TEAM] == t:
            r = prev_in_turn_order(st, q)
            if r < 0 or r == q or st.pl[r, P_TEAM] != t:
                return q
    return p


@kernel(inline="always")
def same_side(st, p, q):
    """Does q act with p: p itself, or with shared team turns a teammate (805.5)?"""
    if p == q:
        return True
    return st.s[S_TEAM_TURNS] == 1 and st.pl[p, P_TEAM] == st.pl[q, P_TEAM]
