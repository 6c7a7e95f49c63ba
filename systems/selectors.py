"""The nouns of the card vocabulary: filters ("creature an opponent controls"), references
("target player", "each opponent", "enchanted creature", "it"), amounts ("X", "the
number of Goblins you control") and conditions ("if you have 50 or more life").

Every evaluation happens for a *context*: the controller ``you`` of the spell or
ability, its source object ``src`` and the stack object ``item`` (-1 when there is
none yet: a trigger condition, a static ability). Players are written as codes
``-1 - p`` where objects and players mix (targets, "any target", damage recipients).
Objects in a zone other than the battlefield are matched on their printed
characteristics (the layers only change permanents)."""

from __future__ import annotations

import numpy as np

from components.cards import (
    AM_CHOSEN,
    AM_CHOSEN_NUMBER,
    AM_CONST,
    AM_COUNT,
    AM_COUNTERS,
    AM_CREATURE_SPELLS,
    AM_EVENT,
    AM_GRAVEYARD_TURN,
    AM_HALF_LIFE,
    AM_HAND,
    AM_LAST,
    AM_LIFE,
    AM_MANA_POOL,
    AM_MANA_SPENT,
    AM_MV,
    AM_NOTED,
    AM_OPP_DAMAGED,
    AM_OPP_SPELLS_SINCE,
    AM_POWER,
    AM_POWER_EXILED,
    AM_TOTAL_POWER,
    AM_TOUGHNESS,
    AM_X,
    B_TG0,
    C_BACK,
    C_FLAGS,
    C_MUTATE,
    C_MV,
    C_NAME_ID,
    C_SAMASK,
    C_SUB,
    C_SUPER,
    C_TRIGMASK,
    C_XS,
    CF_AURA,
    CMP_EQ,
    CMP_GE,
    CMP_LE,
    CO_ALL,
    CO_ANY,
    CO_ATTACKED_THIS_TURN,
    CO_CAST_THIS_TURN,
    CO_COMPARE,
    CO_COUNT_AT_LEAST,
    CO_DAMAGE_TAKEN,
    CO_DAY,
    CO_FIRST_TURN,
    CO_IN_ZONE,
    CO_IS,
    CO_KICKED,
    CO_LIFE_AT_LEAST,
    CO_MONARCH,
    CO_NIGHT,
    CO_NOT,
    CO_NOTED,
    CO_SELF_ATTACKED,
    CO_SELF_IN_ZONE,
    CO_SELF_UNTAPPED,
    CO_WHOLE_POOL,
    CO_YOUR_TURN,
    L_ANOTHER,
    L_ATTACKED,
    L_ATTACKING,
    L_COLOR,
    L_COLORLESS,
    L_COMBAT_DAMAGED,
    L_COMMANDER,
    L_CTL,
    L_CTL_REF,
    L_ENCHANTED,
    L_FACE_DOWN,
    L_KW,
    L_MUTATE,
    L_MV,
    L_NAME,
    L_NAMED,
    L_NO_COUNTER,
    L_NOT_COLOR,
    L_NOT_KW,
    L_NOT_REF,
    L_NOT_SUB,
    L_NOT_SUPER,
    L_NOT_TYPE,
    L_NOTED,
    L_NOTED_CARD,
    L_OR,
    L_OWNER,
    L_OWNER_REF,
    L_PLAYER,
    L_PLAYER_REF,
    L_POW,
    L_PUT_BY,
    L_SAME_NAME,
    L_SHARES_TYPE,
    L_SINGLE_TARGET,
    L_SUB,
    L_SUBGAME,
    L_SUPER,
    L_SUSPENDED,
    L_TAPPED,
    L_TOKEN,
    L_TOU,
    L_TYPE,
    L_TYPE_ALL,
    L_WHAT,
    L_ZONE,
    M_ARG,
    M_ARG2,
    M_KIND,
    M_PLUS,
    M_TIMES,
    N_A,
    N_B,
    N_C,
    N_KIND,
    NFSUB,
    NSUB,
    R_ACTIVE,
    R_ALL_CHOSEN,
    R_ATTACHED,
    R_CHOSEN,
    R_CHOSEN_PLAYER,
    R_CONTROLLER_OF,
    R_EACH,
    R_EACH_OF_TARGET,
    R_EACH_OPPONENT,
    R_EACH_OPPONENT_BUT_DEFENDING,
    R_EACH_OPPONENT_BUT_TARGET,
    R_EACH_OTHER,
    R_EACH_PLAYER,
    R_EACH_PLAYER_BUT_TARGET_CONTROLLER,
    R_EACH_TEAMMATE,
    R_EVENT_ATTACKED,
    R_EVENT_CONTROLLER,
    R_EVENT_ITEM,
    R_EVENT_OBJECT,
    R_EVENT_PLAYER,
    R_EVENT_SOURCE,
    R_IT,
    R_LEFT,
    R_NONE,
    R_OWNER_OF,
    R_PLAYER_DAMAGED_BY,
    R_RIGHT,
    R_SELF,
    R_TARGET,
    R_YOU,
    REL_ACTIVE,
    REL_ANY,
    REL_EVENT_PLAYER,
    REL_NOT_YOU,
    REL_OPPONENT,
    REL_TEAMMATE,
    REL_YOU,
    SUBTYPE_NONCREATURE,
    W_OBJECTS,
    W_PLAYERS,
)
from components.game import (
    S_ACTIVE,
    S_DAY_NIGHT,
    S_KINDS,
    S_KINDS_AT,
    S_LAST,
    S_LAST_POWER,
    S_MONARCH,
    S_N,
    S_NBF,
    S_NCHOSEN,
    S_NCZ,
    S_NMARK,
    S_NNOTES,
    S_RES,
    S_RES_AB,
    S_RES_IT,
    S_TOUCHES,
    S_TRIGS,
    S_TURN,
)
from components.objects import (
    F_ATKO,
    F_ATKP,
    F_ATT,
    F_ATTACKED,
    F_BLOCKING,
    F_CARD,
    F_COLORS,
    F_COMBAT_DAMAGED,
    F_COMMANDER,
    F_COPY_OF,
    F_CTL,
    F_CTR,
    F_EVA,
    F_EVC,
    F_EVO,
    F_EVP,
    F_FACE_DOWN,
    F_IAB,
    F_ICTL,
    F_KICKED,
    F_KW,
    F_LASTING_PLAYER,
    F_LKI_CTL,
    F_LKI_CTR,
    F_LKI_POW,
    F_MELDED,
    F_MERGED,
    F_NAMED,
    F_NAMED2,
    F_NT,
    F_NUMBER,
    F_OWNER,
    F_POW,
    F_PUT_BY,
    F_SPENT,
    F_SRC,
    F_SUSPEND,
    F_T0,
    F_TAPPED,
    F_TOKEN,
    F_TOP,
    F_TOU,
    F_TRANSFORMED,
    F_TSPEC,
    F_TYPES,
    F_X,
    F_XSUB,
    F_ZONE,
)
from components.players import (
    NOTE_COLORS,
    NOTE_CORRECT,
    NOTE_NAME,
    NOTE_NUMBER,
    NOTE_REMOVED,
    NOTE_TYPE,
    NT_CARD,
    NT_KIND,
    NT_PLAYER,
    NT_VALUE,
    P_ALIVE,
    P_ATTACKED_TURN,
    P_CREATURE_SPELLS,
    P_CTR,
    P_DAMAGE_TURN,
    P_GRAVEYARD_TURN,
    P_HANDN,
    P_MANA,
    P_OPP_DAMAGED,
    P_OPP_SPELLS_SINCE,
    P_OUTSIDE,
    P_SPELLS,
    P_SUB_RESULT,
    P_TURNS,
)
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    CTR_M1M1,
    CTR_P1P1,
    CTR_TIME,
    EXILE,
    KW_CHANGELING,
    NO_TARGET,
    STACK,
    T_CREATURE,
    T_KINDRED,
    T_PHENOMENON,
    T_PLANE,
)
from systems import commander, players
from systems.jit import kernel


