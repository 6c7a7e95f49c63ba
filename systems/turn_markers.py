"""Grand Melee turn markers (807.4) and simultaneous turns (807.5).

807.4a: one marker for each full four players; 807.4b: marker 1 to the starting player,
the next to every fourth seat on the left; 807.4c: a marker passes to the left when
its holder's turn ends; 807.4d: a holder waits while another marker is within the
three seats to their left; 807.4e-g: as players leave and the markers needed drop,
markers are designated for removal (the one immediately to a departed player's
right) and removed at the end of their holder's turn, or at once if waiting; 807.4i-j:
extra turns; 807.5a: a player gets priority for a marker's stack only if its holder,
or the controller of an object on it, is within their range.

The interleaving (a documented choice): markers advance in marker-number order one
step at a time. The marker being advanced is "loaded": its turn is in the game's
scalars (SAVED) and its stack in ``stk``; the others keep theirs in their rows."""

from __future__ import annotations

import numpy as np

from components.decisions import PEND_NONE
from components.game import (
    ERR_STALL,
    S_ACTIVE,
    S_CAPPED,
    S_CASTING,
    S_CUR,
    S_MAXTURNS,
    S_NMARK,
    S_NPLAYERS,
    S_NSTK,
    S_NXT,
    S_OVER,
    S_PEND,
    S_PRIO,
    S_RES,
    S_TODO,
    S_TURN,
    TODO_BEGIN,
    TODO_PRIORITY,
)
from components.markers import (
    K_HOLDER,
    K_NSTK,
    K_NUMBER,
    K_REMOVAL,
    K_SAVED,
    K_STACK,
    K_THEN_NORMAL,
    K_WAITING,
    SAVED,
)
from components.objects import F_ICTL, F_ZONE
from components.players import P_ALIVE, P_DEFERRED, P_ELIG, P_SEATPOS
from components.rules import STACK
from systems import leaving_game, players, priority, stack, turn_structure
from systems.jit import kernel
from systems.state import contains, copy_into, fail, remove_value


@kernel(inline="always")
def save(st):
    """The loaded turn goes back into its marker's row."""
    s, row = st.s, st.mk[st.s[S_CUR]]
    for j in range(len(SAVED)):
        row[K_SAVED + j] = s[SAVED[j]]
    n = s[S_NSTK]
    row[K_NSTK] = n
    copy_into(row[K_STACK:], st.stk, n)


@kernel(inline="always")
def load(st, k):
    """Marker k's turn becomes the game's turn."""
    s, row = st.s, st.mk[k]
    s[S_CUR] = k
    for j in range(len(SAVED)):
        s[SAVED[j]] = row[K_SAVED + j]
    n = row[K_NSTK]
    s[S_NSTK] = n
    copy_into(st.stk, row[K_STACK:], n)


