"""The effect interpreter (608.2c-h, 609): the steps of a resolving spell or ability,
one vocabulary word per row of its program (``ep``), with the range of influence
(801.10: what is out of range is left alone).

A step that needs a player's decision (discard, sacrifice, search, scry, "you may",
"unless ... pays", choose) sets the pending decision and returns ``PAUSE``; the
program's progress stays in the game's scalars (``S_RES_PC``, ``S_RES_SUB``,
``S_RES_AUX``, the ``chosen`` and ``marks`` tables), ``options`` lists the choices,
and once the answer is in (``S_ANSWER``) ``resume`` runs the step again, which reads
it and goes on. Programs run in order; ``may``, ``unless``, ``if`` and ``for_each``
jump within them (``E_JUMP``)."""

from __future__ import annotations

import numpy as np

from components.cards import (
    B_COST,
    B_E0,
    B_EN,
    B_HYB,
    B_MODES0,
    B_NMODES,
    C_BACK,
    COST_W,
    E_A,
    E_AMT,
    E_AMT2,
    E_B,
    E_C,
    E_COLORS,
    E_D,
    E_JUMP,
    E_MUST_FIND,
    E_OP,
    E_REF,
    E_REF2,
    E_REF2A,
    E_REFA,
    E_SETS_PT,
    E_SUB,
    E_UNTIL,
    FREE_FROM_REF,
    FREE_FROM_SEARCH,
    FREE_FROM_SET,
    FREE_FROM_TOP,
    MAY_PAY_X,
    MUST_ATTACK_OWNER,
    NHYB,
    OP_ABANDON,
    OP_ADD_MANA,
    OP_ADDITIONAL_COMBAT,
    OP_ANIMATE,
    OP_ATTACH,
    OP_BASICS_FROM_OUTSIDE,
    OP_BECOME_COPY,
    OP_BOUNCE,
    OP_CANT_BLOCK,
    OP_CANT_REGENERATE,
    OP_CAST_FREE,
    OP_CHAOS_OF_TOP_PLANES,
    OP_CHAOTIC_AETHER,
    OP_CHOOSE,
    OP_CHOOSE_MODE,
    OP_COPY_FOR_EACH_TARGET,
    OP_COPY_SPELL,
    OP_COPY_TOKEN,
    OP_COUNTER,
    OP_COUNTERS,
    OP_CREATE_TOKEN,
    OP_DAMAGE,
    OP_DAY_NIGHT,
    OP_DELAYED,
    OP_DESTROY,
    OP_DEVOUR,
    OP_DISCARD,
    OP_DISTRIBUTE_COUNTERS,
    OP_DOUBLE_LIFE,
    OP_DRAW,
    OP_DRAW_GAME,
    OP_EMBLEM,
    OP_ENTER_AS_COPY,
    OP_EXCHANGE_CONTROL,
    OP_EXCHANGE_LIFE,
    OP_EXILE,
    OP_EXILE_FROM_HAND,
    OP_EXILE_IF_LEAVES,
    OP_EXILE_UNTIL,
    OP_EXTRA_TURN,
    OP_FACT_OR_FICTION,
    OP_FIGHT,
    OP_FOR_EACH,
    OP_GAIN_CONTROL,
    OP_GAIN_DEVOUR,
    OP_GAIN_LIFE,
    OP_GRANT,
    OP_GRANT_ABILITY,
    OP_IF,
    OP_JUMP,
    OP_LASTING,
    OP_LIFE_LOWEST,
    OP_LOOK_AT_TOP,
    OP_LOSE,
    OP_LOSE_KEYWORDS,
    OP_LOSE_LIFE,
    OP_MAY,
    OP_MELD,
    OP_MERGE,
    OP_MILL,
    OP_MONARCH,
    OP_MUST_ATTACK,
    OP_NEXT,
    OP_NO_MAX_HAND,
    OP_NO_SCHEMES,
    OP_PLANESWALK,
    OP_PREVENT,
    OP_PROLIFERATE,
    OP_PUMP,
    OP_PUT_ATTACKING,
    OP_PUT_LAND,
    OP_REDIRECT,
    OP_REDISTRIBUTE_LIFE,
    OP_REGENERATE,
    OP_REMOVE_FROM_COMBAT,
    OP_RESHUFFLE_PERMANENTS,
    OP_RESTART,
    OP_RETURN,
    OP_RETURN_AT_RANDOM,
    OP_REVEAL_PLANES,
    OP_REVEAL_TOP,
    OP_REVEAL_UNTIL,
    OP_REVERSE_TURN_ORDER,
    OP_ROLL_PLANAR_DIE,
    OP_SAC_UNLESS_LIFE,
    OP_SACRIFICE,
    OP_SACRIFICE_EACH,
    OP_SCRY,
    OP_SEARCH,
    OP_SET_BASE_PT,
    OP_SET_IN_MOTION,
    OP_SET_LIFE,
    OP_SHUFFLE,
    OP_SUBGAME,
    OP_SURVEIL,
    OP_SUSPEND_HASTE,
    OP_SUSPEND_TICK,
    OP_TAP,
    OP_TO_LIBRARY,
    OP_TRANSFORM,
    OP_UNLESS,
    OP_UNTAP,
    OP_WIN,
    OP_WISH,
    R_NONE,
    REVEAL_PLANES_PLANESWALK,
    ST_DOUBLE_COUNTERS,
    ST_DOUBLE_TOKENS,
    X_NO_MAX_HAND,
)
from components.decisions import (
    PEND_CHOOSE_OBJECT,
    PEND_COLOR,
    PEND_COMMAND_ZONE,
    PEND_DISCARD,
    PEND_MODE,
    PEND_NONE,
    PEND_NUMBER,
    PEND_PILE,
    PEND_PILE_SPLIT,
    PEND_POSITION,
    PEND_SCRY,
    PEND_SUBGAME,
    PEND_YES_NO,
    T_RANDOM,
)
from components.effects import (
    H_AMT,
    H_BY,
    H_COMBAT,
    H_CTL,
    H_HASRECIP,
    H_RECIP,
    H_REDIRECT,
    UNTIL_FOREVER,
    X_ANIMATE,
    X_CANT_BLOCK,
    X_COLORS,
    X_CONTROL,
    X_COPY,
    X_CTL,
    X_GRANT_ABILITY,
    X_KIND,
    X_KW,
    X_LASTING,
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
    S_ACTIVE,
    S_ANSWER,
    S_ANSWERED,
    S_CHAOS_BLANKS,
    S_DAY_NIGHT,
    S_LAST,
    S_LAST_POWER,
    S_LOOPK,
    S_MONARCH,
    S_N,
    S_NBROUGHT,
    S_NCHOSEN,
    S_NDL,
    S_NDV,
    S_NEFF,
    S_NLOOP,
    S_NSH,
    S_NTRG,
    S_NXT,
    S_OVER,
    S_PA,
    S_PB,
    S_PEND,
    S_PPLAYER,
    S_RES,
    S_RES_AB,
    S_RES_AUX,
    S_RES_END,
    S_RES_IT,
    S_RES_MODE,
    S_RES_PC,
    S_RES_SUB,
    S_RESTARTED,
    S_STARTING,
    S_STEP,
    S_SUBGAME,
    S_TURN,
    S_XCOMBATS,
    SUB_DONE,
    SUB_NONE,
    SUB_REQUESTED,
)
from components.objects import (
    F_ATKO,
    F_ATKP,
    F_ATT,
    F_BCTL,
    F_BROUGHT,
    F_CARD,
    F_CHOOSER,
    F_COMMANDER,
    F_CTL,
    F_CTR,
    F_DEVOUR,
    F_DEVOURED,
    F_EVO,
    F_EXILED_BY,
    F_FROM,
    F_IAB,
    F_ICTL,
    F_IKIND,
    F_KICKED,
    F_LASTING_PLAYER,
    F_LEFT_WITH,
    F_MODES,
    F_NOREGEN,
    F_NT,
    F_OUTSIDE,
    F_OWNER,
    F_POW,
    F_REGEN,
    F_SPENT,
    F_SRC,
    F_SUSP_HASTE,
    F_SUSPEND,
    F_T0,
    F_TAPPED,
    F_TOKEN,
    F_TS,
    F_TSPEC,
    F_TYPES,
    F_UNEARTHED,
    F_X,
    F_ZONE,
    MAX_TARGETS,
    TOKEN_LASTING,
)
from components.players import (
    P_ALIVE,
    P_CMDCAST,
    P_CTR,
    P_DREW_EMPTY,
    P_HANDN,
    P_KEEP_MANA,
    P_LANDS,
    P_LIBN,
    P_LIFE,
    P_LIFEPOOL,
    P_MANA,
    P_OUTSIDE_BASICS,
    P_POISON,
    P_START_HAND,
    P_START_LIFE,
)
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    CTR_POISON,
    EXILE,
    GONE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    MAIN1,
    MAIN2,
    N_COUNTERS,
    N_MANA,
    NO_TARGET,
    STACK,
    T_CREATURE,
    T_LAND,
)
from components.scratch import SCR_COPY_TARGETS, SCR_COST, SCR_OPTION_COST, SCR_REFS
from components.stack import (
    I_SPELL,
    V_AMOUNT,
    V_ITEM,
    V_SPEC,
    V_TARGET,
)
from systems import (
    archenemy,
    casting,
    combat,
    command_zone,
    commander,
    continuous_effects,
    damage,
    day_night,
    delayed,
    leaving_game,
    legal_actions,
    mana,
    merging,
    monarch,
    planechase,
    players,
    selectors,
    stack,
    suspend,
    targets,
    turn_structure,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import (
    copy_into,
    delete_row,
    new_effect,
    new_row,
    popcount,
    rand_below,
    stamp,
    touch,
    trace,
    zeroed,
)

PAUSE, NEXT, JUMPED = 0, 1, 2
NONE = NO_TARGET  # the "none" / "no more" option of a choice
# destinations (search, look at the top, return)
TO_HAND, TO_BATTLEFIELD, TO_LIBRARY_TOP, TO_GRAVEYARD, TO_LIBRARY_BOTTOM = range(5)
# discard modes (E_A of OP_DISCARD)
DISCARD_CHOOSE, DISCARD_RANDOM, DISCARD_ALL = range(3)
EMBLEM = 3  # F_TOKEN of an emblem (114): not a card, ceases to exist on a restart
LASTING = TOKEN_LASTING  # F_TOKEN of the holder of a lasting effect's statics (OP_LASTING)
# exile modes (E_A of OP_EXILE)
EXILE_PLAIN, EXILE_WITH_SOURCE, EXILE_UNTIL_LEAVES = range(3)


# ----------------------------------------------------------------- running a program
@kernel
def start(st, cd, item):
    """Begin the effects of stack object ``item``; True once they are all done, False
    while a decision is pending."""
    s, o, ab = st.s, st.o, cd.ab
    s[S_RES] = item
    s[S_RES_MODE] = -1
    s[S_NCHOSEN] = 0
    s[S_NLOOP] = 0
    s[S_LOOPK] = 0
    s[S_ANSWERED] = 0
    s[S_RES_IT] = NONE
    a = o[item, F_IAB]
    if a < 0:
        return True
    if ab[a, B_NMODES]:
        if not _next_mode(st, cd, item, a):
            return True
    else:
        _load(st, cd, a)
    return run(st, cd)


@kernel(inline="always")
def _load(st, cd, a):
    s = st.s
    s[S_RES_AB] = a
    s[S_RES_PC] = cd.ab[a, B_E0]
    s[S_RES_END] = cd.ab[a, B_E0] + cd.ab[a, B_EN]
    s[S_RES_SUB] = 0
    s[S_RES_AUX] = 0


@kernel
def _next_mode(st, cd, item, a):
    """700.2: the chosen modes, in printed order."""
    s = st.s
    m = s[S_RES_MODE] + 1
    while m < cd.ab[a, B_NMODES]:
        if (st.o[item, F_MODES] >> m) & 1:
            s[S_RES_MODE] = m
            _load(st, cd, cd.ab[a, B_MODES0] + m)
            return True
        m += 1
    return False


@kernel
def run(st, cd):
    """Run the program from S_RES_PC; True when finished, False at a decision."""
    s, o, ab = st.s, st.o, cd.ab
    item = s[S_RES]
    while True:
        if s[S_OVER]:
            return True
        if s[S_RES_PC] >= s[S_RES_END]:
            a = o[item, F_IAB]
            if a >= 0 and ab[a, B_NMODES] and _next_mode(st, cd, item, a):
                continue
            return True
        r = s[S_RES_PC]
        status = step(st, cd, r)
        if status == PAUSE:
            return False
        if status == NEXT:
            s[S_RES_PC] = r + 1
            s[S_RES_SUB] = 0
            s[S_RES_AUX] = 0


@kernel
def resume(st, cd, answer):
    """The pending decision of a resolving effect was answered: go on."""
    s = st.s
    s[S_PEND] = PEND_NONE
    s[S_ANSWER] = answer
    s[S_ANSWERED] = 1
    if run(st, cd):
        stack.finish_resolution(st, cd)


@kernel(inline="always")
def _ask(st, kind, who, b):
    s = st.s
    s[S_PEND] = kind
    s[S_PPLAYER] = who
    s[S_PA] = s[S_RES_PC]
    s[S_PB] = b
    return PAUSE


@kernel(inline="always")
def _answered(st):
    s = st.s
    if s[S_ANSWERED]:
        s[S_ANSWERED] = 0
        return True
    return False


@kernel(inline="always")
def _jump(st, cd, r):
    st.s[S_RES_PC] = cd.ep[r, E_JUMP]
    st.s[S_RES_SUB] = 0
    st.s[S_RES_AUX] = 0
    return JUMPED


@kernel(inline="always")
def _reach(st, you, x):
    """801.10: can the effect affect x (a player code or an object)?"""
    if x == NONE:
        return False
    if x < 0:
        return players.in_range(st, you, -1 - x) or _planar_item(st)
    z = st.o[x, F_ZONE]
    if z == BATTLEFIELD:
        return players.in_range(st, you, st.o[x, F_CTL]) or _planar_item(st)
    return True


@kernel
def _planar_item(st):
    """901.13: is what resolves an ability of a plane or phenomenon (no range limit)?"""
    i = st.s[S_RES]
    return i >= 0 and selectors.unbounded(st, zones.is_source_of(st, i))


# ----------------------------------------------------------------- one step
@kernel
def step(st, cd, r):
    s, ep = st.s, cd.ep
    item = s[S_RES]
    you, src = selectors.context_of(st, item)
    op = ep[r, E_OP]
    touch(st)
    if op == OP_JUMP:
        return _jump(st, cd, r)
    if op == OP_IF:
        if selectors.holds(st, cd, ep[r, E_A], you, src, item):
            return NEXT
        return _jump(st, cd, r)
    if op == OP_MAY:
        return _may(st, cd, r, you, src, item)
    if op == OP_UNLESS:
        return _unless(st, cd, r, you, src, item)
    if op == OP_FOR_EACH:
        return _for_each(st, cd, r, you, src, item)
    if op == OP_NEXT:
        s[S_LOOPK] += 1
        return _jump(st, cd, r)
    if op == OP_DISCARD:
        return _discard(st, cd, r, you, src, item)
    if op == OP_SCRY or op == OP_SURVEIL:
        return _scry(st, cd, r, you, src, item)
    if op == OP_LOOK_AT_TOP or op == OP_REVEAL_TOP:
        return _look(st, cd, r, you, src, item)
    if op == OP_SEARCH:
        return _search(st, cd, r, you, src, item)
    if op == OP_SACRIFICE:
        return _sacrifice(st, cd, r, you, src, item)
    if op == OP_CHOOSE or op == OP_PUT_LAND or op == OP_EXILE_FROM_HAND or op == OP_PUT_ATTACKING:
        return _choose(st, cd, r, you, src, item)
    if op == OP_PROLIFERATE:
        return _proliferate(st, cd, r, you, src, item)
    if op == OP_COUNTER:
        return _counter(st, cd, r, you, src, item)
    if op == OP_SAC_UNLESS_LIFE:
        return _sac_unless_life(st, cd, r, you, src, item)
    if op == OP_FACT_OR_FICTION:
        return _piles(st, cd, r, you, src, item)
    if (op == OP_BOUNCE or op == OP_TO_LIBRARY or op == OP_RETURN) and variants.commander_rules(st):
        if _command_zone_question(st, cd, r, you, src, item):  # 903.9b
            return PAUSE
    if op == OP_COPY_SPELL:
        return _copy(st, cd, r, you, src, item)
    if op == OP_ADD_MANA and cd.ep[r, E_B] < 0:
        return _add_mana_choice(st, cd, r, you, src, item)
    if op == OP_REDISTRIBUTE_LIFE:
        return _redistribute(st, cd, r, you, src, item)
    if op == OP_DISTRIBUTE_COUNTERS:
        _distribute_counters(st, cd, r, you, src, item)
        return NEXT
    if op == OP_RESTART:
        return _restart(st, cd, r, you, src, item)
    if op == OP_LOSE_LIFE or op == OP_TO_LIBRARY or op == OP_SACRIFICE_EACH:  # ("this way")
        s[S_LAST] = 0
    if op == OP_EXILE:
        s[S_LAST_POWER] = 0
    if op == OP_REVEAL_PLANES:
        return _reveal_planes(st, cd, r, you, src, item)
    if op == OP_CHOOSE_MODE:
        return _choose_mode(st, cd, r, you, src, item)
    if op == OP_REVEAL_UNTIL and ep[r, E_D] == 1:
        return _reveal_until_each(st, cd, r, you, src, item)
    if op == OP_REVEAL_UNTIL:
        _reveal_until(st, cd, r, you, src, item)
        return NEXT
    if (
        (op >= OP_PLANESWALK and op <= OP_ABANDON)
        or (op >= OP_CHAOTIC_AETHER and op <= OP_NO_MAX_HAND)
        or op == OP_RESHUFFLE_PERMANENTS
    ):
        _casual(st, cd, r, you, src, item)
        return NEXT
    # 726-729 (subgames, mutate, day and night's cards)
    if op == OP_MERGE:
        return _merge(st, cd, r, you, src, item)
    if op == OP_ENTER_AS_COPY:
        _enter_as_copy(st, cd, r, you, src, item)
        return NEXT
    if op == OP_SUBGAME:
        return _subgame(st, cd, r, you)
    if op == OP_WISH:
        return _wish(st, cd, r, you, src, item)
    if op == OP_MELD:
        _meld(st, cd, r, you, src)
        return NEXT
    if op == OP_COPY_FOR_EACH_TARGET:
        _copy_for_each_target(st, cd, r, you, src, item)
        return NEXT
    if op == OP_DEVOUR:
        _devour(st, cd, you, item)
        return NEXT
    if op == OP_EXILE_UNTIL:
        return _exile_until(st, cd, r, you, src, item)
    if op == OP_CAST_FREE:
        return _cast_free(st, cd, r, you, src, item)
    if op == OP_RETURN_AT_RANDOM:
        _return_at_random(st, cd, r, you, src, item)
        return NEXT
    _simple(st, cd, r, you, src, item)
    return NEXT


@kernel
def _add_mana_choice(st, cd, r, you, src, item):
    """ "Add N mana of any one colour" (106.1b) or of one of some colours: the player
    chooses the colour as it resolves (one choice for all N); E_A 1: it doesn't empty
    from the pool until the turn ends."""
    ep = cd.ep
    p = _who(st, cd, r, you, src, item)
    bits = ep[r, E_C]
    if _answered(st):
        c = st.s[S_ANSWER]
    elif popcount(bits) == 1:
        c = 0
        while not (bits >> c) & 1:
            c += 1
    else:
        if not st.pl[p, P_ALIVE]:
            return NEXT
        return _ask(st, PEND_COLOR, p, -1)
    if st.pl[p, P_ALIVE]:
        n = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
        mana.add_mana(st, p, c, n)
        if ep[r, E_A] == 1:  # "until end of turn, you don't lose this mana" (Kessig Naturalist)
            st.pl[p, P_KEEP_MANA + c] += n
    return NEXT


@kernel
def _command_zone_question(st, cd, r, you, src, item):
    """903.9b: before a step puts objects into their owners' hands or libraries, the
    owner of each commander among them decides whether it goes to the command zone
    instead (one decision per commander, in the order the step names them; the answer
    rides on the card until it moves). True while a decision is pending."""
    s, o, ep = st.s, st.o, cd.ep
    if _answered(st):
        commander.record_answer(st, s[S_PB], s[S_ANSWER] == 1)
    op = ep[r, E_OP]
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    for k in range(m):
        x = buf[k]
        if x < 0 or not _reach(st, you, x):
            continue
        z = o[x, F_ZONE]
        if op == OP_BOUNCE:
            goes = z == BATTLEFIELD or z == STACK or z == GRAVEYARD or z == EXILE
        elif op == OP_RETURN:
            goes = (z == GRAVEYARD or z == EXILE) and ep[r, E_A] != TO_BATTLEFIELD
        else:
            goes = z != LIBRARY and z != GONE
        if not goes:
            continue
        c = commander.unasked(st, x)
        if c >= 0:
            _ask(st, PEND_COMMAND_ZONE, o[c, F_OWNER], c)
            return True
    return False


@kernel
def _simple(st, cd, r, you, src, item):
    """The steps that need no decision: each applies to what its reference names."""
    s, o, ep = st.s, st.o, cd.ep
    op = ep[r, E_OP]
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    ts = -1
    if op == OP_DAMAGE:
        source = src
        if ep[r, E_REF2] != R_NONE:
            source = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
        for k in range(m):
            if _reach(st, you, buf[k]):
                damage.deal_damage_with(st, cd, source, you, buf[k], amt, False, ep[r, E_A] == 1)
    elif op == OP_FIGHT:
        other = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
        if m >= 1 and other >= 0 and buf[0] >= 0:
            a, b = buf[0], other
            if o[a, F_ZONE] == BATTLEFIELD and o[b, F_ZONE] == BATTLEFIELD and _reach(st, you, b):
                pa, pb = o[a, F_POW], o[b, F_POW]
                damage.deal_damage(st, cd, a, o[a, F_CTL], b, pa, False)
                damage.deal_damage(st, cd, b, o[b, F_CTL], a, pb, False)
    for k in range(m):
        x = buf[k]
        if not _reach(st, you, x):
            continue
        if x < 0:
            p = -1 - x
            if not st.pl[p, P_ALIVE]:
                continue
            if op == OP_GAIN_LIFE:
                damage.gain_life(st, cd, p, amt)
            elif op == OP_LOSE_LIFE:
                before = players.life(st, p)
                damage.lose_life(st, cd, p, amt)
                s[S_LAST] += before - players.life(st, p)  # "the life lost this way"
            elif op == OP_DRAW:
                zones.draw(st, cd, p, amt)
            elif op == OP_MILL:
                zones.mill(st, cd, p, amt)
            elif op == OP_SHUFFLE:
                zones.shuffle(st, p)
            elif op == OP_EXTRA_TURN:
                n = s[S_NXT]
                if n < st.xt.shape[0]:
                    for j in range(n, 0, -1):  # 500.7: the most recent first
                        st.xt[j] = st.xt[j - 1]
                    st.xt[0] = p
                    s[S_NXT] = n + 1
            elif op == OP_WIN:
                leaving_game.win(st, cd, p)
            elif op == OP_LOSE:
                if not leaving_game.cant_lose(st, cd, p):
                    ps = np.empty(1, np.int64)
                    ps[0] = p
                    leaving_game.players_lose(st, cd, ps, 1)
            elif op == OP_DRAW_GAME:
                leaving_game.game_is_a_draw(st, cd, p)
            elif op == OP_DOUBLE_LIFE:
                damage.set_life(st, cd, p, 2 * players.life(st, p))
            elif op == OP_SET_LIFE:
                damage.set_life(st, cd, p, amt)
            elif op == OP_COUNTERS:
                kind = ep[r, E_A]
                _player_counters(st, p, kind, amt)
            elif op == OP_CREATE_TOKEN:
                att = NONE  # the player each token attacks each combat if able (508.1d)
                if ep[r, E_REF2] != R_NONE:
                    att = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                n = amt << command_zone.doublings(st, cd, ST_DOUBLE_TOKENS)  # (614.1a)
                for _ in range(n):
                    t = zones.new_object(st, cd, ep[r, E_A], p, GONE)
                    if t < 0:
                        return
                    o[t, F_TOKEN] = 1
                    zones.enter_battlefield(st, cd, t, p, -1, ep[r, E_B])
                    s[S_RES_IT] = t
                    if ep[r, E_C] == 1 and att >= 0:  # blocking that creature (509.1h)
                        combat.put_blocking(st, t, att)
                    elif att != NONE and att < 0:
                        _must_attack(st, t, you, src, -1 - att)
            elif op == OP_ADD_MANA:
                mana.add_mana(st, p, ep[r, E_B], amt)
            elif op == OP_LASTING:  # 611.2a: its statics apply until the time it names
                _lasting(st, cd, r, p, src, item)
            elif op == OP_EMBLEM:  # 114.2: it goes to the command zone
                e = zones.new_object(st, cd, ep[r, E_A], p, COMMAND)
                if e >= 0:
                    o[e, F_CTL] = p
                    o[e, F_BCTL] = p
                    o[e, F_TOKEN] = EMBLEM
            elif op == OP_PREVENT:
                _shield(st, you, 1, x, amt, ep[r, E_B], NONE)
            elif op == OP_REDIRECT:
                to = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                if to != NONE:
                    _shield(st, you, 1, x, amt, 0, to)
            elif op == OP_MONARCH:  # 724.3 (E_A: the designation's card row)
                monarch.become(st, cd, p, ep[r, E_A])
            elif op == OP_BASICS_FROM_OUTSIDE:  # (Sovereign's Realm: this turn)
                st.pl[p, P_OUTSIDE_BASICS] = 1
            continue
        # an object
        z = o[x, F_ZONE]
        if op == OP_DESTROY:
            zones.destroy_with(st, cd, x, ep[r, E_B] == 1)
        elif op == OP_CANT_REGENERATE:
            if z == BATTLEFIELD:
                o[x, F_NOREGEN] = 1
        elif op == OP_EXILE:
            if ep[r, E_A] == EXILE_UNTIL_LEAVES and o[src, F_ZONE] != BATTLEFIELD:
                continue  # 610.3c: the source already left: nothing is exiled
            if z != EXILE:
                power = o[x, F_POW] if z == BATTLEFIELD and o[x, F_POW] > 0 else 0
                zones.move(st, cd, x, EXILE, -1)
                if o[x, F_ZONE] == EXILE:  # ("the total power of the creatures exiled")
                    s[S_LAST_POWER] += power
                if ep[r, E_A] == EXILE_WITH_SOURCE:
                    o[x, F_EXILED_BY] = src
                elif ep[r, E_A] == EXILE_UNTIL_LEAVES:
                    o[x, F_EXILED_BY] = -2 - src  # (returns when src leaves: zones)
        elif op == OP_BOUNCE:
            if z == BATTLEFIELD or z == STACK or z == GRAVEYARD or z == EXILE:
                zones.move(st, cd, x, HAND, -1)
        elif op == OP_TO_LIBRARY:
            if ep[r, E_B] > 0:  # "from" a zone: still the card put there (400.7)
                if z != ep[r, E_B] - 1 or (item >= 0 and o[x, F_TS] > o[item, F_TS]):
                    continue
            where = ep[r, E_A]
            zones.to_library(st, cd, x, where == 0)
            if z != LIBRARY and o[x, F_ZONE] == LIBRARY:
                s[S_LAST] += 1  # (Pools of Becoming: "then draw that many")
            if where == 2:
                zones.shuffle(st, o[x, F_OWNER])
        elif op == OP_RETURN:
            if z == GRAVEYARD or z == EXILE:
                # 727.3c: "that card" of a merged permanent is every card it became
                together = np.empty(8, np.int64)
                nt = merging.found_with(st, x, together)
                for t in range(-1, nt):
                    y = x if t < 0 else together[t]
                    if ep[r, E_A] == TO_BATTLEFIELD:
                        ctl = you if ep[r, E_C] == 0 else o[y, F_OWNER]
                        zones.enter_battlefield(st, cd, y, ctl, -1, ep[r, E_B])
                    else:
                        zones.move(st, cd, y, HAND, -1)
                s[S_RES_IT] = x
        elif op == OP_SUSPEND_TICK:  # 702.62a
            suspend.tick(st, cd, x)
        elif op == OP_SUSPEND_HASTE:  # 702.62a: the creature spell cast by suspend
            if z == STACK and o[x, F_TYPES] & T_CREATURE:
                o[x, F_SUSP_HASTE] = 1 + you
        elif op == OP_COUNTERS:
            if z == BATTLEFIELD or z == COMMAND or (z == EXILE and o[x, F_SUSPEND]):
                _put_counters(st, cd, x, ep[r, E_A], amt)
        elif op == OP_TAP:
            if z == BATTLEFIELD:
                o[x, F_TAPPED] = 1
        elif op == OP_UNTAP:
            if z == BATTLEFIELD:
                o[x, F_TAPPED] = 0
        elif op == OP_REMOVE_FROM_COMBAT:  # 506.4: no longer attacking, blocking or blocked
            if z == BATTLEFIELD:
                zones.reset_combat(o, x)
        elif op == OP_REGENERATE:
            if z == BATTLEFIELD:
                o[x, F_REGEN] += 1
        elif op == OP_SACRIFICE_EACH:  # 701.17a: only permanents its controller controls
            if z == BATTLEFIELD and o[x, F_CTL] == you:
                zones.move(st, cd, x, GRAVEYARD, -1)
                s[S_LAST] += 1
        elif op == OP_GAIN_DEVOUR:  # "[that creature spell] gains devour N" (Jund)
            if z == STACK and o[x, F_IKIND] == I_SPELL:
                o[x, F_DEVOUR] = max(o[x, F_DEVOUR], amt)
        elif op == OP_EXILE_IF_LEAVES:
            if z == BATTLEFIELD:
                o[x, F_UNEARTHED] = 1
        elif op == OP_DELAYED:
            delayed.create(st, ep[r, E_A], ep[r, E_B], you, src, x)
        elif op == OP_COPY_TOKEN:  # 707.2, 727.2a: a merged permanent's copy has its merge
            # 608.2h: a card that left the battlefield is copied as it last existed
            # there (its card: the pool has no copy effects on permanents but tokens')
            if z == BATTLEFIELD or (
                z != GONE and z != STACK and o[x, F_TOKEN] == 0 and o[x, F_LEFT_WITH] == 0
            ):
                y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                d = s[S_RES_IT] if ep[r, E_A] else NONE  # (attacking the player "it" names)
                n = 1 << command_zone.doublings(st, cd, ST_DOUBLE_TOKENS)  # (614.1a)
                for _ in range(n):
                    t = merging.token_copy(st, cd, x, -1 - y if y != NONE and y < 0 else you)
                    if t >= 0:
                        s[S_RES_IT] = t
                        o[t, F_TAPPED] = ep[r, E_C]
                        if d != NONE and d < 0 and st.pl[-1 - d, P_ALIVE]:  # 508.4: not declared
                            o[t, F_ATKP] = -1 - d
                            o[t, F_ATKO] = -1
        elif op == OP_TRANSFORM:
            if z == BATTLEFIELD and day_night.can_transform(st, cd, x):
                day_night.transform(st, cd, x)
        elif op == OP_ATTACH:
            to = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
            if z == BATTLEFIELD and to >= 0 and o[to, F_ZONE] == BATTLEFIELD:
                o[x, F_ATT] = to
        elif op == OP_PREVENT:
            _shield(st, you, 1, x, amt, ep[r, E_B], NONE)
        elif op == OP_REDIRECT:
            to = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
            if to != NONE:
                _shield(st, you, 1, x, amt, 0, to)
        elif z == BATTLEFIELD:
            if ts < 0:
                ts = stamp(st)
            kind = -1
            if op == OP_PUMP or op == OP_GRANT:
                kind = X_PUMP
            elif op == OP_SET_BASE_PT:
                kind = X_SET_PT
            elif op == OP_ANIMATE:
                kind = X_ANIMATE if ep[r, E_SETS_PT] else X_RETYPE
            elif op == OP_CANT_BLOCK:
                kind = X_CANT_BLOCK
            elif op == OP_LOSE_KEYWORDS:
                kind = X_LOSE_KW
            elif op == OP_MUST_ATTACK:
                kind = X_MUST_ATTACK
            elif op == OP_GAIN_CONTROL:
                kind = X_CONTROL
            elif op == OP_GRANT_ABILITY:  # (X_P: the ability row it gains)
                kind = X_GRANT_ABILITY
            elif op == OP_BECOME_COPY:  # (X_P: the card row of the copiable values, 707.2)
                kind = X_COPY
            if kind >= 0:
                newctl = you
                if op == OP_MUST_ATTACK:  # (X_NEWCTL: the player it must attack; -1 any)
                    newctl = o[x, F_OWNER] if ep[r, E_A] == MUST_ATTACK_OWNER else -1
                    if ep[r, E_REF2] != R_NONE:
                        y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                        if y == NONE or y >= 0:
                            continue
                        newctl = -1 - y
                if (
                    op == OP_GAIN_CONTROL and ep[r, E_REF2] != R_NONE
                ):  # "target player gains control"
                    y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                    if y == NONE or y >= 0:
                        continue
                    newctl = -1 - y
                pw, tg = ep[r, E_A], ep[r, E_B]
                if op == OP_BECOME_COPY:  # the values it copies, as the effect begins
                    y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                    if y == NONE or y < 0 or selectors.face(st, cd, y) < 0:
                        continue  # (a copy of a face-down permanent: not in the vocabulary)
                    pw = selectors.face(st, cd, y)
                if ep[r, E_AMT] >= 0:  # "+X/+X": the amounts, counted as it resolves
                    pw = amt
                    tg = selectors.amount(st, cd, ep[r, E_AMT2], you, src, item)
                _effect(st, cd, r, kind, x, you, src, ts, newctl, pw, tg)
    if op == OP_PREVENT and ep[r, E_REF] == R_NONE:
        _shield(st, you, 0, 0, amt, ep[r, E_B], NONE)  # no recipient named (801.13b)
    elif op == OP_DAY_NIGHT:  # 728.1: it becomes day / night / the other one
        day_night.become(st, cd, ep[r, E_A])
    elif op == OP_LIFE_LOWEST:
        _life_becomes_lowest(st, cd, you, cd.ep[r, E_A] == 1)
    elif op == OP_ADDITIONAL_COMBAT:  # 500.8: "after this main phase" (none now: nothing)
        if s[S_STEP] == MAIN1 or s[S_STEP] == MAIN2:
            s[S_XCOMBATS] += 1
    elif op == OP_EXCHANGE_CONTROL:  # 701.10: both or neither (same controller: nothing)
        y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
        if m < 1 or buf[0] < 0 or y == NONE or y < 0:
            return
        a, b = buf[0], y
        if o[a, F_ZONE] != BATTLEFIELD or o[b, F_ZONE] != BATTLEFIELD or a == b:
            return
        pa, pb = o[a, F_CTL], o[b, F_CTL]
        if pa != pb:
            ts = stamp(st)
            _effect(st, cd, r, X_CONTROL, a, you, src, ts, pb, 0, 0)
            _effect(st, cd, r, X_CONTROL, b, you, src, ts, pa, 0, 0)
            touch(st)
    elif op == OP_EXCHANGE_LIFE:
        y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
        if m < 1 or buf[0] >= 0 or y == NONE or y >= 0:
            return
        p, q = -1 - buf[0], -1 - y
        lp, lq = players.life(st, p), players.life(st, q)
        # 810.9e: not with a teammate; and only if both changes can happen (one who
        # can't lose, or gain, the life it would means no exchange)
        blocked = (
            lp > lq and (damage.cant_lose_life(st, cd, p) or damage.cant_gain_life(st, cd, q))
        ) or (lq > lp and (damage.cant_lose_life(st, cd, q) or damage.cant_gain_life(st, cd, p)))
        if not players.teammates(st, p, q) and not blocked:
            lp, lq = players.life(st, p), players.life(st, q)
            damage.set_life(st, cd, p, lq)
            damage.set_life(st, cd, q, lp)


@kernel
def _copy(st, cd, r, you, src, item):
    """707.10 (Double Stroke, Echoing Boon): a copy of the spell the step names; with
    E_A 1 its controller may choose new targets for it (707.10c), target by target:
    the one it has (the first option) or another legal one for the same spec. The
    copy's id is kept in S_RES_AUX, the slot being chosen in S_RES_SUB - 1."""
    s, o, ep = st.s, st.o, cd.ep
    if ep[r, E_REF2] != R_NONE:  # "that player copies it" (Izzet Steam Maze): theirs
        y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
        if y == NONE or y >= 0 or not st.pl[-1 - y, P_ALIVE]:
            return NEXT
        you = -1 - y
    if s[S_RES_SUB] == 0:
        buf = st.scr[SCR_REFS]
        m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
        if m < 1 or buf[0] < 0 or o[buf[0], F_ZONE] != STACK or o[buf[0], F_IKIND] != I_SPELL:
            return NEXT
        j = _copy_spell(st, cd, buf[0], you)
        if j < 0 or ep[r, E_A] != 1:
            return NEXT
        s[S_RES_AUX] = j
        s[S_RES_SUB] = 1
    j = s[S_RES_AUX]
    if _answered(st):
        o[j, F_T0 + s[S_RES_SUB] - 1] = s[S_ANSWER]
        s[S_RES_SUB] += 1
    while s[S_RES_SUB] - 1 < o[j, F_NT]:
        if _copy_target_options(st, cd, j, s[S_RES_SUB] - 1, you, st.scr[SCR_COPY_TARGETS]) > 1:
            return _ask(st, PEND_CHOOSE_OBJECT, you, j)
        s[S_RES_SUB] += 1
    return NEXT


@kernel
def _copy_target_options(st, cd, j, k, you, out):
    """The targets copy j may have in slot k: the one it has, then the others its spec
    allows (115.3)."""
    o = st.o
    out[0] = o[j, F_T0 + k]
    n = 1
    buf = np.empty(st.s[S_N] + st.pl.shape[0] + 1, np.int64)
    c = targets.candidates(st, cd, o[j, F_TSPEC + k], you, you, j, j, buf, buf.shape[0])
    for x in range(c):
        if buf[x] != out[0]:
            out[n] = buf[x]
            n += 1
    return n


@kernel
def _copy_for_each_target(st, cd, r, you, src, item):
    """Glimmervoid Basin: the player E_REF2 names copies spell E_REF (a spell with a single
    target) once for each other object or player it could target, each copy targeting a
    different one (707.10, 707.10c); the copies go on the stack in the documented order of
    targets (targets.candidates), not in an order the player chooses."""
    s, o, ep = st.s, st.o, cd.ep
    y = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
    if y == NONE or y >= 0 or not st.pl[-1 - y, P_ALIVE]:
        return
    p = -1 - y
    x = selectors.simple_ref(st, cd, ep[r, E_REF], you, src, item)
    if x == NONE or x < 0 or o[x, F_ZONE] != STACK or o[x, F_IKIND] != I_SPELL:
        return
    if o[x, F_NT] != 1 or o[x, F_T0] == NO_TARGET:
        return
    buf = np.empty(s[S_N] + st.pl.shape[0] + 1, np.int64)
    c = targets.candidates(st, cd, o[x, F_TSPEC], p, p, x, x, buf, buf.shape[0])
    for k in range(c):
        if buf[k] != o[x, F_T0] and buf[k] != x:
            j = _copy_spell(st, cd, x, p)
            if j < 0:
                return
            o[j, F_T0] = buf[k]


@kernel
def _put_counters(st, cd, x, kind, n):
    """n counters of a kind put on object x (n < 0 removes); on a permanent, doubled by
    each "twice that many" (614.1a, Selesnya Loft Gardens)."""
    if n > 0 and st.o[x, F_ZONE] == BATTLEFIELD:
        n = n << command_zone.doublings(st, cd, ST_DOUBLE_COUNTERS)
    zones.add_counters(st, cd, x, kind, n)


@kernel
def _distribute_counters(st, cd, r, you, src, item):
    """601.2d, 608.2b: each target still legal gets the counters divided to it as the
    ability was put on the stack (an illegal one's share is not given to another)."""
    dv = st.dv
    for k in range(st.s[S_NDV]):
        t = dv[k, V_TARGET]
        if dv[k, V_ITEM] != item or not targets.legal(st, cd, dv[k, V_SPEC], t, you, src, item):
            continue
        _put_counters(st, cd, t, cd.ep[r, E_A], dv[k, V_AMOUNT])
    casting.drop_divisions(st, item)


@kernel
def _copy_spell(st, cd, x, you):
    """707.10: a copy of spell x put on the stack under ``you``'s control with x's
    choices (modes, X, kicker, targets); it isn't cast, and it ceases to exist once it
    leaves the stack (704.5e)."""
    o = st.o
    j = zones.new_object(st, cd, o[x, F_CARD], you, GONE)
    if j < 0:
        return -1
    for f in (F_IKIND, F_IAB, F_NT, F_X, F_MODES, F_KICKED, F_CHOOSER, F_SPENT):
        o[j, f] = o[x, f]
    for k in range(MAX_TARGETS):
        o[j, F_T0 + k] = o[x, F_T0 + k]
        o[j, F_TSPEC + k] = o[x, F_TSPEC + k]
    casting.copy_divisions(st, x, j)  # (707.10: and how it divided an amount)
    o[j, F_ZONE] = STACK
    o[j, F_ICTL] = you
    o[j, F_SRC] = -1
    o[j, F_TOKEN] = 2
    o[j, F_FROM] = STACK
    stack.push(st, j)
    return j


@kernel
def _player_counters(st, p, kind, n):
    """Counters on a player (122.1: experience, energy; poison is its own total)."""
    if kind == CTR_POISON:
        if n > 0:
            players.add_poison(st, p, n)
        return
    v = st.pl[p, P_CTR + kind] + n
    st.pl[p, P_CTR + kind] = v if v > 0 else 0


@kernel
def _shield(st, you, has_recip, recip, amt, combat, redirect):
    """A prevention (615) or redirection (614.9) shield; amount -1: all damage. A
    redirection like the newest one on the same recipient adds to that one (the next 1,
    then the next 1 again, is the next 2: nothing between them applies to that
    recipient first; Eladamri's {0} may be activated any number of times)."""
    sh = st.sh
    if redirect != NONE and amt > 0:
        for k in range(st.s[S_NSH] - 1, -1, -1):
            if sh[k, H_REDIRECT] == NONE or sh[k, H_RECIP] != recip:
                continue
            if (sh[k, H_CTL] == you and sh[k, H_HASRECIP] == has_recip and sh[k, H_AMT] > 0
                    and sh[k, H_COMBAT] == combat and sh[k, H_REDIRECT] == redirect
                    and sh[k, H_BY] == -1):  # fmt: skip
                sh[k, H_AMT] += amt
                return
            break
    k = new_row(st, st.sh, S_NSH)
    if k < 0:
        return
    sh[k, H_CTL] = you
    sh[k, H_HASRECIP] = has_recip
    sh[k, H_RECIP] = recip
    sh[k, H_AMT] = amt
    sh[k, H_COMBAT] = combat
    sh[k, H_REDIRECT] = redirect
    sh[k, H_BY] = -1


@kernel
def _effect(st, cd, r, kind, x, you, src, ts, newctl, pw, tg):
    """A continuous effect of a resolved spell or ability (611.2), with its duration."""
    if kind == X_CONTROL and cd.ep[r, E_UNTIL] == UNTIL_FOREVER:
        # an indefinite control change supersedes every earlier one on the object for
        # good (layer 2 applies them in timestamp order, 613.7): they are dropped, so a
        # creature deployed back and forth (804.2) doesn't pile up effects
        j = 0
        while j < st.s[S_NEFF]:
            if st.eff[j, X_KIND] == X_CONTROL and st.eff[j, X_OBJ] == x:
                st.s[S_NEFF] = delete_row(st.eff, j, st.s[S_NEFF])
            else:
                j += 1
    k = new_row(st, st.eff, S_NEFF)
    if k < 0:
        return
    e, ep = st.eff, cd.ep
    e[k, X_KIND] = kind
    e[k, X_OBJ] = x
    e[k, X_CTL] = you
    e[k, X_TS] = ts
    e[k, X_P] = pw
    e[k, X_T] = tg
    e[k, X_SUB] = ep[r, E_SUB]
    e[k, X_COLORS] = ep[r, E_COLORS]
    e[k, X_KW] = ep[r, E_C]
    e[k, X_TYPES] = ep[r, E_D]
    e[k, X_NEWCTL] = newctl
    e[k, X_UNTIL] = ep[r, E_UNTIL]
    e[k, X_SRC] = src


@kernel
def _must_attack(st, t, you, src, q):
    """508.1d: t attacks player q each combat if able (for as long as it is on the
    battlefield)."""
    k = new_effect(st, X_MUST_ATTACK, t, you, src, UNTIL_FOREVER)
    if k >= 0:
        st.eff[k, X_NEWCTL] = q


@kernel
def _life_becomes_lowest(st, cd, you, opponents):
    """Repay in Kind: each player's life total becomes the lowest among them (810.9d:
    in Two-Headed Giant one member of each team is affected, the team's total); with
    `opponents` (Mortal Flesh Is Weak) only your opponents, the lowest among them
    (119.5: each gains or loses the difference)."""
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, st.s[S_ACTIVE], buf)
    low = 1 << 30
    for j in range(k):
        if players.in_range(st, you, buf[j]) and (
            not opponents or players.is_opponent(st, you, buf[j])
        ):
            low = min(low, players.life(st, buf[j]))
    done = np.zeros(st.pl.shape[0], np.bool_)
    for j in range(k):
        p = buf[j]
        pool = st.pl[p, P_LIFEPOOL]
        if opponents and not players.is_opponent(st, you, p):
            continue
        if players.in_range(st, you, p) and not done[pool]:
            done[pool] = True
            damage.set_life(st, cd, p, low)


