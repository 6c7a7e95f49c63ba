"""Planechase (901): planar decks, the planar controller, planeswalking (701.24, 901.11),
the planar die (901.9) and chaos (311.7), phenomena (704.6f), players leaving (901.10),
Two-Headed Giant (901.12), Grand Melee (901.14) and the single planar deck (901.15).

Every plane and phenomenon stays in the command zone (901.4): a card of a planar deck is
a face-down command-zone object listed in its owner's planar deck (``pdeck``, bottom
first) or in the single planar deck (``cdeck``); a face-up one is controlled by the
planar controller (``S_PLANAR_CTL``; in Grand Melee, the holder of the turn marker it
belongs to, ``F_MARKER``). Turning a card face down makes it a new object (901.7a): its
counters and status go. A face-down card of a planar deck stays in the command zone
(its zone) but out of the ``cz`` list the abilities are looked for in: nothing of it
functions, and the scans of every event stay short.

The planeswalking ability (901.8) is a triggered ability with no source: a stack object
of kind I_PLANESWALKING whose controller is the player whose roll made it trigger; when
it resolves that player planeswalks (systems/stack.py)."""

from __future__ import annotations

import numpy as np

from components.cards import (
    AB_TRIGGERED,
    B_KIND,
    B_WHEN,
    C_AB0,
    C_NAB,
    COST_W,
    EV_CHAOS,
    EV_PLANESWALK_FROM,
    EV_PLANESWALK_TO,
    EV_ROLLS_DIE,
    ST_CANT_CAST_LIBRARY_TOP_TYPES,
)
from components.decisions import A_SPECIAL, SP_ROLL_PLANAR_DIE
from components.effects import UNTIL_PLANESWALK, X_KIND, X_LASTING, X_SRC, X_UNTIL
from components.game import (
    S_ACTIVE,
    S_CASUAL,
    S_CHAOS_BLANKS,
    S_CUR,
    S_DIE_FORCE,
    S_NBF,
    S_NCOMMUNAL,
    S_NCZ,
    S_NEFF,
    S_NMARK,
    S_NSTK,
    S_NTRG,
    S_PASSES,
    S_PLANAR_CTL,
    S_PRIO,
    S_PW_EVENTS,
    S_REVERSED,
    S_TODO,
    S_VARIANT,
    TODO_PRIORITY,
)
from components.markers import K_HOLDER, K_NUMBER
from components.objects import (
    F_ACTUSED,
    F_BCTL,
    F_CARD,
    F_CTL,
    F_CTR,
    F_FACE_DOWN,
    F_ICTL,
    F_IKIND,
    F_LCTL,
    F_MARKER,
    F_OWNER,
    F_SRC,
    F_TS,
    F_TYPES,
    F_ZONE,
)
from components.players import P_ALIVE, P_PDECKN, P_PLANAR_ROLLS, P_SEATPOS
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    LIBRARY,
    N_COUNTERS,
    T_ARTIFACT,
    T_CREATURE,
    T_ENCHANTMENT,
    T_LAND,
    T_PHENOMENON,
    T_PLANE,
    T_PLANESWALKER,
)
from components.scratch import SCR_COST
from components.stack import I_PLANESWALKING, Q_SRC
from components.variants import CASUAL_PLANECHASE, CASUAL_SINGLE_PLANAR_DECK, GRAND_MELEE
from systems import command_zone, mana, players, triggers, zones
from systems.jit import kernel
from systems.state import (
    contains,
    delete_row,
    insert_ordered,
    rand_below,
    remove_value,
    stamp,
    touch,
    zeroed,
)

# faces of the planar die (901.3a): one Planeswalker symbol, one chaos symbol, four blanks
FACE_PLANESWALK, FACE_CHAOS, FACE_BLANK = 0, 1, 2


@kernel(inline="always")
def on(st):
    return (st.s[S_CASUAL] & CASUAL_PLANECHASE) != 0


@kernel(inline="always")
def single(st):
    """901.15: the game uses one communal planar deck."""
    return (st.s[S_CASUAL] & CASUAL_SINGLE_PLANAR_DECK) != 0


@kernel(inline="always")
def is_planar(st, i):
    """A plane or phenomenon card (311, 312)."""
    return i >= 0 and (st.o[i, F_TYPES] & (T_PLANE | T_PHENOMENON)) != 0


