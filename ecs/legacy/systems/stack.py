"""Casting spells, activating abilities, targets and resolution (601, 602, 115, 608).

Every check happens before anything changes: ``check_cast`` and
``check_activate`` return a plan or raise :class:`IllegalAction`, and only then
``cast`` / ``activate`` carry it out (730.1). Targets must be within the
caster's range of influence (801.4) and abilities can only be activated on
objects in range (801.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.actions import IllegalAction, is_player_ref, player_ref, ref_player
from ecs.constants import (
    BATTLEFIELD,
    C_LOYALTY,
    COMMAND,
    GONE,
    GRAVEYARD,
    HAND,
    KW_HASTE,
    MAIN1,
    MAIN2,
    STACK,
    T_BATTLE,
    T_CREATURE,
    T_INSTANT,
    T_LAND,
    T_PERMANENT,
    T_PLANESWALKER,
)
from ecs.legacy.systems.mana import plan_payment

if TYPE_CHECKING:
    from ecs.game import Game
    from ecs.legacy.cards import Ability


# ----------------------------------------------------------------- targets (115)
def _perm_types(g: Game, i: int) -> int:
    c = g.obj.card[i]
    return int(g.db.types[c]) if c >= 0 else 0


def target_ok(g: Game, p: int, kind: str, code: int, source: int = -1) -> bool:
    """Is ``code`` a legal target of this kind for player p (115, 801.4)?"""
    if is_player_ref(code):
        q = ref_player(code)
        if not (0 <= q < g.n_players) or not g.in_range(p, q):
            return False
        if kind in ("any", "player", "player_or_planeswalker"):
            return True
        if kind == "opponent":
            return g.pl.team[q] != g.pl.team[p]
        if kind == "teammate":
            return q != p and g.pl.team[q] == g.pl.team[p]
        return False
    if not (0 <= code < g.obj.n) or g.obj.zone[code] != BATTLEFIELD:
        return False
    if not g.obj_in_range(p, code):
        return False
    t = _perm_types(g, code)
    if kind == "any":  # 115.4: creature, player, planeswalker or battle
        return bool(t & (T_CREATURE | T_PLANESWALKER | T_BATTLE))
    if kind == "creature":
        return bool(t & T_CREATURE)
    if kind == "player_or_planeswalker":
        return bool(t & T_PLANESWALKER)
    if kind == "land":
        return bool(t & T_LAND)
    if kind == "permanent":
        return True
    if kind == "creature_you_control":
        return bool(t & T_CREATURE) and g.obj.controller[code] == p and code != source
    return False


_KIND_TYPES = {
    "any": T_CREATURE | T_PLANESWALKER | T_BATTLE,
    "creature": T_CREATURE,
    "player_or_planeswalker": T_PLANESWALKER,
    "land": T_LAND,
    "permanent": -1,
    "creature_you_control": T_CREATURE,
}


def target_candidates(g: Game, p: int, kind: str, source: int = -1) -> list[int]:
    """All legal targets of a kind, in a fixed order: permanents by object id, then
    players in turn order starting with p."""
    key = (g.version, g.turn, p, kind, source)
    hit = g._target_cache.get(key)
    if hit is not None:
        return hit
    if len(g._target_cache) > 256:
        g._target_cache.clear()
    o = g.obj
    out: list[int] = []
    bits = _KIND_TYPES.get(kind)
    if bits is not None:  # vectorised: permanents of the right type, controlled within range
        n = o.n
        m = (o.zone[:n] == BATTLEFIELD) & ((o.types[:n] & bits) != 0)
        ctl = o.controller[:n]
        m &= g.range_mask[p][ctl] & g.pl.alive[ctl]
        if bits & T_BATTLE:  # 801.2d: a battle is also in range through its protector
            prot = o.protector[:n]
            m |= (
                (o.zone[:n] == BATTLEFIELD)
                & ((o.types[:n] & T_BATTLE) != 0)
                & (prot >= 0)
                & g.range_mask[p][prot]
            )
        if kind == "creature_you_control":
            m &= o.controller[:n] == p
            if 0 <= source < n:
                m[source] = False
        out = np.flatnonzero(m).tolist()
    if kind in ("any", "player", "opponent", "teammate", "player_or_planeswalker"):
        for q in g.turn_order_from(p):
            if target_ok(g, p, kind, player_ref(q), source):
                out.append(player_ref(q))
    g._target_cache[key] = out
    return out


def check_targets(
    g: Game, p: int, kinds: tuple[str, ...], targets: tuple[int, ...], source: int, what: str
) -> None:
    if len(targets) != len(kinds):
        raise IllegalAction(f"{what} needs {len(kinds)} target(s), got {len(targets)}")
    if len(set(targets)) != len(targets):
        raise IllegalAction(
            f"{what}: the same object or player can't be chosen twice for one 'target' word"
        )
    for kind, t in zip(kinds, targets):
        if not target_ok(g, p, kind, t, source):
            raise IllegalAction(
                f"{what}: {describe(g, t)} is not a legal {kind} target for {g.names[p]}"
            )


def describe(g: Game, code: int) -> str:
    if is_player_ref(code):
        q = ref_player(code)
        return g.names[q] if 0 <= q < g.n_players else f"player #{q}"
    return g.name_of(code) if 0 <= code < g.obj.n else f"object #{code}"


# ----------------------------------------------------------------- timing
def sorcery_timing(g: Game, p: int) -> bool:
    """307.1: main phase of your turn with an empty stack."""
    return p in g.active_players and g.step_no in (MAIN1, MAIN2) and not g.stack


def _has_priority(g: Game, p: int) -> None:
    d = g.pending
    team_ok = (  # 805.5a: any player on the team that has priority may act
        g.team_turns
        and d is not None
        and d.kind == "priority"
        and g.pl.team[d.player] == g.pl.team[p]
    )
    if d is None or d.kind != "priority" or (d.player != p and not team_ok):
        who = g.names[d.player] if d is not None and 0 <= d.player < g.n_players else "nobody"
        what = d.kind if d is not None else "nothing"
        raise IllegalAction(f"{g.names[p]} does not have priority (pending: {what} for {who})")


# ----------------------------------------------------------------- lands (305)
def check_play_land(g: Game, p: int, i: int) -> None:
    _has_priority(g, p)
    if not (0 <= i < g.obj.n) or g.obj.zone[i] != HAND or g.obj.owner[i] != p:
        raise IllegalAction(f"{describe(g, i)} is not in {g.names[p]}'s hand")
    if not _perm_types(g, i) & T_LAND:
        raise IllegalAction(f"{g.name_of(i)} is not a land")
    if not sorcery_timing(g, p):
        raise IllegalAction(
            "a land can be played only in your main phase with an empty stack (305.1)"
        )
    if g.pl.lands_played[p] >= 1:
        raise IllegalAction(f"{g.names[p]} has already played a land this turn (305.2)")


def play_land(g: Game, p: int, i: int) -> None:
    from ecs.legacy.systems.zones import enter_battlefield

    check_play_land(g, p, i)
    g.pl.lands_played[p] += 1
    enter_battlefield(g, i, p)
    g.passes = 0


# ----------------------------------------------------------------- casting (601)
def check_cast(
    g: Game,
    p: int,
    i: int,
    targets: tuple[int, ...],
    x: int,
    pay: list[int] | None,
    chooser: int | None = None,
):
    _has_priority(g, p)
    o = g.obj
    if not (0 <= i < o.n) or o.owner[i] != p or o.zone[i] not in (HAND, COMMAND):
        raise IllegalAction(f"{describe(g, i)} is not in {g.names[p]}'s hand")
    d = g.db.defs[o.card[i]]
    if d.types & T_LAND:
        raise IllegalAction(f"{d.name} is a land: play it, don't cast it")
    if not d.types & T_INSTANT and not sorcery_timing(g, p):
        raise IllegalAction(
            f"{d.name} can be cast only in {g.names[p]}'s main phase with an empty stack (307.1)"
        )
    if x < 0 or (x and not d.cost.x):
        raise IllegalAction(f"{d.name}: X={x} is not allowed")
    kinds = d.spell.targets if d.spell else ()
    check_targets(g, p, kinds, tuple(targets), i, d.name)
    if chooser is not None:  # the opponent who will choose for this spell (801.5a)
        from ecs.legacy.systems.choices import opponent_chooser

        opponent_chooser(g, p, chooser)
    return plan_payment(g, p, d.cost, x, pay)


def cast(
    g: Game,
    p: int,
    i: int,
    targets: tuple[int, ...] = (),
    x: int = 0,
    pay=None,
    chooser: int | None = None,
) -> None:
    from ecs.legacy.components.stack import StackItem
    from ecs.legacy.systems.mana import pay as pay_mana
    from ecs.legacy.systems.zones import move

    taps, pool = check_cast(g, p, i, tuple(targets), x, pay, chooser)
    d = g.db.defs[g.obj.card[i]]
    move(g, i, STACK, controller=p)
    g.stack.append(i)
    event = {} if chooser is None else {"opponent": chooser}
    g.items[i] = StackItem(p, d.spell, tuple(targets), x, source=i, is_spell=True, event=event)
    if d.spell is not None and d.spell.modes and d.spell.mode_chooser == "opponent":
        # 700.2 / 801.5b: an opponent chooses the mode as the spell is cast; they may pick a
        # mode that refers to things outside their range
        from ecs.legacy.systems.choices import Choice, ask, opponent_chooser

        q = opponent_chooser(g, p, chooser)

        def chosen(g: Game, m: int, i: int = i, p: int = p) -> None:
            g.items[i].event["mode"] = m
            g.priority_to, g.todo = p, "priority"

        ask(g, Choice("mode", q, list(range(len(d.spell.modes))), chosen, {"object": i}))
    pay_mana(g, p, taps, pool)
    g.passes = 0
    g.world.emit("cast", p, i)


# ----------------------------------------------------------------- activating (602)
def abilities_of(g: Game, i: int) -> tuple:
    """The activated abilities of object i: its card's, plus deploy (804.2) if the option is on."""
    from ecs.legacy.cards import DEPLOY

    d = g.db.defs[g.obj.card[i]]
    if g.deploy and d.types & T_CREATURE:
        return (*d.abilities, DEPLOY)
    return d.abilities


