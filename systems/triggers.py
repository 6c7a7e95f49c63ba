"""Triggered abilities (603): events, the abilities that wait for them, and the queue
of abilities that triggered (put on the stack the next time a player would receive
priority, ``systems/stack.py``).

``event(st, cd, ev, obj, player, amount, evc)`` reports that something happened; every
triggered ability waiting for that event (``B_WHEN``) whose filters match triggers,
if the event is within its controller's range of influence (801.7) and its
intervening "if" holds (603.4). Sources are the permanents, the face-up cards in the
command zone (eminence, planes, schemes, vanguards) and, for "leaves the battlefield"
events, the objects that left in the same event (603.10a: those abilities look back
in time). State triggers (603.8) are checked by ``state_triggers``."""

from __future__ import annotations

from components.cards import (
    AB_TRIGGERED,
    B_ARG,
    B_GRANT,
    B_GROUP,
    B_IF,
    B_KIND,
    B_STEP,
    B_TRIG_INDEX,
    B_WHAT,
    B_WHEN,
    B_WHO,
    B_ZONE,
    C_AB0,
    C_NAB,
    C_TRIGMASK,
    COUNTERS_AT_LEAST_SHIFT,
    EV_ATTACKS,
    EV_BECOMES_BLOCKED,
    EV_BEGINNING_OF,
    EV_CAST,
    EV_COUNTERS_AT_LEAST,
    EV_DAY_NIGHT,
    EV_DEALS_DAMAGE,
    EV_DEALT_DAMAGE,
    EV_DIES,
    EV_DRAWS,
    EV_LEAVES,
    EV_LIFE_AT_LEAST,
    EV_PUT_INTO_GRAVEYARD,
    EV_TRANSFORMS,
    REL_ANY,
)
from components.game import (
    NEED_GRANTED,
    NEED_GRAVEYARD_TRIGGERS,
    NEED_SELF_TRIGGERS,
    S_ACTIVE,
    S_CUR,
    S_GY_TRIGMASK,
    S_N,
    S_NBF,
    S_NCZ,
    S_NEEDS,
    S_NLEFT,
    S_NSTK,
    S_NTRG,
    S_STCUR,
    S_STVER,
    S_TEAM_TURNS,
    S_TRIGMASK,
    S_VERSION,
)
from components.objects import (
    F_ACTUSED,
    F_ATKP,
    F_ATT,
    F_CARD,
    F_CTL,
    F_CTR,
    F_FACE_DOWN,
    F_IAB,
    F_ICTL,
    F_IKIND,
    F_LKI_CTL,
    F_MERGED,
    F_NT,
    F_OWNER,
    F_SRC,
    F_T0,
    F_TYPES,
    F_ZONE,
)
from components.players import P_ALIVE
from components.rules import BATTLEFIELD, COMMAND, GRAVEYARD, STACK, T_PHENOMENON, T_PLANE
from components.stack import I_TRIGGERED, Q_AB, Q_CTL, Q_EVA, Q_EVC, Q_EVO, Q_EVP, Q_SRC
from systems import continuous_effects, merging, players, selectors
from systems.jit import kernel
from systems.state import new_row, touch

# B_ARG bits of "deals damage" triggers
DMG_COMBAT, DMG_TO_PLAYER, DMG_TO_OPPONENT, DMG_TO_CREATURE = 1, 2, 4, 8
DMG_TO_PLAYER_OR_PW = 16
DMG_FIRST_EACH_TURN = 32  # "deals damage to one or more players for the first time each turn"
AUX_FIRST_TO_PLAYER = 4  # aux bit: the source's first damage to a player this turn
AUX_TO_PLANESWALKER = 2  # aux bit of a damage event: the recipient is a planeswalker
AUX_GROUP = 2  # aux of the attack event raised once per declaration ("one or more attack")
# how _check looks at a source: on the battlefield or in the command zone; looking back
# at an object that just left the battlefield (603.10a); at the event's own object in
# its new zone ("when you cast this spell", "is put into a graveyard from anywhere")
LOOK_HERE, LOOK_BACK, LOOK_SELF = 0, 1, 2
AUX_SOURCE_SHIFT = 2  # dealt_damage's aux: (source + 1) << this; bit 0: combat damage
WHAT_SELF = -2  # B_WHAT: the source itself
WHAT_ATTACHED = -3  # B_WHAT: the object the source is attached to ("enchanted creature")