# ----------------------------------------------------------------- 901.13
@kernel(inline="always")
def unbounded(st, src):
    """901.13: the abilities of planes and phenomena, and their effects, are exempt from
    the limited range of influence (outside Grand Melee)."""
    return (
        src >= 0
        and st.o[src, F_ZONE] == COMMAND
        and (st.o[src, F_TYPES] & (T_PLANE | T_PHENOMENON)) != 0
        and st.s[S_NMARK] == 0
    )


# ----------------------------------------------------------------- relations
@kernel(inline="always")
def related(st, you, q, rel):
    """Is player q related to ``you`` as REL_* says (102.2-102.3: opponents are the
    players on other teams)?"""
    if rel == REL_ANY:
        return True
    if rel == REL_YOU:
        return q == you
    if rel == REL_OPPONENT:
        return players.is_opponent(st, you, q)
    if rel == REL_NOT_YOU:
        return q != you
    if rel == REL_TEAMMATE:
        return q != you and players.teammates(st, you, q)
    if rel == REL_ACTIVE:
        return q == st.s[S_ACTIVE]
    return False


@kernel
def has_subtype(st, cd, i, sub):
    """Does object i have subtype ``sub`` (changeling: every creature type, 702.73)? The
    subtypes are those of the face it shows: a merged permanent's topmost component's
    (727.2a), a transformed permanent's back face's (712)."""
    o = st.o
    c = face(st, cd, i)
    if c < 0:
        return False
    if o[i, F_KW] & KW_CHANGELING and (o[i, F_TYPES] & (T_CREATURE | T_KINDRED)):
        return sub >= 0 and sub < SUBTYPE_NONCREATURE
    if o[i, F_XSUB] == sub and o[i, F_ZONE] == BATTLEFIELD:  # an animation's subtype (layer 4)
        return True
    for k in range(NSUB):
        if cd.ct[c, C_SUB + k] == sub:
            return True
    return False


@kernel(inline="always")
def _compare(v, op, w):
    if op == CMP_LE:
        return v <= w
    if op == CMP_GE:
        return v >= w
    if op == CMP_EQ:
        return v == w
    return True


@kernel
def matches(st, cd, f, x, you, src, item):
    """Does x (an object id, or -1 - p for a player) match filter row f (or the filter
    row it names as its alternative, L_OR: "artifact, enchantment, or creature with
    flying")?"""
    if f < 0:
        return True
    if _matches(st, cd, f, x, you, src, item):
        return True
    g = cd.fl[f, L_OR]
    return g >= 0 and _matches(st, cd, g, x, you, src, item)


