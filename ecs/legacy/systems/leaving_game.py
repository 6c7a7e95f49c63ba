"""Leaving the game, losing, winning and draws (104, 800.4, 801.14, 801.15).

800.4a: when a player leaves, every object they own leaves the game, effects
giving them control end, their stack objects that aren't cards cease to exist,
and what they still control is exiled; priority passes on if they had it.
800.4d: their pending triggered abilities are never put on the stack.
800.4k: their turns (extra turns included) don't begin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.constants import BATTLEFIELD, EXILE, GONE

if TYPE_CHECKING:
    from ecs.game import Game


def leave(g: Game, p: int) -> None:
    """Player p leaves the game (conceding, losing, or a draw under 801.15)."""
    leave_many(g, [p])


def leave_many(g: Game, ps: list[int]) -> None:
    """These players leave the game at the same time."""
    ps = [p for p in ps if g.pl.alive[p]]
    if not ps:
        return
    g.pl.alive[ps] = False
    for p in ps:
        _remove_objects(g, p)
    if g.markers:  # 807.4c, 807.4e-g: turn markers of a shrinking table
        from ecs.legacy.systems import turn_markers

        turn_markers.players_left(g, ps)
    check_game_over(g)
    from ecs.legacy.systems.turn_structure import player_left_decision

    for p in ps:
        player_left_decision(g, p)


def _remove_objects(g: Game, p: int) -> None:
    from ecs.legacy.systems.continuous_effects import end_control_effects_of, recompute
    from ecs.legacy.systems.zones import move

    o = g.obj
    end_control_effects_of(g, p)
    n = o.n
    for i in np.flatnonzero((o.owner[:n] == p) & (o.zone[:n] != GONE)):
        i = int(i)
        if o.zone[i] == BATTLEFIELD:
            o.zone[i] = EXILE  # leave through move() so attachments and combat are cleared
            move(g, i, GONE)
        else:
            if i in g.stack:
                g.stack.remove(i)
                g.items.pop(i, None)
            o.zone[i] = GONE
    g.library[p] = []
    for i in list(g.stack):
        item = g.items.get(i)
        if item is not None and item.controller == p and o.card[i] < 0:
            g.stack.remove(i)
            g.items.pop(i, None)
            o.zone[i] = GONE
    g.dirty = True
    recompute(g)
    for i in np.flatnonzero(o.zone[:n] == BATTLEFIELD):
        if o.controller[i] == p:
            move(g, int(i), EXILE)
    for i in list(g.stack):
        item = g.items.get(i)
        if item is not None and item.controller == p:
            move(g, i, EXILE)
    g.triggers = [t for t in g.triggers if t[2] != p]
    g.extra_turns = [q for q in g.extra_turns if q != p]
    g.pl.mana[p] = 0
    g.world.emit("player_left", p)


def concede(g: Game, p: int) -> None:
    """104.3a: a player who concedes loses and leaves; "can't lose" doesn't stop it."""
    ps = with_emperor_teams(g, [p])
    for q in ps:
        g.pl.lost[q] = True
        if q not in g.losers:
            g.losers.append(q)
    leave_many(g, ps)


def with_emperor_teams(g: Game, ps: list[int]) -> list[int]:
    """809.5b-c: a team loses (or draws) with its emperor; 810.8a-b: in Two-Headed Giant a
    team wins, loses, draws and concedes only as a team."""
    out = list(ps)
    for p in ps:
        if (g.variant == "emperor" and g.roles[p] == "emperor") or g.shared_life:
            out += [q for q in g.alive_players() if g.pl.team[q] == g.pl.team[p] and q not in out]
    return out


def players_lose(g: Game, ps: list[int]) -> None:
    """104.3: these players lose at the same time; in multiplayer they leave (800.4)."""
    ps = with_emperor_teams(g, ps)
    for p in ps:
        g.pl.lost[p] = True
        if p not in g.losers:
            g.losers.append(p)
    if set(g.alive_players()) <= set(ps):
        # everyone remaining loses at once: the game is a draw (104.4a)
        for p in ps:
            g.losers.remove(p)
            g.pl.lost[p] = False
        draw_players(g, ps)
        return
    leave_many(g, ps)


def win(g: Game, p: int) -> None:
    """An effect says p wins: p's opponents within p's range lose instead (801.14)."""
    from ecs.legacy.systems.state_based_actions import cant_lose, cant_win

    if not g.pl.alive[p] or cant_win(g, p):
        return
    losers = [q for q in g.opponents(p) if g.in_range(p, q) and not cant_lose(g, q)]
    players_lose(g, losers)


def draw_players(g: Game, ps: list[int]) -> None:
    """The game is a draw for these players; they leave (801.15)."""
    ps = with_emperor_teams(g, ps)
    for p in ps:
        if p not in g.drawn:
            g.drawn.append(p)
        g.pl.drawn[p] = True
    leave_many(g, ps)


def game_draw(g: Game, controller: int) -> None:
    """An effect says the game is a draw (104.4, 801.15 with range of influence)."""
    ps = [q for q in g.alive_players() if g.in_range(controller, q)]
    draw_players(g, ps)


def check_game_over(g: Game) -> None:
    """104.2a: a player (team) still in the game wins when all opponents have left."""
    if g.over:
        return
    alive = g.alive_players()
    if not alive:
        g.over = True
        g.pending = None
        g.world.emit("game_over", g)
        return
    teams = {int(g.pl.team[p]) for p in alive}
    if len(teams) <= 1:
        g.over = True
        g.winners = alive
        for p in alive:
            g.pl.won[p] = True
        g.pending = None
        g.world.emit("game_over", g)
