"""The whole game loop as one numba kernel: complete games with random agents, in batches.

This is the compiled twin of the Python engine (``systems/turn_structure.py`` and the
systems it calls) for the part of the rules the stock decks need: two-player and
free-for-all games (806) with ranges of influence (801) and every attack option (802,
803; the range and attack-target kernels of ``systems/range_of_influence.py`` and
``systems/attack_targets.py`` run as each turn begins), priority with auto-pass (117), the stack (405, 608), triggered abilities (603),
combat with every keyword of the stock pool (506-511, 702), damage, prevention and
life (119, 120, 615), layers 2, 6 and 7c (613), state-based actions (704.5), leaving
the game (800.4a) and winning and losing (104). Cards come compiled from their YAML
records (``ecs/compiled.py``): effects are rows of opcodes (``OP_*``), references and
amounts are small integers.

It follows the Python engine decision for decision: the same decision points, the
legal actions in the same order, the same defaults. ``tests/test_compiled_game.py``
replays compiled games in the Python engine and checks, at every decision, that the
legal actions agree and, at the end, that the outcome does (OpenSpiel-style).

State of one game is a :class:`GameState` of arrays (a leading game axis ``G`` in
the batch arrays; the kernel loops over it): ``o`` objects (N, OF), ``pl`` players
(P, PF), ``s`` scalars, ``lib`` libraries (P, L), ``stk`` the stack, ``trg`` queued
triggers, ``eff`` continuous effects of resolved spells, ``sh`` prevention shields,
``xt`` extra turns, ``bq`` players still to declare blockers, ``seat`` turn order,
``rng`` the game's generator (splitmix64), ``tr`` the optional decision trace,
``acts`` the legal-action buffer (shared: games are played one after another),
``hand`` each player's hand in id order (P, H; ``P_HANDN`` cards), ``rm`` the range
and attack-target masks, ``mk`` the Grand Melee turn markers, ``bf`` the permanents in
id order, ``held`` the same grouped by controller (made with the layers). The scans that mirror the Python engine's walk of every object in id order
walk only one of these two lists: the player's hand (lands and spells to play,
discards) or the battlefield (layers, state-based actions, mana, triggers, combat).

Speed comes from doing little per step: derived values and state-based actions are
recomputed only after a change that can affect them (``touch``; ``bump`` for changes
that can't), the "can this player do anything?" answer and the state triggers are
cached per state version, scans walk short lists (a hand, the permanents, one
player's permanents, the players in range) instead of every object, ``play_batch``
passes views that own no reference (``borrowed``: no atomic reference counting on
the many calls that take the game state), and games are dealt in numpy
(``ecs.compiled._setup``) rather than through ``Game.new``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from ecs.legacy.systems.attack_targets import attack_target_mask
from ecs.legacy.systems.range_of_influence import in_range_mask
from systems.jit import entry, kernel

# ----------------------------------------------------------------- layout
# object fields
(
    F_CARD, F_ZONE, F_OWNER, F_BCTL, F_CTL, F_LCTL, F_TAPPED, F_SICK, F_DMG, F_DTHIT,
    F_CP1, F_CM1, F_LOY, F_INTV, F_ATT, F_ATKP, F_ATKO, F_BLOCKING, F_BLOCKED, F_FSD,
    F_TS, F_TOKEN, F_POW, F_TOU, F_KW, F_RESTRICT, F_BSEQ, F_LOYUSED, F_DECL, F_DSEQ,
    F_SRC, F_IKIND, F_IAB, F_ICTL, F_IT0, F_IT1, F_INT, F_IEVP, F_IEVA, F_IEVC, F_TYPES,
    OF,
) = range(42)  # fmt: skip
# player fields
(
    P_LIFE, P_POISON, P_ALIVE, P_LOST, P_WON, P_DRAWN, P_LANDS, P_DREW_EMPTY, P_LIBN,
    P_HA_VER, P_HA_SORC, P_HA_VAL, P_NINSTANT, P_SEATPOS, P_REACH, P_DEFERRED, P_HANDN,
    P_HELD0, P_NHELD, P_ELIG, PF,
) = range(21)  # fmt: skip
# scalars
(
    S_TURN, S_STEP, S_TODO, S_ACTIVE, S_PRIO, S_PASSES, S_N, S_TSC, S_OVER, S_DECLARED,
    S_FSSTEP, S_CLEANUP_AGAIN, S_PEND, S_PPLAYER, S_PCOUNT, S_NSTK, S_NEFF, S_NSH, S_NTRG,
    S_NXT, S_NBQ, S_DSEQ, S_MAXTURNS, S_STARTING, S_POISON_LIMIT, S_NPLAYERS, S_NTR,
    S_DECISIONS, S_BSEQ, S_ERROR, S_VERSION, S_LDIRTY, S_SDIRTY, S_OFFERS, S_TRIGKINDS,
    S_STATICS, S_TOKENS, S_NSTATBF, S_NSTATETRIG, S_COUNTERS, S_WASPLAIN,
    S_ATTACK_MODE, S_GM, S_NMARK, S_CUR, S_NBF, S_STVER, S_STCUR, SF,
) = range(49)  # fmt: skip
# Grand Melee turn markers (807.4): one row each, in marker-number order; the turn
# fields of SAVED are kept in the row while another marker's turn is loaded into ``s``
# (turn_markers.save / load), and the row's stack follows from column KF
SAVED = (
    S_ACTIVE, S_STEP, S_TODO, S_PRIO, S_PASSES, S_DECLARED, S_FSSTEP, S_CLEANUP_AGAIN,
    S_PEND, S_PPLAYER, S_PCOUNT,
)  # fmt: skip
K_NUMBER, K_HOLDER, K_REMOVAL, K_WAITING, K_THEN_NORMAL, K_NSTK, K_SAVED = range(7)
KF = K_SAVED + len(SAVED)

# zones, steps (ecs/constants.py)
LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, EXILE, STACK, COMMAND, GONE = range(8)
UNTAP, UPKEEP, DRAW, MAIN1, BEGIN_COMBAT, DECLARE_ATTACKERS, DECLARE_BLOCKERS = range(7)
FIRST_STRIKE_DAMAGE, COMBAT_DAMAGE, END_COMBAT, MAIN2, END, CLEANUP, PREGAME = range(7, 14)
TODO_BEGIN, TODO_PRIORITY, TODO_END = 0, 1, 2
# pending decisions
PEND_NONE, PEND_PRIORITY, PEND_ATTACK, PEND_BLOCK, PEND_DISCARD = range(5)
# action kinds (trace and action buffer)
A_PASS, A_LAND, A_CAST, A_ACTIVATE, A_ATTACK, A_ATTACK_DONE = range(6)
A_BLOCK, A_BLOCK_DONE, A_BLOCK_RESET, A_DISCARD = range(6, 10)
T_SHUFFLE, T_RANDOM = 20, 21  # random events recorded in the trace
# stack item kinds
I_SPELL, I_ACTIVATED, I_TRIGGER = 0, 1, 2

# card table fields
(
    C_TYPES, C_POW, C_TOU, C_KW, C_LOY, C_GENERIC, C_W, C_U, C_B, C_R, C_G, C_C, C_MV,
    C_MANA, C_SUPER, C_CSUB, C_LANDSUB, C_AURA, C_ENCHANT, C_EQUIP_PLUS, C_STATIC,
    C_PUMP_P, C_PUMP_T, C_ENTERS_INTV, C_NT, C_K0, C_K1, C_E0, C_EN, C_NAB, C_AB0,
    C_NTRIG, C_TR0, C_HASAB, C_TRIGMASK, CF,
) = range(36)  # fmt: skip
# ability table (activated abilities and triggers), one row each
(
    B_GENERIC, B_W, B_U, B_B, B_R, B_G, B_C, B_MV, B_LOY, B_HASLOY, B_SORC, B_EQUIP, B_NT,
    B_K0, B_K1, B_E0, B_EN, B_WHEN, B_COND, B_CONDARG, BF,
) = range(21)  # fmt: skip

# types, supertypes, keywords (ecs/constants.py)
T_LAND, T_CREATURE, T_ARTIFACT, T_ENCHANTMENT, T_PLANESWALKER, T_INSTANT, T_SORCERY = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
)
T_BATTLE = 128
T_PERMANENT = T_LAND | T_CREATURE | T_ARTIFACT | T_ENCHANTMENT | T_PLANESWALKER | T_BATTLE
S_LEGENDARY, S_WORLD = 2, 4
# static ability bits
ST_CONTROL, ST_CANT_ATTACK, ST_CANT_BLOCK, ST_PUMP_EQUIPPED, ST_HASTE_ALL = 1, 2, 4, 8, 16
ST_COAT, ST_CANT_LOSE, ST_CANT_WIN, ST_NO_LOSS_ZERO = 32, 64, 128, 256
CANT_ATTACK, CANT_BLOCK = 1, 2
# target kinds
K_ANY, K_CREATURE, K_PLAYER, K_OPPONENT, K_PW_OR_PLAYER, K_LAND, K_CREATURE_YOURS = range(7)
# effect opcodes: rows of (op, ref, amount, a, b, c)
(
    OP_DAMAGE, OP_PREVENT, OP_DRAW, OP_DESTROY, OP_PUMP, OP_GAIN_CONTROL, OP_UNTAP,
    OP_EXTRA_TURN, OP_DOUBLE_LIFE, OP_LIFE_LOWEST, OP_SHUFFLE_SELF, OP_DISCARD_RANDOM,
    OP_CREATE_TOKEN, OP_WIN, OP_LOSE, OP_DRAW_GAME, OP_REMOVE_COUNTER, OP_GAIN_LIFE,
    OP_LOSE_LIFE,
) = range(19)  # fmt: skip
E_OP, E_REF, E_AMT, E_A, E_B, E_C, EF = range(7)
# references
R_T0, R_T1, R_CTL, R_SELF, R_EVP, R_EVC, R_EACH_CREATURE, R_YOURS, R_EACH_PLAYER = range(9)
R_EACH_OPP, R_NONE = 9, 10
AMT_EVENT = -3
# trigger events
W_DMG_OPP, W_NONTOKEN_ENTERS, W_UPKEEP, W_LAST_COUNTER, W_LIFE_AT_LEAST, W_YOU_LOSE_LIFE = range(6)
COND_NONE, COND_SELF_UNTAPPED, COND_LIFE_AT_LEAST = range(3)
# keyword bits (ecs/constants.py KEYWORDS order)
KW_FLYING, KW_REACH, KW_DEFENDER, KW_HASTE, KW_VIGILANCE = 1, 2, 4, 8, 16
KW_FIRST_STRIKE, KW_DOUBLE_STRIKE, KW_TRAMPLE, KW_DEATHTOUCH, KW_LIFELINK = 32, 64, 128, 256, 512
KW_INFECT, KW_MENACE = 1024, 2048
# effect fields (continuous effects of resolved spells; one row per affected object)
X_KIND, X_OBJ, X_CTL, X_TS, X_P, X_T, X_KW, X_NEWCTL, XF = range(9)
X_PUMP, X_CONTROL = 0, 1
# prevention shields
H_CTL, H_RECIP, H_AMT, H_COMBAT, H_HASRECIP, HF = range(6)
# queued triggers
Q_SRC, Q_AB, Q_CTL, Q_EVP, Q_EVA, Q_EVC, QF = range(7)
# trace rows
TR_PLAYER, TR_PEND, TR_NLEGAL, TR_KIND, TR_OBJ, TR_ARG, TR_T0, TR_T1, TRF = range(9)
MAX_ACTIONS = 4096
MAX_TARGET_COMBOS = 64
NO_TARGET = -(10**6)

ERR_OVERFLOW = 1
ERR_STALL = 2  # Grand Melee: no marker could make progress (turn_markers.run's guard)

GameState = namedtuple(
    "GameState", "o pl s lib stk trg eff sh xt bq seat rng tr acts hand rm mk bf held"
)  # one game's arrays (views into the batch arrays)
CardTables = namedtuple("CardTables", "ct ab er instant_abilities")
"""ct: cards (C, CF); ab: abilities and triggers (A, BF); er: effect rows (R, EF);
instant_abilities: does any card have an activated ability without sorcery timing?"""


# ----------------------------------------------------------------- borrowed views
@intrinsic
def borrowed(typingctx, arr):
    """A view of ``arr`` that owns no reference (no meminfo), for the batch loop only.

    Every call that passes an array makes numba increment and decrement its reference
    count atomically; the game state is 17 arrays passed to nearly every function, and
    that traffic was ~40% of the kernel's time. A view with no meminfo skips it. Safe
    only while the caller keeps the parent alive: ``play_batch`` holds the batch arrays
    for the whole loop and no view escapes it."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(out, field, getattr(src, field))
        out.meminfo = cgutils.get_null_value(src.meminfo.type)
        out.parent = cgutils.get_null_value(src.parent.type)
        return out._getvalue()

    return arr(arr), codegen


if config.DISABLE_JIT:  # plain Python (the kernels' twins run this way): the array itself

    def borrowed(arr):  # noqa: F811
        return arr


