"""Continuous effects and the layer system (611, 613), with the range of influence
(801.8-801.11): static abilities of permanents and of face-up command-zone cards,
and the effects of resolved spells and abilities (the ``eff`` table).

``recompute`` gives every permanent its characteristics: printed values (the back face
of a transformed card, 712.8), then layer 2 (control), 4 (types: animation), 6
(abilities: keyword grants), 7b (setting power and toughness), 7c (modifications,
counters), each in timestamp order (613.7); restrictions ("can't attack") last. It
runs only when something changed (``touch``), and groups the permanents by
controller (``held``) for the scans of one player's permanents."""

from __future__ import annotations

import numpy as np

from components.cards import (
    A_AMT,
    A_AMT2,
    A_ARG,
    A_IF,
    A_KIND,
    A_KW,
    A_P,
    A_PROT,
    A_REF,
    A_REFA,
    A_T,
    A_ZONE,
    B_GRANT,
    C_COLORS,
    C_FLAGS,
    C_KW,
    C_MV,
    C_NSA,
    C_POW,
    C_PROT,
    C_SA0,
    C_SUB,
    C_TOU,
    C_TYPES,
    CF_GRANTS,
    CF_LIVE_STATICS,
    NSUB,
    R_ATTACHED,
    R_EACH,
    R_SELF,
    ST_ARTIFACT_CREATURES,
    ST_CANT_ATTACK,
    ST_CANT_BE_BLOCKED,
    ST_CANT_BLOCK,
    ST_CHAR_PT,
    ST_COAT_OF_ARMS,
    ST_CONTROL,
    ST_GRANT,
    ST_PT_PER,
    ST_PUMP,
    ST_SET_COLOR,
    SUBTYPE_NONCREATURE,
)
from components.effects import (
    UNTIL_LEAVES,
    UNTIL_WHILE_CONTROLLED,
    X_ANIMATE,
    X_CANT_ATTACK,
    X_CANT_BLOCK,
    X_COLORS,
    X_CONTROL,
    X_COPY,
    X_CTL,
    X_KIND,
    X_KW,
    X_LOSE_KW,
    X_MUST_ATTACK,
    X_NEWCTL,
    X_OBJ,
    X_P,
    X_PUMP,
    X_RETYPE,
    X_SET_PT,
    X_SRC,
    X_SUB,
    X_T,
    X_TS,
    X_TYPES,
    X_UNTIL,
)
from components.game import (
    NEED_CONDITIONAL_STATICS,
    NEED_COPY_EFFECTS,
    NEED_GRANTED_BY_PERMANENTS,
    NEED_SUSPEND,
    S_KINDS_AT,
    S_LDIRTY,
    S_LIVE_STATICS,
    S_NBF,
    S_NCZ,
    S_NEEDS,
    S_NEFF,
    S_SDIRTY,
    S_VERSION,
    S_WASPLAIN,
)
from components.objects import (
    CANT_ATTACK,
    CANT_BLOCK,
    F_ANIMATED,
    F_ATKP,
    F_ATT,
    F_BCTL,
    F_BLOCKING,
    F_CARD,
    F_COLORS,
    F_COPY_OF,
    F_CTL,
    F_CTR,
    F_FACE_DOWN,
    F_KW,
    F_LCTL,
    F_MERGED,
    F_MUST_ATTACK_P,
    F_POW,
    F_PROT,
    F_RESTRICT,
    F_SICK,
    F_TOU,
    F_TS,
    F_TYPES,
    F_XSUB,
    F_ZONE,
    MUST_ATTACK,
)
from components.players import P_ALIVE, P_HELD0, P_NHELD
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    CTR_M1M1,
    CTR_P1P1,
    KW_CHANGELING,
    KW_UNBLOCKABLE,
    T_CREATURE,
    T_PHENOMENON,
    T_PLANE,
)
from components.scratch import (
    SCR_COA_EVERY,
    SCR_COA_N,
    SCR_COA_SEEN,
    SCR_COA_TYPES,
    SCR_STATIC_SOURCES,
)
from systems import merging, players, selectors, suspend, zones
from systems.jit import kernel
from systems.state import (
    delete_row,
)