@kernel
def new_event(st):
    """A new simultaneous event begins: forget who left the battlefield in the last."""
    st.s[S_NLEFT] = 0


@kernel
def left_battlefield(st, cd, i):
    """i is leaving the battlefield: abilities that look back (603.10a) still see it
    for the rest of this event."""
    n = st.s[S_NLEFT]
    if n < st.left.shape[0]:
        st.left[n] = i
        st.s[S_NLEFT] = n + 1


@kernel
def event(st, cd, ev, obj, player, amount, evc, aux=0):
    """Something happened: queue every triggered ability waiting for it.

    ``obj``: the object the event is about (-1 none); ``player``: the player (-1 none);
    ``amount``: the number (damage, life, the nth draw; the zone for "leaves", the step
    for "beginning of"); ``evc``: the controller of ``obj`` when it happened; ``aux``:
    details (1: combat damage)."""
    if not (st.s[S_TRIGMASK] >> ev) & 1:
        return  # no card of this game waits for this kind of event
    continuous_effects.recompute(st, cd)
    graveyard = ev == EV_PUT_INTO_GRAVEYARD
    if graveyard and obj >= 0 and st.o[obj, F_ZONE] == GRAVEYARD:  # the card itself
        _check(st, cd, obj, ev, obj, player, amount, evc, aux, LOOK_SELF)
    if (selectors.trigger_events(st, cd) >> ev) & 1:  # (some permanent or plane waits)
        for src in st.bf[: st.s[S_NBF]]:
            _check(st, cd, src, ev, obj, player, amount, evc, aux, LOOK_HERE)
        for k in range(st.s[S_NCZ]):
            src = st.cz[k]
            if st.o[src, F_FACE_DOWN] == 0:
                _check(st, cd, src, ev, obj, player, amount, evc, aux, LOOK_HERE)
    if graveyard:  # (then permanents and planes that watch every card; nothing else)
        return
    if ev == EV_LEAVES or ev == EV_DIES:
        for k in range(st.s[S_NLEFT]):
            src = st.left[k]
            if st.o[src, F_ZONE] != BATTLEFIELD:
                _check(st, cd, src, ev, obj, player, amount, evc, aux, LOOK_BACK)
    if ev == EV_CAST and st.s[S_NEEDS] & NEED_SELF_TRIGGERS and obj >= 0:
        if st.o[obj, F_ZONE] == STACK:  # "when you cast this spell" (603.2, from the stack)
            _check(st, cd, obj, ev, obj, player, amount, evc, aux, LOOK_SELF)
    if st.s[S_NEEDS] & NEED_GRAVEYARD_TRIGGERS and (st.s[S_GY_TRIGMASK] >> ev) & 1:
        # abilities that work from a graveyard (only for the events such cards wait for)
        o = st.o
        for src in range(st.s[S_N]):
            if o[src, F_ZONE] == GRAVEYARD and waits_for(st, cd, src, ev):
                _check(st, cd, src, ev, obj, player, amount, evc, aux, LOOK_SELF)
    if st.s[S_NEEDS] & NEED_GRANTED:
        _granted(st, cd, ev, obj, player, amount, evc, aux)


