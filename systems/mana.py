"""Mana (106), mana abilities (605), costs and paying them (601.2f-h, 118), the
commander tax (903.8) and cost changes (601.2f).

A player's mana sources are the mana in their pool and the permanents whose mana
abilities they could activate now (tapping: untapped, and not summoning sick if a
creature, 302.6). Each source makes ``amount`` mana of one colour out of a set. A
cost is payable when Hall's condition holds for every set of colours it needs
(``feasible``: 64 subsets of W U B R G C), and it is paid source by source, each
choice kept only if what remains is still payable, so the automatic payment never
paints itself into a corner. Sources are tried least flexible first, then in
object-id order (a documented default); a scenario may name the sources to tap."""

from __future__ import annotations

from components.cards import (
    AB_MANA,
    B_COST,
    B_GRANT,
    B_KIND,
    B_LIFE,
    B_MANA,
    B_MANA_A,
    B_MANA_AMT,
    B_MANA_N,
    B_RMCTR,
    B_SAC,
    B_TAP,
    C_AB0,
    C_LANDMANA,
    C_NAB,
    C_SUPER,
    COST_W,
    MANA_ANY,
    MANA_FIXED,
    MANA_IDENTITY,
    MANA_LAND_COULD,
    MANA_NOTED,
    MANA_ONE_OF,
    NHYB,
    ST_BASIC_ANY_COLOR,
    ST_LAND_MANA_PLUS,
    ST_PERM_MANA_PLUS,
)
from components.game import (
    NEED_GRANTED,
    S_CASUAL,
    S_LDIRTY,
    S_MANA_SRC,
    S_MANA_SRC_N,
    S_NEEDS,
)
from components.objects import (
    F_CARD,
    F_CTL,
    F_KW,
    F_PAY_FIRST,
    F_SICK,
    F_TAPPED,
    F_TYPES,
    F_ZONE,
)
from components.players import P_IDENTITY, P_MANA
from components.rules import (
    BATTLEFIELD,
    GRAVEYARD,
    KW_HASTE,
    N_MANA,
    S_BASIC,
    T_CREATURE,
    T_LAND,
)
from components.scratch import (
    SCR_MANA_AMTS,
    SCR_MANA_BITS,
    SCR_MANA_IDS,
    SCR_MANA_KEY,
    SCR_MANA_LEFT,
    SCR_MANA_NEED,
    SCR_MANA_ORDER,
    SCR_MANA_TAKEN,
    SCR_MANA_USED,
)
from systems import (
    command_zone,
    continuous_effects,
    players,
    selectors,
    zones,
)
from systems.jit import kernel
from systems.state import bump, copy_into, lowest_bit, popcount

ALL_COLORS = 63  # W U B R G C


@kernel
def ability_mana(st, cd, i, a):
    """What mana ability ``a`` of permanent i makes: (colour bits, amount)."""
    ab = cd.ab
    kind = ab[a, B_MANA]
    n = ab[a, B_MANA_N]
    if ab[a, B_MANA_AMT] >= 0:  # "add {G} for each ...": counted now
        n = selectors.amount(st, cd, ab[a, B_MANA_AMT], st.o[i, F_CTL], i, -1)
    if kind == MANA_FIXED:
        bits = 0
        tot = 0
        for c in range(N_MANA):
            if ab[a, B_MANA_A + c]:
                bits |= 1 << c
                tot += ab[a, B_MANA_A + c]
        if ab[a, B_MANA_AMT] >= 0:
            tot = n
        return bits, tot
    if kind == MANA_ANY:
        return 31, n
    if kind == MANA_ONE_OF:
        return ab[a, B_MANA_A], n
    if kind == MANA_IDENTITY:
        return st.pl[st.o[i, F_CTL], P_IDENTITY] & 31, n
    if kind == MANA_LAND_COULD:
        return lands_could_produce(st, cd, st.o[i, F_CTL]), n
    if kind == MANA_NOTED:  # colours the draft noted for cards named like i (905.2b)
        return selectors.noted_colors(st, st.o[i, F_CTL], st.o[i, F_CARD]) & 31, n
    return 0, 0


