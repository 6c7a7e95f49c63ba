"""Casting spells (601), activating abilities (602) and putting triggered abilities on
the stack (603.3) as a sequence of decisions, one choice each, in the order of 601.2:
the opponent who will choose (801.5a), modes (601.2b, 700.2), kicker, the value of X
(107.3), targets (601.2c, one at a time), a cost's own choice (what to sacrifice or
discard), conspire (702.78: whether to pay each instance and the two creatures it taps),
then the total cost (601.2f: mana cost, X, kicker, commander tax 903.8, cost changes)
is paid (601.2g-h).

Every option offered keeps the spell completable (modes with legal targets, values of
X that can be paid, targets while enough remain for the rest), so nothing is ever
half cast and 730.1's reversal is never needed. ``S_CASTING`` is the object being
put on the stack, ``S_CAST_STAGE`` its next choice; ``advance`` sets the pending
decision for it or, with nothing left to choose, finishes."""

from __future__ import annotations

import numpy as np

from components.cards import (
    A_AMT,
    A_ARG,
    A_IF,
    A_KIND,
    A_WHO,
    A_ZONE,
    AB_ACTIVATED,
    AB_ALT_SPELL,
    AB_FLASHBACK,
    AB_FROM_END_CONSPIRE,
    AB_FROM_END_UNEARTH,
    AB_MANA,
    AB_MUTATE,
    AB_SPELL,
    B_CHOOSE,
    B_CHOOSER,
    B_COST,
    B_DISCARD,
    B_DISCARD_SELF,
    B_HASLOY,
    B_HYB,
    B_IF,
    B_INDEX,
    B_KIND,
    B_LIFE,
    B_LOY,
    B_MANA,
    B_MANA_A,
    B_MANA_AMT,
    B_MODES0,
    B_NMODES,
    B_NTG,
    B_ONCE,
    B_RMCTR,
    B_RMN,
    B_SAC,
    B_TAP,
    B_TG0,
    B_XS,
    C_ALT,
    C_CONSPIRE,
    C_COST,
    C_FLAGS,
    C_FLASHBACK,
    C_HYB,
    C_KICKER,
    C_MUTATE,
    C_NSA,
    C_SA0,
    C_SELF_COST,
    C_SPELL,
    C_XS,
    CF_COST_CHANGE,
    CHOOSER_EVENT_CONTROLLER,
    CHOOSER_EVENT_OWNER,
    COST_W,
    EV_BECOMES_TARGET,
    EV_CAST,
    G_AT_RANDOM,
    G_CHOSEN_BY,
    G_COUNT,
    G_DIFFERENT,
    G_DIVIDE,
    G_FILTER,
    G_ONE_PER_PLAYER,
    G_TOTAL_POWER,
    G_UP_TO,
    L_SHARES_TYPE,
    L_ZONE,
    MANA_FIXED,
    NHYB,
    ST_COST_LESS,
    ST_COST_MORE,
    ST_FLASH_FOR,
    ST_GRANT_CONSPIRE,
)
from components.decisions import (
    PEND_CHOOSE_OBJECT,
    PEND_CHOOSE_PLAYER,
    PEND_COLOR,
    PEND_KICKER,
    PEND_MODE,
    PEND_NONE,
    PEND_TARGET,
    PEND_X,
    PEND_YES_NO,
    T_RANDOM,
)
from components.game import (
    CAST_CHOOSER,
    CAST_CONSPIRE,
    CAST_KICKER,
    CAST_MODES,
    CAST_PAY,
    CAST_SAC,
    CAST_TARGETS,
    CAST_X,
    CK_ABILITY,
    CK_SPELL,
    CK_TRIGGER,
    NEED_CONSPIRE,
    NEED_COST_CHANGES,
    NEED_FLASH_FOR,
    S_CAST_KIND,
    S_CAST_MODE,
    S_CAST_N,
    S_CAST_SLOT,
    S_CAST_STAGE,
    S_CASTING,
    S_CASUAL,
    S_N,
    S_NCZ,
    S_NDV,
    S_NEEDS,
    S_PA,
    S_PASSES,
    S_PEND,
    S_PPLAYER,
    S_PRIO,
    S_RES,
    S_TODO,
    TODO_PRIORITY,
)
from components.objects import (
    F_ACTUSED,
    F_CARD,
    F_CASTING,
    F_CHOOSER,
    F_COLORS,
    F_CONSPIRED,
    F_CTL,
    F_CTR,
    F_EVC,
    F_EVO,
    F_FACE_DOWN,
    F_FLASHBACK,
    F_FREE,
    F_FROM,
    F_IAB,
    F_ICTL,
    F_IKIND,
    F_KICKED,
    F_KW,
    F_LOYUSED,
    F_MODES,
    F_NT,
    F_OWNER,
    F_POW,
    F_SICK,
    F_SPENT,
    F_SRC,
    F_T0,
    F_TAPPED,
    F_TSPEC,
    F_TYPES,
    F_X,
    F_ZONE,
    MAX_TARGETS,
)
from components.players import (
    P_ALIVE,
    P_CREATURE_SPELLS,
    P_HANDN,
    P_OPP_SPELLS_SINCE,
    P_SPELLS,
)
from components.rules import (
    BATTLEFIELD,
    COLOR_LETTERS,
    CTR_LOYALTY,
    EXILE,
    GRAVEYARD,
    HAND,
    KW_HASTE,
    N_MANA,
    NO_TARGET,
    STACK,
    T_CREATURE,
    T_LAND,
    T_PHENOMENON,
    T_PLANE,
)
from components.scratch import (
    SCR_ACTIVATABLE_COST,
    SCR_ADVANCE_TARGETS,
    SCR_CASTABLE_COST,
    SCR_COST,
    SCR_TARGET_CANDIDATES,
)
from components.stack import I_ACTIVATED, V_AMOUNT, V_ITEM, V_SPEC, V_TARGET
from systems import (
    conspiracy,
    continuous_effects,
    damage,
    mana,
    planechase,
    players,
    selectors,
    stack,
    targets,
    triggers,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import (
    bump,
    copy_into,
    delete_row,
    lowest_bit,
    new_row,
    popcount,
    rand_below,
    touch,
    trace,
)

# option of a cast (the A_CAST action's argument)
CAST_NORMAL, CAST_ALTERNATIVE, CAST_MUTATE = 0, 1, 2
CAST_FLASHBACK, CAST_FLASHBACK_MANA = 3, 4  # 702.34a: for its flashback cost / its mana cost
SAC_SELF = -2
MAX_X = 99


# ----------------------------------------------------------------- what is cast
@kernel(inline="always")
def cast_ability(cd, c, option):
    """The ability row a cast of card c uses: its spell ability (-1 for a permanent
    spell without one), its alternative cast (overload) or its mutate cast."""
    if option == CAST_ALTERNATIVE:
        return cd.ct[c, C_ALT]
    if option == CAST_MUTATE:
        return cd.ct[c, C_MUTATE]
    if option == CAST_FLASHBACK:
        return cd.ct[c, C_FLASHBACK] - 1
    return cd.ct[c, C_SPELL]


@kernel
def base_cost(st, cd, p, i, a, option, out):
    """The mana cost before X (generic, W..C) of casting i (a spell: a < 0 or its
    cast ability) or activating ability a; with the commander tax (903.8) and cost
    changes of static abilities (601.2f) for spells. Returns the number of {X}."""
    o, ct, ab = st.o, cd.ct, cd.ab
    c = o[i, F_CARD]
    spell = o[i, F_ZONE] != BATTLEFIELD or option >= 0 and _is_spell_kind(cd, a)
    if spell and option == CAST_NORMAL and o[i, F_FREE]:  # 118.9: no mana cost; X is 0
        for k in range(min(out.shape[0], COST_W)):
            out[k] = 0
        xs = 0
    elif (
        a >= 0
        and (not spell or (option != CAST_NORMAL and option != CAST_FLASHBACK_MANA))
        and a != ab.shape[0] - AB_FROM_END_UNEARTH  # (granted unearth: the mana cost, Grixis)
    ):
        for k in range(N_MANA + 1):
            out[k] = ab[a, B_COST + k]
        if out.shape[0] >= COST_W:
            for k in range(NHYB):
                out[N_MANA + 1 + k] = ab[a, B_HYB + k]
        xs = ab[a, B_XS]
    else:
        for k in range(N_MANA + 1):
            out[k] = ct[c, C_COST + k]
        if out.shape[0] >= COST_W:
            for k in range(NHYB):
                out[N_MANA + 1 + k] = ct[c, C_HYB + k]
        xs = ct[c, C_XS]
    if spell and option >= 0:
        out[0] += variants.spell_tax(st, p, i)  # 903.8: the commander tax
        out[0] += _cost_change(st, cd, p, i)
        r = ct[c, C_SELF_COST]
        if r >= 0:  # "this spell costs {1} less for each ..." (601.2f)
            out[0] -= selectors.amount(st, cd, cd.sa[r, A_AMT], p, i, -1)
        if out[0] < 0:
            out[0] = 0
        if conspiracy.any_color(st, cd, p, i):  # any mana pays W..G (Unexpected Potential)
            for k in range(1, 6):
                out[0] += out[k]
                out[k] = 0
    return xs


@kernel(inline="always")
def _is_spell_kind(cd, a):
    if a < 0:
        return True
    k = cd.ab[a, B_KIND]
    return k == AB_SPELL or k == AB_ALT_SPELL or k == AB_MUTATE or k == AB_FLASHBACK


@kernel
def _cost_change(st, cd, p, i):
    """601.2f: "spells you cast cost {1} less / more": the change to the generic part,
    from the permanents and the face-up command-zone cards (eminence) whose abilities
    apply to this spell."""
    if not st.s[S_NEEDS] & NEED_COST_CHANGES:
        return 0
    if not (
        selectors.static_present(st, cd, ST_COST_LESS)
        or selectors.static_present(st, cd, ST_COST_MORE)
    ):
        return 0
    d = 0
    for src in zones.permanents(st):
        c = continuous_effects.face(st, cd, src)
        if c >= 0 and cd.ct[c, C_FLAGS] & CF_COST_CHANGE:  # (most have none: no call)
            d += _changes_of(st, cd, src, p, i)
    for k in range(st.s[S_NCZ]):
        d += _changes_of(st, cd, st.cz[k], p, i)
    return d


@kernel
def _changes_of(st, cd, src, p, i):
    o, ct, sa = st.o, cd.ct, cd.sa
    c = continuous_effects.face(st, cd, src)
    if o[src, F_FACE_DOWN] or not (
        selectors.has_static(cd, c, ST_COST_LESS) or selectors.has_static(cd, c, ST_COST_MORE)
    ):
        return 0
    you = o[src, F_CTL]
    d = 0
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        k = sa[r, A_KIND]
        if (k != ST_COST_LESS and k != ST_COST_MORE) or sa[r, A_ZONE] != o[src, F_ZONE]:
            continue
        if not selectors.holds(st, cd, sa[r, A_IF], you, src, -1):
            continue
        # whose spells (A_WHO: "spells you cast", "spells your opponents cast"); a plane's
        # cost changes apply to every player's spells (Turri Island, 901.7)
        planar = o[src, F_TYPES] & (T_PLANE | T_PHENOMENON)
        if not planar and not selectors.related(st, you, p, sa[r, A_WHO]):
            continue
        if not selectors.matches_card(st, cd, sa[r, A_ARG], i, you, src):
            continue
        n = selectors.amount(st, cd, sa[r, A_AMT], you, src, -1)
        d += -n if k == ST_COST_LESS else n
    return d


@kernel
def as_though_flash(st, cd, p, i):
    """May p cast card i as though it had flash ("you may cast [these] spells as though
    they had flash": the static abilities of p's permanents and face-up command-zone
    cards, Tawnos 902.7; "players may cast ...": anyone's, Akoum)? i < 0: has p any such
    ability?"""
    if not st.s[S_NEEDS] & NEED_FLASH_FOR or not selectors.static_present(st, cd, ST_FLASH_FOR):
        return False
    for src in zones.permanents(st):
        if _flash_of(st, cd, src, p, i):
            return True
    for k in range(st.s[S_NCZ]):
        src = st.cz[k]
        if _flash_of(st, cd, src, p, i):
            return True
    return False


@kernel
def _flash_of(st, cd, src, p, i):
    o, ct, sa = st.o, cd.ct, cd.sa
    c = continuous_effects.face(st, cd, src)
    if not selectors.has_static(cd, c, ST_FLASH_FOR) or o[src, F_FACE_DOWN]:
        return False
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] != ST_FLASH_FOR or sa[r, A_ZONE] != o[src, F_ZONE]:
            continue
        if not selectors.related(st, o[src, F_CTL], p, sa[r, A_WHO]):  # you; Akoum: players
            continue
        if not selectors.holds(st, cd, sa[r, A_IF], p, src, -1):
            continue
        if i < 0 or selectors.matches_card(st, cd, sa[r, A_ARG], i, p, src):
            return True
    return False