def check_activate(
    g: Game, p: int, i: int, k: int, targets: tuple[int, ...], pay, chooser: int | None = None
):
    _has_priority(g, p)
    return check_activation(g, p, i, k, targets, pay, chooser)


def check_activation(
    g: Game, p: int, i: int, k: int, targets: tuple[int, ...], pay, chooser: int | None = None
):
    """Everything ``check_activate`` checks except whose priority it is: the auto-pass
    check asks what a player could do before they are given priority."""
    o = g.obj
    if not (0 <= i < o.n) or o.card[i] < 0 or o.zone[i] not in (BATTLEFIELD, GRAVEYARD):
        raise IllegalAction(f"{describe(g, i)} is not a permanent on the battlefield")
    d = g.db.defs[o.card[i]]
    abilities = abilities_of(g, i)
    if not (0 <= k < len(abilities)):
        raise IllegalAction(f"{d.name} has no activated ability #{k}")
    ab = abilities[k]
    if o.zone[i] == GRAVEYARD:  # 602.2, 702.84a: e.g. unearth, from its owner's graveyard
        if ab.zone != "graveyard" or o.owner[i] != p:
            raise IllegalAction(f"{g.name_of(i)} has no ability {g.names[p]} can activate there")
    elif ab.zone != "battlefield":
        raise IllegalAction(f"{d.name}'s ability #{k} works only from the {ab.zone}")
    elif o.controller[i] != p:
        raise IllegalAction(f"{g.names[p]} does not control {g.name_of(i)} (602.2)")
    elif not g.obj_in_range(p, i):  # 801.6
        raise IllegalAction(f"{g.name_of(i)} is outside {g.names[p]}'s range of influence (801.6)")
    if ab.tap:
        if o.tapped[i]:
            raise IllegalAction(f"{d.name} is tapped")
        if d.types & T_CREATURE and o.sick[i] and not o.kw[i] & KW_HASTE:
            raise IllegalAction(f"{d.name} has summoning sickness (302.6)")
    if ab.sorcery and not sorcery_timing(g, p):
        raise IllegalAction(f"{d.name}'s ability can be activated only as a sorcery")
    if ab.loyalty is not None:
        if o.loyalty_used[i]:
            raise IllegalAction(
                f"a loyalty ability of {d.name} was already activated this turn (606.3)"
            )
        if o.counters[i, C_LOYALTY] + ab.loyalty < 0:
            raise IllegalAction(f"{d.name} doesn't have {-ab.loyalty} loyalty to remove")
    if ab.life_cost is not None and life_to_pay(g, p, ab) > g.pl.life[p]:
        raise IllegalAction(f"{g.names[p]} can't pay {life_to_pay(g, p, ab)} life (119.4)")
    if ab.life_cost is not None and life_to_pay(g, p, ab) > 0:
        from ecs.legacy.systems.damage import cant_lose_life

        if cant_lose_life(g, p):
            raise IllegalAction(f"{g.names[p]} can't lose life, so can pay only 0 life (810.9h)")
    if ab.mana:
        return [], g.pl.mana[p].copy()
    kinds = own_targets(ab)
    check_targets(g, p, kinds, tuple(targets), i, f"{d.name}'s ability")
    if len(kinds) < len(ab.targets):
        _opponent_choice_plan(g, p, ab, i, chooser)
    return plan_payment(g, p, ab.cost, 0, pay)


