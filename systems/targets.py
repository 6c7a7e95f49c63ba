"""Targets (115) with the range of influence (801.4), hexproof, shroud and protection
(702.11, 702.18, 702.16b): which objects and players a target spec can name, and
whether a chosen target is still legal as the spell or ability resolves (608.2b).

Candidates come in one documented order: objects in id order (permanents, or the
spells on the stack, or cards in the filter's zone), then players in turn order
starting with the player to the chooser's left, the chooser last (so a default
choice names an opponent)."""

from __future__ import annotations

from components.cards import G_COUNT, G_FILTER, L_WHAT, L_ZONE, W_OBJECTS, W_PLAYERS
from components.game import S_N, S_NBF, S_NSTK
from components.objects import F_COLORS, F_CTL, F_ICTL, F_KW, F_OWNER, F_PROT, F_ZONE
from components.players import P_ALIVE
from components.rules import BATTLEFIELD, KW_HEXPROOF, KW_SHROUD, STACK
from components.scratch import SCR_COUNT_TARGETS, SCR_TARGET_PLAYERS
from systems import players, selectors
from systems.jit import kernel


@kernel
def legal(st, cd, spec, x, you, src, item):
    """Can the spell or ability (controller ``you``, source ``src``) target x with
    target spec row ``spec``?"""
    f = cd.tg[spec, G_FILTER]
    o = st.o
    if x < 0:
        q = -1 - x
        if q >= st.pl.shape[0] or not st.pl[q, P_ALIVE] or not players.in_range(st, you, q):
            return False
        return selectors.matches(st, cd, f, x, you, src, item)
    if x >= st.s[S_N]:
        return False
    z = o[x, F_ZONE]
    ctl = o[x, F_CTL] if z == BATTLEFIELD else (o[x, F_ICTL] if z == STACK else o[x, F_OWNER])
    if not players.in_range(st, you, ctl):  # 801.4
        return False
    if z == BATTLEFIELD:
        kw = o[x, F_KW]
        if kw & KW_SHROUD:
            return False
        if kw & KW_HEXPROOF and players.is_opponent(st, you, ctl):
            return False
        if src >= 0 and o[x, F_PROT] & o[src, F_COLORS]:
            return False
    return selectors.matches(st, cd, f, x, you, src, item)


@kernel
def candidates(st, cd, spec, you, chooser, src, item, out, limit):
    """The legal targets of spec (for ``you``'s spell or ability; ``chooser`` picks them:
    801.5a, they must be in the chooser's range too), at most ``limit``, in the
    documented order. Returns how many."""
    f = cd.tg[spec, G_FILTER]
    what = cd.fl[f, L_WHAT]
    o = st.o
    m = 0
    if what & W_OBJECTS:
        z = cd.fl[f, L_ZONE]
        if z == BATTLEFIELD:
            for i in st.bf[: st.s[S_NBF]]:
                if m < limit and _ok(st, cd, spec, i, you, chooser, src, item):
                    out[m] = i
                    m += 1
        elif z == STACK:
            for k in range(st.s[S_NSTK]):
                i = st.stk[k]
                if m < limit and _ok(st, cd, spec, i, you, chooser, src, item):
                    out[m] = i
                    m += 1
        else:
            for i in range(st.s[S_N]):
                if m < limit and (z < 0 or o[i, F_ZONE] == z):
                    if _ok(st, cd, spec, i, you, chooser, src, item):
                        out[m] = i
                        m += 1
    if what & W_PLAYERS:  # the players to the chooser's left first, the chooser last
        buf = st.scr[SCR_TARGET_PLAYERS]
        k = players.turn_order_from(st, chooser, buf)
        for j in range(1, k + 1):
            q = buf[j % k]
            if m < limit and _ok(st, cd, spec, -1 - q, you, chooser, src, item):
                out[m] = -1 - q
                m += 1
    return m


@kernel(inline="always")
def _ok(st, cd, spec, x, you, chooser, src, item):
    if not legal(st, cd, spec, x, you, src, item):
        return False
    if chooser == you:
        return True
    ctl = -1 - x if x < 0 else st.o[x, F_CTL]
    return players.in_range(st, chooser, ctl)


@kernel
def count_available(st, cd, spec, you, chooser, src, item, need):
    """How many legal targets spec has, counting no further than ``need``."""
    buf = st.scr[SCR_COUNT_TARGETS]
    return candidates(st, cd, spec, you, chooser, src, item, buf, need)


@kernel(inline="always")
def needed(cd, spec):
    return cd.tg[spec, G_COUNT]
