"""Merged permanents (727) and mutate (702.140).

A merged permanent is one object on the battlefield represented by several cards (or
tokens). Its row is the permanent that was there first (the mutate target): the same
object, so effects on it go on applying, it stays attacking, it isn't summoning sick
anew (727.2b-c). The other components are rows with zone GONE and ``F_MERGED_IN``
pointing at it. The components are kept in order, top first: the permanent's
``F_TOP`` (1 + the topmost component; 0 when it is on top itself), then each
component's ``F_MERGED`` is the next one under it (-1 after the last); the permanent's
own row is somewhere in that chain.

- Characteristics are the topmost component's (727.2a: ``continuous_effects.face``),
  but a mutated permanent has the abilities of every component (702.140e): the
  keywords of all, and their triggered, activated and static abilities (triggers,
  legal_actions and continuous_effects look at each component's card).
- It is a token only if its topmost component is (727.2d).
- Leaving the battlefield, every component goes to the same zone (727.3); tokens among
  them cease to exist; an effect that finds "that card" finds them all (727.3c:
  ``F_LEFT_WITH``).
- A mutating creature spell whose target is still legal merges with it on top or under
  it as it resolves (its controller chooses: PEND_POSITION), which is not entering the
  battlefield (727.2b), and "whenever this creature mutates" triggers (EV_MUTATES); with
  the target illegal it enters as a creature of its own (702.140b; systems/stack.py)."""

from __future__ import annotations

from components.cards import C_BACK, C_KW, EV_MUTATES
from components.game import S_N, S_NSTK
from components.objects import (
    F_CARD,
    F_CASTING,
    F_COPY,
    F_CTL,
    F_LEFT_WITH,
    F_LKI_CTL,
    F_MELDED,
    F_MERGED,
    F_MERGED_IN,
    F_TOKEN,
    F_TOP,
    F_TRANSFORMED,
    F_ZONE,
)
from components.rules import COMMAND, GONE
from systems import triggers, zones
from systems.jit import kernel
from systems.state import remove_value, touch


@kernel(inline="always")
def is_merged(st, i):
    return st.o[i, F_TOP] > 0 or st.o[i, F_MERGED] >= 0


@kernel(inline="always")
def mutated(st, i):
    """Does permanent i have the abilities of several cards (702.140e: a merged permanent,
    not a melded one, whose face is its melded back face alone: 712.4a)?"""
    return (st.o[i, F_TOP] > 0 or st.o[i, F_MERGED] >= 0) and not st.o[i, F_MELDED]


@kernel(inline="always")
def top(st, i):
    """The topmost component of permanent i (i itself unless something is on it)."""
    t = st.o[i, F_TOP]
    return t - 1 if t > 0 else i


@kernel(inline="always")
def card_face(st, cd, j):
    """The card row component j shows (its back face when transformed, 712)."""
    c = st.o[j, F_CARD]
    if c >= 0 and st.o[j, F_TRANSFORMED] and cd.ct[c, C_BACK] >= 0:
        return cd.ct[c, C_BACK]
    return c


@kernel(inline="always")
def is_token(st, i):
    """727.2d: a merged permanent is a token only if its topmost component is one."""
    return st.o[top(st, i), F_TOKEN] == 1


@kernel
def other_keywords(st, cd, i):
    """702.140e: the keywords of the components under the top one (with the top one's
    own, the permanent's printed keywords)."""
    kw = 0
    t = top(st, i)
    j = t
    while j >= 0:
        if j != t:
            c = card_face(st, cd, j)
            if c >= 0:
                kw |= cd.ct[c, C_KW]
        j = st.o[j, F_MERGED]
    return kw