@kernel(inline="always")
def face_up_planar(st, i):
    """A face-up plane or phenomenon in the command zone (901.7)."""
    return is_planar(st, i) and st.o[i, F_ZONE] == COMMAND and st.o[i, F_FACE_DOWN] == 0


@kernel(inline="always")
def _is_plane(st, i):
    return (st.o[i, F_TYPES] & T_PLANE) != 0


# ----------------------------------------------------------------- planar decks
@kernel
def deck_size(st, p):
    """Cards in p's planar deck (the communal one with 901.15c)."""
    if single(st):
        return st.s[S_NCOMMUNAL]
    return st.pl[p, P_PDECKN]


@kernel
def _pop_top(st, p):
    """The top card of p's planar deck, taken off it; -1 if it is empty."""
    if single(st):
        n = st.s[S_NCOMMUNAL]
        if n == 0:
            return -1
        st.s[S_NCOMMUNAL] = n - 1
        return st.cdeck[n - 1]
    n = st.pl[p, P_PDECKN]
    if n == 0:
        return -1
    st.pl[p, P_PDECKN] = n - 1
    return st.pdeck[p, n - 1]


@kernel
def _put_bottom(st, i):
    """i goes under its owner's planar deck (the communal one with 901.15)."""
    if single(st):
        n = st.s[S_NCOMMUNAL]
        if n >= st.cdeck.shape[0]:
            return
        for k in range(n, 0, -1):
            st.cdeck[k] = st.cdeck[k - 1]
        st.cdeck[0] = i
        st.s[S_NCOMMUNAL] = n + 1
        return
    p = st.o[i, F_OWNER]
    n = st.pl[p, P_PDECKN]
    if n >= st.pdeck.shape[1]:
        return
    for k in range(n, 0, -1):
        st.pdeck[p, k] = st.pdeck[p, k - 1]
    st.pdeck[p, 0] = i
    st.pl[p, P_PDECKN] = n + 1


@kernel
def _put_top(st, p, i):
    """i goes on top of p's planar deck."""
    if single(st):
        n = st.s[S_NCOMMUNAL]
        if n < st.cdeck.shape[0]:
            st.cdeck[n] = i
            st.s[S_NCOMMUNAL] = n + 1
        return
    n = st.pl[p, P_PDECKN]
    if n < st.pdeck.shape[1]:
        st.pdeck[p, n] = i
        st.pl[p, P_PDECKN] = n + 1


@kernel
def _face_down(st, cd, i):
    """901.7a: turned face down it becomes a new object (counters and status gone); its
    owner controls it again."""
    o = st.o
    o[i, F_FACE_DOWN] = 1
    for k in range(N_COUNTERS):
        o[i, F_CTR + k] = 0
    o[i, F_BCTL] = o[i, F_OWNER]
    o[i, F_CTL] = o[i, F_OWNER]
    o[i, F_LCTL] = o[i, F_OWNER]
    o[i, F_MARKER] = 0
    o[i, F_ACTUSED] = 0
    o[i, F_TS] = stamp(st)
    st.s[S_NCZ] = remove_value(st.cz, st.s[S_NCZ], i)
    touch(st)


@kernel
def _face_up(st, cd, i, ctl, marker):
    o = st.o
    if o[i, F_FACE_DOWN] or not contains(st.cz, st.s[S_NCZ], i):
        st.s[S_NCZ] = insert_ordered(st.cz, st.s[S_NCZ], i)
    o[i, F_FACE_DOWN] = 0
    o[i, F_BCTL] = ctl
    o[i, F_CTL] = ctl
    o[i, F_LCTL] = ctl
    o[i, F_MARKER] = marker
    o[i, F_TS] = stamp(st)
    touch(st)


@kernel
def to_bottom(st, cd, i):
    """A face-up plane or phenomenon is turned face down under its owner's planar deck."""
    _face_down(st, cd, i)
    _put_bottom(st, i)


# ----------------------------------------------------------------- the planar controller
@kernel
def planar_controller_of(st, p):
    """Who controls the plane p planeswalks to: the planar controller (901.6, 901.12b);
    in Grand Melee, p (each marker holder is a planar controller, 901.14a)."""
    if st.s[S_NMARK] > 0:
        return p
    c = st.s[S_PLANAR_CTL]
    return c if c >= 0 and st.pl[c, P_ALIVE] else p


