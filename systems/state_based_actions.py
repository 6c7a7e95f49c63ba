"""State-based actions (704), with the range of influence (801.8, 801.9, 801.12), teams
(810.8c-d) and, through systems/variants.py, the casual variants' (903.9a, 903.10a:
systems/commander.py).

``check`` performs every applicable state-based action at once (704.3) and says
whether any was; ``systems/priority.py`` repeats it, with triggered abilities, until
none applies (117.5). It looks only when something changed since the last check."""

from __future__ import annotations

from components.cards import C_ENCHANT, C_FLAGS, C_SUPER, CF_AURA, CF_EQUIPMENT, ST_NO_LOSS_ZERO
from components.game import (
    NEED_EXILE_UNTIL,
    S_N,
    S_NBF,
    S_NEEDS,
    S_NSTK,
    S_NTRG,
    S_POISON_LIMIT,
    S_SDIRTY,
    S_STEP,
    S_TOKENS,
)
from components.objects import (
    F_ATT,
    F_CARD,
    F_CTL,
    F_CTR,
    F_DMG,
    F_DTHIT,
    F_EXILED_BY,
    F_IKIND,
    F_OWNER,
    F_SRC,
    F_TOKEN,
    F_TOU,
    F_TS,
    F_TYPES,
    F_ZONE,
)
from components.players import (
    HOW_COMBAT,
    HOW_DECKING,
    HOW_LIFE,
    HOW_PLAYING,
    HOW_POISON,
    P_ALIVE,
    P_DREW_EMPTY,
    P_HOW,
)
from components.rules import (
    BATTLEFIELD,
    COMBAT_DAMAGE,
    CTR_DEFENSE,
    CTR_LOYALTY,
    CTR_M1M1,
    CTR_P1P1,
    EXILE,
    FIRST_STRIKE_DAMAGE,
    GONE,
    GRAVEYARD,
    S_LEGENDARY,
    S_WORLD,
    STACK,
    T_BATTLE,
    T_CREATURE,
    T_PLANESWALKER,
)
from components.scratch import SCR_SBA_DOOMED, SCR_SBA_GRAVEYARD, SCR_SBA_LOSERS
from components.stack import I_TRIGGERED, Q_SRC
from systems import continuous_effects, leaving_game, players, selectors, triggers, variants, zones
from systems.jit import kernel
from systems.state import touch


@kernel(inline="always")
def check(st, cd):
    """704.3: every applicable state-based action at once; True if any was performed
    (nothing to look at unless something changed: that test is inlined)."""
    if not st.s[S_SDIRTY]:
        return False
    return _check(st, cd)


