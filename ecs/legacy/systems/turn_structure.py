"""Turn structure and priority (500-514, 117), as one ordered pipeline.

The game runs as a small state machine, ``run``: each step begins (its
turn-based actions), players get priority until all pass in succession (117.4)
and the stack is empty, then the step ends (mana empties, 500.4) and the next
one begins. Before a player gets priority, state-based actions and triggers are
handled (117.5). The step order lives in ``NEXT_STEP`` and ``begin_step``,
readable top to bottom.

Multiplayer: 800.4j (a turn continues without its active player; priority goes
to the next player), 800.4k (a departed player's turn doesn't begin), 800.7
(the starting player draws on turn 1 in multiplayer; not in two-player, 103.8),
801.2c (ranges of influence are fixed as each turn begins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.constants import (
    BATTLEFIELD,
    BEGIN_COMBAT,
    CLEANUP,
    COMBAT_DAMAGE,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    DRAW,
    END,
    END_COMBAT,
    FIRST_STRIKE_DAMAGE,
    MAIN1,
    MAIN2,
    UNTAP,
    UPKEEP,
)
from ecs.legacy.components.stack import Decision
from ecs.legacy.systems import combat, turn_markers
from ecs.legacy.systems.attack_targets import attack_targets_one
from ecs.legacy.systems.continuous_effects import end_of_turn_cleanup
from ecs.legacy.systems.legal_actions import has_action
from ecs.legacy.systems.loops import choice_made, mandatory_stop
from ecs.legacy.systems.mana import empty_pools
from ecs.legacy.systems.mulligan import begin_mulligans
from ecs.legacy.systems.priority_precheck import can_act
from ecs.legacy.systems.range_of_influence import range_mask_one
from ecs.legacy.systems.state_based_actions import check_state_based_actions
from ecs.legacy.systems.triggers import (
    beginning_of_upkeep,
    delayed,
    has_delayed,
    put_triggers_on_stack,
    state_triggers,
)
from ecs.legacy.systems.zones import draw

if TYPE_CHECKING:
    from ecs.game import Game

BEGIN, PRIORITY, END_STEP = "begin", "priority", "end"

NEXT_STEP = {
    UNTAP: UPKEEP,
    UPKEEP: DRAW,
    DRAW: MAIN1,
    MAIN1: BEGIN_COMBAT,
    BEGIN_COMBAT: DECLARE_ATTACKERS,
    DECLARE_ATTACKERS: DECLARE_BLOCKERS,
    DECLARE_BLOCKERS: COMBAT_DAMAGE,
    FIRST_STRIKE_DAMAGE: COMBAT_DAMAGE,
    COMBAT_DAMAGE: END_COMBAT,
    END_COMBAT: MAIN2,
    MAIN2: END,
    END: CLEANUP,
}


# steps with no turn-based action: in auto-pass mode, when nothing is pending and nobody
# could act, they begin and end at once, as if everyone passed (117.3, 117.4)
QUIET = (UPKEEP, BEGIN_COMBAT, END)


def run(g: Game) -> None:
    """Advance the game until a player must decide something (or it is over)."""
    if g.markers:  # Grand Melee: simultaneous turns, one marker at a time (807.4)
        turn_markers.run(g)
        return
    while not g.over and g.pending is None:
        if g.todo == PRIORITY:
            offer_priority(g)
        elif g.todo == BEGIN:
            if g.auto_pass and g.step_no in QUIET and _quiet(g):
                g.step_no = NEXT_STEP[g.step_no]
                continue
            begin_step(g)
        else:
            end_step(g)


def _quiet(g: Game) -> bool:
    if g.sba_dirty or g.stack or g.triggers or _begins_with_triggers(g, g.step_no):
        return False
    if g.pl.mana.any():
        return False
    return not can_act(g).any()


def _begins_with_triggers(g: Game, step: int) -> bool:
    """Does something trigger as this step begins (upkeep triggers, delayed triggers for
    the next end step)? Such a step is never skipped."""
    if step == UPKEEP:
        return "your_upkeep" in g.trigger_kinds
    if step == END:
        return has_delayed(g, "next_end_step")
    return False


# ----------------------------------------------------------------- turns
def start_game(g: Game, mulligans: bool = False) -> None:
    """103: opening hands, mulligans (103.5, 800.6), then the first turn."""

    for p in g.turn_order_from(g.starting_player):
        draw(g, p, 7)
    g.active = g.starting_player
    if mulligans:
        begin_mulligans(g)
        return
    first_turn(g)


def first_turn(g: Game) -> None:
    g.turn = 0
    if g.variant == "grand-melee":  # 807.4b: every marker holder's turn begins at once
        holders = turn_markers.starting_holders(g, g.starting_player)
        turn_markers.setup(g, holders, UNTAP)
        for k, h in enumerate(holders):
            turn_markers.load(g, k)
            start_turn(g, h)
            turn_markers.save(g)
        turn_markers.load(g, 0)
    else:
        start_turn(g, g.starting_player)
    run(g)


def start_turn(g: Game, p: int | None = None) -> None:
    """A new turn begins for p (or whoever is next): 500.7 extra turns, 800.4k."""
    if p is None:
        if g.max_turns and g.turn >= g.turn_cap():
            from ecs.legacy.systems.leaving_game import draw_players

            draw_players(g, g.alive_players())  # safety cap: the game is a draw
            return
        while g.extra_turns and not g.pl.alive[g.extra_turns[0]]:
            g.extra_turns.pop(0)
        last = g.active_players[-1] if g.team_turns and g.active_players else g.active
        p = g.extra_turns.pop(0) if g.extra_turns else g.next_in_turn_order(last)
    g.turn += 1
    if g.team_turns:  # 805.4, 805.8: the player's team takes the turn, primary player first
        g.active = g.primary(p)
        g.active_players = g.teammates(g.active)
    else:
        g.active = p
        g.active_players = [p]
    g.pl.lands_played[g.active_players] = 0  # 305.2: one land during each of your turns
    g.pl.life_lost_turn[:] = 0
    n = g.obj.n
    ctl = g.obj.controller[:n]
    act = ctl == p if len(g.active_players) == 1 else np.isin(ctl, g.active_players)
    g.obj.loyalty_used[:n] &= ~act  # 606.3: once each turn
    snapshot_ranges(g)
    g.step_no = UNTAP
    g.todo = BEGIN
    g.passes = 0
    g.world.emit("turn", g.turn, p)


def snapshot_ranges(g: Game) -> None:
    """801.2c / 807.4h: seats and ranges are fixed as each turn begins."""

    g.pl.present[:] = g.pl.alive
    pl = g.pl
    g.range_mask = range_mask_one(pl.seat, pl.present, pl.reach)
    g.attack_mask = attack_targets_one(
        g.range_mask, pl.seat, pl.present, pl.alive, pl.team, g.attack_mode, g.adjacent_only
    )


def refresh_attack_mask(g: Game) -> None:
    """Departed players can't be attacked; seats don't close up until the next turn."""
    g.attack_mask = g.attack_mask & g.pl.alive[None, :] & g.pl.alive[:, None]


# ----------------------------------------------------------------- steps
def begin_step(g: Game) -> None:

    s = g.step_no
    g.todo = PRIORITY
    g.priority_to = g.active
    g.passes = 0
    if s == UNTAP:  # 502: untap; no player gets priority
        o = g.obj
        n = o.n
        ctl = o.controller[:n]
        act = ctl == g.active if len(g.active_players) == 1 else np.isin(ctl, g.active_players)
        mine = (o.zone[:n] == BATTLEFIELD) & act
        o.tapped[:n][mine] = False
        o.sick[:n][mine] = False
        g.dirty = True
        g.todo = END_STEP
    elif s == UPKEEP:
        beginning_of_upkeep(g)
    elif s == DRAW:  # 504.1; 103.8, 800.7 and 810.6 for the first turn; 805.4b, 805.6a
        first = g.turn == 1 and g.active == g.primary(g.starting_player)
        skip = first and (not g.multiplayer or g.variant == "two-headed-giant")
        if not skip:
            for p in list(g.active_players):
                if g.pl.alive[p]:
                    draw(g, p, 1)
    elif s == DECLARE_ATTACKERS:  # 508.1: a turn-based action
        g.attack_decl = {}
        decider = (
            g.active
            if g.pl.alive[g.active]
            else next((p for p in g.active_players if g.pl.alive[p]), -1)
        )
        if decider >= 0 and (not g.auto_pass or combat.possible_attackers(g)):
            g.pending = Decision("attack", decider)
    elif s == DECLARE_BLOCKERS:  # 509.1, 802.4: each defending player in APNAP order
        g.blockers_to_declare = combat.defending_players(g)
        g.block_decl = {}
        ask_next_blocker(g)
    elif s in (FIRST_STRIKE_DAMAGE, COMBAT_DAMAGE):
        combat.combat_damage(g, s)
    elif s == END:  # 513.1: "at the beginning of the next end step"
        delayed(g, "next_end_step")
    elif s == CLEANUP:
        cleanup(g)
    g.world.emit("step", g.step_no)


def ask_next_blocker(g: Game) -> None:

    while g.blockers_to_declare:
        q = g.blockers_to_declare[0]
        if not g.pl.alive[q] or (g.auto_pass and not combat.block_options(g, q)):
            g.blockers_to_declare.pop(0)
            continue
        g.pending = Decision("block", q)
        return


def cleanup(g: Game) -> None:
    """514.1: discard to hand size; 514.2: damage wears off, "this turn" effects end;
    514.3a: if state-based actions or triggers happen, players get priority."""

    p = g.active
    if g.pl.alive[p]:
        excess = len(g.hand(p)) - int(g.pl.max_hand[p])
        if excess > 0:
            g.pending = Decision("discard", p, excess)
            g.todo = BEGIN  # come back here after the discard
            return
    n = g.obj.n
    scope = slice(None, n)
    if g.markers:  # Grand Melee: this marker's turn ends for what is within its holder's range
        scope = g.range_mask[g.active][g.obj.controller[:n]]
    g.obj.damage[:n][scope] = 0
    g.obj.deathtouch_hit[:n][scope] = False
    end_of_turn_cleanup(g)
    acted = check_state_based_actions(g)
    if g.triggers or acted:
        g.todo = PRIORITY
        g.cleanup_again = True
    else:
        g.todo = END_STEP


def end_step(g: Game) -> None:

    empty_pools(g)
    s = g.step_no
    if s == CLEANUP:
        if g.cleanup_again:  # 514.3a: another cleanup step
            g.cleanup_again = False
            g.todo = BEGIN
            return
        if g.markers:
            turn_markers.end_turn(g)  # 807.4c: the marker moves on
        else:
            start_turn(g)
        return
    if s == DECLARE_ATTACKERS and not g.declared_attackers:
        nxt = END_COMBAT  # 508.8
    elif s == DECLARE_BLOCKERS:
        g.first_strike_step = combat.needs_first_strike_step(g)
        nxt = FIRST_STRIKE_DAMAGE if g.first_strike_step else COMBAT_DAMAGE
    else:
        nxt = NEXT_STEP[s]
    if s == END_COMBAT:
        combat.end_combat(g)
    g.step_no = nxt
    g.todo = BEGIN


# ----------------------------------------------------------------- priority (117)
def settle(g: Game) -> None:
    """117.5: state-based actions and triggers until neither happens."""

    while not g.over:
        acted = check_state_based_actions(g)
        if g.over:
            return
        state_triggers(g)
        put = put_triggers_on_stack(g)
        if not acted and not put:
            return


def offer_priority(g: Game) -> None:

    settle(g)
    if g.over:
        return
    p = g.priority_to
    if not g.pl.alive[p]:  # 800.4j / 800.4a: priority passes to the next player
        p = g.next_in_turn_order(p)
        g.priority_to = p
    if g.markers and not turn_markers.eligible(g, p):  # 807.5a
        p = _next_eligible(g, p)
        g.priority_to = p
    if g.team_turns:  # 805.5: teams have priority; the primary player holds it for the team
        p = g.primary(p)
        g.priority_to = p
    if g.auto_pass:
        mask = can_act(g)
        if not g.stack and g.passes == 0 and not mask.any():
            g.todo = END_STEP  # nobody can do anything: everyone passes (117.4)
            return
        side = g.teammates(p) if g.team_turns else [p]
        if not any(mask[q] and has_action(g, q) for q in side):
            if g.stack and mandatory_stop(g):
                return  # a mandatory loop ended the game for those in it (801.16)
            do_pass(g, p)
            return
        choice_made(g)
    elif g.stack:
        side = g.teammates(p) if g.team_turns else [p]
        if any(has_action(g, q) for q in side):
            choice_made(g)
        elif mandatory_stop(g):
            return
    g.pending = Decision("priority", p)


def do_pass(g: Game, p: int) -> None:
    """117.3d / 117.4: pass; when all pass in succession, resolve or end the step."""
    g.pending = None
    g.passes += 1
    if g.passes >= _priority_holders(g):
        g.passes = 0
        if g.stack:
            from ecs.legacy.systems.stack import resolve_top

            resolve_top(g)
            if g.restarted:  # the game restarted (723): the new game's first turn begins
                g.restarted = False
                return
            g.priority_to = g.active  # 117.3b
            g.todo = PRIORITY
        else:
            g.todo = END_STEP
    else:
        last = g.teammates(p)[-1] if g.team_turns else p  # 805.5b: then the next team
        g.priority_to = _next_eligible(g, last) if g.markers else g.next_in_turn_order(last)
        g.todo = PRIORITY


def _priority_holders(g: Game) -> int:
    """How many must pass in succession: players, teams with shared team turns (805.5b),
    or, in Grand Melee, the players who get priority for this marker's stack (807.5a)."""
    if g.team_turns:
        return len({int(g.pl.team[p]) for p in g.alive_players()})
    if g.markers:
        return sum(1 for q in g.alive_players() if turn_markers.eligible(g, q))
    return int(g.pl.alive.sum())


