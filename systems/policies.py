"""Compiled agents: which listed option a policy picks, inside the game loop (batches)
or asked from Python (``Game.policy_choice``). Their random draws come from the
agents' own generator (S_AGENT_RNG), so the game itself replays from the options taken.

POLICY_RANDOM: uniform among the options; but an ability without any cost or limit
(B_FREE: Eladamri's {0}) is activated at most once each turn from a source (uniform
among the other options then): a random player would otherwise keep activating it and
seldom let the stack resolve or the step end.
POLICY_HEURISTIC: a simple player. Keeps a hand of 2-5 lands (one mulligan at most);
plays a land, then casts the spell of the highest mana value it can; aims harmful
spells (damage, destruction, removal, theft...) at the opponent with the least life or
the opponent's biggest creature, and helpful ones at its own biggest creature or
itself; attacks with creatures no untapped potential blocker can kill, at the
opponent with the least life; blocks when the blocker survives, trades for a creature
worth at least as much, or when the attack would otherwise kill it (a menace
attacker only to complete a pair); answers "may"
with yes; discards and bottoms the card of the highest mana value; otherwise takes
the first option."""

from __future__ import annotations

from components.cards import (
    B_E0,
    B_EN,
    B_FREE,
    B_INDEX,
    C_MV,
    E_OP,
    OP_BOUNCE,
    OP_CANT_BLOCK,
    OP_COUNTER,
    OP_DAMAGE,
    OP_DESTROY,
    OP_DISCARD,
    OP_EXILE,
    OP_EXILE_IF_LEAVES,
    OP_FIGHT,
    OP_GAIN_CONTROL,
    OP_LOSE_LIFE,
    OP_MILL,
    OP_SACRIFICE,
    OP_TAP,
    OP_TO_LIBRARY,
)
from components.decisions import (
    A_ACTIVATE,
    A_ATTACK,
    A_ATTACK_DONE,
    A_BLOCK,
    A_BLOCK_DONE,
    A_CAST,
    A_KEEP,
    A_LAND,
    A_MULLIGAN,
    AC_ARG,
    AC_KIND,
    AC_OBJ,
    PEND_ATTACK,
    PEND_BLOCK,
    PEND_BOTTOM,
    PEND_CHOOSE_PLAYER,
    PEND_DISCARD,
    PEND_MULLIGAN,
    PEND_PRIORITY,
    PEND_TARGET,
    PEND_TRIGGER_TARGET,
    PEND_YES_NO,
)
from components.game import (
    NEED_FREE_ABILITIES,
    S_CASTING,
    S_N,
    S_NBF,
    S_NEEDS,
    S_PEND,
    S_PPLAYER,
)
from components.objects import (
    F_ACTUSED,
    F_ATKP,
    F_CARD,
    F_CTL,
    F_DECL,
    F_DSEQ,
    F_IAB,
    F_KW,
    F_POW,
    F_TAPPED,
    F_TOU,
    F_TYPES,
)  # fmt: skip
from components.players import P_HANDN, P_MULLIGANS, P_POLICY
from components.rules import (
    KW_FLYING,
    KW_MENACE,
    KW_REACH,
    KW_SHADOW,
    KW_UNBLOCKABLE,
    T_CREATURE,
    T_LAND,
)
from systems import continuous_effects, players, zones
from systems.jit import kernel
from systems.state import agent_rand_below

POLICY_RANDOM, POLICY_HEURISTIC = 0, 1
POLICY_NAMES = ("random", "heuristic")


@kernel
def choose(st, cd, policy, n):
    """The option ``policy`` picks among the n listed (a negative policy: the deciding
    player's own, P_POLICY)."""
    if n <= 1:
        return 0
    if policy < 0:
        policy = st.pl[st.s[S_PPLAYER], P_POLICY]
    if policy == POLICY_HEURISTIC:
        return heuristic(st, cd, n)
    if st.s[S_NEEDS] & NEED_FREE_ABILITIES and st.s[S_PEND] == PEND_PRIORITY:
        return _random_but_no_repeat(st, cd, n)
    return agent_rand_below(st, n)