@kernel(inline="always")
def recompute(st, cd):
    """The layers, if something changed since they last looked (the test is inlined:
    most calls find nothing to do)."""
    while st.s[S_LDIRTY]:  # (again when a control change ended an effect: _recompute)
        _recompute(st, cd)


@kernel(inline="always")
def _any(kinds, kind):
    """Might a static ability of this kind be among the sources' (C_SAMASK bits)?"""
    return (kinds >> (kind % 31)) & 1 != 0


@kernel(inline="always")
def _applies(o, ts, i):
    """An effect applies to an object that was on the battlefield when it began."""
    return o[i, F_ZONE] == BATTLEFIELD and o[i, F_TS] < ts


@kernel(inline="always")
def face(st, cd, i):
    """The card row whose characteristics object i has (selectors.face)."""
    return selectors.face(st, cd, i)


# ----------------------------------------------------------------- abilities given (613.1f)
@kernel(inline="always")
def n_grant_sources(st):
    """How many objects ``grant_source`` looks at: the command zone's, then (in games
    with permanents that give abilities) the battlefield's."""
    n = st.s[S_NCZ]
    if st.s[S_NEEDS] & NEED_GRANTED_BY_PERMANENTS:
        n += st.s[S_NBF]
    return n


@kernel
def grant_source(st, cd, k):
    """The k-th object that may give other permanents abilities (`granted`: "creatures
    you control with the chosen name have ...", a Background's "commander creatures you
    own have ...") and the card row whose abilities it has (a permanent's face, 707.2);
    (-1, -1) if it gives none now: a face-up card in the command zone (a conspiracy, a
    plane) or a face-up permanent (708.2: a face-down one has no abilities)."""
    o = st.o
    n = st.s[S_NCZ]
    g = st.cz[k] if k < n else st.bf[k - n]
    c = o[g, F_CARD] if k < n else face(st, cd, g)
    if c < 0 or o[g, F_FACE_DOWN] or not cd.ct[c, C_FLAGS] & CF_GRANTS:
        return -1, -1
    return g, c


@kernel
def grants_to(st, cd, g, a, i):
    """Does ability a that source g gives reach permanent i: it matches the ability's
    filter, and a permanent's gift reaches only permanents within its controller's
    range of influence (801.10)?"""
    o = st.o
    you = o[g, F_CTL]
    if o[g, F_ZONE] == BATTLEFIELD and not players.in_range(st, you, o[i, F_CTL]):
        return False
    return selectors.matches(st, cd, cd.ab[a, B_GRANT], i, you, g, -1)


@kernel
def _copy_effects(st, bf, ne):
    """Layer 1 (613.2a, 707.2): each permanent a copy effect applies to has the copiable
    values it copied (F_COPY_OF), the latest effect winning (613.7)."""
    o, eff = st.o, st.eff
    for i in bf:
        o[i, F_COPY_OF] = 0
    for k in range(ne):
        if eff[k, X_KIND] == X_COPY and _applies(o, eff[k, X_TS], eff[k, X_OBJ]):
            o[eff[k, X_OBJ], F_COPY_OF] = 1 + eff[k, X_P]


