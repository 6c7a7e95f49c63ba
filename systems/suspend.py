"""Suspend (702.62) and the plane that gives it, Talon Gates (901).

- 702.62b: a card is suspended while it is in exile, has suspend and has a time counter
  on it. Here a card has suspend by gaining it in exile (F_SUSPEND; no card of the pool
  has it printed).
- Talon Gates: "any time you could cast an instant, you may exile a nonland card from
  your hand with X time counters on it, where X is its mana value; if it doesn't have
  suspend, it gains suspend": a special action of the plane's controller (116.2, like
  suspend's own, 702.62a: it doesn't use the stack, and the player keeps priority).
- 702.62a: at the beginning of its owner's upkeep a suspended card's trigger removes a
  time counter from it (if it's still suspended as it resolves); when the last time
  counter is removed from it (by that or by any effect: Talon Gates' chaos), its other
  trigger lets its owner cast it without paying its mana cost (if they don't, it stays
  exiled); a creature spell cast so has haste while its caster controls it and the
  permanent it becomes (F_SUSP_HASTE, ``haste``). Both triggers are rows of the rules
  every cards arena has (components.cards AB_FROM_END_SUSPEND_TICK / _CAST); the second
  is queued when ``zones.add_counters`` removes the last time counter
  (``last_time_counter``)."""

from __future__ import annotations

from components.cards import AB_FROM_END_SUSPEND_CAST, AB_FROM_END_SUSPEND_TICK, ST_SUSPEND_ANY
from components.game import NEED_SUSPEND, S_N, S_NEEDS
from components.objects import F_CARD, F_CTL, F_CTR, F_KW, F_OWNER, F_SUSP_HASTE, F_SUSPEND, F_ZONE
from components.rules import CTR_TIME, EXILE, KW_HASTE
from systems import command_zone, selectors, triggers, zones
from systems.jit import kernel
from systems.state import touch


@kernel(inline="always")
def suspended(st, i):
    """702.62b: is card i suspended (in exile, with suspend and a time counter)?"""
    o = st.o
    return o[i, F_ZONE] == EXILE and o[i, F_SUSPEND] != 0 and o[i, F_CTR + CTR_TIME] > 0


@kernel
def may_suspend(st, cd, q):
    """May q exile cards from their hand this way now (a face-up Talon Gates q controls;
    the timing, any time q could cast an instant, is the caller's: q has priority)?"""
    if not st.s[S_NEEDS] & NEED_SUSPEND:
        return False
    return command_zone.command_static(st, cd, q, ST_SUSPEND_ANY) > 0


@kernel
def suspend_card(st, cd, q, i):
    """Talon Gates: q exiles card i from their hand with X time counters on it, X its mana
    value (0: none, so it isn't suspended, 702.62b); it gains suspend."""
    n = selectors.mana_value(st, cd, i)
    zones.move(st, cd, i, EXILE, -1)
    o = st.o
    o[i, F_SUSPEND] = 1
    o[i, F_CTR + CTR_TIME] = n
    touch(st)


@kernel
def upkeep(st, cd, p):
    """702.62a: the beginning of p's upkeep: each suspended card p owns triggers ("remove a
    time counter from it"), in object-id order."""
    o = st.o
    a = cd.ab.shape[0] - AB_FROM_END_SUSPEND_TICK
    for i in range(st.s[S_N]):
        if o[i, F_OWNER] == p and o[i, F_CARD] >= 0 and suspended(st, i):
            triggers.queue(st, i, a, p, -1, 0, i, p)


@kernel
def tick(st, cd, i):
    """The upkeep trigger resolves: a time counter is removed from card i if it is still
    suspended (the last one removed, zones.add_counters queues the cast trigger)."""
    if suspended(st, i):
        zones.add_counters(st, cd, i, CTR_TIME, -1)


@kernel
def last_time_counter(st, cd, i):
    """The last time counter was removed from object i: if it is a card with suspend in
    exile, its trigger lets its owner cast it (702.62a)."""
    o = st.o
    if o[i, F_ZONE] == EXILE and o[i, F_SUSPEND]:
        a = cd.ab.shape[0] - AB_FROM_END_SUSPEND_CAST
        triggers.queue(st, i, a, o[i, F_OWNER], -1, 0, i, o[i, F_OWNER])


@kernel(inline="always")
def haste(st, i):
    """Layer 6 (702.62a): a creature cast by suspend has haste while its caster controls
    it; once they lose control of it, it no longer will."""
    o = st.o
    if o[i, F_SUSP_HASTE]:
        if o[i, F_CTL] == o[i, F_SUSP_HASTE] - 1:
            o[i, F_KW] |= KW_HASTE
        else:
            o[i, F_SUSP_HASTE] = 0