# ----------------------------------------------------------------- can it be done?
@kernel
def _specs_feasible(st, cd, a, you, src, item):
    """Has every target spec of ability (or mode) a enough legal targets?"""
    for spec in range(cd.ab[a, B_TG0], cd.ab[a, B_TG0] + cd.ab[a, B_NTG]):
        need = 0 if cd.tg[spec, G_UP_TO] else cd.tg[spec, G_COUNT]
        if need and targets.count_available(st, cd, spec, you, you, src, item, need) < need:
            return False
    return True


@kernel
def _modes_feasible(st, cd, a, you, src, item):
    """How many of ability a's modes could be chosen now (their targets exist)?"""
    n = 0
    for k in range(cd.ab[a, B_NMODES]):
        if _specs_feasible(st, cd, cd.ab[a, B_MODES0] + k, you, src, item):
            n += 1
    return n


@kernel
def ability_feasible(st, cd, a, you, src, item):
    """Can ability a be put on the stack as far as modes and targets go?"""
    if a < 0:
        return True
    if cd.ab[a, B_NMODES]:
        need = cd.ab[a, B_CHOOSE] if cd.ab[a, B_CHOOSE] > 0 else 1  # (< 0: one or more)
        return _modes_feasible(st, cd, a, you, src, item) >= need
    return _specs_feasible(st, cd, a, you, src, item)