# ----------------------------------------------------------------- steps that ask
@kernel
def _who(st, cd, r, you, src, item):
    """The player a step names as the one acting (E_REF; "you" when none)."""
    x = selectors.simple_ref(st, cd, cd.ep[r, E_REF], you, src, item)
    return -1 - x if x != NONE and x < 0 else you


@kernel
def _may(st, cd, r, you, src, item):
    """ "[Player] may [pay ...]. If they do, ..." : yes goes on, no jumps past."""
    p = _who(st, cd, r, you, src, item)
    if cd.ep[r, E_A] == MAY_PAY_X:
        return _may_pay_x(st, cd, r, p, item)
    if _answered(st):
        if st.s[S_ANSWER] == 1:
            _pay_optional(st, cd, r, p, you, src, item)
            return NEXT
        return _jump(st, cd, r)
    if not st.pl[p, P_ALIVE]:
        return _jump(st, cd, r)
    return _ask(st, PEND_YES_NO, p, -1)


@kernel
def _lasting(st, cd, r, p, src, item):
    """A resolved ability's continuous effect made of static abilities (611.2a), lasting
    until the end of the turn or p's next turn: an object of its own in the command zone,
    not a card and shown nowhere (F_TOKEN LASTING), whose card row holds the statics with
    p as their "you", so that every rule reading statics reads them; an effects-table row
    (X_LASTING) ends it when the time comes (systems/turn_structure.py; a planeswalk:
    systems/planechase.py). The player chosen so far in this resolution is its
    chosen_player; with none, the ability's first target player (Eloren Wilds)."""
    o = st.o
    e = zones.new_object(st, cd, cd.ep[r, E_A], p, COMMAND)
    if e < 0:
        return
    o[e, F_CTL] = p
    o[e, F_BCTL] = p
    o[e, F_TOKEN] = LASTING
    for k in range(st.s[S_NCHOSEN]):
        if st.chosen[k] < 0 and st.chosen[k] != NONE:
            o[e, F_LASTING_PLAYER] = -st.chosen[k]  # (1 + the player)
            break
    if o[e, F_LASTING_PLAYER] == 0 and item >= 0:  # else its first target player
        for k in range(o[item, F_NT]):
            t = o[item, F_T0 + k]
            if t < 0 and t != NO_TARGET:
                o[e, F_LASTING_PLAYER] = -t
                break
    x = new_row(st, st.eff, S_NEFF)
    if x < 0:
        return
    st.eff[x, :] = 0
    st.eff[x, X_KIND] = X_LASTING
    st.eff[x, X_OBJ] = -1
    st.eff[x, X_CTL] = p
    st.eff[x, X_TS] = stamp(st)
    st.eff[x, X_UNTIL] = cd.ep[r, E_UNTIL]
    st.eff[x, X_SRC] = e


