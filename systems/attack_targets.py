"""Which players each player's creatures may attack (801.3, 802, 803, 809.3c, 811.4),
fixed as each turn begins with the ranges (801.2c).

802 Attack multiple players (the default): any opponent. 801.3: only opponents within
the attacker's range; with none, their creatures can't attack. 803.1a attack left: only
an opponent seated immediately to the left (a teammate there means no attack); 803.1b
likewise to the right. 809.3c (Emperor) and 811.4 (Alternating Teams): only an
opponent seated immediately next to the player. Planeswalkers and battles follow
their controller or protector (systems/combat.py)."""

from __future__ import annotations

from components.game import S_ATTACK_MODE, S_VARIANT
from components.players import P_ALIVE, P_TEAM
from components.variants import (
    ALTERNATING_TEAMS,
    ATTACK_LEFT,
    ATTACK_MULTIPLE,
    ATTACK_RIGHT,
    EMPEROR,
)
from systems.jit import kernel


@kernel
def snapshot(st, ring, n):
    """Fill rm[1] (p may attack q) given the ring of players in the game in seat order
    (from ``range_of_influence.snapshot``)."""
    pl, rm = st.pl, st.rm
    P = pl.shape[0]
    mode = st.s[S_ATTACK_MODE]
    adjacent = st.s[S_VARIANT] == EMPEROR or st.s[S_VARIANT] == ALTERNATING_TEAMS
    for i in range(P):
        for j in range(P):
            rm[1, i, j] = 0
    for x in range(n):
        i = ring[x]
        if mode == ATTACK_MULTIPLE and not adjacent:
            for j in range(P):
                if pl[j, P_ALIVE] and rm[0, i, j] and pl[j, P_TEAM] != pl[i, P_TEAM]:
                    rm[1, i, j] = 1
            continue
        if n < 2:
            continue
        left = ring[(x + 1) % n]
        right = ring[(x - 1) % n]
        if mode != ATTACK_RIGHT and pl[left, P_TEAM] != pl[i, P_TEAM] and rm[0, i, left]:
            rm[1, i, left] = 1
        if mode != ATTACK_LEFT and pl[right, P_TEAM] != pl[i, P_TEAM] and rm[0, i, right]:
            rm[1, i, right] = 1


@kernel
def player_left(st, p):
    """A player who left can't be attacked, nor attack (their seat still counts for
    ranges until the next turn, 801.2c)."""
    P = st.pl.shape[0]
    for q in range(P):
        st.rm[1, p, q] = 0
        st.rm[1, q, p] = 0