@kernel
def castable(st, cd, p, i, option):
    """Could p begin casting card-object i this way now and complete it (timing is the
    caller's: systems/legal_actions.py)?"""
    c = st.o[i, F_CARD]
    a = cast_ability(cd, c, option)
    if option != CAST_NORMAL and a < 0:
        return False
    cost = st.scr[SCR_CASTABLE_COST]  # (the mana first: most cards not castable lack it)
    base_cost(st, cd, p, i, a, option, cost)
    if not mana.can_pay(st, cd, p, cost, 0):
        return False
    return ability_feasible(st, cd, a, p, i, -1)


@kernel
def activatable(st, cd, p, i, a):
    """Could p activate ability a of object i now and complete it (timing and range
    are the caller's)?"""
    o, ab = st.o, cd.ab
    if ab[a, B_ONCE] and (o[i, F_ACTUSED] >> ab[a, B_INDEX]) & 1:
        return False
    if ab[a, B_HASLOY]:  # 606.3: one loyalty ability per turn; enough loyalty to pay
        if o[i, F_LOYUSED] or o[i, F_CTR + CTR_LOYALTY] + ab[a, B_LOY] < 0:
            return False
    tap = ab[a, B_TAP]
    if tap == 1 and (o[i, F_TAPPED] or _sick(st, i)):
        return False
    if tap == 2 and (not o[i, F_TAPPED] or _sick(st, i)):
        return False
    sac = ab[a, B_SAC]
    if sac == SAC_SELF and o[i, F_ZONE] != BATTLEFIELD:
        return False
    if sac >= 0 and not _has_sacrifice(st, cd, p, sac, i):
        return False
    life = ab[a, B_LIFE]
    if life == -2:
        life = (players.life(st, p) + 1) // 2
    if life > 0 and not damage.can_pay_life(st, cd, p, life):
        return False
    if ab[a, B_DISCARD] > st.pl[p, P_HANDN]:
        return False
    if ab[a, B_DISCARD_SELF] and o[i, F_ZONE] != HAND:
        return False
    if ab[a, B_IF] >= 0 and not selectors.holds(st, cd, ab[a, B_IF], p, i, -1):
        return False  # "activate only if ..." (602.5b)
    if ab[a, B_RMCTR] >= 0 and o[i, F_CTR + ab[a, B_RMCTR]] < ab[a, B_RMN]:
        return False
    if not ability_feasible(st, cd, a, p, i, -1):
        return False
    cost = st.scr[SCR_ACTIVATABLE_COST]
    base_cost(st, cd, p, i, a, -1, cost)
    if tap != 1:
        return mana.can_pay(st, cd, p, cost, 0)
    return _can_pay_tapped(st, cd, p, i, cost, 0)


@kernel
def _can_pay_tapped(st, cd, p, i, cost, extra):
    """can_pay when the cost also taps i ({T}): i makes no mana toward it (601.2g-h: the
    mana abilities are activated before the costs are paid, and i must be untapped to
    pay its {T}). i is tapped for the look, after the layers are up to date."""
    continuous_effects.recompute(st, cd)
    mana.forget_sources(st)
    st.o[i, F_TAPPED] = 1
    ok = mana.can_pay(st, cd, p, cost, extra)
    st.o[i, F_TAPPED] = 0
    mana.forget_sources(st)
    return ok


@kernel(inline="always")
def _sick(st, i):
    """302.6: a creature's {T} abilities need it to have been under its controller's
    control since their most recent turn began (or haste)."""
    o = st.o
    return (o[i, F_TYPES] & T_CREATURE) != 0 and o[i, F_SICK] == 1 and not (o[i, F_KW] & KW_HASTE)


@kernel
def _has_sacrifice(st, cd, p, f, src):
    if cd.fl[f, L_ZONE] == HAND:  # "exile a card from your hand" (Sovereign's Realm)
        for j in zones.hand_of(st, p):
            if selectors.matches(st, cd, f, j, p, src, -1):
                return True
        return False
    for j in continuous_effects.held_by(st, p):
        if selectors.matches(st, cd, f, j, p, src, -1):
            return True
    return False


# ----------------------------------------------------------------- beginning
@kernel
def begin_spell(st, cd, p, i, option):
    """601.2a: the card moves to the stack; then its choices, one decision at a time."""
    _spell_on_stack(st, cd, p, i, option, 0)
    _begin(st, cd, i, CK_SPELL)


@kernel
def begin_free(st, cd, p, i):
    """601.2, 118.9: p casts card i without paying its mana cost while an ability
    resolves (timing is ignored): no alternative cost, X is 0, additional costs (kicker)
    and cost increases are paid. Its choices are decisions as for any spell; once it is
    cast the resolution goes on (``finish``)."""
    _spell_on_stack(st, cd, p, i, CAST_NORMAL, 1)
    _begin(st, cd, i, CK_SPELL)


@kernel
def free_castable(st, cd, p, i):
    """Could p cast card i now without paying its mana cost (118.9) and complete it:
    not a land, nothing forbids the spell, its targets exist, the cost increases left
    can be paid? (Timing is ignored: it is cast as an ability resolves.)"""
    o = st.o
    if o[i, F_CARD] < 0 or o[i, F_TYPES] & T_LAND:
        return False
    if conspiracy.cant_cast(st, cd, p, i) or planechase.cant_cast_by_library_tops(st, cd, i):
        return False
    keep = o[i, F_FREE]
    o[i, F_FREE] = 1
    ok = castable(st, cd, p, i, CAST_NORMAL)
    o[i, F_FREE] = keep
    return ok


@kernel
def _spell_on_stack(st, cd, p, i, option, free):
    o = st.o
    c = o[i, F_CARD]
    frm = o[i, F_ZONE]
    zones.move(st, cd, i, STACK, p)
    o[i, F_CASTING] = 1
    o[i, F_ICTL] = p
    o[i, F_SRC] = -1
    o[i, F_IAB] = cast_ability(cd, c, option)
    o[i, F_FROM] = frm
    o[i, F_KICKED] = 2 if option == CAST_ALTERNATIVE else 0
    o[i, F_FLASHBACK] = 1 if option == CAST_FLASHBACK or option == CAST_FLASHBACK_MANA else 0
    o[i, F_CHOOSER] = -1
    o[i, F_NT] = 0
    o[i, F_MODES] = 0
    o[i, F_X] = 0
    o[i, F_FREE] = free
    o[i, F_CONSPIRED] = 0