@kernel
def merge(st, cd, i, perm, on_top):
    """727.2: the mutating spell i merges with permanent ``perm``: it leaves the stack and
    becomes a component, on top of it or under it (not entering the battlefield, 727.2b);
    then "whenever this creature mutates" triggers (702.140d)."""
    o, s = st.o, st.s
    s[S_NSTK] = remove_value(st.stk, s[S_NSTK], i)
    o[i, F_ZONE] = GONE
    o[i, F_CASTING] = 0
    o[i, F_MERGED_IN] = perm
    o[i, F_CTL] = o[perm, F_CTL]
    if on_top:
        o[i, F_MERGED] = top(st, perm)
        o[perm, F_TOP] = i + 1
    else:
        j = top(st, perm)
        while o[j, F_MERGED] >= 0:
            j = o[j, F_MERGED]
        o[j, F_MERGED] = i
        o[i, F_MERGED] = -1
    touch(st)
    triggers.event(st, cd, EV_MUTATES, perm, -1, 0, o[perm, F_CTL])


@kernel
def meld(st, cd, a, b, p):
    """701.42a, 712.4: cards a and b, just exiled, become one melded permanent under p: a's
    back face (the melded card's), with b merged in under it (one object represented by
    two cards: it leaves as a merged permanent does, 727.3). It enters the battlefield
    as a new object: summoning sick, its entering triggers (603.6a)."""
    o = st.o
    zones.move_one(st, cd, b, GONE, -1)
    o[b, F_MERGED_IN] = a
    o[b, F_MERGED] = -1
    o[a, F_MERGED] = b
    o[a, F_TOP] = 0
    o[a, F_MELDED] = 1
    zones.enter_battlefield(st, cd, a, p, -1, 0)


@kernel
def leave(st, cd, i, zone, controller):
    """727.3: merged permanent i leaves the battlefield: one permanent leaves, and each of
    its components is put into that zone (a token component ceases to exist); the
    new objects are found together (727.3c: F_LEFT_WITH)."""
    o = st.o
    j = top(st, i)
    o[i, F_TOP] = 0
    rest = o[i, F_MERGED]
    order_first = j
    zones.move_one(st, cd, i, zone, controller)  # the permanent itself: the events (603.6c)
    j = order_first
    while j >= 0:
        nxt = o[j, F_MERGED] if j != i else rest
        if j != i:
            o[j, F_MERGED] = -1
            if not o[j, F_COPY]:  # (a token copy's parts stay its parts: gone with it)
                o[j, F_MERGED_IN] = -1
            o[j, F_LKI_CTL] = o[i, F_LKI_CTL]
            if o[j, F_TOKEN] == 0:  # (where i went, unless a commander's replacement took it)
                to = zone if o[i, F_ZONE] == COMMAND and zone != COMMAND else o[i, F_ZONE]
                zones.move_one(st, cd, j, to, -1)
                o[j, F_LEFT_WITH] = i + 1
        j = nxt
    touch(st)


@kernel
def token_copy(st, cd, i, p):
    """707.2: a token that's a copy of permanent i enters under p: the copiable values of
    a merged permanent include its merging (727.2a), so the copy is a token with the
    topmost component's characteristics and the abilities of every component (its other
    components are token parts of it, F_COPY: it is one token). Returns it (-1: full)."""
    o = st.o
    t = top(st, i)
    x = zones.new_object(st, cd, o[t, F_CARD], p, GONE)
    if x < 0:
        return -1
    o[x, F_TOKEN] = 1
    o[x, F_COPY] = 1
    if o[i, F_MELDED]:  # (a melded permanent's copiable values: its melded face, 712.4a)
        o[x, F_MELDED] = 1
        zones.enter_battlefield(st, cd, x, p, -1, 0)
        return x
    prev = x
    j = t
    while j >= 0:
        if j != t:
            k = zones.new_object(st, cd, o[j, F_CARD], p, GONE)
            if k < 0:
                return -1
            o[k, F_TOKEN] = 1
            o[k, F_COPY] = 1
            o[k, F_MERGED_IN] = x
            o[prev, F_MERGED] = k
            prev = k
        j = o[j, F_MERGED]
    zones.enter_battlefield(st, cd, x, p, -1, 0)
    return x


@kernel
def found_with(st, i, out):
    """727.3c: the other new objects merged permanent i became as it left the
    battlefield (in the zone i is in now), into out; returns how many."""
    o = st.o
    m = 0
    for j in range(st.s[S_N]):
        if o[j, F_LEFT_WITH] == i + 1 and o[j, F_ZONE] == o[i, F_ZONE] and m < out.shape[0]:
            out[m] = j
            m += 1
    return m
