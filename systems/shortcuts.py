"""Shortcuts and loops (729).

- **Proposing a shortcut (729.2).** The player with priority proposes a sequence of game
  choices repeated N times (``propose``: the sequence itself is the driver's, the
  facade's or a script's: they carry it out). Each other player in turn order after them
  accepts it or shortens it to K whole repetitions (PEND_SHORTCUT: options "accept" then
  K = 0, 1, ...; 729.2b); then the proposer has priority again and the driver takes the
  agreed number of repetitions (``S_SC_STOP``; 729.2c).
- **Fragmented loops and loops without progress (729.3).** A state the game was in when
  a player activated an ability is remembered (``lk``: a key of the visible state, who,
  what). When the game is back in such a state, the active player, or the first player in
  turn order from them who took part, must choose otherwise: the action they took from
  it is no longer offered to them (``forbid``). The records belong to one step.
- **Mandatory loops (729.4, 104.4b, 801.16).** While every player only passes with a
  spell or ability on the stack, states are recorded after ``WARMUP`` such passes; a
  state recurring means the loop holds only mandatory actions (no player can be forced to
  act to break it, 729.5-729.6): the game is a draw, for everyone, or with a limited range
  of influence for the controllers of what is on the stack and the players within their
  ranges (801.16).

The key of a state hashes what the game shows: every card and token (zone, controller,
status, characteristics after the layers, counters, attachments, combat), the players'
life, poison, mana, hand and library sizes, the stack, the turn, step and who has
priority. Effects' rows, timestamps and how often an ability was activated are not in it
(729.3's example: "nothing in the game cares how many times an ability has been
activated")."""

from __future__ import annotations

import numpy as np

from components.cards import AB_MANA, B_KIND
from components.decisions import (
    A_ACTIVATE,
    A_CHOOSE,
    A_PASS,
    AC_ARG,
    AC_KIND,
    AC_OBJ,
    AC_PLAYER,
    PEND_PRIORITY,
    PEND_SHORTCUT,
)
from components.effects import H_AMT, H_RECIP, H_REDIRECT
from components.game import (
    S_ACTIVE,
    S_DAY_NIGHT,
    S_LOOP,
    S_LOOP_STEP,
    S_N,
    S_NLOOPKEY,
    S_NSH,
    S_NSTK,
    S_PASSES,
    S_PEND,
    S_PPLAYER,
    S_PRIO,
    S_SC_PROPOSER,
    S_SC_STOP,
    S_SC_TIMES,
    S_STEP,
    S_TURN,
)
from components.objects import (
    F_ATKP,
    F_ATT,
    F_BLOCKING,
    F_CARD,
    F_CTL,
    F_CTR,
    F_DMG,
    F_FACE_DOWN,
    F_IAB,
    F_KW,
    F_NT,
    F_OWNER,
    F_POW,
    F_SRC,
    F_T0,
    F_TAPPED,
    F_TOKEN,
    F_TOU,
    F_TRANSFORMED,
    F_ZONE,
)
from components.players import (
    P_ALIVE,
    P_CTR,
    P_HANDN,
    P_LANDS,
    P_LIBN,
    P_LIFE,
    P_MANA,
    P_POISON,
    P_REACH,
)
from components.rules import BATTLEFIELD, GONE, LIBRARY, N_COUNTERS, N_MANA, STACK
from components.scratch import SCR_DESIGNATED_ORDER
from components.shortcuts import LK_ARG, LK_KEY, LK_KIND, LK_OBJ, LK_PLAYER, WARMUP
from systems import leaving_game, players
from systems.jit import kernel
from systems.state import copy_into

# two 64-bit multiplicative hashes (wrapping int64 arithmetic: no division in the loop)
K1, K2 = np.int64(0x100000001B3), np.int64(-7046029254386353131)
MAX_ANSWERS = 255  # "stop after K" options listed: K = 0 .. 254 (and accepting)


# ----------------------------------------------------------------- the key of a state
@kernel(inline="always")
def _mix(h1, h2, x):
    x = np.int64(x)
    return (h1 ^ x) * K1, (h2 + x + np.int64(1)) * K2


