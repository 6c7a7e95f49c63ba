"""Damage, prevention, redirection and life (119, 120, 614.9, 615; 800.4e; 801.13;
810.9-810.10; 903.10a).

``deal_damage`` is the one road every damage event takes: redirection shields (614.9;
the part that would reach outside the source controller's range does nothing,
801.13a), prevention (static "prevent all damage dealt by creatures", then shields
oldest first, 615 with 801.13b), then the results of damage (120.3): life loss or
poison counters (infect) for players, marked damage or -1/-1 counters for creatures,
loyalty and defense counters removed, deathtouch and lifelink, commander damage,
and the damage events triggered abilities wait for."""

from __future__ import annotations

from components.cards import (
    A_ARG,
    A_KIND,
    A_REFA,
    A_TO,
    A_ZONE,
    C_NSA,
    C_SA0,
    EV_DEALS_DAMAGE,
    EV_DEALT_DAMAGE,
    EV_GAINS_LIFE,
    EV_LOSES_LIFE,
    ST_CANT_GAIN_LIFE,
    ST_CANT_LOSE_LIFE,
    ST_PREVENT_BY,
)
from components.effects import H_AMT, H_COMBAT, H_CTL, H_HASRECIP, H_RECIP, H_REDIRECT
from components.game import S_CASUAL, S_NBF, S_NCZ, S_NSH, S_TURN
from components.objects import (
    F_CARD,
    F_COLORS,
    F_COMBAT_DAMAGED,
    F_CTL,
    F_CTR,
    F_DMG,
    F_DTHIT,
    F_FACE_DOWN,
    F_HIT_PLAYER,
    F_KW,
    F_PROT,
    F_TYPES,
    F_ZONE,
)
from components.players import P_ALIVE, P_DAMAGE_TURN, P_OPP_DAMAGED
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    CTR_DEFENSE,
    CTR_LOYALTY,
    CTR_M1M1,
    KW_DEATHTOUCH,
    KW_INFECT,
    KW_LIFELINK,
    KW_WITHER,
    NO_TARGET,
    T_BATTLE,
    T_CREATURE,
    T_PLANESWALKER,
)
from components.scratch import SCR_DAMAGE_WORK
from systems import continuous_effects, players, selectors, triggers, variants, zones
from systems.jit import kernel
from systems.state import delete_row, touch_sba


# ----------------------------------------------------------------- life (119, 810.9)
@kernel
def cant_gain_life(st, cd, p):
    """119.7 / 810.9g: "you can't gain life"; with a shared total, nobody on the team."""
    for q in range(st.pl.shape[0]):
        if players.shares_life(st, p, q) and continuous_effects.player_static(
            st, cd, q, ST_CANT_GAIN_LIFE
        ):
            return True
    return False


@kernel
def cant_lose_life(st, cd, p):
    """119.8 / 810.9h: "you can't lose life" (nor pay life but 0); team-wide if shared."""
    for q in range(st.pl.shape[0]):
        if players.shares_life(st, p, q) and continuous_effects.player_static(
            st, cd, q, ST_CANT_LOSE_LIFE
        ):
            return True
    return False


@kernel
def lose_life(st, cd, p, amount):
    if amount <= 0 or not st.pl[p, P_ALIVE] or cant_lose_life(st, cd, p):
        return
    players.change_life(st, p, -amount)
    touch_sba(st)
    triggers.event(st, cd, EV_LOSES_LIFE, -1, p, amount, p)


@kernel
def gain_life(st, cd, p, amount):
    if amount <= 0 or not st.pl[p, P_ALIVE] or cant_gain_life(st, cd, p):
        return
    players.change_life(st, p, amount)
    touch_sba(st)
    triggers.event(st, cd, EV_GAINS_LIFE, -1, p, amount, p)


@kernel
def set_life(st, cd, p, value):
    """119.5 / 810.9c: setting a life total is gaining or losing the difference."""
    cur = players.life(st, p)
    if value < cur:
        lose_life(st, cd, p, cur - value)
    elif value > cur:
        gain_life(st, cd, p, value - cur)


@kernel
def can_pay_life(st, cd, p, amount):
    """119.4: a player can pay life only up to their life total (810.9b: the team's);
    paying 0 is always possible."""
    if amount <= 0:
        return True
    return players.life(st, p) >= amount and not cant_lose_life(st, cd, p)


@kernel
def pay_life(st, cd, p, amount):
    if amount > 0:
        lose_life(st, cd, p, amount)


# ----------------------------------------------------------------- prevention (615)
@kernel(inline="always")
def _recipient_controller(st, x):
    return -1 - x if x < 0 else st.o[x, F_CTL]