@kernel
def _matches(st, cd, f, x, you, src, item):
    fl = cd.fl
    if x < 0:
        if not (fl[f, L_WHAT] & W_PLAYERS):
            return False
        q = -1 - x
        sg = fl[f, L_SUBGAME]  # 726: who won (didn't win) the last subgame
        if sg >= 0 and (st.pl[q, P_SUB_RESULT] == 1) != (sg == 1):
            return False
        if fl[f, L_NOT_REF] != R_NONE and _player_ref_is(
            st, cd, fl[f, L_NOT_REF], q, you, src, item
        ):
            return False
        if fl[f, L_PLAYER_REF] > 0 and not _player_ref_is(
            st, cd, fl[f, L_PLAYER_REF] - 1, q, you, src, item
        ):
            return False  # ("target player": the one player it names)
        return st.pl[q, P_ALIVE] == 1 and related(st, you, q, fl[f, L_PLAYER])
    if not (fl[f, L_WHAT] & W_OBJECTS):
        return False
    o = st.o
    z = fl[f, L_ZONE]
    if z >= 0 and o[x, F_ZONE] != z:
        return False
    c = o[x, F_CARD]
    if c < 0:
        return False
    t = o[x, F_TYPES]
    if fl[f, L_TYPE] and not (t & fl[f, L_TYPE]):
        return False
    if fl[f, L_TYPE_ALL] and (t & fl[f, L_TYPE_ALL]) != fl[f, L_TYPE_ALL]:
        return False
    if t & fl[f, L_NOT_TYPE]:
        return False
    if fl[f, L_SUB] >= 0:
        ok = False
        for k in range(NFSUB):
            s = fl[f, L_SUB + k]
            if s >= 0 and has_subtype(st, cd, x, s):
                ok = True
        if not ok:
            return False
    if fl[f, L_NOT_SUB] >= 0 and has_subtype(st, cd, x, fl[f, L_NOT_SUB]):
        return False
    fc = face(st, cd, x)  # (a copy's, 707.2; a face-down permanent has none, 708.2a)
    sup = cd.ct[fc, C_SUPER] if fc >= 0 else 0
    if fl[f, L_SUPER] and not (sup & fl[f, L_SUPER]):
        return False
    if sup & fl[f, L_NOT_SUPER]:
        return False
    ctl = o[x, F_CTL] if o[x, F_ZONE] == BATTLEFIELD else o[x, F_OWNER]
    if o[x, F_ICTL] >= 0 and o[x, F_ZONE] == STACK:  # a spell on the stack: its controller
        ctl = o[x, F_ICTL]
    if fl[f, L_CTL] == REL_EVENT_PLAYER:  # "defending player controls" (the event's player)
        if item < 0 or o[item, F_EVP] != ctl:
            return False
    elif not related(st, you, ctl, fl[f, L_CTL]):
        return False
    if not related(st, you, o[x, F_OWNER], fl[f, L_OWNER]):
        return False
    if fl[f, L_CTL_REF] != R_NONE or fl[f, L_OWNER_REF] != R_NONE:  # "target player controls"
        if not _player_ref_is(st, cd, fl[f, L_CTL_REF], ctl, you, src, item):
            return False
        if not _player_ref_is(st, cd, fl[f, L_OWNER_REF], o[x, F_OWNER], you, src, item):
            return False
    if fl[f, L_KW] and (o[x, F_KW] & fl[f, L_KW]) != fl[f, L_KW]:
        return False
    if o[x, F_KW] & fl[f, L_NOT_KW]:  # "without flying"
        return False
    if fl[f, L_PUT_BY] and (src < 0 or o[x, F_PUT_BY] != 1 + src):
        return False
    if fl[f, L_NOT_REF] != R_NONE and _player_ref_is(st, cd, fl[f, L_NOT_REF], ctl, you, src, item):
        return False
    if fl[f, L_NO_COUNTER] > 0 and o[x, F_CTR + fl[f, L_NO_COUNTER] - 1] > 0:
        return False  # "without a fate counter on it"
    if fl[f, L_COMBAT_DAMAGED] == 1 and o[x, F_COMBAT_DAMAGED] == 0:
        return False  # "that dealt combat damage to a player this combat"
    if fl[f, L_ENCHANTED] > 0 and (fl[f, L_ENCHANTED] == 1) != _enchanted(st, cd, x):
        return False  # "a creature that isn't enchanted" (303.4: an Aura attached to it)
    col = o[x, F_COLORS]
    if fl[f, L_COLOR] and not (col & fl[f, L_COLOR]):
        return False
    if col & fl[f, L_NOT_COLOR]:
        return False
    cl = fl[f, L_COLORLESS]
    if cl == 1 and col != 0:
        return False
    if cl == 2 and (col & (col - 1)) == 0:
        return False
    tk = fl[f, L_TOKEN]
    if tk >= 0:
        tx = o[x, F_TOP] - 1 if o[x, F_TOP] > 0 else x  # 727.2d: the topmost component's
        if (o[tx, F_TOKEN] == 1) != (tk == 1):
            return False
    tp = fl[f, L_TAPPED]
    if tp >= 0 and o[x, F_TAPPED] != tp:
        return False
    at = fl[f, L_ATTACKING]
    if at >= 0:
        attacking = o[x, F_ATKP] >= 0
        if at == 2:
            if not (attacking or o[x, F_BLOCKING] >= 0):
                return False
        elif at == 3:  # "attacking you": the player (not a planeswalker or battle)
            if o[x, F_ATKP] != you or o[x, F_ATKO] >= 0:
                return False
        elif attacking != (at == 1):
            return False
    if fl[f, L_ANOTHER] and x == src:
        return False
    if fl[f, L_POW] and not _compare(
        o[x, F_POW], fl[f, L_POW], base_amount(st, cd, fl[f, L_POW + 1], you, src, item)
    ):
        return False
    if fl[f, L_TOU] and not _compare(
        o[x, F_TOU], fl[f, L_TOU], base_amount(st, cd, fl[f, L_TOU + 1], you, src, item)
    ):
        return False
    if fl[f, L_MV] and not _compare(
        mana_value(st, cd, x), fl[f, L_MV], base_amount(st, cd, fl[f, L_MV + 1], you, src, item)
    ):
        return False
    if fl[f, L_NAME] >= 0 and fc != fl[f, L_NAME]:
        return False
    if fl[f, L_SUSPENDED] and not (
        o[x, F_ZONE] == EXILE and o[x, F_SUSPEND] and o[x, F_CTR + CTR_TIME] > 0
    ):
        return False  # 702.62b
    if fl[f, L_SINGLE_TARGET] and not (o[x, F_NT] == 1 and o[x, F_T0] != NO_TARGET):
        return False  # "a spell with a single target" (Glimmervoid Basin)
    if fl[f, L_FACE_DOWN] and not (o[x, F_FACE_DOWN] and o[x, F_ZONE] == BATTLEFIELD):
        return False  # 708: "face-down creatures" (Ixidron)
    if fl[f, L_COMMANDER] == 1 and o[x, F_COMMANDER] == 0 and commander.card_of(st, x) < 0:
        return False  # (903.3c: a merged permanent with a commander card is one)
    if fl[f, L_NAMED] and not _named(st, fl[f, L_NAMED], c, src, item):
        return False
    if fl[f, L_NOTED] and not _noted(st, cd, fl[f, L_NOTED] - 1, fl[f, L_NOTED_CARD], x, you):
        return False
    if fl[f, L_MUTATE] == 1 and cd.ct[c, C_MUTATE] < 0:  # "a card with mutate"
        return False
    if fl[f, L_ATTACKED] == 1 and o[x, F_ATTACKED] != st.s[S_TURN]:  # "attacked this turn"
        return False
    if fl[f, L_SHARES_TYPE] > 0:  # "that share a card type" (with an earlier target)
        y = _earlier_target(st, cd, item, fl[f, L_SHARES_TYPE] - 1)
        if y == NO_TARGET or y < 0 or (o[x, F_TYPES] & o[y, F_TYPES]) == 0:
            return False
    if fl[f, L_SAME_NAME] > 0:  # "with the same name as that creature" (201.2)
        y = simple_ref(st, cd, fl[f, L_SAME_NAME] - 1, you, src, item)
        if y == NO_TARGET or y < 0 or not same_name(st, cd, x, y):
            return False
    return True


