"""Damage, prevention and life (119, 120, 510, 615; 801.13, 800.4e).

``deal_damage`` is the one road every damage event takes: prevention shields
first (615, applied oldest first, a documented default for 616.1), then the
results of damage (120.3): life loss or poison counters (infect) for players,
marked damage or -1/-1 counters for creatures, loyalty loss for planeswalkers,
deathtouch and lifelink, then damage triggers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ecs.actions import is_player_ref, ref_player
from ecs.constants import (
    BATTLEFIELD,
    C_DEFENSE,
    C_LOYALTY,
    C_M1M1,
    KW_DEATHTOUCH,
    KW_INFECT,
    KW_LIFELINK,
    T_BATTLE,
    T_CREATURE,
    T_PLANESWALKER,
)
from ecs.legacy.components.effects import PreventionShield

if TYPE_CHECKING:
    from ecs.game import Game


def _recipient_controller(g: Game, code: int) -> int:
    return ref_player(code) if is_player_ref(code) else int(g.obj.controller[code])


def _prevented_by_statics(g: Game, source: int) -> bool:
    """Static prevention ("prevent all damage that would be dealt by creatures"): it can
    affect only sources within its controller's range of influence (801.13b)."""
    o = g.obj
    for s in g.static_objs:
        if o.zone[s] != BATTLEFIELD:
            continue
        for k, a in g.db.defs[o.card[s]].static:
            if k != "prevent_damage_by":
                continue
            if a == "creatures" and o.zone[source] == BATTLEFIELD and o.types[source] & T_CREATURE:
                if g.obj_in_range(int(o.controller[s]), source):
                    return True
    return False


def prevent(g: Game, source: int, src_ctl: int, target: int, amount: int, combat: bool) -> int:
    """Apply prevention effects; returns the damage left (615, 801.13b)."""
    if g.static_objs and source >= 0 and _prevented_by_statics(g, source):
        return 0
    if not g.world.has_effects:
        return amount
    shields = sorted(g.world.get(PreventionShield), key=lambda t: t[1].timestamp)
    for e, s in shields:
        if amount <= 0:
            break
        if s.combat_only and not combat:
            continue
        if s.recipient is not None:
            if s.recipient != target:
                continue
        else:
            # neither source nor recipient specified: both must be in range (801.13b)
            if not (g.in_range(s.controller, src_ctl) if src_ctl >= 0 else True):
                continue
            if not g.in_range(s.controller, _recipient_controller(g, target)):
                continue
        if s.amount < 0:
            return 0
        used = min(s.amount, amount)
        s.amount -= used
        amount -= used
        if s.amount == 0:
            g.world.delete(e)
    return amount


def redirect(g: Game, source: int, src_ctl: int, target: int, amount: int, combat: bool) -> int:
    """Redirection shields (614.9): move up to their amount to the new recipient. The part
    that would affect a player or object outside the source's controller's range does
    nothing (801.13a). Returns the damage left for the original recipient."""
    from ecs.legacy.components.effects import RedirectShield

    if not g.world.has_effects:
        return amount
    for e, s in sorted(g.world.get(RedirectShield), key=lambda t: t[1].timestamp):
        if amount <= 0 or s.recipient != target or s.amount <= 0:
            continue
        moved = min(s.amount, amount)
        s.amount -= moved
        amount -= moved
        if s.amount == 0:
            g.world.delete(e)
        new = s.new_recipient
        reachable = (
            g.in_range(src_ctl, ref_player(new))
            if is_player_ref(new)
            else g.obj_in_range(src_ctl, new)
        )
        if src_ctl < 0 or reachable:
            deal_damage(g, source, src_ctl, new, moved, combat)
    return amount