@kernel
def count(st):
    """807.4a: one turn marker for each full four players."""
    return max(1, players.n_alive(st) // 4)


@kernel
def setup(st, cd, order, m):
    """807.4b: marker 1 to the starting player, the next to every fourth seat on its left
    (``order``: the players in turn order from the starting player); every holder's
    turn begins at once."""
    s, mk = st.s, st.mk
    s[S_TURN] = 0
    M = min(count(st), (m + 3) // 4, mk.shape[0])
    s[S_NMARK] = M
    for k in range(M):
        h = order[4 * k]
        mk[k, :] = 0
        mk[k, K_NUMBER] = k + 1
        mk[k, K_HOLDER] = h
        s[S_CUR] = k
        for f in SAVED:
            s[f] = 0
        s[S_PEND] = PEND_NONE
        s[S_PRIO] = h
        s[S_NSTK] = 0
        turn_structure.begin_turn(st, cd, h)
        save(st)
    load(st, 0)


@kernel(inline="always")
def _eligible(st, a, q):
    """807.5a: q gets priority for the loaded stack only if its holder (a), or the
    controller of an object on it, is within q's range."""
    if not st.pl[q, P_ALIVE]:
        return False
    if st.rm[0, q, a]:
        return True
    for j in range(st.s[S_NSTK]):
        c = st.o[st.stk[j], F_ICTL]
        if st.rm[0, q, c] and st.pl[c, P_ALIVE]:
            return True
    return False


@kernel
def mark_eligible(st):
    """P_ELIG of every player for the loaded stack; returns how many (the players who
    must pass in succession, 807.5a)."""
    a = st.s[S_ACTIVE]
    k = 0
    for q in range(st.pl.shape[0]):
        e = _eligible(st, a, q)
        st.pl[q, P_ELIG] = 1 if e else 0
        k += st.pl[q, P_ELIG]
    return k


@kernel
def next_marked(st, p):
    """The next player after p in turn order who gets priority for this stack."""
    n = st.seat.shape[0]
    k0 = st.pl[p, P_SEATPOS]
    for d in range(1, n + 1):
        q = st.seat[(k0 + d) % n]
        if st.pl[q, P_ELIG]:
            return q
    return players.next_in_turn_order(st, p)


@kernel
def _held_near(st, k, p, left):
    """Does a marker other than k sit with a holder among the three players (in the
    game) to p's left (or right)?"""
    buf = np.empty(st.pl.shape[0], np.int64)
    m = players.turn_order_from(st, p, buf)
    if left:
        lo, hi = 1, min(4, m)
    else:
        lo, hi = max(1, m - 3), m
    for x in range(st.s[S_NMARK]):
        if x == k:
            continue
        for j in range(lo, hi):
            if st.mk[x, K_HOLDER] == buf[j]:
                return True
    return False


@kernel(inline="always")
def _must_wait(st, k):
    """807.4d."""
    return _held_near(st, k, st.mk[k, K_HOLDER], True)


@kernel
def _begin(st, cd, k):
    """Marker k (loaded) begins its holder's turn; a delayed extra turn first (807.4i-j)."""
    mk, pl = st.mk, st.pl
    h = mk[k, K_HOLDER]
    if pl[h, P_DEFERRED] > 0:
        pl[h, P_DEFERRED] -= 1
        mk[k, K_THEN_NORMAL] = 1
    turn_structure.begin_turn(st, cd, h)


@kernel
def _wake(st, cd):
    """Markers waiting under 807.4d begin when no marker is close on their left."""
    s, mk = st.s, st.mk
    for k in range(s[S_NMARK]):
        if mk[k, K_WAITING] and not _must_wait(st, k):
            mk[k, K_WAITING] = 0
            if k == s[S_CUR]:
                _begin(st, cd, k)
            else:
                save(st)
                cur = s[S_CUR]
                load(st, k)
                _begin(st, cd, k)
                save(st)
                load(st, cur)


@kernel
def rotate(st, cd):
    """The loaded marker's step is over: the next marker (by number) advances."""
    s, mk = st.s, st.mk
    M = s[S_NMARK]
    if M <= 1:
        if M == 1 and mk[0, K_WAITING]:
            _wake(st, cd)
        return
    save(st)
    k = (s[S_CUR] + 1) % M
    every = True
    for x in range(M):
        if not mk[x, K_WAITING]:
            every = False
    if every:
        _wake(st, cd)
    load(st, k)


@kernel
def _to_right(st, p, exclude):
    """The turn marker nearest to p's right (p's own last; -1 if none)."""
    n, mk, pl = st.s[S_NPLAYERS], st.mk, st.pl
    seat = pl[p, P_SEATPOS]
    for d0 in range(1, n + 1):
        d = d0 % n
        want = (seat - d) % n
        for x in range(st.s[S_NMARK] - 1, -1, -1):
            if x != exclude and pl[mk[x, K_HOLDER], P_SEATPOS] == want:
                return x
    return -1


@kernel
def _remove(st, k):
    """Marker k leaves the table; its extra designations pass to the marker on its
    right (807.4g)."""
    s, mk = st.s, st.mk
    extra = mk[k, K_REMOVAL] - 1
    right = _to_right(st, mk[k, K_HOLDER], k)
    M = s[S_NMARK]
    for x in range(k, M - 1):
        copy_into(mk[x], mk[x + 1], mk.shape[1])
    M -= 1
    s[S_NMARK] = M
    if right > k:
        right -= 1
    if extra > 0 and right >= 0:
        mk[right, K_REMOVAL] += extra
    if M == 0:
        return
    s[S_CUR] = k % M
    load(st, s[S_CUR])


@kernel
def _remove_waiting_designated(st):
    """807.4g: a designated marker whose holder is waiting is removed at once."""
    s, mk = st.s, st.mk
    while True:
        x = -1
        for j in range(s[S_NMARK]):
            if mk[j, K_REMOVAL] > 0 and mk[j, K_WAITING]:
                x = j
        if x < 0:
            return
        s[S_CUR] = x
        _remove(st, x)


@kernel
def end_turn(st, cd):
    """The loaded marker's turn ended (after cleanup): remove, keep or pass it (807.4c,
    807.4g, 807.4i-j)."""
    s, mk, pl = st.s, st.mk, st.pl
    k = s[S_CUR]
    h = mk[k, K_HOLDER]
    if s[S_MAXTURNS] and s[S_TURN] >= s[S_MAXTURNS]:
        s[S_CAPPED] = 1
        leaving_game.game_is_a_draw(st, cd, -1)  # the safety cap counts every marker's turns
        return
    if mk[k, K_THEN_NORMAL]:  # the delayed extra turn is over; the normal one follows
        mk[k, K_THEN_NORMAL] = 0
        if mk[k, K_REMOVAL] == 0 and pl[h, P_ALIVE]:
            turn_structure.begin_turn(st, cd, h)
            return
    if mk[k, K_REMOVAL] > 0:  # 807.4g
        if contains(st.xt, s[S_NXT], h):  # 807.4j: no marker for it now
            s[S_NXT] = remove_value(st.xt, s[S_NXT], h)
            pl[h, P_DEFERRED] += 1
        _remove(st, k)
        if s[S_NMARK]:  # marker-number order: the next marker advances next
            nxt = mk[k % s[S_NMARK], K_NUMBER]
            _remove_waiting_designated(st)
            j = 0
            for x in range(s[S_NMARK] - 1, -1, -1):
                if mk[x, K_NUMBER] >= nxt:
                    j = x
            if s[S_NMARK]:
                load(st, (j - 1) % s[S_NMARK])
        _wake(st, cd)
        return
    if pl[h, P_ALIVE] and contains(st.xt, s[S_NXT], h):
        s[S_NXT] = remove_value(st.xt, s[S_NXT], h)
        left_busy = _held_near(st, k, h, True)
        if _held_near(st, k, h, False):  # 807.4i: pass it on; the extra turn comes first
            pl[h, P_DEFERRED] += 1
        else:  # keep the marker (and wait if another is within three seats to the left)
            mk[k, K_WAITING] = 1 if left_busy else 0
            if not left_busy:
                turn_structure.begin_turn(st, cd, h)
            _wake(st, cd)
            return
    mk[k, K_HOLDER] = players.next_in_turn_order(st, h)  # 807.4c: pass it to the left
    mk[k, K_WAITING] = 1 if _must_wait(st, k) else 0
    if not mk[k, K_WAITING]:
        _begin(st, cd, k)
    _wake(st, cd)


@kernel
def players_left(st, cd, ps, m):
    """807.4c, 807.4e-g: markers of departed players, and markers designated for
    removal."""
    s, mk, o = st.s, st.mk, st.o
    save(st)
    loaded = mk[s[S_CUR], K_NUMBER]
    for x in range(s[S_NMARK]):  # what left the game is no longer on any marker's stack
        n = 0
        for j in range(mk[x, K_NSTK]):
            i = mk[x, K_STACK + j]
            if o[i, F_ZONE] == STACK:
                mk[x, K_STACK + n] = i
                n += 1
        mk[x, K_NSTK] = n
    excess = -count(st)
    for x in range(s[S_NMARK]):
        if mk[x, K_REMOVAL] == 0:
            excess += 1
    while excess > 0:  # 807.4e-f: the one immediately to a departed player's right
        best, best_any = -1, -1
        for j in range(m):
            x = _to_right(st, ps[j], -1)
            if x < 0:
                continue
            if best_any < 0 or mk[x, K_NUMBER] < mk[best_any, K_NUMBER]:
                best_any = x
            if mk[x, K_REMOVAL] == 0 and (best < 0 or mk[x, K_NUMBER] < mk[best, K_NUMBER]):
                best = x
        if best_any < 0:
            break
        mk[best if best >= 0 else best_any, K_REMOVAL] += 1
        excess -= 1
    _remove_waiting_designated(st)
    for x in range(s[S_NMARK]):  # 807.4c: a holder who left before their turn began
        if mk[x, K_WAITING] and not st.pl[mk[x, K_HOLDER], P_ALIVE]:
            mk[x, K_HOLDER] = players.next_in_turn_order(st, mk[x, K_HOLDER])
            mk[x, K_WAITING] = 1 if _must_wait(st, x) else 0
    k = 0
    for x in range(s[S_NMARK]):
        if mk[x, K_NUMBER] == loaded:
            k = x
    if s[S_NMARK]:
        load(st, k)
        _wake(st, cd)


@kernel
def run(st, cd):
    """Advance the simultaneous turns until someone must decide (turn_structure's
    dispatch, marker by marker)."""
    s, mk = st.s, st.mk
    guard = 0
    while not s[S_OVER] and s[S_PEND] == PEND_NONE:
        guard += 1
        if guard > 1_000_000:
            fail(st, ERR_STALL)
            return
        if s[S_CASTING] >= 0 or s[S_RES] >= 0:
            stack.resume(st, cd)
            continue
        if mk[s[S_CUR], K_WAITING]:
            rotate(st, cd)
            continue
        if s[S_TODO] == TODO_PRIORITY:
            priority.offer(st, cd)
        elif s[S_TODO] == TODO_BEGIN:
            turn_structure.begin_step(st, cd)
        else:
            turn_structure.end_step(st, cd)
            if s[S_PEND] == PEND_NONE and not s[S_OVER]:
                rotate(st, cd)