@kernel
def _earlier_target(st, cd, item, k):
    """The target chosen for target spec k of the spell or ability ``item`` (being put on
    the stack or resolving); NO_TARGET if none."""
    o = st.o
    if item < 0 or o[item, F_IAB] < 0:
        return NO_TARGET
    spec = cd.ab[o[item, F_IAB], B_TG0] + k
    for j in range(o[item, F_NT]):
        if o[item, F_TSPEC + j] == spec:
            return o[item, F_T0 + j]
    return NO_TARGET


@kernel(inline="always")
def face(st, cd, i):
    """The card row whose characteristics object i has (its back face when
    transformed; a merged permanent's topmost component's, 727.2a; what a copy effect
    copies, 707.2); -1 for a face-down permanent, which has none (708.2a)."""
    o = st.o
    if o[i, F_FACE_DOWN] and o[i, F_ZONE] == BATTLEFIELD:
        return -1
    if o[i, F_COPY_OF] > 0:
        return o[i, F_COPY_OF] - 1
    t = o[i, F_TOP]
    if t > 0:
        i = t - 1
    c = st.o[i, F_CARD]
    if c >= 0 and st.o[i, F_TRANSFORMED] and cd.ct[c, C_BACK] >= 0:
        return cd.ct[c, C_BACK]
    return c


@kernel(inline="always")
def has_static(cd, c, kind):
    """Might card row c have a static ability of this kind (ST_*)? False is sure (its
    C_SAMASK bits); True means look at its rows."""
    return c >= 0 and (cd.ct[c, C_SAMASK] >> (kind % 31)) & 1 != 0


@kernel(inline="always")
def static_present(st, cd, kind):
    """Might a permanent or a face-up command-zone card have a static ability of this
    kind now? False is sure: the many checks that look at every source for one kind
    (flash, cost changes, "can't cast") stop here in most games."""
    return (static_kinds(st, cd) >> (kind % 31)) & 1 != 0


@kernel
def static_kinds(st, cd):
    """The C_SAMASK bits of the static abilities of the permanents (a merged one: every
    bit, 702.140e) and the face-up command-zone cards: worked out again after a touch
    (S_TOUCHES: every change of which objects are there or of their faces touches, as
    the layers must look again) or a layers pass that applied copy effects (it clears
    S_KINDS_AT), not after a tap or a draw."""
    s = st.s
    if s[S_KINDS_AT] != s[S_TOUCHES] + 1:
        _sources(st, cd)
    return s[S_KINDS]


@kernel
def trigger_events(st, cd):
    """The C_TRIGMASK bits of the same objects: the events a triggered ability of a
    permanent or a face-up command-zone card waits for now (triggers.event looks at
    them only for these; worked out with static_kinds)."""
    static_kinds(st, cd)  # (worked out together)
    return st.s[S_TRIGS]


@kernel
def _sources(st, cd):
    s, o, ct = st.s, st.o, cd.ct
    bits = 0
    trigs = 0
    for k in range(s[S_NBF]):
        i = st.bf[k]
        if o[i, F_TOP] > 0 or o[i, F_MERGED] >= 0:
            bits = ALL_KINDS
            trigs = ALL_KINDS
        c = face(st, cd, i)
        if c >= 0:
            bits |= ct[c, C_SAMASK]
            trigs |= ct[c, C_TRIGMASK]
    for k in range(s[S_NCZ]):
        i = st.cz[k]
        c = face(st, cd, i)
        if c >= 0 and not o[i, F_FACE_DOWN]:
            bits |= ct[c, C_SAMASK]
            trigs |= ct[c, C_TRIGMASK]
    s[S_KINDS] = bits
    s[S_TRIGS] = trigs
    s[S_KINDS_AT] = s[S_TOUCHES] + 1


ALL_KINDS = (1 << 31) - 1


@kernel
def same_name(st, cd, i, j):
    """201.2: do objects i and j have the same name?"""
    ci, cj = face(st, cd, i), face(st, cd, j)
    return ci >= 0 and cj >= 0 and cd.ct[ci, C_NAME_ID] == cd.ct[cj, C_NAME_ID]


@kernel(inline="always")
def mana_value(st, cd, x):
    """202.3: the mana value; on the stack X counts (202.3e)."""
    c = st.o[x, F_CARD]
    if st.o[x, F_MELDED] and st.o[x, F_ZONE] == BATTLEFIELD:
        return _melded_mana_value(st, cd, x)
    if st.o[x, F_ZONE] == BATTLEFIELD:  # (a copy's; a face-down permanent's is 0, 708.2a)
        c = face(st, cd, x)
        if c < 0:
            return 0
    v = cd.ct[c, C_MV]
    if st.o[x, F_ZONE] == STACK:
        v += cd.ct[c, C_XS] * st.o[x, F_X]
    return v