@kernel
def _may_pay_x(st, cd, r, p, item):
    """ "You may pay {X}. If you do, ...": p says whether they pay, then chooses X (the
    numbers whose generic mana they could pay now, 107.3) and pays it; X of the steps
    after it is that number (the resolving item's F_X)."""
    s = st.s
    if _answered(st):
        if s[S_RES_SUB] == 0:
            if s[S_ANSWER] != 1:
                return _jump(st, cd, r)
            s[S_RES_SUB] = 1
            return _ask(st, PEND_NUMBER, p, -1)
        x = s[S_ANSWER]
        if x > 0:
            mana.pay(st, cd, p, zeroed(st.scr[SCR_COST], COST_W), x)
        if item >= 0:
            st.o[item, F_X] = x
        return NEXT
    if not st.pl[p, P_ALIVE]:
        return _jump(st, cd, r)
    return _ask(st, PEND_YES_NO, p, -1)


@kernel
def _pay_optional(st, cd, r, p, you, src, item):
    ep = cd.ep
    if ep[r, E_D] >= 0:  # a mana cost ("you may pay {1}{R}")
        cost = zeroed(st.scr[SCR_COST], COST_W)
        _cost_of(cd, ep[r, E_D], cost)
        mana.pay(st, cd, p, cost, 0)
        return
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if ep[r, E_A] == 2:  # a mana cost with one colour ("you may pay {W}")
        cost = zeroed(st.scr[SCR_COST], COST_W)
        cost[1 + ep[r, E_B]] = ep[r, E_C]
        mana.pay(st, cd, p, cost, amt)
    elif amt > 0:
        if ep[r, E_A] == 1:
            damage.pay_life(st, cd, p, amt)
        else:
            cost = zeroed(st.scr[SCR_COST], COST_W)
            mana.pay(st, cd, p, cost, amt)


