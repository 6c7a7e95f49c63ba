"""Mana abilities, the mana pool and paying costs (106, 107.4, 601.2g-h, 605).

Costs are paid automatically: first from the mana pool, then by tapping the
player's untapped mana sources in a fixed order (lowest object id first),
coloured symbols before generic. ``pay`` may name the sources to tap instead.
Planning never changes the state, so an unpayable cost is refused cleanly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.actions import IllegalAction
from ecs.constants import BATTLEFIELD
from ecs.legacy.cards import ManaCost

if TYPE_CHECKING:
    from ecs.game import Game


def mana_sources(g: Game, p: int) -> list[tuple[int, int]]:
    """Untapped permanents p controls with a {T}: Add mana ability: (object, colour index)."""
    key = (g.version, p)
    hit = g._mana_cache.get(key)
    if hit is not None:
        return list(hit)
    if len(g._mana_cache) > 64:
        g._mana_cache.clear()
    out = _mana_sources(g, p)
    g._mana_cache[key] = out
    return list(out)


def _mana_sources(g: Game, p: int) -> list[tuple[int, int]]:
    o = g.obj
    n = o.n
    card = o.card[:n]
    col = g.db.mana_color[np.where(card >= 0, card, 0)]
    m = (
        (o.zone[:n] == BATTLEFIELD)
        & (o.controller[:n] == p)
        & ~o.tapped[:n]
        & (col >= 0)
        & (card >= 0)
    )
    idx = np.flatnonzero(m)
    return list(zip(idx.tolist(), col[idx].tolist()))


def plan_payment(
    g: Game, p: int, cost: ManaCost, x: int = 0, pay: list[int] | None = None
) -> tuple[list[int], np.ndarray]:
    """Which sources to tap and what is left in the pool afterwards. Raises if unpayable."""
    pool = g.pl.mana[p].copy()
    if pay is not None:
        srcs = dict(mana_sources(g, p))
        for i in pay:
            if i not in srcs:
                raise IllegalAction(f"{g.name_of(i)} is not an untapped mana source you control")
            pool[srcs[i]] += 1
        taps = list(pay)
        available: list[tuple[int, int]] = []
    else:
        taps = []
        available = mana_sources(g, p)
    need = np.array(cost.colored, dtype=np.int32)
    for c in range(6):
        use = min(need[c], pool[c])
        pool[c] -= use
        need[c] -= use
        while need[c] > 0:
            k = next((k for k, (_, col) in enumerate(available) if col == c), None)
            if k is None:
                raise IllegalAction(
                    f"cannot pay {cost_text(cost, x)}: not enough {'WUBRGC'[c]} mana"
                )
            taps.append(available.pop(k)[0])
            need[c] -= 1
    generic = cost.generic + (x if cost.x else 0)
    for c in (5, 0, 1, 2, 3, 4):  # colourless first, then colours in WUBRG order
        use = min(generic, pool[c])
        pool[c] -= use
        generic -= use
    while generic > 0:
        if not available:
            raise IllegalAction(f"cannot pay {cost_text(cost, x)}: not enough mana")
        taps.append(available.pop(0)[0])
        generic -= 1
    return taps, pool


def pay(g: Game, p: int, taps: list[int], pool: np.ndarray) -> None:
    for i in taps:
        g.obj.tapped[i] = True
    g.pl.mana[p] = pool
    g.dirty = True


def available_mana(g: Game, p: int) -> int:
    return sum(colour_counts(g, p))


def can_pay(g: Game, p: int, cost: ManaCost, x: int = 0) -> bool:
    """Exact and O(1) for sources that each make one colour: every coloured symbol needs
    that colour (pool or source), and the total must cover the mana value."""
    if cost.mana_value + x == 0:
        return True
    have = colour_counts(g, p)
    total = 0
    for c in range(6):
        if cost.colored[c] > have[c]:
            return False
        total += have[c]
    return cost.mana_value + (x if cost.x else 0) <= total


def colour_counts(g: Game, p: int) -> list[int]:
    """Mana p could have by colour: the pool plus one per untapped source of that colour."""
    key = (g.version, p, "colours")
    hit = g._mana_cache.get(key)
    if hit is None:
        hit = [int(v) for v in g.pl.mana[p]]
        for _, c in mana_sources(g, p):
            hit[c] += 1
        g._mana_cache[key] = hit
    return hit


def cost_text(cost: ManaCost, x: int = 0) -> str:
    s = "{X}" if cost.x else ""
    if cost.generic:
        s += "{%d}" % cost.generic
    for c, k in zip("WUBRGC", cost.colored):
        s += ("{%s}" % c) * k
    return (s or "{0}") + (f" with X={x}" if cost.x else "")


def empty_pools(g: Game) -> None:
    """500.4: mana empties from each player's pool at the end of each step and phase (in
    Grand Melee, of the players taking part in this marker's turn: those in range)."""
    if g.markers:
        for q in range(g.n_players):
            if g.range_mask[q, g.active]:
                g.pl.mana[q] = 0
        return
    g.pl.mana[:] = 0