@kernel
def _recompute(st, cd):
    o, s, eff, ct = st.o, st.s, st.eff, cd.ct
    s[S_LDIRTY] = 0
    bf = st.bf[: s[S_NBF]]
    ne = s[S_NEFF]
    # base values: printed characteristics (or the back face), +1/+1 and -1/-1 counters
    # (613.4c: they add up, so their order doesn't matter); the sources of static
    # abilities, by timestamp
    srcs = st.scr[SCR_STATIC_SOURCES]
    m = 0
    if ne:
        ne = _end_effects(st)
    if s[S_NEEDS] & NEED_COPY_EFFECTS:
        _copy_effects(st, bf, ne)
        s[S_KINDS_AT] = 0  # (the faces may have changed: copies)
    kinds = selectors.static_kinds(st, cd)  # (a layer no source has a static for is skipped)
    live = 0  # (a source whose statics any change may answer differently: S_LIVE_STATICS)
    for i in bf:
        c = face(st, cd, i)
        o[i, F_CTL] = o[i, F_BCTL]
        o[i, F_RESTRICT] = 0
        o[i, F_MUST_ATTACK_P] = 0
        o[i, F_ANIMATED] = 0
        o[i, F_XSUB] = -1
        if c < 0:  # (708.2a: a face-down permanent is a 2/2 creature with no text)
            down = o[i, F_FACE_DOWN] == 1
            o[i, F_TYPES] = T_CREATURE if down else 0
            o[i, F_COLORS] = 0
            o[i, F_KW] = 0
            o[i, F_POW] = 2 if down else 0
            o[i, F_TOU] = 2 if down else 0
            o[i, F_PROT] = 0
            continue
        o[i, F_TYPES] = ct[c, C_TYPES]
        o[i, F_COLORS] = ct[c, C_COLORS]
        o[i, F_KW] = ct[c, C_KW]
        o[i, F_POW] = ct[c, C_POW]
        o[i, F_TOU] = ct[c, C_TOU]
        o[i, F_PROT] = ct[c, C_PROT]
        has_statics = ct[c, C_NSA] > 0
        live |= ct[c, C_FLAGS] & CF_LIVE_STATICS
        if merging.mutated(st, i):  # 702.140e: every component's abilities
            o[i, F_KW] |= merging.other_keywords(st, cd, i)
            has_statics = True
            live |= s[S_NEEDS] & NEED_CONDITIONAL_STATICS  # (a component's may be one)
        if has_statics:
            m = _add_source(st, srcs, m, i)
    for k in range(s[S_NCZ]):  # command-zone statics: emblems (114.4), conspiracies (905.4a)
        i = st.cz[k]
        c = face(st, cd, i)
        if c >= 0 and ct[c, C_NSA] and not o[i, F_FACE_DOWN]:
            m = _add_source(st, srcs, m, i)
            live |= ct[c, C_FLAGS] & CF_LIVE_STATICS
    s[S_LIVE_STATICS] = 1 if live else 0
    plain = ne == 0 and m == 0
    if plain and s[S_WASPLAIN]:
        _counters(st, bf)
        _group_by_controller(st)
        return
    s[S_WASPLAIN] = 1 if plain else 0
    # layer 2: control, statics and effects interleaved by timestamp
    k = 0
    for q in range(m + 1):
        limit = o[srcs[q], F_TS] if q < m else (1 << 30)
        while k < ne and eff[k, X_TS] < limit:
            if eff[k, X_KIND] == X_CONTROL:
                i = eff[k, X_OBJ]
                if _applies(o, eff[k, X_TS], i) and st.pl[eff[k, X_NEWCTL], P_ALIVE]:
                    o[i, F_CTL] = eff[k, X_NEWCTL]
            k += 1
        if q < m and _any(kinds, ST_CONTROL):
            _statics(st, cd, srcs[q], ST_CONTROL)
    # layer 4: types (animation: types and a subtype in addition; Karn's static
    # ability, 902.7); 5: colours added
    for q in range(m if _any(kinds, ST_ARTIFACT_CREATURES) else 0):
        _statics(st, cd, srcs[q], ST_ARTIFACT_CREATURES)
    for k in range(ne):
        if eff[k, X_KIND] == X_ANIMATE or eff[k, X_KIND] == X_RETYPE:
            i = eff[k, X_OBJ]
            if _applies(o, eff[k, X_TS], i):
                o[i, F_TYPES] |= eff[k, X_TYPES]
                o[i, F_ANIMATED] = 1
                if eff[k, X_SUB] >= 0:
                    o[i, F_XSUB] = eff[k, X_SUB]
                o[i, F_COLORS] |= eff[k, X_COLORS]
    # layer 5: colour (Onakke Catacomb)
    for q in range(m if _any(kinds, ST_SET_COLOR) else 0):
        _statics(st, cd, srcs[q], ST_SET_COLOR)
    # layer 6: abilities
    for q in range(m if _any(kinds, ST_GRANT) else 0):
        _statics(st, cd, srcs[q], ST_GRANT)
    # layer 7a: characteristic-defining power and toughness (604.3)
    for q in range(m if _any(kinds, ST_CHAR_PT) else 0):
        _statics(st, cd, srcs[q], ST_CHAR_PT)
    for k in range(ne):
        kind = eff[k, X_KIND]
        if kind == X_PUMP or kind == X_ANIMATE or kind == X_RETYPE:
            i = eff[k, X_OBJ]
            if _applies(o, eff[k, X_TS], i):
                o[i, F_KW] |= eff[k, X_KW]
        elif kind == X_LOSE_KW:  # "loses flying": after the grants before it (613.7)
            i = eff[k, X_OBJ]
            if _applies(o, eff[k, X_TS], i):
                o[i, F_KW] &= ~eff[k, X_KW]
    if s[S_NEEDS] & NEED_SUSPEND:
        for i in bf:
            suspend.haste(st, i)  # (702.62a: cast by suspend)
    # layer 7b: power and toughness set
    for k in range(ne):
        kind = eff[k, X_KIND]
        if kind == X_SET_PT or kind == X_ANIMATE:
            i = eff[k, X_OBJ]
            if _applies(o, eff[k, X_TS], i):
                o[i, F_POW] = eff[k, X_P]
                o[i, F_TOU] = eff[k, X_T]
    # layer 7c: modifications (statics, resolved effects, counters), restrictions
    for q in range(m if _any(kinds, ST_PUMP) or _any(kinds, ST_PT_PER) else 0):
        _statics(st, cd, srcs[q], ST_PUMP)
        _statics(st, cd, srcs[q], ST_PT_PER)
    for k in range(ne):
        kind = eff[k, X_KIND]
        i = eff[k, X_OBJ]
        if not _applies(o, eff[k, X_TS], i):
            continue
        if kind == X_PUMP:
            o[i, F_POW] += eff[k, X_P]
            o[i, F_TOU] += eff[k, X_T]
        elif kind == X_CANT_BLOCK:
            o[i, F_RESTRICT] |= CANT_BLOCK
        elif kind == X_CANT_ATTACK:
            o[i, F_RESTRICT] |= CANT_ATTACK
        elif kind == X_MUST_ATTACK:
            if eff[k, X_NEWCTL] >= 0:  # "attacks [that player] if able"
                o[i, F_MUST_ATTACK_P] = 1 + eff[k, X_NEWCTL]
            else:
                o[i, F_RESTRICT] |= MUST_ATTACK
    _counters(st, bf)
    for q in range(m if _any(kinds, ST_COAT_OF_ARMS) else 0):
        _statics(st, cd, srcs[q], ST_COAT_OF_ARMS)
    # restrictions last: "creatures with power 7 or greater can't attack" reads the final
    # power (after counters and every modification)
    restrict = _any(kinds, ST_CANT_ATTACK) or _any(kinds, ST_CANT_BLOCK)
    for q in range(m if restrict or _any(kinds, ST_CANT_BE_BLOCKED) else 0):
        _statics(st, cd, srcs[q], ST_CANT_ATTACK)
        _statics(st, cd, srcs[q], ST_CANT_BLOCK)
        _statics(st, cd, srcs[q], ST_CANT_BE_BLOCKED)
    # 302.6, 506.4: a permanent that changes controller is sick and leaves combat
    for i in bf:
        if o[i, F_CTL] != o[i, F_LCTL]:
            s[S_VERSION] += 1
            s[S_SDIRTY] = 1
            o[i, F_SICK] = 1
            o[i, F_LCTL] = o[i, F_CTL]
            if o[i, F_ATKP] >= 0 or o[i, F_BLOCKING] >= 0:
                zones.reset_combat(o, i)
            for k in range(s[S_NEFF]):  # 611.2b: "for as long as you control" i ends now
                if eff[k, X_SRC] == i and eff[k, X_UNTIL] == UNTIL_WHILE_CONTROLLED:
                    if eff[k, X_CTL] != o[i, F_CTL]:
                        s[S_LDIRTY] = 1  # (the layers look again without it: recompute)
    _group_by_controller(st)


