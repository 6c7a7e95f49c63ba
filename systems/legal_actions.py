"""Decisions are data: the options of the pending decision, listed as rows of ``acts``
(kind, player, object, arg, arg2), and ``apply``, which carries out the row an agent
chose. Everything listed is legal and everything legal is listed; nothing else can
be applied (an index past the list is refused by the entry points).

Documented orders: at priority, pass, then lands, then spells (hand, then command
zone), then activated abilities (permanents, then command-zone cards), then special
actions, each by object id (with shared team turns, for each member of the team in
turn order); attack options: "done", then (creature, defender); blocks: "done" (or
"reset" when the declaration isn't legal as a whole), then (blocker, attacker)."""

from __future__ import annotations

import numpy as np

from components.cards import (
    A_KIND,
    A_P,
    A_ZONE,
    AB_ACTIVATED,
    AB_EQUIP,
    AB_FROM_END_UNEARTH,
    AB_GRANTED_BY_EFFECT,
    AB_LOYALTY,
    AB_MANA,
    B_ARG,
    B_GRANT,
    B_KIND,
    B_SORC,
    B_ZONE,
    C_AB0,
    C_ALT,
    C_FLAGS,
    C_FLASHBACK,
    C_MUTATE,
    C_NAB,
    C_NSA,
    C_SA0,
    C_SPELL,
    CF_LISTED,
    CF_MUTATE_FROM_GRAVEYARD,
    CF_REAL,
    ST_EXTRA_LAND,
    ST_GRANT_FLASHBACK,
    ST_GRANT_UNEARTH,
    ST_LOYALTY_INSTANT,
    ST_PLAY_FROM_TOP,
)
from components.decisions import (
    A_ACTIVATE,
    A_ATTACK,
    A_ATTACK_DONE,
    A_BLOCK,
    A_BLOCK_DONE,
    A_BLOCK_RESET,
    A_CAST,
    A_CHOOSE,
    A_DISCARD,
    A_KEEP,
    A_LAND,
    A_MULLIGAN,
    A_PASS,
    A_SPECIAL,
    AC_ARG,
    AC_ARG2,
    AC_KIND,
    AC_OBJ,
    AC_PLAYER,
    PEND_ATTACK,
    PEND_BLOCK,
    PEND_BOTTOM,
    PEND_CHOOSE_OBJECT,
    PEND_CHOOSE_PLAYER,
    PEND_COLOR,
    PEND_COMMAND_ZONE,
    PEND_DISCARD,
    PEND_KICKER,
    PEND_MODE,
    PEND_MULLIGAN,
    PEND_NAME_CARD,
    PEND_NONE,
    PEND_NUMBER,
    PEND_PRIORITY,
    PEND_SHORTCUT,
    PEND_TARGET,
    PEND_X,
    PEND_YES_NO,
    SP_SUSPEND,
    SP_TURN_FACE_UP,
)
from components.effects import X_GRANT_ABILITY, X_KIND, X_OBJ, X_P, X_TS
from components.game import (
    CAST_CONSPIRE,
    ERR_FULL,
    NEED_CONSPIRACY,
    NEED_COSTED_MANA,
    NEED_FLASHBACK,
    NEED_GRANT_ABILITY_EFFECTS,
    NEED_GRANTED,
    NEED_GRANTED_ABILITIES,
    NEED_GRANTED_FLASHBACK,
    NEED_GRANTED_UNEARTH,
    NEED_GRAVEYARD_ABILITIES,
    NEED_GRAVEYARD_CASTS,
    NEED_HAND_ABILITIES,
    NEED_LAND_DROPS,
    NEED_PLAY_FROM_TOP,
    NEED_SUSPEND,
    S_ACTIVE,
    S_BLOCK_LAST,
    S_BLOCK_VER,
    S_CAST_STAGE,
    S_CASTING,
    S_CASUAL,
    S_DEPLOY,
    S_DSEQ,
    S_LDIRTY,
    S_MANA_SRC,
    S_MULLIGANS,
    S_N,
    S_NACTS,
    S_NCZ,
    S_NEEDS,
    S_NEFF,
    S_NSTK,
    S_PA,
    S_PASSES,
    S_PB,
    S_PCOUNT,
    S_PEND,
    S_PPLAYER,
    S_PRIO,
    S_RES,
    S_STEP,
    S_TODO,
    S_VERSION,
    TODO_BEGIN,
    TODO_PRIORITY,
)
from components.objects import (
    F_ATT,
    F_CARD,
    F_CTL,
    F_DECL,
    F_FACE_DOWN,
    F_ICTL,
    F_KW,
    F_MERGED,
    F_MUST_ATTACK_P,
    F_NAMED,
    F_OWNER,
    F_RESTRICT,
    F_TS,
    F_TYPES,
    F_ZONE,
    MUST_ATTACK,
)
from components.players import (
    P_BOTTOM,
    P_HA_SORC,
    P_HA_VAL,
    P_HA_VER,
    P_LAND_DROPS,
    P_LANDS,
    P_NGRAVE_ACT,
    P_NINSTANT,
    P_OUTSIDE_BASICS,
    P_START_HAND,
)
from components.rules import (
    BATTLEFIELD,
    GONE,
    GRAVEYARD,
    KW_FLASH,
    MAIN1,
    MAIN2,
    NO_TARGET,
    PREGAME,
    T_CREATURE,
    T_INSTANT,
    T_LAND,
)
from components.scratch import (
    SCR_EFFECT_ARGS,
    SCR_EFFECT_OBJS,
    SCR_HAS_ACTION,
    SCR_OPTION_TARGETS,
    SCR_OPTION_XS,
    SCR_PRIORITY_ORDER,
)
from systems import (
    casting,
    combat,
    command_zone,
    conspiracy,
    continuous_effects,
    effects,
    game_loop,
    loops,
    mana,
    merging,
    mulligan,
    planechase,
    players,
    priority,
    shortcuts,
    suspend,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import bump, fail, touch


@kernel(inline="always")
def _add(acts, m, kind, player, obj, arg, arg2):
    if m < acts.shape[0]:
        acts[m, AC_KIND] = kind
        acts[m, AC_PLAYER] = player
        acts[m, AC_OBJ] = obj
        acts[m, AC_ARG] = arg
        acts[m, AC_ARG2] = arg2
    return m + 1


# ----------------------------------------------------------------- priority
@kernel(inline="always")
def sorcery_timing(st, p):
    """307.1: p's (p's team's) main phase, the stack empty, nothing being cast."""
    s = st.s
    return (
        players.is_active(st, p)
        and (s[S_STEP] == MAIN1 or s[S_STEP] == MAIN2)
        and s[S_NSTK] == 0
        and s[S_CASTING] < 0
    )


@kernel
def priority_actions(st, cd, p, acts, first_only):
    """_priority_actions, with each player's mana sources found once for the listing
    (systems/mana.sources)."""
    st.s[S_MANA_SRC] = 1
    m = _priority_actions(st, cd, p, acts, first_only)
    st.s[S_MANA_SRC] = 0
    return m


@kernel
def _priority_actions(st, cd, p, acts, first_only):
    """Everything p (with shared team turns, each member of p's team) could do with
    priority: pass, lands, spells, abilities, special actions. With ``first_only`` it
    stops at the first option besides passing (has_action)."""
    continuous_effects.recompute(st, cd)
    o = st.o
    m = _add(acts, 0, A_PASS, p, -1, 0, 0)
    buf = st.scr[SCR_PRIORITY_ORDER]
    k = players.turn_order_from(st, p, buf)
    for j in range(k):  # lands (305.1)
        q = buf[j]
        if not players.same_side(st, p, q):
            continue
        if sorcery_timing(st, q) and st.pl[q, P_LANDS] < land_drops(st, cd, q):
            for i in zones.hand_of(st, q):
                if o[i, F_TYPES] & T_LAND:
                    m = _add(acts, m, A_LAND, q, i, 0, 0)
                    if first_only:
                        return m
            if st.pl[q, P_OUTSIDE_BASICS]:  # basic lands from outside the game (-2 - row)
                for c in range(cd.ct.shape[0]):
                    if conspiracy.is_basic_land(cd, c):
                        m = _add(acts, m, A_LAND, q, -2 - c, 0, 0)
                        if first_only:
                            return m
    if st.s[S_NEEDS] & NEED_PLAY_FROM_TOP and command_zone.command_static_any(
        st, cd, ST_PLAY_FROM_TOP
    ):
        for j in range(k):  # "players may play the top card of their libraries"
            q = buf[j]
            if players.same_side(st, p, q):
                m0 = m
                m = _library_top_options(st, cd, q, acts, m)
                if first_only and m > m0:
                    return m
    for j in range(k):  # spells (601.3): the hand, then commanders (903.8)
        q = buf[j]
        if not players.same_side(st, p, q):
            continue
        sorc = sorcery_timing(st, q)
        if sorc or st.pl[q, P_NINSTANT] > 0 or casting.as_though_flash(st, cd, q, -1):
            for i in zones.hand_of(st, q):
                m0 = m
                m = _cast_options(st, cd, q, i, sorc, acts, m)
                if first_only and m > m0:
                    return m
        for x in range(st.s[S_NCZ]):
            i = st.cz[x]
            if variants.castable_from_command_zone(st, q, i):
                m0 = m
                m = _cast_options(st, cd, q, i, sorc, acts, m)
                if first_only and m > m0:
                    return m
    for j in range(k):  # activated abilities (602.2)
        q = buf[j]
        if not players.same_side(st, p, q):
            continue
        sorc = sorcery_timing(st, q)
        for i in continuous_effects.held_by(st, q):
            m0 = m
            m = _ability_options(st, cd, q, i, sorc, acts, m)
            if first_only and m > m0:
                return m
        for x in range(st.s[S_NCZ]):
            i = st.cz[x]
            if o[i, F_CTL] == q and not o[i, F_FACE_DOWN]:
                m0 = m
                m = _ability_options(st, cd, q, i, sorc, acts, m)
                if first_only and m > m0:
                    return m
        gy = st.pl[q, P_NGRAVE_ACT] > 0  # (cards in q's graveyard whose words work there)
        if st.s[S_NEEDS] & NEED_GRAVEYARD_CASTS and gy:  # Brokkos: a mutate cast from there
            for i in range(st.s[S_N]):
                if o[i, F_ZONE] == GRAVEYARD and o[i, F_OWNER] == q and o[i, F_CARD] >= 0:
                    c = o[i, F_CARD]
                    if (
                        cd.ct[c, C_FLAGS] & CF_MUTATE_FROM_GRAVEYARD
                        and (sorc or o[i, F_KW] & KW_FLASH or casting.as_though_flash(st, cd, q, i))
                        and not planechase.cant_cast_by_library_tops(st, cd, i)
                    ):
                        if casting.castable(st, cd, q, i, casting.CAST_MUTATE):
                            m0 = m
                            m = _add(acts, m, A_CAST, q, i, casting.CAST_MUTATE, 0)
                            if first_only and m > m0:
                                return m
        granted = st.s[S_NEEDS] & NEED_GRANTED_FLASHBACK and command_zone.command_static_any(
            st, cd, ST_GRANT_FLASHBACK
        )  # (a face-up plane gives graveyard cards flashback: Otaria)
        if st.s[S_NEEDS] & NEED_FLASHBACK and (gy or granted):
            for i in range(st.s[S_N]):
                if o[i, F_ZONE] == GRAVEYARD and o[i, F_OWNER] == q and o[i, F_CARD] >= 0:
                    m0 = m
                    m = _flashback_options(st, cd, q, i, sorc, acts, m)
                    if first_only and m > m0:
                        return m
        if (
            st.s[S_NEEDS] & NEED_GRANTED_UNEARTH
            and sorc
            and command_zone.command_static_any(st, cd, ST_GRANT_UNEARTH)
        ):  # (unearth a face-up plane gives: Grixis)
            a = cd.ab.shape[0] - AB_FROM_END_UNEARTH
            for i in range(st.s[S_N]):
                if o[i, F_ZONE] == GRAVEYARD and o[i, F_OWNER] == q and o[i, F_CARD] >= 0:
                    if command_zone.grants(st, cd, i, ST_GRANT_UNEARTH):
                        if casting.activatable(st, cd, q, i, a):
                            m = _add(acts, m, A_ACTIVATE, q, i, a, 0)
                            if first_only:
                                return m
        if st.s[S_NEEDS] & NEED_GRAVEYARD_ABILITIES and gy:  # (unearth: 702.84)
            for i in range(st.s[S_N]):
                if o[i, F_ZONE] == GRAVEYARD and o[i, F_OWNER] == q:
                    m0 = m
                    m = _ability_options(st, cd, q, i, sorc, acts, m)
                    if first_only and m > m0:
                        return m
        if st.s[S_NEEDS] & NEED_HAND_ABILITIES:  # (cycling: 702.29)
            for i in zones.hand_of(st, q):
                m0 = m
                m = _ability_options(st, cd, q, i, sorc, acts, m)
                if first_only and m > m0:
                    return m
    # special actions (116.2): turning a hidden agenda face up (702.106c, 905.4a). Not
    # counted by has_action: auto-pass doesn't stop only to offer it.
    if not first_only:
        for x in range(st.s[S_NCZ]):
            i = st.cz[x]
            if conspiracy.can_turn_face_up(st, cd, p, i):
                m = _add(acts, m, A_SPECIAL, p, i, SP_TURN_FACE_UP, 0)
    if st.s[S_NEEDS] & NEED_SUSPEND:  # Talon Gates: any time q could cast an instant
        for j in range(k):
            q = buf[j]
            if players.same_side(st, p, q) and suspend.may_suspend(st, cd, q):
                for i in zones.hand_of(st, q):
                    if o[i, F_CARD] >= 0 and not (o[i, F_TYPES] & T_LAND):
                        m = _add(acts, m, A_SPECIAL, q, i, SP_SUSPEND, 0)
                        if first_only:
                            return m
    if st.s[S_CASUAL]:  # special actions of the casual variants (the planar die, 901.9)
        for j in range(k):
            q = buf[j]
            if players.same_side(st, p, q) and sorcery_timing(st, q):
                m0 = m
                m = variants.special_options(st, cd, p, q, acts, m)
                if first_only and m > m0:
                    return m
    return m


@kernel
def land_drops(st, cd, p):
    """305.2: lands p may play this turn: one, plus "you may play an additional land"
    static abilities of permanents p controls (Exploration, Azusa)."""
    n = st.pl[p, P_LAND_DROPS]
    if st.s[S_NEEDS] & NEED_LAND_DROPS:
        for i in continuous_effects.held_by(st, p):
            c = continuous_effects.face(st, cd, i)
            if c < 0:
                continue
            for r in range(cd.ct[c, C_SA0], cd.ct[c, C_SA0] + cd.ct[c, C_NSA]):
                if cd.sa[r, A_KIND] == ST_EXTRA_LAND and cd.sa[r, A_ZONE] == BATTLEFIELD:
                    n += cd.sa[r, A_P]
    if st.s[S_CASUAL]:  # a command-zone card that says so (Naya, Titania: 901.7, 902.7)
        n += command_zone.command_static(st, cd, p, ST_EXTRA_LAND)
    return n


@kernel
def loyalty_any_time(st, cd, p):
    """Teferi's emblem: p may activate loyalty abilities any time they could cast an
    instant (an emblem p controls in the command zone)."""
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        c = st.o[i, F_CARD]
        if c < 0 or st.o[i, F_CTL] != p:
            continue
        for r in range(cd.ct[c, C_SA0], cd.ct[c, C_SA0] + cd.ct[c, C_NSA]):
            if cd.sa[r, A_KIND] == ST_LOYALTY_INSTANT:
                return True
    return False


@kernel
def _cast_options(st, cd, q, i, sorc, acts, m):
    o, ct = st.o, cd.ct
    c = o[i, F_CARD]
    t = o[i, F_TYPES]
    if t & T_LAND or c < 0:
        return m
    if not (sorc or t & T_INSTANT or o[i, F_KW] & KW_FLASH):
        if not casting.as_though_flash(st, cd, q, i):  # (Tawnos, 902.7)
            return m
    if conspiracy.cant_cast(st, cd, q, i):  # (Hymn of the Wilds)
        return m
    if planechase.cant_cast_by_library_tops(st, cd, i):  # (Skybreen)
        return m
    if casting.castable(st, cd, q, i, casting.CAST_NORMAL):
        m = _add(acts, m, A_CAST, q, i, casting.CAST_NORMAL, 0)
    if ct[c, C_ALT] >= 0 and casting.castable(st, cd, q, i, casting.CAST_ALTERNATIVE):
        m = _add(acts, m, A_CAST, q, i, casting.CAST_ALTERNATIVE, 0)
    if ct[c, C_MUTATE] >= 0 and casting.castable(st, cd, q, i, casting.CAST_MUTATE):
        m = _add(acts, m, A_CAST, q, i, casting.CAST_MUTATE, 0)  # 702.140a
    return m


@kernel
def _library_top_options(st, cd, q, acts, m):
    """Windriddle Palace: q may play the top card of their library: a land as their land
    play for the turn (305.1-305.2), a spell with its own timing (601.3)."""
    t = zones.library_top(st, q, 0)
    if t < 0 or st.o[t, F_CARD] < 0:
        return m
    sorc = sorcery_timing(st, q)
    if st.o[t, F_TYPES] & T_LAND:
        if sorc and st.pl[q, P_LANDS] < land_drops(st, cd, q):
            m = _add(acts, m, A_LAND, q, t, 0, 0)
        return m
    return _cast_options(st, cd, q, t, sorc, acts, m)


@kernel
def _flashback_options(st, cd, q, i, sorc, acts, m):
    """702.34a: casting card i from q's graveyard by flashback: its own flashback cost,
    or its mana cost when a command-zone card gives it flashback (Otaria); its timing is
    the card's (an instant any time q could cast one, a sorcery at sorcery speed)."""
    o, ct = st.o, cd.ct
    c = o[i, F_CARD]
    own = ct[c, C_FLASHBACK] > 0
    if not own and not st.s[S_NCZ]:
        return m
    t = o[i, F_TYPES]
    if not (
        sorc or t & T_INSTANT or o[i, F_KW] & KW_FLASH or casting.as_though_flash(st, cd, q, i)
    ):
        return m
    if conspiracy.cant_cast(st, cd, q, i) or planechase.cant_cast_by_library_tops(st, cd, i):
        return m
    if own and casting.castable(st, cd, q, i, casting.CAST_FLASHBACK):
        m = _add(acts, m, A_CAST, q, i, casting.CAST_FLASHBACK, 0)
    if command_zone.grants(st, cd, i, ST_GRANT_FLASHBACK):
        if ct[c, C_SPELL] >= 0 and casting.castable(st, cd, q, i, casting.CAST_FLASHBACK_MANA):
            m = _add(acts, m, A_CAST, q, i, casting.CAST_FLASHBACK_MANA, 0)
    return m


@kernel
def _ability_options(st, cd, q, i, sorc, acts, m):
    o = st.o
    if merging.mutated(st, i):  # 702.140e: every component's abilities
        j = merging.top(st, i)
        while j >= 0:
            c = merging.card_face(st, cd, j)
            if c >= 0:
                m = _card_ability_options(st, cd, q, i, c, sorc, acts, m, -1)
            j = o[j, F_MERGED]
    else:
        c = continuous_effects.face(st, cd, i)
        if c < 0:
            return m
        if cd.ct[c, C_FLAGS] & CF_LISTED:  # (most permanents have no such ability: lands)
            m = _card_ability_options(st, cd, q, i, c, sorc, acts, m, -1)
    if st.s[S_NEEDS] & NEED_GRANTED_ABILITIES and o[i, F_ZONE] == BATTLEFIELD:
        for x in zones.permanents(st):  # "enchanted creature has '{T}: ...'" (Auras on it)
            if o[x, F_ATT] == i:
                cx = continuous_effects.face(st, cd, x)
                if cx >= 0:
                    m = _card_ability_options(st, cd, q, i, cx, sorc, acts, m, x)
    if st.s[S_NEEDS] & NEED_GRANTED and o[i, F_ZONE] == BATTLEFIELD:  # (Conspiracy)
        m = _granted_options(st, cd, q, i, sorc, acts, m)
    if (
        st.s[S_NEEDS] & NEED_GRANT_ABILITY_EFFECTS
        and st.s[S_NEFF] > 0
        and o[i, F_ZONE] == BATTLEFIELD
    ):
        m = _effect_granted_options(st, cd, q, i, sorc, acts, m)
    d = cd.ab.shape[0] - 1  # 804.2: deploy, the last ability row, after its own abilities
    if st.s[S_DEPLOY] and o[i, F_TYPES] & T_CREATURE and o[i, F_ZONE] == BATTLEFIELD and sorc:
        if casting.activatable(st, cd, q, i, d):
            m = _add(acts, m, A_ACTIVATE, q, i, d, 0)
    return m


@kernel
def _attack_requirement_unmet(st, cd):
    """508.1d: is a creature that "attacks this turn if able" able to attack and not
    declared yet? (Then the declaration can't be finished without it.)"""
    o = st.o
    if combat.attack_cap_reached(st, cd):  # (one attacker at most: it is declared)
        return False
    for i in zones.permanents(st):
        if o[i, F_RESTRICT] & MUST_ATTACK and o[i, F_DECL] == NO_TARGET:
            if players.is_active(st, o[i, F_CTL]) and combat.can_attack(st, i):
                if o[i, F_TYPES] & T_CREATURE:
                    return True
    return False


@kernel
def _card_ability_options(st, cd, q, i, c, sorc, acts, m, granted):
    o, ct, ab = st.o, cd.ct, cd.ab
    for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
        kind = ab[a, B_KIND]
        if kind == AB_MANA:  # a mana ability the automatic payment doesn't use (605.3a)
            if not (st.s[S_NEEDS] & NEED_COSTED_MANA) or not mana.manual(cd, a):
                continue
        elif kind != AB_ACTIVATED and kind != AB_LOYALTY and kind != AB_EQUIP:
            continue
        if kind == AB_ACTIVATED and ab[a, B_ARG] == 1 and granted < 0:
            continue  # (an ability the Aura gives the enchanted permanent: not its own)
        if kind == AB_ACTIVATED and ab[a, B_ARG] == AB_GRANTED_BY_EFFECT:
            continue  # (an ability a resolved effect gives permanents: not its card's)
        if granted >= 0 and not (kind == AB_ACTIVATED and ab[a, B_ARG] == 1):
            continue
        if ab[a, B_ZONE] != o[i, F_ZONE] or ab[a, B_GRANT] >= 0:  # (granted: its permanents')
            continue
        if kind == AB_LOYALTY:  # 606.3 (Teferi's emblem: any time they could cast an instant)
            if not sorc and not loyalty_any_time(st, cd, q):
                continue
        elif ab[a, B_SORC] == 2:  # "activate only during your turn"
            if not players.is_active(st, q):
                continue
        elif (ab[a, B_SORC] or kind == AB_EQUIP) and not sorc:
            continue
        if o[i, F_ZONE] == BATTLEFIELD and not players.in_range(st, q, o[i, F_CTL]):  # 801.6
            continue
        if casting.activatable(st, cd, q, i, a):
            m = _add(acts, m, A_ACTIVATE, q, i, a, 0)
    return m


@kernel
def _granted_options(st, cd, q, i, sorc, acts, m):
    """Activated abilities other objects give permanent i (Incendiary Dissent: "creatures
    you control with the chosen name have ..."; continuous_effects.grant_source)."""
    ct, ab = cd.ct, cd.ab
    for x in range(continuous_effects.n_grant_sources(st)):
        src, c = continuous_effects.grant_source(st, cd, x)
        if src < 0:
            continue
        for a in range(ct[c, C_AB0], ct[c, C_AB0] + ct[c, C_NAB]):
            if ab[a, B_GRANT] < 0 or ab[a, B_KIND] != AB_ACTIVATED:
                continue
            if ab[a, B_SORC] and not sorc:
                continue
            if not continuous_effects.grants_to(st, cd, src, a, i):
                continue
            if casting.activatable(st, cd, q, i, a):
                m = _add(acts, m, A_ACTIVATE, q, i, a, 0)
    return m


@kernel
def _effect_granted_options(st, cd, q, i, sorc, acts, m):
    """Activated abilities resolved effects gave permanent i ("each creature you control
    gains '{T}: ...' until end of turn": X_GRANT_ABILITY rows, the ability row in X_P),
    each listed once, while the effect applies to it (a new object doesn't have it, 400.7)."""
    o, ab, eff = st.o, cd.ab, st.eff
    if not players.in_range(st, q, o[i, F_CTL]):  # 801.6
        return m
    for k in range(st.s[S_NEFF]):
        if eff[k, X_KIND] != X_GRANT_ABILITY or eff[k, X_OBJ] != i or o[i, F_TS] > eff[k, X_TS]:
            continue
        a = eff[k, X_P]
        dup = False
        for j in range(k):
            if eff[j, X_KIND] == X_GRANT_ABILITY and eff[j, X_OBJ] == i and eff[j, X_P] == a:
                dup = dup or o[i, F_TS] <= eff[j, X_TS]
        if dup or (ab[a, B_SORC] and not sorc):
            continue
        if casting.activatable(st, cd, q, i, a):
            m = _add(acts, m, A_ACTIVATE, q, i, a, 0)
    return m


@kernel
def has_action(st, cd, p):
    """Can p (p's team) do anything but pass? Cached per state version and timing."""
    pl = st.pl
    sorc = 1 if sorcery_timing(st, p) else 0
    if pl[p, P_HA_VER] == st.s[S_VERSION] and pl[p, P_HA_SORC] == sorc:
        return pl[p, P_HA_VAL] == 1
    w = st.acts.shape[1]
    if shortcuts.restricts(st):  # 729.3: some options may be forbidden: list them all
        v = shortcuts.forbid(st, cd, p, st.acts, priority_actions(st, cd, p, st.acts, False)) > 1
    else:
        tmp = st.scr[SCR_HAS_ACTION, : 2 * w].reshape((2, w))
        v = priority_actions(st, cd, p, tmp, True) > 1
    pl[p, P_HA_VER] = st.s[S_VERSION]
    pl[p, P_HA_SORC] = sorc
    pl[p, P_HA_VAL] = 1 if v else 0
    return v


# ----------------------------------------------------------------- every decision
@kernel
def list_actions(st, cd):
    """List the options of the pending decision in ``acts``; returns (and records in
    S_NACTS) how many."""
    s, acts = st.s, st.acts
    kind = s[S_PEND]
    p = s[S_PPLAYER]
    m = 0
    n = st.s[S_N] + st.pl.shape[0] + 8
    if kind == PEND_NONE:
        m = 0
    elif s[S_CASTING] >= 0:
        m = _casting_options(st, cd, kind, p, acts)
    elif s[S_RES] >= 0:
        objs = st.scr[SCR_EFFECT_OBJS]
        args = st.scr[SCR_EFFECT_ARGS]
        k = effects.options(st, cd, objs, args)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, objs[j], args[j], 0)
    elif kind == PEND_PRIORITY:
        m = priority_actions(st, cd, p, acts, False)
        if shortcuts.restricts(st):  # 729.3: what p must not repeat from this state
            m = shortcuts.forbid(st, cd, p, acts, min(m, acts.shape[0]))
    elif kind == PEND_ATTACK:
        m = 0
        if not _attack_requirement_unmet(st, cd):  # 508.1d: "attacks this turn if able"
            m = _add(acts, 0, A_ATTACK_DONE, p, -1, 0, 0)
        m = combat.attack_options(st, cd, acts, m)
        m = _player_requirements(st, acts, m)
        if st.s[S_NEEDS] & NEED_CONSPIRACY:
            m = _attack_requirements(st, cd, acts, m)
    elif kind == PEND_BLOCK:
        if s[S_BLOCK_LAST] > 0 and s[S_BLOCK_VER] == s[S_VERSION] and not s[S_LDIRTY]:
            m = _block_relist(st, cd, s[S_BLOCK_LAST] - 1)
        else:
            ok = combat.blocks_legal(st)
            m = _add(acts, 0, A_BLOCK_DONE if ok else A_BLOCK_RESET, p, -1, 0, 0)
            m = combat.block_options(st, cd, p, acts, m)
    elif kind == PEND_DISCARD:
        for i in zones.hand_of(st, p):
            m = _add(acts, m, A_DISCARD, p, i, 0, 0)
    elif kind == PEND_MULLIGAN:
        m = _add(acts, 0, A_KEEP, p, -1, 0, 0)
        if st.pl[p, P_BOTTOM] < st.pl[p, P_START_HAND]:
            m = _add(acts, m, A_MULLIGAN, p, -1, 0, 0)
    elif kind == PEND_BOTTOM:
        for i in zones.hand_of(st, p):
            m = _add(acts, m, A_CHOOSE, p, i, 0, 0)
    elif kind == PEND_COMMAND_ZONE:  # 903.9a, asked by a state-based action: yes, no
        m = _add(acts, 0, A_CHOOSE, p, s[S_PB], 1, 0)
        m = _add(acts, m, A_CHOOSE, p, s[S_PB], 0, 0)
    elif kind == PEND_NUMBER:  # a pregame choice (Emissary's Ploy; Backup Plan's hand)
        for n in range(1, s[S_PB] + 1):
            m = _add(acts, m, A_CHOOSE, p, s[S_PA], n, 0)
    elif kind == PEND_NAME_CARD:  # 702.106a: a card's name (a double agenda's second: another)
        for c in range(cd.ct.shape[0]):
            if cd.ct[c, C_FLAGS] & CF_REAL and c != st.o[s[S_PA], F_NAMED]:
                m = _add(acts, m, A_CHOOSE, p, s[S_PA], c, 0)
    elif kind == PEND_SHORTCUT:  # 729.2b: accept or shorten a proposed shortcut
        m = shortcuts.answer_options(st, acts, 0)
    if m > acts.shape[0]:  # more options than rows: the game can't go on in this arena
        fail(st, ERR_FULL)
        m = 0
    s[S_NACTS] = m
    s[S_BLOCK_LAST] = 0
    return m