@kernel
def lands_could_produce(st, cd, p):
    """The colours of mana lands p's opponents control could produce (Exotic Orchard)."""
    bits = 0
    o = st.o
    for j in zones.permanents(st):
        if o[j, F_TYPES] & T_LAND and players.is_opponent(st, p, o[j, F_CTL]):
            c = o[j, F_CARD]
            if c >= 0:
                bits |= cd.ct[c, C_LANDMANA] & 31
    return bits


@kernel
def source_of(st, cd, i):
    """(colour bits, amount, ability row) of the mana permanent i can make now by
    tapping, with no other cost; (0, 0, -1) if none. Several such abilities (a dual
    land) count as one source of their colours together."""
    o, ct, ab = st.o, cd.ct, cd.ab
    if o[i, F_TAPPED] or o[i, F_ZONE] != BATTLEFIELD:
        return 0, 0, -1
    if o[i, F_TYPES] & T_CREATURE and o[i, F_SICK] and not o[i, F_KW] & KW_HASTE:
        return 0, 0, -1
    c = continuous_effects.face(st, cd, i)
    if c < 0:
        return 0, 0, -1
    bits = 0
    amt = 0
    first = -1
    for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
        if ab[a, B_KIND] != AB_MANA or manual(cd, a) or ab[a, B_GRANT] >= 0:
            continue  # (a mana ability it gives other permanents is theirs, not its own)
        b, n = ability_mana(st, cd, i, a)
        bits |= b
        if n > amt:
            amt = n
        if first < 0:
            first = a
    if st.s[S_NEEDS] & NEED_GRANTED:  # mana abilities other objects give it (grant_source)
        for k in range(continuous_effects.n_grant_sources(st)):
            g, cg = continuous_effects.grant_source(st, cd, k)
            if g < 0:
                continue
            for a in range(ct[cg, C_AB0], ct[cg, C_AB0] + ct[cg, C_NAB]):
                if ab[a, B_GRANT] < 0 or ab[a, B_KIND] != AB_MANA or ab[a, B_TAP] != 1:
                    continue
                if not continuous_effects.grants_to(st, cd, g, a, i):
                    continue
                b, n = ability_mana(st, cd, i, a)
                bits |= b
                if n > amt:
                    amt = n
                if first < 0:
                    first = a
    if amt > 0 and st.s[S_CASUAL]:
        amt += tapped_for_mana_plus(st, cd, i)
    if amt > 0 and o[i, F_TYPES] & T_LAND and st.s[S_CASUAL]:
        # Mirri (902.7): a basic land makes mana of a colour of its controller's choice
        # instead of any other type
        if ct[c, C_SUPER] & S_BASIC and command_zone.command_static(
            st, cd, o[i, F_CTL], ST_BASIC_ANY_COLOR
        ):
            bits = 31
    return bits, amt, first


@kernel
def tapped_for_mana_plus(st, cd, i):
    """How much more mana permanent i makes when tapped for mana, of a type it made:
    "whenever you tap a land for mana, add one more" (Sisay, 902.7; Selesnya Loft
    Gardens' chaos) and "whenever a player taps a permanent for mana" (Eloren Wilds)."""
    o = st.o
    p = o[i, F_CTL]
    n = command_zone.command_static(st, cd, p, ST_PERM_MANA_PLUS)
    if o[i, F_TYPES] & T_LAND:
        n += command_zone.command_static(st, cd, p, ST_LAND_MANA_PLUS)
    return n


@kernel(inline="always")
def manual(cd, a):
    """A mana ability the automatic payment doesn't use, activated by the player as an
    action (605.3a): one with a cost besides {T} (mana, sacrifice, life, counters), or
    making mana of two colours at once (a Signet's {W}{B})."""
    ab = cd.ab
    if ab[a, B_TAP] != 1 or ab[a, B_SAC] != -1 or ab[a, B_LIFE] != 0 or ab[a, B_RMCTR] >= 0:
        return True
    for k in range(N_MANA + 1):
        if ab[a, B_COST + k]:
            return True
    if ab[a, B_MANA] == MANA_FIXED:
        colors = 0
        for c in range(N_MANA):
            if ab[a, B_MANA_A + c]:
                colors += 1
        return colors > 1
    return False


@kernel
def source_of_tapped(st, cd, i):
    """source_of for a source just tapped to pay (which of its abilities was used)."""
    st.o[i, F_TAPPED] = 0
    r = source_of(st, cd, i)
    st.o[i, F_TAPPED] = 1
    return r


