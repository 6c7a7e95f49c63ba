"""Opening hands and mulligans (103.4-103.5, the London mulligan) with the free first
mulligan of multiplayer games (800.6) and Brawl (903.12g), teams (805.3a) and vanguard
hand sizes (902.5a).

Each round, the players still deciding declare in turn order from the starting player
(PEND_MULLIGAN: keep or mulligan); then the mulligans happen at once (the hand is
shuffled back and a new one drawn). When everyone has kept, each puts their owed
cards on the bottom, one at a time (PEND_BOTTOM), and the first turn begins."""

from __future__ import annotations

import numpy as np

from components.decisions import PEND_BOTTOM, PEND_MULLIGAN
from components.game import S_FREE_MULLIGAN, S_PEND, S_PPLAYER, S_STARTING
from components.players import P_ALIVE, P_BOTTOM, P_HANDN, P_KEPT, P_MULLIGANS, P_START_HAND
from components.rules import LIBRARY
from systems import players, zones
from systems.jit import kernel

UNDECIDED, KEPT, MULLIGAN = 0, 1, 2


@kernel
def advance(st, cd):
    """Ask the next decision of the pregame; returns True once all is done (the caller
    then begins the first turn)."""
    s, pl = st.s, st.pl
    buf = np.empty(pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    while True:
        for j in range(k):
            p = buf[j]
            if pl[p, P_ALIVE] and pl[p, P_KEPT] == UNDECIDED:
                s[S_PEND] = PEND_MULLIGAN
                s[S_PPLAYER] = p
                return False
        again = False
        for j in range(k):  # the mulligans happen at the same time
            p = buf[j]
            if pl[p, P_ALIVE] and pl[p, P_KEPT] == MULLIGAN:
                _mulligan(st, cd, p)
                pl[p, P_KEPT] = UNDECIDED
                again = True
        if not again:
            break
    for j in range(k):
        p = buf[j]
        if pl[p, P_ALIVE] and pl[p, P_BOTTOM] > 0 and pl[p, P_HANDN] > 0:
            s[S_PEND] = PEND_BOTTOM
            s[S_PPLAYER] = p
            return False
    return True


@kernel
def _mulligan(st, cd, p):
    """103.5: shuffle the hand into the library and draw a new hand; the cards to put
    on the bottom count this mulligan unless it is free (800.6, 903.12g)."""
    pl = st.pl
    pl[p, P_MULLIGANS] += 1
    if pl[p, P_MULLIGANS] > st.s[S_FREE_MULLIGAN]:
        pl[p, P_BOTTOM] += 1
    while pl[p, P_HANDN] > 0:
        zones.move(st, cd, st.hand[p, 0], LIBRARY, -1)
    zones.shuffle(st, p)
    zones.draw(st, cd, p, pl[p, P_START_HAND])


@kernel
def decide(st, cd, p, mulligan):
    st.pl[p, P_KEPT] = MULLIGAN if mulligan else KEPT
    st.s[S_PEND] = 0


@kernel
def put_on_bottom(st, cd, p, i):
    zones.to_library(st, cd, i, False)
    st.pl[p, P_BOTTOM] -= 1
    st.s[S_PEND] = 0
