"""Zones (400-408): objects and their moves between zones, drawing (121), milling,
shuffling (701.20), libraries, tokens (111), counters (122).

A move makes a new object (400.7): the row keeps its id, and the fields that describe
the old object (status, counters, damage, combat, attachments, controller) are reset.
Leaving the battlefield and entering it are events that triggered abilities look for
(603.6); they are reported to ``systems/triggers.py`` as they happen."""

from __future__ import annotations

from components.cards import (
    C_COLORS,
    C_DEF,
    C_DEVOUR,
    C_ENTERS_CTR,
    C_ENTERS_FACE_DOWN,
    C_ENTERS_N,
    C_ENTERS_TAPPED,
    C_FLAGS,
    C_KW,
    C_LOY,
    C_POW,
    C_TOU,
    C_TYPES,
    CF_FROM_GRAVEYARD,
    EV_DIES,
    EV_DISCARDS,
    EV_DRAWS,
    EV_ENTERS,
    EV_LAST_COUNTER,
    EV_LEAVES,
    EV_PUT_INTO_GRAVEYARD,
    ST_DOUBLE_COUNTERS,
)
from components.decisions import T_SHUFFLE
from components.effects import (
    UNTIL_FOREVER,
    X_COPY,
    X_P,
)
from components.game import (
    ERR_FULL,
    NEED_SELF_TRIGGERS,
    S_N,
    S_NBF,
    S_NCZ,
    S_NEEDS,
    S_NSTK,
    S_RES,
    S_TOKENS,
)
from components.objects import (
    F_ACTUSED,
    F_ANIMATED,
    F_ATKO,
    F_ATKP,
    F_ATT,
    F_ATTACKED,
    F_BCTL,
    F_BLOCKED,
    F_BLOCKING,
    F_BSEQ,
    F_CARD,
    F_CASTING,
    F_COLORS,
    F_COMBAT_DAMAGED,
    F_COPY_OF,
    F_CTL,
    F_CTR,
    F_DECL,
    F_DEVOUR,
    F_DEVOURED,
    F_DMG,
    F_DTHIT,
    F_EXILED_BY,
    F_FACE_DOWN,
    F_FLASHBACK,
    F_FREE,
    F_FSD,
    F_HIT_PLAYER,
    F_IAB,
    F_ICTL,
    F_KW,
    F_LCTL,
    F_LEFT_WITH,
    F_LKI_CTL,
    F_LKI_CTR,
    F_LKI_POW,
    F_LOYUSED,
    F_MELDED,
    F_MERGED,
    F_MERGED_IN,
    F_NAMED,
    F_NOREGEN,
    F_OWNER,
    F_POW,
    F_PROT,
    F_PROTECTOR,
    F_PUT_BY,
    F_REGEN,
    F_RESTRICT,
    F_SICK,
    F_SRC,
    F_SUSP_HASTE,
    F_SUSPEND,
    F_TAPPED,
    F_TOKEN,
    F_TOP,
    F_TOU,
    F_TRANSFORMED,
    F_TS,
    F_TYPES,
    F_UNEARTHED,
    F_WARD,
    F_X,
    F_XSUB,
    F_ZONE,
)
from components.players import (
    P_DRAWS,
    P_DREW_EMPTY,
    P_GRAVEYARD_TURN,
    P_HANDN,
    P_LIBN,
    P_NGRAVE_ACT,
    P_NINSTANT,
)
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    CTR_DEFENSE,
    CTR_LOYALTY,
    CTR_M1M1,
    CTR_P1P1,
    CTR_TIME,
    EXILE,
    GONE,
    GRAVEYARD,
    HAND,
    KW_FLASH,
    KW_INDESTRUCTIBLE,
    LIBRARY,
    N_COUNTERS,
    STACK,
    T_BATTLE,
    T_INSTANT,
    T_PLANESWALKER,
)
from systems import (
    command_zone,
    conspiracy,
    day_night,
    merging,
    players,
    selectors,
    suspend,
    triggers,
    variants,
)
from systems.jit import kernel
from systems.state import (
    bump,
    fail,
    insert_ordered,
    new_effect,
    rand_below,
    remove_value,
    stamp,
    touch,
    trace,
)