def _next_eligible(g: Game, p: int) -> int:
    """The next player after p in turn order who gets priority for this stack (807.5a)."""
    q = p
    for _ in range(g.n_players):
        q = g.next_in_turn_order(q)
        if turn_markers.eligible(g, q):
            return q
    return g.next_in_turn_order(p)


def player_left_decision(g: Game, p: int) -> None:
    """A player left while a decision was theirs: the game goes on without it (800.4a, j)."""

    refresh_attack_mask(g)
    if p in g.blockers_to_declare:
        g.blockers_to_declare.remove(p)
    d = g.pending
    if g.over or d is None or d.player != p:
        return
    g.pending = None
    if d.kind == "priority":
        g.priority_to = g.next_in_turn_order(p)
        g.todo = PRIORITY
    elif d.kind == "attack":
        g.attack_decl = {}
        g.declared_attackers = False
        g.todo = PRIORITY
    elif d.kind == "block":
        g.block_decl = {}
        ask_next_blocker(g)
        if g.pending is None:
            g.todo = PRIORITY
    elif d.kind in ("mulligan", "bottom"):
        from ecs.legacy.systems.mulligan import continue_mulligans

        continue_mulligans(g)
    elif d.kind == "discard":
        g.todo = BEGIN


__all__ = ["run", "start_game", "start_turn", "do_pass"]