@kernel
def _block_relist(st, cd, b):
    """The block options right after blocker b was declared, nothing else having changed
    (not even the layers): the listing before it without b's rows, which is what
    ``combat.block_options`` would list now, in the same order (only b can no longer
    block); its first row "done" or "reset" as the declaration now stands (509.1c)."""
    s, acts = st.s, st.acts
    acts[0, AC_KIND] = A_BLOCK_DONE if combat.blocks_legal(st) else A_BLOCK_RESET
    if combat.block_cap_reached(st, cd):  # (one blocker at most: it is declared)
        return 1
    n = s[S_NACTS]
    i0 = 1
    while i0 < n and acts[i0, AC_OBJ] != b:
        i0 += 1
    i1 = i0
    while i1 < n and acts[i1, AC_OBJ] == b:  # (b's rows are together: blockers outside)
        i1 += 1
    if i1 > i0:  # the rows after b's move up (one flat copy of the contiguous table)
        w = acts.shape[1]
        flat = acts.reshape(acts.shape[0] * w)
        for j in range((n - i1) * w):
            flat[i0 * w + j] = flat[i1 * w + j]
    return n - (i1 - i0)


@kernel
def _player_requirements(st, acts, m):
    """508.1d: a creature that attacks a certain player if able (F_MUST_ATTACK_P, an
    effect's requirement) and can attack them now: only that option is listed for it,
    and the declaration can't be finished ("done", row 0) before it is declared. (One
    that can't attack that player has no requirement.)"""
    o = st.o
    drop_done = False
    k = 0
    while k < m:
        i = acts[k, AC_OBJ]
        q = o[i, F_MUST_ATTACK_P] - 1 if acts[k, AC_KIND] == A_ATTACK else -1
        if q >= 0:
            able = False
            for j in range(m):
                if (
                    acts[j, AC_KIND] == A_ATTACK
                    and acts[j, AC_OBJ] == i
                    and acts[j, AC_ARG] == -1 - q
                ):
                    able = True
            if able:
                drop_done = True
                if acts[k, AC_ARG] != -1 - q:
                    for j in range(k, m - 1):
                        for f in range(acts.shape[1]):
                            acts[j, f] = acts[j + 1, f]
                    m -= 1
                    continue
        k += 1
    if drop_done and m > 1 and acts[0, AC_KIND] == A_ATTACK_DONE:
        for j in range(0, m - 1):
            for f in range(acts.shape[1]):
                acts[j, f] = acts[j + 1, f]
        m -= 1
    return m