@kernel
def _prevented_by_statics(st, cd, source, target, combat):
    """ "Prevent all damage that would be dealt by creatures": it can affect only sources
    within its controller's range of influence (801.13b); a plane's works on every
    source (901.13), one outside the battlefield too (a plane, Mount Keralia). A_ARG 1:
    only combat damage (Kessig); A_TO: only to what that filter matches."""
    o, ct, sa = st.o, cd.ct, cd.sa
    if source < 0:
        return False
    for s in st.bf[: st.s[S_NBF] if o[source, F_ZONE] == BATTLEFIELD else 0]:
        c = continuous_effects.face(st, cd, s)
        if c < 0 or ct[c, C_NSA] == 0:
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] != ST_PREVENT_BY or sa[r, A_ZONE] != BATTLEFIELD:
                continue
            if sa[r, A_ARG] == 1 and not combat:
                continue
            you = o[s, F_CTL]
            if sa[r, A_TO] > 0 and not selectors.matches(
                st, cd, sa[r, A_TO] - 1, target, you, s, -1
            ):
                continue
            if players.in_range(st, you, o[source, F_CTL]) and selectors.matches(
                st, cd, sa[r, A_REFA], source, you, s, -1
            ):
                return True
    if st.s[S_CASUAL]:
        for k in range(st.s[S_NCZ]):
            s = st.cz[k]
            c = o[s, F_CARD]
            if c < 0 or o[s, F_FACE_DOWN] or ct[c, C_NSA] == 0:
                continue
            for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
                if sa[r, A_KIND] != ST_PREVENT_BY or sa[r, A_ZONE] != COMMAND:
                    continue
                if sa[r, A_ARG] == 1 and not combat:
                    continue
                if sa[r, A_TO] > 0 and not selectors.matches(
                    st, cd, sa[r, A_TO] - 1, target, o[s, F_CTL], s, -1
                ):
                    continue  # (Mount Keralia's: only to permanents you control)
                if selectors.matches(st, cd, sa[r, A_REFA], source, o[s, F_CTL], s, -1):
                    return True
    return False


@kernel
def prevent(st, cd, source, src_ctl, target, amount, combat):
    """Prevention: returns the damage left (615; 801.13b)."""
    if _prevented_by_statics(st, cd, source, target, combat):
        return 0
    sh, s = st.sh, st.s
    k = 0
    while k < s[S_NSH] and amount > 0:
        if sh[k, H_REDIRECT] != NO_TARGET or (sh[k, H_COMBAT] and not combat):
            k += 1
            continue
        c = sh[k, H_CTL]
        if sh[k, H_HASRECIP]:
            if sh[k, H_RECIP] != target:
                k += 1
                continue
        elif (src_ctl >= 0 and not players.in_range(st, c, src_ctl)) or not players.in_range(
            st, c, _recipient_controller(st, target)
        ):
            k += 1  # neither source nor recipient named: both must be in range (801.13b)
            continue
        if sh[k, H_AMT] < 0:
            return 0
        used = min(sh[k, H_AMT], amount)
        sh[k, H_AMT] -= used
        amount -= used
        if sh[k, H_AMT] == 0:
            s[S_NSH] = delete_row(sh, k, s[S_NSH])
            continue
        k += 1
    return amount


@kernel
def _protected(st, source, target):
    """702.16e: damage from a source of a colour the target has protection from."""
    if target < 0 or source < 0:
        return False
    return (st.o[target, F_PROT] & st.o[source, F_COLORS]) != 0


# ----------------------------------------------------------------- dealing damage (120)
@kernel
def deal_damage(st, cd, source, src_ctl, target, amount, combat):
    """``source`` (an object, or -1) controlled by ``src_ctl`` deals ``amount`` damage to
    ``target`` (an object id or -1 - p). Redirections add recipients to a work list
    (no recursion). Returns the damage dealt to the original recipient."""
    return deal_damage_with(st, cd, source, src_ctl, target, amount, combat, False)