@kernel
def can_pay_optional(st, cd, r, p, you, src, item):
    ep = cd.ep
    if ep[r, E_A] == MAY_PAY_X:  # (X may be 0)
        return True
    if ep[r, E_D] >= 0:
        cost = zeroed(st.scr[SCR_COST], COST_W)
        _cost_of(cd, ep[r, E_D], cost)
        return mana.can_pay(st, cd, p, cost, 0)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if ep[r, E_A] == 2:
        cost = zeroed(st.scr[SCR_COST], COST_W)
        cost[1 + ep[r, E_B]] = ep[r, E_C]
        return mana.can_pay(st, cd, p, cost, amt)
    if amt <= 0:
        return True
    if ep[r, E_A] == 1:
        return damage.can_pay_life(st, cd, p, amt)
    cost = zeroed(st.scr[SCR_COST], COST_W)
    return mana.can_pay(st, cd, p, cost, amt)


@kernel
def _unless(st, cd, r, you, src, item):
    """ "..., unless [player] pays N": if they pay, the effects wrapped are skipped."""
    p = _who(st, cd, r, you, src, item)
    if _answered(st):
        if st.s[S_ANSWER] == 1:
            _pay_optional(st, cd, r, p, you, src, item)
            return _jump(st, cd, r)
        return NEXT
    if not st.pl[p, P_ALIVE]:
        return NEXT
    return _ask(st, PEND_YES_NO, p, -1)


@kernel
def _for_each(st, cd, r, you, src, item):
    """ "For each ...": the body runs once with "it" bound to each of the set, found
    when the step begins."""
    s, ep = st.s, cd.ep
    if s[S_NLOOP] == 0 and s[S_LOOPK] == 0:
        buf = st.scr[SCR_REFS]
        m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
        m = min(m, st.loop.shape[0])
        copy_into(st.loop, buf, m)
        s[S_NLOOP] = m
        s[S_LOOPK] = 0
    if s[S_LOOPK] < s[S_NLOOP]:
        s[S_RES_IT] = st.loop[s[S_LOOPK]]
        return NEXT
    s[S_NLOOP] = 0
    s[S_LOOPK] = 0
    return _jump(st, cd, r)


@kernel
def _discard(st, cd, r, you, src, item):
    """701.9: each player named discards: all, at random, or cards of their choice one
    at a time (S_RES_SUB: which player; S_RES_AUX: how many so far). E_D: only cards
    matching that filter; E_REF2: the player who chooses them (the hand is revealed to
    them: "choose a nonland card from each of those hands"). Once the step is done, the
    last card it discarded is "it" for the next step ("if it's a creature card",
    608.2c); while it runs, "it" keeps naming whom the step names."""
    s, ep = st.s, cd.ep
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    mode = ep[r, E_A]
    last = NONE
    if _answered(st):
        last = s[S_ANSWER]
        zones.discard(st, cd, last)
        s[S_RES_AUX] += 1
    while s[S_RES_SUB] < m:
        x = buf[s[S_RES_SUB]]
        p = -1 - x if x < 0 else -1
        if p < 0 or not st.pl[p, P_ALIVE] or not _reach(st, you, x):
            s[S_RES_SUB] += 1
            s[S_RES_AUX] = 0
            continue
        hand = st.pl[p, P_HANDN]
        if mode == DISCARD_ALL:
            while st.pl[p, P_HANDN] > 0:
                last = st.hand[p, 0]
                zones.discard(st, cd, last)
        elif mode == DISCARD_RANDOM:
            for _ in range(amt):
                h = st.pl[p, P_HANDN]
                if h == 0:
                    break
                j = rand_below(st, h)
                trace(st, T_RANDOM, p, h, j, 0, 0, 0, 0, 0)
                last = st.hand[p, j]
                zones.discard(st, cd, last)
        elif s[S_RES_AUX] < amt and hand > 0 and _discardable(st, cd, r, p, you, src):
            if ep[r, E_REF2] != R_NONE:
                q = selectors.simple_ref(st, cd, ep[r, E_REF2], you, src, item)
                if q < 0 and q != NONE and st.pl[-1 - q, P_ALIVE]:
                    return _ask(st, PEND_DISCARD, -1 - q, p)  # (S_PB: whose hand)
            return _ask(st, PEND_DISCARD, p, p)
        s[S_RES_SUB] += 1
        s[S_RES_AUX] = 0
    if last != NONE:
        s[S_RES_IT] = last
    return NEXT


