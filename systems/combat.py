"""Combat (506-511) with the multiplayer attack options (801.3, 802, 803, 809.3c, 811.4)
and shared team turns (805.10).

Attackers are declared one creature at a time (a creature and what it attacks: a
player, a planeswalker or a battle) and the declaration is closed with "done" (508.1);
blockers likewise by each defending player in APNAP order (802.4; with shared team
turns one combined block per defending team, 805.10d), each seeing only the
creatures attacking them (802.4a). A declaration that is illegal as a whole (a
menace attacker blocked by one creature) can't be closed: the defender adds a
blocker or starts over ("reset"). Combat damage: a first-strike step when needed
(510.4); damage assignment order is declaration order (a documented default for
510.1c): lethal damage to each blocker in turn, the rest to the last or, with
trample, to the player or planeswalker attacked."""

from __future__ import annotations

import numpy as np

from components.cards import (
    A_IF,
    A_KIND,
    A_REFA,
    A_ZONE,
    AB_FROM_END_EXALTED,
    C_NSA,
    C_SA0,
    EV_ATTACKS,
    EV_BECOMES_BLOCKED,
    EV_BLOCKS,
    EV_UNBLOCKED,
    ST_CANT_ATTACK_PLAYER,
    ST_DAMAGE_BY_TOUGHNESS,
    ST_ONE_ATTACKER,
    ST_ONE_BLOCKER,
)
from components.decisions import (
    A_ATTACK,
    A_BLOCK,
    AC_ARG,
    AC_ARG2,
    AC_KIND,
    AC_OBJ,
    AC_PLAYER,
    PEND_BLOCK,
    PEND_NONE,
)
from components.game import (
    S_ACTIVE,
    S_DECLARED,
    S_FSSTEP,
    S_NBF,
    S_NBQ,
    S_NCZ,
    S_NMARK,
    S_PEND,
    S_PPLAYER,
    S_TEAM_TURNS,
    S_TURN,
)
from components.objects import (
    CANT_ATTACK,
    CANT_BLOCK,
    F_ATKO,
    F_ATKP,
    F_ATTACKED,
    F_BLOCKED,
    F_BLOCKING,
    F_BSEQ,
    F_CARD,
    F_COLORS,
    F_COMBAT_DAMAGED,
    F_CTL,
    F_DECL,
    F_DMG,
    F_DSEQ,
    F_FACE_DOWN,
    F_FSD,
    F_KW,
    F_PROT,
    F_PROTECTOR,
    F_RESTRICT,
    F_SICK,
    F_TAPPED,
    F_TOU,
    F_TYPES,
    F_ZONE,
    MUST_ATTACK,
)
from components.players import P_ALIVE, P_ATTACKED_TURN
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    FIRST_STRIKE_DAMAGE,
    KW_CANT_BLOCK,
    KW_DEATHTOUCH,
    KW_DEFENDER,
    KW_DOUBLE_STRIKE,
    KW_EXALTED,
    KW_FIRST_STRIKE,
    KW_FLYING,
    KW_HASTE,
    KW_LANDWALK0,
    KW_MENACE,
    KW_REACH,
    KW_SHADOW,
    KW_TRAMPLE,
    KW_UNBLOCKABLE,
    KW_VIGILANCE,
    NO_TARGET,
    T_BATTLE,
    T_CREATURE,
    T_LAND,
    T_PLANESWALKER,
)
from components.scratch import (
    SCR_COMBAT_ATTACKERS,
    SCR_COMBAT_MINE,
    SCR_COMBAT_NEWLY,
    SCR_COMBAT_OPEN,
    SCR_COMBAT_ORDER,
    SCR_COMBAT_QUEUE,
    SCR_COMBAT_WALLS,
)
from systems import (
    command_zone,
    conspiracy,
    continuous_effects,
    damage,
    players,
    selectors,
    triggers,
)
from systems.jit import kernel
from systems.state import bump, touch

# subtype ids of the basic land types, in WUBRG order (ecs/cards.py gives them first)
BASIC_LAND_SUBTYPE0 = 1000