@kernel
def new_object(st, cd, card, owner, zone):
    """A new object row (a card dealt, a token, a copy, an ability on the stack)."""
    o, s = st.o, st.s
    i = s[S_N]
    if i >= o.shape[0]:
        fail(st, ERR_FULL)
        return -1
    s[S_N] = i + 1
    o[i, :] = 0
    o[i, F_CARD] = card
    o[i, F_OWNER] = owner
    o[i, F_BCTL] = owner
    o[i, F_CTL] = owner
    o[i, F_LCTL] = owner
    o[i, F_ZONE] = zone
    o[i, F_ATT] = -1
    o[i, F_ATKP] = -1
    o[i, F_ATKO] = -1
    o[i, F_BLOCKING] = -1
    o[i, F_PROTECTOR] = -1
    o[i, F_EXILED_BY] = -1
    o[i, F_MERGED] = -1
    o[i, F_MERGED_IN] = -1
    o[i, F_TOP] = 0
    o[i, F_NAMED] = -1
    o[i, F_IAB] = -1
    o[i, F_SRC] = -1
    o[i, F_DECL] = -(10**6)
    printed(st, cd, i)
    o[i, F_TS] = stamp(st)
    touch(st)
    if zone == HAND:
        _hand_add(st, cd, owner, i)
    elif zone == BATTLEFIELD:
        s[S_NBF] = insert_ordered(st.bf, s[S_NBF], i)
    elif zone == LIBRARY:
        put_on_library(st, owner, i, True)
    elif zone == COMMAND:
        s[S_NCZ] = insert_ordered(st.cz, s[S_NCZ], i)
    return i


@kernel(inline="always")
def printed(st, cd, i):
    """Characteristics as printed, until the layers look again (they look at
    permanents; elsewhere the printed values hold, 613 aside)."""
    o = st.o
    c = o[i, F_CARD]
    if c < 0:
        o[i, F_TYPES] = 0
        o[i, F_KW] = 0
        o[i, F_POW] = 0
        o[i, F_TOU] = 0
        o[i, F_COLORS] = 0
        return
    o[i, F_TYPES] = cd.ct[c, C_TYPES]
    o[i, F_KW] = cd.ct[c, C_KW]
    o[i, F_POW] = cd.ct[c, C_POW]
    o[i, F_TOU] = cd.ct[c, C_TOU]
    o[i, F_COLORS] = cd.ct[c, C_COLORS]
    o[i, F_PROT] = 0
    o[i, F_WARD] = 0
    o[i, F_RESTRICT] = 0
    o[i, F_ANIMATED] = 0
    o[i, F_XSUB] = -1


@kernel(inline="always")
def _instant_speed(cd, c):
    return c >= 0 and (cd.ct[c, C_TYPES] & T_INSTANT or cd.ct[c, C_KW] & KW_FLASH)


@kernel
def _hand_add(st, cd, p, i):
    st.pl[p, P_HANDN] = insert_ordered(st.hand[p], st.pl[p, P_HANDN], i)
    if _instant_speed(cd, st.o[i, F_CARD]):
        st.pl[p, P_NINSTANT] += 1


@kernel(inline="always")
def _graveyard_count(st, cd, i, d):
    """P_NGRAVE_ACT: i (a card whose own words work from the graveyard) enters (d = 1)
    or leaves (d = -1) its owner's graveyard."""
    c = st.o[i, F_CARD]
    if c >= 0 and cd.ct[c, C_FLAGS] & CF_FROM_GRAVEYARD and st.o[i, F_TOKEN] == 0:
        st.pl[st.o[i, F_OWNER], P_NGRAVE_ACT] += d


@kernel
def _hand_remove(st, cd, p, i):
    st.pl[p, P_HANDN] = remove_value(st.hand[p], st.pl[p, P_HANDN], i)
    if _instant_speed(cd, st.o[i, F_CARD]):
        st.pl[p, P_NINSTANT] -= 1


@kernel(inline="always")
def reset_combat(o, i):
    o[i, F_ATKP] = -1
    o[i, F_ATKO] = -1
    o[i, F_BLOCKING] = -1
    o[i, F_BLOCKED] = 0
    o[i, F_FSD] = 0
    o[i, F_BSEQ] = 0


@kernel
def move(st, cd, i, zone, controller):
    """Object i moves to ``zone`` (a library: on top) and becomes a new object (400.7);
    ``controller`` >= 0 gives the new object's controller (the battlefield, the stack),
    else its owner. Leaving the battlefield is reported to the triggers (603.6c,
    603.10a: they look back in time); the other cards of a merged permanent go to the
    same zone (727.3: systems/merging.leave), each card where the variants' replacements send
    it (903.9b-c: a commander may go to the command zone instead of a hand or library)."""
    o = st.o
    if o[i, F_ZONE] == BATTLEFIELD and (o[i, F_TOP] > 0 or o[i, F_MERGED] >= 0):
        merging.leave(st, cd, i, zone, controller)
        return
    move_one(st, cd, i, zone, controller)