@kernel(inline="always")
def _add_source(st, srcs, m, i):
    """Put static-ability source i among srcs[:m], kept in timestamp order."""
    o = st.o
    j = m
    while j > 0 and o[srcs[j - 1], F_TS] > o[i, F_TS]:
        srcs[j] = srcs[j - 1]
        j -= 1
    srcs[j] = i
    return m + 1


@kernel
def _end_effects(st):
    """Effects that no longer apply go: their object left the battlefield (a new
    object, 400.7), "for as long as this is on the battlefield" ones once the source
    left it (611.2b), "for as long as you control this" ones once its controller
    changed. Returns how many are left."""
    o, s, eff = st.o, st.s, st.eff
    k = 0
    while k < s[S_NEFF]:
        i = eff[k, X_OBJ]
        src = eff[k, X_SRC]
        until = eff[k, X_UNTIL]
        done = i >= 0 and not _applies(o, eff[k, X_TS], i)  # (X_OBJ -1: a player's effect)
        if until == UNTIL_LEAVES or until == UNTIL_WHILE_CONTROLLED:
            if src < 0 or o[src, F_ZONE] != BATTLEFIELD:
                done = True
            elif until == UNTIL_WHILE_CONTROLLED and o[src, F_CTL] != eff[k, X_CTL]:
                done = True
        if done:
            s[S_NEFF] = delete_row(eff, k, s[S_NEFF])
        else:
            k += 1
    return s[S_NEFF]