@kernel(inline="always")
def add_action(acts, m, kind, player, obj, arg):
    if m < acts.shape[0]:
        acts[m, AC_KIND] = kind
        acts[m, AC_PLAYER] = player
        acts[m, AC_OBJ] = obj
        acts[m, AC_ARG] = arg
        acts[m, AC_ARG2] = 0
    return m + 1


# ----------------------------------------------------------------- attacking (508)
@kernel(inline="always")
def can_attack(st, i):
    """508.1a: untapped, no "can't attack", not defender, not summoning sick (302.6)."""
    o = st.o
    if o[i, F_TAPPED] or o[i, F_RESTRICT] & CANT_ATTACK or o[i, F_KW] & KW_DEFENDER:
        return False
    if o[i, F_SICK] and not (o[i, F_KW] & KW_HASTE):
        return False
    return True


@kernel(inline="always")
def _creature_of(st, i, p):
    o = st.o
    return o[i, F_ZONE] == BATTLEFIELD and o[i, F_CTL] == p and (o[i, F_TYPES] & T_CREATURE) != 0


@kernel
def attack_cap_reached(st, cd):
    """508.1c: "no more than one creature can attack each combat" (Astral Arena) and a
    creature is declared already."""
    if not command_zone.command_static_any(st, cd, ST_ONE_ATTACKER):
        return False
    for i in st.bf[: st.s[S_NBF]]:
        if st.o[i, F_DECL] != NO_TARGET:
            return True
    return False


@kernel
def _required_attacker(st, i):
    """Has creature i a requirement to attack (508.1d: "attacks each combat if able")?"""
    o = st.o
    return (o[i, F_RESTRICT] & MUST_ATTACK) != 0 and can_attack(st, i)


@kernel
def attack_options(st, cd, acts, m):
    """The pending attack declaration's options after "done" (rows from m on):
    (creature, defender) for each creature of the attacking player (805.10b: of the
    attacking team) not declared yet, each defender it may attack: the players of
    rm[1] by index, then their planeswalkers and the battles they protect (801.3),
    by object id. Returns the new number of rows."""
    continuous_effects.recompute(st, cd)
    o, s = st.o, st.s
    a = s[S_ACTIVE]
    if attack_cap_reached(st, cd):
        return m
    # one attacker at most: if a creature must attack, it is the one (508.1d)
    required_only = False
    if command_zone.command_static_any(st, cd, ST_ONE_ATTACKER):
        for p in range(st.pl.shape[0]):
            if st.pl[p, P_ALIVE] and players.same_side(st, a, p) and players.is_active(st, p):
                for i in continuous_effects.held_by(st, p):
                    if _creature_of(st, i, p) and _required_attacker(st, i):
                        required_only = True
    walls = st.scr[SCR_COMBAT_WALLS]  # the planeswalkers and battles, found once
    nw = 0
    for j in st.bf[: s[S_NBF]]:
        if _defending_for(st, j) >= 0:
            walls[nw] = j
            nw += 1
    for p in range(st.pl.shape[0]):
        if not st.pl[p, P_ALIVE] or not players.same_side(st, a, p) or not players.is_active(st, p):
            continue
        for i in continuous_effects.held_by(st, p):
            if not _creature_of(st, i, p) or not can_attack(st, i) or o[i, F_DECL] != NO_TARGET:
                continue
            if required_only and not _required_attacker(st, i):
                continue
            for q in range(st.pl.shape[0]):
                if st.rm[1, p, q] and st.pl[q, P_ALIVE] and not cant_attack_player(st, cd, i, q):
                    m = add_action(acts, m, A_ATTACK, p, i, -1 - q)
            for k in range(nw):
                j = walls[k]
                who = _defending_for(st, j)
                if st.rm[1, p, who] and st.pl[who, P_ALIVE]:
                    m = add_action(acts, m, A_ATTACK, p, i, j)
    return m


@kernel
def cant_attack_player(st, cd, i, q):
    """ "[These creatures] can't attack you" (Agyrem's lasting effect): a static ability
    of a face-up command-zone object q controls forbids creature i to attack player q
    (the player only: q's planeswalkers may still be attacked)."""
    o, ct, sa = st.o, cd.ct, cd.sa
    for k in range(st.s[S_NCZ]):
        src = st.cz[k]
        c = o[src, F_CARD]
        if c < 0 or o[src, F_FACE_DOWN] or o[src, F_CTL] != q:
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] != ST_CANT_ATTACK_PLAYER or sa[r, A_ZONE] != COMMAND:
                continue
            if selectors.holds(st, cd, sa[r, A_IF], q, src, -1) and selectors.matches(
                st, cd, sa[r, A_REFA], i, q, src, -1
            ):
                return True
    return False