@kernel
def move_one(st, cd, i, zone, controller):
    """One object moves (``move`` without the other components of a merged permanent)."""
    o, s = st.o, st.s
    zone = variants.destination(st, i, zone)
    old = o[i, F_ZONE]
    o[i, F_LEFT_WITH] = 0
    if old == BATTLEFIELD:
        o[i, F_TOP] = 0
    if old == BATTLEFIELD and zone != BATTLEFIELD and zone != GONE and o[i, F_UNEARTHED]:
        zone = EXILE  # 702.84c: an unearthed permanent is exiled instead
    o[i, F_UNEARTHED] = 0
    if old == STACK and zone != STACK and o[i, F_FLASHBACK]:
        zone = EXILE  # 702.34a: a spell cast by flashback is exiled as it leaves the stack
        o[i, F_FLASHBACK] = 0
    owner = o[i, F_OWNER]
    if (old == LIBRARY and zone == HAND) or (old == HAND and zone == STACK):
        bump(st)  # a draw, a cast: nothing the layers or the state-based actions look at
    else:
        touch(st)
    if old == BATTLEFIELD:
        o[i, F_LKI_POW] = o[i, F_POW]
        o[i, F_LKI_CTL] = o[i, F_CTL]
        o[i, F_LKI_CTR] = o[i, F_CTR + CTR_P1P1]
        o[i, F_LKI_CTR + 1] = o[i, F_CTR + CTR_M1M1]
        s[S_NBF] = remove_value(st.bf, s[S_NBF], i)
        triggers.left_battlefield(st, cd, i)
    if zone == BATTLEFIELD and old != BATTLEFIELD:
        s[S_NBF] = insert_ordered(st.bf, s[S_NBF], i)
        r = s[S_RES]  # what puts it there: the source of the spell or ability resolving
        o[i, F_PUT_BY] = 0 if r < 0 else 1 + (o[r, F_SRC] if o[r, F_SRC] >= 0 else r)
    if old == LIBRARY:
        st.pl[owner, P_LIBN] = remove_value(st.lib[owner], st.pl[owner, P_LIBN], i)
    if old == HAND and zone != HAND:
        _hand_remove(st, cd, owner, i)
    elif zone == HAND and old != HAND:
        _hand_add(st, cd, owner, i)
    if old == GRAVEYARD and zone != GRAVEYARD:
        _graveyard_count(st, cd, i, -1)
    elif zone == GRAVEYARD and old != GRAVEYARD:
        _graveyard_count(st, cd, i, 1)
    if old == STACK:
        s[S_NSTK] = remove_value(st.stk, s[S_NSTK], i)
        o[i, F_LKI_CTL] = o[i, F_ICTL]  # (608.2h: "its controller" of a countered spell)
    if old == COMMAND and zone != COMMAND:
        s[S_NCZ] = remove_value(st.cz, s[S_NCZ], i)
    elif zone == COMMAND and old != COMMAND:
        s[S_NCZ] = insert_ordered(st.cz, s[S_NCZ], i)
    if o[i, F_TOKEN] and zone != BATTLEFIELD and zone != GONE:
        s[S_TOKENS] = 1  # the next state-based action check looks (704.5d)
    o[i, F_ZONE] = zone
    o[i, F_TAPPED] = 0
    o[i, F_DMG] = 0
    o[i, F_DTHIT] = 0
    o[i, F_REGEN] = 0
    o[i, F_ATT] = -1
    for k in range(N_COUNTERS):
        o[i, F_CTR + k] = 0
    o[i, F_SICK] = 0
    o[i, F_LOYUSED] = 0
    o[i, F_ACTUSED] = 0
    o[i, F_CASTING] = 0
    o[i, F_FREE] = 0
    o[i, F_HIT_PLAYER] = 0  # (a new object hasn't dealt damage, 400.7)
    o[i, F_PROTECTOR] = -1
    if zone != EXILE:
        o[i, F_EXILED_BY] = -1
    o[i, F_TRANSFORMED] = 0
    if old != STACK or zone != BATTLEFIELD:  # (devour gained as a spell, 702.82: kept)
        o[i, F_DEVOUR] = 0
        o[i, F_DEVOURED] = 0
        o[i, F_SUSP_HASTE] = 0  # (suspend's haste: the spell's, then the permanent's)
    o[i, F_SUSPEND] = 0  # (suspend gained in exile: a card leaving exile loses it)
    o[i, F_FACE_DOWN] = 0  # (708.9: a face-down permanent leaving is turned face up)
    o[i, F_COPY_OF] = 0
    o[i, F_NOREGEN] = 0
    o[i, F_ATTACKED] = 0  # (a new object hasn't attacked, 400.7)
    o[i, F_COMBAT_DAMAGED] = 0
    if old != STACK:  # X is the spell's (107.3m: it enters with X counters from the stack)
        o[i, F_X] = 0
    reset_combat(o, i)
    o[i, F_TS] = stamp(st)
    o[i, F_BCTL] = owner if controller < 0 else controller
    o[i, F_CTL] = o[i, F_BCTL]
    o[i, F_LCTL] = o[i, F_BCTL]
    printed(st, cd, i)
    if zone == LIBRARY:
        put_on_library(st, owner, i, True)
    if old == BATTLEFIELD:
        o[i, F_MERGED] = -1
        o[i, F_MELDED] = 0  # (its cards leave as themselves, front face up)
        # the events first: abilities that look back see what was attached to it
        # (603.10a: Skullclamp's "whenever equipped creature dies")
        if zone == GRAVEYARD:
            triggers.event(st, cd, EV_DIES, i, -1, 0, o[i, F_LKI_CTL])
        triggers.event(st, cd, EV_LEAVES, i, -1, zone, o[i, F_LKI_CTL])
        for j in st.bf[: s[S_NBF]]:  # what was attached to it or fought it stays, unattached
            if o[j, F_ATT] == i:
                o[j, F_ATT] = -1
            if o[j, F_BLOCKING] == i:
                o[j, F_BLOCKING] = -1
    if zone == GRAVEYARD and o[i, F_TOKEN] == 0 and o[i, F_CARD] >= 0:  # (a card, 904)
        st.pl[owner, P_GRAVEYARD_TURN] += 1
    # "... put into a graveyard from anywhere" (a copy of a spell isn't a card, 707.10:
    # it only passes through, 704.5e)
    if zone == GRAVEYARD and s[S_NEEDS] & NEED_SELF_TRIGGERS and o[i, F_TOKEN] != 2:
        triggers.event(st, cd, EV_PUT_INTO_GRAVEYARD, i, -1, old, owner)
    variants.moved(st, i, zone)


