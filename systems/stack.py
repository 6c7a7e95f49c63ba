"""The stack (405): triggered abilities put on it (603.3b, APNAP order), the top object
resolving (608), and what happens after (608.2n, 117.3b).

Resolving may stop for a decision (an effect asks a player to choose): the object
stays on the stack with ``S_RES`` pointing at it and the effect's progress kept in
the game's scalars; ``systems/effects.py`` continues once the answer is in, and
``finish_resolution`` does the rest."""

from __future__ import annotations

from components.cards import (
    A_ARG,
    A_IF,
    A_KIND,
    A_ZONE,
    AB_EQUIP,
    AB_FROM_END_DEVOUR,
    AB_FROM_END_REBOUND,
    AB_MUTATE,
    B_IF,
    B_KIND,
    B_NTG,
    C_ENTERS_AS_COPY,
    C_NSA,
    C_SA0,
    C_TYPES,
    ST_CANT_BE_COUNTERED,
    ST_REBOUND,
)
from components.decisions import PEND_NONE
from components.game import (
    ERR_FULL,
    S_ACTIVE,
    S_CASTING,
    S_NCZ,
    S_NSTK,
    S_NTRG,
    S_OVER,
    S_PASSES,
    S_PEND,
    S_PRIO,
    S_RES,
    S_RESTARTED,
    S_TODO,
    TODO_PRIORITY,
)
from components.objects import (
    F_ATT,
    F_CARD,
    F_CTL,
    F_EVA,
    F_EVC,
    F_EVO,
    F_EVP,
    F_FACE_DOWN,
    F_FROM,
    F_IAB,
    F_ICTL,
    F_IKIND,
    F_NT,
    F_OWNER,
    F_SRC,
    F_T0,
    F_TOKEN,
    F_TS,
    F_TSPEC,
    F_ZONE,
)
from components.players import P_ALIVE
from components.rules import BATTLEFIELD, EXILE, GRAVEYARD, HAND, NO_TARGET, STACK, T_PERMANENT
from components.scratch import SCR_TRIGGER_ORDER
from components.stack import (
    DL_YOUR_NEXT_UPKEEP,
    I_PLANESWALKING,
    I_SPELL,
    I_TRIGGERED,
    Q_AB,
    Q_CTL,
    Q_EVA,
    Q_EVC,
    Q_EVO,
    Q_EVP,
    Q_SRC,
)
from systems import (
    casting,
    delayed,
    effects,
    loops,
    players,
    selectors,
    targets,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import delete_row, fail, stamp, touch


@kernel
def push(st, it):
    s = st.s
    n = s[S_NSTK]
    if n >= st.stk.shape[0]:
        fail(st, ERR_FULL)
        return
    st.stk[n] = it
    s[S_NSTK] = n + 1


@kernel(inline="always")
def top(st):
    return st.stk[st.s[S_NSTK] - 1]


# ----------------------------------------------------------------- triggers to the stack
@kernel
def put_triggers(st, cd):
    """603.3b: the abilities waiting go on the stack in APNAP order (each player's in the
    order they triggered: a documented default), one at a time: each may ask its
    controller for modes and targets (603.3c-d). Returns whether any was put; stops
    while a decision is pending."""
    s, trg = st.s, st.trg
    put = False
    buf = st.scr[SCR_TRIGGER_ORDER]
    while s[S_NTRG] > 0 and s[S_PEND] == PEND_NONE:
        m = players.turn_order_from(st, s[S_ACTIVE], buf)
        k = -1
        for j in range(m):
            p = buf[j]
            for q in range(s[S_NTRG]):
                if trg[q, Q_CTL] == p:
                    k = q
                    break
            if k >= 0:
                break
        if k < 0:  # only abilities of players who left: never put on the stack (800.4d)
            s[S_NTRG] = 0
            break
        src, a, ctl = trg[k, Q_SRC], trg[k, Q_AB], trg[k, Q_CTL]
        evp, eva, evo, evc = trg[k, Q_EVP], trg[k, Q_EVA], trg[k, Q_EVO], trg[k, Q_EVC]
        s[S_NTRG] = delete_row(trg, k, s[S_NTRG])
        card = st.o[src, F_CARD] if src >= 0 else -1  # (no source: 901.8's planeswalking ability)
        i = zones.new_object(st, cd, card, ctl, STACK)
        if i < 0:
            return put
        o = st.o
        o[i, F_IKIND] = I_TRIGGERED if a >= 0 else I_PLANESWALKING
        o[i, F_IAB] = a
        o[i, F_ICTL] = ctl
        o[i, F_SRC] = src
        o[i, F_EVP] = evp
        o[i, F_EVA] = eva
        o[i, F_EVO] = evo
        o[i, F_EVC] = evc
        casting.begin_trigger(st, cd, i)
        put = True
    return put


@kernel
def triggers_continue(st, cd):
    """A trigger's choices are done (or it was removed): the rest go on at the next
    look (``priority.settle`` puts them)."""
    touch(st)


# ----------------------------------------------------------------- resolving (608)
@kernel
def resolve_top(st, cd):
    """608.2: the top object resolves: its targets are checked (608.2b: illegal ones
    are left alone; with none legal, it doesn't resolve), then a permanent spell enters
    the battlefield (608.3) and anything else does what its effects say."""
    s, o, ct, ab = st.s, st.o, cd.ct, cd.ab
    touch(st)
    i = top(st)
    kind = o[i, F_IKIND]
    ctl = o[i, F_ICTL]
    src = zones.is_source_of(st, i)
    a = o[i, F_IAB]
    loops.resolved(st, cd, ctl)
    if s[S_OVER] or not st.pl[ctl, P_ALIVE]:  # a mandatory loop ended the game for them
        return
    if kind == I_PLANESWALKING:
        zones.cease(st, cd, i)
        variants.planeswalk(st, cd, ctl)
        after_resolution(st, cd)
        return
    if kind == I_SPELL and a >= 0 and ab[a, B_KIND] == AB_MUTATE:
        # 702.140b-c: a mutating creature spell with its target legal merges with it; with
        # the target illegal it goes on resolving as a creature spell (not countered)
        if _check_targets(st, cd, i, ctl, src) and st.pl[ctl, P_ALIVE]:
            s[S_RES] = i
            if effects.start(st, cd, i):
                finish_resolution(st, cd)
            return
        o[i, F_IAB] = -1
        _permanent_spell(st, cd, i, ctl, -1)
        after_resolution(st, cd)
        return
    if o[i, F_NT] > 0 and not _check_targets(st, cd, i, ctl, src):
        # 608.2b: every target illegal: it doesn't resolve
        if kind == I_SPELL:
            zones.move(st, cd, i, GRAVEYARD, -1)
        else:
            zones.cease(st, cd, i)
        after_resolution(st, cd)
        return
    if kind == I_SPELL and ct[o[i, F_CARD], C_ENTERS_AS_COPY] > 0 and st.pl[ctl, P_ALIVE]:
        # 614.1c, 707.2 (Body Double): what it enters as a copy of is chosen as it resolves
        o[i, F_IAB] = ct[o[i, F_CARD], C_ENTERS_AS_COPY] - 1
        if effects.start(st, cd, i):
            finish_resolution(st, cd)
        return
    if kind == I_SPELL and zones.devour_of(st, cd, i) > 0 and st.pl[ctl, P_ALIVE]:
        # 702.82a: as it enters its controller may sacrifice creatures (a program of the
        # rules: choose them, then it enters with counters for each)
        o[i, F_IAB] = ab.shape[0] - AB_FROM_END_DEVOUR
        if effects.start(st, cd, i):
            finish_resolution(st, cd)
        return
    if kind == I_SPELL and ct[o[i, F_CARD], C_TYPES] & T_PERMANENT:
        _permanent_spell(st, cd, i, ctl, a)
        after_resolution(st, cd)
        return
    if kind == I_TRIGGERED and not selectors.holds(st, cd, ab[a, B_IF], ctl, src, i):
        zones.cease(st, cd, i)  # 603.4: the intervening "if" is false now
        after_resolution(st, cd)
        return
    if a >= 0 and ab[a, B_KIND] == AB_EQUIP:
        t = _first_target(st, i)
        if o[src, F_ZONE] == BATTLEFIELD and o[src, F_CTL] == ctl and t != NO_TARGET:
            o[src, F_ATT] = t  # 702.6a, 301.5c
            o[src, F_TS] = stamp(st)
        zones.cease(st, cd, i)
        after_resolution(st, cd)
        return
    s[S_RES] = i
    if effects.start(st, cd, i):
        finish_resolution(st, cd)


@kernel
def _check_targets(st, cd, i, ctl, src):
    """608.2b: replace each target that is no longer legal by NO_TARGET; is any left?"""
    o = st.o
    any_ok = False
    for k in range(o[i, F_NT]):
        t = o[i, F_T0 + k]
        if t == NO_TARGET:
            continue
        if targets.legal(st, cd, o[i, F_TSPEC + k], t, ctl, src, i):
            any_ok = True
        else:
            o[i, F_T0 + k] = NO_TARGET
    return any_ok


@kernel(inline="always")
def _first_target(st, i):
    o = st.o
    for k in range(o[i, F_NT]):
        if o[i, F_T0 + k] != NO_TARGET:
            return o[i, F_T0 + k]
    return NO_TARGET


@kernel
def _permanent_spell(st, cd, i, ctl, a):
    """608.3: the permanent enters under its controller (an Aura attached to what it
    targets, 303.4f; a mutating creature merged, 702.140), if they're still in."""
    if not st.pl[ctl, P_ALIVE]:
        zones.move(st, cd, i, GRAVEYARD, -1)
        return
    attach = _first_target(st, i) if a >= 0 and cd.ab[a, B_NTG] else -1
    zones.enter_battlefield(st, cd, i, ctl, attach if attach != NO_TARGET else -1, 0)


@kernel
def finish_resolution(st, cd):
    """608.2n: an instant or sorcery goes to its owner's graveyard (if it is still on the
    stack); an ability ceases to exist."""
    s, o = st.s, st.o
    i = s[S_RES]
    s[S_RES] = -1
    if i >= 0 and o[i, F_ZONE] == STACK:
        if o[i, F_IKIND] == I_SPELL and _rebounds(st, cd, i):
            # 702.88a: exiled instead; at its controller's next upkeep they may cast it
            ctl = o[i, F_ICTL]
            zones.move(st, cd, i, EXILE, -1)
            rebound = cd.ab.shape[0] - AB_FROM_END_REBOUND
            delayed.create(st, DL_YOUR_NEXT_UPKEEP, rebound, ctl, i, i)
        elif o[i, F_IKIND] == I_SPELL:
            zones.move(st, cd, i, GRAVEYARD, -1)
        else:
            zones.cease(st, cd, i)
    after_resolution(st, cd)


@kernel
def _rebounds(st, cd, i):
    """702.88a: has spell i rebound (a static ability of a face-up command-zone card or
    a permanent gives it: Trail of the Mage-Rings) and was it cast from its controller's
    hand? (Not a copy; one cast from another player's hand wasn't cast from "your hand".)"""
    o = st.o
    if o[i, F_TOKEN] or o[i, F_FROM] != HAND or o[i, F_OWNER] != o[i, F_ICTL]:
        return False
    for k in range(st.s[S_NCZ]):
        if _rebound_of(st, cd, st.cz[k], i):
            return True
    for src in zones.permanents(st):
        if _rebound_of(st, cd, src, i):
            return True
    return False


@kernel
def _rebound_of(st, cd, src, i):
    o, ct, sa = st.o, cd.ct, cd.sa
    c = o[src, F_CARD]
    if c < 0 or o[src, F_FACE_DOWN]:
        return False
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] == ST_REBOUND and sa[r, A_ZONE] == o[src, F_ZONE]:
            if selectors.matches(st, cd, sa[r, A_ARG], i, o[src, F_CTL], src, -1):
                return True
    return False