@kernel(inline="always")
def _defending_for(st, j):
    """The player a planeswalker (its controller) or battle (its protector) is attacked
    through; -1 for anything else."""
    o = st.o
    if o[j, F_TYPES] & T_BATTLE:
        return o[j, F_PROTECTOR]
    if o[j, F_TYPES] & T_PLANESWALKER:
        return o[j, F_CTL]
    return -1


@kernel
def has_possible_attacker(st, cd):
    continuous_effects.recompute(st, cd)
    a = st.s[S_ACTIVE]
    for p in range(st.pl.shape[0]):
        if st.pl[p, P_ALIVE] and players.same_side(st, a, p) and players.is_active(st, p):
            for i in continuous_effects.held_by(st, p):
                if _creature_of(st, i, p) and can_attack(st, i):
                    return True
    return False


@kernel
def controls_creature(st, cd):
    """Does the attacking player (team) control a creature at all?"""
    continuous_effects.recompute(st, cd)
    a = st.s[S_ACTIVE]
    for p in range(st.pl.shape[0]):
        if st.pl[p, P_ALIVE] and players.same_side(st, a, p) and players.is_active(st, p):
            for i in continuous_effects.held_by(st, p):
                if _creature_of(st, i, p):
                    return True
    return False


@kernel
def declare_attacker(st, i, defender, seq):
    st.o[i, F_DECL] = defender
    st.o[i, F_DSEQ] = seq


@kernel(inline="always")
def _sort_by(o, order, m, f):
    """order[:m] by the objects' field f, smallest first (no two are equal)."""
    for x in range(m):
        for y in range(x + 1, m):
            if o[order[y], f] < o[order[x], f]:
                t = order[x]
                order[x] = order[y]
                order[y] = t


@kernel
def clear_declarations(st):
    o = st.o
    for i in st.bf[: st.s[S_NBF]]:
        o[i, F_DECL] = NO_TARGET
        o[i, F_DSEQ] = 0


@kernel
def finish_attacks(st, cd):
    """508.1f-k: the declared creatures become attacking (tapped unless vigilance), in
    declaration order; then "whenever ... attacks" triggers (508.3)."""
    o, s = st.o, st.s
    order = st.scr[SCR_COMBAT_ORDER]
    m = 0
    for i in st.bf[: s[S_NBF]]:
        if o[i, F_DECL] != NO_TARGET:
            order[m] = i
            m += 1
    _sort_by(o, order, m, F_DSEQ)
    for k in range(m):
        i = order[k]
        d = o[i, F_DECL]
        if d < 0:
            o[i, F_ATKP] = -1 - d
        else:
            o[i, F_ATKO] = d
            o[i, F_ATKP] = _defending_for(st, d)
        if not (o[i, F_KW] & KW_VIGILANCE):
            o[i, F_TAPPED] = 1
        o[i, F_ATTACKED] = s[S_TURN]  # "attacked this turn" (508.1; not 508.4)
        st.pl[o[i, F_CTL], P_ATTACKED_TURN] = s[S_TURN]  # "you attacked with creatures"
        o[i, F_DECL] = NO_TARGET
        o[i, F_DSEQ] = 0
    s[S_DECLARED] = 1 if m > 0 else 0
    s[S_PEND] = PEND_NONE
    triggers.new_event(st)
    for k in range(m):
        i = order[k]
        if o[i, F_ZONE] == BATTLEFIELD:
            triggers.event(st, cd, EV_ATTACKS, i, o[i, F_ATKP], m, o[i, F_CTL], 0)
    if m > 0:  # "whenever one or more creatures attack": once per declaration
        triggers.event(st, cd, EV_ATTACKS, -1, -1, m, -1, triggers.AUX_GROUP)
    if m == 1:
        _exalted(st, cd, order[0])
    touch(st)