def deal_damage(
    g: Game, source: int, src_ctl: int, target: int, amount: int, combat: bool = False
) -> int:
    """Source deals ``amount`` damage to target (object id or player ref). Returns damage dealt."""
    if amount <= 0:
        return 0
    o = g.obj
    if is_player_ref(target):
        p = ref_player(target)
        if not g.pl.alive[p]:  # 800.4e
            return 0
    elif o.zone[target] != BATTLEFIELD:
        return 0
    amount = redirect(g, source, src_ctl, target, amount, combat)
    if amount <= 0:
        return 0
    amount = prevent(g, source, src_ctl, target, amount, combat)
    if amount <= 0:
        return 0
    kw = int(o.kw[source]) if source >= 0 else 0
    if is_player_ref(target):
        p = ref_player(target)
        if kw & KW_INFECT:  # 702.90b; 810.10: poison counters are shared by the team
            for q in _life_sharers(g, p):
                g.pl.poison[q] += amount
        else:
            lose_life(g, p, amount)
    else:
        types = g.db.types[o.card[target]]
        if types & T_CREATURE:
            if kw & KW_INFECT:  # 702.90c
                o.counters[target, C_M1M1] += amount
            else:
                o.damage[target] += amount
            if kw & KW_DEATHTOUCH:
                o.deathtouch_hit[target] = True
        if types & T_PLANESWALKER:  # 120.3c
            o.counters[target, C_LOYALTY] -= min(amount, int(o.counters[target, C_LOYALTY]))
        if types & T_BATTLE:  # 120.3h: damage to a battle removes defense counters
            had = int(o.counters[target, C_DEFENSE])
            o.counters[target, C_DEFENSE] -= min(amount, had)
            if had > 0 and o.counters[target, C_DEFENSE] == 0:
                from ecs.legacy.systems.triggers import defeated

                defeated(g, target)
    if kw & KW_LIFELINK and src_ctl >= 0:  # 702.15b
        gain_life(g, src_ctl, amount)
    g.dirty = True
    from ecs.legacy.systems.triggers import damage_dealt

    damage_dealt(g, source, src_ctl, target, amount, combat)
    g.world.emit("damage", source, target, amount, combat)
    return amount


def _life_sharers(g: Game, p: int) -> list[int]:
    """810.9: life changes happen to each player and apply to the team's shared total."""
    return g.teammates(p) if g.shared_life else [p]


def cant_gain_life(g: Game, p: int) -> bool:
    """ "You can't gain life" (Platinum Emperion); with a shared life total no player on
    that player's team can gain life (810.9g)."""
    if "cant_gain_life" not in g.static_kinds:  # no card of this game says so
        return False
    from ecs.legacy.systems.state_based_actions import team_has_static

    return team_has_static(g, p, "cant_gain_life")


def cant_lose_life(g: Game, p: int) -> bool:
    """ "You can't lose life": nor pay any amount of life but 0; with a shared life total
    no player on that player's team can (810.9h)."""
    if "cant_lose_life" not in g.static_kinds:
        return False
    from ecs.legacy.systems.state_based_actions import team_has_static

    return team_has_static(g, p, "cant_lose_life")


def lose_life(g: Game, p: int, amount: int) -> None:
    if amount <= 0 or not g.pl.alive[p] or cant_lose_life(g, p):
        return
    for q in _life_sharers(g, p):
        if q != p:
            g.pl.life[q] -= amount
    g.pl.life[p] -= amount
    g.dirty = True
    g.pl.life_lost_turn[p] += amount
    from ecs.legacy.systems.triggers import life_lost

    life_lost(g, p, amount)


def gain_life(g: Game, p: int, amount: int) -> None:
    if amount <= 0 or not g.pl.alive[p] or cant_gain_life(g, p):
        return
    for q in _life_sharers(g, p):
        if q != p:
            g.pl.life[q] += amount
    g.pl.life[p] += amount
    g.dirty = True
    from ecs.legacy.systems.triggers import life_gained

    life_gained(g, p, amount)


def set_life(g: Game, p: int, value: int) -> None:
    """119.5: setting a life total means gaining or losing the difference."""
    cur = int(g.pl.life[p])
    if value < cur:
        lose_life(g, p, cur - value)
    elif value > cur:
        gain_life(g, p, value - cur)