@kernel(inline="always")
def _counters(st, bf):
    o = st.o
    for i in bf:
        d = o[i, F_CTR + CTR_P1P1] - o[i, F_CTR + CTR_M1M1]
        if d:
            o[i, F_POW] += d
            o[i, F_TOU] += d


@kernel
def _statics(st, cd, src, kind):
    """Apply src's static abilities of this kind (801.11: only to what is within its
    controller's range of influence); a merged permanent's are those of every
    component (702.140e)."""
    o = st.o
    if merging.mutated(st, src):
        j = merging.top(st, src)
        while j >= 0:
            c = merging.card_face(st, cd, j)
            if c >= 0:
                _statics_of(st, cd, src, c, kind)
            j = o[j, F_MERGED]
        return
    _statics_of(st, cd, src, face(st, cd, src), kind)


@kernel
def _statics_of(st, cd, src, c, kind):
    o, ct, sa = st.o, cd.ct, cd.sa
    if not selectors.has_static(cd, c, kind):
        return  # (no static of this kind)
    you = o[src, F_CTL]
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] != kind or sa[r, A_ZONE] != o[src, F_ZONE]:
            continue
        if not selectors.holds(st, cd, sa[r, A_IF], you, src, -1):
            continue
        ref = sa[r, A_REF]
        if kind == ST_COAT_OF_ARMS:
            planar = o[src, F_ZONE] == COMMAND and (o[src, F_TYPES] & (T_PLANE | T_PHENOMENON))
            _coat_of_arms(st, cd, you, planar != 0)  # (Velis Vel: every creature, 901.13)
        elif ref == R_EACH:
            planar = o[src, F_ZONE] == COMMAND and (o[src, F_TYPES] & (T_PLANE | T_PHENOMENON))
            for i in st.bf[: st.s[S_NBF]]:
                if (planar or players.in_range(st, you, o[i, F_CTL])) and selectors.matches(
                    st, cd, sa[r, A_REFA], i, you, src, -1
                ):
                    _apply(st, cd, r, kind, i, you, src)
        else:
            i = src if ref == R_SELF else (o[src, F_ATT] if ref == R_ATTACHED else -1)
            if i >= 0 and o[i, F_ZONE] == BATTLEFIELD:
                _apply(st, cd, r, kind, i, you, src)