@kernel
def _exalted(st, cd, a):
    """702.83a: a creature attacks alone: each exalted permanent its controller controls
    triggers (the ability row every cards arena has, components.cards)."""
    continuous_effects.recompute(st, cd)
    o = st.o
    p = o[a, F_CTL]
    row = cd.ab.shape[0] - AB_FROM_END_EXALTED
    for i in continuous_effects.held_by(st, p):
        if o[i, F_KW] & KW_EXALTED:
            triggers.queue(st, i, row, p, -1, 0, a, p)


# ----------------------------------------------------------------- which combat
@kernel(inline="always")
def attacker_now(st, i):
    """Is i attacking in this turn's combat (in Grand Melee, this marker's: its active
    side's creatures)?"""
    o = st.o
    if o[i, F_ATKP] < 0 or o[i, F_ZONE] != BATTLEFIELD:
        return False
    if st.s[S_NMARK] == 0:
        return True
    return players.same_side(st, st.s[S_ACTIVE], o[i, F_CTL])


@kernel(inline="always")
def blocker_now(st, i):
    a = st.o[i, F_BLOCKING]
    return a >= 0 and st.o[i, F_ZONE] == BATTLEFIELD and attacker_now(st, a)


@kernel
def attackers(st, out):
    m = 0
    for i in st.bf[: st.s[S_NBF]]:
        if attacker_now(st, i):
            out[m] = i
            m += 1
    return m


# ----------------------------------------------------------------- blocking (509)
@kernel
def queue_blockers(st):
    """802.4: the defending players declare blockers in APNAP order; with shared team
    turns, each defending team once, by its primary player (805.10d)."""
    s = st.s
    buf = st.scr[SCR_COMBAT_QUEUE]
    k = players.turn_order_from(st, s[S_ACTIVE], buf)
    atk = st.scr[SCR_COMBAT_ATTACKERS]
    na = attackers(st, atk)
    s[S_NBQ] = 0
    for j in range(k):
        q = buf[j]
        if players.is_active(st, q):
            continue
        d = players.primary(st, q) if s[S_TEAM_TURNS] else q
        attacked = False
        for x in range(na):
            t = st.o[atk[x], F_ATKP]
            if t == q:
                attacked = True
        if not attacked:
            continue
        dup = False
        for y in range(s[S_NBQ]):
            if st.bq[y] == d:
                dup = True
        if not dup:
            st.bq[s[S_NBQ]] = d
            s[S_NBQ] += 1


@kernel
def _open_attackers(st, cd, q, atk, na, out):
    """The attackers of ``atk[:na]`` (in that order) a creature controlled by q could
    block as far as the attacker alone says (``_open_to``): into out; returns how many."""
    m = 0
    for k in range(na):
        if _open_to(st, cd, atk[k], q):
            out[m] = atk[k]
            m += 1
    return m


@kernel
def _open_to(st, cd, a, q):
    """What attacker a alone says about being blocked by a creature q controls: it
    attacks q (802.4a; with shared team turns, any player of q's team), it can be
    blocked (Orochi Colony), and no landwalk of it applies (702.14: the player it
    attacks controls such a land)."""
    o = st.o
    attacked = o[a, F_ATKP]
    if o[a, F_ZONE] != BATTLEFIELD or attacked < 0:
        return False
    if attacked != q and not (st.s[S_TEAM_TURNS] and players.teammates(st, attacked, q)):
        return False
    akw = o[a, F_KW]
    if akw & KW_UNBLOCKABLE:  # "can't be blocked" (Orochi Colony)
        return False
    for k in range(5):  # landwalk: the player it attacks controls such a land
        if akw & (1 << (KW_LANDWALK0 + k)) and _controls_basic_type(st, cd, attacked, k):
            return False
    return True


@kernel(inline="always")
def _fits(st, b, a):
    """What blocker b and attacker a say together (509.1b): flying and reach, shadow
    (702.28b), protection (702.16b); menace is checked on the whole declaration."""
    o = st.o
    akw, bkw = o[a, F_KW], o[b, F_KW]
    if akw & KW_FLYING and not (bkw & (KW_FLYING | KW_REACH)):
        return False
    if (akw ^ bkw) & KW_SHADOW:  # shadow blocks and is blocked by shadow only
        return False
    return (o[a, F_PROT] & o[b, F_COLORS]) == 0