@kernel
def _melded_mana_value(st, cd, x):
    """A melded permanent's mana value: the total of its two cards' front faces' (712.4;
    a token copy of one, or a permanent copying one, has its back face's)."""
    o = st.o
    if o[x, F_TOKEN] or o[x, F_COPY_OF]:
        return cd.ct[face(st, cd, x), C_MV]
    v = 0
    j = x
    while j >= 0:
        if o[j, F_CARD] >= 0:
            v += cd.ct[o[j, F_CARD], C_MV]
        j = o[j, F_MERGED]
    return v


@kernel
def _enchanted(st, cd, x):
    """Is an Aura attached to object x (303.4)?"""
    o = st.o
    for j in st.bf[: st.s[S_NBF]]:
        c = o[j, F_CARD]
        if o[j, F_ATT] == x and c >= 0 and cd.ct[c, C_FLAGS] & CF_AURA:
            return True
    return False


@kernel
def _player_ref_is(st, cd, ref, p, you, src, item):
    """Is player p the one reference ``ref`` names (R_NONE: any player)?"""
    if ref == R_NONE:
        return True
    y = simple_ref(st, cd, ref, you, src, item)
    return y != NO_TARGET and y < 0 and -1 - y == p


@kernel
def matches_lki(st, cd, f, x, you, src):
    """Does object x, which has just left the battlefield, match filter f as it last
    existed there (603.10a: its zone and controller then)?"""
    o = st.o
    zone, ctl = o[x, F_ZONE], o[x, F_CTL]
    o[x, F_ZONE] = BATTLEFIELD
    o[x, F_CTL] = o[x, F_LKI_CTL]
    ok = matches(st, cd, f, x, you, src, -1)
    o[x, F_ZONE] = zone
    o[x, F_CTL] = ctl
    return ok


@kernel
def count_matching(st, cd, f, you, src, item):
    """How many objects (on the battlefield unless the filter names a zone) and players
    match filter f."""
    fl = cd.fl
    n = 0
    if fl[f, L_WHAT] & W_OBJECTS:
        if fl[f, L_ZONE] == BATTLEFIELD:
            for i in st.bf[: st.s[S_NBF]]:
                if matches(st, cd, f, i, you, src, item):
                    n += 1
        else:
            for i in range(st.s[S_N]):
                if matches(st, cd, f, i, you, src, item):
                    n += 1
    if fl[f, L_WHAT] & W_PLAYERS:
        for q in range(st.pl.shape[0]):
            if matches(st, cd, f, -1 - q, you, src, item):
                n += 1
    return n


# ----------------------------------------------------------------- references
@kernel
def simple_ref(st, cd, ref, you, src, item):
    """The one object or player code a simple reference names (NO_TARGET if none);
    R_CONTROLLER_OF / R_OWNER_OF + r: the controller or owner of what r names."""
    o = st.o
    wrap = 0
    if ref >= R_PLAYER_DAMAGED_BY and ref < R_EACH:  # (Glen Elendra: "that player")
        x = _base_ref(st, cd, ref - R_PLAYER_DAMAGED_BY, you, src, item)
        if x == NO_TARGET or x < 0 or o[x, F_COMBAT_DAMAGED] == 0:
            return NO_TARGET
        return -o[x, F_COMBAT_DAMAGED]
    if ref >= R_OWNER_OF and ref < R_EACH:
        wrap, ref = R_OWNER_OF, ref - R_OWNER_OF
    elif ref >= R_CONTROLLER_OF and ref < R_OWNER_OF:
        wrap, ref = R_CONTROLLER_OF, ref - R_CONTROLLER_OF
    x = _base_ref(st, cd, ref, you, src, item)
    if wrap == 0 or x == NO_TARGET or x < 0:
        return x
    if wrap == R_OWNER_OF:
        return -1 - o[x, F_OWNER]
    if o[x, F_ZONE] == BATTLEFIELD:
        return -1 - o[x, F_CTL]
    if o[x, F_ZONE] == STACK and o[x, F_ICTL] >= 0:
        return -1 - o[x, F_ICTL]
    return -1 - o[x, F_LKI_CTL]


@kernel
def _base_ref(st, cd, ref, you, src, item):
    o = st.o
    if ref >= R_TARGET:
        spec = target_spec(st, cd, ref - R_TARGET)
        if item < 0:
            return NO_TARGET
        for k in range(o[item, F_NT]):
            if o[item, F_TSPEC + k] == spec and o[item, F_T0 + k] != NO_TARGET:
                return o[item, F_T0 + k]
        return NO_TARGET
    if ref == R_YOU:
        return -1 - you
    if ref == R_SELF:
        return src
    if ref == R_IT:
        return st.s[S_RES_IT]
    if ref == R_CHOSEN:
        return st.chosen[0] if st.s[S_NCHOSEN] > 0 else NO_TARGET
    if ref == R_ATTACHED:
        return o[src, F_ATT] if src >= 0 and o[src, F_ATT] >= 0 else NO_TARGET
    if ref == R_EVENT_OBJECT or ref == R_EVENT_SOURCE:
        return o[item, F_EVO] if item >= 0 and o[item, F_EVO] >= 0 else NO_TARGET
    if ref == R_EVENT_PLAYER:
        return -1 - o[item, F_EVP] if item >= 0 and o[item, F_EVP] >= 0 else NO_TARGET
    if ref == R_EVENT_CONTROLLER:
        return -1 - o[item, F_EVC] if item >= 0 and o[item, F_EVC] >= 0 else NO_TARGET
    if ref == R_ACTIVE:
        return -1 - st.s[S_ACTIVE]
    if ref == R_LEFT:
        q = players.next_in_turn_order(st, you)
        return -1 - q if q >= 0 else NO_TARGET
    if ref == R_RIGHT:
        q = players.prev_in_turn_order(st, you)
        return -1 - q if q >= 0 else NO_TARGET
    if ref == R_CHOSEN_PLAYER:
        if item < 0 and src >= 0:  # a lasting effect's statics: the player chosen then
            return -o[src, F_LASTING_PLAYER] if o[src, F_LASTING_PLAYER] > 0 else NO_TARGET
        for k in range(st.s[S_NCHOSEN]):
            if st.chosen[k] < 0:
                return st.chosen[k]
    if ref == R_EVENT_ATTACKED:  # what the event's attacking creature attacks
        a = o[item, F_EVO] if item >= 0 else -1
        if a < 0:
            return NO_TARGET
        if o[a, F_ATKO] >= 0:
            return o[a, F_ATKO]
        return -1 - o[a, F_ATKP] if o[a, F_ATKP] >= 0 else NO_TARGET
    if ref == R_EVENT_ITEM:  # the spell or ability the event is about (ward)
        j = o[item, F_EVA] if item >= 0 else -1
        return j if j >= 0 and o[j, F_ZONE] == STACK else NO_TARGET
    return NO_TARGET