@kernel
def _check(st, cd):
    s = st.s
    s[S_SDIRTY] = 0
    triggers.new_event(st)  # what happens now happens at the same time (704.3)
    continuous_effects.recompute(st, cd)
    o, pl, ct = st.o, st.pl, cd.ct
    P = pl.shape[0]
    acted = False
    nbf = s[S_NBF]
    # one pass over the permanents: what is put into the graveyard (704.5f-i, m, j, k,
    # v), what is destroyed (704.5g-h), counters (704.5q), equipment (704.5n)
    scr = st.scr
    to_gy = scr[SCR_SBA_GRAVEYARD : SCR_SBA_GRAVEYARD + 4].reshape(4 * scr.shape[1])
    ng = 0
    doomed = scr[SCR_SBA_DOOMED]
    nd = 0
    for i in st.bf[:nbf]:
        c = o[i, F_CARD]
        t = o[i, F_TYPES]
        if t & T_CREATURE:
            if o[i, F_TOU] <= 0:  # 704.5f
                to_gy[ng] = i
                ng += 1
            elif o[i, F_DMG] >= o[i, F_TOU] or (o[i, F_DMG] > 0 and o[i, F_DTHIT]):
                doomed[nd] = i  # 704.5g-h: destroyed
                nd += 1
        if t & T_PLANESWALKER and o[i, F_CTR + CTR_LOYALTY] <= 0:  # 704.5i
            to_gy[ng] = i
            ng += 1
        if t & T_BATTLE and o[i, F_CTR + CTR_DEFENSE] <= 0 and not _source_of_trigger(st, i):
            to_gy[ng] = i  # 704.5v
            ng += 1
        a = min(o[i, F_CTR + CTR_P1P1], o[i, F_CTR + CTR_M1M1])
        if a > 0:  # 704.5q
            o[i, F_CTR + CTR_P1P1] -= a
            o[i, F_CTR + CTR_M1M1] -= a
            acted = True
        if c < 0:
            continue
        flags = ct[c, C_FLAGS]
        att = o[i, F_ATT]
        you = o[i, F_CTL]
        if flags & CF_AURA:  # 704.5m (801.8: within its controller's range)
            ok = att >= 0 and o[att, F_ZONE] == BATTLEFIELD
            if ok:
                ok = players.in_range(st, you, o[att, F_CTL]) and selectors.matches(
                    st, cd, ct[c, C_ENCHANT], att, you, i, -1
                )
            if not ok:
                to_gy[ng] = i
                ng += 1
        elif flags & CF_EQUIPMENT and att >= 0:  # 704.5n (801.9)
            ok = (
                o[att, F_ZONE] == BATTLEFIELD
                and (o[att, F_TYPES] & T_CREATURE) != 0
                and players.in_range(st, you, o[att, F_CTL])
            )
            if not ok:
                o[i, F_ATT] = -1
                acted = True
        sup = ct[c, C_SUPER]
        if sup & S_LEGENDARY:  # 704.5j: the newest stays (a documented default)
            for j in st.bf[:nbf]:
                if j != i and o[j, F_CARD] == c and o[j, F_CTL] == you and o[j, F_TS] > o[i, F_TS]:
                    to_gy[ng] = i
                    ng += 1
                    break
        if sup & S_WORLD:  # 704.5k with 801.12
            for j in st.bf[:nbf]:
                cj = o[j, F_CARD]
                if (
                    cj >= 0
                    and ct[cj, C_SUPER] & S_WORLD
                    and o[j, F_TS] > o[i, F_TS]
                    and players.in_range(st, you, o[j, F_CTL])
                ):
                    to_gy[ng] = i
                    ng += 1
                    break
    losers = scr[SCR_SBA_LOSERS]
    nl = 0
    for p in range(P):  # 704.5a-c (810.8c-d: the team's totals)
        if not pl[p, P_ALIVE]:
            continue
        how = HOW_PLAYING
        if players.life(st, p) <= 0 and not _no_loss_at_zero(st, cd, p):
            combat = s[S_STEP] == COMBAT_DAMAGE or s[S_STEP] == FIRST_STRIKE_DAMAGE
            how = HOW_COMBAT if combat else HOW_LIFE
        elif players.poison(st, p) >= s[S_POISON_LIMIT]:
            how = HOW_POISON
        elif pl[p, P_DREW_EMPTY]:
            how = HOW_DECKING
        if how != HOW_PLAYING:
            losers[nl] = p
            pl[p, P_HOW] = how
            nl += 1
    nl = variants.losers(st, cd, losers, nl)  # the casual variants' (903.10a)
    if s[S_TOKENS]:  # 704.5d-e (only after a token or copy left: zones.move)
        for i in range(s[S_N]):
            z = o[i, F_ZONE]
            if o[i, F_TOKEN] == 1 and z != BATTLEFIELD and z != GONE:
                zones.cease(st, cd, i)
                acted = True
            elif o[i, F_TOKEN] == 2 and z != STACK and z != GONE:
                zones.cease(st, cd, i)
                acted = True
        s[S_TOKENS] = 0
    for k in range(nd):
        if zones.destroy(st, cd, doomed[k]):
            acted = True
    for k in range(ng):
        if o[to_gy[k], F_ZONE] == BATTLEFIELD:
            zones.move(st, cd, to_gy[k], GRAVEYARD, -1)
            acted = True
    if variants.state_based_actions(st, cd):  # the casual variants' own (903.9a, 704.6f, 904.10)
        acted = True
    if s[S_NEEDS] & NEED_EXILE_UNTIL and return_exiled(st, cd):
        acted = True
    m = 0
    for k in range(nl):
        if not leaving_game.cant_lose(st, cd, losers[k]):
            losers[m] = losers[k]
            m += 1
        else:
            pl[losers[k], P_HOW] = HOW_PLAYING
    for p in range(P):
        pl[p, P_DREW_EMPTY] = 0
    if m:
        leaving_game.players_lose(st, cd, losers, m)
        acted = True
    if acted:
        touch(st)
    return acted


@kernel
def _no_loss_at_zero(st, cd, p):
    """ "You don't lose the game for having 0 or less life" (Transcendence); with a shared
    life total, for the team (810.8a)."""
    for q in range(st.pl.shape[0]):
        if (q == p or players.shares_life(st, p, q)) and continuous_effects.player_static(
            st, cd, q, ST_NO_LOSS_ZERO
        ):
            return True
    return False


@kernel
def _source_of_trigger(st, i):
    """Is i the source of a triggered ability waiting or on the stack (704.5v)?"""
    for k in range(st.s[S_NTRG]):
        if st.trg[k, Q_SRC] == i:
            return True
    for k in range(st.s[S_NSTK]):
        j = st.stk[k]
        if st.o[j, F_IKIND] == I_TRIGGERED and st.o[j, F_SRC] == i:
            return True
    return False


@kernel
def return_exiled(st, cd):
    """610.3c: a card exiled "until this leaves the battlefield" returns to the battlefield
    under its owner's control once its source has left (done here, before anyone gets
    priority: not a state-based action, but nothing can happen in between)."""
    o = st.o
    back = False
    for j in range(st.s[S_N]):
        e = o[j, F_EXILED_BY]
        if e <= -2 and o[j, F_ZONE] == EXILE and o[-2 - e, F_ZONE] != BATTLEFIELD:
            o[j, F_EXILED_BY] = -1
            if o[j, F_TOKEN] == 0:
                zones.enter_battlefield(st, cd, j, o[j, F_OWNER], -1, 0)
            back = True
    return back