@kernel
def _marker_of(st, p):
    """The number of the turn marker p holds (Grand Melee); 0 if none."""
    for k in range(st.s[S_NMARK]):
        if st.mk[k, K_HOLDER] == p:
            return st.mk[k, K_NUMBER]
    return 0


@kernel
def set_planar_controller(st, cd, p):
    """p becomes the planar controller (901.6): every face-up plane and phenomenon is
    theirs; with the single planar deck they own its cards (901.15b)."""
    st.s[S_PLANAR_CTL] = p
    o = st.o
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        if face_up_planar(st, i) and o[i, F_CTL] != p:
            o[i, F_BCTL] = p
            o[i, F_CTL] = p
            o[i, F_LCTL] = p
            touch(st)
        if single(st) and is_planar(st, i):
            o[i, F_OWNER] = p
    if single(st):
        for k in range(st.s[S_NCOMMUNAL]):
            i = st.cdeck[k]
            o[i, F_OWNER] = p
            o[i, F_BCTL] = p
            o[i, F_CTL] = p
            o[i, F_LCTL] = p


@kernel
def turn_begins(st, cd, p):
    """901.6 / 901.12b: the new active player (the active team's primary player) is the
    planar controller; 901.14: in Grand Melee the holder of a marker controls that
    marker's planes."""
    if st.s[S_NMARK] > 0:
        number = st.mk[st.s[S_CUR], K_NUMBER]
        o = st.o
        for k in range(st.s[S_NCZ]):
            i = st.cz[k]
            if face_up_planar(st, i) and o[i, F_MARKER] == number and o[i, F_CTL] != p:
                o[i, F_BCTL] = p
                o[i, F_CTL] = p
                o[i, F_LCTL] = p
                touch(st)
        return
    set_planar_controller(st, cd, p)


# ----------------------------------------------------------------- the starting plane
@kernel
def set_starting_plane(st, cd, p, marker):
    """901.5: p turns up the top card of their planar deck; a phenomenon goes to the
    bottom and p goes on, until a plane is face up. Nothing triggers."""
    n = deck_size(st, p)
    for _ in range(n):
        top = _pop_top(st, p)
        if top < 0:
            return
        if st.o[top, F_TYPES] & T_PHENOMENON:
            _put_bottom(st, top)
            continue
        _face_up(st, cd, top, p, marker)
        return


@kernel
def _any_face_up(st):
    for k in range(st.s[S_NCZ]):
        if face_up_planar(st, st.cz[k]):
            return True
    return False