@kernel
def _discardable(st, cd, r, p, you, src):
    """Has p a card in hand the discard step may take (its filter, E_D)?"""
    f = cd.ep[r, E_D]
    for j in range(st.pl[p, P_HANDN]):
        if f < 0 or selectors.matches_card(st, cd, f, st.hand[p, j], you, src):
            return True
    return False


@kernel
def _scry(st, cd, r, you, src, item):
    """701.22 scry / 701.25 surveil N: the top N, one at a time: keep on top (yes) or
    put on the bottom / into the graveyard (no). The kept cards stay in their order
    (reordering them is not offered: a documented simplification)."""
    s, ep = st.s, cd.ep
    if s[S_RES_SUB] == 0:
        amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
        _look_top(st, you, amt)
        s[S_RES_SUB] = 1
        s[S_RES_AUX] = 0
    if _answered(st):
        st.marks[s[S_RES_AUX]] = 0 if s[S_ANSWER] == 1 else 1
        s[S_RES_AUX] += 1
    if s[S_RES_AUX] < s[S_NCHOSEN]:
        return _ask(st, PEND_SCRY, you, st.chosen[s[S_RES_AUX]])
    for k in range(s[S_NCHOSEN]):
        if st.marks[k] == 1:
            if ep[r, E_OP] == OP_SURVEIL:
                zones.move(st, cd, st.chosen[k], GRAVEYARD, -1)
            else:
                zones.to_library(st, cd, st.chosen[k], False)
    s[S_NCHOSEN] = 0
    return NEXT


@kernel
def _look_top(st, p, n):
    """The top n cards of p's library into `chosen` (top first), unmarked."""
    k = 0
    for j in range(n):
        i = zones.library_top(st, p, j)
        if i < 0 or k >= st.chosen.shape[0]:
            break
        st.chosen[k] = i
        st.marks[k] = 0
        k += 1
    st.s[S_NCHOSEN] = k


# look_at_top / reveal_top: how many to pick (E_D)
PICK_UP_TO, PICK_EXACTLY, PICK_ALL = range(3)
REST_TOP_ANY_ORDER = 5  # E_A: the rest go back on top in the order the player chooses


@kernel
def _look(st, cd, r, you, src, item):
    """Look at (or reveal) the top N of a player's library (E_REF: "their"; you by
    default): the player picks up to E_B of them matching the filter (E_D: exactly that
    many of those matching, or all of them, unasked) for their hand (E_C & 7: 1 the
    battlefield, tapped with E_C & 8; 3 the graveyard), the rest go to E_A's place: the
    bottom in order, the graveyard, back on top as they were, or back on top in an order
    the player chooses, one card at a time (each on top of the last: the last is the
    top card)."""
    s, ep = st.s, cd.ep
    p = _who(st, cd, r, you, src, item)
    if s[S_RES_SUB] == 0:
        amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
        _look_top(st, p, amt)
        s[S_RES_SUB] = 1
        s[S_RES_AUX] = 0
        s[S_LAST] = 0
        if ep[r, E_D] == PICK_ALL:
            for k in range(s[S_NCHOSEN]):
                if selectors.matches_card(st, cd, ep[r, E_REFA], st.chosen[k], p, src):
                    st.marks[k] = 1
            s[S_RES_AUX] = 1 << 20
    if _answered(st):
        x = s[S_ANSWER]
        if s[S_RES_SUB] == 2:  # putting the rest back in order
            zones.to_library(st, cd, x, True)
            for k in range(s[S_NCHOSEN]):
                if st.chosen[k] == x:
                    st.marks[k] = 3
        elif x == NONE:
            s[S_RES_AUX] = 1 << 20  # done picking
        else:
            for k in range(s[S_NCHOSEN]):
                if st.chosen[k] == x:
                    st.marks[k] = 1
            s[S_RES_AUX] += 1
    if s[S_RES_SUB] == 1:
        if s[S_RES_AUX] < ep[r, E_B] and _look_count(st, cd, r, p, src, item) > 0:
            return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
        to = ep[r, E_C] & 7
        for k in range(s[S_NCHOSEN]):
            i = st.chosen[k]
            if st.marks[k] == 1:
                if to == TO_BATTLEFIELD:
                    zones.enter_battlefield(st, cd, i, p, -1, 1 if ep[r, E_C] & 8 else 0)
                elif to == TO_GRAVEYARD:
                    zones.move(st, cd, i, GRAVEYARD, -1)
                else:
                    zones.move(st, cd, i, HAND, -1)
                s[S_RES_IT] = i
                s[S_LAST] += 1
        s[S_RES_SUB] = 2
    if ep[r, E_A] == REST_TOP_ANY_ORDER:
        if _unplaced(st) > 1:
            return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
    for k in range(s[S_NCHOSEN]):
        i = st.chosen[k]
        if st.marks[k] == 0 and st.o[i, F_ZONE] == LIBRARY:
            where = ep[r, E_A]
            if where == TO_GRAVEYARD:
                zones.move(st, cd, i, GRAVEYARD, -1)
            elif where == TO_LIBRARY_BOTTOM:
                zones.to_library(st, cd, i, False)
            elif where == REST_TOP_ANY_ORDER:
                zones.to_library(st, cd, i, True)
            elif where == TO_HAND:  # ("the rest into your hand": Your Fate Is Thrice Sealed)
                zones.move(st, cd, i, HAND, -1)
    s[S_NCHOSEN] = 0
    return NEXT


@kernel(inline="always")
def _unplaced(st):
    """Cards looked at, not picked and not put back yet (still in the library)."""
    n = 0
    for k in range(st.s[S_NCHOSEN]):
        if st.marks[k] == 0 and st.o[st.chosen[k], F_ZONE] == LIBRARY:
            n += 1
    return n


@kernel
def _look_count(st, cd, r, p, src, item):
    n = 0
    for k in range(st.s[S_NCHOSEN]):
        if st.marks[k] == 0 and selectors.matches_card(
            st, cd, cd.ep[r, E_REFA], st.chosen[k], p, src
        ):
            n += 1
    return n


@kernel
def _search(st, cd, r, you, src, item):
    """701.19: a player searches their library for up to N cards matching the filter
    (a hidden zone: they may find fewer), puts them where it says (the first to E_A,
    the others to E_D if given: "one onto the battlefield, the other into your hand"),
    then shuffles; a card for the top of the library goes there after the shuffle."""
    s, ep = st.s, cd.ep
    p = _who(st, cd, r, you, src, item)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if _answered(st):
        x = s[S_ANSWER]
        if x == NONE:
            s[S_RES_AUX] = 1 << 20
        else:
            dest = ep[r, E_A] if s[S_RES_AUX] == 0 or ep[r, E_D] < 0 else ep[r, E_D]
            _put(st, cd, x, dest, ep[r, E_B], p)
            s[S_RES_AUX] += 1
            s[S_LAST] = s[S_RES_AUX]
    if s[S_RES_AUX] < amt and st.pl[p, P_ALIVE] and _search_count(st, cd, r, p, src, item) > 0:
        return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
    if st.pl[p, P_ALIVE]:
        zones.shuffle(st, p)
        for k in range(s[S_NCHOSEN]):  # the cards for the top (set aside: marks 2)
            if st.marks[k] == 2:
                zones.to_library(st, cd, st.chosen[k], True)
    s[S_NCHOSEN] = 0
    return NEXT


@kernel
def _put(st, cd, x, dest, tapped, p):
    s = st.s
    if dest == TO_BATTLEFIELD:
        zones.enter_battlefield(st, cd, x, p, -1, tapped)
    elif dest == TO_GRAVEYARD:
        zones.move(st, cd, x, GRAVEYARD, -1)
    elif dest == TO_LIBRARY_TOP:
        n = s[S_NCHOSEN]  # set aside until after the shuffle
        st.chosen[n] = x
        st.marks[n] = 2
        s[S_NCHOSEN] = n + 1
        zones.move(st, cd, x, EXILE, -1)
        st.o[x, F_ZONE] = LIBRARY  # (kept out of the library list until then)
    else:
        zones.move(st, cd, x, HAND, -1)
    s[S_RES_IT] = x


@kernel
def _search_count(st, cd, r, p, src, item):
    n = 0
    for k in range(st.pl[p, P_LIBN]):
        if selectors.matches_card_in(st, cd, cd.ep[r, E_REFA], st.lib[p, k], p, src, item):
            n += 1
    if cd.ep[r, E_C] == 1:  # "your library and/or graveyard"
        for i in range(st.s[S_N]):
            if st.o[i, F_ZONE] == GRAVEYARD and st.o[i, F_OWNER] == p:
                if selectors.matches_card_in(st, cd, cd.ep[r, E_REFA], i, p, src, item):
                    n += 1
    return n


@kernel
def _sacrifice(st, cd, r, you, src, item):
    """701.17: each player named sacrifices N permanents matching the filter, of their
    choice (S_RES_SUB: which player; S_RES_AUX: how many so far)."""
    s, ep = st.s, cd.ep
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if _answered(st):
        x = s[S_ANSWER]
        if st.o[x, F_ZONE] == BATTLEFIELD:
            zones.move(st, cd, x, GRAVEYARD, -1)
        s[S_RES_AUX] += 1
    while s[S_RES_SUB] < m:
        x = buf[s[S_RES_SUB]]
        p = -1 - x if x < 0 else -1
        if p >= 0 and st.pl[p, P_ALIVE] and _reach(st, you, x) and s[S_RES_AUX] < amt:
            if _sacrifice_count(st, cd, r, p, src) > 0:
                return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
        s[S_RES_SUB] += 1
        s[S_RES_AUX] = 0
    return NEXT


@kernel
def _sacrifice_count(st, cd, r, p, src):
    continuous_effects.recompute(st, cd)
    n = 0
    for j in continuous_effects.held_by(st, p):
        if selectors.matches(st, cd, cd.ep[r, E_D], j, p, src, -1):
            n += 1
    return n


@kernel
def _choose(st, cd, r, you, src, item):
    """ "Choose ..." (into `chosen`), "put a land card from your hand onto the
    battlefield", "exile a card from your hand": the player picks one at a time, up to
    the amount (E_B = 1: "up to", they may stop)."""
    s, o, ep = st.s, st.o, cd.ep
    op = ep[r, E_OP]
    p = _who(st, cd, r, you, src, item)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if amt <= 0:
        amt = 1
    if s[S_RES_SUB] == 0:
        s[S_RES_SUB] = 1
        s[S_LAST] = 0
        if op == OP_CHOOSE:
            s[S_NCHOSEN] = 0
    if _answered(st):
        x = s[S_ANSWER]
        if x == NONE:
            s[S_RES_AUX] = 1 << 20
        else:
            s[S_RES_AUX] += 1
            s[S_RES_IT] = x
            if op == OP_PUT_LAND or op == OP_PUT_ATTACKING:
                zones.enter_battlefield(st, cd, x, p, -1, ep[r, E_C])
                s[S_LAST] = s[S_RES_AUX]
                a = o[item, F_EVO]  # Kaalia: attacking what the trigger's attacker attacks
                if op == OP_PUT_ATTACKING and a >= 0 and o[a, F_ATKP] >= 0:
                    if o[x, F_ZONE] == BATTLEFIELD and o[x, F_TYPES] & T_CREATURE:
                        o[x, F_ATKP] = o[a, F_ATKP]  # (508.4: it was never declared)
                        o[x, F_ATKO] = o[a, F_ATKO]
            elif op == OP_EXILE_FROM_HAND:
                zones.move(st, cd, x, EXILE, -1)
                o[x, F_EXILED_BY] = src
            else:
                n = s[S_NCHOSEN]
                if n < st.chosen.shape[0]:
                    st.chosen[n] = x
                    s[S_NCHOSEN] = n + 1
    if s[S_RES_AUX] < amt and st.pl[p, P_ALIVE]:
        buf = st.scr[SCR_REFS]
        if choose_options(st, cd, r, p, you, src, item, buf) > 0:
            return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
    return NEXT


@kernel
def choose_options(st, cd, r, p, you, src, item, out):
    """What a choose step offers player p: objects (in id order) and players (in turn
    order from p) matching the filter, in p's range (801.5a), not chosen yet."""
    ep, o = cd.ep, st.o
    f = ep[r, E_REFA]
    op = ep[r, E_OP]
    m = 0
    if op == OP_PUT_LAND or op == OP_EXILE_FROM_HAND or op == OP_PUT_ATTACKING:
        for j in range(st.pl[p, P_HANDN]):
            i = st.hand[p, j]
            if selectors.matches_card(st, cd, f, i, p, src):
                out[m] = i
                m += 1
        return m
    for i in range(st.s[S_N]):
        if o[i, F_ZONE] == GONE or not selectors.matches(st, cd, f, i, you, src, item):
            continue
        if o[i, F_ZONE] == BATTLEFIELD and not players.in_range(st, p, o[i, F_CTL]):
            continue
        if not _already(st, i):
            out[m] = i
            m += 1
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, p, buf)
    for j in range(k):
        x = -1 - buf[j]
        if players.in_range(st, p, buf[j]) and selectors.matches(st, cd, f, x, you, src, item):
            if not _already(st, x):
                out[m] = x
                m += 1
    return m