@kernel
def _granted(st, cd, ev, obj, player, amount, evc, aux):
    """Triggered abilities other objects give permanents (Natural Unity, Assemble the
    Rank and Vile: "creatures you control with the chosen name have ..."; a Background's
    "commander creatures you own have ..."; continuous_effects.grant_source): each
    matching permanent is the source of its own instance (for "leaves" and "dies",
    603.10a, the permanents that just left, as they last existed; a granting permanent
    that left at the same time is not looked back at)."""
    o, ct, ab = st.o, cd.ct, cd.ab
    for k in range(continuous_effects.n_grant_sources(st)):
        g, c = continuous_effects.grant_source(st, cd, k)
        if g < 0 or not (ct[c, C_TRIGMASK] >> ev) & 1:
            continue
        gy = o[g, F_CTL]
        reach = o[g, F_ZONE] != BATTLEFIELD  # (a permanent's: within its range, 801.10)
        for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
            f = ab[a, B_GRANT]
            if f < 0 or ab[a, B_KIND] != AB_TRIGGERED or ab[a, B_WHEN] != ev:
                continue
            if ev == EV_LEAVES or ev == EV_DIES:
                for j in range(st.s[S_NLEFT]):
                    x = st.left[j]
                    if (
                        o[x, F_ZONE] != BATTLEFIELD
                        and (reach or players.in_range(st, gy, o[x, F_LKI_CTL]))
                        and selectors.matches_lki(st, cd, f, x, gy, g)
                    ):
                        _check_one(st, cd, x, a, o[x, F_LKI_CTL], ev, obj, player, amount, evc, aux)
            for x in st.bf[: st.s[S_NBF]]:  # (and those still there: "another ... dies")
                if continuous_effects.grants_to(st, cd, g, a, x):
                    _check_one(st, cd, x, a, o[x, F_CTL], ev, obj, player, amount, evc, aux)


@kernel
def _check_one(st, cd, src, a, you, ev, obj, player, amount, evc, aux):
    """Ability a of source src, controlled by ``you``: queue it if the event is within
    range (801.7), matches and its intervening "if" holds (603.4)."""
    if not st.pl[you, P_ALIVE]:
        return
    if player >= 0 and not players.in_range(st, you, player):
        return
    if evc >= 0 and evc != player and not players.in_range(st, you, evc):
        return
    if not _matches(st, cd, a, src, you, ev, obj, player, amount, evc, aux):
        return
    if not selectors.holds(st, cd, cd.ab[a, B_IF], you, src, -1):
        return
    queue(st, src, a, you, player, amount, obj, evc)


@kernel
def _check(st, cd, src, ev, obj, player, amount, evc, aux, look):
    o = st.o
    if merging.mutated(st, src):  # 702.140e: every component's abilities
        j = merging.top(st, src)
        while j >= 0:
            _check_card(st, cd, src, merging.card_face(st, cd, j), ev, obj, player, amount,
                        evc, aux, look)  # fmt: skip
            j = o[j, F_MERGED]
        return
    c = continuous_effects.face(st, cd, src)
    if c >= 0 and (cd.ct[c, C_TRIGMASK] >> ev) & 1:  # (most permanents wait for nothing)
        _check_card(st, cd, src, c, ev, obj, player, amount, evc, aux, look)


@kernel
def _check_card(st, cd, src, c, ev, obj, player, amount, evc, aux, look):
    o, ct, ab = st.o, cd.ct, cd.ab
    if c < 0 or not (ct[c, C_TRIGMASK] >> ev) & 1:
        return
    zone = o[src, F_ZONE]
    looking_back = look == LOOK_BACK
    if look == LOOK_SELF:
        you = o[src, F_ICTL] if zone == STACK else o[src, F_OWNER]
    else:
        you = o[src, F_LKI_CTL] if looking_back else o[src, F_CTL]
    if not st.pl[you, P_ALIVE]:
        return
    planar = zone == COMMAND and (o[src, F_TYPES] & (T_PLANE | T_PHENOMENON)) != 0
    # 801.7: the event must happen entirely within the controller's range (901.13: not
    # for planes and phenomena)
    if player >= 0 and not players.in_range(st, you, player) and not planar:
        return
    if evc >= 0 and evc != player and not players.in_range(st, you, evc) and not planar:
        return
    who = you  # 901.12c: a plane's "you" is its controller's whole team
    if planar and st.s[S_TEAM_TURNS] and player >= 0 and players.teammates(st, you, player):
        who = player
    for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
        if ab[a, B_KIND] != AB_TRIGGERED or ab[a, B_WHEN] != ev or ab[a, B_GRANT] >= 0:
            continue  # (a granted ability triggers for the permanents it is granted to)
        wz = ab[a, B_ZONE]
        if looking_back:
            if wz != BATTLEFIELD:
                continue
        elif wz != zone:
            continue
        n = amount
        if ab[a, B_GROUP]:  # "whenever one or more ... attack": once, counting them
            if ev != EV_ATTACKS or aux != AUX_GROUP:
                continue
            n = _attackers(st, cd, ab[a, B_WHAT], who, src)
            if n == 0 or n < ab[a, B_GROUP]:  # (B_GROUP: at least that many)
                continue
        elif not _matches(st, cd, a, src, who, ev, obj, player, amount, evc, aux):
            continue
        if not selectors.holds(st, cd, ab[a, B_IF], you, src, -1):
            continue
        k = ab[a, B_TRIG_INDEX]
        if k >= 0:  # "this ability triggers only once each turn"
            if (o[src, F_ACTUSED] >> k) & 1:
                continue
            o[src, F_ACTUSED] |= 1 << k
        queue(st, src, a, you, player, n, obj, evc)