@kernel
def sources(st, cd, p, bits, amts, ids):
    """p's mana sources into the scratch rows (``bits``, ``amts``, ``ids``): found once
    per listing of p's options (legal_actions.priority_actions: every card and ability
    asks again, and nothing changes meanwhile), else anew. Returns how many."""
    s = st.s
    if s[S_MANA_SRC] == 2 + p and not s[S_LDIRTY]:
        return s[S_MANA_SRC_N]
    m = _sources(st, cd, p, bits, amts, ids)
    if s[S_MANA_SRC] > 0:
        s[S_MANA_SRC] = 2 + p
        s[S_MANA_SRC_N] = m
    return m


@kernel(inline="always")
def forget_sources(st):
    """The sources found may be stale (a source tapped for a look, a payment)."""
    if st.s[S_MANA_SRC] > 1:
        st.s[S_MANA_SRC] = 1


@kernel
def _sources(st, cd, p, bits, amts, ids):
    """p's mana sources: the pool first (one per colour with mana), then the permanents
    p controls (after recompute). Returns how many."""
    continuous_effects.recompute(st, cd)
    m = 0
    for c in range(N_MANA):
        if st.pl[p, P_MANA + c] > 0:
            bits[m] = 1 << c
            amts[m] = st.pl[p, P_MANA + c]
            ids[m] = -1 - c
            m += 1
    for i in continuous_effects.held_by(st, p):
        b, n, a = source_of(st, cd, i)
        if n > 0 and b:
            bits[m] = b
            amts[m] = n
            ids[m] = i
            m += 1
    return m


@kernel
def feasible(need, generic, bits, amts, m, used):
    """Can sources [:m] (those not ``used``) pay ``need`` (coloured, W U B R G C) plus
    ``generic``? The total, then Hall's condition for every set t of the colours the
    symbols ask for (a set with other colours too asks no more and finds no less, so
    these are enough: one set for a mono-coloured cost, not 63)."""
    total_need = generic
    asked = 0
    for c in range(N_MANA):
        total_need += need[c]
        if need[c]:
            asked |= 1 << c
    total = 0
    for j in range(m):
        if not used[j]:
            total += amts[j]
    for k in range(NHYB):  # hybrid symbols (colour bits of each in need[N_MANA + k])
        if need[N_MANA + k]:
            total_need += 1
            asked |= need[N_MANA + k] & 63
    if total < total_need:
        return False
    t = asked
    while t:
        req = 0
        for c in range(N_MANA):
            if t >> c & 1:
                req += need[c]
        for k in range(NHYB):  # a hybrid symbol needs a source of one of its colours
            h = need[N_MANA + k]
            if h and (h & ~t) == 0:
                req += 1
        if req > 0:
            cap = 0
            for j in range(m):
                if not used[j] and bits[j] & t:
                    cap += amts[j]
            if cap < req:
                return False
        t = (t - 1) & asked
    return True


@kernel
def can_pay(st, cd, p, cost, extra_generic):
    """Can p pay this mana cost (generic, W..C) plus ``extra_generic`` now?"""
    scr = st.scr
    bits, amts, ids = scr[SCR_MANA_BITS], scr[SCR_MANA_AMTS], scr[SCR_MANA_IDS]
    m = sources(st, cd, p, bits, amts, ids)
    used = scr[SCR_MANA_USED]
    used[:m] = 0
    need = scr[SCR_MANA_NEED]
    _needs(need, cost)
    return feasible(need, cost[0] + extra_generic, bits, amts, m, used)


@kernel(inline="always")
def _needs(need, cost):
    """The coloured symbols of cost, then its hybrid ones (0: none)."""
    for c in range(N_MANA):
        need[c] = cost[1 + c]
    for k in range(NHYB):
        need[N_MANA + k] = cost[N_MANA + 1 + k] if cost.shape[0] >= COST_W else 0


@kernel
def total_available(st, cd, p):
    """How much mana p could make now (for the largest X, 107.3)."""
    scr = st.scr
    bits, amts, ids = scr[SCR_MANA_BITS], scr[SCR_MANA_AMTS], scr[SCR_MANA_IDS]
    m = sources(st, cd, p, bits, amts, ids)
    t = 0
    for j in range(m):
        t += amts[j]
    return t