@kernel
def begin_ability(st, cd, p, i, a):
    """602.2a: the ability is created on the stack; then its choices."""
    j = zones.new_object(st, cd, st.o[i, F_CARD], p, STACK)
    if j < 0:
        return
    o = st.o
    o[j, F_IKIND] = I_ACTIVATED
    o[j, F_IAB] = a
    o[j, F_ICTL] = p
    o[j, F_SRC] = i
    o[j, F_CASTING] = 1
    o[j, F_CHOOSER] = -1
    o[j, F_EVO] = -1
    _begin(st, cd, j, CK_ABILITY)


@kernel
def begin_trigger(st, cd, j):
    """603.3d: a triggered ability put on the stack gets its choices (modes, targets)."""
    st.o[j, F_CASTING] = 1
    st.o[j, F_CHOOSER] = -1
    _begin(st, cd, j, CK_TRIGGER)


@kernel
def _begin(st, cd, it, kind):
    s = st.s
    s[S_CASTING] = it
    s[S_CAST_KIND] = kind
    s[S_CAST_STAGE] = CAST_CHOOSER
    s[S_CAST_SLOT] = 0
    s[S_CAST_N] = 0
    s[S_CAST_MODE] = 0
    stack.push(st, it)
    advance(st, cd)


# ----------------------------------------------------------------- the choices
@kernel(inline="always")
def _ability(st, it):
    return st.o[it, F_IAB]


@kernel
def spec_at(st, cd, it, slot):
    """The slot-th target spec to fill for stack object it: those of its ability, or of
    each chosen mode in mode order; -1 past the last."""
    a = _ability(st, it)
    if a < 0:
        return -1
    ab = cd.ab
    if ab[a, B_NMODES] == 0:
        return ab[a, B_TG0] + slot if slot < ab[a, B_NTG] else -1
    k = slot
    for m in range(ab[a, B_NMODES]):
        if (st.o[it, F_MODES] >> m) & 1:
            row = ab[a, B_MODES0] + m
            if k < ab[row, B_NTG]:
                return ab[row, B_TG0] + k
            k -= ab[row, B_NTG]
    return -1


@kernel
def advance(st, cd):
    """Set the pending decision for the next choice of the object being put on the
    stack, skipping the stages it doesn't have; finish when none is left."""
    s, o, ab = st.s, st.o, cd.ab
    it = s[S_CASTING]
    p = o[it, F_ICTL]
    src = zones.is_source_of(st, it)
    a = _ability(st, it)
    while True:
        stage = s[S_CAST_STAGE]
        if stage == CAST_CHOOSER:
            s[S_CAST_STAGE] = CAST_MODES
            chooser = ab[a, B_CHOOSER] if a >= 0 else 0
            if chooser == CHOOSER_EVENT_CONTROLLER or chooser == CHOOSER_EVENT_OWNER:
                # "of their choice": the event object's controller chooses; "its owner
                # distributes": its owner
                q = o[it, F_EVC]
                if chooser == CHOOSER_EVENT_OWNER:
                    q = o[o[it, F_EVO], F_OWNER] if o[it, F_EVO] >= 0 else -1
                o[it, F_CHOOSER] = q if q >= 0 and st.pl[q, P_ALIVE] else -1
            elif chooser > 0:
                if _ask_chooser(st, cd, it, p):
                    return
        elif stage == CAST_MODES:
            if a >= 0 and ab[a, B_NMODES] and _more_modes(st, cd, it, a):
                decider = o[it, F_CHOOSER] if ab[a, B_CHOOSER] == 1 else p
                _ask(st, PEND_MODE, decider)
                return
            s[S_CAST_STAGE] = CAST_KICKER
        elif stage == CAST_KICKER:
            s[S_CAST_STAGE] = CAST_X
            if (
                s[S_CAST_KIND] == CK_SPELL
                and o[it, F_KICKED] == 0
                and cd.ct[o[it, F_CARD], C_KICKER] >= 0
            ):
                if kicker_affordable(st, cd, p, it):
                    _ask(st, PEND_KICKER, p)
                    return
        elif stage == CAST_X:
            s[S_CAST_STAGE] = CAST_TARGETS
            if s[S_CAST_KIND] != CK_TRIGGER and x_count(st, cd, it) > 0 and not o[it, F_FREE]:
                _ask(st, PEND_X, p)
                return
        elif stage == CAST_TARGETS:
            spec = spec_at(st, cd, it, s[S_CAST_SLOT])
            if spec < 0:
                s[S_CAST_STAGE] = CAST_SAC
                s[S_CAST_N] = 0
                continue
            need = cd.tg[spec, G_COUNT]
            if cd.tg[spec, G_DIVIDE] > 0:  # 601.2d: one of the amount at a time, to a target
                need = divided_total(st, cd, it, spec)
                if s[S_CAST_N] >= need:
                    s[S_CAST_SLOT] += 1
                    s[S_CAST_N] = 0
                    continue
            elif s[S_CAST_N] >= need or o[it, F_NT] >= MAX_TARGETS:
                s[S_CAST_SLOT] += 1
                s[S_CAST_N] = 0
                continue
            decider = o[it, F_CHOOSER] if cd.tg[spec, G_CHOSEN_BY] else p
            if decider < 0:
                decider = p
            random = cd.tg[spec, G_AT_RANDOM] == 1  # chosen at random, not by a player
            buf = st.scr[SCR_ADVANCE_TARGETS]
            limit = st.s[S_N] + st.pl.shape[0] + 1 if random else 1
            k = target_options(st, cd, it, spec, decider, src, buf, limit)
            if k == 0:
                if not cd.tg[spec, G_UP_TO] and s[S_CAST_KIND] == CK_TRIGGER:
                    _drop_trigger(st, cd, it)  # 603.3d: no legal target: it is removed
                    return
                s[S_CAST_SLOT] += 1  # (up to: none is fine; spells were checked feasible)
                s[S_CAST_N] = 0
                continue
            if random:  # "target player at random": uniform among the legal targets
                j = rand_below(st, k)
                trace(st, T_RANDOM, p, k, j, 0, 0, 0, 0, 0)
                _add_target(st, it, spec, buf[j])
                continue
            _ask(st, PEND_TARGET, decider)
            s[S_PA] = spec
            return
        elif stage == CAST_SAC:
            if s[S_CAST_KIND] == CK_ABILITY and ab[a, B_SAC] >= 0 and o[it, F_EVO] < 0:
                _ask(st, PEND_CHOOSE_OBJECT, p)
                return
            # a mana ability making mana of a colour to choose (106.1b): the colour
            if (
                ab[a, B_KIND] == AB_MANA
                and o[it, F_MODES] == 0
                and popcount(mana_colors(st, cd, it)) > 1
            ):
                _ask(st, PEND_COLOR, p)
                return
            s[S_CAST_STAGE] = CAST_CONSPIRE
            s[S_CAST_SLOT] = 0  # (the instances of conspire asked about)
            s[S_CAST_N] = 0  # (1, 2: the first, the second creature to tap is chosen next)
        elif stage == CAST_CONSPIRE:
            if s[S_CAST_KIND] == CK_SPELL and s[S_NEEDS] & NEED_CONSPIRE:
                if s[S_CAST_N] > 0:
                    _ask(st, PEND_CHOOSE_OBJECT, p)
                    return
                if s[S_CAST_SLOT] < conspire_instances(st, cd, it) and conspire_payable(st, cd, it):
                    _ask(st, PEND_YES_NO, p)
                    return
            s[S_CAST_STAGE] = CAST_PAY
        else:
            finish(st, cd)
            return