# ----------------------------------------------------------------- random (splitmix64)
@kernel
def rand_below(rng, n):
    """A uniform integer in [0, n) from the game's own generator (splitmix64)."""
    x = (rng[0] + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    rng[0] = x
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


@kernel
def _trace(st, kind, player, a, b, c, d, e, f, h):
    """One trace row: (kind, player, ...): a decision (kind = PEND_*: n legal, action
    kind, object, arg, target 0, target 1, index) or a random event (T_SHUFFLE: library
    size, generator state; T_RANDOM: hand size, the index drawn)."""
    tr, s = st.tr, st.s
    k = s[S_NTR]
    if k < tr.shape[0]:
        tr[k, 0] = kind
        tr[k, 1] = player
        tr[k, 2] = a
        tr[k, 3] = b
        tr[k, 4] = c
        tr[k, 5] = d
        tr[k, 6] = e
        tr[k, 7] = f
        tr[k, 8] = h
        s[S_NTR] = k + 1


# ----------------------------------------------------------------- players and seats
@kernel(inline="always")
def _seat_pos(st, p):
    for k in range(st.seat.shape[0]):
        if st.seat[k] == p:
            return k
    return -1


@kernel(inline="always")
def next_in_turn_order(st, p):
    n = st.seat.shape[0]
    k0 = _seat_pos(st, p)
    for k in range(1, n + 1):
        q = st.seat[(k0 + k) % n]
        if st.pl[q, P_ALIVE]:
            return q
    return -1


@kernel(inline="always")
def turn_order_from(st, p, out):
    """Players still in the game in turn order starting with p; returns how many."""
    n = st.seat.shape[0]
    k0 = _seat_pos(st, p)
    m = 0
    for k in range(n):
        q = st.seat[(k0 + k) % n]
        if st.pl[q, P_ALIVE]:
            out[m] = q
            m += 1
    return m


@kernel(inline="always")
def n_alive(st):
    k = 0
    for q in range(st.pl.shape[0]):
        k += st.pl[q, P_ALIVE]
    return k


@kernel(inline="always")
def in_range(st, p, q):
    """801.2: is player q (still in the game) within p's range of influence?"""
    return _in_range(st.rm, st.pl, p, q)


@kernel(inline="always")
def obj_in_range(st, p, i):
    """801.2d: an object is in range if its controller is."""
    return _in_range(st.rm, st.pl, p, st.o[i, F_CTL])


@kernel(inline="always")
def _in_range(rm, pl, p, q):
    return rm[0, p, q] == 1 and pl[q, P_ALIVE] == 1


@kernel
def snapshot_ranges(st):
    """801.2c: ranges are fixed as each turn begins (the seats of players still in the
    game), and with them whom each player may attack (801.3, 802, 803)."""
    pl = st.pl
    P = pl.shape[0]
    seat = np.empty((1, P), np.int64)
    present = np.empty((1, P), np.bool_)
    alive = np.empty((1, P), np.bool_)
    reach = np.empty((1, P), np.int64)
    team = np.empty((1, P), np.int64)
    for p in range(P):
        seat[0, p] = pl[p, P_SEATPOS]
        present[0, p] = pl[p, P_ALIVE] == 1
        alive[0, p] = pl[p, P_ALIVE] == 1
        reach[0, p] = pl[p, P_REACH]
        team[0, p] = p
    rmask = np.empty((1, P, P), np.bool_)
    in_range_mask(seat, present, reach, rmask)
    amask = np.empty((1, P, P), np.bool_)
    mode = np.full(1, st.s[S_ATTACK_MODE], np.int64)
    attack_target_mask(rmask, seat, present, alive, team, mode, np.zeros(1, np.bool_), amask)
    changed = False
    for p in range(P):
        for q in range(P):
            r = 1 if rmask[0, p, q] else 0
            if st.rm[0, p, q] != r:
                changed = True
            st.rm[0, p, q] = r
            st.rm[1, p, q] = 1 if amask[0, p, q] else 0
    if changed:  # what is within range decides what the layers apply to (801.11)
        touch(st)


@kernel(inline="always")
def touch(st):
    """Something changed: layers and state-based actions must look again, and cached
    answers (has_action) are stale (the Python engine's ``g.dirty``)."""
    s = st.s
    s[S_VERSION] += 1
    s[S_LDIRTY] = 1
    s[S_SDIRTY] = 1


@kernel(inline="always")
def bump(st):
    """A change that can't affect the layers or the state-based actions (tapping,
    untapping, whose turn it is): only cached answers are stale."""
    st.s[S_VERSION] += 1


@kernel(inline="always")
def stamp(st):
    st.s[S_TSC] += 1
    return st.s[S_TSC]


# ----------------------------------------------------------------- objects
@kernel
def new_object(st, cd, card, owner, zone):
    o, s = st.o, st.s
    i = s[S_N]
    if i >= o.shape[0]:
        s[S_ERROR] = ERR_OVERFLOW
        s[S_OVER] = 1
        return o.shape[0] - 1
    s[S_N] = i + 1
    for f in range(OF):
        o[i, f] = 0
    o[i, F_CARD] = card
    o[i, F_TYPES] = cd.ct[card, C_TYPES] if card >= 0 else 0
    o[i, F_OWNER] = owner
    o[i, F_BCTL] = owner
    o[i, F_CTL] = owner
    o[i, F_LCTL] = owner
    o[i, F_ZONE] = zone
    o[i, F_ATT] = -1
    o[i, F_ATKP] = -1
    o[i, F_ATKO] = -1
    o[i, F_BLOCKING] = -1
    o[i, F_DECL] = NO_TARGET
    o[i, F_SRC] = -1
    o[i, F_TS] = stamp(st)
    touch(st)
    if zone == HAND:
        hand_insert(st, owner, i)
    elif zone == BATTLEFIELD:
        bf_insert(st, i)
    return i


@kernel(inline="always")
def reset_combat(o, i):
    o[i, F_ATKP] = -1
    o[i, F_ATKO] = -1
    o[i, F_BLOCKING] = -1
    o[i, F_BLOCKED] = 0
    o[i, F_FSD] = 0


@kernel
def remove_value(arr, n, x):
    """Remove the first x from arr[:n] keeping the order; returns the new length."""
    for k in range(n):
        if arr[k] == x:
            arr[k : n - 1] = arr[k + 1 : n].copy()
            return n - 1
    return n


@kernel
def remove_all(arr, n, x):
    """Remove every x from arr[:n] keeping the order; returns the new length."""
    m = 0
    for k in range(n):
        if arr[k] != x:
            arr[m] = arr[k]
            m += 1
    return m


@kernel
def delete_row(tab, k, n):
    """Delete row k of tab[:n] keeping the order; returns the new length."""
    tab[k : n - 1] = tab[k + 1 : n].copy()
    return n - 1


@kernel(inline="always")
def stack_remove(st, i):
    st.s[S_NSTK] = remove_value(st.stk, st.s[S_NSTK], i)


@kernel(inline="always")
def _insert_ordered(arr, n, i):
    k = n
    while k > 0 and arr[k - 1] > i:
        arr[k] = arr[k - 1]
        k -= 1
    arr[k] = i
    return n + 1


@kernel
def hand_insert(st, p, i):
    """p's hand, in id order (the Python engine's scans of every object, for p's hand)."""
    st.pl[p, P_HANDN] = _insert_ordered(st.hand[p], st.pl[p, P_HANDN], i)


@kernel(inline="always")
def hand_remove(st, p, i):
    st.pl[p, P_HANDN] = remove_value(st.hand[p], st.pl[p, P_HANDN], i)


@kernel
def bf_insert(st, i):
    """The permanents, in id order (the loops that look at the battlefield only)."""
    st.s[S_NBF] = _insert_ordered(st.bf, st.s[S_NBF], i)


@kernel(inline="always")
def bf_remove(st, i):
    st.s[S_NBF] = remove_value(st.bf, st.s[S_NBF], i)


@kernel
def lib_remove(st, p, i):
    st.pl[p, P_LIBN] = remove_value(st.lib[p], st.pl[p, P_LIBN], i)


@kernel
def move(st, cd, i, zone, controller):
    """zones.move: object i changes zones and becomes a new object (400.7)."""
    o = st.o
    old = o[i, F_ZONE]
    if (old == LIBRARY and zone == HAND) or (old == HAND and zone == STACK):
        bump(st)  # a draw, a cast: nothing the layers or the state-based actions look at
    else:
        touch(st)
    if old == BATTLEFIELD and zone != BATTLEFIELD:
        _bf_count(st, cd, i, -1)
        bf_remove(st, i)
    elif zone == BATTLEFIELD and old != BATTLEFIELD:
        _bf_count(st, cd, i, 1)
        bf_insert(st, i)
    if old == LIBRARY:
        lib_remove(st, o[i, F_OWNER], i)
    if old == HAND and zone != HAND:
        hand_remove(st, o[i, F_OWNER], i)
    elif zone == HAND and old != HAND:
        hand_insert(st, o[i, F_OWNER], i)
    if old == STACK:
        stack_remove(st, i)
    if o[i, F_TOKEN] and zone != BATTLEFIELD and zone != GONE:
        st.s[S_TOKENS] = 1  # a token left the battlefield: the next SBA check looks (704.5d)
    o[i, F_ZONE] = zone
    o[i, F_TAPPED] = 0
    o[i, F_DMG] = 0
    o[i, F_DTHIT] = 0
    o[i, F_ATT] = -1
    o[i, F_CP1] = 0
    o[i, F_CM1] = 0
    o[i, F_LOY] = 0
    o[i, F_INTV] = 0
    o[i, F_SICK] = 0
    o[i, F_LOYUSED] = 0
    reset_combat(o, i)
    o[i, F_TS] = stamp(st)
    owner = o[i, F_OWNER]
    o[i, F_BCTL] = owner if controller < 0 else controller
    o[i, F_CTL] = o[i, F_BCTL]
    c = o[i, F_CARD]
    if c >= 0:  # printed values until the layers look again (they look at permanents)
        o[i, F_KW] = cd.ct[c, C_KW]
        o[i, F_POW] = cd.ct[c, C_POW]
        o[i, F_TOU] = cd.ct[c, C_TOU]
        o[i, F_RESTRICT] = 0
    if zone == LIBRARY:
        n = st.pl[owner, P_LIBN]
        st.lib[owner, n] = i
        st.pl[owner, P_LIBN] = n + 1
    if old == BATTLEFIELD:
        for j in st.bf[: st.s[S_NBF]]:
            if o[j, F_ATT] == i:
                o[j, F_ATT] = -1
            if o[j, F_BLOCKING] == i:
                o[j, F_BLOCKING] = -1
    if c >= 0 and cd.ct[c, C_TYPES] & T_INSTANT and old != zone:
        if old == HAND:
            st.pl[owner, P_NINSTANT] -= 1
        if zone == HAND:
            st.pl[owner, P_NINSTANT] += 1


@kernel
def _bf_count(st, cd, i, d):
    """Battlefield counts that let the layers and the state triggers skip work: permanents
    with static abilities, permanents with state triggers (603.8)."""
    c = st.o[i, F_CARD]
    if c < 0:
        return
    if cd.ct[c, C_STATIC]:
        st.s[S_NSTATBF] += d
    if (cd.ct[c, C_TRIGMASK] >> W_LIFE_AT_LEAST) & 1:
        st.s[S_NSTATETRIG] += d


@kernel
def enter_battlefield(st, cd, i, controller, attach_to):
    move(st, cd, i, BATTLEFIELD, controller)
    o = st.o
    c = o[i, F_CARD]
    o[i, F_SICK] = 1
    o[i, F_LCTL] = controller
    if cd.ct[c, C_TYPES] & T_PLANESWALKER:
        o[i, F_LOY] = cd.ct[c, C_LOY]
    o[i, F_INTV] += cd.ct[c, C_ENTERS_INTV]
    if attach_to >= 0:
        o[i, F_ATT] = attach_to
    # triggers.entered_battlefield: nontoken creatures entering (Genesis Chamber)
    if o[i, F_TOKEN] or not (cd.ct[c, C_TYPES] & T_CREATURE):
        return
    if not (st.s[S_TRIGKINDS] >> W_NONTOKEN_ENTERS) & 1:
        return  # no card in this game has such a trigger
    recompute(st, cd)
    ctl = o[i, F_CTL]
    for src in st.bf[: st.s[S_NBF]]:
        if _has_trig(o, cd.ct, src, W_NONTOKEN_ENTERS):
            queue_trigger(st, cd, src, W_NONTOKEN_ENTERS, -1, 0, ctl, ctl)


@kernel
def draw(st, cd, p, count):
    pl = st.pl
    for _ in range(count):
        n = pl[p, P_LIBN]
        if n == 0:
            pl[p, P_DREW_EMPTY] = 1
            touch(st)
            continue
        move(st, cd, st.lib[p, n - 1], HAND, -1)


@kernel
def shuffle(st, p):
    """Fisher-Yates from the game's generator; the trace records the new order."""
    n = st.pl[p, P_LIBN]
    lib = st.lib
    _trace(
        st, T_SHUFFLE, p, n, np.int64(st.rng[0]), 0, 0, 0, 0, 0
    )  # the state the order comes from
    for k in range(n - 1, 0, -1):
        j = rand_below(st.rng, k + 1)
        t = lib[p, k]
        lib[p, k] = lib[p, j]
        lib[p, j] = t


@kernel(inline="always")
def hand_count(st, p):
    return st.pl[p, P_HANDN]


# ----------------------------------------------------------------- layers (613)
@kernel(inline="always")
def _applies(o, e_ts, i):
    return o[i, F_ZONE] == BATTLEFIELD and o[i, F_TS] < e_ts


@kernel(inline="always")
def recompute(st, cd):
    """continuous_effects.recompute, when something changed since the last time (the
    check is inlined: most calls find nothing to do)."""
    if st.s[S_LDIRTY]:
        _recompute(st, cd)


@kernel
def _recompute(st, cd):
    """Base values, layer 2 (control), 6 and 7c, counters, then control changes (302.6,
    506.4); then the permanents grouped by controller (``held``)."""
    o, s, eff, ct = st.o, st.s, st.eff, cd.ct
    s[S_LDIRTY] = 0
    plain = s[S_NEFF] == 0 and s[S_NSTATBF] == 0 and s[S_COUNTERS] == 0
    if plain and s[S_WASPLAIN]:
        _group_by_controller(st)  # nothing modifies anything: printed values everywhere
        return
    s[S_WASPLAIN] = 1 if plain else 0
    bf = st.bf[: s[S_NBF]]
    nbf = bf.shape[0]
    # base values and counters (613.4c: they add up, so their order doesn't matter), of
    # permanents only: the layers modify nothing elsewhere, and move() gives an object
    # leaving the battlefield its printed values; the same pass finds the permanents
    # with static abilities (in id order) and the control sources (by timestamp)
    buf = np.empty(3 * nbf + 3, np.int64)
    stat, srcs, seen = buf[: nbf + 1], buf[nbf + 1 : 2 * nbf + 2], buf[2 * nbf + 2 :]
    nstat = m = 0
    for i in bf:
        c = o[i, F_CARD]
        o[i, F_CTL] = o[i, F_BCTL]
        o[i, F_RESTRICT] = 0
        d = o[i, F_CP1] - o[i, F_CM1]
        if c < 0:
            o[i, F_KW] = 0
            o[i, F_POW] = d
            o[i, F_TOU] = d
            continue
        o[i, F_KW] = ct[c, C_KW]
        o[i, F_POW] = ct[c, C_POW] + d
        o[i, F_TOU] = ct[c, C_TOU] + d
        stc = ct[c, C_STATIC]
        if stc:
            stat[nstat] = i
            nstat += 1
        if stc & ST_CONTROL:
            j = m  # insertion sort by timestamp
            while j > 0 and o[srcs[j - 1], F_TS] > o[i, F_TS]:
                srcs[j] = srcs[j - 1]
                j -= 1
            srcs[j] = i
            m += 1
    # layer 2: control effects and "you control enchanted creature", in timestamp order
    ne = s[S_NEFF]
    k = 0
    for q in range(m + 1):
        limit = o[srcs[q], F_TS] if q < m else (1 << 62)
        while k < ne and eff[k, X_TS] < limit:
            if eff[k, X_KIND] == X_CONTROL:
                i = eff[k, X_OBJ]
                if _applies(o, eff[k, X_TS], i) and st.pl[eff[k, X_NEWCTL], P_ALIVE]:
                    o[i, F_CTL] = eff[k, X_NEWCTL]
            k += 1
        if q < m:
            src = srcs[q]
            t = o[src, F_ATT]
            if t >= 0 and o[t, F_ZONE] == BATTLEFIELD:
                new = o[src, F_CTL]
                if st.pl[new, P_ALIVE] and in_range(st, new, o[t, F_CTL]):
                    o[t, F_CTL] = new
    # layer 6 and 7c: statics, then pumps of resolved spells, then Coat of Arms
    coats = 0
    for q in range(nstat):
        src = stat[q]
        c = o[src, F_CARD]
        stc = ct[c, C_STATIC]
        t = o[src, F_ATT]
        if stc & ST_CANT_ATTACK and t >= 0:
            o[t, F_RESTRICT] |= CANT_ATTACK
        if stc & ST_CANT_BLOCK and t >= 0:
            o[t, F_RESTRICT] |= CANT_BLOCK
        if stc & ST_PUMP_EQUIPPED and t >= 0 and o[t, F_ZONE] == BATTLEFIELD:
            o[t, F_POW] += ct[c, C_PUMP_P]
            o[t, F_TOU] += ct[c, C_PUMP_T]
        if stc & ST_HASTE_ALL:
            for i in bf:
                if o[i, F_CARD] >= 0:
                    if ct[o[i, F_CARD], C_TYPES] & T_CREATURE and _in_range(
                        st.rm, st.pl, o[src, F_CTL], o[i, F_CTL]
                    ):
                        o[i, F_KW] |= KW_HASTE
        if stc & ST_COAT:
            stat[coats] = src  # (the Coats of Arms, kept where the statics were read)
            coats += 1
    for k in range(ne):
        if eff[k, X_KIND] == X_PUMP:
            i = eff[k, X_OBJ]
            if _applies(o, eff[k, X_TS], i):
                o[i, F_KW] |= eff[k, X_KW]
                o[i, F_POW] += eff[k, X_P]
                o[i, F_TOU] += eff[k, X_T]
    for q in range(coats):  # each Coat of Arms: the creatures in its controller's range (801.11)
        cc = o[stat[q], F_CTL]
        k = 0
        for i in bf:
            if _is_bf_creature(o, ct, i) and _in_range(st.rm, st.pl, cc, o[i, F_CTL]):
                seen[k] = i
                k += 1
        for x in range(k):  # (each counts the others that share a creature type with it)
            i = seen[x]
            sub = ct[o[i, F_CARD], C_CSUB]
            m = 0
            for y in range(k):
                if y != x and sub & ct[o[seen[y], F_CARD], C_CSUB]:
                    m += 1
            o[i, F_POW] += m
            o[i, F_TOU] += m
    # 302.6, 506.4: a permanent that changes controller is sick and leaves combat
    for i in bf:
        if o[i, F_CTL] != o[i, F_LCTL]:
            s[S_VERSION] += 1
            s[S_SDIRTY] = 1
            o[i, F_SICK] = 1
            o[i, F_LCTL] = o[i, F_CTL]
            if o[i, F_ATKP] >= 0 or o[i, F_BLOCKING] >= 0:
                reset_combat(o, i)
    _group_by_controller(st)


@kernel(inline="always")
def _group_by_controller(st):
    """The permanents grouped by controller, each group in id order (``held``, from
    ``P_HELD0``, ``P_NHELD`` of them): what one player's scans walk. Made with the
    layers (control is known then), so valid while they are: right after recompute()."""
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
    """p's permanents in id order (valid right after recompute(): see _group_by_controller)."""
    h0 = st.pl[p, P_HELD0]
    return st.held[h0 : h0 + st.pl[p, P_NHELD]]


@kernel(inline="always")
def _is_bf_creature(o, ct, i):
    c = o[i, F_CARD]
    if o[i, F_ZONE] != BATTLEFIELD or c < 0:
        return False
    return (ct[c, C_TYPES] & T_CREATURE) != 0


@kernel
def has_static(st, cd, p, bit):
    """state_based_actions._statics_of: does p control a permanent with this static?"""
    if not st.s[S_STATICS] & bit:
        return False  # no card in this game has it
    return _has_static(st.o, cd.ct, st.bf[: st.s[S_NBF]], p, bit)


@kernel
def _has_static(o, ct, perms, p, bit):
    return _controls(o, ct, perms, p, C_STATIC, bit)


@kernel
def _controls(o, ct, perms, p, col, bits):
    """Does p control a permanent whose card has any of ``bits`` in column ``col``?"""
    for i in perms:
        c = o[i, F_CARD]
        if c >= 0 and o[i, F_ZONE] == BATTLEFIELD and o[i, F_CTL] == p:
            if ct[c, col] & bits:
                return True
    return False


@kernel
def cant_lose(st, cd, p):
    return has_static(st, cd, p, ST_CANT_LOSE)


@kernel
def cant_win(st, cd, p):
    for q in range(st.pl.shape[0]):
        if q != p and st.pl[q, P_ALIVE] and has_static(st, cd, q, ST_CANT_WIN):
            return True
    return False


# ----------------------------------------------------------------- triggers (603)
@kernel
def _cond_holds(st, cd, src, ctl, ab):
    cond = cd.ab[ab, B_COND]
    if cond == COND_SELF_UNTAPPED:
        return st.o[src, F_ZONE] == BATTLEFIELD and st.o[src, F_TAPPED] == 0
    if cond == COND_LIFE_AT_LEAST:
        return st.pl[ctl, P_LIFE] >= cd.ab[ab, B_CONDARG]
    return True


@kernel
def queue_trigger(st, cd, src, when, evp, eva, evc, involved=-1):
    """triggers._queue: every trigger of src's card for this event whose "if" holds, if
    the player the event involves is within the source's controller's range (801.7)."""
    c = st.o[src, F_CARD]
    ct = cd.ct
    ctl = st.o[src, F_CTL]
    if involved >= 0 and not in_range(st, ctl, involved):
        return
    for k in range(ct[c, C_NTRIG]):
        ab = ct[c, C_TR0] + k
        if cd.ab[ab, B_WHEN] == when and _cond_holds(st, cd, src, ctl, ab):
            _push_trigger(st, src, ab, ctl, evp, eva, evc)


@kernel
def append_row(s, tab, count, a, b, c, d, e, f, g, h):
    """Append (a, b, ...) (as many values as ``tab`` has columns) to ``tab[:s[count]]``.
    A full table stops the game with an error (``play_compiled`` plays it again with
    bigger tables). Returns whether the row was added."""
    k = s[count]
    if k >= tab.shape[0]:
        s[S_ERROR] = ERR_OVERFLOW
        s[S_OVER] = 1
        return False
    w = tab.shape[1]
    vals = (a, b, c, d, e, f, g, h)
    for x in range(w):
        tab[k, x] = vals[x]
    s[count] = k + 1
    return True


@kernel
def _push_trigger(st, src, ab, ctl, evp, eva, evc):
    append_row(st.s, st.trg, S_NTRG, src, ab, ctl, evp, eva, evc, 0, 0)  # Q_* order


@kernel
def _has_trig(o, ct, i, when):
    """Is i on the battlefield with a triggered ability for this event?"""
    c = o[i, F_CARD]
    return c >= 0 and o[i, F_ZONE] == BATTLEFIELD and (ct[c, C_TRIGMASK] >> when) & 1 == 1


@kernel
def state_triggers(st, cd):
    """603.8: "when you have 20 or more life" triggers once while it is pending."""
    o, s = st.o, st.s
    if not s[S_NSTATETRIG] or not _state_triggers_stale(s):
        return
    pushed = False
    for src in st.bf[: st.s[S_NBF]]:
        if not _has_trig(o, cd.ct, src, W_LIFE_AT_LEAST):
            continue
        c = o[src, F_CARD]
        ctl = o[src, F_CTL]
        for k in range(cd.ct[c, C_NTRIG]):
            ab = cd.ct[c, C_TR0] + k
            if cd.ab[ab, B_WHEN] != W_LIFE_AT_LEAST or st.pl[ctl, P_LIFE] < cd.ab[ab, B_CONDARG]:
                continue
            pending = False
            for q in range(s[S_NTRG]):
                if st.trg[q, Q_SRC] == src and st.trg[q, Q_AB] == ab:
                    pending = True
            for q in range(s[S_NSTK]):
                j = st.stk[q]
                if o[j, F_IKIND] == I_TRIGGER and o[j, F_SRC] == src and o[j, F_IAB] == ab:
                    pending = True
            if not pending:
                _push_trigger(st, src, ab, ctl, ctl, 0, -1)
                pushed = True
    if not pushed:  # the same state would find nothing again: remember which state
        s[S_STVER] = s[S_VERSION]
        s[S_STCUR] = s[S_CUR]


@kernel(inline="always")
def _state_triggers_stale(s):
    """Has anything changed (the state version, or the loaded marker and so the stack
    whose pending triggers count) since state_triggers last found nothing to add?"""
    return s[S_STVER] != s[S_VERSION] or s[S_STCUR] != s[S_CUR]


@kernel
def put_triggers_on_stack(st, cd, buf):
    """603.3b: APNAP order; each player's triggers in the order they triggered."""
    s, trg = st.s, st.trg
    nq = s[S_NTRG]
    if nq == 0:
        return False
    queued = trg[:nq].copy()
    s[S_NTRG] = 0
    put = False
    m = turn_order_from(st, s[S_ACTIVE], buf)
    for kk in range(m):
        p = buf[kk]
        for q in range(nq):
            if queued[q, Q_CTL] != p or not st.pl[p, P_ALIVE]:
                continue
            i = new_object(st, cd, -1, p, STACK)
            o = st.o
            o[i, F_SRC] = queued[q, Q_SRC]
            o[i, F_IKIND] = I_TRIGGER
            o[i, F_IAB] = queued[q, Q_AB]
            o[i, F_ICTL] = p
            o[i, F_INT] = 0  # the stock pool's triggers have no targets
            o[i, F_IEVP] = queued[q, Q_EVP]
            o[i, F_IEVA] = queued[q, Q_EVA]
            o[i, F_IEVC] = queued[q, Q_EVC]
            _stack_push(st, i)
            put = True
    touch(st)
    return put


@kernel
def _stack_push(st, i):
    s = st.s
    n = s[S_NSTK]
    if n >= st.stk.shape[0]:
        s[S_ERROR] = ERR_OVERFLOW
        s[S_OVER] = 1
        return
    st.stk[n] = i
    s[S_NSTK] = n + 1


# ----------------------------------------------------------------- life and damage (119, 120)
@kernel
def lose_life(st, cd, p, amount):
    if amount <= 0 or not st.pl[p, P_ALIVE]:
        return
    touch(st)
    st.pl[p, P_LIFE] -= amount
    o = st.o
    if not (st.s[S_TRIGKINDS] >> W_YOU_LOSE_LIFE) & 1:
        return
    for src in st.bf[: st.s[S_NBF]]:
        if o[src, F_CTL] == p and _has_trig(o, cd.ct, src, W_YOU_LOSE_LIFE):
            queue_trigger(st, cd, src, W_YOU_LOSE_LIFE, p, amount, -1, p)


@kernel
def gain_life(st, p, amount):
    if amount <= 0 or not st.pl[p, P_ALIVE]:
        return
    touch(st)
    st.pl[p, P_LIFE] += amount


@kernel
def set_life(st, cd, p, value):
    cur = st.pl[p, P_LIFE]
    if value < cur:
        lose_life(st, cd, p, cur - value)
    elif value > cur:
        gain_life(st, p, value - cur)


@kernel
def prevent(st, src_ctl, target, amount, combat):
    """615: prevention shields, oldest first; a shield naming no recipient works only on
    damage from and to what is in its controller's range (801.13b)."""
    sh, s = st.sh, st.s
    k = 0
    while k < s[S_NSH]:
        if amount <= 0:
            break
        if sh[k, H_COMBAT] and not combat:
            k += 1
            continue
        if sh[k, H_HASRECIP] and sh[k, H_RECIP] != target:
            k += 1
            continue
        if not sh[k, H_HASRECIP]:
            rc = -1 - target if target < 0 else st.o[target, F_CTL]
            c = sh[k, H_CTL]
            if (src_ctl >= 0 and not in_range(st, c, src_ctl)) or not in_range(st, c, rc):
                k += 1
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
def deal_damage(st, cd, source, src_ctl, target, amount, combat):
    """damage.deal_damage: prevention, then the results of damage (120.3)."""
    if amount <= 0:
        return 0
    o, pl = st.o, st.pl
    if target < 0:
        if not pl[-1 - target, P_ALIVE]:  # 800.4e
            return 0
    elif o[target, F_ZONE] != BATTLEFIELD:
        return 0
    amount = prevent(st, src_ctl, target, amount, combat)
    if amount <= 0:
        return 0
    touch(st)
    kw = o[source, F_KW] if source >= 0 else 0
    if target < 0:
        p = -1 - target
        if kw & KW_INFECT:
            pl[p, P_POISON] += amount
        else:
            lose_life(st, cd, p, amount)
    else:
        types = cd.ct[o[target, F_CARD], C_TYPES]
        if types & T_CREATURE:
            if kw & KW_INFECT:
                o[target, F_CM1] += amount
                st.s[S_COUNTERS] = 1
            else:
                o[target, F_DMG] += amount
            if kw & KW_DEATHTOUCH:
                o[target, F_DTHIT] = 1
        if types & T_PLANESWALKER:
            o[target, F_LOY] -= min(amount, o[target, F_LOY])
    if kw & KW_LIFELINK and src_ctl >= 0:
        gain_life(st, src_ctl, amount)
    # triggers.damage_dealt: "deals damage to an opponent" (Hypnotic Specter)
    if source >= 0 and o[source, F_ZONE] == BATTLEFIELD and target < 0:
        p = -1 - target
        if o[source, F_CARD] >= 0 and p != src_ctl:
            if _has_trig(o, cd.ct, source, W_DMG_OPP):
                queue_trigger(st, cd, source, W_DMG_OPP, p, amount, -1, p)
    return amount


# ----------------------------------------------------------------- leaving the game (800.4)
@kernel
def check_game_over(st):
    s, pl = st.s, st.pl
    if s[S_OVER]:
        return
    k = n_alive(st)
    if k <= 1:
        s[S_OVER] = 1
        s[S_PEND] = PEND_NONE
        for q in range(pl.shape[0]):
            if pl[q, P_ALIVE]:
                pl[q, P_WON] = 1


@kernel
def _remove_objects(st, cd, p):
    o, s = st.o, st.s
    # end control effects giving p control
    k = 0
    while k < s[S_NEFF]:
        if st.eff[k, X_KIND] == X_CONTROL and st.eff[k, X_NEWCTL] == p:
            _eff_delete(st, k)
        else:
            k += 1
    n = s[S_N]
    for i in range(n):
        if o[i, F_OWNER] != p or o[i, F_ZONE] == GONE:
            continue
        if o[i, F_ZONE] == HAND:
            hand_remove(st, p, i)
        if o[i, F_ZONE] == BATTLEFIELD:
            _bf_count(st, cd, i, -1)
            bf_remove(st, i)
            o[i, F_ZONE] = EXILE  # as the Python engine does: attachments stay for the SBAs
            move(st, cd, i, GONE, -1)
        else:
            if o[i, F_ZONE] == STACK:
                stack_remove(st, i)
            o[i, F_ZONE] = GONE
    st.pl[p, P_LIBN] = 0
    q = 0
    while q < s[S_NSTK]:
        i = st.stk[q]
        if o[i, F_ICTL] == p and o[i, F_CARD] < 0:
            stack_remove(st, i)
            o[i, F_ZONE] = GONE
        else:
            q += 1
    recompute(st, cd)
    for i in range(n):
        if o[i, F_ZONE] == BATTLEFIELD and o[i, F_CTL] == p:
            move(st, cd, i, EXILE, -1)
    q = 0
    while q < s[S_NSTK]:
        i = st.stk[q]
        if o[i, F_ICTL] == p:
            move(st, cd, i, EXILE, -1)
        else:
            q += 1
    k = 0
    while k < s[S_NTRG]:  # 800.4d: their triggered abilities never go on the stack
        if st.trg[k, Q_CTL] == p:
            s[S_NTRG] = delete_row(st.trg, k, s[S_NTRG])
        else:
            k += 1
    s[S_NXT] = remove_all(st.xt, s[S_NXT], p)  # 800.4k: nor do their extra turns begin


@kernel
def _eff_delete(st, k):
    st.s[S_NEFF] = delete_row(st.eff, k, st.s[S_NEFF])


@kernel
def leave_many(st, cd, ps, m):
    """800.4a: these players leave at the same time."""
    pl = st.pl
    k = 0
    for j in range(m):
        if pl[ps[j], P_ALIVE]:
            ps[k] = ps[j]
            k += 1
    if k == 0:
        return
    touch(st)
    for j in range(k):
        pl[ps[j], P_ALIVE] = 0
    for j in range(k):
        _remove_objects(st, cd, ps[j])
    if st.s[S_NMARK]:  # 807.4c, 807.4e-g: turn markers of a shrinking table
        markers_players_left(st, ps, k)
    check_game_over(st)
    for j in range(k):
        _player_left_decision(st, cd, ps[j])


@kernel
def _player_left_decision(st, cd, p):
    s = st.s
    P = st.pl.shape[0]
    for a in range(P):  # departed players can't be attacked; seats stay until next turn
        for b in range(P):
            if not st.pl[a, P_ALIVE] or not st.pl[b, P_ALIVE]:
                st.rm[1, a, b] = 0
    s[S_NBQ] = remove_all(st.bq, s[S_NBQ], p)
    if s[S_OVER] or s[S_PEND] == PEND_NONE or s[S_PPLAYER] != p:
        return
    kind = s[S_PEND]
    s[S_PEND] = PEND_NONE
    if kind == PEND_PRIORITY:
        s[S_PRIO] = next_in_turn_order(st, p)
        s[S_TODO] = TODO_PRIORITY
    elif kind == PEND_ATTACK:
        _clear_attack_decl(st)
        s[S_DECLARED] = 0
        s[S_TODO] = TODO_PRIORITY
    elif kind == PEND_BLOCK:
        _clear_block_decl(st)
        ask_next_blocker(st, cd)
        if s[S_PEND] == PEND_NONE:
            s[S_TODO] = TODO_PRIORITY
    elif kind == PEND_DISCARD:
        s[S_TODO] = TODO_BEGIN


@kernel
def players_lose(st, cd, ps, m):
    """104.3, 104.4a: they lose at once; if that is everyone left, the game is a draw."""
    pl = st.pl
    everyone = True
    for q in range(pl.shape[0]):
        if pl[q, P_ALIVE]:
            found = False
            for j in range(m):
                if ps[j] == q:
                    found = True
            if not found:
                everyone = False
    if everyone:
        draw_players(st, cd, ps, m)
        return
    for j in range(m):
        pl[ps[j], P_LOST] = 1
    leave_many(st, cd, ps, m)


@kernel
def draw_players(st, cd, ps, m):
    for j in range(m):
        st.pl[ps[j], P_DRAWN] = 1
    leave_many(st, cd, ps, m)


@kernel
def win(st, cd, p):
    """An effect says p wins: p's opponents lose (801.14), unless something stops it."""
    if not st.pl[p, P_ALIVE] or cant_win(st, cd, p):
        return
    ps = np.empty(st.pl.shape[0], np.int64)
    m = 0
    for q in range(st.pl.shape[0]):  # 801.14: the opponents within p's range
        if q != p and in_range(st, p, q) and not cant_lose(st, cd, q):
            ps[m] = q
            m += 1
    players_lose(st, cd, ps, m)


@kernel
def everyone_draws(st, cd, ctl=-1):
    """The game is a draw for everyone (the turn cap), or for the players within ctl's
    range (104.4, 801.15)."""
    ps = np.empty(st.pl.shape[0], np.int64)
    m = 0
    for q in range(st.pl.shape[0]):
        if st.pl[q, P_ALIVE] and (ctl < 0 or in_range(st, ctl, q)):
            ps[m] = q
            m += 1
    draw_players(st, cd, ps, m)


# ----------------------------------------------------------------- state-based actions (704)
@kernel(inline="always")
def check_sba(st, cd):
    """704.5: every applicable state-based action at once; True if any was performed
    (nothing to check unless something changed: that test is inlined)."""
    if not st.s[S_SDIRTY]:
        return False
    return _check_sba(st, cd)


@kernel
def _check_sba(st, cd):
    st.s[S_SDIRTY] = 0
    recompute(st, cd)
    o, s, pl, ct = st.o, st.s, st.pl, cd.ct
    n = s[S_N]
    P = pl.shape[0]
    acted = False
    nbf = s[S_NBF]
    # one pass over the permanents: lethal damage and zero toughness or loyalty (704.5f-i),
    # +1/+1 and -1/-1 counters (704.5q), auras (704.5m), the legend rule (704.5j: the
    # newest stays, a documented default), the world rule (704.5k), equipment on an
    # illegal permanent (704.5n); what goes to the graveyard goes in that order
    dies = np.empty(nbf + 8, np.int64)
    nd = 0
    extra = np.empty(3 * nbf + 8, np.int64)  # auras, then legends, then worlds
    na = nlg = nw = 0
    lg0, w0 = nbf + 4, 2 * nbf + 8
    for i in st.bf[: st.s[S_NBF]]:
        c = o[i, F_CARD]
        types = ct[c, C_TYPES] if c >= 0 else 0
        creature = types & T_CREATURE
        if creature and o[i, F_TOU] <= 0:
            dies[nd] = i
            nd += 1
        elif creature and o[i, F_DMG] >= o[i, F_TOU]:
            dies[nd] = i
            nd += 1
        elif creature and o[i, F_DMG] > 0 and o[i, F_DTHIT]:
            dies[nd] = i
            nd += 1
        elif types & T_PLANESWALKER and o[i, F_LOY] <= 0:
            dies[nd] = i
            nd += 1
        a = min(o[i, F_CP1], o[i, F_CM1])
        if a > 0:
            o[i, F_CP1] -= a
            o[i, F_CM1] -= a
            acted = True
        if c < 0:
            continue
        t = o[i, F_ATT]
        if ct[c, C_AURA]:
            ok = t >= 0 and o[t, F_ZONE] == BATTLEFIELD  # 801.8: and within range
            if ok:
                ok = obj_in_range(st, o[i, F_CTL], t)
            if ok and ct[c, C_ENCHANT] == K_CREATURE:
                ok = (ct[o[t, F_CARD], C_TYPES] & T_CREATURE) != 0
            if not ok:
                extra[na] = i
                na += 1
        sup = ct[c, C_SUPER]
        if sup & S_LEGENDARY:
            for j in st.bf[: st.s[S_NBF]]:
                if (
                    j != i
                    and o[j, F_CARD] == c
                    and o[j, F_CTL] == o[i, F_CTL]
                    and o[j, F_TS] > o[i, F_TS]
                ):
                    extra[lg0 + nlg] = i
                    nlg += 1
                    break
        if sup & S_WORLD:
            for j in st.bf[: st.s[S_NBF]]:
                if (
                    o[j, F_CARD] >= 0
                    and ct[o[j, F_CARD], C_SUPER] & S_WORLD
                    and o[j, F_TS] > o[i, F_TS]
                    and obj_in_range(st, o[i, F_CTL], j)  # 801.12
                ):
                    extra[w0 + nw] = i
                    nw += 1
                    break
        if ct[c, C_EQUIP_PLUS] and t >= 0:  # equipment on an illegal permanent: unattached
            ok = (
                o[t, F_ZONE] == BATTLEFIELD
                and (ct[o[t, F_CARD], C_TYPES] & T_CREATURE) != 0
                and obj_in_range(st, o[i, F_CTL], t)  # 801.9
            )
            if not ok:
                o[i, F_ATT] = -1
                acted = True
    ne = na
    for k in range(nlg):
        extra[ne] = extra[lg0 + k]
        ne += 1
    for k in range(nw):
        extra[ne] = extra[w0 + k]
        ne += 1
    losers = np.empty(P, np.int64)
    nl = 0
    for p in range(P):
        if not pl[p, P_ALIVE]:
            continue
        zl = pl[p, P_LIFE] <= 0 and not has_static(st, cd, p, ST_NO_LOSS_ZERO)
        if zl or pl[p, P_DREW_EMPTY] or pl[p, P_POISON] >= s[S_POISON_LIMIT]:
            losers[nl] = p
            nl += 1
    for i in range(n if s[S_TOKENS] else 0):  # 704.5d (only after a token left: move())
        if o[i, F_TOKEN] and o[i, F_ZONE] != BATTLEFIELD and o[i, F_ZONE] != GONE:
            o[i, F_ZONE] = GONE
            acted = True
    s[S_TOKENS] = 0
    for k in range(nd):
        if o[dies[k], F_ZONE] == BATTLEFIELD:
            move(st, cd, dies[k], GRAVEYARD, -1)
            acted = True
    for k in range(ne):
        if o[extra[k], F_ZONE] == BATTLEFIELD:
            move(st, cd, extra[k], GRAVEYARD, -1)
            acted = True
    m = 0
    for k in range(nl):
        if not cant_lose(st, cd, losers[k]):
            losers[m] = losers[k]
            m += 1
    for p in range(P):
        pl[p, P_DREW_EMPTY] = 0
    if m:
        players_lose(st, cd, losers, m)
        acted = True
    if acted:
        touch(st)
    return acted


# ----------------------------------------------------------------- targets (115)
@kernel
def target_ok(st, cd, p, kind, code, source):
    return _target_ok(st.o, st.pl, cd.ct, st.rm[0], st.s[S_N], p, kind, code, source)


@kernel(inline="always")
def _target_ok(o, pl, ct, rng, n, p, kind, code, source):
    """115 with 801.4: a target must be within the player's range of influence."""
    if code < 0:
        q = -1 - code
        if not pl[q, P_ALIVE] or not rng[p, q]:
            return False
        if kind == K_ANY or kind == K_PLAYER or kind == K_PW_OR_PLAYER:
            return True
        if kind == K_OPPONENT:
            return q != p
        return False
    if code >= n or o[code, F_ZONE] != BATTLEFIELD:
        return False
    if not pl[o[code, F_CTL], P_ALIVE] or not rng[p, o[code, F_CTL]]:
        return False
    c = o[code, F_CARD]
    t = ct[c, C_TYPES] if c >= 0 else 0
    if kind == K_ANY:
        return (t & (T_CREATURE | T_PLANESWALKER | T_BATTLE)) != 0
    if kind == K_CREATURE:
        return (t & T_CREATURE) != 0
    if kind == K_PW_OR_PLAYER:
        return (t & T_PLANESWALKER) != 0
    if kind == K_LAND:
        return (t & T_LAND) != 0
    if kind == K_CREATURE_YOURS:
        return (t & T_CREATURE) != 0 and o[code, F_CTL] == p and code != source
    return False


@kernel(inline="always")
def _few_in_range(st, p):
    """Are at most a quarter of the players within p's range (Grand Melee's range 1)?"""
    k = 0
    for q in range(st.pl.shape[0]):
        k += st.rm[0, p, q]
    return 4 * k <= st.pl.shape[0]


@kernel
def target_candidates(st, cd, p, kind, source, out, buf, limit):
    """Permanents by object id, then players in turn order from p; returns how many
    (the first ``limit`` of them)."""
    o, pl, ct, rng = st.o, st.pl, cd.ct, st.rm[0]
    n = st.s[S_N]
    m = 0
    if kind == K_CREATURE_YOURS or (
        kind != K_PLAYER and kind != K_OPPONENT and _few_in_range(st, p)
    ):
        # (called by priority_actions, after recompute(): held_by is valid) the permanents
        # of the players in p's range (801.4): the ``limit`` lowest ids, in id order
        for q in range(pl.shape[0]):
            if not (q == p if kind == K_CREATURE_YOURS else rng[p, q]):
                continue
            for i in held_by(st, q):
                if m == limit and out[m - 1] < i:
                    continue
                if _target_ok(o, pl, ct, rng, n, p, kind, i, source):
                    j = m if m < limit else limit - 1  # (full: the highest id makes room)
                    while j > 0 and out[j - 1] > i:
                        out[j] = out[j - 1]
                        j -= 1
                    out[j] = i
                    m = min(m + 1, limit)
        if m >= limit:
            return m
    elif kind != K_PLAYER and kind != K_OPPONENT:
        for i in st.bf[: st.s[S_NBF]]:
            if _target_ok(o, pl, ct, rng, n, p, kind, i, source):
                out[m] = i
                m += 1
                if m >= limit:
                    return m
    if kind == K_ANY or kind == K_PLAYER or kind == K_OPPONENT or kind == K_PW_OR_PLAYER:
        k = turn_order_from(st, p, buf)
        for j in range(k):
            if _target_ok(o, pl, ct, rng, n, p, kind, -1 - buf[j], source):
                out[m] = -1 - buf[j]
                m += 1
                if m >= limit:
                    return m
    return m


# ----------------------------------------------------------------- mana (106, 601.2g)
@kernel(inline="always")
def colour_counts(st, cd, p, have):
    """Untapped mana sources of p by colour (after recompute(): p's permanents)."""
    o = st.o
    for c in range(6):
        have[c] = 0
    for i in held_by(st, p):
        c = o[i, F_CARD]
        if c >= 0 and o[i, F_TAPPED] == 0:
            col = cd.ct[c, C_MANA]
            if col >= 0:
                have[col] += 1
    t = 0
    for c in range(6):
        t += have[c]
    return t


@kernel
def can_pay(have, generic, colored, mv):
    if mv == 0:
        return True
    total = 0
    for c in range(6):
        if colored[c] > have[c]:
            return False
        total += have[c]
    return mv <= total


@kernel
def pay_cost(st, cd, p, generic, colored):
    """mana.plan_payment + pay: coloured symbols from the lowest-id source of that
    colour, then generic from the lowest-id sources left. Returns False if unpayable
    (nothing is tapped then)."""
    o = st.o
    perms = st.bf[: st.s[S_NBF]]
    taps = np.empty(16, np.int64)
    nt = 0
    for c in range(6):
        for _ in range(colored[c]):
            i = _next_source(o, cd.ct, perms, p, c, taps, nt)
            if i < 0:
                return False
            taps[nt] = i
            nt += 1
    for _ in range(generic):
        i = _next_source(o, cd.ct, perms, p, -1, taps, nt)
        if i < 0:
            return False
        taps[nt] = i
        nt += 1
    for k in range(nt):
        o[taps[k], F_TAPPED] = 1
    bump(st)  # tapping: nothing the layers or the state-based actions look at
    return True


@kernel
def _next_source(o, ct, perms, p, colour, taps, nt):
    """The lowest-id untapped mana source p controls that makes ``colour`` (-1: any
    colour) and isn't already in taps[:nt]; -1 if there is none."""
    for i in perms:
        c = o[i, F_CARD]
        if c < 0 or o[i, F_ZONE] != BATTLEFIELD or o[i, F_CTL] != p or o[i, F_TAPPED]:
            continue
        made = ct[c, C_MANA]
        if made >= 0 and (colour < 0 or made == colour) and not _in(taps, nt, i):
            return i
    return -1


@kernel
def _in(arr, n, x):
    for k in range(n):
        if arr[k] == x:
            return True
    return False


# ----------------------------------------------------------------- legal actions
@kernel
def _add(acts, m, kind, player, obj, arg, t0, t1):
    if m < MAX_ACTIONS:
        acts[m, 0] = kind
        acts[m, 1] = player
        acts[m, 2] = obj
        acts[m, 3] = arg
        acts[m, 4] = t0
        acts[m, 5] = t1
    return m + 1


@kernel
def _add_combos(st, cd, p, nt, k0, k1, source, acts, m, kind, obj, arg, first_only):
    """Every combination of distinct targets (at most MAX_TARGET_COMBOS), in product order."""
    if nt == 0:
        return _add(acts, m, kind, p, obj, arg, NO_TARGET, NO_TARGET)
    # (first_only: two candidates of each are enough to find a pair of distinct ones)
    limit = 2 if first_only else st.s[S_NBF] + st.pl.shape[0]
    c0 = np.empty(limit, np.int64)
    c1 = np.empty(limit, np.int64)
    buf = np.empty(st.pl.shape[0], np.int64)
    n0 = target_candidates(st, cd, p, k0, source, c0, buf, limit)
    if nt == 1:
        for a in range(n0):
            if a >= MAX_TARGET_COMBOS:
                break
            m = _add(acts, m, kind, p, obj, arg, c0[a], NO_TARGET)
            if first_only:
                return m
        return m
    n1 = target_candidates(st, cd, p, k1, source, c1, buf, limit)
    k = 0
    for a in range(n0):
        for b in range(n1):
            if c0[a] != c1[b]:
                m = _add(acts, m, kind, p, obj, arg, c0[a], c1[b])
                k += 1
                if first_only or k >= MAX_TARGET_COMBOS:
                    return m
    return m


@kernel(inline="always")
def sorcery_timing(st, p):
    s = st.s
    return p == s[S_ACTIVE] and (s[S_STEP] == MAIN1 or s[S_STEP] == MAIN2) and s[S_NSTK] == 0


@kernel
def _has_targets(st, cd, p, nt, k0, k1, source):
    tmp = np.empty((2, 6), np.int64)
    return _add_combos(st, cd, p, nt, k0, k1, source, tmp, 0, 0, 0, 0, True) > 0


@kernel
def priority_actions(st, cd, p, acts, first_only):
    """legal_actions.priority_actions: pass, lands, spells, abilities, in that order."""
    recompute(st, cd)
    o, ct, ab = st.o, cd.ct, cd.ab
    m = _add(acts, 0, A_PASS, p, -1, -1, NO_TARGET, NO_TARGET)
    have = np.zeros(6, np.int64)
    avail = colour_counts(st, cd, p, have)
    sorc = sorcery_timing(st, p)
    hand = st.hand[p, : st.pl[p, P_HANDN]]
    if sorc and st.pl[p, P_LANDS] < 1:
        for i in hand:
            if ct[o[i, F_CARD], C_TYPES] & T_LAND:
                m = _add(acts, m, A_LAND, p, i, -1, NO_TARGET, NO_TARGET)
                if first_only:
                    return m
    for i in hand:
        c = o[i, F_CARD]
        types = ct[c, C_TYPES]
        if types & T_LAND:
            continue
        if not (types & T_INSTANT) and not sorc:
            continue
        if ct[c, C_MV] > avail or not can_pay(
            have, ct[c, C_GENERIC], ct[c, C_W : C_C + 1], ct[c, C_MV]
        ):
            continue
        m0 = m
        m = _add_combos(
            st, cd, p, ct[c, C_NT], ct[c, C_K0], ct[c, C_K1], i, acts, m, A_CAST, i, 0, first_only
        )
        if first_only and m > m0:
            return m
    for i in held_by(st, p):
        c = o[i, F_CARD]
        if c < 0 or not ct[c, C_HASAB]:
            continue
        for k in range(ct[c, C_NAB]):
            a = ct[c, C_AB0] + k
            if ab[a, B_SORC] and not sorc:
                continue
            if ab[a, B_MV] > avail:
                continue
            if not _has_targets(st, cd, p, ab[a, B_NT], ab[a, B_K0], ab[a, B_K1], i):
                continue
            if ab[a, B_HASLOY]:
                if o[i, F_LOYUSED] or o[i, F_LOY] + ab[a, B_LOY] < 0:
                    continue
            if not can_pay(have, ab[a, B_GENERIC], ab[a, B_W : B_C + 1], ab[a, B_MV]):
                continue  # (plan_payment's check: each colour, then the total)
            m0 = m
            m = _add_combos(
                st,
                cd,
                p,
                ab[a, B_NT],
                ab[a, B_K0],
                ab[a, B_K1],
                i,
                acts,
                m,
                A_ACTIVATE,
                i,
                k,
                first_only,
            )
            if first_only and m > m0:
                return m
    return m


@kernel(inline="always")
def has_action(st, cd, p, acts):
    """Can p do anything but pass? Cached per state version and timing."""
    pl = st.pl
    sorc = 1 if sorcery_timing(st, p) else 0
    if not sorc and pl[p, P_NINSTANT] == 0 and not cd.instant_abilities:
        return False  # nothing in hand to cast at instant speed, no instant-speed ability
    if pl[p, P_HA_VER] == st.s[S_VERSION] and pl[p, P_HA_SORC] == sorc:
        return pl[p, P_HA_VAL] == 1
    v = priority_actions(st, cd, p, acts, True) > 1
    pl[p, P_HA_VER] = st.s[S_VERSION]
    pl[p, P_HA_SORC] = sorc
    pl[p, P_HA_VAL] = 1 if v else 0
    return v


# ----------------------------------------------------------------- effects (608.2, 609)
@kernel
def _ref(st, cd, item, ref, t0, t1, out):
    """Effects.Ctx.ref: the objects / player codes a reference names (all in range here)."""
    o = st.o
    ctl = o[item, F_ICTL]
    if ref == R_T0:
        if t0 == NO_TARGET:
            return 0
        out[0] = t0
        return 1
    if ref == R_T1:
        if t1 == NO_TARGET:
            return 0
        out[0] = t1
        return 1
    if ref == R_CTL:
        out[0] = -1 - ctl
        return 1
    if ref == R_SELF:
        out[0] = o[item, F_SRC] if o[item, F_IKIND] != I_SPELL else item
        return 1
    if ref == R_EVP or ref == R_EVC:
        v = o[item, F_IEVP] if ref == R_EVP else o[item, F_IEVC]
        if v < 0:
            return 0
        out[0] = -1 - v
        return 1
    if ref == R_EACH_CREATURE or ref == R_YOURS:
        m = 0
        for i in st.bf[: st.s[S_NBF]]:
            c = o[i, F_CARD]
            if c >= 0 and cd.ct[c, C_TYPES] & T_CREATURE:
                if _in_range(st.rm, st.pl, ctl, o[i, F_CTL]) and (
                    ref == R_EACH_CREATURE or o[i, F_CTL] == ctl
                ):
                    out[m] = i
                    m += 1
        return m
    if ref == R_EACH_PLAYER or ref == R_EACH_OPP:
        buf = np.empty(st.pl.shape[0], np.int64)
        k = turn_order_from(st, st.s[S_ACTIVE], buf)
        m = 0
        for j in range(k):  # 801.10: only the players within the controller's range
            if in_range(st, ctl, buf[j]) and (ref == R_EACH_PLAYER or buf[j] != ctl):
                out[m] = -1 - buf[j]
                m += 1
        return m
    return 0


@kernel
def run_effects(st, cd, item, e0, en, t0, t1):
    o, er, s = st.o, cd.er, st.s
    ctl = o[item, F_ICTL]
    src = o[item, F_SRC] if o[item, F_IKIND] != I_SPELL else item
    refs = np.empty(s[S_N] + st.pl.shape[0] + 8, np.int64)
    for r in range(e0, e0 + en):
        if s[S_OVER]:
            break
        op = er[r, E_OP]
        touch(st)
        m = _ref(st, cd, item, er[r, E_REF], t0, t1, refs)
        amt = er[r, E_AMT]
        if amt == AMT_EVENT:
            amt = o[item, F_IEVA]
        if op == OP_DAMAGE:
            for k in range(m):
                deal_damage(st, cd, src, ctl, refs[k], amt, False)
        elif op == OP_PREVENT:
            if er[r, E_REF] == R_NONE:
                _add_shield(st, ctl, 0, 0, amt, er[r, E_A])
            for k in range(m):
                _add_shield(st, ctl, 1, refs[k], amt, er[r, E_A])
        elif op == OP_DRAW:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    draw(st, cd, -1 - refs[k], amt)
        elif op == OP_DESTROY:
            for k in range(m):
                if refs[k] >= 0 and o[refs[k], F_ZONE] == BATTLEFIELD:
                    move(st, cd, refs[k], GRAVEYARD, -1)
        elif op == OP_PUMP:
            ts = -1
            for k in range(m):
                i = refs[k]
                if i >= 0 and o[i, F_ZONE] == BATTLEFIELD:
                    if ts < 0:
                        ts = stamp(st)
                    _add_effect(st, X_PUMP, i, ctl, ts, er[r, E_A], er[r, E_B], er[r, E_C], -1)
        elif op == OP_GAIN_CONTROL:
            ts = -1
            for k in range(m):
                i = refs[k]
                if i >= 0 and o[i, F_ZONE] == BATTLEFIELD and st.pl[ctl, P_ALIVE]:
                    if ts < 0:
                        ts = stamp(st)
                    _add_effect(st, X_CONTROL, i, ctl, ts, 0, 0, 0, ctl)
        elif op == OP_UNTAP:
            for k in range(m):
                if refs[k] >= 0:
                    o[refs[k], F_TAPPED] = 0
        elif op == OP_EXTRA_TURN:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    n = s[S_NXT]
                    for j in range(n, 0, -1):
                        st.xt[j] = st.xt[j - 1]
                    st.xt[0] = -1 - refs[k]
                    s[S_NXT] = n + 1
        elif op == OP_DOUBLE_LIFE:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    q = -1 - refs[k]
                    set_life(st, cd, q, 2 * st.pl[q, P_LIFE])
        elif op == OP_LIFE_LOWEST:
            m = _ref(st, cd, item, R_EACH_PLAYER, t0, t1, refs)
            if m > 0:
                low = st.pl[-1 - refs[0], P_LIFE]
                for k in range(m):
                    low = min(low, st.pl[-1 - refs[k], P_LIFE])
                for k in range(m):
                    set_life(st, cd, -1 - refs[k], low)
        elif op == OP_SHUFFLE_SELF:
            for k in range(m):
                i = refs[k]
                z = o[i, F_ZONE] if i >= 0 else -1
                if z == STACK or z == GRAVEYARD or z == HAND or z == BATTLEFIELD:
                    move(st, cd, i, LIBRARY, -1)
                    shuffle(st, o[i, F_OWNER])
        elif op == OP_DISCARD_RANDOM:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    q = -1 - refs[k]
                    h = hand_count(st, q)
                    if h:
                        j = rand_below(st.rng, h)
                        _trace(st, T_RANDOM, q, h, j, 0, 0, 0, 0, 0)
                        move(st, cd, st.hand[q, j], GRAVEYARD, -1)  # (in id order)
        elif op == OP_CREATE_TOKEN:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    q = -1 - refs[k]
                    i = new_object(st, cd, er[r, E_A], q, GONE)
                    o[i, F_TOKEN] = 1
                    enter_battlefield(st, cd, i, q, -1)
        elif op == OP_WIN:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    win(st, cd, -1 - refs[k])
        elif op == OP_LOSE:
            ps = np.empty(st.pl.shape[0], np.int64)
            n = 0
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    if not cant_lose(st, cd, -1 - refs[k]):
                        ps[n] = -1 - refs[k]
                        n += 1
            if n:
                players_lose(st, cd, ps, n)
        elif op == OP_DRAW_GAME:
            everyone_draws(st, cd, ctl)
        elif op == OP_REMOVE_COUNTER:
            for k in range(m):
                i = refs[k]
                if i >= 0 and o[i, F_ZONE] == BATTLEFIELD and o[i, F_INTV] > 0:
                    o[i, F_INTV] -= 1
                    if o[i, F_INTV] == 0:
                        queue_trigger(st, cd, i, W_LAST_COUNTER, -1, 0, -1)
        elif op == OP_GAIN_LIFE:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    gain_life(st, -1 - refs[k], amt * er[r, E_A])
        elif op == OP_LOSE_LIFE:
            for k in range(m):
                if refs[k] < 0 and st.pl[-1 - refs[k], P_ALIVE]:
                    lose_life(st, cd, -1 - refs[k], amt)


@kernel
def _add_effect(st, kind, i, ctl, ts, dp, dt, kw, newctl):
    append_row(st.s, st.eff, S_NEFF, kind, i, ctl, ts, dp, dt, kw, newctl)  # X_* order


@kernel
def _add_shield(st, ctl, has_recip, recip, amt, combat):
    stamp(st)  # (a shield has a timestamp in the Python engine: keep the count in step)
    append_row(st.s, st.sh, S_NSH, ctl, recip, amt, combat, has_recip, 0, 0, 0)  # H_* order


@kernel
def resolve_top(st, cd):
    """608: resolve the top object of the stack."""
    o, s, ct, ab = st.o, st.s, cd.ct, cd.ab
    touch(st)
    i = st.stk[s[S_NSTK] - 1]
    ctl = o[i, F_ICTL]
    kind = o[i, F_IKIND]
    src = o[i, F_SRC] if kind != I_SPELL else i
    if kind == I_SPELL:
        c = o[i, F_CARD]
        nt, k0, k1 = ct[c, C_NT], ct[c, C_K0], ct[c, C_K1]
    else:
        a = o[i, F_IAB]
        nt, k0, k1 = ab[a, B_NT], ab[a, B_K0], ab[a, B_K1]
    t0, t1 = o[i, F_IT0], o[i, F_IT1]
    if nt >= 1 and not target_ok(st, cd, ctl, k0, t0, src):
        t0 = NO_TARGET
    if nt >= 2 and not target_ok(st, cd, ctl, k1, t1, src):
        t1 = NO_TARGET
    if nt == 0:
        t0 = t1 = NO_TARGET
    elif nt == 1:
        t1 = NO_TARGET
    fizzle = nt > 0 and t0 == NO_TARGET and t1 == NO_TARGET  # 608.2b
    if kind == I_SPELL:
        c = o[i, F_CARD]
        if fizzle:
            move(st, cd, i, GRAVEYARD, -1)
        elif ct[c, C_TYPES] & T_PERMANENT:
            if not st.pl[ctl, P_ALIVE]:
                move(st, cd, i, GRAVEYARD, -1)
            else:
                enter_battlefield(st, cd, i, ctl, t0 if ct[c, C_AURA] else -1)
        else:
            run_effects(st, cd, i, ct[c, C_E0], ct[c, C_EN], t0, t1)
            if o[i, F_ZONE] == STACK:
                move(st, cd, i, GRAVEYARD, -1)
    else:
        stack_remove(st, i)
        o[i, F_ZONE] = GONE
        a = o[i, F_IAB]
        if not fizzle:
            ok = True
            if kind == I_TRIGGER:
                ok = _cond_holds(st, cd, src, ctl, a)
            if ok:
                if ab[a, B_EQUIP]:
                    if o[src, F_ZONE] == BATTLEFIELD and o[src, F_CTL] == ctl and t0 != NO_TARGET:
                        o[src, F_ATT] = t0
                        o[src, F_TS] = stamp(st)
                else:
                    run_effects(st, cd, i, ab[a, B_E0], ab[a, B_EN], t0, t1)


# ----------------------------------------------------------------- combat (506-511)
@kernel(inline="always")
def _is_creature_of(o, ct, i, p):
    c = o[i, F_CARD]
    return (
        c >= 0
        and o[i, F_ZONE] == BATTLEFIELD
        and o[i, F_CTL] == p
        and (ct[c, C_TYPES] & T_CREATURE) != 0
    )


@kernel(inline="always")
def can_attack(o, i):
    if o[i, F_TAPPED] or o[i, F_RESTRICT] & CANT_ATTACK or o[i, F_KW] & KW_DEFENDER:
        return False
    if o[i, F_SICK] and not (o[i, F_KW] & KW_HASTE):
        return False
    return True


@kernel
def attack_actions(st, cd, acts):
    """Pending attack declaration: done, then (creature, defender) pairs; defenders are
    the opponents still in the game by player index, then their planeswalkers."""
    recompute(st, cd)
    o, s = st.o, st.s
    p = s[S_ACTIVE]
    m = _add(acts, 0, A_ATTACK_DONE, s[S_PPLAYER], -1, -1, NO_TARGET, NO_TARGET)
    if not st.pl[p, P_ALIVE]:
        return m
    for i in held_by(st, p):
        if not _is_creature_of(o, cd.ct, i, p) or not can_attack(o, i) or o[i, F_DECL] != NO_TARGET:
            continue
        for q in range(st.pl.shape[0]):  # 801.3, 802, 803: the attack-target mask
            if st.rm[1, p, q] and st.pl[q, P_ALIVE]:
                m = _add(acts, m, A_ATTACK, s[S_PPLAYER], i, -1 - q, NO_TARGET, NO_TARGET)
        for j in st.bf[: st.s[S_NBF]]:
            c = o[j, F_CARD]
            if c >= 0 and cd.ct[c, C_TYPES] & T_PLANESWALKER:
                q = o[j, F_CTL]
                if st.rm[1, p, q] and st.pl[q, P_ALIVE]:
                    m = _add(acts, m, A_ATTACK, s[S_PPLAYER], i, j, NO_TARGET, NO_TARGET)
    return m


@kernel
def _has_possible_attacker(st, cd, p):
    recompute(st, cd)
    o = st.o
    for i in held_by(st, p):
        if _is_creature_of(o, cd.ct, i, p) and can_attack(o, i):
            return True
    return False


@kernel
def _clear_attack_decl(st):
    o = st.o
    for i in st.bf[: st.s[S_NBF]]:
        o[i, F_DECL] = NO_TARGET


@kernel
def _clear_block_decl(st):
    o = st.o
    for i in st.bf[: st.s[S_NBF]]:
        o[i, F_DSEQ] = 0
        o[i, F_DECL] = NO_TARGET


@kernel(inline="always")
def _sort_by(o, order, m, f):
    """order[:m] by the objects' field f, smallest first (declaration and blocking
    sequence numbers: no two are equal)."""
    for x in range(m):
        for y in range(x + 1, m):
            if o[order[y], f] < o[order[x], f]:
                t = order[x]
                order[x] = order[y]
                order[y] = t


@kernel
def finish_attacks(st):
    o, s = st.o, st.s
    any_ = False
    # in declaration order (the Python engine walks its dict in insertion order)
    order = np.empty(s[S_N], np.int64)
    m = 0
    for i in st.bf[: st.s[S_NBF]]:
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
            o[i, F_ATKP] = o[d, F_CTL]
        if not (o[i, F_KW] & KW_VIGILANCE):
            o[i, F_TAPPED] = 1
        o[i, F_DECL] = NO_TARGET
        o[i, F_DSEQ] = 0
        any_ = True
    s[S_DECLARED] = 1 if any_ else 0
    s[S_PEND] = PEND_NONE


@kernel
def _attacker_now(o, i, gm, act):
    """Is i attacking in this turn's combat (in Grand Melee, this marker's: its holder's
    creatures)?"""
    return o[i, F_ATKP] >= 0 and o[i, F_ZONE] == BATTLEFIELD and (not gm or o[i, F_CTL] == act)


@kernel
def _blocker_now(o, i, gm, act):
    """Is i blocking in this turn's combat (in Grand Melee, one of its attackers)?"""
    a = o[i, F_BLOCKING]
    return a >= 0 and o[i, F_ZONE] == BATTLEFIELD and (not gm or _attacker_now(o, a, gm, act))


@kernel
def attackers_of_turn(st, out):
    o = st.o
    gm, act = st.s[S_NMARK] > 0, st.s[S_ACTIVE]
    m = 0
    for i in st.bf[: st.s[S_NBF]]:
        if _attacker_now(o, i, gm, act):
            out[m] = i
            m += 1
    return m


@kernel
def _controls_land_sub(o, ct, perms, q, sub):
    return _controls(o, ct, perms, q, C_LANDSUB, sub)


@kernel
def _blockable(o, b, a, q):
    """Can b (of player q) block a, landwalk aside (802.4a, 702.9, 702.17)?"""
    attacked = o[a, F_ATKP]
    if o[a, F_ZONE] != BATTLEFIELD or attacked < 0 or attacked != q:
        return False
    if o[a, F_KW] & KW_FLYING and not (o[b, F_KW] & (KW_FLYING | KW_REACH)):
        return False
    return True


@kernel
def _landwalk_bits(akw):
    """Land subtypes (C_LANDSUB bits: Plains, Island, Swamp, Mountain, Forest) the
    attacker's landwalk keywords name; keyword bits 12-16 are the landwalks."""
    out = 0
    for k in range(5):
        if akw & (1 << (12 + k)):
            out |= 1 << k
    return out


@kernel
def block_actions(st, cd, acts):
    recompute(st, cd)
    o, s = st.o, st.s
    q = s[S_PPLAYER]
    n = s[S_N]
    # blocks_legal: a menace attacker blocked by exactly one creature so far
    bad = False
    for a in st.bf[: st.s[S_NBF]]:
        if o[a, F_KW] & KW_MENACE:
            k = 0
            for b in st.bf[: st.s[S_NBF]]:
                if o[b, F_DSEQ] > 0 and o[b, F_DECL] == a:
                    k += 1
            if k == 1:
                bad = True
    m = _add(acts, 0, A_BLOCK_RESET if bad else A_BLOCK_DONE, q, -1, -1, NO_TARGET, NO_TARGET)
    atk = np.empty(n, np.int64)
    na = attackers_of_turn(st, atk)
    walk_ok = np.ones(na, np.bool_)  # landwalk (702.14): the attacked player's lands
    for k in range(na):
        walk = _landwalk_bits(o[atk[k], F_KW])
        if walk and o[atk[k], F_ATKP] >= 0:
            walk_ok[k] = not _controls_land_sub(
                o, cd.ct, st.bf[: st.s[S_NBF]], o[atk[k], F_ATKP], walk
            )
    for b in held_by(st, q):
        if not _is_creature_of(o, cd.ct, b, q):
            continue
        if o[b, F_TAPPED] or o[b, F_RESTRICT] & CANT_BLOCK or o[b, F_DSEQ] > 0:
            continue
        for k in range(na):
            if walk_ok[k] and _blockable(o, b, atk[k], q):
                m = _add(acts, m, A_BLOCK, q, b, atk[k], NO_TARGET, NO_TARGET)
    return m


@kernel
def finish_blocks(st, cd):
    o, s = st.o, st.s
    n = s[S_N]
    order = np.empty(n, np.int64)
    m = 0
    for b in st.bf[: st.s[S_NBF]]:
        if o[b, F_DSEQ] > 0:
            order[m] = b
            m += 1
    _sort_by(o, order, m, F_DSEQ)
    for k in range(m):
        b = order[k]
        a = o[b, F_DECL]
        o[b, F_BLOCKING] = a
        o[a, F_BLOCKED] = 1
        s[S_BSEQ] += 1
        o[b, F_BSEQ] = s[S_BSEQ]
        o[b, F_DSEQ] = 0
        o[b, F_DECL] = NO_TARGET
    s[S_PEND] = PEND_NONE
    s[S_NBQ] = remove_all(st.bq, s[S_NBQ], s[S_PPLAYER])


@kernel
def has_block_option(st, cd, q):
    s = st.s
    keep = s[S_PPLAYER]
    s[S_PPLAYER] = q
    m = block_actions(st, cd, st.acts)  # (no decision is pending: the buffer is free)
    s[S_PPLAYER] = keep
    return m > 1


@kernel
def ask_next_blocker(st, cd):
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


@kernel
def needs_first_strike_step(st):
    o = st.o
    gm, act = st.s[S_NMARK] > 0, st.s[S_ACTIVE]
    for i in st.bf[: st.s[S_NBF]]:
        if _attacker_now(o, i, gm, act) or _blocker_now(o, i, gm, act):
            if o[i, F_KW] & (KW_FIRST_STRIKE | KW_DOUBLE_STRIKE):
                return True
    return False


@kernel
def _deals_now(st, i, step):
    kw = st.o[i, F_KW]
    if step == FIRST_STRIKE_DAMAGE:
        return (kw & (KW_FIRST_STRIKE | KW_DOUBLE_STRIKE)) != 0
    if not st.s[S_FSSTEP]:
        return True
    return (kw & KW_DOUBLE_STRIKE) != 0 or st.o[i, F_FSD] == 0


@kernel
def combat_damage(st, cd, step):
    """510.1-510.2: assign all combat damage (declaration order for blockers), then deal it."""
    recompute(st, cd)
    o, s = st.o, st.s
    n = s[S_N]
    asg = np.empty((4 * n + 8, 3), np.int64)
    na = 0
    atk = np.empty(n, np.int64)
    m = attackers_of_turn(st, atk)
    order = np.empty(n, np.int64)
    for k in range(m):
        a = atk[k]
        if not _deals_now(st, a, step):
            continue
        power = o[a, F_POW]
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
        if nb == 0:
            if trample and has_def:
                asg[na, 0], asg[na, 1], asg[na, 2] = a, defender, power
                na += 1
            continue
        left = power
        for k2 in range(nb):
            b = order[k2]
            if o[a, F_KW] & KW_DEATHTOUCH:
                lethal = 1
            else:
                lethal = max(0, o[b, F_TOU] - o[b, F_DMG])
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
    gm, act = s[S_NMARK] > 0, s[S_ACTIVE]
    for b in st.bf[: st.s[S_NBF]]:
        if not _blocker_now(o, b, gm, act):
            continue
        if not _deals_now(st, b, step):
            continue
        a = o[b, F_BLOCKING]
        if o[b, F_POW] > 0 and o[a, F_ZONE] == BATTLEFIELD:
            asg[na, 0], asg[na, 1], asg[na, 2] = b, a, o[b, F_POW]
            na += 1
    if step == FIRST_STRIKE_DAMAGE:
        for k in range(na):
            o[asg[k, 0], F_FSD] = 1
    for k in range(na):
        src = asg[k, 0]
        deal_damage(st, cd, src, o[src, F_CTL], asg[k, 1], asg[k, 2], True)


@kernel
def end_combat(st):
    """511.3: creatures are removed from combat (in Grand Melee, those of this marker's
    combat only: its attackers and their blockers, found before any is reset)."""
    o, s = st.o, st.s
    perms = st.bf[: s[S_NBF]]
    if s[S_NMARK]:
        act = s[S_ACTIVE]
        mine = np.zeros(perms.shape[0], np.bool_)
        for k in range(perms.shape[0]):
            mine[k] = _attacker_now(o, perms[k], True, act) or _blocker_now(o, perms[k], True, act)
        for k in range(perms.shape[0]):
            if mine[k]:
                reset_combat(o, perms[k])
                o[perms[k], F_BSEQ] = 0
    else:
        for i in perms:
            reset_combat(o, i)
            o[i, F_BSEQ] = 0
    st.s[S_DECLARED] = 0
    st.s[S_FSSTEP] = 0


# ----------------------------------------------------------------- turns and steps (500-514)
@kernel
def start_turn(st, cd):
    """A new turn: extra turns first (500.7); the safety cap makes the game a draw."""
    s = st.s
    bump(st)
    if s[S_MAXTURNS] and s[S_TURN] >= s[S_MAXTURNS]:
        everyone_draws(st, cd)
        return
    while s[S_NXT] and not st.pl[st.xt[0], P_ALIVE]:
        _pop_extra(st)
    if s[S_NXT]:
        p = st.xt[0]
        _pop_extra(st)
    else:
        p = next_in_turn_order(st, s[S_ACTIVE])
    begin_turn(st, p)


@kernel
def begin_turn(st, p):
    """p's turn begins (turn_structure.start_turn for a given player): one land (305.2),
    loyalty abilities again (606.3), ranges fixed for the turn (801.2c, 807.4h)."""
    s, o = st.s, st.o
    bump(st)
    s[S_TURN] += 1
    s[S_ACTIVE] = p
    st.pl[p, P_LANDS] = 0
    snapshot_ranges(st)
    for i in st.bf[: st.s[S_NBF]]:
        if o[i, F_CTL] == p:
            o[i, F_LOYUSED] = 0
    s[S_STEP] = UNTAP
    s[S_TODO] = TODO_BEGIN
    s[S_PASSES] = 0


@kernel
def _pop_extra(st):
    s = st.s
    for j in range(s[S_NXT] - 1):
        st.xt[j] = st.xt[j + 1]
    s[S_NXT] -= 1


@kernel
def begin_step(st, cd):
    s, o = st.s, st.o
    step = s[S_STEP]
    s[S_TODO] = TODO_PRIORITY
    s[S_PRIO] = s[S_ACTIVE]
    s[S_PASSES] = 0
    act = s[S_ACTIVE]
    if step == UNTAP:
        bump(st)
    elif step == CLEANUP:
        touch(st)  # damage wears off and "until end of turn" effects end
    if step == UNTAP:  # 502
        for i in st.bf[: st.s[S_NBF]]:
            if o[i, F_CTL] == act:
                o[i, F_TAPPED] = 0
                o[i, F_SICK] = 0
        s[S_TODO] = TODO_END
    elif step == UPKEEP and (s[S_TRIGKINDS] >> W_UPKEEP) & 1:
        for src in st.bf[: st.s[S_NBF]]:
            if _has_trig(o, cd.ct, src, W_UPKEEP) and o[src, F_CTL] == act:
                queue_trigger(st, cd, src, W_UPKEEP, act, 0, -1, act)
    elif step == DRAW:  # 504.1; 103.8 / 800.7 for the first turn
        first = s[S_TURN] == 1 and act == s[S_STARTING]
        skip = first and s[S_NPLAYERS] <= 2
        if not skip and st.pl[act, P_ALIVE]:
            draw(st, cd, act, 1)
    elif step == DECLARE_ATTACKERS:  # 508.1
        _clear_attack_decl(st)
        if st.pl[act, P_ALIVE] and _has_possible_attacker(st, cd, act):
            s[S_PPLAYER] = act  # (even when nobody can be attacked: only "done" then)
            s[S_PEND] = PEND_ATTACK
    elif step == DECLARE_BLOCKERS:  # 509.1, 802.4: defending players in APNAP order
        _clear_block_decl(st)
        buf = np.empty(st.pl.shape[0], np.int64)
        k = turn_order_from(st, act, buf)
        atk = np.empty(s[S_N], np.int64)
        na = attackers_of_turn(st, atk)
        s[S_NBQ] = 0
        for j in range(k):
            q = buf[j]
            if q == act:
                continue
            for x in range(na):
                if o[atk[x], F_ATKP] == q:
                    st.bq[s[S_NBQ]] = q
                    s[S_NBQ] += 1
                    break
        ask_next_blocker(st, cd)
    elif step == FIRST_STRIKE_DAMAGE or step == COMBAT_DAMAGE:
        combat_damage(st, cd, step)
    elif step == CLEANUP:
        cleanup(st, cd)


@kernel
def cleanup(st, cd):
    """514.1 discard to hand size; 514.2 damage wears off, "this turn" effects end."""
    s, o = st.s, st.o
    p = s[S_ACTIVE]
    if st.pl[p, P_ALIVE]:
        excess = hand_count(st, p) - 7
        if excess > 0:
            s[S_PEND] = PEND_DISCARD
            s[S_PPLAYER] = p
            s[S_PCOUNT] = excess
            s[S_TODO] = TODO_BEGIN
            return
    if s[S_NMARK]:  # Grand Melee: this turn ends for what is within its holder's range
        rm = st.rm[0, p]
        for i in st.bf[: st.s[S_NBF]]:
            if rm[o[i, F_CTL]]:
                o[i, F_DMG] = 0
                o[i, F_DTHIT] = 0
        k = 0
        while k < s[S_NEFF]:
            if rm[st.eff[k, X_CTL]]:
                _eff_delete(st, k)
            else:
                k += 1
        k = 0
        while k < s[S_NSH]:
            if rm[st.sh[k, H_CTL]]:
                s[S_NSH] = delete_row(st.sh, k, s[S_NSH])
            else:
                k += 1
    else:
        for i in st.bf[: st.s[S_NBF]]:
            o[i, F_DMG] = 0
            o[i, F_DTHIT] = 0
        s[S_NEFF] = 0  # every effect of a resolved spell in the stock pool ends this turn
        s[S_NSH] = 0
    acted = check_sba(st, cd)
    if s[S_NTRG] or acted:
        s[S_TODO] = TODO_PRIORITY
        s[S_CLEANUP_AGAIN] = 1
    else:
        s[S_TODO] = TODO_END


@kernel
def end_step(st, cd):
    s = st.s
    step = s[S_STEP]
    if step == CLEANUP:
        if s[S_CLEANUP_AGAIN]:
            s[S_CLEANUP_AGAIN] = 0
            s[S_TODO] = TODO_BEGIN
            return
        if s[S_NMARK]:
            marker_end_turn(st, cd)  # 807.4c: the marker moves on
        else:
            start_turn(st, cd)
        return
    if step == DECLARE_ATTACKERS and not s[S_DECLARED]:
        nxt = END_COMBAT
    elif step == DECLARE_BLOCKERS:
        s[S_FSSTEP] = 1 if needs_first_strike_step(st) else 0
        nxt = FIRST_STRIKE_DAMAGE if s[S_FSSTEP] else COMBAT_DAMAGE
    elif step == FIRST_STRIKE_DAMAGE:
        nxt = COMBAT_DAMAGE
    elif step == COMBAT_DAMAGE:
        nxt = END_COMBAT
    elif step == END_COMBAT:
        end_combat(st)
        bump(st)
        nxt = MAIN2
    else:
        nxt = step + 1
    s[S_STEP] = nxt
    s[S_TODO] = TODO_BEGIN


# ----------------------------------------------------------------- turn markers (807.4, 807.5)
# The kernel's twin of systems/turn_markers.py, function for function and in the same
# order of operations (so the same interleaving): markers advance in marker-number
# order one step at a time; the marker being advanced is "loaded" into the turn
# scalars (SAVED) and the stack, the others wait in their rows of ``mk``.
@kernel(inline="always")
def marker_save(st):
    """turn_markers.save: the loaded turn goes back into its marker's row."""
    s, row = st.s, st.mk[st.s[S_CUR]]
    for j in range(len(SAVED)):
        row[K_SAVED + j] = s[SAVED[j]]
    n = s[S_NSTK]
    row[K_NSTK] = n
    row[KF : KF + n] = st.stk[:n]


@kernel(inline="always")
def marker_load(st, k):
    """turn_markers.load: marker k's turn becomes the game's turn."""
    s, row = st.s, st.mk[k]
    s[S_CUR] = k
    for j in range(len(SAVED)):
        s[SAVED[j]] = row[K_SAVED + j]
    n = row[K_NSTK]
    s[S_NSTK] = n
    st.stk[:n] = row[KF : KF + n]


@kernel
def marker_count(st):
    """807.4a: one turn marker for each full four players."""
    return max(1, n_alive(st) // 4)


@kernel
def markers_setup(st, order, m):
    """807.4b: marker 1 to the starting player, the next to every fourth seat on its
    left (``order``: the players in turn order from the starting player); every
    holder's turn begins at once."""
    s, mk = st.s, st.mk
    s[S_TURN] = 0
    M = min(marker_count(st), (m + 3) // 4)
    s[S_NMARK] = M
    for k in range(M):  # a fresh turn for each holder (turn_markers.fresh_turn), begun
        h = order[4 * k]
        mk[k, :KF] = 0
        mk[k, K_NUMBER] = k + 1
        mk[k, K_HOLDER] = h
        s[S_CUR] = k
        for f in SAVED:
            s[f] = 0
        s[S_PEND] = PEND_NONE
        s[S_PRIO] = h
        s[S_NSTK] = 0
        begin_turn(st, h)  # (active player, untap step, todo and passes)
        marker_save(st)
    marker_load(st, 0)


@kernel(inline="always")
def _eligible(rm, pl, o, stk, nstk, a, q):
    """807.5a: q gets priority for the loaded marker's stack only if its holder (a), or
    the controller of an object on that stack, is within q's range of influence (the
    holder counts even after leaving, as the Python engine has it: ``rm`` is fixed for
    the turn)."""
    if not pl[q, P_ALIVE]:
        return False
    if rm[0, q, a]:
        return True
    for j in range(nstk):
        c = o[stk[j], F_ICTL]
        if rm[0, q, c] and pl[c, P_ALIVE]:
            return True
    return False


@kernel(inline="always")
def _mark_eligible(st):
    """P_ELIG of every player for the loaded stack (807.5a); returns how many, the players
    who must pass in succession (805.5 / 807.5a). Valid while the stack, the players in
    the game and the marker stay as they are: within one round of passes."""
    rm, pl, o, stk, s = st.rm, st.pl, st.o, st.stk, st.s
    nstk, a = s[S_NSTK], s[S_ACTIVE]
    k = 0
    for q in range(pl.shape[0]):
        e = _eligible(rm, pl, o, stk, nstk, a, q)
        pl[q, P_ELIG] = 1 if e else 0
        k += pl[q, P_ELIG]
    return k


@kernel(inline="always")
def _next_marked(st, p):
    """The next player after p in turn order who gets priority for this stack, from the
    P_ELIG marks (the Python engine's walk of next_in_turn_order from p, one round of
    the seats)."""
    seat, pl = st.seat, st.pl
    n = seat.shape[0]
    k0 = _seat_pos(st, p)
    for d in range(1, n + 1):
        q = seat[(k0 + d) % n]
        if pl[q, P_ELIG]:
            return q
    return next_in_turn_order(st, p)


@kernel
def _held_near(st, k, p, left):
    """Does a marker other than k sit with a holder among the three players (still in
    the game) to p's left (or right)?"""
    buf = np.empty(st.pl.shape[0], np.int64)
    m = turn_order_from(st, p, buf)
    if left:
        lo, hi = 1, min(4, m)
    else:
        lo, hi = max(1, m - 3), m
    mk = st.mk
    for x in range(st.s[S_NMARK]):
        if x == k:
            continue
        for j in range(lo, hi):
            if mk[x, K_HOLDER] == buf[j]:
                return True
    return False


@kernel
def _must_wait(st, k):
    """807.4d: not while another marker is within the three seats to the holder's left."""
    return _held_near(st, k, st.mk[k, K_HOLDER], True)


@kernel
def _marker_begin(st, k):
    """Marker k (loaded) begins its holder's turn; a delayed extra turn first (807.4i-j)."""
    mk, pl = st.mk, st.pl
    h = mk[k, K_HOLDER]
    if pl[h, P_DEFERRED] > 0:
        pl[h, P_DEFERRED] -= 1
        mk[k, K_THEN_NORMAL] = 1
    begin_turn(st, h)


@kernel
def _wake(st):
    """Markers waiting under 807.4d begin when no marker is close on their left."""
    s, mk = st.s, st.mk
    for k in range(s[S_NMARK]):
        if mk[k, K_WAITING] and not _must_wait(st, k):
            mk[k, K_WAITING] = 0
            if k == s[S_CUR]:
                _marker_begin(st, k)
            else:
                marker_save(st)
                cur = s[S_CUR]
                marker_load(st, k)
                _marker_begin(st, k)
                marker_save(st)
                marker_load(st, cur)


@kernel(inline="always")
def _rotate(st):
    """The loaded marker's step is over: the next marker (by number) advances."""
    s, mk = st.s, st.mk
    M = s[S_NMARK]
    if M <= 1:
        if M == 1 and mk[0, K_WAITING]:
            _wake(st)
        return
    marker_save(st)
    k = (s[S_CUR] + 1) % M
    every = True
    for x in range(M):
        if not mk[x, K_WAITING]:
            every = False
    if every:
        _wake(st)
    marker_load(st, k)


@kernel
def _marker_to_right(st, p, exclude):
    """The turn marker nearest to p's right (p's own last; -1 if none)."""
    n, mk, pl = st.s[S_NPLAYERS], st.mk, st.pl
    seat = pl[p, P_SEATPOS]
    for d0 in range(1, n + 1):
        d = d0 % n
        want = (seat - d) % n
        for x in range(st.s[S_NMARK] - 1, -1, -1):  # (the last marker at a seat counts)
            if x != exclude and pl[mk[x, K_HOLDER], P_SEATPOS] == want:
                return x
    return -1


@kernel
def _marker_remove(st, k):
    """Marker k leaves the table; extra designations pass to the marker on its right
    (807.4g)."""
    s, mk = st.s, st.mk
    extra = mk[k, K_REMOVAL] - 1
    right = _marker_to_right(st, mk[k, K_HOLDER], k)
    M = s[S_NMARK]
    mk[k : M - 1] = mk[k + 1 : M].copy()
    M -= 1
    s[S_NMARK] = M
    if right > k:
        right -= 1
    if extra > 0 and right >= 0:
        mk[right, K_REMOVAL] += extra
    if M == 0:
        return
    s[S_CUR] = k % M
    marker_load(st, s[S_CUR])


@kernel
def _remove_waiting_designated(st):
    """807.4g: a designated marker whose holder isn't taking a turn (waiting) is removed
    at once, also one that a removal has just designated (highest index first)."""
    s, mk = st.s, st.mk
    while True:
        x = -1
        for j in range(s[S_NMARK]):
            if mk[j, K_REMOVAL] > 0 and mk[j, K_WAITING]:
                x = j
        if x < 0:
            return
        s[S_CUR] = x
        _marker_remove(st, x)


@kernel
def marker_end_turn(st, cd):
    """The loaded marker's turn ended (after cleanup): remove, keep or pass it (807.4c,
    807.4g, 807.4i-j)."""
    s, mk, pl = st.s, st.mk, st.pl
    k = s[S_CUR]
    h = mk[k, K_HOLDER]
    if s[S_MAXTURNS] and s[S_TURN] >= s[S_MAXTURNS]:
        everyone_draws(st, cd)  # the safety cap counts rounds of every marker
        return
    if mk[k, K_THEN_NORMAL]:  # the delayed extra turn is over; the normal turn follows
        mk[k, K_THEN_NORMAL] = 0
        if mk[k, K_REMOVAL] == 0 and pl[h, P_ALIVE]:
            begin_turn(st, h)
            return
    if mk[k, K_REMOVAL] > 0:  # 807.4g
        if _in(st.xt, s[S_NXT], h):  # 807.4j: no marker for it now: before the next turn
            s[S_NXT] = remove_value(st.xt, s[S_NXT], h)
            pl[h, P_DEFERRED] += 1
        _marker_remove(st, k)
        if s[S_NMARK]:  # marker-number order: the next marker advances next
            nxt = mk[k % s[S_NMARK], K_NUMBER]
            _remove_waiting_designated(st)  # (designations it passed on)
            j = 0
            for x in range(s[S_NMARK] - 1, -1, -1):
                if mk[x, K_NUMBER] >= nxt:
                    j = x
            if s[S_NMARK]:
                marker_load(st, (j - 1) % s[S_NMARK])
        _wake(st)
        return
    if pl[h, P_ALIVE] and _in(st.xt, s[S_NXT], h):
        s[S_NXT] = remove_value(st.xt, s[S_NXT], h)
        left_busy = _held_near(st, k, h, True)
        if _held_near(st, k, h, False):  # 807.4i: pass it on; the extra turn comes first
            pl[h, P_DEFERRED] += 1
        else:  # keep the marker (and wait if another is within three seats to the left)
            mk[k, K_WAITING] = 1 if left_busy else 0
            if not left_busy:
                begin_turn(st, h)
            _wake(st)
            return
    mk[k, K_HOLDER] = next_in_turn_order(st, h)  # 807.4c: pass it to the left
    mk[k, K_WAITING] = 1 if _must_wait(st, k) else 0
    if not mk[k, K_WAITING]:
        _marker_begin(st, k)
    _wake(st)  # a marker that moved may free one waiting behind it (807.4d)


@kernel
def markers_players_left(st, ps, m):
    """807.4c, 807.4e-g: markers of departed players, and markers designated for removal
    (turn_markers.players_left)."""
    s, mk, o = st.s, st.mk, st.o
    marker_save(st)
    loaded = mk[s[S_CUR], K_NUMBER]
    for x in range(s[S_NMARK]):  # what left the game is no longer on any marker's stack
        n = 0
        for j in range(mk[x, K_NSTK]):
            i = mk[x, KF + j]
            if o[i, F_ZONE] == STACK:
                mk[x, KF + n] = i
                n += 1
        mk[x, K_NSTK] = n
    # 807.4e-f: departures that reduce the number of markers designate markers for
    # removal, the one immediately to a departed player's right, lowest number first
    excess = -marker_count(st)
    for x in range(s[S_NMARK]):
        if mk[x, K_REMOVAL] == 0:
            excess += 1
    while excess > 0:
        best, best_any = -1, -1
        for j in range(m):
            x = _marker_to_right(st, ps[j], -1)
            if x < 0:
                continue
            if best_any < 0 or mk[x, K_NUMBER] < mk[best_any, K_NUMBER]:
                best_any = x
            if mk[x, K_REMOVAL] == 0 and (best < 0 or mk[x, K_NUMBER] < mk[best, K_NUMBER]):
                best = x
        if best_any < 0:
            break
        mk[best if best >= 0 else best_any, K_REMOVAL] += 1
        excess -= 1
    _remove_waiting_designated(st)  # 807.4g
    for x in range(s[S_NMARK]):  # 807.4c: a holder who left before their turn began
        if mk[x, K_WAITING] and not st.pl[mk[x, K_HOLDER], P_ALIVE]:
            mk[x, K_HOLDER] = next_in_turn_order(st, mk[x, K_HOLDER])
            mk[x, K_WAITING] = 1 if _must_wait(st, x) else 0
    k = 0
    for x in range(s[S_NMARK]):
        if mk[x, K_NUMBER] == loaded:
            k = x
    if s[S_NMARK]:
        marker_load(st, k)
        _wake(st)


@kernel
def run_markers(st, cd, buf):
    """turn_markers.run: advance the simultaneous turns until someone must decide."""
    s, mk = st.s, st.mk
    guard = 0
    while not s[S_OVER] and s[S_PEND] == PEND_NONE:
        guard += 1
        if guard > 100_000:
            s[S_ERROR] = ERR_STALL
            s[S_OVER] = 1
            return
        if mk[s[S_CUR], K_WAITING]:
            _rotate(st)
            continue
        if s[S_TODO] == TODO_PRIORITY:
            offer_priority(st, cd, buf)
        elif s[S_TODO] == TODO_BEGIN:
            begin_step(st, cd)
        else:
            end_step(st, cd)
            if s[S_PEND] == PEND_NONE and not s[S_OVER]:
                _rotate(st)  # this marker's step is over: the next marker advances its step


# ----------------------------------------------------------------- priority (117)
@kernel
def settle(st, cd, buf):
    """117.5: state-based actions and triggers until neither happens."""
    s = st.s
    while not s[S_OVER]:
        acted = check_sba(st, cd)
        if s[S_OVER]:
            return
        state_triggers(st, cd)
        put = put_triggers_on_stack(st, cd, buf)
        if not acted and not put:
            return


@kernel
def offer_priority(st, cd, buf):
    """117.3: the player with priority decides; under auto-pass one who can do nothing
    passes at once, and the next is offered priority straight away (what ``run`` would
    do next: a pass that neither resolves nor ends the step changes nothing else)."""
    s, pl = st.s, st.pl
    need = -1  # how many must pass in succession (worked out again once settle has run)
    while True:
        s[S_OFFERS] += 1
        if s[S_SDIRTY] or s[S_NTRG] or (s[S_NSTATETRIG] and _state_triggers_stale(s)):
            settle(st, cd, buf)  # (nothing changed and nothing waits: it would do nothing)
            need = -1
        if s[S_OVER]:
            return
        if need < 0:  # (passing changes neither the stack nor who is in the game)
            need = _mark_eligible(st) if s[S_NMARK] else n_alive(st)
        p = s[S_PRIO]
        if not pl[p, P_ALIVE]:
            p = next_in_turn_order(st, p)
            s[S_PRIO] = p
        if s[S_NMARK] and not pl[p, P_ELIG]:  # 807.5a
            p = _next_marked(st, p)
            s[S_PRIO] = p
        if has_action(st, cd, p, st.acts):
            s[S_PEND] = PEND_PRIORITY
            s[S_PPLAYER] = p
            return
        _passed(st, cd, p, need)
        if s[S_PASSES] == 0:  # the stack resolved or the step ended: back to run
            return


@kernel(inline="always")
def do_pass(st, cd, p):
    s = st.s
    _passed(st, cd, p, _mark_eligible(st) if s[S_NMARK] else n_alive(st))


@kernel(inline="always")
def _passed(st, cd, p, need):
    """p passed: once ``need`` players have passed in succession the top of the stack
    resolves or the step ends (117.4); otherwise the next player gets priority (in
    Grand Melee, from the P_ELIG marks of this round)."""
    s = st.s
    s[S_PEND] = PEND_NONE
    s[S_PASSES] += 1
    if s[S_PASSES] >= need:
        s[S_PASSES] = 0
        if s[S_NSTK]:
            resolve_top(st, cd)
            s[S_PRIO] = s[S_ACTIVE]
            s[S_TODO] = TODO_PRIORITY
        else:
            s[S_TODO] = TODO_END
    elif s[S_NMARK]:
        s[S_PRIO] = _next_marked(st, p)
        s[S_TODO] = TODO_PRIORITY
    else:
        s[S_PRIO] = next_in_turn_order(st, p)
        s[S_TODO] = TODO_PRIORITY


@kernel
def run(st, cd, buf):
    """Advance until a player must decide something (or the game is over)."""
    s = st.s
    if s[S_NMARK]:
        run_markers(st, cd, buf)
        return
    # (run_markers repeats this dispatch on purpose: one inlined or called helper for
    # both measured 5-10% slower on 16-player Grand Melee)
    while not s[S_OVER] and s[S_PEND] == PEND_NONE:
        if s[S_TODO] == TODO_PRIORITY:
            offer_priority(st, cd, buf)
        elif s[S_TODO] == TODO_BEGIN:
            begin_step(st, cd)
        else:
            end_step(st, cd)


# ----------------------------------------------------------------- decisions
@kernel
def legal_actions(st, cd, acts):
    s = st.s
    pend = s[S_PEND]
    if pend == PEND_PRIORITY:
        return priority_actions(st, cd, s[S_PPLAYER], acts, False)
    if pend == PEND_ATTACK:
        return attack_actions(st, cd, acts)
    if pend == PEND_BLOCK:
        return block_actions(st, cd, acts)
    if pend == PEND_DISCARD:
        m = 0
        q = s[S_PPLAYER]
        for i in st.hand[q, : st.pl[q, P_HANDN]]:
            m = _add(acts, m, A_DISCARD, q, i, -1, NO_TARGET, NO_TARGET)
        return m
    return 0


@kernel
def apply_action(st, cd, a, buf):
    """legal_actions.apply_action for a legal action (the kernel only makes legal ones)."""
    s, o, ct, ab = st.s, st.o, cd.ct, cd.ab
    kind, p, i, arg, t0, t1 = a[0], a[1], a[2], a[3], a[4], a[5]
    if kind == A_ATTACK_DONE or kind == A_BLOCK_DONE or kind == A_CAST:
        bump(st)  # attackers tap, attackers become blocked, a spell goes on the stack and
        # its cost is paid: nothing the layers or the state-based actions look at
    elif kind != A_PASS and kind != A_ATTACK and kind != A_BLOCK and kind != A_BLOCK_RESET:
        touch(st)
    if kind == A_PASS:
        do_pass(st, cd, p)
    elif kind == A_LAND or kind == A_CAST or kind == A_ACTIVATE:
        if kind == A_LAND:
            st.pl[p, P_LANDS] += 1
            enter_battlefield(st, cd, i, p, -1)
            s[S_PASSES] = 0
        elif kind == A_CAST:
            c = o[i, F_CARD]
            move(st, cd, i, STACK, p)
            o[i, F_IKIND] = I_SPELL
            o[i, F_ICTL] = p
            o[i, F_IT0] = t0
            o[i, F_IT1] = t1
            o[i, F_SRC] = i
            _stack_push(st, i)
            pay_cost(st, cd, p, ct[c, C_GENERIC], ct[c, C_W : C_C + 1])
            s[S_PASSES] = 0
        else:
            c = o[i, F_CARD]
            b = ct[c, C_AB0] + arg
            pay_cost(st, cd, p, ab[b, B_GENERIC], ab[b, B_W : B_C + 1])
            if ab[b, B_HASLOY]:
                o[i, F_LOY] += ab[b, B_LOY]
                o[i, F_LOYUSED] = 1
            j = new_object(st, cd, -1, p, STACK)
            o[j, F_SRC] = i
            o[j, F_IKIND] = I_ACTIVATED
            o[j, F_IAB] = b
            o[j, F_ICTL] = p
            o[j, F_IT0] = t0
            o[j, F_IT1] = t1
            _stack_push(st, j)
            s[S_PASSES] = 0
        s[S_PEND] = PEND_NONE
        s[S_PRIO] = p
        s[S_TODO] = TODO_PRIORITY
    elif kind == A_ATTACK:
        s[S_DSEQ] += 1
        o[i, F_DECL] = arg
        o[i, F_DSEQ] = s[S_DSEQ]
        return
    elif kind == A_ATTACK_DONE:
        finish_attacks(st)
        s[S_TODO] = TODO_PRIORITY
        s[S_PRIO] = s[S_ACTIVE]
    elif kind == A_BLOCK:
        s[S_DSEQ] += 1
        o[i, F_DECL] = arg
        o[i, F_DSEQ] = s[S_DSEQ]
        return
    elif kind == A_BLOCK_RESET:
        _clear_block_decl(st)
        return
    elif kind == A_BLOCK_DONE:
        finish_blocks(st, cd)
        ask_next_blocker(st, cd)
        if s[S_PEND] == PEND_NONE:
            s[S_TODO] = TODO_PRIORITY
            s[S_PRIO] = s[S_ACTIVE]
    elif kind == A_DISCARD:
        move(st, cd, i, GRAVEYARD, -1)
        s[S_PCOUNT] -= 1
        if s[S_PCOUNT] <= 0:
            s[S_PEND] = PEND_NONE
            s[S_TODO] = TODO_BEGIN
    run(st, cd, buf)


@kernel
def start_game(st, cd):
    """turn_structure.start_game without mulligans: opening hands of seven in turn order
    from the starting player (103.5), then the starting player's first turn (103.8)."""
    s = st.s
    buf = np.empty(st.pl.shape[0], np.int64)
    m = turn_order_from(st, s[S_STARTING], buf)
    for j in range(m):
        draw(st, cd, buf[j], 7)
    s[S_ACTIVE] = s[S_STARTING]
    if s[S_GM]:
        markers_setup(st, buf, m)
        touch(st)
        return
    s[S_TURN] = 1
    p = s[S_STARTING]
    st.pl[p, P_LANDS] = 0
    snapshot_ranges(st)
    s[S_STEP] = UNTAP
    s[S_TODO] = TODO_BEGIN
    s[S_PASSES] = 0
    touch(st)


@kernel
def play_one(st, cd, max_decisions):
    """Random agents play this game to its end (or for max_decisions decisions)."""
    s = st.s
    buf = np.empty(st.pl.shape[0], np.int64)
    if s[S_STEP] == PREGAME:
        start_game(st, cd)
    run(st, cd, buf)
    k = 0
    while not s[S_OVER] and s[S_PEND] != PEND_NONE and k < max_decisions:
        m = legal_actions(st, cd, st.acts)
        if m > MAX_ACTIONS:
            s[S_ERROR] = ERR_OVERFLOW
            s[S_OVER] = 1
            break
        j = 0 if m == 1 else rand_below(st.rng, m)
        a = st.acts[j].copy()
        _trace(st, s[S_PEND], s[S_PPLAYER], m, a[0], a[2], a[3], a[4], a[5], j)
        apply_action(st, cd, a, buf)
        k += 1
        s[S_DECISIONS] += 1
    return k


@entry
def play_batch(
    OBJ,
    PL,
    S,
    LIB,
    STK,
    TRG,
    EFF,
    SH,
    XT,
    BQ,
    SEAT,
    RNG,
    TR,
    ACTS,
    HAND,
    RM,
    MK,
    BF,
    HELD,
    ct,
    ab,
    er,
    instant_abilities,
    max_decisions,
):
    """Play every game of the batch (leading axis G) to its end."""
    cd = CardTables(borrowed(ct), borrowed(ab), borrowed(er), instant_abilities)
    acts = borrowed(ACTS)
    total = 0
    for g in range(OBJ.shape[0]):
        st = GameState(
            borrowed(OBJ[g]), borrowed(PL[g]), borrowed(S[g]), borrowed(LIB[g]),
            borrowed(STK[g]), borrowed(TRG[g]), borrowed(EFF[g]), borrowed(SH[g]),
            borrowed(XT[g]), borrowed(BQ[g]), borrowed(SEAT[g]), borrowed(RNG[g]),
            borrowed(TR[g]), acts, borrowed(HAND[g]), borrowed(RM[g]), borrowed(MK[g]),
            borrowed(BF[g]), borrowed(HELD[g]),
        )  # fmt: skip
        total += play_one(st, cd, max_decisions)
    return total