@kernel
def state_key(st, cd):
    """A key of the game's visible state (two 31-bit hashes). Cards in libraries are
    left out: which they are follows from where every other object is (objects are
    hashed in id order, with their zones) and the libraries' sizes; their order isn't
    in the key either way."""
    o, s = st.o, st.s
    h1, h2 = (
        np.int64(17),
        np.int64(29),
    )  # (not the number of objects: each ability put on the stack adds one)
    for i in range(s[S_N]):
        z = o[i, F_ZONE]
        if z == GONE or z == STACK or z == LIBRARY or o[i, F_CARD] < 0:
            continue
        h1, h2 = _mix(h1, h2, o[i, F_CARD])
        h1, h2 = _mix(h1, h2, z)
        h1, h2 = _mix(h1, h2, o[i, F_CTL] if z == BATTLEFIELD else o[i, F_OWNER])
        h1, h2 = _mix(h1, h2, o[i, F_TOKEN])
        if z == BATTLEFIELD:
            h1, h2 = _mix(h1, h2, o[i, F_TAPPED])
            h1, h2 = _mix(h1, h2, o[i, F_DMG])
            h1, h2 = _mix(h1, h2, o[i, F_KW])
            h1, h2 = _mix(h1, h2, o[i, F_POW])
            h1, h2 = _mix(h1, h2, o[i, F_TOU])
            h1, h2 = _mix(h1, h2, o[i, F_TRANSFORMED])
            h1, h2 = _mix(h1, h2, o[i, F_FACE_DOWN])
            h1, h2 = _mix(h1, h2, o[i, F_ATT])
            h1, h2 = _mix(h1, h2, o[i, F_ATKP])
            h1, h2 = _mix(h1, h2, o[i, F_BLOCKING])
            for k in range(N_COUNTERS):  # (the kinds it has: most have none)
                if o[i, F_CTR + k]:
                    h1, h2 = _mix(h1, h2, k)
                    h1, h2 = _mix(h1, h2, o[i, F_CTR + k])
    for p in range(st.pl.shape[0]):
        pl = st.pl
        h1, h2 = _mix(h1, h2, pl[p, P_ALIVE])
        h1, h2 = _mix(h1, h2, pl[p, P_LIFE])
        h1, h2 = _mix(h1, h2, pl[p, P_POISON])
        h1, h2 = _mix(h1, h2, pl[p, P_HANDN])
        h1, h2 = _mix(h1, h2, pl[p, P_LIBN])
        h1, h2 = _mix(h1, h2, pl[p, P_LANDS])
        for c in range(N_MANA):
            h1, h2 = _mix(h1, h2, pl[p, P_MANA + c])
        for k in range(N_COUNTERS):
            if pl[p, P_CTR + k]:
                h1, h2 = _mix(h1, h2, k)
                h1, h2 = _mix(h1, h2, pl[p, P_CTR + k])
    for k in range(s[S_NSTK]):
        i = st.stk[k]
        h1, h2 = _mix(h1, h2, o[i, F_CARD])
        h1, h2 = _mix(h1, h2, o[i, F_IAB])
        h1, h2 = _mix(h1, h2, o[o[i, F_SRC], F_CARD] if o[i, F_SRC] >= 0 else -1)
        for t in range(o[i, F_NT]):
            h1, h2 = _mix(h1, h2, o[i, F_T0 + t])
    for k in range(s[S_NSH]):  # prevention and redirection shields are state too (Eladamri)
        h1, h2 = _mix(h1, h2, st.sh[k, H_RECIP])
        h1, h2 = _mix(h1, h2, st.sh[k, H_AMT])
        h1, h2 = _mix(h1, h2, st.sh[k, H_REDIRECT])
    for x in (s[S_TURN], s[S_STEP], s[S_ACTIVE], s[S_PRIO], s[S_PASSES], s[S_DAY_NIGHT]):
        h1, h2 = _mix(h1, h2, x)
    return (h1 >> 33) & 0x7FFFFFFF, (h2 >> 33) & 0x7FFFFFFF  # (the arena is int32)


@kernel(inline="always")
def _where(st):
    return st.s[S_TURN] * 16 + st.s[S_STEP]


