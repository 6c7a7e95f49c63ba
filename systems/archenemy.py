"""Archenemy (904) and Supervillain Rumble (904.12): scheme decks, setting schemes in
motion (701.25, 904.9), ongoing schemes and abandoning them (701.26, 904.11), and the
state-based action that puts a finished scheme back under its deck (904.10).

Scheme cards stay in the command zone (904.4): a card of a scheme deck is a face-down
command-zone object listed in its owner's scheme deck (``sdeck``, bottom first), kept out
of the ``cz`` list that abilities are looked for in; a face-up one is controlled by its
owner (904.7). Each archenemy (ROLE_ARCHENEMY; every
player in a Supervillain Rumble) sets a scheme in motion as their precombat main phase
begins, a turn-based action (904.9)."""

from __future__ import annotations

from components.cards import C_SUPER, EV_SET_IN_MOTION
from components.game import S_ACTIVE, S_CASUAL, S_N, S_NCZ, S_NO_SCHEMES, S_NSTK, S_NTRG, S_TURN
from components.objects import (
    F_ACTUSED,
    F_BCTL,
    F_CARD,
    F_CTL,
    F_CTR,
    F_FACE_DOWN,
    F_IKIND,
    F_LCTL,
    F_OWNER,
    F_PUT_BY,
    F_SRC,
    F_TS,
    F_TYPES,
    F_ZONE,
)
from components.players import P_ALIVE, P_ROLE, P_SDECKN, ROLE_ARCHENEMY
from components.rules import COMMAND, N_COUNTERS, S_ONGOING, T_SCHEME
from components.stack import I_TRIGGERED, Q_SRC
from components.variants import CASUAL_ARCHENEMY, CASUAL_RUMBLE
from systems import triggers
from systems.jit import kernel
from systems.state import contains, insert_ordered, remove_value, stamp, touch


@kernel(inline="always")
def on(st):
    return (st.s[S_CASUAL] & (CASUAL_ARCHENEMY | CASUAL_RUMBLE)) != 0


@kernel(inline="always")
def is_scheme(st, i):
    return i >= 0 and (st.o[i, F_TYPES] & T_SCHEME) != 0


@kernel(inline="always")
def face_up_scheme(st, i):
    return is_scheme(st, i) and st.o[i, F_ZONE] == COMMAND and st.o[i, F_FACE_DOWN] == 0


@kernel(inline="always")
def ongoing(st, cd, i):
    c = st.o[i, F_CARD]
    return c >= 0 and (cd.ct[c, C_SUPER] & S_ONGOING) != 0


# ----------------------------------------------------------------- scheme decks
@kernel
def _pop_top(st, p):
    n = st.pl[p, P_SDECKN]
    if n == 0:
        return -1
    st.pl[p, P_SDECKN] = n - 1
    return st.sdeck[p, n - 1]


@kernel
def to_bottom(st, cd, i):
    """A face-up scheme is turned face down under its owner's scheme deck (a new object:
    its counters and status go)."""
    o = st.o
    o[i, F_FACE_DOWN] = 1
    for k in range(N_COUNTERS):
        o[i, F_CTR + k] = 0
    o[i, F_ACTUSED] = 0
    o[i, F_TS] = stamp(st)
    st.s[S_NCZ] = remove_value(st.cz, st.s[S_NCZ], i)  # (out of the list abilities are looked in)
    for j in range(st.s[S_N]):  # a new object when it's set in motion again (400.7)
        if o[j, F_PUT_BY] == 1 + i:
            o[j, F_PUT_BY] = 0
    p = o[i, F_OWNER]
    n = st.pl[p, P_SDECKN]
    if n < st.sdeck.shape[1]:
        for k in range(n, 0, -1):
            st.sdeck[p, k] = st.sdeck[p, k - 1]
        st.sdeck[p, 0] = i
        st.pl[p, P_SDECKN] = n + 1
    touch(st)


# ----------------------------------------------------------------- setting in motion (701.25)
@kernel
def set_in_motion(st, cd, p):
    """701.25a: p moves the top card of their scheme deck off it and turns it face up;
    its "when you set this scheme in motion" abilities trigger. Returns the scheme (-1
    if the deck is empty)."""
    i = _pop_top(st, p)
    if i < 0:
        return -1
    o = st.o
    if not contains(st.cz, st.s[S_NCZ], i):
        st.s[S_NCZ] = insert_ordered(st.cz, st.s[S_NCZ], i)
    o[i, F_FACE_DOWN] = 0
    o[i, F_BCTL] = p
    o[i, F_CTL] = p
    o[i, F_LCTL] = p
    o[i, F_TS] = stamp(st)
    touch(st)
    triggers.event(st, cd, EV_SET_IN_MOTION, i, p, 0, p)
    return i


@kernel
def precombat_main(st, cd):
    """904.9: immediately after an archenemy's precombat main phase begins, they set the
    top scheme of their scheme deck in motion (not in a turn in which an effect says
    schemes can't be set in motion: All in Good Time)."""
    p = st.s[S_ACTIVE]
    if st.pl[p, P_ROLE] != ROLE_ARCHENEMY or not st.pl[p, P_ALIVE]:
        return
    if st.s[S_NO_SCHEMES] == st.s[S_TURN]:
        return
    triggers.new_event(st)
    set_in_motion(st, cd, p)


# ----------------------------------------------------------------- 904.10, abandoning
@kernel
def _scheme_ability_pending(st):
    """Is a triggered ability of any scheme on the stack or waiting to be put on it?"""
    o = st.o
    for k in range(st.s[S_NTRG]):
        if is_scheme(st, st.trg[k, Q_SRC]):
            return True
    for k in range(st.s[S_NSTK]):
        j = st.stk[k]
        if o[j, F_IKIND] == I_TRIGGERED and is_scheme(st, o[j, F_SRC]):
            return True
    return False


@kernel
def state_based_actions(st, cd):
    """904.10: a face-up non-ongoing scheme, with no triggered ability of any scheme on the
    stack or waiting, is turned face down under its owner's scheme deck. Returns
    whether one was."""
    acted = False
    if _scheme_ability_pending(st):
        return False
    k = 0
    while k < st.s[S_NCZ]:
        i = st.cz[k]
        if face_up_scheme(st, i) and not ongoing(st, cd, i):
            to_bottom(st, cd, i)  # (it leaves the list: the next one is at k now)
            acted = True
        else:
            k += 1
    return acted


@kernel
def abandon(st, cd, i):
    """701.26a: an ongoing scheme is abandoned: turned face down under its owner's scheme
    deck."""
    if face_up_scheme(st, i):
        to_bottom(st, cd, i)


@kernel
def no_schemes_this_turn(st):
    """All in Good Time: schemes can't be set in motion this turn (the extra turn it
    gives: the effect names the turn after this one; see systems/effects.py)."""
    st.s[S_NO_SCHEMES] = st.s[S_TURN] + 1