@kernel
def after_resolution(st, cd):
    """117.3b: the active player receives priority after a spell or ability resolves."""
    s = st.s
    if s[S_RESTARTED]:  # the game restarted (723): its first turn has begun
        s[S_RESTARTED] = 0
        return
    s[S_PASSES] = 0
    s[S_PRIO] = s[S_ACTIVE]
    s[S_TODO] = TODO_PRIORITY


@kernel
def counter(st, cd, i):
    """701.6: a countered spell goes to its owner's graveyard; an ability ceases. A spell
    that can't be countered (its static ability working on the stack, whose condition
    holds: Banefire with X 5 or more) stays."""
    o = st.o
    if o[i, F_ZONE] != STACK:
        return
    if uncounterable(st, cd, i):
        return
    if o[i, F_IKIND] == I_SPELL:
        zones.move(st, cd, i, GRAVEYARD, -1)
    else:
        zones.cease(st, cd, i)


@kernel
def resume(st, cd):
    """A cast or a resolution with no decision pending (its decider left the game,
    800.4a) goes on without them: the casting asks its next choice, the resolving
    effect takes up where it was."""
    s = st.s
    if s[S_PEND] != PEND_NONE or s[S_OVER]:
        return
    if s[S_CASTING] >= 0:
        casting.advance(st, cd)
    elif s[S_RES] >= 0:
        if effects.run(st, cd):
            finish_resolution(st, cd)


@kernel
def uncounterable(st, cd, i):
    """Has spell i a "can't be countered" ability that applies now?"""
    o, ct, sa = st.o, cd.ct, cd.sa
    c = o[i, F_CARD]
    if c < 0 or o[i, F_IKIND] != I_SPELL:
        return False
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] == ST_CANT_BE_COUNTERED and sa[r, A_ZONE] == STACK:
            if selectors.holds(st, cd, sa[r, A_IF], o[i, F_ICTL], i, i):
                return True
    return False