@kernel
def _current(st):
    """Forget the records of another step (729.3's records belong to one step)."""
    if st.s[S_LOOP_STEP] != _where(st):
        st.s[S_LOOP_STEP] = _where(st)
        st.s[S_NLOOPKEY] = 0


@kernel
def _record(st, h1, h2, p, kind, obj, arg):
    s, lk = st.s, st.lk
    n = s[S_NLOOPKEY]
    if n >= lk.shape[0]:
        return
    lk[n, LK_KEY] = h1
    lk[n, LK_KEY + 1] = h2
    lk[n, LK_PLAYER] = p
    lk[n, LK_KIND] = kind
    lk[n, LK_OBJ] = obj
    lk[n, LK_ARG] = arg
    s[S_NLOOPKEY] = n + 1


# ----------------------------------------------------------------- 729.3
@kernel
def acted(st, cd, p, kind, obj, arg):
    """p takes a priority action: an activated ability (not a mana ability) is
    remembered with the state it was activated from (729.3); anything but passing ends
    a run of passes (729.4)."""
    if kind != A_PASS:
        st.s[S_LOOP] = 0
        _forget_mandatory(st)
    if kind != A_ACTIVATE or cd.ab[arg, B_KIND] == AB_MANA:
        return
    _current(st)
    h1, h2 = state_key(st, cd)
    _record(st, h1, h2, p, kind, obj, arg)


@kernel
def forbid(st, cd, p, acts, m):
    """729.3: remove from p's priority options (acts[:m]) the actions p must not repeat
    from this state; returns the new count."""
    s, lk = st.s, st.lk
    if s[S_NLOOPKEY] == 0:
        return m
    _current(st)
    n = s[S_NLOOPKEY]
    if n == 0 or _designated(st) != p:
        return m
    seen = False  # (the state's key is computed only if some option was taken before)
    for j in range(m):
        seen = seen or _taken(lk, n, acts, j, 0, 0, False)
    if not seen:
        return m
    h1, h2 = state_key(st, cd)
    k = 0
    for j in range(m):
        keep = not _taken(lk, n, acts, j, h1, h2, True)
        if keep:
            if k != j:
                copy_into(acts[k], acts[j], acts.shape[1])
            k += 1
    return k


@kernel(inline="always")
def _taken(lk, n, acts, j, h1, h2, keyed):
    """Was activation acts[j] recorded (from the state keyed h1, h2, if ``keyed``)?"""
    if acts[j, AC_KIND] != A_ACTIVATE:
        return False
    for r in range(n):
        if (lk[r, LK_KIND] == A_ACTIVATE and lk[r, LK_PLAYER] == acts[j, AC_PLAYER]
                and lk[r, LK_OBJ] == acts[j, AC_OBJ] and lk[r, LK_ARG] == acts[j, AC_ARG]
                and (not keyed or (lk[r, LK_KEY] == h1 and lk[r, LK_KEY + 1] == h2))):  # fmt: skip
            return True
    return False


@kernel
def _designated(st):
    """729.3: the active player if they took part, else the first player in turn order
    from them who did."""
    lk = st.lk
    n = st.s[S_NLOOPKEY]
    buf = st.scr[SCR_DESIGNATED_ORDER]
    k = players.turn_order_from(st, st.s[S_ACTIVE], buf)
    for j in range(k):
        for r in range(n):
            if lk[r, LK_KIND] == A_ACTIVATE and lk[r, LK_PLAYER] == buf[j]:
                return buf[j]
    return -1


@kernel
def restricts(st):
    """Are there 729.3 records for this step (priority options may be filtered)?"""
    return st.s[S_NLOOPKEY] > 0 and st.s[S_LOOP_STEP] == _where(st)


# ----------------------------------------------------------------- 729.4
@kernel
def _forget_mandatory(st):
    s, lk = st.s, st.lk
    k = 0
    for r in range(s[S_NLOOPKEY]):
        if lk[r, LK_KIND] != A_PASS:
            if k != r:
                copy_into(lk[k], lk[r], lk.shape[1])
            k += 1
    s[S_NLOOPKEY] = k