@kernel(inline="always")
def target_spec(st, cd, k):
    """The target spec row of "target.k" of the ability (or mode) whose effects run."""
    return cd.ab[st.s[S_RES_AB], B_TG0] + k


@kernel
def refs(st, cd, ref, refa, you, src, item, out):
    """Every object or player code a reference names, into out; returns how many.
    "Each player" and the like are in APNAP order from the active player (101.4) and,
    with limited range of influence, only within ``you``'s range (801.10)."""
    if ref == R_NONE:
        return 0
    if ref >= R_TARGET and ref < R_CONTROLLER_OF:  # every target chosen for that spec
        spec = target_spec(st, cd, ref - R_TARGET)
        m = 0
        if item >= 0:
            for k in range(st.o[item, F_NT]):
                if st.o[item, F_TSPEC + k] == spec and st.o[item, F_T0 + k] != NO_TARGET:
                    out[m] = st.o[item, F_T0 + k]
                    m += 1
        return m
    if ref < R_EACH:
        x = simple_ref(st, cd, ref, you, src, item)
        if x == NO_TARGET:
            return 0
        out[0] = x
        return 1
    m = 0
    if ref == R_EACH_OF_TARGET:  # (issue 14) every matching permanent the target controls
        t = simple_ref(st, cd, R_TARGET, you, src, item)
        if t == NO_TARGET or t >= 0:
            return 0
        for i in st.bf[: st.s[S_NBF]]:
            if st.o[i, F_CTL] == -1 - t and matches(st, cd, refa, i, you, src, item):
                out[m] = i
                m += 1
        return m
    if ref == R_ALL_CHOSEN:
        for k in range(st.s[S_NCHOSEN]):
            out[m] = st.chosen[k]
            m += 1
        return m
    if ref == R_EACH:
        fl_what = cd.fl[refa, L_WHAT]
        if fl_what & W_OBJECTS:
            if cd.fl[refa, L_ZONE] == BATTLEFIELD:
                for i in st.bf[: st.s[S_NBF]]:
                    if (
                        players.in_range(st, you, st.o[i, F_CTL]) or unbounded(st, src)
                    ) and matches(st, cd, refa, i, you, src, item):
                        out[m] = i
                        m += 1
            else:
                for i in range(st.s[S_N]):
                    if matches(st, cd, refa, i, you, src, item):
                        out[m] = i
                        m += 1
        if not (fl_what & W_PLAYERS):
            return m
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, st.s[S_ACTIVE], buf)
    for j in range(k):
        q = buf[j]
        if not players.in_range(st, you, q) and not unbounded(st, src):
            continue
        if ref == R_EACH:
            ok = matches(st, cd, refa, -1 - q, you, src, item)
        elif ref == R_EACH_PLAYER:
            ok = True
        elif ref == R_EACH_OPPONENT:
            ok = players.is_opponent(st, you, q)
        elif ref == R_EACH_OTHER:
            ok = q != you
        elif ref == R_EACH_TEAMMATE:
            ok = q != you and players.teammates(st, you, q)
        elif ref == R_EACH_PLAYER_BUT_TARGET_CONTROLLER:
            t = simple_ref(st, cd, R_TARGET, you, src, item)
            ok = t != NO_TARGET and t >= 0 and st.o[t, F_CTL] != q
        elif ref == R_EACH_OPPONENT_BUT_DEFENDING:  # (the player the event's attacker attacks)
            ok = players.is_opponent(st, you, q) and -1 - q != simple_ref(
                st, cd, R_EVENT_ATTACKED, you, src, item
            )
        elif ref == R_EACH_OPPONENT_BUT_TARGET:
            ok = players.is_opponent(st, you, q) and -1 - q != simple_ref(
                st, cd, R_TARGET, you, src, item
            )
        else:
            ok = False
        if ok:
            out[m] = -1 - q
            m += 1
    return m


# ----------------------------------------------------------------- amounts
@kernel
def amount(st, cd, m, you, src, item):
    """The value of amount row m in this context."""
    if m >= 0 and cd.am[m, M_KIND] == AM_COUNT:
        v = count_matching(st, cd, cd.am[m, M_ARG], you, src, item)
        return v * cd.am[m, M_TIMES] + cd.am[m, M_PLUS]
    if m >= 0 and cd.am[m, M_KIND] == AM_TOTAL_POWER:
        v = 0
        for i in st.bf[: st.s[S_NBF]]:
            if matches(st, cd, cd.am[m, M_ARG], i, you, src, item) and st.o[i, F_POW] > 0:
                v += st.o[i, F_POW]
        return v * cd.am[m, M_TIMES] + cd.am[m, M_PLUS]
    return base_amount(st, cd, m, you, src, item)