@kernel
def _controls_basic_type(st, cd, q, k):
    for i in st.bf[: st.s[S_NBF]]:
        if st.o[i, F_CTL] == q and st.o[i, F_TYPES] & T_LAND:
            if selectors.has_subtype(st, cd, i, BASIC_LAND_SUBTYPE0 + k):
                return True
    return False


@kernel(inline="always")
def can_block(st, b):
    o = st.o
    return (
        o[b, F_TAPPED] == 0
        and not (o[b, F_RESTRICT] & CANT_BLOCK)
        and not (o[b, F_KW] & KW_CANT_BLOCK)
        and o[b, F_DSEQ] == 0
    )


@kernel
def blocks_legal(st):
    """509.1b-c: is the declaration so far legal as a whole (a menace attacker isn't
    blocked by exactly one creature)?"""
    o = st.o
    bf = st.bf[: st.s[S_NBF]]
    for a in bf:
        if o[a, F_KW] & KW_MENACE and attacker_now(st, a):
            k = 0
            for b in bf:  # (declared blockers of a: two or more, or none)
                if o[b, F_DSEQ] > 0 and o[b, F_DECL] == a:
                    k += 1
                    if k > 1:
                        break
            if k == 1:
                return False
    return True


@kernel
def block_cap_reached(st, cd):
    """509.1c: "no more than one creature can block each combat" (Astral Arena) and a
    creature blocks already (declared now, or by an earlier defending player)."""
    if not command_zone.command_static_any(st, cd, ST_ONE_BLOCKER):
        return False
    o = st.o
    for i in st.bf[: st.s[S_NBF]]:
        if (o[i, F_DSEQ] > 0 and o[i, F_DECL] != NO_TARGET) or blocker_now(st, i):
            return True
    return False


@kernel
def block_options(st, cd, q, acts, m):
    """(blocker, attacker) pairs open to defending player q (805.10d: their team),
    blockers by object id, attackers in object-id order (rows from m on)."""
    continuous_effects.recompute(st, cd)
    if block_cap_reached(st, cd):
        return m
    atk = st.scr[SCR_COMBAT_ATTACKERS]
    na = attackers(st, atk)
    opn = st.scr[SCR_COMBAT_OPEN]
    for p in range(st.pl.shape[0]):
        if not st.pl[p, P_ALIVE] or not players.same_side(st, q, p):
            continue
        n = _open_attackers(st, cd, p, atk, na, opn)  # (what p's creatures could block)
        if n == 0:
            continue
        for b in continuous_effects.held_by(st, p):
            if not _creature_of(st, b, p) or not can_block(st, b):
                continue
            for k in range(n):
                if _fits(st, b, opn[k]):
                    m = add_action(acts, m, A_BLOCK, p, b, opn[k])
    return m


@kernel
def has_block_option(st, cd, q):
    """Could defending player q (their team) block anything?"""
    continuous_effects.recompute(st, cd)
    if block_cap_reached(st, cd):
        return False
    atk = st.scr[SCR_COMBAT_ATTACKERS]
    na = attackers(st, atk)
    opn = st.scr[SCR_COMBAT_OPEN]
    for p in range(st.pl.shape[0]):
        if not st.pl[p, P_ALIVE] or not players.same_side(st, q, p):
            continue
        n = _open_attackers(st, cd, p, atk, na, opn)
        if n == 0:
            continue
        for bl in continuous_effects.held_by(st, p):
            if _creature_of(st, bl, p) and can_block(st, bl):
                for k in range(n):
                    if _fits(st, bl, opn[k]):
                        return True
    return False


@kernel
def declare_blocker(st, b, a, seq):
    st.o[b, F_DECL] = a
    st.o[b, F_DSEQ] = seq


@kernel
def ask_next_blocker(st, cd):
    """The next defending player (in the queue) who has a block to consider declares;
    the others declare no blockers."""
    s = st.s
    while s[S_NBQ] > 0:
        q = st.bq[0]
        if not st.pl[q, P_ALIVE] or not has_block_option(st, cd, q):
            for j in range(s[S_NBQ] - 1):
                st.bq[j] = st.bq[j + 1]
            s[S_NBQ] -= 1
            continue
        s[S_PEND] = PEND_BLOCK
        s[S_PPLAYER] = q
        return
    _unblocked(st, cd)