@kernel(inline="always")
def _ask(st, kind, who):
    st.s[S_PEND] = kind
    st.s[S_PPLAYER] = who


@kernel
def _ask_chooser(st, cd, it, p):
    """801.5a: the caster names an opponent within their range to make the choices;
    801.5c: with none in range, the closest opponent to the left does, unasked.
    Returns whether a decision is pending."""
    n = 0
    for q in range(st.pl.shape[0]):
        if players.is_opponent(st, p, q) and players.in_range(st, p, q):
            n += 1
    if n > 0:
        _ask(st, PEND_CHOOSE_PLAYER, p)
        return True
    q = players.next_in_turn_order(st, p)
    while q >= 0 and q != p and not players.is_opponent(st, p, q):
        q = players.next_in_turn_order(st, q)
    st.o[it, F_CHOOSER] = q if q != p else -1
    return False


@kernel
def chooser_options(st, p, out):
    """The opponents p may name to choose (in turn order from p)."""
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, p, buf)
    m = 0
    for j in range(k):
        q = buf[j]
        if players.is_opponent(st, p, q) and players.in_range(st, p, q):
            out[m] = q
            m += 1
    return m


@kernel
def mode_options(st, cd, it, out):
    """Modes not chosen yet whose targets exist (index order)."""
    a = _ability(st, it)
    o = st.o
    p = o[it, F_ICTL]
    src = zones.is_source_of(st, it)
    m = 0
    if cd.ab[a, B_CHOOSE] < 0 and st.s[S_CAST_MODE] >= 1:  # "one or more": may stop
        out[m] = MODES_DONE
        m += 1
    for k in range(cd.ab[a, B_NMODES]):
        if (o[it, F_MODES] >> k) & 1:
            continue
        if _specs_feasible(st, cd, cd.ab[a, B_MODES0] + k, p, src, it):
            out[m] = k
            m += 1
    return m


MODES_DONE = -1  # the PEND_MODE option that ends a "choose one or more"


@kernel
def mana_colors(st, cd, it):
    """The colours (bits, W..C) the mana ability being activated as stack object it
    can make."""
    a = st.o[it, F_IAB]
    bits, n = mana.ability_mana(st, cd, st.o[it, F_SRC], a)
    return bits


@kernel
def color_options(st, cd, it, out):
    """The colours to choose from for mana ability it (W U B R G C order)."""
    bits = mana_colors(st, cd, it)
    m = 0
    for c in range(N_MANA):
        if (bits >> c) & 1:
            out[m] = c
            m += 1
    return m


@kernel
def _mana_ability(st, cd, it, p):
    """Its costs are paid: the mana goes into the pool at once (605.3b) and the player
    keeps priority; the object that stood for it while its costs were chosen is gone."""
    s, o, ab = st.s, st.o, cd.ab
    a = o[it, F_IAB]
    src = o[it, F_SRC]
    made = -1  # (a type it made)
    if ab[a, B_MANA] == MANA_FIXED and ab[a, B_MANA_AMT] < 0:
        for c in range(N_MANA):
            if ab[a, B_MANA_A + c]:
                mana.add_mana(st, p, c, ab[a, B_MANA_A + c])
                if made < 0:
                    made = c
    else:
        bits, n = mana.ability_mana(st, cd, src, a)
        c = o[it, F_MODES] - 1
        if c < 0:
            c = lowest_bit(bits)
        mana.add_mana(st, p, c, n)
        made = c if n > 0 else -1
    if made >= 0 and ab[a, B_TAP] == 1 and s[S_CASUAL] and src >= 0:  # tapped for mana:
        extra = mana.tapped_for_mana_plus(st, cd, src)  # one more of a type it made
        if extra > 0:
            mana.add_mana(st, p, made, extra)
    zones.cease(st, cd, it)
    touch(st)
    s[S_PASSES] = 0
    s[S_PRIO] = p
    s[S_TODO] = TODO_PRIORITY


@kernel
def _more_modes(st, cd, it, a):
    """Are more modes to be chosen (700.2: exactly B_CHOOSE; B_CHOOSE < 0: one or more,
    while the caster hasn't stopped and a mode with targets remains)?"""
    n = cd.ab[a, B_CHOOSE]
    k = st.s[S_CAST_MODE]
    if n > 0:
        return k < n
    if k >= -n:
        return False
    buf = np.empty(cd.ab[a, B_NMODES] + 1, np.int64)
    return mode_options(st, cd, it, buf) > (1 if k >= 1 else 0)


@kernel
def _became_targets(st, cd, it, p):
    """ "Whenever this becomes the target of a spell or ability" (ward, 702.21): once
    for each object it targets."""
    o = st.o
    for k in range(o[it, F_NT]):
        t = o[it, F_T0 + k]
        if t >= 0 and t != NO_TARGET and o[t, F_ZONE] == BATTLEFIELD:
            triggers.event(st, cd, EV_BECOMES_TARGET, t, p, it, o[t, F_CTL])
    for k in range(st.s[S_NDV]):  # (the targets of a divided amount: a row each)
        t = st.dv[k, V_TARGET]
        if st.dv[k, V_ITEM] == it and t >= 0 and o[t, F_ZONE] == BATTLEFIELD:
            triggers.event(st, cd, EV_BECOMES_TARGET, t, p, it, o[t, F_CTL])


@kernel
def x_count(st, cd, it):
    """How many {X} the cost of stack object it has (107.3)."""
    o = st.o
    if st.s[S_CAST_KIND] == CK_SPELL:
        a = o[it, F_IAB]
        if a >= 0 and cd.ab[a, B_KIND] != AB_SPELL:
            return cd.ab[a, B_XS]
        return cd.ct[o[it, F_CARD], C_XS]
    return cd.ab[o[it, F_IAB], B_XS]