@kernel(inline="always")
def _already(st, x):
    for k in range(st.s[S_NCHOSEN]):
        if st.chosen[k] == x:
            return True
    return False


@kernel
def _proliferate(st, cd, r, you, src, item):
    """701.27: any number of permanents and players with counters get one more of each
    kind they have: asked one at a time (yes first, a documented default)."""
    s, o = st.s, st.o
    if s[S_RES_SUB] == 0:
        n = 0
        for i in zones.permanents(st):
            if _has_counters(st, i) and players.in_range(st, you, o[i, F_CTL]):
                st.chosen[n] = i
                n += 1
        for q in range(st.pl.shape[0]):
            if st.pl[q, P_ALIVE] and players.in_range(st, you, q) and _player_has_counters(st, q):
                st.chosen[n] = -1 - q
                n += 1
        s[S_NCHOSEN] = n
        s[S_RES_SUB] = 1
        s[S_RES_AUX] = 0
    if _answered(st):
        if s[S_ANSWER] == 1:
            x = st.chosen[s[S_RES_AUX]]
            if x >= 0:
                d = 1 << command_zone.doublings(st, cd, ST_DOUBLE_COUNTERS)  # (614.1a)
                for k in range(N_COUNTERS):
                    if o[x, F_CTR + k] > 0:
                        zones.add_counters(st, cd, x, k, d)
            else:
                q = -1 - x
                if players.poison(st, q) > 0:
                    players.add_poison(st, q, 1)
                for k in range(N_COUNTERS):
                    if st.pl[q, P_CTR + k] > 0:
                        st.pl[q, P_CTR + k] += 1
        s[S_RES_AUX] += 1
    if s[S_RES_AUX] < s[S_NCHOSEN]:
        return _ask(st, PEND_YES_NO, you, st.chosen[s[S_RES_AUX]])
    s[S_NCHOSEN] = 0
    return NEXT


@kernel(inline="always")
def _has_counters(st, i):
    for k in range(N_COUNTERS):
        if st.o[i, F_CTR + k] > 0:
            return True
    return False


@kernel(inline="always")
def _player_has_counters(st, q):
    if players.poison(st, q) > 0:
        return True
    for k in range(N_COUNTERS):
        if st.pl[q, P_CTR + k] > 0:
            return True
    return False


@kernel
def _counter(st, cd, r, you, src, item):
    """701.6: counter target spell or ability ("unless its controller pays N": they are
    asked, if they can pay)."""
    s, o, ep = st.s, st.o, cd.ep
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if m == 0 or buf[0] < 0:
        return NEXT
    x = buf[0]
    if o[x, F_ZONE] != STACK:
        return NEXT
    if amt > 0:
        p = o[x, F_ICTL]
        if _answered(st):
            if s[S_ANSWER] == 1:
                cost = zeroed(st.scr[SCR_COST], COST_W)
                mana.pay(st, cd, p, cost, amt)
                return NEXT
        else:
            cost = zeroed(st.scr[SCR_COST], COST_W)
            if st.pl[p, P_ALIVE] and mana.can_pay(st, cd, p, cost, amt):
                return _ask(st, PEND_YES_NO, p, x)
    stack.counter(st, cd, x)
    return NEXT


@kernel
def _sac_unless_life(st, cd, r, you, src, item):
    """Killing Wave: for each creature, its controller sacrifices it unless they pay X
    life; asked creature by creature in object order, only while they could pay it
    (810.9b: what a team promises can't exceed its total); then the payments happen
    and the others are sacrificed, all at once."""
    s, ep = st.s, cd.ep
    o = st.o
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if s[S_RES_SUB] == 0:
        buf = st.scr[SCR_REFS]
        m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
        m = min(m, st.chosen.shape[0])
        copy_into(st.chosen, buf, m)
        st.marks[:m] = 0
        s[S_NCHOSEN] = m
        s[S_RES_SUB] = 1
        s[S_RES_AUX] = 0
    if _answered(st):
        st.marks[s[S_RES_AUX]] = 2 if s[S_ANSWER] == 1 else 1
        s[S_RES_AUX] += 1
    while s[S_RES_AUX] < s[S_NCHOSEN]:
        k = s[S_RES_AUX]
        i = st.chosen[k]
        if o[i, F_ZONE] == BATTLEFIELD:
            p = o[i, F_CTL]
            if _can_promise(st, cd, p, amt, k):
                return _ask(st, PEND_YES_NO, p, i)
            st.marks[k] = 1
        s[S_RES_AUX] += 1
    for k in range(s[S_NCHOSEN]):
        if st.marks[k] == 2:
            damage.pay_life(st, cd, o[st.chosen[k], F_CTL], amt)
    for k in range(s[S_NCHOSEN]):
        i = st.chosen[k]
        if st.marks[k] == 1 and o[i, F_ZONE] == BATTLEFIELD:
            zones.move(st, cd, i, GRAVEYARD, -1)
    s[S_NCHOSEN] = 0
    return NEXT


@kernel
def _can_promise(st, cd, p, amt, upto):
    """Could p pay ``amt`` more life on top of what p's team promised for the
    creatures before ``upto`` (810.9b)?"""
    promised = 0
    for k in range(upto):
        if st.marks[k] == 2 and players.shares_life(st, p, st.o[st.chosen[k], F_CTL]):
            promised += amt
    return damage.can_pay_life(st, cd, p, promised + amt)


@kernel
def _piles(st, cd, r, you, src, item):
    """Fact or Fiction: reveal the top N; an opponent separates them into two piles (card
    by card: pile 0 or 1); the controller puts one pile into their hand, the other into
    the graveyard. The opponent is the one named as it was cast (801.5a) or else the
    closest to the left (801.5c)."""
    s, ep = st.s, cd.ep
    if s[S_RES_SUB] == 0:
        amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
        _look_top(st, you, amt)
        s[S_RES_SUB] = 1
        s[S_RES_AUX] = 0
    if _answered(st):
        if s[S_RES_SUB] == 1:
            st.marks[s[S_RES_AUX]] = s[S_ANSWER]
            s[S_RES_AUX] += 1
        else:
            pile = s[S_ANSWER]
            for k in range(s[S_NCHOSEN]):
                i = st.chosen[k]
                zones.move(st, cd, i, HAND if st.marks[k] == pile else GRAVEYARD, -1)
            s[S_NCHOSEN] = 0
            return NEXT
    if s[S_RES_SUB] == 1:
        if s[S_RES_AUX] < s[S_NCHOSEN]:
            return _ask(st, PEND_PILE_SPLIT, _separator(st, item, you), st.chosen[s[S_RES_AUX]])
        s[S_RES_SUB] = 2
    if s[S_NCHOSEN] == 0:
        return NEXT
    return _ask(st, PEND_PILE, you, -1)


@kernel
def _separator(st, item, you):
    """The opponent who separates: the one named (if still in the game and in range),
    else the closest opponent to the left (801.5c)."""
    q = st.o[item, F_CHOOSER]
    if q >= 0 and st.pl[q, P_ALIVE]:
        return q
    q = players.next_in_turn_order(st, you)
    while q >= 0 and q != you and not players.is_opponent(st, you, q):
        q = players.next_in_turn_order(st, q)
    return q if q >= 0 and q != you else you


@kernel
def _redistribute(st, cd, r, you, src, item):
    """Reverse the Sands: the controller chooses players in range (810.9f: with shared
    life, one player of each team), one at a time, then for each of them in that order
    whose life total (as it was) they get; each total is given once (`loop` holds who
    gets whose: it can't be used inside a "for each", which the compiler refuses).
    Setting a total is gaining or losing the difference (119.5, 810.9c)."""
    s = st.s
    if s[S_RES_SUB] == 0:
        s[S_RES_SUB] = 1
        s[S_NCHOSEN] = 0
    if _answered(st):
        x = s[S_ANSWER]
        if s[S_RES_SUB] == 1:
            if x == NONE:
                s[S_RES_SUB] = 2
                s[S_RES_AUX] = 0
            else:
                n = s[S_NCHOSEN]
                st.chosen[n] = x
                st.marks[n] = players.life(st, -1 - x)
                st.loop[n] = NONE
                s[S_NCHOSEN] = n + 1
        else:
            st.loop[s[S_RES_AUX]] = x
            s[S_RES_AUX] += 1
    if s[S_RES_SUB] == 1:
        buf = st.scr[SCR_REFS]
        if _redistribute_options(st, you, buf) > 0:
            return _ask(st, PEND_CHOOSE_OBJECT, you, NONE)  # (S_PB NONE: choosing players)
        s[S_RES_SUB] = 2
        s[S_RES_AUX] = 0
    if s[S_RES_AUX] < s[S_NCHOSEN]:
        return _ask(st, PEND_CHOOSE_OBJECT, you, st.chosen[s[S_RES_AUX]])
    for k in range(s[S_NCHOSEN]):
        x = st.loop[k]
        for j in range(s[S_NCHOSEN]):
            if st.chosen[j] == x:
                damage.set_life(st, cd, -1 - st.chosen[k], st.marks[j])
    return NEXT


# ----------------------------------------------------------------- the casual variants (issue 14)
@kernel
def _casual(st, cd, r, you, src, item):
    """Planechase and Archenemy words: planeswalk (701.24), roll the planar die (not the
    special action: the cost doesn't rise, 901.9), set in motion (701.25), abandon this
    scheme (701.26), Chaotic Aether, Time Distortion, All in Good Time, Pools of
    Becoming's chaos."""
    ep = cd.ep
    op = ep[r, E_OP]
    if op == OP_ABANDON:
        archenemy.abandon(st, cd, src)
        return
    if op == OP_CHAOTIC_AETHER:  # until a player planeswalks away from a plane
        st.s[S_CHAOS_BLANKS] = 1
        return
    if op == OP_REVERSE_TURN_ORDER:
        planechase.reverse_turn_order(st, cd)
        return
    if op == OP_RESHUFFLE_PERMANENTS:
        planechase.reshuffle_permanents(st, cd)
        return
    if op == OP_NO_SCHEMES:
        archenemy.no_schemes_this_turn(st)
        return
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    for k in range(m):
        if buf[k] >= 0 or not st.pl[-1 - buf[k], P_ALIVE]:
            continue
        p = -1 - buf[k]
        if op == OP_PLANESWALK:
            planechase.planeswalk(st, cd, p)
        elif op == OP_ROLL_PLANAR_DIE:
            planechase.roll(st, cd, p)
        elif op == OP_SET_IN_MOTION:
            archenemy.set_in_motion(st, cd, p)
        elif op == OP_CHAOS_OF_TOP_PLANES:
            amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
            planechase.chaos_of_top(st, cd, p, amt)
        elif op == OP_NO_MAX_HAND:  # "you have no maximum hand size" (until ...)
            e = new_row(st, st.eff, S_NEFF)
            if e >= 0:
                st.eff[e, :] = 0
                st.eff[e, X_KIND] = X_NO_MAX_HAND
                st.eff[e, X_OBJ] = -1
                st.eff[e, X_CTL] = p
                st.eff[e, X_TS] = stamp(st)
                st.eff[e, X_UNTIL] = ep[r, E_UNTIL]
                st.eff[e, X_SRC] = src


@kernel
def _reveal_until(st, cd, r, you, src, item):
    """Reveal cards from the top of your library until one matches the filter: it goes to
    the battlefield (E_C 1) or your hand; the others go to the bottom in a random order
    (E_A 0) or are shuffled back in (E_A 1)."""
    ep = cd.ep
    n = st.pl[you, P_LIBN]
    rest = np.empty(n + 1, np.int64)
    m = 0
    found = -1
    for j in range(n):
        i = zones.library_top(st, you, j)
        if selectors.matches_card(st, cd, ep[r, E_REFA], i, you, src):
            found = i
            break
        rest[m] = i
        m += 1
    if found >= 0:
        if ep[r, E_C] == 1:
            zones.enter_battlefield(st, cd, found, you, -1, 0)
        else:
            zones.move(st, cd, found, HAND, -1)
        st.s[S_RES_IT] = found
    if ep[r, E_A] == 1:
        zones.shuffle(st, you)
        return
    for k in range(m - 1, 0, -1):
        j = rand_below(st, k + 1)
        t = rest[k]
        rest[k] = rest[j]
        rest[j] = t
    for k in range(m):
        zones.to_library(st, cd, rest[k], False)