@kernel
def put_blocking(st, b, a):
    """A creature put onto the battlefield blocking attacker a (506.3, 509.1h): a blocks
    it from now on, last in its damage assignment order; a becomes blocked. (Nothing if a
    isn't attacking any more.)"""
    o = st.o
    if o[a, F_ZONE] != BATTLEFIELD or o[a, F_ATKP] < 0 or o[b, F_ZONE] != BATTLEFIELD:
        return
    seq = 0
    for j in st.bf[: st.s[S_NBF]]:
        if o[j, F_BSEQ] > seq:
            seq = o[j, F_BSEQ]
    o[b, F_BLOCKING] = a
    o[b, F_BSEQ] = seq + 1
    o[a, F_BLOCKED] = 1
    touch(st)


@kernel
def _unblocked(st, cd):
    """509.1h: every attacking creature no creature blocks is unblocked now that the
    defending players have declared: "whenever a creature attacks and isn't blocked"
    (the event's player is the defending player)."""
    o = st.o
    for a in st.bf[: st.s[S_NBF]]:
        if o[a, F_ATKP] >= 0 and not o[a, F_BLOCKED]:
            triggers.event(st, cd, EV_UNBLOCKED, a, o[a, F_ATKP], 0, o[a, F_CTL], 0)


@kernel
def finish_blocks(st, cd, q):
    """509.1h-i: q's declared creatures become blockers (their order is the damage
    assignment order); the attackers they block become blocked; then 509.3 triggers."""
    o, s = st.o, st.s
    order = st.scr[SCR_COMBAT_ORDER]
    m = 0
    for b in st.bf[: s[S_NBF]]:
        if o[b, F_DSEQ] > 0:
            order[m] = b
            m += 1
    _sort_by(o, order, m, F_DSEQ)
    seq0 = 0
    for b in st.bf[: s[S_NBF]]:
        if o[b, F_BSEQ] > seq0:
            seq0 = o[b, F_BSEQ]
    newly = st.scr[SCR_COMBAT_NEWLY]
    nn = 0
    for k in range(m):
        b = order[k]
        a = o[b, F_DECL]
        o[b, F_BLOCKING] = a
        if not o[a, F_BLOCKED]:
            newly[nn] = a
            nn += 1
        o[a, F_BLOCKED] = 1
        o[b, F_BSEQ] = seq0 + k + 1
        o[b, F_DSEQ] = 0
        o[b, F_DECL] = NO_TARGET
    s[S_PEND] = PEND_NONE
    for j in range(s[S_NBQ]):  # q is done
        if st.bq[j] == q:
            for y in range(j, s[S_NBQ] - 1):
                st.bq[y] = st.bq[y + 1]
            s[S_NBQ] -= 1
            break
    triggers.new_event(st)
    for k in range(m):
        b = order[k]
        a = o[b, F_BLOCKING]
        triggers.event(st, cd, EV_BLOCKS, b, -1, 0, o[b, F_CTL], 0)
        # "becomes blocked by a creature": the event includes the blocker (801.7)
        triggers.event(st, cd, EV_BECOMES_BLOCKED, a, o[b, F_CTL], 0, o[a, F_CTL], 1)
    for k in range(nn):
        a = newly[k]
        triggers.event(st, cd, EV_BECOMES_BLOCKED, a, -1, 0, o[a, F_CTL], 0)
    touch(st)


# ----------------------------------------------------------------- damage (510)
@kernel
def needs_first_strike_step(st):
    o = st.o
    for i in st.bf[: st.s[S_NBF]]:
        if attacker_now(st, i) or blocker_now(st, i):
            if o[i, F_KW] & (KW_FIRST_STRIKE | KW_DOUBLE_STRIKE):
                return True
    return False


@kernel(inline="always")
def _deals_now(st, i, step):
    """510.4: in the first-strike step, first and double strikers; in the second, the
    others that didn't deal first-strike damage, and double strikers."""
    kw = st.o[i, F_KW]
    if step == FIRST_STRIKE_DAMAGE:
        return (kw & (KW_FIRST_STRIKE | KW_DOUBLE_STRIKE)) != 0
    if not st.s[S_FSSTEP]:
        return True
    return (kw & KW_DOUBLE_STRIKE) != 0 or st.o[i, F_FSD] == 0