@kernel
def _attackers(st, cd, what, you, src):
    """How many attacking creatures match (a group attack trigger's filter)."""
    n = 0
    for i in st.bf[: st.s[S_NBF]]:
        if st.o[i, F_ATKP] >= 0 and (what < 0 or selectors.matches(st, cd, what, i, you, src, -1)):
            n += 1
    return n


@kernel
def _matches(st, cd, a, src, you, ev, obj, player, amount, evc, aux):
    ab = cd.ab
    what, who, arg = ab[a, B_WHAT], ab[a, B_WHO], ab[a, B_ARG]
    if what == WHAT_SELF:
        if obj != src:
            return False
    elif what == WHAT_ATTACHED:
        if obj < 0 or obj != st.o[src, F_ATT]:
            return False
    elif what >= 0:
        if obj < 0:
            return False
        if ev == EV_LEAVES or ev == EV_DIES:
            if not selectors.matches_lki(st, cd, what, obj, you, src):
                return False
        elif not selectors.matches(st, cd, what, obj, you, src, -1):
            return False
    if who >= 0:
        q = player if player >= 0 else evc
        if q < 0 or not selectors.related(st, you, q, who):
            return False
    if ev == EV_BEGINNING_OF:  # "each" step: once, not once per active player (805.4d)
        if who == REL_ANY and player != st.s[S_ACTIVE] and st.s[S_TEAM_TURNS]:
            return False
        return ab[a, B_STEP] == amount
    if ev == EV_LEAVES:
        return arg < 0 or arg == amount
    if ev == EV_DRAWS:
        return arg <= 0 or arg == amount
    if ev == EV_BECOMES_BLOCKED or ev == EV_ATTACKS:
        return arg == aux or arg < 0
    if ev == EV_DAY_NIGHT or ev == EV_TRANSFORMS:  # "day becomes night"; "into [front]"
        return arg < 0 or arg == amount
    if ev == EV_DEALS_DAMAGE:
        if arg & DMG_COMBAT and not aux & 1:
            return False
        if arg & DMG_TO_PLAYER_OR_PW and player < 0 and not aux & AUX_TO_PLANESWALKER:
            return False
        if arg & DMG_TO_PLAYER and player < 0:
            return False
        if arg & DMG_FIRST_EACH_TURN and not aux & AUX_FIRST_TO_PLAYER:
            return False
        if arg & DMG_TO_OPPONENT and (player < 0 or not players.is_opponent(st, you, player)):
            return False
        return not (arg & DMG_TO_CREATURE and player >= 0)
    if ev == EV_DEALT_DAMAGE and arg >= 0:  # "... is dealt damage by [a source]": B_ARG a filter
        s = (aux >> AUX_SOURCE_SHIFT) - 1
        if s < 0:
            return False
        if st.o[s, F_ZONE] == BATTLEFIELD:
            return selectors.matches(st, cd, arg, s, you, src, -1)
        return selectors.matches_lki(st, cd, arg, s, you, src)  # (it has left: 603.10a)
    if ev == EV_CAST and arg >= 0:  # "if it targets ..." (Echoing Boon): B_ARG a filter row
        o = st.o
        for k in range(o[obj, F_NT]):
            t = o[obj, F_T0 + k]
            if t >= 0 and selectors.matches(st, cd, arg, t, you, src, -1):
                return True
        return False
    return True