@kernel
def _reveal_until_each(st, cd, r, you, src, item):
    """Each player named (E_REF2) reveals cards from the top of their library until a card
    matching the filter; you choose one of those cards and put it onto the battlefield
    under your control; every other card revealed this way goes to its owner's graveyard.
    The revealed cards wait in their libraries: `chosen` holds each player's matching
    card (or -1 - the player when none) and `marks` how many cards they revealed."""
    s, ep = st.s, cd.ep
    if s[S_RES_SUB] == 0:
        s[S_RES_SUB] = 1
        s[S_NCHOSEN] = 0
        buf = st.scr[SCR_REFS]
        m = selectors.refs(st, cd, ep[r, E_REF2], ep[r, E_REF2A], you, src, item, buf)
        found = False
        for k in range(m):
            x = buf[k]
            if x >= 0 or not st.pl[-1 - x, P_ALIVE] or not _reach(st, you, x):
                continue
            q = -1 - x
            n = st.pl[q, P_LIBN]
            hit = x
            shown = n
            for j in range(n):
                i = zones.library_top(st, q, j)
                if selectors.matches_card(st, cd, ep[r, E_REFA], i, you, src):
                    hit = i
                    shown = j + 1
                    found = True
                    break
            c = s[S_NCHOSEN]
            if c < st.chosen.shape[0]:
                st.chosen[c] = hit
                st.marks[c] = shown
                s[S_NCHOSEN] = c + 1
        if found and st.pl[you, P_ALIVE]:
            return _ask(st, PEND_CHOOSE_OBJECT, you, -1)
    x = NONE
    if _answered(st):
        x = s[S_ANSWER]
    if x != NONE and x >= 0:
        zones.enter_battlefield(st, cd, x, you, -1, 0)
        s[S_RES_IT] = x
    for k in range(s[S_NCHOSEN]):
        h = st.chosen[k]
        q = st.o[h, F_OWNER] if h >= 0 else -1 - h
        n = st.marks[k] - (1 if h == x else 0)
        for _ in range(n):
            i = zones.library_top(st, q, 0)
            if i < 0:
                break
            zones.move(st, cd, i, GRAVEYARD, -1)
    s[S_NCHOSEN] = 0
    return NEXT


@kernel
def _choose_mode(st, cd, r, you, src, item):
    """A player chooses one of the modes as the ability resolves ("target opponent chooses
    self or others", Feed the Machine): E_A modes; the rows after this one jump to each."""
    s, ep = st.s, cd.ep
    if _answered(st):
        s[S_RES_PC] = r + 1 + s[S_ANSWER]
        s[S_RES_SUB] = 0
        s[S_RES_AUX] = 0
        return JUMPED
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, ep[r, E_REF], ep[r, E_REFA], you, src, item, buf)
    p = -1 - buf[0] if m > 0 and buf[0] < 0 else you
    if not st.pl[p, P_ALIVE]:
        s[S_RES_PC] = r + 1
        return JUMPED
    return _ask(st, PEND_MODE, p, ep[r, E_A])


@kernel
def _reveal_planes(st, cd, r, you, src, item):
    """Interplanar Tunnel / Spatial Merging: reveal cards from the top of your planar deck
    until N plane cards are revealed; put the plane you choose on top and the rest on the
    bottom in a random order (E_A REVEAL_PLANES_TOP), or planeswalk to all N at once,
    the rest to the bottom (REVEAL_PLANES_PLANESWALK)."""
    s, ep = st.s, cd.ep
    amt = selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
    if ep[r, E_A] == REVEAL_PLANES_PLANESWALK:
        planechase.planeswalk_to_top(st, cd, you, amt)
        return NEXT
    if s[S_RES_SUB] == 0:
        s[S_NCHOSEN] = planechase.reveal_planes(st, cd, you, amt, st.chosen, st.marks)
        s[S_RES_SUB] = 1
    if _answered(st):
        x = s[S_ANSWER]
        planechase.put_back_revealed(st, cd, you, x, st.chosen, st.marks, s[S_NCHOSEN])
        s[S_NCHOSEN] = 0
        return NEXT
    if planechase.count_marked(st.marks, s[S_NCHOSEN]) > 0:
        return _ask(st, PEND_CHOOSE_OBJECT, you, -1)
    planechase.put_back_revealed(st, cd, you, -1, st.chosen, st.marks, s[S_NCHOSEN])
    s[S_NCHOSEN] = 0
    return NEXT


@kernel
def _redistribute_options(st, you, out):
    """Players not chosen yet: in ``you``'s range (801.10), alive, no teammate sharing a
    life total with one chosen already (810.9f); in turn order from ``you``."""
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, you, buf)
    m = 0
    for j in range(k):
        q = buf[j]
        if not st.pl[q, P_ALIVE] or not players.in_range(st, you, q):
            continue
        ok = True
        for c in range(st.s[S_NCHOSEN]):
            if players.shares_life(st, q, -1 - st.chosen[c]):
                ok = False
        if ok:
            out[m] = -1 - q
            m += 1
    return m


@kernel
def _givable(st, x):
    """Is chosen player x's total still to be given (in the second part)?"""
    for k in range(st.s[S_RES_AUX]):
        if st.loop[k] == x:
            return False
    return True


@kernel
def _restart(st, cd, r, you, src, item):
    """723 (Karn Liberated): the game restarts. Every player still in the game is in the
    new one (801.17: range of influence doesn't limit it); every card goes to its
    owner's library (a commander to the command zone) but, with E_A, those exiled
    with this source, which wait in exile; tokens, copies, emblems, spells and
    abilities cease to exist; life totals begin again, counters on players and every
    continuous effect, shield, delayed or waiting trigger are gone. Libraries are
    shuffled and opening hands drawn (no mulligans in a restarted game: a documented
    simplification); the cards set aside are then put onto the battlefield under the
    ability's controller, whose first turn begins (723.1: they start the new game)."""
    s, o, ep = st.s, st.o, cd.ep
    keep = ep[r, E_A] == 1
    n = s[S_N]
    for i in range(n):
        z = o[i, F_ZONE]
        if z == GONE:
            continue
        if keep and z == EXILE and o[i, F_EXILED_BY] == src and src >= 0:
            continue
        if o[i, F_TOKEN] or o[i, F_CARD] < 0 or (z == STACK and o[i, F_IKIND] != I_SPELL):
            zones.cease(st, cd, i)  # (emblems are F_TOKEN 3)
        elif z == COMMAND and o[i, F_COMMANDER] == 0:
            continue  # planes, schemes, vanguards stay where they are
        elif o[i, F_COMMANDER]:
            if z != COMMAND:
                zones.move(st, cd, i, COMMAND, -1)
        elif z != LIBRARY:
            zones.move(st, cd, i, LIBRARY, -1)
    s[S_NTRG] = 0
    s[S_NEFF] = 0
    s[S_NSH] = 0
    s[S_NDL] = 0
    s[S_NXT] = 0
    s[S_MONARCH] = -1
    s[S_DAY_NIGHT] = 0
    for p in range(st.pl.shape[0]):
        if not st.pl[p, P_ALIVE]:
            continue
        if st.pl[p, P_LIFEPOOL] == p:
            st.pl[p, P_LIFE] = st.pl[p, P_START_LIFE]
            st.pl[p, P_POISON] = 0
        for k in range(N_COUNTERS):
            st.pl[p, P_CTR + k] = 0
        for c in range(N_MANA):
            st.pl[p, P_MANA + c] = 0
        st.pl[p, P_CMDCAST] = 0
        st.pl[p, P_CMDCAST + 1] = 0
        st.pl[p, P_DREW_EMPTY] = 0
        for q in range(st.cdmg.shape[1]):
            st.cdmg[p, q] = 0
    s[S_STARTING] = you
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, you, buf)
    for j in range(k):
        zones.shuffle(st, buf[j])
    for j in range(k):
        zones.draw(st, cd, buf[j], st.pl[buf[j], P_START_HAND])
    s[S_NTRG] = 0  # (what triggered as the old game ended triggered in no game)
    if keep:
        for i in range(n):
            if o[i, F_ZONE] == EXILE and o[i, F_EXILED_BY] == src:
                zones.enter_battlefield(st, cd, i, you, -1, 0)
    s[S_TURN] = 0
    s[S_RES_END] = s[S_RES_PC] + 1  # (nothing of the old game's effect goes on)
    s[S_RESTARTED] = 1
    turn_structure.begin_turn(st, cd, you)
    touch(st)
    return NEXT


# ----------------------------------------------------------------- the options
@kernel
def options(st, cd, out_obj, out_arg):
    """The options of the decision a resolving effect asked for, in their documented
    order (yes before no; objects in id order, players in turn order; "none" last):
    each is (object or player code or NONE, number). Returns how many."""
    s, o, ep = st.s, st.o, cd.ep
    kind = s[S_PEND]
    r = s[S_PA]
    p = s[S_PPLAYER]
    item = s[S_RES]
    you, src = selectors.context_of(st, item)
    op = ep[r, E_OP]
    m = 0
    if kind == PEND_YES_NO:
        yes = True
        if op == OP_MAY or op == OP_UNLESS:
            yes = can_pay_optional(st, cd, r, p, you, src, item)
        elif op == OP_SAC_UNLESS_LIFE:
            yes = damage.can_pay_life(
                st, cd, p, selectors.amount(st, cd, ep[r, E_AMT], you, src, item)
            )
        if yes:
            out_obj[m], out_arg[m] = s[S_PB], 1
            m += 1
        out_obj[m], out_arg[m] = s[S_PB], 0
        return m + 1
    if kind == PEND_COLOR:  # the colours it may be, W U B R G
        for c in range(5):
            if (ep[r, E_C] >> c) & 1:
                out_obj[m], out_arg[m] = -1, c
                m += 1
        return m
    if kind == PEND_NUMBER:  # "you may pay {X}": 0 up to the most p could pay now
        cost = zeroed(st.scr[SCR_OPTION_COST], COST_W)
        top = mana.total_available(st, cd, p)
        for x in range(min(top, out_obj.shape[0] - 1) + 1):
            if x > 0 and not mana.can_pay(st, cd, p, cost, x):
                break
            out_obj[m], out_arg[m] = -1, x
            m += 1
        return m
    if kind == PEND_COMMAND_ZONE:  # 903.9b: the command zone, or where it was going
        out_obj[0], out_arg[0] = s[S_PB], 1
        out_obj[1], out_arg[1] = s[S_PB], 0
        return 2
    if kind == PEND_SCRY or kind == PEND_PILE_SPLIT or kind == PEND_PILE:
        first = 1 if kind == PEND_SCRY else 0
        out_obj[0], out_arg[0] = s[S_PB], first
        out_obj[1], out_arg[1] = s[S_PB], 1 - first
        return 2
    if kind == PEND_MODE:  # choose_mode: the modes in printed order
        for k in range(s[S_PB]):
            out_obj[m], out_arg[m] = -1, k
            m += 1
        return m
    if kind == PEND_DISCARD:  # cards of S_PB's hand (the step's filter, E_D)
        h = s[S_PB]
        f = ep[r, E_D]
        for j in range(st.pl[h, P_HANDN]):
            i = st.hand[h, j]
            if f < 0 or selectors.matches_card(st, cd, f, i, you, src):
                out_obj[m], out_arg[m] = i, 0
                m += 1
        return m
    if kind == PEND_COLOR or kind == PEND_POSITION or op == OP_WISH:
        return more_options(st, cd, out_obj, out_arg)
    if kind != PEND_CHOOSE_OBJECT:
        return 0
    none_ok = True
    if op == OP_SEARCH:  # (701.19b: only a search for cards of a stated quality may fail)
        none_ok = ep[r, E_MUST_FIND] == 0
        for i in range(s[S_N]):
            z = o[i, F_ZONE]
            if (z == LIBRARY or (z == GRAVEYARD and ep[r, E_C] == 1)) and o[i, F_OWNER] == p:
                if selectors.matches_card_in(st, cd, ep[r, E_REFA], i, p, src, item):
                    out_obj[m], out_arg[m] = i, 0
                    m += 1
    elif op == OP_LOOK_AT_TOP or op == OP_REVEAL_TOP:
        ordering = s[S_RES_SUB] == 2
        none_ok = not ordering and ep[r, E_D] == PICK_UP_TO
        for k in range(s[S_NCHOSEN]):
            i = st.chosen[k]
            if st.marks[k] != 0:
                continue
            if ordering:
                if o[i, F_ZONE] == LIBRARY:
                    out_obj[m], out_arg[m] = i, 0
                    m += 1
            elif selectors.matches_card(st, cd, ep[r, E_REFA], i, p, src):
                out_obj[m], out_arg[m] = i, 0
                m += 1
    elif op == OP_REVEAL_UNTIL:  # the matching card each player revealed
        none_ok = False
        for k in range(s[S_NCHOSEN]):
            if st.chosen[k] >= 0:
                out_obj[m], out_arg[m] = st.chosen[k], 0
                m += 1
    elif op == OP_REVEAL_PLANES:  # the revealed planes, top first
        none_ok = False
        for k in range(s[S_NCHOSEN]):
            if st.marks[k] == 1:
                out_obj[m], out_arg[m] = st.chosen[k], 0
                m += 1
    elif op == OP_CAST_FREE:  # the cards p may cast (or play) now, in id order
        none_ok = False
        m = _free_options(st, cd, r, p, src, item, out_obj)
        for k in range(m):
            out_arg[k] = 0
    elif op == OP_SACRIFICE:
        none_ok = False
        for j in continuous_effects.held_by(st, p):
            if selectors.matches(st, cd, ep[r, E_D], j, p, src, -1):
                out_obj[m], out_arg[m] = j, 0
                m += 1
    elif op == OP_REDISTRIBUTE_LIFE:
        if s[S_RES_SUB] == 1:
            buf = st.scr[SCR_REFS]
            n = _redistribute_options(st, p, buf)
            for k in range(n):
                out_obj[m], out_arg[m] = buf[k], 0
                m += 1
        else:
            none_ok = False
            for k in range(s[S_NCHOSEN]):
                if _givable(st, st.chosen[k]):
                    out_obj[m], out_arg[m] = st.chosen[k], 0
                    m += 1
    elif op == OP_COPY_SPELL:  # 707.10c: the copy's targets, the present one first
        none_ok = False
        buf = st.scr[SCR_COPY_TARGETS]
        n = _copy_target_options(st, cd, s[S_RES_AUX], s[S_RES_SUB] - 1, p, buf)
        for k in range(n):
            out_obj[m], out_arg[m] = buf[k], 0
            m += 1
    else:
        none_ok = op == OP_PUT_LAND or op == OP_PUT_ATTACKING or ep[r, E_B] == 1
        buf = st.scr[SCR_REFS]
        n = choose_options(st, cd, r, p, you, src, item, buf)
        for k in range(n):
            out_obj[m], out_arg[m] = buf[k], 0
            m += 1
    if none_ok:
        out_obj[m], out_arg[m] = NONE, 0
        m += 1
    return m


