"""Zone changes (400): moving objects, drawing, shuffling, tokens, entering the battlefield.

A card that changes zones becomes a new object (400.7); we keep its row but give
it a new timestamp and clear everything that belonged to the old object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ecs.constants import (
    BATTLEFIELD,
    C_DEFENSE,
    C_LOYALTY,
    COUNTER_INDEX,
    EXILE,
    GONE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    STACK,
    T_BATTLE,
    T_CREATURE,
    T_PLANESWALKER,
)

if TYPE_CHECKING:
    from ecs.game import Game


def move(g: Game, i: int, zone: int, controller: int | None = None, top: bool = True) -> None:
    """Move object i to a zone (its owner's, for library/hand/graveyard)."""
    o = g.obj
    old = int(o.zone[i])
    if old == BATTLEFIELD and o.exile_if_leaves[i] and zone not in (EXILE, BATTLEFIELD, GONE):
        zone = EXILE  # unearth's replacement effect (702.84a, 614)
    if old == LIBRARY:
        lib = g.library[o.owner[i]]
        if i in lib:
            lib.remove(i)
    if old == STACK and i in g.stack:
        g.stack.remove(i)
        g.items.pop(i, None)
    was_battlefield = old == BATTLEFIELD
    last_controller = int(o.controller[i])
    was_creature = bool(o.types[i] & T_CREATURE)
    o.zone[i] = zone
    o.protector[i] = -1
    o.exiled_by[i] = -1
    o.exile_if_leaves[i] = False
    o.tapped[i] = False
    o.damage[i] = 0
    o.deathtouch_hit[i] = False
    o.attached_to[i] = -1
    o.counters[i] = 0
    o.sick[i] = False
    o.loyalty_used[i] = False
    o.reset_combat(i)
    o.timestamp[i] = g.stamp()
    g.zctr += 1
    o.zpos[i] = g.zctr
    owner = int(o.owner[i])
    o.base_controller[i] = owner if controller is None else controller
    o.controller[i] = o.base_controller[i]
    if zone == LIBRARY:
        if top:
            g.library[owner].append(i)
        else:
            g.library[owner].insert(0, i)
    if was_battlefield:
        # anything attached to it becomes unattached (SBA puts Auras away, 704.5m)
        n = o.n
        for j in range(n):
            if o.attached_to[j] == i:
                o.attached_to[j] = -1
            if o.blocking[j] == i:
                o.blocking[j] = -1
        g.block_order.pop(i, None)
        for lst in g.block_order.values():
            if i in lst:
                lst.remove(i)
        from ecs.legacy.systems.triggers import left_battlefield

        left_battlefield(g, i, last_controller, was_creature)
    g.dirty = True  # a token that left the battlefield ceases to exist as an SBA (704.5d)
    g.world.emit("zone_change", i, old, zone)


def enter_battlefield(g: Game, i: int, controller: int, attach_to: int = -1) -> None:
    """Put object i onto the battlefield under controller's control (and trigger ETB)."""
    move(g, i, BATTLEFIELD, controller=controller)
    o = g.obj
    d = g.db.defs[o.card[i]]
    o.sick[i] = True
    o.last_controller[i] = controller
    if d.types & T_PLANESWALKER:  # 306.5b
        o.counters[i, C_LOYALTY] = d.loyalty
    if d.types & T_BATTLE:  # 310.4b defense counters; 310.11a a Siege's protector
        o.counters[i, C_DEFENSE] = d.defense
        o.protector[i] = choose_protector(g, controller)
    for k, v in d.enters_with.items():  # 614.1c
        o.counters[i, COUNTER_INDEX[k]] += v
    if attach_to >= 0:
        o.attached_to[i] = attach_to
    g.dirty = True
    from ecs.legacy.systems.triggers import entered_battlefield

    entered_battlefield(g, i)


def choose_protector(g: Game, controller: int) -> int:
    """310.11a: an opponent chosen by the controller, within range (801.5a); by default
    the first in turn order, else the closest opponent to the left (801.5c)."""
    from ecs.legacy.systems.choices import opponent_chooser

    try:
        return opponent_chooser(g, controller)
    except Exception:
        return -1


def draw(g: Game, p: int, count: int = 1) -> None:
    """Draw cards (121); drawing from an empty library marks the player for 704.5b."""
    for _ in range(count):
        lib = g.library[p]
        if not lib:
            g.pl.drew_from_empty[p] = True  # 704.5b, checked at the next state-based actions
            g.dirty = True
            continue
        i = lib[-1]
        move(g, i, HAND)


def shuffle(g: Game, p: int) -> None:
    g.rng.shuffle(g.library[p])


def destroy(g: Game, i: int) -> None:
    """701.8: move a permanent to its owner's graveyard."""
    if g.obj.zone[i] == BATTLEFIELD:
        move(g, i, GRAVEYARD)


def create_token(g: Game, spec: dict, controller: int) -> int:
    """111: create a token under controller's control (none if they left, 800.4b)."""
    if controller < 0 or not g.pl.alive[controller]:
        return -1
    from ecs.legacy.cards import token_name

    name = token_name(spec)
    i = g.new_object(g.db.index(name), controller, GONE)
    g.obj.token[i] = True
    g.created[name] = g.created.get(name, 0) + 1
    g.refs[f"{name}#{g.created[name]}"] = i
    enter_battlefield(g, i, controller)
    return i


def is_creature(g: Game, i: int) -> bool:
    return bool(g.db.types[g.obj.card[i]] & T_CREATURE) if g.obj.card[i] >= 0 else False
