"""Restarting the game (723, 801.17).

Karn Liberated's last ability restarts the game: every player still in the
game takes part in the new game, whatever their range of influence (801.17);
players who had left stay out. All cards go back to their owners' libraries
except the cards exiled with the restarting object, which stay in exile;
tokens, abilities on the stack and every continuous effect cease to exist.
Each player starts at the variant's starting life with no counters,
shuffles and draws seven (no mulligans are offered after a restart: a
documented simplification). Then the rest of the effect happens: the kept
cards enter the battlefield under the restarting player's control, and the
new game's first turn is the restarting player's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ecs.constants import EXILE, GONE, LIBRARY, STACK
from ecs.legacy.components.effects import ContinuousEffect, PreventionShield, RedirectShield

if TYPE_CHECKING:
    from ecs.game import Game


def restart_game(g: Game, controller: int, keep_exiled_with: int = -1) -> None:
    from ecs.legacy.systems.combat import end_combat
    from ecs.legacy.systems.turn_structure import start_turn
    from ecs.legacy.systems.variants import starting_life
    from ecs.legacy.systems.zones import draw, enter_battlefield, move, shuffle

    o = g.obj
    n = o.n
    kept = [
        i
        for i in range(n)
        if keep_exiled_with >= 0
        and o.zone[i] == EXILE
        and o.exiled_by[i] == keep_exiled_with
        and o.card[i] >= 0
    ]
    g.stack.clear()
    g.items.clear()
    for comp in (ContinuousEffect, PreventionShield, RedirectShield):
        for e, _ in g.world.get(comp):
            g.world.delete(e)
    end_combat(g)
    for i in range(n):
        z = int(o.zone[i])
        if z == GONE or i in kept:
            continue
        if o.card[i] < 0 or o.token[i]:
            o.zone[i] = GONE
            continue
        if z == STACK:
            o.zone[i] = EXILE  # leave the (now empty) stack list alone
        move(g, i, LIBRARY)
    g.triggers.clear()
    g.extra_turns.clear()
    alive = g.alive_players()
    life = starting_life(g.variant, g.n_players)
    for p in alive:
        g.pl.life[p] = life
        g.pl.poison[p] = 0
        g.pl.mana[p] = 0
        g.pl.lands_played[p] = 0
        g.pl.drew_from_empty[p] = False
        shuffle(g, p)
    g.starting_player = controller
    g.active = controller
    for p in g.turn_order_from(controller):
        draw(g, p, 7)
    for i in kept:  # the rest of the effect: under the restarting player's control
        enter_battlefield(g, i, controller)
    g.turn = 0
    g.pending = None
    start_turn(g, controller)
    g.restarted = True
    g.dirty = True
    g.world.emit("restart", controller)