@kernel(inline="always")
def _apply(st, cd, r, kind, i, you, src):
    o, sa = st.o, cd.sa
    if kind == ST_PUMP:
        o[i, F_POW] += sa[r, A_P]
        o[i, F_TOU] += sa[r, A_T]
    elif kind == ST_GRANT:
        o[i, F_KW] |= sa[r, A_KW]
        o[i, F_PROT] |= sa[r, A_PROT]
    elif kind == ST_CHAR_PT:  # (its own object's: R_SELF)
        o[i, F_POW] = selectors.amount(st, cd, sa[r, A_AMT], you, src, -1)
        o[i, F_TOU] = selectors.amount(st, cd, sa[r, A_AMT2], you, src, -1)
    elif kind == ST_PT_PER:
        n = selectors.amount(st, cd, sa[r, A_AMT], you, src, -1)
        o[i, F_POW] += n * sa[r, A_P]
        o[i, F_TOU] += n * sa[r, A_T]
    elif kind == ST_CONTROL:
        if st.pl[you, P_ALIVE] and players.in_range(st, you, o[i, F_CTL]):  # 801.8
            o[i, F_CTL] = you
    elif kind == ST_CANT_ATTACK:
        o[i, F_RESTRICT] |= CANT_ATTACK
    elif kind == ST_SET_COLOR:
        o[i, F_COLORS] = sa[r, A_ARG]
    elif kind == ST_ARTIFACT_CREATURES:  # a creature with P/T equal to its mana value
        c = o[i, F_CARD]
        o[i, F_TYPES] |= T_CREATURE
        o[i, F_POW] = cd.ct[c, C_MV] if c >= 0 else 0
        o[i, F_TOU] = o[i, F_POW]
        o[i, F_ANIMATED] = 1
    elif kind == ST_CANT_BLOCK:
        o[i, F_RESTRICT] |= CANT_BLOCK
    elif kind == ST_CANT_BE_BLOCKED:  # (509.1b: checked as blockers are declared)
        o[i, F_KW] |= KW_UNBLOCKABLE


@kernel
def _coat_of_arms(st, cd, you, planar):
    """Each creature in range gets +1/+1 for each other creature there that shares a
    creature type with it (801.11: the creatures within the controller's range; a
    plane's, every creature: 901.13)."""
    o = st.o
    bf = st.bf[: st.s[S_NBF]]
    seen = st.scr[SCR_COA_SEEN]
    k = 0
    for i in bf:
        if o[i, F_TYPES] & T_CREATURE and (planar or players.in_range(st, you, o[i, F_CTL])):
            seen[k] = i
            k += 1
    # each one's creature types, looked up once (then k * k comparisons of short lists)
    w = NSUB + 1  # (creature x's types: cells x * w on)
    row = st.scr[SCR_COA_TYPES]
    types = row if k * w <= row.shape[0] else np.empty(k * w, np.int32)
    n = st.scr[SCR_COA_N]  # how many (-1: no card, shares nothing)
    every = st.scr[SCR_COA_EVERY]  # a changeling has every creature type (702.73a)
    for x in range(k):
        i = seen[x]
        n[x] = 0
        every[x] = 0
        c = face(st, cd, i)
        if c < 0:
            n[x] = -1
            continue
        every[x] = o[i, F_KW] & KW_CHANGELING != 0
        for a in range(w):
            t = _creature_type(st, cd, c, i, a)
            if t >= 0:
                types[x * w + n[x]] = t
                n[x] += 1
    for x in range(k):
        m = 0
        for y in range(k):
            if y != x and _share(types, n, every, x, y):
                m += 1
        o[seen[x], F_POW] += m
        o[seen[x], F_TOU] += m