@kernel
def _attack_requirements(st, cd, acts, m):
    """508.1d (Cogwork Tracker): a creature that attacks each combat if able and isn't
    declared yet: the declaration can't be closed ("done" is dropped) while it could
    still attack; one that must attack a noted player, if it can, only attacks those."""
    drop_done = False
    k = 1
    while k < m:
        i = acts[k, AC_OBJ]
        req = conspiracy.must_attack(st, cd, i) if acts[k, AC_KIND] == A_ATTACK else 0
        if req == 0:
            k += 1
            continue
        drop_done = True
        if req == 2:
            noted = False
            for j in range(1, m):
                d = acts[j, AC_ARG]
                if acts[j, AC_OBJ] == i and d < 0 and conspiracy.noted_player(st, cd, i, -1 - d):
                    noted = True
            d = acts[k, AC_ARG]
            if noted and not (d < 0 and conspiracy.noted_player(st, cd, i, -1 - d)):
                for j in range(k, m - 1):  # (this defender isn't a noted player: not listed)
                    for f in range(acts.shape[1]):
                        acts[j, f] = acts[j + 1, f]
                m -= 1
                continue
        k += 1
    if drop_done and m > 1:
        for j in range(0, m - 1):
            for f in range(acts.shape[1]):
                acts[j, f] = acts[j + 1, f]
        m -= 1
    return m