@kernel
def _random_but_no_repeat(st, cd, n):
    """Uniform among the n options but those activating a free ability (B_FREE) of a
    source that activated it this turn (F_ACTUSED)."""
    left = n
    for k in range(n):
        left -= _repeats(st, cd, k)
    if left == n:
        return agent_rand_below(st, n)
    r = agent_rand_below(st, left)
    for k in range(n):
        if not _repeats(st, cd, k):
            if r == 0:
                return k
            r -= 1
    return 0


@kernel
def _repeats(st, cd, k):
    acts = st.acts
    if acts[k, AC_KIND] != A_ACTIVATE:
        return 0
    a = acts[k, AC_ARG]
    return cd.ab[a, B_FREE] * ((st.o[acts[k, AC_OBJ], F_ACTUSED] >> cd.ab[a, B_INDEX]) & 1)
    return 0


@kernel
def heuristic(st, cd, n):
    pend = st.s[S_PEND]
    me = st.s[S_PPLAYER]
    continuous_effects.recompute(st, cd)
    if pend == PEND_PRIORITY:
        return _priority(st, cd, n)
    if pend == PEND_ATTACK:
        return _attack(st, cd, me, n)
    if pend == PEND_BLOCK:
        return _block(st, cd, me, n)
    if pend == PEND_MULLIGAN:
        return _mulligan(st, cd, me, n)
    if pend == PEND_TARGET or pend == PEND_TRIGGER_TARGET or pend == PEND_CHOOSE_PLAYER:
        return _target(st, cd, me, n)
    if pend == PEND_DISCARD or pend == PEND_BOTTOM:
        return _costliest(st, cd, n)
    if pend == PEND_YES_NO:
        for k in range(n):
            if st.acts[k, AC_ARG] == 1:
                return k
    return 0


@kernel(inline="always")
def _mv(st, cd, i):
    c = st.o[i, F_CARD]
    return cd.ct[c, C_MV] if c >= 0 else 0


@kernel
def _priority(st, cd, n):
    acts = st.acts
    for k in range(n):
        if acts[k, AC_KIND] == A_LAND:
            return k
    best, score = 0, -1
    for k in range(n):
        if acts[k, AC_KIND] == A_CAST:
            v = _mv(st, cd, acts[k, AC_OBJ])
            if v > score:
                best, score = k, v
    return best


@kernel
def _mulligan(st, cd, me, n):
    lands = 0
    for i in zones.hand_of(st, me):
        if st.o[i, F_TYPES] & T_LAND:
            lands += 1
    want_keep = (2 <= lands <= 5) or st.pl[me, P_MULLIGANS] >= 1 or st.pl[me, P_HANDN] < 6
    for k in range(n):
        kind = st.acts[k, AC_KIND]
        if (kind == A_KEEP) == want_keep and (kind == A_KEEP or kind == A_MULLIGAN):
            return k
    return 0


@kernel
def _harmful(st, cd):
    """Is the spell or ability being cast one that hurts what it targets?"""
    it = st.s[S_CASTING]
    if it < 0:
        return True
    a = st.o[it, F_IAB]
    if a < 0:
        return True
    ab, ep = cd.ab, cd.ep
    for e in range(ab[a, B_E0], ab[a, B_E0] + ab[a, B_EN]):
        op = ep[e, E_OP]
        if (op == OP_DAMAGE or op == OP_DESTROY or op == OP_EXILE or op == OP_BOUNCE
                or op == OP_TO_LIBRARY or op == OP_COUNTER or op == OP_TAP
                or op == OP_GAIN_CONTROL or op == OP_SACRIFICE or op == OP_FIGHT
                or op == OP_LOSE_LIFE or op == OP_DISCARD or op == OP_MILL
                or op == OP_CANT_BLOCK or op == OP_EXILE_IF_LEAVES):  # fmt: skip
            return True
    return False