@kernel
def deal_damage_with(st, cd, source, src_ctl, target, amount, combat, unpreventable):
    """deal_damage; ``unpreventable``: "this damage can't be prevented" (615.12)."""
    work = st.scr[SCR_DAMAGE_WORK]  # (recipient, amount) pairs: 8 at most
    work[0], work[1] = target, amount
    nw = 1
    dealt_first = 0
    w = 0
    while w < nw:
        t, a = work[2 * w], work[2 * w + 1]
        w += 1
        if a <= 0 or not _exists(st, t):  # 800.4e: nothing is dealt to one who left
            continue
        # 614.9: redirection shields on this recipient, oldest first
        sh, s = st.sh, st.s
        k = 0
        while k < s[S_NSH] and a > 0:
            if sh[k, H_REDIRECT] == NO_TARGET or sh[k, H_RECIP] != t or sh[k, H_AMT] <= 0:
                k += 1
                continue
            moved = min(sh[k, H_AMT], a)
            sh[k, H_AMT] -= moved
            a -= moved
            new = sh[k, H_REDIRECT]
            if sh[k, H_AMT] == 0:
                s[S_NSH] = delete_row(sh, k, s[S_NSH])
            else:
                k += 1
            if src_ctl < 0 or players.in_range(st, src_ctl, _recipient_controller(st, new)):
                if nw < 8:
                    work[2 * nw], work[2 * nw + 1] = new, moved
                    nw += 1
        if a <= 0:
            continue
        if not unpreventable:
            if _protected(st, source, t):
                continue
            if st.s[S_CASUAL]:  # command-zone cards' replacement and prevention (issue 14)
                a = variants.damage_dealt(st, cd, source, src_ctl, t, a)
            a = prevent(st, cd, source, src_ctl, t, a, combat)
            if a <= 0:
                continue
        _results(st, cd, source, src_ctl, t, a, combat)
        if t < 0:
            st.pl[-1 - t, P_DAMAGE_TURN] += a
        if w == 1:
            dealt_first = a
    return dealt_first


@kernel(inline="always")
def _exists(st, t):
    if t < 0:
        return st.pl[-1 - t, P_ALIVE] == 1
    return st.o[t, F_ZONE] == BATTLEFIELD


@kernel
def _results(st, cd, source, src_ctl, t, a, combat):
    """120.3: what damage does, then lifelink, commander damage and the events."""
    o = st.o
    touch_sba(st)
    kw = o[source, F_KW] if source >= 0 else 0
    if t < 0:
        p = -1 - t
        if kw & KW_INFECT:  # 702.90b; 810.10: shared by the team
            players.add_poison(st, p, a)
        else:
            lose_life(st, cd, p, a)
        if combat and source >= 0:
            _combat_damage_to_player(st, source, src_ctl, p, a)
            o[source, F_COMBAT_DAMAGED] = 1 + p  # (Glen Elendra: "that player")
    else:
        types = o[t, F_TYPES]
        if types & T_CREATURE:
            if kw & (KW_INFECT | KW_WITHER):  # 702.90c, 702.80a
                zones.add_counters(st, cd, t, CTR_M1M1, a)
            else:
                o[t, F_DMG] += a
            if kw & KW_DEATHTOUCH:
                o[t, F_DTHIT] = 1
        if types & T_PLANESWALKER:  # 120.3c
            zones.add_counters(st, cd, t, CTR_LOYALTY, -min(a, o[t, F_CTR + CTR_LOYALTY]))
        if types & T_BATTLE:  # 120.3h
            zones.add_counters(st, cd, t, CTR_DEFENSE, -min(a, o[t, F_CTR + CTR_DEFENSE]))
    if kw & KW_LIFELINK and src_ctl >= 0:  # 702.15b
        gain_life(st, cd, src_ctl, a)
    if source >= 0:
        aux = 1 if combat else 0
        if t >= 0 and o[t, F_TYPES] & T_PLANESWALKER:
            aux |= 2  # (triggers.AUX_TO_PLANESWALKER)
        if t < 0 and o[source, F_HIT_PLAYER] != st.s[S_TURN] + 1:
            o[source, F_HIT_PLAYER] = st.s[S_TURN] + 1  # (simultaneous damage: one event)
            aux |= 4  # (triggers.AUX_FIRST_TO_PLAYER: its first damage to a player this turn)
        triggers.event(st, cd, EV_DEALS_DAMAGE, source, -1 - t if t < 0 else -1, a, src_ctl, aux)
    if t >= 0:  # "whenever this is dealt damage"
        aux = (1 if combat else 0) | ((source + 1) << triggers.AUX_SOURCE_SHIFT)
        triggers.event(st, cd, EV_DEALT_DAMAGE, t, -1, a, o[t, F_CTL], aux)


@kernel
def _combat_damage_to_player(st, source, src_ctl, p, a):
    """Combat damage to a player: who dealt it this turn (Tymna), and commander damage
    (903.10a: counted per commander, whoever controls it)."""
    if src_ctl >= 0 and players.is_opponent(st, src_ctl, p) and st.rm[2, src_ctl, p] == 0:
        st.rm[2, src_ctl, p] = 1
        st.pl[src_ctl, P_OPP_DAMAGED] += 1
    variants.combat_damage_to_player(st, source, p, a)