@kernel
def total_cost(st, cd, it, out):
    """601.2f: the total mana cost of stack object it with its choices so far (X, kicker)."""
    o = st.o
    p = o[it, F_ICTL]
    kind = st.s[S_CAST_KIND]
    if kind == CK_SPELL:
        src = it
        a = o[it, F_IAB]
        option = CAST_NORMAL
        if a >= 0 and cd.ab[a, B_KIND] == AB_ALT_SPELL:
            option = CAST_ALTERNATIVE
        elif a >= 0 and cd.ab[a, B_KIND] == AB_MUTATE:
            option = CAST_MUTATE
        elif a >= 0 and cd.ab[a, B_KIND] == AB_FLASHBACK:
            option = CAST_FLASHBACK
        elif o[it, F_FLASHBACK]:  # (flashback a plane gives: its mana cost, Otaria)
            option = CAST_FLASHBACK_MANA
        zone = o[it, F_ZONE]
        o[it, F_ZONE] = o[it, F_FROM]  # (the tax and cost changes look at where it was)
        xs = base_cost(st, cd, p, src, a, option, out)
        o[it, F_ZONE] = zone
        if o[it, F_KICKED] == 1:
            c = o[it, F_CARD]
            for k in range(N_MANA + 1):
                out[k] += cd.ct[c, C_KICKER + k]
    elif kind == CK_ABILITY:
        xs = base_cost(st, cd, p, o[it, F_SRC], o[it, F_IAB], -1, out)
    else:
        for k in range(min(out.shape[0], COST_W)):  # (a trigger: no cost, hybrid cells too)
            out[k] = 0
        xs = 0
    out[0] += xs * o[it, F_X]


@kernel
def x_options(st, cd, it, out):
    """Values of X the caster could pay, 0 up (at most len(out))."""
    p = st.o[it, F_ICTL]
    cost = st.scr[SCR_COST]
    keep = st.o[it, F_X]
    st.o[it, F_X] = 0
    total_cost(st, cd, it, cost)
    st.o[it, F_X] = keep
    xs = x_count(st, cd, it)
    tapped = _taps_source(st, cd, it)  # {X}, {T}: the source's own mana doesn't count
    if tapped >= 0:
        continuous_effects.recompute(st, cd)
        mana.forget_sources(st)
        st.o[tapped, F_TAPPED] = 1
    avail = mana.total_available(st, cd, p)
    m = 0
    for x in range(min(out.shape[0], MAX_X + 1)):
        if not mana.can_pay(st, cd, p, cost, x * xs):
            break
        out[m] = x
        m += 1
        if x * xs > avail:
            break
    if tapped >= 0:
        st.o[tapped, F_TAPPED] = 0
        mana.forget_sources(st)
    return m


@kernel(inline="always")
def _taps_source(st, cd, it):
    """The untapped source of activated ability ``it`` whose cost includes {T}; -1 if none."""
    o = st.o
    a, src = o[it, F_IAB], o[it, F_SRC]
    if a < 0 or src < 0 or cd.ab[a, B_KIND] != AB_ACTIVATED or cd.ab[a, B_TAP] != 1:
        return -1
    return src if o[src, F_TAPPED] == 0 else -1


@kernel
def kicker_affordable(st, cd, p, it):
    cost = st.scr[SCR_COST]
    st.o[it, F_KICKED] = 1
    total_cost(st, cd, it, cost)
    st.o[it, F_KICKED] = 0
    return mana.can_pay(st, cd, p, cost, 0)


@kernel
def target_options(st, cd, it, spec, decider, src, out, limit):
    """Legal choices for the next target of spec: its candidates (in the decider's
    range too, 801.5a) not chosen already for this spec (115.3) nor, for a spec that
    wants different objects, for any earlier one."""
    o = st.o
    p = o[it, F_ICTL]
    buf = st.scr[SCR_TARGET_CANDIDATES]
    k = targets.candidates(st, cd, spec, p, decider, src, it, buf, st.s[S_N] + st.pl.shape[0] + 1)
    m = 0
    diff = cd.tg[spec, G_DIFFERENT]
    one_each = cd.tg[spec, G_ONE_PER_PLAYER]  # no two with the same owner
    most = cd.tg[spec, G_TOTAL_POWER]  # Nethroi: their total power at most this
    partner = _partner_spec(st, cd, it, spec)
    power = 0
    if most > 0:
        for t in range(o[it, F_NT]):
            if o[it, F_TSPEC + t] == spec and o[it, F_T0 + t] >= 0:
                power += o[o[it, F_T0 + t], F_POW]
    for j in range(k):
        x = buf[j]
        taken = False
        for t in range(o[it, F_NT]):
            if o[it, F_T0 + t] == x and (o[it, F_TSPEC + t] == spec or diff):
                taken = True
            y = o[it, F_T0 + t]
            if one_each and x >= 0 and y >= 0 and o[it, F_TSPEC + t] == spec:
                if o[y, F_OWNER] == o[x, F_OWNER]:
                    taken = True
        if most > 0 and x >= 0 and power + o[x, F_POW] > most:
            taken = True
        if (
            not taken
            and partner >= 0
            and not _has_partner(st, cd, it, spec, partner, x, decider, src)
        ):
            taken = True  # (no target left for the spec that must share a type with it)
        if not taken and m < limit:
            out[m] = x
            m += 1
    return m


@kernel
def _partner_spec(st, cd, it, spec):
    """The target spec right after spec when its targets must share a card type with
    spec's (Cliffside Market); -1 if none."""
    a = st.o[it, F_IAB]
    if a < 0:
        return -1
    k = spec - cd.ab[a, B_TG0]
    nxt = spec + 1
    if k < 0 or k + 1 >= cd.ab[a, B_NTG]:
        return -1
    return nxt if cd.fl[cd.tg[nxt, G_FILTER], L_SHARES_TYPE] == 1 + k else -1


@kernel
def _has_partner(st, cd, it, spec, nxt, x, decider, src):
    """Would choosing x for spec leave a legal target for spec nxt (601.2c: a choice
    that leaves none can't be made)? x is tried as the chosen target, then taken back."""
    o = st.o
    n = o[it, F_NT]
    if n >= MAX_TARGETS:
        return True
    t0, ts0 = o[it, F_T0 + n], o[it, F_TSPEC + n]
    o[it, F_T0 + n] = x
    o[it, F_TSPEC + n] = spec
    o[it, F_NT] = n + 1
    buf = np.empty(st.s[S_N] + st.pl.shape[0] + 1, np.int64)
    k = targets.candidates(st, cd, nxt, o[it, F_ICTL], decider, src, it, buf, buf.shape[0])
    ok = False
    for j in range(k):
        if buf[j] != x:
            ok = True
    o[it, F_NT] = n
    o[it, F_T0 + n] = t0
    o[it, F_TSPEC + n] = ts0
    return ok