@kernel(inline="always")
def _share(types, n, every, x, y):
    """shares_creature_type for two creatures of _coat_of_arms's lists."""
    if n[x] < 0 or n[y] < 0:
        return False
    if every[x] and every[y]:
        return True
    if every[x] or every[y]:
        return n[y] > 0 if every[x] else n[x] > 0
    w = NSUB + 1
    for a in range(n[x]):
        for b in range(n[y]):
            if types[x * w + a] == types[y * w + b]:
                return True
    return False


@kernel
def _creature_type(st, cd, c, i, a):
    """The a-th creature type of i (its card's subtypes, then one an effect gave it,
    layer 4); -1 where that one is none or not a creature type."""
    x = cd.ct[c, C_SUB + a] if a < NSUB else st.o[i, F_XSUB]
    return x if 0 <= x < SUBTYPE_NONCREATURE else -1


@kernel
def shares_creature_type(st, cd, i, j):
    """Do i and j have a creature type in common (a changeling has all of them,
    702.73a)?"""
    o = st.o
    ci, cj = face(st, cd, i), face(st, cd, j)
    if ci < 0 or cj < 0:
        return False
    ai = o[i, F_KW] & KW_CHANGELING
    aj = o[j, F_KW] & KW_CHANGELING
    if ai and aj:
        return True
    ni, nj = False, False
    for a in range(NSUB + 1):
        ni = ni or _creature_type(st, cd, ci, i, a) >= 0
        nj = nj or _creature_type(st, cd, cj, j, a) >= 0
    if ai or aj:
        return nj if ai else ni
    for a in range(NSUB + 1):
        x = _creature_type(st, cd, ci, i, a)
        if x < 0:
            continue
        for b in range(NSUB + 1):
            if _creature_type(st, cd, cj, j, b) == x:
                return True
    return False


@kernel(inline="always")
def _group_by_controller(st):
    """The permanents grouped by controller, each group in id order (``held``, from
    ``P_HELD0``, ``P_NHELD`` of them). Made with the layers (control is known then),
    so valid right after recompute()."""
    o, pl, held = st.o, st.pl, st.held
    bf = st.bf[: st.s[S_NBF]]
    for p in range(pl.shape[0]):
        pl[p, P_NHELD] = 0
    for i in bf:
        pl[o[i, F_CTL], P_NHELD] += 1
    k = 0
    for p in range(pl.shape[0]):
        pl[p, P_HELD0] = k
        k += pl[p, P_NHELD]
        pl[p, P_NHELD] = 0
    for i in bf:
        p = o[i, F_CTL]
        held[pl[p, P_HELD0] + pl[p, P_NHELD]] = i
        pl[p, P_NHELD] += 1


@kernel(inline="always")
def held_by(st, p):
    """p's permanents in id order (valid right after recompute())."""
    h0 = st.pl[p, P_HELD0]
    return st.held[h0 : h0 + st.pl[p, P_NHELD]]


@kernel
def player_static(st, cd, p, kind):
    """Does a static ability of this kind (cant_lose, no_max_hand...) that names its
    controller apply to player p? (Sources: permanents p controls.)"""
    recompute(st, cd)
    ct, sa = cd.ct, cd.sa
    for i in held_by(st, p):
        c = face(st, cd, i)
        if c < 0:
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == kind and sa[r, A_ZONE] == BATTLEFIELD:
                if selectors.holds(st, cd, sa[r, A_IF], p, i, -1):
                    return True
    return False


@kernel
def opponent_static(st, cd, p, kind):
    """Does an opponent of p within p's range control a permanent with this static
    ability naming its controller's opponents (Platinum Angel's "can't win", 801.10)?"""
    for q in range(st.pl.shape[0]):
        if q != p and st.pl[q, P_ALIVE] and players.is_opponent(st, p, q):
            if players.in_range(st, p, q) and player_static(st, cd, q, kind):
                return True
    return False