@kernel(inline="always")
def devour_of(st, cd, i):
    """N of object i's devour N (702.82a): its card's, or one it gained as a spell (Jund);
    with both, the larger (the engine applies one instance: a documented default)."""
    c = st.o[i, F_CARD]
    n = cd.ct[c, C_DEVOUR] if c >= 0 else 0
    return max(n, st.o[i, F_DEVOUR])


@kernel
def enter_battlefield(st, cd, i, controller, attach_to, tapped):
    """Object i enters the battlefield under ``controller`` (attached to ``attach_to``
    for an Aura): status, starting loyalty / defense (306.5b, 310.4b), "enters tapped"
    and "enters with counters" (614.1c), then the event (603.6a). (A card that may
    enter as a copy, Body Double, is asked only as its spell resolves; put onto the
    battlefield another way it enters as itself: the documented default.)"""
    enter_as_copy(st, cd, i, controller, attach_to, tapped, -1)


@kernel
def enter_as_copy(st, cd, i, controller, attach_to, tapped, copy):
    """enter_battlefield; with ``copy`` >= 0 i enters as a copy of that card row (614.1c,
    707.2: an effect for as long as it stays on the battlefield), so what it enters
    with and what its entering triggers are the copy's."""
    move(st, cd, i, BATTLEFIELD, controller)
    o = st.o
    if o[i, F_MELDED]:
        o[i, F_TRANSFORMED] = 1  # 712.4a: a melded permanent has its combined back face
    if o[i, F_DEVOURED]:  # 702.82a: N +1/+1 counters for each creature it devoured
        o[i, F_CTR + CTR_P1P1] += o[i, F_DEVOURED] * devour_of(st, cd, i)
    if copy >= 0:
        k = new_effect(st, X_COPY, i, controller, i, UNTIL_FOREVER)
        if k >= 0:
            st.eff[k, X_P] = copy
            o[i, F_COPY_OF] = 1 + copy
            touch(st)
    c = selectors.face(st, cd, i)
    o[i, F_SICK] = 1
    day_night.entering(st, cd, i)  # 702.145f; "it becomes day as this enters"
    if c >= 0:
        t = cd.ct[c, C_TYPES]
        if t & T_PLANESWALKER:
            o[i, F_CTR + CTR_LOYALTY] = cd.ct[c, C_LOY]
        if t & T_BATTLE:
            o[i, F_CTR + CTR_DEFENSE] = cd.ct[c, C_DEF]
            # 310.11a: as a Siege enters its controller chooses an opponent to protect it;
            # the documented default: the first opponent in turn order
            q = players.next_in_turn_order(st, controller)
            while q >= 0 and q != controller and not players.is_opponent(st, controller, q):
                q = players.next_in_turn_order(st, q)
            o[i, F_PROTECTOR] = q if q != controller else -1
        if cd.ct[c, C_ENTERS_TAPPED]:
            tapped = 1
        k = cd.ct[c, C_ENTERS_CTR]
        if k >= 0 and cd.ct[c, C_ENTERS_N] > 0:
            o[i, F_CTR + k] += cd.ct[c, C_ENTERS_N]
        elif k >= 0 and cd.ct[c, C_ENTERS_N] < 0:  # "enters with X counters" (107.3m)
            o[i, F_CTR + k] += o[i, F_X]
    if c >= 0 and cd.ct[c, C_ENTERS_FACE_DOWN] > 0:  # (Ixidron: "as this enters, ...")
        _turn_face_down(st, cd, i, controller, cd.ct[c, C_ENTERS_FACE_DOWN] - 1)
    conspiracy.enters_counters(st, cd, i, controller)  # (Muzzio's Preparations, Grinder)
    d = command_zone.doublings(st, cd, ST_DOUBLE_COUNTERS)  # 122.6, 614.1a: Loft Gardens
    if d > 0:
        for k in range(N_COUNTERS):
            o[i, F_CTR + k] = o[i, F_CTR + k] << d
    o[i, F_TAPPED] = 1 if tapped else 0
    if attach_to >= 0:
        o[i, F_ATT] = attach_to
    triggers.event(st, cd, EV_ENTERS, i, -1, 0, controller)
    day_night.bound_check(st, cd)  # 702.145c, e