@kernel
def sacrifice_options(st, cd, it, out):
    """What the activating player may sacrifice to pay ability it's cost."""
    o = st.o
    p = o[it, F_ICTL]
    f = cd.ab[o[it, F_IAB], B_SAC]
    m = 0
    if cd.fl[f, L_ZONE] == HAND:  # a card of their hand to exile (Sovereign's Realm)
        for j in zones.hand_of(st, p):
            if selectors.matches(st, cd, f, j, p, o[it, F_SRC], -1):
                out[m] = j
                m += 1
        return m
    for j in continuous_effects.held_by(st, p):
        if selectors.matches(st, cd, f, j, p, o[it, F_SRC], -1):
            out[m] = j
            m += 1
    return m


@kernel
def _drop_trigger(st, cd, it):
    """603.3d: a triggered ability with no legal targets is removed from the stack."""
    s = st.s
    s[S_CASTING] = -1
    s[S_PEND] = PEND_NONE
    zones.cease(st, cd, it)
    stack.triggers_continue(st, cd)


# ----------------------------------------------------------------- conspire (702.78)
@kernel
def conspire_instances(st, cd, it):
    """How many instances of conspire spell it has (702.78b: each is paid separately):
    printed on its card, and one for each static ability of a face-up command-zone card
    or a permanent that gives it conspire ("each red or green instant or sorcery spell
    you cast has conspire": Wort, the Raidmother)."""
    if not st.s[S_NEEDS] & NEED_CONSPIRE:
        return 0
    p = st.o[it, F_ICTL]  # ("spells you cast": the statics of the caster's sources)
    n = cd.ct[st.o[it, F_CARD], C_CONSPIRE]
    return n + conspiracy.count_static(st, cd, ST_GRANT_CONSPIRE, p, it, False)


@kernel(inline="always")
def _conspirer(st, it, x):
    """702.78a: may x be tapped for spell it's conspire cost: an untapped creature its
    caster controls that shares a colour with it (summoning sickness doesn't matter:
    the cost has no {T}, 302.6)?"""
    o = st.o
    return (
        o[x, F_ZONE] == BATTLEFIELD
        and o[x, F_CTL] == o[it, F_ICTL]
        and (o[x, F_TYPES] & T_CREATURE) != 0
        and o[x, F_TAPPED] == 0
        and (o[x, F_COLORS] & o[it, F_COLORS] & COLOR_MASK) != 0
    )


COLOR_MASK = (1 << len(COLOR_LETTERS)) - 1


@kernel
def _conspirers(st, cd, it, out):
    """The creatures that may be tapped for conspire now (id order)."""
    continuous_effects.recompute(st, cd)
    m = 0
    for x in continuous_effects.held_by(st, st.o[it, F_ICTL]):
        if _conspirer(st, it, x):
            out[m] = x
            m += 1
    return m


@kernel
def _payable_tapped(st, cd, it, xs, m):
    """Could spell it's total cost still be paid with the m creatures xs tapped for
    conspire (601.2g-h: a creature tapped for a cost makes no mana toward it)?"""
    o = st.o
    cost = st.scr[SCR_COST]
    total_cost(st, cd, it, cost)
    continuous_effects.recompute(st, cd)
    mana.forget_sources(st)
    for k in range(m):
        o[xs[k], F_TAPPED] = 1
    ok = mana.can_pay(st, cd, o[it, F_ICTL], cost, 0)
    for k in range(m):
        o[xs[k], F_TAPPED] = 0
    mana.forget_sources(st)
    return ok


@kernel
def conspire_options(st, cd, it, out):
    """The creatures the caster may tap next for conspire: the first of the two only
    if a second one is left with which the spell can still be paid for; the second,
    one with which it can (the first is tapped already)."""
    buf = np.empty(st.s[S_N] + 1, np.int64)
    n = _conspirers(st, cd, it, buf)
    pair = np.empty(2, np.int64)
    m = 0
    if st.s[S_CAST_N] >= 2:
        for j in range(n):
            pair[0] = buf[j]
            if _payable_tapped(st, cd, it, pair, 1):
                out[m] = buf[j]
                m += 1
        return m
    if n >= 2 and _payable_tapped(st, cd, it, buf, n):  # (tapping them all leaves enough)
        for j in range(n):
            out[m] = buf[j]
            m += 1
        return m
    for j in range(n):
        for k in range(n):
            if k != j:
                pair[0] = buf[j]
                pair[1] = buf[k]
                if _payable_tapped(st, cd, it, pair, 2):
                    out[m] = buf[j]
                    m += 1
                    break
    return m


@kernel
def conspire_payable(st, cd, it):
    """Can the conspire cost be paid (two creatures to tap, the spell still paid for)?"""
    out = np.empty(st.s[S_N] + 1, np.int64)
    return conspire_options(st, cd, it, out) > 0


@kernel
def _tap_for_conspire(st, it, x):
    """601.2h: x is tapped to pay conspire; with the second, the instance is paid."""
    s = st.s
    st.o[x, F_TAPPED] = 1
    mana.forget_sources(st)
    bump(st)
    if s[S_CAST_N] == 1:
        s[S_CAST_N] = 2
    else:
        s[S_CAST_N] = 0
        st.o[it, F_CONSPIRED] += 1
        s[S_CAST_SLOT] += 1


# ----------------------------------------------------------------- answers
@kernel
def answer(st, cd, kind, x):
    """The decider chose x for the pending casting decision (an opponent, a mode, kicker
    yes/no, X, a target or NO_TARGET for "no more", a permanent to sacrifice, conspire
    yes/no, a creature to tap for conspire)."""
    s, o = st.s, st.o
    it = s[S_CASTING]
    s[S_PEND] = PEND_NONE
    if kind == PEND_CHOOSE_PLAYER:
        o[it, F_CHOOSER] = x
    elif kind == PEND_MODE:
        if x == MODES_DONE:  # "one or more": no more modes
            s[S_CAST_MODE] = 1 << 20
        else:
            o[it, F_MODES] |= 1 << x
            s[S_CAST_MODE] += 1
    elif kind == PEND_KICKER:
        o[it, F_KICKED] = 1 if x else 0
    elif kind == PEND_X:
        o[it, F_X] = x
    elif kind == PEND_TARGET:
        spec = s[S_PA]
        if x == NO_TARGET:  # an "up to" spec: no more
            s[S_CAST_SLOT] += 1
            s[S_CAST_N] = 0
        elif cd.tg[spec, G_DIVIDE] > 0:
            _divide_one(st, it, spec, x)
        else:
            _add_target(st, it, spec, x)
    elif kind == PEND_YES_NO:  # conspire (702.78a): pay this instance or not
        if x:
            s[S_CAST_N] = 1
        else:
            s[S_CAST_SLOT] += 1
    elif kind == PEND_CHOOSE_OBJECT and s[S_CAST_STAGE] == CAST_CONSPIRE:
        _tap_for_conspire(st, it, x)
    elif kind == PEND_CHOOSE_OBJECT:
        o[it, F_EVO] = x
    elif kind == PEND_COLOR:
        o[it, F_MODES] = x + 1
    advance(st, cd)