@kernel
def base_amount(st, cd, m, you, src, item):
    """An amount that counts nothing (what filters compare with: no recursion)."""
    if m < 0:
        return 0
    am = cd.am
    kind, arg = am[m, M_KIND], am[m, M_ARG]
    o = st.o
    v = 0
    if kind == AM_CONST:
        v = arg
    elif kind == AM_X:
        v = o[item, F_X] if item >= 0 else 0
    elif kind == AM_EVENT:
        v = o[item, F_EVA] if item >= 0 else 0
    elif kind == AM_MANA_SPENT:
        v = o[src, F_SPENT] if src >= 0 else 0
    elif kind == AM_CHOSEN:
        v = st.s[S_NCHOSEN]
    elif kind == AM_MANA_POOL:
        v = st.pl[you, P_MANA + arg]
    elif kind == AM_LAST:
        v = st.s[S_LAST]
    elif kind == AM_POWER_EXILED:
        v = st.s[S_LAST_POWER]
    elif kind == AM_CHOSEN_NUMBER:
        v = o[src, F_NUMBER] if src >= 0 else 0
    elif kind != AM_COUNT and kind != AM_TOTAL_POWER and kind != AM_NOTED:
        x = simple_ref(st, cd, arg, you, src, item)
        if x == NO_TARGET:
            v = 0
        elif kind == AM_POWER:
            v = (o[x, F_POW] if o[x, F_ZONE] == BATTLEFIELD else o[x, F_LKI_POW]) if x >= 0 else 0
        elif kind == AM_TOUGHNESS:
            v = o[x, F_TOU] if x >= 0 else 0
        elif kind == AM_MV:
            v = cd.ct[o[x, F_CARD], C_MV] if x >= 0 and o[x, F_CARD] >= 0 else 0
        elif kind == AM_LIFE:
            v = players.life(st, -1 - x) if x < 0 else 0
        elif kind == AM_HALF_LIFE:
            v = (players.life(st, -1 - x) + 1) // 2 if x < 0 else 0
        elif kind == AM_COUNTERS:
            v = _counters_on(st, x, am[m, M_ARG2])
        elif kind == AM_HAND:
            v = st.pl[-1 - x, P_HANDN] if x < 0 else 0
        elif kind == AM_OPP_DAMAGED:
            v = st.pl[-1 - x, P_OPP_DAMAGED] if x < 0 else 0
        elif kind == AM_CREATURE_SPELLS:
            v = st.pl[-1 - x, P_CREATURE_SPELLS] if x < 0 else 0
        elif kind == AM_OPP_SPELLS_SINCE:
            v = st.pl[-1 - x, P_OPP_SPELLS_SINCE] if x < 0 else 0
        elif kind == AM_GRAVEYARD_TURN:
            v = st.pl[-1 - x, P_GRAVEYARD_TURN] if x < 0 else 0
    if kind == AM_NOTED:
        v = noted_count(st, you, arg) if am[m, M_ARG2] == 1 else noted_highest(st, you, arg)
    return v * am[m, M_TIMES] + am[m, M_PLUS]


@kernel(inline="always")
def _counters_on(st, x, kind):
    """Counters of a kind on an object (last known, 608.2h, once it has left the
    battlefield: +1/+1 and -1/-1 counters) or on a player (experience...)."""
    o = st.o
    if x < 0:
        return st.pl[-1 - x, P_CTR + kind]
    if o[x, F_ZONE] == BATTLEFIELD or o[x, F_ZONE] == COMMAND:  # (a plane's, 901.7a)
        return o[x, F_CTR + kind]
    if kind == CTR_P1P1:
        return o[x, F_LKI_CTR]
    if kind == CTR_M1M1:
        return o[x, F_LKI_CTR + 1]
    return 0


# ----------------------------------------------------------------- conditions
@kernel
def holds(st, cd, c, you, src, item):
    """Does condition row c hold in this context? (Rows with sub-conditions point to
    rows after them: no recursion beyond one level of ``not`` / ``all`` / ``any``.)"""
    if c < 0:
        return True
    cn = cd.cn
    k = cn[c, N_KIND]
    if k == CO_NOT or k == CO_ALL or k == CO_ANY:
        a = _leaf(st, cd, cn[c, N_A], you, src, item)
        if k == CO_NOT:
            return not a
        b = _leaf(st, cd, cn[c, N_B], you, src, item)
        return (a and b) if k == CO_ALL else (a or b)
    return _leaf(st, cd, c, you, src, item)


