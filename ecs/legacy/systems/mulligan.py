"""Opening hands: the London mulligan (103.5) with the free first mulligan (800.6).

Each round, every player who hasn't kept decides in turn order from the
starting player; then all mulligans are taken at once (shuffle the hand into
the library, draw seven). When everyone has kept, each player puts one card on
the bottom of their library per mulligan taken, the first one free in
multiplayer (800.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ecs.actions import IllegalAction
from ecs.constants import HAND, LIBRARY

if TYPE_CHECKING:
    from ecs.game import Game


def free_mulligans(g: Game) -> int:
    return 1 if g.multiplayer else 0


def to_bottom(g: Game, p: int) -> int:
    return max(0, int(g.pl.mulligans[p]) - free_mulligans(g))


def begin_mulligans(g: Game) -> None:
    g.mull_kept = set()
    g.mull_take = set()
    g.mull_queue = g.turn_order_from(g.starting_player)
    continue_mulligans(g)


def continue_mulligans(g: Game) -> None:
    from ecs.legacy.components.stack import Decision
    from ecs.legacy.systems.turn_structure import first_turn
    from ecs.legacy.systems.zones import draw, move, shuffle

    g.pending = None
    g.mull_queue = [p for p in g.mull_queue if g.pl.alive[p]]
    if g.mull_queue:
        g.pending = Decision("mulligan", g.mull_queue[0])
        return
    if g.mull_take:  # all mulligans of the round happen at the same time
        for p in sorted(g.mull_take, key=lambda q: g.turn_order_from(g.starting_player).index(q)):
            for i in g.hand(p):
                move(g, i, LIBRARY)
            shuffle(g, p)
            draw(g, p, 7)
            g.pl.mulligans[p] += 1
        g.mull_queue = [p for p in g.turn_order_from(g.starting_player) if p not in g.mull_kept]
        g.mull_take = set()
        continue_mulligans(g)
        return
    for p in g.turn_order_from(g.starting_player):
        owed = to_bottom(g, p) - g.mull_bottomed.get(p, 0)
        if owed > 0 and g.hand(p):
            g.pending = Decision("bottom", p, owed)
            return
    g.step_no = 0
    first_turn(g)


def decide(g: Game, p: int, mulligan: bool) -> None:
    d = g.pending
    if d is None or d.kind != "mulligan" or d.player != p:
        raise IllegalAction(f"{g.names[p]} is not deciding on a mulligan now")
    if mulligan and to_bottom(g, p) + 1 > 7:
        raise IllegalAction(f"{g.names[p]} can't mulligan again")
    g.mull_queue.pop(0)
    (g.mull_take if mulligan else g.mull_kept).add(p)
    continue_mulligans(g)


def bottom(g: Game, p: int, i: int) -> None:
    from ecs.legacy.systems.zones import move

    d = g.pending
    if d is None or d.kind != "bottom" or d.player != p:
        raise IllegalAction(f"{g.names[p]} is not putting cards on the bottom now")
    if not (0 <= i < g.obj.n) or g.obj.zone[i] != HAND or g.obj.owner[i] != p:
        raise IllegalAction(f"that card is not in {g.names[p]}'s hand")
    move(g, i, LIBRARY, top=False)
    g.mull_bottomed[p] = g.mull_bottomed.get(p, 0) + 1
    continue_mulligans(g)