@kernel
def passing(st, cd):
    """A player passes with something on the stack (or not): after WARMUP such passes in
    a row the states are recorded; a state recurring is a loop of mandatory actions: the
    game is a draw (104.4b) or, with limited ranges, for those 801.16 names. Returns
    whether it ended the loop."""
    s = st.s
    if s[S_NSTK] == 0:
        if s[S_LOOP]:
            s[S_LOOP] = 0
            _forget_mandatory(st)
        return False
    s[S_LOOP] += 1
    if s[S_LOOP] < WARMUP:
        return False
    _current(st)
    h1, h2 = state_key(st, cd)
    lk = st.lk
    for r in range(s[S_NLOOPKEY]):
        if lk[r, LK_KIND] == A_PASS and lk[r, LK_KEY] == h1 and lk[r, LK_KEY + 1] == h2:
            _loop_is_a_draw(st, cd)
            return True
    _record(st, h1, h2, s[S_PRIO], A_PASS, -1, -1)
    return False


@kernel
def _loop_is_a_draw(st, cd):
    """104.4b: a draw; 801.16: with a limited range of influence, for each player who
    controls an object involved (what is on the stack) and each player in their range."""
    s = st.s
    s[S_LOOP] = 0
    _forget_mandatory(st)
    limited = False
    for p in range(st.pl.shape[0]):
        if st.pl[p, P_ALIVE] and st.pl[p, P_REACH] > 0:
            limited = True
    if not limited:
        leaving_game.game_is_a_draw(st, cd, -1)
        return
    P = st.pl.shape[0]
    hit = np.zeros(P, np.bool_)
    o = st.o
    for k in range(s[S_NSTK]):
        i = st.stk[k]
        c = o[i, F_CTL]
        if o[i, F_SRC] >= 0:
            c = o[o[i, F_SRC], F_CTL]
        for q in range(P):
            if st.pl[q, P_ALIVE] and players.in_range(st, c, q):
                hit[q] = True
    ps = np.empty(P, np.int64)
    m = 0
    for q in range(P):
        if hit[q]:
            ps[m] = q
            m += 1
    if m:
        leaving_game.draw_players(st, cd, ps, m)


# ----------------------------------------------------------------- 729.2
@kernel
def propose(st, cd, p, times):
    """729.2a: p, who has priority, proposes a shortcut of ``times`` repetitions; the
    other players answer in turn order from p's left (729.2b). Returns False if p can't
    propose now."""
    s = st.s
    if s[S_PEND] != PEND_PRIORITY or s[S_PPLAYER] != p or times < 0:
        return False
    s[S_SC_PROPOSER] = p
    s[S_SC_TIMES] = times
    s[S_SC_STOP] = times
    _ask_next(st, p)
    return True


@kernel
def _ask_next(st, after):
    """The next player (in turn order after ``after``) to answer; back to the proposer's
    priority once every other player has (729.2c)."""
    s = st.s
    p = s[S_SC_PROPOSER]
    q = players.next_in_turn_order(st, after)
    if q < 0 or q == p or s[S_SC_STOP] == 0:
        s[S_PEND] = PEND_PRIORITY
        s[S_PPLAYER] = p
        return
    s[S_PEND] = PEND_SHORTCUT
    s[S_PPLAYER] = q


@kernel
def answer_options(st, acts, m):
    """The answering player's options: accept (arg: the repetitions proposed so far), then
    shorten to K whole repetitions, K = 0, 1, ... (729.2b)."""
    s = st.s
    q = s[S_PPLAYER]
    stop = s[S_SC_STOP]
    m = _row(acts, m, q, stop)
    for k in range(min(stop, MAX_ANSWERS)):
        m = _row(acts, m, q, k)
    return m


@kernel(inline="always")
def _row(acts, m, q, k):
    if m < acts.shape[0]:
        acts[m, AC_KIND] = A_CHOOSE
        acts[m, AC_PLAYER] = q
        acts[m, AC_OBJ] = -1
        acts[m, AC_ARG] = k
        acts[m, 4] = 0
    return m + 1


@kernel
def answer(st, k):
    """The answering player accepts (k = the repetitions so far) or shortens to k."""
    s = st.s
    if k < s[S_SC_STOP]:
        s[S_SC_STOP] = k
    _ask_next(st, s[S_PPLAYER])