@kernel
def _leaf(st, cd, c, you, src, item):
    if c < 0:
        return True
    cn = cd.cn
    k, a, b = cn[c, N_KIND], cn[c, N_A], cn[c, N_B]
    o = st.o
    if k == CO_LIFE_AT_LEAST:
        return players.life(st, you) >= a
    if k == CO_COUNT_AT_LEAST:
        return count_matching(st, cd, a, you, src, item) >= b
    if k == CO_SELF_UNTAPPED:
        return src >= 0 and o[src, F_ZONE] == BATTLEFIELD and o[src, F_TAPPED] == 0
    if k == CO_SELF_IN_ZONE:
        return src >= 0 and o[src, F_ZONE] == a
    if k == CO_SELF_ATTACKED:  # "if ~ attacked this turn" (Homicidal Brute: "didn't")
        return src >= 0 and o[src, F_ATTACKED] == st.s[S_TURN]
    if k == CO_DAY:
        return st.s[S_DAY_NIGHT] == 1
    if k == CO_NIGHT:
        return st.s[S_DAY_NIGHT] == 2
    if k == CO_MONARCH:  # a == 1: an opponent is the monarch (724)
        if a == 1:
            q = st.s[S_MONARCH]
            return q >= 0 and players.is_opponent(st, you, q)
        return st.s[S_MONARCH] == you
    if k == CO_DAMAGE_TAKEN:
        return st.pl[you, P_DAMAGE_TURN] >= a
    if k == CO_CAST_THIS_TURN:  # "if you cast a spell this turn" (Prahv)
        return st.pl[you, P_SPELLS] > 0
    if k == CO_ATTACKED_THIS_TURN:  # "if you attacked with creatures this turn" (508.1)
        return st.pl[you, P_ATTACKED_TURN] == st.s[S_TURN]
    if k == CO_YOUR_TURN:  # "as long as it's your turn": your team's in team turns (805.2)
        return players.is_active(st, you)
    if k == CO_KICKED:
        return item >= 0 and o[item, F_KICKED] == 1
    if k == CO_COMPARE:
        return _compare(
            amount(st, cd, a, you, src, item), cn[c, N_C], amount(st, cd, b, you, src, item)
        )
    if k == CO_IS or k == CO_IN_ZONE:
        x = simple_ref(st, cd, a, you, src, item)
        if x == NO_TARGET:
            return False
        if k == CO_IN_ZONE:
            return x >= 0 and o[x, F_ZONE] == b
        return matches(st, cd, b, x, you, src, item)
    if k == CO_FIRST_TURN:  # the game's first turn, or the active player's first
        if a == 1:
            return st.s[S_TURN] == 1
        return st.pl[st.s[S_ACTIVE], P_TURNS] == 1
    if k == CO_WHOLE_POOL:
        return st.pl[you, P_OUTSIDE] == 0
    if k == CO_NOTED:  # a right guess noted for cards named a (Spire Phantasm)
        return _has_note(st, you, a, NOTE_CORRECT, 1)
    return True


@kernel(inline="always")
def context_of(st, item):
    """(you, src) of a stack object: its controller and its source."""
    o = st.o
    src = o[item, F_SRC] if o[item, F_SRC] >= 0 else item
    return o[item, F_ICTL], src


@kernel
def matches_card(st, cd, f, x, you, src):
    """Does card x match filter f wherever it is (a spell about to be cast, for cost
    changes and "whenever you cast": the filter's zone is not asked)?"""
    return matches_card_in(st, cd, f, x, you, src, -1)


@kernel
def matches_card_in(st, cd, f, x, you, src, item):
    """matches_card, for the spell or ability ``item`` (its X: "mana value X or less")."""
    o = st.o
    zone = o[x, F_ZONE]
    if f >= 0 and cd.fl[f, L_ZONE] >= 0:
        o[x, F_ZONE] = cd.fl[f, L_ZONE]
    ok = matches(st, cd, f, x, you, src, item)
    o[x, F_ZONE] = zone
    return ok


# ----------------------------------------------------------------- Conspiracy Draft (905)
@kernel
def _named(st, mode, c, src, item):
    """A hidden agenda's name (702.106): card row c is a name source ``src`` named
    (mode 1); mode 2: it is the chosen name other than the event object's (Summoner's
    Bond: the creature spell that triggered it)."""
    if src < 0:
        return False
    o = st.o
    n1, n2 = o[src, F_NAMED], o[src, F_NAMED2] - 1
    if mode == 1:
        return c >= 0 and (c == n1 or c == n2)
    it = item if item >= 0 else st.s[S_RES]  # (a card matched by a resolving ability)
    ev = o[it, F_EVO] if it >= 0 else -1
    evc = o[ev, F_CARD] if ev >= 0 else -1
    if evc == n1 and n2 >= 0:
        return c == n2
    if evc == n2 and n1 >= 0:
        return c == n1
    return False


@kernel
def _has_note(st, p, card, kind, value):
    nt = st.nt
    for r in range(st.s[S_NNOTES]):
        if nt[r, NT_PLAYER] == p and nt[r, NT_CARD] == card and nt[r, NT_KIND] == kind:
            if nt[r, NT_VALUE] == value:
                return True
    return False


@kernel
def _noted(st, cd, kind, card, x, you):
    """905.2b: object x has a name (a creature type, a colour) that ``you`` noted for
    cards named ``card``."""
    nt = st.nt
    o = st.o
    for r in range(st.s[S_NNOTES]):
        if nt[r, NT_PLAYER] != you or nt[r, NT_CARD] != card or nt[r, NT_KIND] != kind:
            continue
        v = nt[r, NT_VALUE]
        if kind == NOTE_NAME and o[x, F_CARD] == v:
            return True
        if kind == NOTE_TYPE and v >= 0 and has_subtype(st, cd, x, v):
            return True
        if kind == NOTE_COLORS and o[x, F_COLORS] & v:
            return True
    return False


@kernel
def noted_highest(st, p, card):
    """The highest number p noted for cards named ``card`` (0 if none)."""
    nt = st.nt
    best = 0
    for r in range(st.s[S_NNOTES]):
        if nt[r, NT_PLAYER] == p and nt[r, NT_CARD] == card and nt[r, NT_KIND] == NOTE_NUMBER:
            best = max(best, nt[r, NT_VALUE])
    return best


@kernel
def noted_count(st, p, card):
    """How many cards p removed from the draft with cards named ``card`` (Cogwork
    Grinder), or notes p made for them."""
    nt = st.nt
    n = 0
    for r in range(st.s[S_NNOTES]):
        if nt[r, NT_PLAYER] == p and nt[r, NT_CARD] == card:
            if nt[r, NT_KIND] == NOTE_REMOVED:
                n += nt[r, NT_VALUE]
            else:
                n += 1
    return n


@kernel
def noted_colors(st, p, card):
    """Colour bits p noted for cards named ``card`` (Paliano, the High City)."""
    nt = st.nt
    bits = 0
    for r in range(st.s[S_NNOTES]):
        if nt[r, NT_PLAYER] == p and nt[r, NT_CARD] == card and nt[r, NT_KIND] == NOTE_COLORS:
            bits |= nt[r, NT_VALUE]
    return bits