def life_to_pay(g: Game, p: int, ab: Ability) -> int:
    """Life a cost asks for; "half" is rounded up (107.1a) and uses the team's shared
    total in Two-Headed Giant (810.9a). Paying 0 is always possible (119.4)."""
    life = int(g.pl.life[p])
    if ab.life_cost == "half":
        return max(0, -(-life // 2))
    return int(ab.life_cost or 0)


def own_targets(ab: Ability) -> tuple[str, ...]:
    """The targets the controller chooses (the rest are chosen by an opponent, 801.5a)."""
    if not ab.chosen_by:
        return ab.targets
    return tuple(k for k, c in zip(ab.targets, ab.chosen_by) if c is None)


def _opponent_choice_plan(
    g: Game, p: int, ab: Ability, source: int, named
) -> tuple[int, list[int]]:
    from ecs.legacy.systems.choices import opponent_chooser

    q = opponent_chooser(g, p, named)
    kind = next(k for k, c in zip(ab.targets, ab.chosen_by) if c is not None)
    # 801.5a: within the chooser's range and the controller's (the target is the controller's)
    options = [t for t in target_candidates(g, p, kind, source) if target_ok(g, q, kind, t, source)]
    if not options:
        raise IllegalAction(f"{g.names[q]} has no legal target to choose")
    return q, options


def activate(
    g: Game, p: int, i: int, k: int = 0, targets: tuple[int, ...] = (), pay=None, chooser=None
) -> None:
    from ecs.constants import COLOR_INDEX
    from ecs.legacy.components.stack import StackItem
    from ecs.legacy.systems.mana import pay as pay_mana

    taps, pool = check_activate(g, p, i, k, tuple(targets), pay, chooser)
    o = g.obj
    ab = abilities_of(g, i)[k]
    pay_mana(g, p, taps, pool)
    if ab.tap:
        o.tapped[i] = True
    if ab.mana:  # 605.3b: mana abilities don't use the stack
        g.pl.mana[p, COLOR_INDEX[ab.mana]] += 1
        return
    if ab.loyalty is not None:
        o.counters[i, C_LOYALTY] += ab.loyalty
        o.loyalty_used[i] = True
    if ab.life_cost is not None:  # 119.4: paying life is losing it
        from ecs.legacy.systems.damage import lose_life

        lose_life(g, p, life_to_pay(g, p, ab))
    j = g.new_object(-1, p, STACK)
    o.source[j] = i
    g.items[j] = StackItem(p, ab, tuple(targets), 0, source=i)
    g.stack.append(j)
    g.passes = 0
    g.dirty = True
    if len(own_targets(ab)) < len(ab.targets):  # 801.5a: an opponent chooses the other target
        from ecs.legacy.systems.choices import Choice, ask

        q, options = _opponent_choice_plan(g, p, ab, i, chooser)

        def resume(g: Game, t: int, j: int = j, p: int = p) -> None:
            item = g.items[j]
            item.targets = (*item.targets, t)
            g.priority_to, g.todo = p, "priority"  # 602.2e: the activating player gets priority

        ask(g, Choice("target", q, options, resume, {"object": j}))


# ----------------------------------------------------------------- resolving (608)
def resolve_top(g: Game) -> None:
    """608: resolve the top object; a resolution that needs a player's choice pauses
    (``g.pending`` is a ``choose`` decision) and finishes when the choice is made."""
    from ecs.legacy.systems.effects import run_effects
    from ecs.legacy.systems.triggers import condition_holds
    from ecs.legacy.systems.zones import enter_battlefield, move

    i = g.stack[-1]
    item = g.items[i]
    o = g.obj
    ab = item.ability
    kinds = ab.targets if ab is not None else ()
    legal = [
        t if target_ok(g, item.controller, k, t, item.source) else None
        for k, t in zip(kinds, item.targets)
    ]
    fizzle = bool(kinds) and all(t is None for t in legal)  # 608.2b
    if item.is_spell:
        d = g.db.defs[o.card[i]]
        if fizzle:
            move(g, i, GRAVEYARD)
        elif d.types & T_PERMANENT:
            attach = legal[0] if d.enchant else -1
            if not g.pl.alive[item.controller]:
                move(g, i, GRAVEYARD)
            else:
                enter_battlefield(
                    g, i, item.controller, attach_to=attach if attach is not None else -1
                )
        else:

            def finish(g: Game, i: int = i) -> None:
                if g.obj.zone[i] == STACK:
                    move(g, i, GRAVEYARD)  # 608.2n

            run_effects(g, item, legal, finish)
            return
    else:
        if i in g.stack:
            g.stack.remove(i)
        g.items.pop(i, None)
        o.zone[i] = GONE
        if not fizzle and (
            ab.when is None or condition_holds(g, item.source, item.controller, ab.condition)
        ):
            if ab.equip:
                s, t = item.source, legal[0]
                if (
                    o.zone[s] == BATTLEFIELD
                    and o.controller[s] == item.controller
                    and t is not None
                ):
                    o.attached_to[s] = t
                    o.timestamp[s] = g.stamp()
            else:
                run_effects(g, item, legal, None)
    g.dirty = True
    g.world.emit("resolved", i)