@kernel
def _casting_options(st, cd, kind, p, acts):
    s, o = st.s, st.o
    it = s[S_CASTING]
    n = st.s[S_N] + st.pl.shape[0] + 8
    m = 0
    if kind == PEND_TARGET:
        spec = s[S_PA]
        src = zones.is_source_of(st, it)
        tbuf = st.scr[SCR_OPTION_TARGETS]
        k = casting.target_options(st, cd, it, spec, p, src, tbuf, n)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, tbuf[j], 0, 0)
        if casting.may_stop_targets(st, cd, spec):  # ("up to": no more targets)
            m = _add(acts, m, A_CHOOSE, p, NO_TARGET, 0, 0)
        return m
    if kind == PEND_X:
        xs = st.scr[SCR_OPTION_XS]
        k = casting.x_options(st, cd, it, xs)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, -1, xs[j], 0)
        return m
    buf = np.empty(n, np.int64)
    if kind == PEND_CHOOSE_PLAYER:
        k = casting.chooser_options(st, o[it, F_ICTL], buf)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, -1 - buf[j], buf[j], 0)
    elif kind == PEND_MODE:
        k = casting.mode_options(st, cd, it, buf)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, -1, buf[j], 0)
    elif kind == PEND_KICKER:  # not kicking first (the default a script gets)
        m = _add(acts, m, A_CHOOSE, p, -1, 0, 0)
        m = _add(acts, m, A_CHOOSE, p, -1, 1, 0)
    elif kind == PEND_CHOOSE_OBJECT and s[S_CAST_STAGE] == CAST_CONSPIRE:
        k = casting.conspire_options(st, cd, it, buf)  # a creature to tap (702.78a)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, buf[j], 0, 0)
    elif kind == PEND_CHOOSE_OBJECT:
        k = casting.sacrifice_options(st, cd, it, buf)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, buf[j], 0, 0)
    elif kind == PEND_YES_NO:  # conspire (702.78a): not paying first, as for kicker
        m = _add(acts, m, A_CHOOSE, p, -1, 0, 0)
        m = _add(acts, m, A_CHOOSE, p, -1, 1, 0)
    elif kind == PEND_COLOR:
        k = casting.color_options(st, cd, it, buf)
        for j in range(k):
            m = _add(acts, m, A_CHOOSE, p, -1, buf[j], 0)
    return m