@kernel
def _target(st, cd, me, n):
    acts, o = st.acts, st.o
    harm = _harmful(st, cd)
    best, score = 0, -(10**9)
    N = st.s[S_N]
    for k in range(n):
        x = acts[k, AC_OBJ]
        if st.s[S_PEND] == PEND_CHOOSE_PLAYER:
            x = -1 - acts[k, AC_ARG]
        v = -(10**6)
        if x < 0 and -1 - x < st.pl.shape[0]:
            q = -1 - x
            mine = players.same_side(st, me, q)
            life = players.life(st, q)
            v = (1000 - life if not mine else -1000) if harm else (500 if q == me else -1000)
        elif 0 <= x < N:
            mine = players.same_side(st, me, o[x, F_CTL])
            worth = (
                o[x, F_POW] + o[x, F_TOU] + _mv(st, cd, x)
                if o[x, F_TYPES] & T_CREATURE
                else _mv(st, cd, x)
            )
            v = (worth if not mine else -worth - 100) if harm else (worth if mine else -worth - 100)
        if v > score:
            best, score = k, v
    return best


@kernel
def _can_block(st, blocker, attacker):
    o = st.o
    if not o[blocker, F_TYPES] & T_CREATURE or o[blocker, F_TAPPED]:
        return False
    if o[attacker, F_KW] & KW_FLYING and not o[blocker, F_KW] & (KW_FLYING | KW_REACH):
        return False
    if (o[attacker, F_KW] ^ o[blocker, F_KW]) & KW_SHADOW:
        return False
    return not o[attacker, F_KW] & KW_UNBLOCKABLE


@kernel
def _attack(st, cd, me, n):
    acts, o = st.acts, st.o
    best, score, done = -1, -(10**9), 0
    for k in range(n):
        kind = acts[k, AC_KIND]
        if kind == A_ATTACK_DONE:
            done = k
        if kind != A_ATTACK:
            continue
        i, d = acts[k, AC_OBJ], acts[k, AC_ARG]
        q = -1 - d if d < 0 else o[d, F_CTL]
        if o[i, F_POW] <= 0:
            continue
        safe = True
        for b in continuous_effects.held_by(st, q):
            if _can_block(st, b, i) and o[b, F_POW] >= o[i, F_TOU]:
                safe = False
                break
        if not safe:
            continue
        v = 1000 - players.life(st, q) + (50 if d >= 0 else 0)
        if v > score:
            best, score = k, v
    return best if best >= 0 else done


@kernel
def _block(st, cd, me, n):
    acts, o = st.acts, st.o
    incoming = 0
    for i in range(st.s[S_N]):
        if o[i, F_ATKP] == me:
            incoming += o[i, F_POW]
    dying = incoming >= players.life(st, me)
    best, score, done = -1, 0, 0
    for k in range(n):
        kind = acts[k, AC_KIND]
        if kind == A_BLOCK_DONE:
            done = k
        if kind != A_BLOCK:
            continue
        b, a = acts[k, AC_OBJ], acts[k, AC_ARG]
        if o[a, F_KW] & KW_MENACE:  # 702.111b: two blockers or none
            if _blockers_of(st, a) == 1:
                v = 1000  # complete the pair
                if v > score:
                    best, score = k, v
            continue
        survives = o[a, F_POW] < o[b, F_TOU]
        kills = o[b, F_POW] >= o[a, F_TOU]
        v = 0
        if survives and kills:
            v = 300 + _mv(st, cd, a)
        elif survives:
            v = 200
        elif kills and _mv(st, cd, a) >= _mv(st, cd, b):
            v = 100 + _mv(st, cd, a) - _mv(st, cd, b)
        elif dying:
            v = 10 + o[a, F_POW]
        if v > score:
            best, score = k, v
    return best if best >= 0 else done


@kernel(inline="always")
def _blockers_of(st, a):
    o = st.o
    k = 0
    for b in st.bf[: st.s[S_NBF]]:
        if o[b, F_DSEQ] > 0 and o[b, F_DECL] == a:
            k += 1
    return k


@kernel
def _costliest(st, cd, n):
    best, score = 0, -1
    for k in range(n):
        i = st.acts[k, AC_OBJ]
        if 0 <= i < st.s[S_N]:
            v = _mv(st, cd, i)
            if v > score:
                best, score = k, v
    return best