@kernel
def _turn_face_down(st, cd, i, controller, f):
    """As i enters, the other permanents matching filter f are turned face down: 2/2
    creatures with no name, text, subtypes or mana cost (708.2a), the same objects
    (a commander stays a commander, 903.3)."""
    o = st.o
    for x in permanents(st):
        if x != i and not o[x, F_FACE_DOWN] and selectors.matches(st, cd, f, x, controller, i, -1):
            o[x, F_FACE_DOWN] = 1
            touch(st)


@kernel
def put_on_library(st, p, i, top):
    """i goes on top (or the bottom) of p's library list (its zone set by the caller)."""
    n = st.pl[p, P_LIBN]
    if n >= st.lib.shape[1]:
        fail(st, ERR_FULL)
        return
    if top:
        st.lib[p, n] = i
    else:
        for k in range(n, 0, -1):
            st.lib[p, k] = st.lib[p, k - 1]
        st.lib[p, 0] = i
    st.pl[p, P_LIBN] = n + 1


@kernel(inline="always")
def library_top(st, p, k):
    """The k-th card from the top of p's library (0 = the top); -1 if there are fewer."""
    n = st.pl[p, P_LIBN]
    if k >= n:
        return -1
    return st.lib[p, n - 1 - k]


@kernel
def to_library(st, cd, i, top):
    """i goes to its owner's library, on top or at the bottom (401.4)."""
    move(st, cd, i, LIBRARY, -1)
    if not top and st.o[i, F_ZONE] == LIBRARY:  # move() put it on top: take it down
        p = st.o[i, F_OWNER]
        n = st.pl[p, P_LIBN]
        for k in range(n - 1, 0, -1):
            st.lib[p, k] = st.lib[p, k - 1]
        st.lib[p, 0] = i


@kernel
def draw(st, cd, p, count):
    """121: p draws ``count`` cards one at a time; drawing from an empty library is
    remembered for the state-based actions (704.5b)."""
    pl = st.pl
    for _ in range(count):
        n = pl[p, P_LIBN]
        if n == 0:
            pl[p, P_DREW_EMPTY] = 1
            touch(st)
            continue
        i = st.lib[p, n - 1]
        move(st, cd, i, HAND, -1)
        pl[p, P_DRAWS] += 1
        triggers.event(st, cd, EV_DRAWS, i, p, pl[p, P_DRAWS], p)  # (the card drawn)