@kernel
def before_first_turn(st, cd, order, m):
    """901.5 / 901.14a: the starting player (in Grand Melee, each player who starts with a
    turn marker) sets a starting plane, unless a position already has one face up.
    ``order``: the m players in turn order from the starting player."""
    if _any_face_up(st):
        if st.s[S_PLANAR_CTL] < 0 and st.s[S_VARIANT] != GRAND_MELEE:
            st.s[S_PLANAR_CTL] = order[0]
        return
    if st.s[S_VARIANT] == GRAND_MELEE:
        markers = min(max(1, players.n_alive(st) // 4), (m + 3) // 4)
        for k in range(markers):
            set_starting_plane(st, cd, order[4 * k], k + 1)
        return
    set_starting_plane(st, cd, order[0], 0)
    st.s[S_PLANAR_CTL] = order[0]


# ----------------------------------------------------------------- planeswalking (701.24)
@kernel
def planeswalk(st, cd, p):
    """701.24a / 901.11: p planeswalks: each face-up plane and phenomenon (in Grand Melee,
    each one p controls) goes face down under its owner's planar deck, then p turns the
    top card of their planar deck face up. "Planeswalk away" abilities see the cards
    leave; "planeswalk to" / encounter abilities see the new one arrive."""
    if not on(st) or not st.pl[p, P_ALIVE]:
        return
    o = st.o
    gm = st.s[S_NMARK] > 0
    n = st.s[S_NCZ]
    away = np.empty(n + 1, np.int64)
    m = 0
    for k in range(n):
        i = st.cz[k]
        if face_up_planar(st, i) and (not gm or o[i, F_CTL] == p):
            away[m] = i
            m += 1
    marker = _marker_of(st, p) if gm else 0
    left_plane = False
    for x in range(m):
        i = away[x]
        if _is_plane(st, i):
            left_plane = True
        if gm and o[i, F_MARKER] > 0:
            marker = o[i, F_MARKER]
        amt = 0
        for c in range(N_COUNTERS):
            amt += o[i, F_CTR + c]
        triggers.event(st, cd, EV_PLANESWALK_FROM, i, p, amt, o[i, F_CTL])
    for x in range(m):
        to_bottom(st, cd, away[x])
    top = _pop_top(st, p)
    if top >= 0:
        arrive(st, cd, top, p, marker)
    planeswalked(st, cd, left_plane)


@kernel
def arrive(st, cd, i, p, marker):
    """p turns planar card i face up: it's the plane p planeswalks to (901.11b)."""
    ctl = planar_controller_of(st, p)
    _face_up(st, cd, i, ctl, marker)
    triggers.event(st, cd, EV_PLANESWALK_TO, i, p, 0, ctl)


@kernel
def planeswalked(st, cd, left_plane):
    """901.11: effects lasting until a player planeswalks end (a lasting effect's
    statics with the object holding them: Agyrem, Eloren Wilds); Chaotic Aether's lasts
    until a player planeswalks away from a plane."""
    s = st.s
    s[S_PW_EVENTS] += 1
    if left_plane:
        s[S_CHAOS_BLANKS] = 0
    k = 0
    while k < s[S_NEFF]:
        if st.eff[k, X_UNTIL] == UNTIL_PLANESWALK:
            if st.eff[k, X_KIND] == X_LASTING and st.eff[k, X_SRC] >= 0:
                zones.cease(st, cd, st.eff[k, X_SRC])
            s[S_NEFF] = delete_row(st.eff, k, s[S_NEFF])
            touch(st)
        else:
            k += 1


@kernel
def planeswalk_to_top(st, cd, p, count):
    """Spatial Merging: reveal p's planar deck from the top until ``count`` planes;
    planeswalk to all of them at once; the other cards revealed go to the bottom. (The
    planes face up now, the phenomenon among them, go to the bottom first.)"""
    o = st.o
    gm = st.s[S_NMARK] > 0
    n = st.s[S_NCZ]
    away = np.empty(n + 1, np.int64)
    m = 0
    for k in range(n):
        i = st.cz[k]
        if face_up_planar(st, i) and (not gm or o[i, F_CTL] == p):
            away[m] = i
            m += 1
    marker = _marker_of(st, p) if gm else 0
    left_plane = False
    for x in range(m):
        if _is_plane(st, away[x]):
            left_plane = True
        if gm and o[away[x], F_MARKER] > 0:
            marker = o[away[x], F_MARKER]
        triggers.event(st, cd, EV_PLANESWALK_FROM, away[x], p, 0, o[away[x], F_CTL])
    found = np.empty(count + 1, np.int64)
    nf = 0
    rest = np.empty(deck_size(st, p) + 1, np.int64)
    nr = 0
    total = deck_size(st, p)
    for _ in range(total):
        if nf >= count:
            break
        top = _pop_top(st, p)
        if top < 0:
            break
        if _is_plane(st, top):
            found[nf] = top
            nf += 1
        else:
            rest[nr] = top
            nr += 1
    for x in range(m):
        to_bottom(st, cd, away[x])
    for x in range(nr):
        _put_bottom(st, rest[x])
    for x in range(nf):
        arrive(st, cd, found[x], p, marker)
    planeswalked(st, cd, left_plane)


# ----------------------------------------------------------------- the planar die (901.9)
@kernel
def can_roll(st, cd, p):
    """901.9: the active player (each player of the active team, 901.12d) with priority,
    the stack empty, in a main phase of their turn, who can pay one generic mana for
    each roll they made this way this turn."""
    k = st.pl[p, P_PLANAR_ROLLS]
    if k == 0:
        return True
    cost = zeroed(st.scr[SCR_COST], COST_W)
    return mana.can_pay(st, cd, p, cost, k)


@kernel
def special_options(st, cd, p, q, acts, m):
    """The planar die roll as an option of q's (on p's priority); returns the new count."""
    if can_roll(st, cd, q) and m < acts.shape[0]:
        acts[m, 0] = A_SPECIAL
        acts[m, 1] = q
        acts[m, 2] = -1
        acts[m, 3] = SP_ROLL_PLANAR_DIE
        acts[m, 4] = 0
        m += 1
    return m


@kernel
def roll_as_special_action(st, cd, p):
    """901.9: p pays and rolls; the active player then gets priority (901.9a-c)."""
    s = st.s
    k = st.pl[p, P_PLANAR_ROLLS]
    if k > 0:
        cost = zeroed(st.scr[SCR_COST], COST_W)
        mana.pay(st, cd, p, cost, k)
    st.pl[p, P_PLANAR_ROLLS] = k + 1
    roll(st, cd, p)
    s[S_PASSES] = 0
    s[S_PRIO] = s[S_ACTIVE]
    s[S_TODO] = TODO_PRIORITY


@kernel
def roll(st, cd, p):
    """p rolls the planar die: a die roll (901.9d); blank does nothing (a chaos roll while
    Chaotic Aether's effect lasts), chaos ensues (311.7), the Planeswalker symbol makes
    the planeswalking ability trigger (901.8)."""
    s = st.s
    if s[S_DIE_FORCE] > 0:
        face = s[S_DIE_FORCE] - 1
        s[S_DIE_FORCE] = 0
    else:
        r = rand_below(st, 6)
        face = FACE_PLANESWALK if r == 0 else (FACE_CHAOS if r == 1 else FACE_BLANK)
    touch(st)
    triggers.new_event(st)
    triggers.event(st, cd, EV_ROLLS_DIE, -1, p, 1, p)
    if face == FACE_BLANK and s[S_CHAOS_BLANKS]:
        face = FACE_CHAOS
    if face == FACE_CHAOS:
        triggers.event(st, cd, EV_CHAOS, -1, p, 0, p)
    elif face == FACE_PLANESWALK:
        triggers.queue(st, -1, -1, p, p, 0, -1, -1)


# ----------------------------------------------------------------- phenomena (704.6f)
@kernel
def _encounter_pending(st, i):
    """Is an ability of phenomenon i waiting to be put on the stack or on the stack?"""
    for k in range(st.s[S_NTRG]):
        if st.trg[k, Q_SRC] == i:
            return True
    for k in range(st.s[S_NSTK]):
        j = st.stk[k]
        if st.o[j, F_SRC] == i and st.o[j, F_IKIND] != I_PLANESWALKING:
            return True
    return False


@kernel
def state_based_actions(st, cd):
    """704.6f: a face-up phenomenon with no ability of its own waiting or on the stack
    (its encounter ability has left the stack, or never triggered) makes its controller
    planeswalk. Returns whether it happened."""
    o = st.o
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        if face_up_planar(st, i) and o[i, F_TYPES] & T_PHENOMENON:
            if not _encounter_pending(st, i):
                planeswalk(st, cd, o[i, F_CTL])
                return True
    return False


# ----------------------------------------------------------------- leaving the game
@kernel
def players_leaving(st, cd, ps, m):
    """Before these players leave (901.6, 901.12b, 901.10b, 901.14b): a new planar
    controller (the next player in turn order who stays) takes over, and the abilities of
    phenomena stay on the stack, now theirs. In Grand Melee a departure that removes a
    turn marker puts the planes of the departing marker holder under their owners'
    planar decks, and nobody planeswalks. Returns what players_left needs to know: -1,
    or 2 * (who controlled a face-up card the leavers own) + (1 if it is a plane)."""
    s, o = st.s, st.o
    gone = -1
    for k in range(s[S_NCZ]):
        i = st.cz[k]
        if face_up_planar(st, i):
            for j in range(m):
                if o[i, F_OWNER] == ps[j] and gone < 0:
                    gone = 2 * o[i, F_CTL] + (1 if _is_plane(st, i) else 0)
    if s[S_NMARK] > 0:
        stays = players.n_alive(st) - m
        fewer = max(1, stays // 4) < max(1, players.n_alive(st) // 4)
        for j in range(m):
            p = ps[j]
            for k in range(s[S_NCZ] - 1, -1, -1):
                i = st.cz[k]
                if face_up_planar(st, i) and o[i, F_CTL] == p:
                    if fewer:
                        to_bottom(st, cd, i)
                    else:
                        q = _next_staying(st, p, ps, m)
                        if q >= 0:
                            o[i, F_BCTL] = q
                            o[i, F_CTL] = q
                            o[i, F_LCTL] = q
        if gone >= 0:
            c = gone // 2
            for j in range(m):
                if ps[j] == c:
                    gone = -1
        return gone
    c = s[S_PLANAR_CTL]
    if c < 0:
        return gone
    leaving = False
    for j in range(m):
        if ps[j] == c:
            leaving = True
    if not leaving:
        return gone
    q = _next_staying(st, c, ps, m)
    if q < 0:
        return -1
    set_planar_controller(st, cd, q)
    for k in range(s[S_NSTK]):  # 901.10b
        j = st.stk[k]
        src = o[j, F_SRC]
        if src >= 0 and o[j, F_ICTL] == c and o[src, F_TYPES] & T_PHENOMENON:
            o[j, F_ICTL] = q
            o[j, F_OWNER] = q
    if gone >= 0:
        gone = 2 * q + gone % 2
    return gone


@kernel
def _next_staying(st, p, ps, m):
    """The next player in turn order after p who isn't among the m leaving."""
    q = players.next_in_turn_order(st, p)
    for _ in range(st.pl.shape[0]):
        if q < 0 or q == p:
            return -1
        gone = False
        for j in range(m):
            if ps[j] == q:
                gone = True
        if not gone:
            return q
        q = players.next_in_turn_order(st, q)
    return -1


@kernel
def players_left(st, cd, ps, m, gone):
    """901.10: the players' objects have left the game (their planar decks with them). If
    a face-up plane or phenomenon left, the player who controlled it (the planar
    controller) turns up the top card of their planar deck, planeswalking (901.11a), and
    a planeswalking ability on the stack ceases to exist (901.10a)."""
    s, o = st.s, st.o
    for j in range(m):
        st.pl[ps[j], P_PDECKN] = 0
    if gone < 0:
        return
    q = gone // 2
    if not st.pl[q, P_ALIVE]:
        return
    if gone % 2:
        k = 0
        while k < s[S_NSTK]:
            j = st.stk[k]
            if o[j, F_IKIND] == I_PLANESWALKING:
                zones.cease(st, cd, j)
            else:
                k += 1
    top = _pop_top(st, q)
    if top >= 0:
        arrive(st, cd, top, q, _marker_of(st, q) if s[S_NMARK] > 0 else 0)
    planeswalked(st, cd, gone % 2 == 1)


# ----------------------------------------------------------------- Time Distortion
@kernel
def reverse_turn_order(st, cd):
    """Reverse the game's turn order: the seats are read the other way round (the
    player seated first keeps their place)."""
    n = st.seat.shape[0]
    tmp = np.empty(n, np.int64)
    for k in range(n):
        tmp[k] = st.seat[(n - k) % n]
    for k in range(n):
        st.seat[k] = tmp[k]
        st.pl[tmp[k], P_SEATPOS] = k
    st.s[S_REVERSED] = 1 - st.s[S_REVERSED]
    touch(st)


# ----------------------------------------------------------------- revealing planar cards
@kernel
def reveal_planes(st, cd, p, n, chosen, marks):
    """Interplanar Tunnel: cards are revealed from the top of p's planar deck (taken off
    it) until n plane cards are among them: into ``chosen`` top first, ``marks`` 1 for a
    plane. Returns how many were revealed."""
    k = 0
    planes = 0
    total = deck_size(st, p)
    for _ in range(total):
        if planes >= n or k >= chosen.shape[0]:
            break
        top = _pop_top(st, p)
        if top < 0:
            break
        chosen[k] = top
        marks[k] = 1 if _is_plane(st, top) else 0
        planes += marks[k]
        k += 1
    return k


@kernel
def count_marked(marks, n):
    k = 0
    for j in range(n):
        k += marks[j]
    return k


@kernel
def put_back_revealed(st, cd, p, top, chosen, marks, n):
    """The revealed cards but ``top`` go to the bottom of the planar deck in a random
    order, then ``top`` (if >= 0) on top."""
    rest = np.empty(n + 1, np.int64)
    m = 0
    for j in range(n):
        if chosen[j] != top:
            rest[m] = chosen[j]
            m += 1
    for k in range(m - 1, 0, -1):
        j = rand_below(st, k + 1)
        t = rest[k]
        rest[k] = rest[j]
        rest[j] = t
    for k in range(m):
        _put_bottom(st, rest[k])
    if top >= 0:
        _put_top(st, p, top)
    touch(st)


@kernel
def chaos_of_top(st, cd, p, n):
    """Pools of Becoming: p reveals the top n cards of their planar deck; the chaos
    abilities of each trigger (p controls them); then the cards go to the bottom (in the
    order they were revealed: a documented default for "any order")."""
    ct, ab = cd.ct, cd.ab
    cards = np.empty(n + 1, np.int64)
    m = 0
    for _ in range(n):
        top = _pop_top(st, p)
        if top < 0:
            break
        cards[m] = top
        m += 1
    for x in range(m):
        i = cards[x]
        c = st.o[i, F_CARD]
        if c >= 0:
            for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
                if ab[a, B_KIND] == AB_TRIGGERED and ab[a, B_WHEN] == EV_CHAOS:
                    triggers.queue(st, i, a, p, p, 0, -1, -1)
    for x in range(m):
        _put_bottom(st, cards[x])
    touch(st)


# ----------------------------------------------------------------- Skybreen
@kernel
def cant_cast_by_library_tops(st, cd, i):
    """Skybreen: can card i not be cast as a spell now, sharing a card type with the top
    card of a library (any player's in the game)?"""
    if not on(st):
        return False
    if not command_zone.command_static_any(st, cd, ST_CANT_CAST_LIBRARY_TOP_TYPES):
        return False
    o = st.o
    tops = 0
    for p in range(st.pl.shape[0]):
        if st.pl[p, P_ALIVE]:
            t = zones.library_top(st, p, 0)
            if t >= 0:
                tops |= o[t, F_TYPES]
    return (o[i, F_TYPES] & tops) != 0


# ----------------------------------------------------------------- Morphic Tide
@kernel
def reshuffle_permanents(st, cd):
    """Morphic Tide: each player shuffles every permanent they own into their library
    (tokens cease to exist there, 111.7), then reveals that many cards from its top; the
    artifact, creature, land and planeswalker cards revealed enter the battlefield, then
    the enchantment cards, and the rest go to the bottom of their owner's library (in
    the order revealed: a documented default for "any order")."""
    P = st.pl.shape[0]
    o = st.o
    counts = np.zeros(P, np.int64)
    n = st.s[S_NBF]
    perms = np.empty(n + 1, np.int64)
    for k in range(n):
        perms[k] = st.bf[k]
    for k in range(n):
        i = perms[k]
        counts[o[i, F_OWNER]] += 1
    for k in range(n):
        i = perms[k]
        if o[i, F_ZONE] == BATTLEFIELD:
            zones.move(st, cd, i, LIBRARY, -1)
    total = 0
    for p in range(P):
        if st.pl[p, P_ALIVE]:
            zones.shuffle(st, p)
            total += counts[p]
    revealed = np.empty(total + 1, np.int64)
    m = 0
    for p in range(P):
        if not st.pl[p, P_ALIVE]:
            continue
        for j in range(counts[p]):
            i = zones.library_top(st, p, j)
            if i < 0:
                break
            revealed[m] = i
            m += 1
    for pass_ in range(2):  # the permanents but enchantments, then the enchantments
        for x in range(m):
            i = revealed[x]
            if o[i, F_ZONE] != LIBRARY:
                continue
            t = o[i, F_TYPES]
            first = t & (T_ARTIFACT | T_CREATURE | T_LAND | T_PLANESWALKER) != 0
            if (pass_ == 0 and first) or (pass_ == 1 and not first and t & T_ENCHANTMENT):
                zones.enter_battlefield(st, cd, i, o[i, F_OWNER], -1, 0)
    for x in range(m):
        i = revealed[x]
        if o[i, F_ZONE] == LIBRARY:
            zones.to_library(st, cd, i, False)
    touch(st)