# ----------------------------------------------------------------- 726-729
@kernel
def _cost_of(cd, a, out):
    """The mana cost held by ability row a (an AB_COST row: "you may pay {1}{R}")."""
    for k in range(N_MANA + 1):
        out[k] = cd.ab[a, B_COST + k]
    for k in range(NHYB):
        out[N_MANA + 1 + k] = cd.ab[a, B_HYB + k]


@kernel
def _merge(st, cd, r, you, src, item):
    """702.140c: the mutating spell merges with its (legal) target: its controller
    chooses on top or underneath (PEND_POSITION: 1 top, 0 bottom)."""
    s, o = st.s, st.o
    buf = st.scr[SCR_REFS]
    m = selectors.refs(st, cd, cd.ep[r, E_REF], cd.ep[r, E_REFA], you, src, item, buf)
    x = buf[0] if m > 0 else NONE
    if x == NONE or x < 0 or o[x, F_ZONE] != BATTLEFIELD or o[item, F_ZONE] != STACK:
        return NEXT  # (an illegal target: systems/stack.py lets it enter on its own)
    if _answered(st):
        merging.merge(st, cd, item, x, s[S_ANSWER] == 1)
        return NEXT
    return _ask(st, PEND_POSITION, you, x)


@kernel
def _enter_as_copy(st, cd, r, you, src, item):
    """614.1c, 707.2: the resolving permanent spell enters the battlefield as a copy of
    the object chosen (its copiable values now), or as itself if none was."""
    o = st.o
    if o[item, F_ZONE] != STACK:
        return
    y = selectors.simple_ref(st, cd, cd.ep[r, E_REF], you, src, item)
    c = selectors.face(st, cd, y) if y != NONE and y >= 0 else -1
    o[item, F_IAB] = -1
    zones.enter_as_copy(st, cd, item, you, -1, 0, c)


@kernel
def _devour(st, cd, you, item):
    """702.82a: the resolving creature spell enters with N +1/+1 counters for each
    creature the step before sacrificed (S_LAST: it devoured them, 702.82b)."""
    o = st.o
    if o[item, F_ZONE] != STACK:
        return
    o[item, F_IAB] = -1
    o[item, F_DEVOURED] = st.s[S_LAST]
    zones.enter_battlefield(st, cd, item, you, -1, 0)


@kernel
def _meld(st, cd, r, you, src):
    """701.42a: "exile [this] and [the permanent E_REFA matches], then meld them into
    [this card's back face]": both are exiled; they become one melded permanent (712.4,
    systems/merging.meld) only if they are two cards, neither merged with anything, both
    owned and controlled by ``you``. Otherwise they stay in exile (701.42b); with either
    gone from the battlefield, nothing happens (Gisela's intervening "if", 603.4)."""
    o = st.o
    if src < 0 or o[src, F_ZONE] != BATTLEFIELD:
        return
    b = -1
    for j in zones.permanents(st):
        if j != src and selectors.matches(st, cd, cd.ep[r, E_REFA], j, you, src, -1):
            b = j
            break
    if b < 0:
        return
    ok = True
    for x in (src, b):
        ok = ok and o[x, F_OWNER] == you and o[x, F_CTL] == you and o[x, F_TOKEN] == 0
        ok = ok and not merging.is_merged(st, x) and o[x, F_CARD] >= 0
    ok = ok and cd.ct[o[src, F_CARD], C_BACK] >= 0  # (this card's back: the melded face)
    zones.move(st, cd, src, EXILE, -1)
    zones.move(st, cd, b, EXILE, -1)
    if ok and o[src, F_ZONE] == EXILE and o[b, F_ZONE] == EXILE:
        merging.meld(st, cd, src, b, you)


@kernel
def _subgame(st, cd, r, you):
    """726.1: the players play a subgame: this game pauses mid-resolution (PEND_SUBGAME,
    nobody decides in it) until the subgame is over and its results are in
    (systems/subgames.py: the driver makes and plays it, then P_SUB_RESULT)."""
    s = st.s
    if s[S_SUBGAME] == SUB_DONE:
        s[S_SUBGAME] = SUB_NONE
        return NEXT
    s[S_SUBGAME] = SUB_REQUESTED
    s[S_PEND] = PEND_SUBGAME
    s[S_PPLAYER] = you
    s[S_PA] = r
    s[S_PB] = -1
    return PAUSE


@kernel
def _wish(st, cd, r, you, src, item):
    """ "You may reveal a [card] you own from outside the game and put it into your hand":
    in a subgame the cards outside it are the main game's (726.4; F_OUTSIDE); brought
    in, they go to the main game's library when it ends (726.5)."""
    s, o = st.s, st.o
    p = _who(st, cd, r, you, src, item)
    if _answered(st):
        x = s[S_ANSWER]
        if x != NONE and x >= 0 and o[x, F_OUTSIDE]:
            o[x, F_OUTSIDE] = 0
            o[x, F_BROUGHT] = 1  # 726.4a: the game above moves its card out of its zone
            s[S_NBROUGHT] += 1
            zones.move_one(st, cd, x, HAND, -1)
            s[S_RES_IT] = x
        return NEXT
    if st.pl[p, P_ALIVE] and _wish_count(st, cd, r, p, src) > 0:
        return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
    return NEXT


@kernel
def _wish_count(st, cd, r, p, src):
    n = 0
    for i in range(st.s[S_N]):
        if st.o[i, F_OUTSIDE] and st.o[i, F_OWNER] == p and variants.may_bring_in(st, cd, p, i):
            if selectors.matches_card(st, cd, cd.ep[r, E_REFA], i, p, src):
                n += 1
    return n


@kernel
def _exile_until(st, cd, r, you, src, item):
    """Illuna: exile cards from the top of your library until you exile one matching the
    filter; it goes to your hand, onto the battlefield, or (E_A = 2) the one you choose
    (yes: the battlefield)."""
    s, o, ep = st.s, st.o, cd.ep
    if s[S_RES_SUB] == 0:
        s[S_RES_SUB] = 1
        s[S_RES_AUX] = -1
        while True:
            i = zones.library_top(st, you, 0)
            if i < 0:
                break
            zones.move(st, cd, i, EXILE, -1)
            if selectors.matches_card(st, cd, ep[r, E_REFA], i, you, src):
                s[S_RES_AUX] = i
                break
    x = s[S_RES_AUX]
    if x < 0 or o[x, F_ZONE] != EXILE:
        return NEXT
    to_bf = ep[r, E_A] == 1
    if ep[r, E_A] == 2:
        if not _answered(st):
            return _ask(st, PEND_YES_NO, you, x)
        to_bf = s[S_ANSWER] == 1
    if to_bf:
        zones.enter_battlefield(st, cd, x, you, -1, 0)
    else:
        zones.move(st, cd, x, HAND, -1)
    s[S_RES_IT] = x
    return NEXT


@kernel
def more_options(st, cd, out_obj, out_arg):
    """The options of the 726-729 decisions of a resolving effect (see ``options``)."""
    s, o, ep = st.s, st.o, cd.ep
    kind = s[S_PEND]
    r = s[S_PA]
    p = s[S_PPLAYER]
    m = 0
    if kind == PEND_COLOR:  # W U B R G order
        for c in range(5):
            if ep[r, E_C] >> c & 1:
                out_obj[m], out_arg[m] = NONE, c
                m += 1
    elif kind == PEND_POSITION:  # on top first
        out_obj[0], out_arg[0] = s[S_PB], 1
        out_obj[1], out_arg[1] = s[S_PB], 0
        m = 2
    elif kind == PEND_CHOOSE_OBJECT and ep[r, E_OP] == OP_WISH:
        _, src = selectors.context_of(st, s[S_RES])
        for i in range(s[S_N]):
            if o[i, F_OUTSIDE] and o[i, F_OWNER] == p and variants.may_bring_in(st, cd, p, i):
                if selectors.matches_card(st, cd, ep[r, E_REFA], i, p, src):
                    out_obj[m], out_arg[m] = i, 0
                    m += 1
        out_obj[m], out_arg[m] = NONE, 0  # (you may: none)
        m += 1
    return m


# ----------------------------------------------------------------- casting without paying
@kernel
def _cast_free(st, cd, r, you, src, item):
    """601.2, 118.9: "you may cast [a card] without paying its mana cost" as the ability
    resolves. The player says yes or no (S_RES_SUB 1), then picks one of the cards they
    could cast now (3), and casts it (2): timing is ignored, X is 0, no alternative cost,
    additional costs and cost increases are paid (``casting.begin_free``); its choices
    are the casting's decisions, and once it is on the stack this resolution goes on.
    It is cast, so "whenever you cast" abilities trigger. E_A: where the cards are
    (FREE_FROM_SET: those E_REF / E_REFA name, "each opponent reveals their hand";
    FREE_FROM_TOP: the top card of your library, revealed; FREE_FROM_SEARCH: your hand
    and/or library, after which the library is shuffled unless the card cast came from
    the hand, a documented default for "if you searched your library"). E_B 1: a land
    card is played instead (305.2, 305.3: as one of your land plays, in your turn)."""
    s, o = st.s, st.o
    p = you
    sub = s[S_RES_SUB]
    if sub == 2:  # (the cast that began here is done)
        _free_done(st, cd, r, p)
        return NEXT
    if _answered(st):
        x = s[S_ANSWER]
        if sub == 1:
            if x == 0:
                _free_done(st, cd, r, p)
                return NEXT
            s[S_RES_SUB] = 3
            return _ask(st, PEND_CHOOSE_OBJECT, p, -1)
        s[S_RES_SUB] = 2
        s[S_RES_IT] = x
        s[S_RES_AUX] = o[x, F_ZONE]
        if o[x, F_TYPES] & T_LAND:  # played, not cast (305.1): a land play of the turn
            zones.enter_battlefield(st, cd, x, p, -1, 0)
            st.pl[p, P_LANDS] += 1
        else:
            casting.begin_free(st, cd, p, x)
            if s[S_PEND] != PEND_NONE:  # its choices (modes, kicker, targets) are asked
                return PAUSE
        _free_done(st, cd, r, p)
        return NEXT
    buf = st.scr[SCR_REFS]
    if not st.pl[p, P_ALIVE] or _free_options(st, cd, r, p, src, item, buf) == 0:
        _free_done(st, cd, r, p)
        return NEXT
    s[S_RES_SUB] = 1
    return _ask(st, PEND_YES_NO, p, -1)


@kernel
def _free_done(st, cd, r, p):
    """After a hand-and/or-library search: shuffle, unless the card cast was in the hand."""
    s = st.s
    if cd.ep[r, E_A] != FREE_FROM_SEARCH or not st.pl[p, P_ALIVE]:
        return
    if s[S_RES_SUB] == 2 and s[S_RES_AUX] == HAND:
        return
    zones.shuffle(st, p)


@kernel
def _free_options(st, cd, r, p, src, item, out):
    """The cards p may cast now without paying (or play, a land, with E_B 1), in id
    order; returns how many."""
    o, ep = st.o, cd.ep
    mode = ep[r, E_A]
    f = ep[r, E_REFA]
    lands = ep[r, E_B] == 1
    if mode == FREE_FROM_REF:  # that card, while it is still in exile (rebound)
        x = selectors.simple_ref(st, cd, ep[r, E_REF], p, src, item)
        if x >= 0 and x != NONE and o[x, F_ZONE] == EXILE and _free_playable(st, cd, p, x, lands):
            out[0] = x
            return 1
        return 0
    if mode == FREE_FROM_TOP:
        i = zones.library_top(st, p, 0)
        if i >= 0 and _free_playable(st, cd, p, i, lands):
            out[0] = i
            return 1
        return 0
    m = 0
    for i in range(st.s[S_N]):
        z = o[i, F_ZONE]
        if mode == FREE_FROM_SEARCH:
            if (z != HAND and z != LIBRARY) or o[i, F_OWNER] != p:
                continue
            if not selectors.matches_card_in(st, cd, f, i, p, src, item):
                continue
        elif mode == FREE_FROM_SET:
            if z == GONE or not selectors.matches(st, cd, f, i, p, src, item):
                continue
            if z == HAND and not players.in_range(st, p, o[i, F_OWNER]):  # 801.10
                continue
        if _free_playable(st, cd, p, i, lands):
            out[m] = i
            m += 1
    return m


@kernel
def _free_playable(st, cd, p, i, lands):
    if st.o[i, F_TYPES] & T_LAND:
        return (
            lands
            and players.is_active(st, p)
            and st.pl[p, P_LANDS] < legal_actions.land_drops(st, cd, p)
        )
    return casting.free_castable(st, cd, p, i)


@kernel
def _return_at_random(st, cd, r, you, src, item):
    """ "Return a card at random from your graveyard to your hand": one of the matching
    cards (each as likely, from the game's generator) goes to its owner's hand; it is
    "it" for the next step."""
    s, o = st.s, st.o
    buf = st.scr[SCR_REFS]
    m = 0
    for i in range(s[S_N]):
        if o[i, F_ZONE] != GONE and selectors.matches(st, cd, cd.ep[r, E_REFA], i, you, src, item):
            buf[m] = i
            m += 1
    if m == 0:
        return
    j = rand_below(st, m)
    trace(st, T_RANDOM, you, m, j, 0, 0, 0, 0, 0)
    zones.move(st, cd, buf[j], HAND, -1)
    s[S_RES_IT] = buf[j]