# ----------------------------------------------------------------- carrying out
@kernel(inline="always")
def _keeps_priority(st):
    """After a special action (116.2: a land play, turning a card face up, suspending)
    the player who took it receives priority again (117.3c); no one has passed since."""
    s = st.s
    s[S_PASSES] = 0
    s[S_PRIO] = s[S_PPLAYER]
    s[S_TODO] = TODO_PRIORITY


@kernel
def apply(st, cd, k):
    """Carry out option k of the pending decision (as listed by ``list_actions``)."""
    s, acts = st.s, st.acts
    pend = s[S_PEND]
    kind, q, obj, arg = acts[k, AC_KIND], acts[k, AC_PLAYER], acts[k, AC_OBJ], acts[k, AC_ARG]
    if s[S_NACTS] > 1:
        loops.choice_made(st)  # a real choice: whatever repeats isn't a mandatory loop
    if s[S_CASTING] >= 0:
        x = obj if pend == PEND_TARGET or pend == PEND_CHOOSE_OBJECT else arg
        casting.answer(st, cd, pend, x)
        return
    if s[S_RES] >= 0:
        ans = obj if pend == PEND_CHOOSE_OBJECT or pend == PEND_DISCARD else arg
        effects.resume(st, cd, ans)
        return
    if pend == PEND_SHORTCUT:
        shortcuts.answer(st, arg)
        return
    if pend == PEND_PRIORITY:
        shortcuts.acted(st, cd, q, kind, obj, arg)  # 729.3, 729.4: what loops look at
        s[S_PEND] = PEND_NONE
        if kind == A_PASS:
            priority.do_pass(st, cd, s[S_PPLAYER])
        elif kind == A_LAND:  # 305.1: a special action; the player keeps priority
            if obj < -1:  # a basic land from outside the game (Sovereign's Realm)
                obj = zones.new_object(st, cd, -2 - obj, q, GONE)
            zones.enter_battlefield(st, cd, obj, q, -1, 0)
            st.pl[q, P_LANDS] += 1
            _keeps_priority(st)
        elif kind == A_CAST:
            casting.begin_spell(st, cd, q, obj, arg)
        elif kind == A_ACTIVATE:
            casting.begin_ability(st, cd, q, obj, arg)
        elif kind == A_SPECIAL and arg == SP_SUSPEND:  # Talon Gates (116.2): keeps priority
            suspend.suspend_card(st, cd, q, obj)
            _keeps_priority(st)
        elif kind == A_SPECIAL and arg == SP_TURN_FACE_UP:  # 702.106c: keeps priority
            conspiracy.turn_face_up(st, cd, q, obj)
            _keeps_priority(st)
        elif kind == A_SPECIAL:  # 116.2: a special action; the rules say who gets priority
            variants.special_action(st, cd, q, arg)
        return
    if pend == PEND_ATTACK:
        if kind == A_ATTACK:
            s[S_DSEQ] += 1
            combat.declare_attacker(st, obj, arg, s[S_DSEQ])
            bump(st)
        else:
            combat.finish_attacks(st, cd)
            s[S_TODO] = TODO_PRIORITY
            s[S_PRIO] = s[S_ACTIVE]
        return
    if pend == PEND_BLOCK:
        if kind == A_BLOCK:
            s[S_DSEQ] += 1
            combat.declare_blocker(st, obj, arg, s[S_DSEQ])
            bump(st)
            s[S_BLOCK_LAST] = obj + 1  # (the next listing is this one without obj's rows)
            s[S_BLOCK_VER] = s[S_VERSION]
        elif kind == A_BLOCK_RESET:
            combat.clear_declarations(st)
            bump(st)
        else:
            combat.finish_blocks(st, cd, s[S_PPLAYER])
            combat.ask_next_blocker(st, cd)
            if s[S_PEND] == PEND_NONE:
                s[S_TODO] = TODO_PRIORITY
                s[S_PRIO] = s[S_ACTIVE]
        return
    if pend == PEND_DISCARD:  # 514.1
        zones.discard(st, cd, obj)
        s[S_PCOUNT] -= 1
        if s[S_PCOUNT] <= 0:
            s[S_PEND] = PEND_NONE
            s[S_TODO] = TODO_BEGIN  # the cleanup step goes on (the next active player)
        return
    if pend == PEND_NAME_CARD:  # 702.106a: as the game begins
        conspiracy.answer_name(st, arg)
        if s[S_STEP] != PREGAME and not conspiracy.pregame_name(st, cd):  # (a scenario's)
            if not conspiracy.pregame_hand(st, cd):
                if not s[S_MULLIGANS] or mulligan.advance(st, cd):
                    game_loop.first_turn(st, cd)
        return
    if pend == PEND_NUMBER:  # (Conspiracy Draft: a pregame choice)
        conspiracy.answer_pregame(st, cd, q, arg)
        if s[S_STEP] != PREGAME:  # a hand kept (Backup Plan): on to the mulligans
            if not conspiracy.pregame_hand(st, cd):
                if not s[S_MULLIGANS] or mulligan.advance(st, cd):
                    game_loop.first_turn(st, cd)
        return
    if pend == PEND_MULLIGAN or pend == PEND_BOTTOM:
        if pend == PEND_MULLIGAN:
            mulligan.decide(st, cd, q, kind == A_MULLIGAN)
        else:
            mulligan.put_on_bottom(st, cd, q, obj)
        if mulligan.advance(st, cd):
            game_loop.first_turn(st, cd)
        return
    if pend == PEND_COMMAND_ZONE:
        variants.answer(st, cd, pend, arg)
        return
    touch(st)