@kernel
def divided_total(st, cd, it, spec):
    """601.2d: the amount stack object it divides among the targets of spec (Grand
    Ossuary: the dying creature's power, as it last existed)."""
    src = zones.is_source_of(st, it)
    return selectors.amount(st, cd, cd.tg[spec, G_DIVIDE] - 1, st.o[it, F_ICTL], src, it)


@kernel
def may_stop_targets(st, cd, spec):
    """Can the decider choose no more targets for spec now? An "up to" spec, yes; a
    divided amount only before any of it is given (then zero targets: 601.2c, 601.2d;
    once a target is chosen, all of it must be distributed)."""
    if cd.tg[spec, G_UP_TO] != 1:
        return False
    return cd.tg[spec, G_DIVIDE] == 0 or st.s[S_CAST_N] == 0


@kernel
def _divide_one(st, it, spec, x):
    """One more of the divided amount to target x (a new target: a new row, 601.2d)."""
    dv = st.dv
    st.s[S_CAST_N] += 1
    for k in range(st.s[S_NDV]):
        if dv[k, V_ITEM] == it and dv[k, V_TARGET] == x:
            dv[k, V_AMOUNT] += 1
            return
    if st.s[S_NDV] >= dv.shape[0]:
        drop_divisions(st, -1)  # (the rows of objects countered, no longer on the stack)
    k = new_row(st, dv, S_NDV)
    if k >= 0:
        dv[k, V_ITEM] = it
        dv[k, V_TARGET] = x
        dv[k, V_SPEC] = spec
        dv[k, V_AMOUNT] = 1


@kernel
def copy_divisions(st, x, j):
    """Copy j of stack object x divides its amount as x does (707.10)."""
    dv = st.dv
    for k in range(st.s[S_NDV]):
        if dv[k, V_ITEM] == x:
            n = new_row(st, dv, S_NDV)
            if n < 0:
                return
            copy_into(dv[n], dv[k], dv.shape[1])
            dv[n, V_ITEM] = j


@kernel
def drop_divisions(st, it):
    """Forget how stack object it divided its amount (it has left the stack); it = -1:
    of every object no longer on the stack."""
    dv, s = st.dv, st.s
    k = 0
    while k < s[S_NDV]:
        x = dv[k, V_ITEM]
        if x == it or (it < 0 and st.o[x, F_ZONE] != STACK):
            s[S_NDV] = delete_row(dv, k, s[S_NDV])
        else:
            k += 1


@kernel(inline="always")
def _add_target(st, it, spec, x):
    o = st.o
    n = o[it, F_NT]
    o[it, F_T0 + n] = x
    o[it, F_TSPEC + n] = spec
    o[it, F_NT] = n + 1
    st.s[S_CAST_N] += 1


# ----------------------------------------------------------------- paying and done
@kernel
def finish(st, cd):
    """601.2g-i: pay the total cost, and the spell is cast (the ability activated, the
    trigger on the stack): cast triggers, priority to its controller (117.3c)."""
    s, o, ab = st.s, st.o, cd.ab
    it = s[S_CASTING]
    p = o[it, F_ICTL]
    kind = s[S_CAST_KIND]
    s[S_CASTING] = -1
    o[it, F_CASTING] = 0
    s[S_PEND] = PEND_NONE
    _became_targets(st, cd, it, p)
    if kind == CK_TRIGGER:
        stack.triggers_continue(st, cd)
        return
    cost = st.scr[SCR_COST]
    total_cost(st, cd, it, cost)
    if kind == CK_ABILITY:  # 601.2g-h: a {T} in the cost: the source taps for it, not for mana
        tapped = _taps_source(st, cd, it)
        if tapped >= 0:
            o[tapped, F_TAPPED] = 1
    spent = mana.pay(st, cd, p, cost, 0)
    o[it, F_SPENT] = spent if spent > 0 else 0
    if kind == CK_ABILITY:
        a = o[it, F_IAB]
        i = o[it, F_SRC]
        if ab[a, B_TAP] == 1:
            o[i, F_TAPPED] = 1
        elif ab[a, B_TAP] == 2:
            o[i, F_TAPPED] = 0
        if ab[a, B_HASLOY]:
            zones.add_counters(st, cd, i, CTR_LOYALTY, ab[a, B_LOY])
            o[i, F_LOYUSED] = 1
        if ab[a, B_RMCTR] >= 0:
            zones.add_counters(st, cd, i, ab[a, B_RMCTR], -ab[a, B_RMN])
        o[i, F_ACTUSED] |= 1 << ab[a, B_INDEX]
        life = ab[a, B_LIFE]
        if life == -2:
            life = (players.life(st, p) + 1) // 2
        if life > 0:
            damage.pay_life(st, cd, p, life)
        if ab[a, B_DISCARD_SELF] and o[i, F_ZONE] == HAND:  # cycling (702.29a)
            zones.discard(st, cd, i)
        if ab[a, B_SAC] == SAC_SELF:
            zones.move(st, cd, i, GRAVEYARD, -1)
        elif ab[a, B_SAC] >= 0 and o[it, F_EVO] >= 0:
            x = o[it, F_EVO]
            zones.move(st, cd, x, EXILE if o[x, F_ZONE] == HAND else GRAVEYARD, -1)
        if ab[a, B_KIND] == AB_MANA:  # 605.3b: a mana ability doesn't use the stack
            _mana_ability(st, cd, it, p)
            return
    else:
        st.pl[p, P_SPELLS] += 1
        for q in range(st.pl.shape[0]):  # (I Bask in Your Silent Awe: since q's last turn)
            if q != p and players.is_opponent(st, q, p):
                st.pl[q, P_OPP_SPELLS_SINCE] += 1
        if o[it, F_TYPES] & T_CREATURE:
            st.pl[p, P_CREATURE_SPELLS] += 1
        variants.spell_cast(st, p, it)  # 903.8: a cast from the command zone counts
        triggers.event(st, cd, EV_CAST, it, p, 0, p)
        # 702.78a: "when you cast this spell, if its conspire cost was paid, copy it": once
        # for each instance paid (702.78b); the ability row every cards arena has
        for _ in range(o[it, F_CONSPIRED]):
            triggers.queue(st, it, cd.ab.shape[0] - AB_FROM_END_CONSPIRE, p, p, 0, it, p)
        if s[S_RES] >= 0:  # cast as an ability resolves (118.9): the resolution goes on
            touch(st)
            return
    touch(st)
    s[S_PASSES] = 0
    s[S_PRIO] = p
    s[S_TODO] = TODO_PRIORITY