@kernel
def queue(st, src, a, ctl, evp, eva, evo, evc):
    k = new_row(st, st.trg, S_NTRG)
    if k < 0:
        return
    t = st.trg
    t[k, Q_SRC] = src
    t[k, Q_AB] = a
    t[k, Q_CTL] = ctl
    t[k, Q_EVP] = evp
    t[k, Q_EVA] = eva
    t[k, Q_EVO] = evo
    t[k, Q_EVC] = evc


@kernel
def state_triggers(st, cd):
    """603.8: a state trigger ("when you have 20 or more life") triggers once while
    its condition is true and it isn't already on the stack or waiting."""
    s, o, ct, ab = st.s, st.o, cd.ct, cd.ab
    life = (s[S_TRIGMASK] >> EV_LIFE_AT_LEAST) & 1
    ctrs = (s[S_TRIGMASK] >> EV_COUNTERS_AT_LEAST) & 1
    if not life and not ctrs:
        return
    if s[S_STVER] == s[S_VERSION] and s[S_STCUR] == s[S_CUR]:
        return  # nothing changed since the last look found nothing
    pushed = False
    if ctrs:  # "when ~ has ten or more scroll counters on it" (a command-zone card's)
        for k in range(s[S_NCZ]):
            src = st.cz[k]
            c = o[src, F_CARD]
            if c < 0 or o[src, F_FACE_DOWN] or not (ct[c, C_TRIGMASK] >> EV_COUNTERS_AT_LEAST) & 1:
                continue
            for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
                if ab[a, B_KIND] != AB_TRIGGERED or ab[a, B_WHEN] != EV_COUNTERS_AT_LEAST:
                    continue
                kind = ab[a, B_ARG] & ((1 << COUNTERS_AT_LEAST_SHIFT) - 1)
                if o[src, F_CTR + kind] < ab[a, B_ARG] >> COUNTERS_AT_LEAST_SHIFT:
                    continue
                if not _pending(st, src, a):
                    queue(st, src, a, o[src, F_CTL], o[src, F_CTL], 0, -1, -1)
                    pushed = True
    if not life:
        if pushed:
            touch(st)
        else:
            s[S_STVER] = s[S_VERSION]
            s[S_STCUR] = s[S_CUR]
        return
    for src in st.bf[: s[S_NBF]]:
        c = continuous_effects.face(st, cd, src)
        if c < 0 or not (ct[c, C_TRIGMASK] >> EV_LIFE_AT_LEAST) & 1:
            continue
        you = o[src, F_CTL]
        for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
            if ab[a, B_KIND] != AB_TRIGGERED or ab[a, B_WHEN] != EV_LIFE_AT_LEAST:
                continue
            if players.life(st, you) < ab[a, B_ARG]:
                continue
            if not _pending(st, src, a):
                queue(st, src, a, you, you, 0, -1, -1)
                pushed = True
    if pushed:
        touch(st)
    else:
        s[S_STVER] = s[S_VERSION]
        s[S_STCUR] = s[S_CUR]


@kernel
def _pending(st, src, a):
    """Is src's triggered ability a waiting to be put on the stack, or on it (603.8)?"""
    s, o = st.s, st.o
    for q in range(s[S_NTRG]):
        if st.trg[q, Q_SRC] == src and st.trg[q, Q_AB] == a:
            return True
    for q in range(s[S_NSTK]):
        j = st.stk[q]
        if o[j, F_IKIND] == I_TRIGGERED and o[j, F_SRC] == src and o[j, F_IAB] == a:
            return True
    return False


@kernel(inline="always")
def waits_for(st, cd, i, ev):
    """Has object i's card a triggered ability for this event?"""
    c = st.o[i, F_CARD]
    return c >= 0 and (cd.ct[c, C_TRIGMASK] >> ev) & 1 == 1