@kernel
def combat_damage(st, cd, step):
    """510.1-510.2: all combat damage is assigned, then dealt at once."""
    continuous_effects.recompute(st, cd)
    o = st.o
    n = st.bf.shape[0]
    asg = np.empty((4 * n + 8, 3), np.int64)
    na = 0
    atk = st.scr[SCR_COMBAT_ATTACKERS]
    m = attackers(st, atk)
    order = st.scr[SCR_COMBAT_ORDER]
    by_toughness = command_zone.command_static_any(
        st, cd, ST_DAMAGE_BY_TOUGHNESS
    )  # (The Great Forest)
    for k in range(m):
        a = atk[k]
        if not _deals_now(st, a, step):
            continue
        power = o[a, F_TOU] if by_toughness else conspiracy.combat_power(st, cd, a)
        if power <= 0:
            continue
        if o[a, F_ATKO] >= 0:
            defender = o[a, F_ATKO]
            has_def = o[defender, F_ZONE] == BATTLEFIELD
        else:
            defender = -1 - o[a, F_ATKP]
            has_def = True
        if not o[a, F_BLOCKED]:
            if has_def:
                asg[na, 0], asg[na, 1], asg[na, 2] = a, defender, power
                na += 1
            continue
        nb = 0
        for b in st.bf[: st.s[S_NBF]]:
            if o[b, F_BLOCKING] == a:
                order[nb] = b
                nb += 1
        _sort_by(o, order, nb, F_BSEQ)
        trample = (o[a, F_KW] & KW_TRAMPLE) != 0
        if nb == 0:  # 509.1h, 702.19e: blocked, blockers gone: only trample gets through
            if trample and has_def:
                asg[na, 0], asg[na, 1], asg[na, 2] = a, defender, power
                na += 1
            continue
        left = power
        for k2 in range(nb):
            b = order[k2]
            lethal = 1 if o[a, F_KW] & KW_DEATHTOUCH else max(0, o[b, F_TOU] - o[b, F_DMG])
            give = min(left, lethal)
            if k2 == nb - 1 and not (trample and has_def):
                give = left
            if give > 0:
                asg[na, 0], asg[na, 1], asg[na, 2] = a, b, give
                na += 1
                left -= give
        if left > 0 and has_def:
            asg[na, 0], asg[na, 1], asg[na, 2] = a, defender, left
            na += 1
    for b in st.bf[: st.s[S_NBF]]:
        if not blocker_now(st, b) or not _deals_now(st, b, step):
            continue
        a = o[b, F_BLOCKING]
        bp = o[b, F_TOU] if by_toughness else conspiracy.combat_power(st, cd, b)
        if bp > 0 and o[a, F_ZONE] == BATTLEFIELD:
            asg[na, 0], asg[na, 1], asg[na, 2] = b, a, bp
            na += 1
    if step == FIRST_STRIKE_DAMAGE:
        for k in range(na):
            o[asg[k, 0], F_FSD] = 1
    triggers.new_event(st)
    for k in range(na):
        src = asg[k, 0]
        damage.deal_damage(st, cd, src, o[src, F_CTL], asg[k, 1], asg[k, 2], True)


@kernel
def end_combat(st):
    """511.3: creatures are removed from combat (in Grand Melee, those of this marker's
    combat only)."""
    o, s = st.o, st.s
    perms = st.bf[: s[S_NBF]]
    mine = st.scr[SCR_COMBAT_MINE]
    for k in range(perms.shape[0]):
        mine[k] = s[S_NMARK] == 0 or attacker_now(st, perms[k]) or blocker_now(st, perms[k])
    for k in range(perms.shape[0]):
        if mine[k]:
            i = perms[k]
            o[i, F_ATKP] = -1
            o[i, F_ATKO] = -1
            o[i, F_BLOCKING] = -1
            o[i, F_BLOCKED] = 0
            o[i, F_FSD] = 0
            o[i, F_COMBAT_DAMAGED] = 0
            o[i, F_BSEQ] = 0
    s[S_DECLARED] = 0
    s[S_FSSTEP] = 0
    bump(st)
