"""Triggered abilities (603): detection, intervening "if", and putting them on the stack.

Events call the hooks below; a trigger is queued only if its event happened
entirely within the range of influence of its source's controller (801.7) and
its intervening "if" holds (603.4). Queued triggers go on the stack the next
time a player would receive priority, active player first, then the others in
turn order (603.3b, 101.4); a trigger whose controller left is dropped (800.4d).
State triggers (603.8) are checked with the state-based actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.constants import BATTLEFIELD, STACK, T_CREATURE
from ecs.legacy.components.stack import StackItem

if TYPE_CHECKING:
    from ecs.game import Game
    from ecs.legacy.cards import Ability


def _trigger_index(g: Game) -> dict[str, np.ndarray]:
    """Card indexes that have a trigger of each kind (cached on the card db)."""
    db = g.db
    idx = getattr(db, "_trigger_index", None)
    if idx is None:
        kinds: dict[str, list[int]] = {}
        for d in db.defs:
            for t in d.triggers:
                kinds.setdefault(t.when, []).append(d.index)
        idx = {k: np.zeros(len(db.defs), dtype=np.bool_) for k in kinds}
        for k, v in kinds.items():
            idx[k][v] = True
        db._trigger_index = idx
    return idx


def _sources(g: Game, when: str) -> list[int]:
    if when not in g.trigger_kinds:
        return []
    idx = _trigger_index(g).get(when)
    if idx is None:
        return []
    o = g.obj
    n = o.n
    card = o.card[:n]
    mask = (o.zone[:n] == BATTLEFIELD) & (card >= 0)
    mask &= idx[np.where(card >= 0, card, 0)]
    return [int(i) for i in np.flatnonzero(mask)]


def condition_holds(g: Game, source: int, controller: int, cond) -> bool:
    if cond is None:
        return True
    if cond == "self_untapped":
        return g.obj.zone[source] == BATTLEFIELD and not g.obj.tapped[source]
    if isinstance(cond, dict) and "life_at_least" in cond:
        return int(g.pl.life[controller]) >= cond["life_at_least"]
    raise ValueError(f"unknown condition {cond!r}")


def _queue(g: Game, source: int, when: str, event: dict, in_range_of: list[int]) -> None:
    o = g.obj
    ctl = int(o.controller[source])
    if not all(g.in_range(ctl, q) for q in in_range_of if q >= 0):  # 801.7
        return
    for ab in g.db.defs[o.card[source]].triggers:
        if ab.when == when and condition_holds(g, source, ctl, ab.condition):
            g.triggers.append((source, ab, ctl, dict(event)))


def entered_battlefield(g: Game, i: int) -> None:
    o = g.obj
    if "enters" in g.trigger_kinds:
        for ab in g.db.defs[o.card[i]].triggers:
            if ab.when == "enters":
                g.triggers.append((i, ab, int(o.controller[i]), {"object": i}))
    if o.token[i] or not (g.db.types[o.card[i]] & T_CREATURE):
        return
    from ecs.legacy.systems.continuous_effects import recompute

    recompute(g)
    ctl = int(o.controller[i])
    for s in _sources(g, "nontoken_creature_enters"):
        _queue(g, s, "nontoken_creature_enters", {"controller": ctl, "object": i}, [ctl])


def left_battlefield(g: Game, i: int, last_controller: int, was_creature: bool) -> None:
    """Leaves-the-battlefield abilities look back in time (603.10a): whether the event was
    within range uses the creature's controller as it last existed there (801.7a); sources
    leaving at the same time still see it (``g.lookback`` during simultaneous moves)."""
    if not was_creature or "another_creature_leaves" not in g.trigger_kinds:
        return
    sources = g.lookback if g.lookback is not None else _sources(g, "another_creature_leaves")
    for s in sources:
        if s != i:
            _queue(g, s, "another_creature_leaves", {"object": i}, [last_controller])


def became_blocked(g: Game, attacker: int, blockers: list[int]) -> None:
    """509.3c-d: Auras watching the enchanted creature become blocked. The event "becomes
    blocked" involves the attacker only; "becomes blocked by a creature" involves each
    blocker too, so it must also happen within range (801.7)."""
    o = g.obj
    ctl = int(o.controller[attacker])
    for s in _sources(g, "enchanted_becomes_blocked"):
        if o.attached_to[s] == attacker:
            _queue(g, s, "enchanted_becomes_blocked", {"object": attacker}, [ctl])
    for s in _sources(g, "enchanted_blocked_by_creature"):
        if o.attached_to[s] == attacker:
            for b in blockers:
                ev = {"object": attacker, "blocker": b}
                _queue(g, s, "enchanted_blocked_by_creature", ev, [ctl, int(o.controller[b])])


def defeated(g: Game, i: int) -> None:
    """310.11: the last defense counter was removed from battle i."""
    if g.obj.zone[i] == BATTLEFIELD:
        _queue(g, i, "defeated", {"object": i}, [])


def damage_dealt(
    g: Game, source: int, src_ctl: int, target: int, amount: int, combat: bool
) -> None:
    from ecs.actions import is_player_ref, ref_player

    if source < 0 or g.obj.zone[source] != BATTLEFIELD or not is_player_ref(target):
        return
    p = ref_player(target)
    card = g.obj.card[source]
    if card < 0 or "deals_damage_to_opponent" not in g.trigger_kinds:
        return
    if not _trigger_index(g)["deals_damage_to_opponent"][card]:
        return
    if g.pl.team[p] != g.pl.team[src_ctl]:
        _queue(g, source, "deals_damage_to_opponent", {"player": p, "amount": amount}, [p])


def life_gained(g: Game, p: int, amount: int) -> None:
    for s in _sources(g, "any_player_gains_life"):
        _queue(g, s, "any_player_gains_life", {"player": p, "amount": amount}, [p])


def life_lost(g: Game, p: int, amount: int) -> None:
    for s in _sources(g, "any_player_loses_life"):
        _queue(g, s, "any_player_loses_life", {"player": p, "amount": amount}, [p])
    for s in _sources(g, "you_lose_life"):
        if g.obj.controller[s] == p:
            _queue(g, s, "you_lose_life", {"player": p, "amount": amount}, [p])


def has_delayed(g: Game, when: str) -> bool:
    if not g.world.has_effects:
        return False
    from ecs.legacy.components.effects import DelayedTrigger

    return any(d.when == when for _, d in g.world.get(DelayedTrigger))


def delayed(g: Game, when: str) -> None:
    """603.7: delayed triggered abilities whose moment has come trigger once, then end."""
    if not g.world.has_effects:
        return
    from ecs.legacy.components.effects import DelayedTrigger

    for e, d in g.world.get(DelayedTrigger):
        if d.when == when:
            g.world.delete(e)
            if g.obj.timestamp[d.obj] != d.obj_timestamp:
                continue  # "it" became a new object (400.7): there is nothing to exile
            g.triggers.append((d.obj, d.ability, d.controller, {"object": d.obj}))


def beginning_of_upkeep(g: Game) -> None:
    for s in _sources(g, "your_upkeep"):
        ctl = int(g.obj.controller[s])
        if g.is_active(ctl):  # 805.4d: each player on the active team has an upkeep
            _queue(g, s, "your_upkeep", {"player": ctl}, [ctl])


def last_counter_removed(g: Game, i: int) -> None:
    if g.obj.zone[i] == BATTLEFIELD:
        _queue(g, i, "last_counter_removed", {"object": i}, [])


def state_triggers(g: Game) -> None:
    """603.8: a state trigger triggers once, then not again while it is pending."""
    for s in _sources(g, "life_at_least"):
        ctl = int(g.obj.controller[s])
        for ab in g.db.defs[g.obj.card[s]].triggers:
            if ab.when != "life_at_least" or g.pl.life[ctl] < ab.amount:
                continue
            pending = any(t[0] == s and t[1] is ab for t in g.triggers) or any(
                it.source == s and it.ability is ab for it in g.items.values()
            )
            if not pending:
                g.triggers.append((s, ab, ctl, {"player": ctl}))


def put_triggers_on_stack(g: Game) -> bool:
    """603.3b: APNAP order; each player's triggers in the order they triggered."""
    if not g.triggers:
        return False
    queued, g.triggers = g.triggers, []
    any_put = False
    for p in g.apnap():
        for source, ab, ctl, event in queued:
            if ctl != p or not g.pl.alive[p]:  # 800.4d
                continue
            i = g.new_object(-1, p, STACK)
            g.obj.source[i] = source
            targets = choose_trigger_targets(g, p, ab, source)
            if targets is None:
                g.obj.zone[i] = 7
                continue
            g.items[i] = StackItem(
                controller=p, ability=ab, targets=targets, source=source, event=event
            )
            g.stack.append(i)
            any_put = True
    return any_put


def choose_trigger_targets(g: Game, p: int, ab: Ability, source: int) -> tuple[int, ...] | None:
    """Default target choice for a trigger: the first legal target of each kind (fixed order)."""
    if not ab.targets:
        return ()
    from ecs.legacy.systems.stack import target_candidates

    out = []
    for kind in ab.targets:
        cands = [c for c in target_candidates(g, p, kind, source) if c not in out]
        # players: opponents first (turn order from p's left), then p (documented default)
        cands.sort(key=lambda c: c == -1 - p)
        if not cands:
            return None  # 603.3d: removed from the stack if no legal targets
        out.append(cands[0])
    return tuple(out)