@kernel
def mill(st, cd, p, count):
    """701.13: the top ``count`` cards of p's library go to the graveyard."""
    for _ in range(count):
        n = st.pl[p, P_LIBN]
        if n == 0:
            return
        move(st, cd, st.lib[p, n - 1], GRAVEYARD, -1)


@kernel
def shuffle(st, p):
    """701.20: Fisher-Yates from the game's generator; the trace records it."""
    n = st.pl[p, P_LIBN]
    lib = st.lib
    trace(st, T_SHUFFLE, p, n, 0, 0, 0, 0, 0, 0)
    for k in range(n - 1, 0, -1):
        j = rand_below(st, k + 1)
        t = lib[p, k]
        lib[p, k] = lib[p, j]
        lib[p, j] = t
    bump(st)


@kernel
def add_counters(st, cd, i, kind, n):
    """Put n counters of ``kind`` on object i (n < 0 removes, never below zero);
    removing the last of a kind is an event (Divine Intervention)."""
    o = st.o
    have = o[i, F_CTR + kind]
    new = have + n
    if new < 0:
        new = 0
    if new == have:
        return
    o[i, F_CTR + kind] = new
    touch(st)
    if new == 0 and have > 0 and kind == CTR_TIME:
        suspend.last_time_counter(st, cd, i)  # 702.62a
    if new == 0 and have > 0:
        triggers.event(st, cd, EV_LAST_COUNTER, i, -1, kind, o[i, F_CTL])


@kernel(inline="always")
def is_source_of(st, item):
    """The source of a stack item: the object itself for a spell, else its source."""
    return st.o[item, F_SRC] if st.o[item, F_SRC] >= 0 else item


@kernel(inline="always")
def hand_of(st, p):
    return st.hand[p, : st.pl[p, P_HANDN]]


@kernel(inline="always")
def permanents(st):
    return st.bf[: st.s[S_NBF]]


@kernel(inline="always")
def stack_items(st):
    return st.stk[: st.s[S_NSTK]]


@kernel
def cease(st, cd, i):
    """Object i ceases to exist (704.5d-e, 800.4a): out of its zone's list, zone GONE,
    with no event unless it leaves the battlefield (603.6c)."""
    o, s = st.o, st.s
    z = o[i, F_ZONE]
    if z == GONE:
        return
    if z == BATTLEFIELD:
        move(st, cd, i, GONE, -1)
        return
    p = o[i, F_OWNER]
    if z == HAND:
        _hand_remove(st, cd, p, i)
    elif z == LIBRARY:
        st.pl[p, P_LIBN] = remove_value(st.lib[p], st.pl[p, P_LIBN], i)
    elif z == STACK:
        s[S_NSTK] = remove_value(st.stk, s[S_NSTK], i)
    elif z == COMMAND:
        s[S_NCZ] = remove_value(st.cz, s[S_NCZ], i)
    o[i, F_ZONE] = GONE
    touch(st)


@kernel
def destroy(st, cd, i):
    """701.8: a destroyed permanent goes to its owner's graveyard, unless it is
    indestructible (702.12b) or a regeneration shield replaces it (701.19c: tapped,
    damage removed, out of combat). Returns whether it was destroyed."""
    return destroy_with(st, cd, i, False)


@kernel
def destroy_with(st, cd, i, no_regenerate):
    """destroy; ``no_regenerate``: "it can't be regenerated" (701.19c)."""
    o = st.o
    if o[i, F_ZONE] != BATTLEFIELD or o[i, F_KW] & KW_INDESTRUCTIBLE:
        return False
    if o[i, F_REGEN] > 0 and not no_regenerate and not o[i, F_NOREGEN]:
        o[i, F_REGEN] -= 1
        o[i, F_TAPPED] = 1
        o[i, F_DMG] = 0
        o[i, F_DTHIT] = 0
        reset_combat(o, i)
        touch(st)
        return False
    move(st, cd, i, GRAVEYARD, -1)
    return True


@kernel
def discard(st, cd, i):
    """701.9: a card goes from its owner's hand to their graveyard (an event)."""
    p = st.o[i, F_OWNER]
    move(st, cd, i, GRAVEYARD, -1)
    triggers.event(st, cd, EV_DISCARDS, i, p, 1, p)