@kernel
def pay(st, cd, p, cost, extra_generic):
    """Pay a mana cost (generic, W..C) plus ``extra_generic``: coloured symbols first, each
    from the least flexible source that keeps the rest payable, then generic. Returns
    the mana spent (-1 if it can't be paid: nothing is tapped then)."""
    scr = st.scr
    bits, amts, ids = scr[SCR_MANA_BITS], scr[SCR_MANA_AMTS], scr[SCR_MANA_IDS]
    forget_sources(st)  # (the rows are spent from below)
    m = _sources(st, cd, p, bits, amts, ids)
    used = scr[SCR_MANA_USED]
    used[:m] = 0
    need = scr[SCR_MANA_NEED]
    _needs(need, cost)
    generic = cost[0] + extra_generic
    if not feasible(need, generic, bits, amts, m, used):
        return -1
    order = _by_flexibility(st, bits, ids, m)
    left = scr[SCR_MANA_LEFT]  # what each source still has this payment (multi-mana sources)
    copy_into(left, amts, m)
    taken = scr[SCR_MANA_TAKEN]
    taken[:m] = 0
    spent = 0
    for c in range(N_MANA):
        while need[c] > 0:
            ok = False
            for x in range(m):
                j = order[x]
                if used[j] or not (bits[j] >> c) & 1:
                    continue
                # try paying one {c} from j
                need[c] -= 1
                amts[j] -= 1
                if amts[j] == 0:
                    used[j] = 1
                if feasible(need, generic, bits, amts, m, used):
                    taken[j] = 1
                    spent += 1
                    ok = True
                    break
                need[c] += 1
                amts[j] += 1
                used[j] = 0
            if not ok:
                return -1
    for k in range(NHYB):  # hybrid symbols: the least flexible source of either colour
        h = need[N_MANA + k]
        if h == 0:
            continue
        ok = False
        for x in range(m):
            j = order[x]
            if used[j] or not (bits[j] & h):
                continue
            need[N_MANA + k] = 0
            amts[j] -= 1
            if amts[j] == 0:
                used[j] = 1
            if feasible(need, generic, bits, amts, m, used):
                taken[j] = 1
                spent += 1
                ok = True
                break
            need[N_MANA + k] = h
            amts[j] += 1
            used[j] = 0
        if not ok:
            return -1
    while generic > 0:
        ok = False
        for x in range(m):  # generic from the pool, then the least flexible sources
            j = order[x]
            if used[j]:
                continue
            generic -= 1
            amts[j] -= 1
            if amts[j] == 0:
                used[j] = 1
            taken[j] = 1
            spent += 1
            ok = True
            break
        if not ok:
            return -1
    # carry it out: pool mana spent, sources tapped (their unspent mana stays in the pool)
    for j in range(m):
        if not taken[j]:
            continue
        spent_here = left[j] - amts[j]
        i = ids[j]
        if i < 0:
            st.pl[p, P_MANA + (-1 - i)] -= spent_here
        else:
            st.o[i, F_TAPPED] = 1
            _, _, a = source_of_tapped(st, cd, i)
            if a >= 0 and cd.ab[a, B_SAC] == -2:  # Lotus Petal: {T}, sacrifice it
                zones.move(st, cd, i, GRAVEYARD, -1)
            if amts[j] > 0:  # a source that made more than was spent: the rest floats
                col = lowest_bit(bits[j])
                st.pl[p, P_MANA + col] += amts[j]
    bump(st)
    return spent


@kernel
def _by_flexibility(st, bits, ids, m):
    """Source indexes: the pool, then sources a script asked to tap first (F_PAY_FIRST),
    then fewest colours first, each in the order given (object id)."""
    order, key = st.scr[SCR_MANA_ORDER], st.scr[SCR_MANA_KEY]
    for j in range(m):
        order[j] = j
        first = ids[j] < 0 or st.o[ids[j], F_PAY_FIRST] == 1
        key[j] = (0 if first else 8) + popcount(bits[j])
    for x in range(m):
        for y in range(x + 1, m):
            a, b = order[x], order[y]
            if key[b] < key[a]:
                order[x], order[y] = b, a
    return order


@kernel
def add_mana(st, p, color, n):
    """106.4: mana goes into the pool."""
    st.pl[p, P_MANA + color] += n
    bump(st)
