"""Priority (117): who may act, passing in succession, and what happens before a player
receives priority (117.5: state-based actions and triggered abilities, repeated until
neither happens), with team priority (805.5), the Grand Melee stacks (807.5a) and
players leaving (800.4a).

With auto-pass (batches, environments) a player who can do nothing but pass passes
at once; scenarios stop at every priority (``S_AUTOPASS`` off)."""

from __future__ import annotations

from components.decisions import (
    PEND_ATTACK,
    PEND_BLOCK,
    PEND_BOTTOM,
    PEND_DISCARD,
    PEND_MULLIGAN,
    PEND_NONE,
    PEND_PRIORITY,
)
from components.game import (
    S_ACTIVE,
    S_AUTOPASS,
    S_CASTING,
    S_CUR,
    S_DECLARED,
    S_NBQ,
    S_NMARK,
    S_NSTK,
    S_NTRG,
    S_OVER,
    S_PASSES,
    S_PEND,
    S_PPLAYER,
    S_PRIO,
    S_RES,
    S_SDIRTY,
    S_STCUR,
    S_STVER,
    S_TEAM_TURNS,
    S_TODO,
    S_VERSION,
    TODO_BEGIN,
    TODO_END,
    TODO_PRIORITY,
)
from components.objects import F_CHOOSER, F_ZONE
from components.players import P_ALIVE, P_ELIG
from components.rules import STACK
from systems import (
    attack_targets,
    combat,
    legal_actions,
    mulligan,
    players,
    shortcuts,
    stack,
    state_based_actions,
    triggers,
    turn_markers,
)
from systems.jit import kernel
from systems.state import remove_all


@kernel
def settle(st, cd):
    """117.5: state-based actions, then triggered abilities to the stack, until neither
    happens (stops while a trigger's controller chooses its targets)."""
    s = st.s
    while not s[S_OVER] and s[S_PEND] == PEND_NONE:
        acted = state_based_actions.check(st, cd)
        if s[S_OVER] or s[S_PEND] != PEND_NONE:
            return
        triggers.state_triggers(st, cd)
        put = stack.put_triggers(st, cd)
        if not acted and not put:
            return


@kernel(inline="always")
def _unsettled(st):
    s = st.s
    return s[S_SDIRTY] or s[S_NTRG] or s[S_STVER] != s[S_VERSION] or s[S_STCUR] != s[S_CUR]


@kernel
def holders(st):
    """How many must pass in succession (117.4): the players in the game, the teams
    with shared team turns (805.5b), the players eligible for this stack (807.5a)."""
    if st.s[S_NMARK]:
        return turn_markers.mark_eligible(st)
    if st.s[S_TEAM_TURNS]:
        n = 0
        for q in range(st.pl.shape[0]):
            if st.pl[q, P_ALIVE] and players.primary(st, q) == q:
                n += 1
        return n
    return players.n_alive(st)


@kernel
def _next_holder(st, p):
    """Who gets priority after p passes (117.3d): the next player in turn order (the next
    team's primary player, 805.5; the next eligible player, 807.5a)."""
    if st.s[S_NMARK]:
        return turn_markers.next_marked(st, p)
    q = players.next_in_turn_order(st, p)
    if st.s[S_TEAM_TURNS]:
        while q >= 0 and q != p and players.teammates(st, p, q):
            q = players.next_in_turn_order(st, q)
        if q >= 0:
            q = players.primary(st, q)
    return q


@kernel
def offer(st, cd):
    """117.3: the player (team) with priority decides; under auto-pass one who can do
    nothing else passes at once and the next is offered priority straight away."""
    s = st.s
    need = -1
    while True:
        if _unsettled(st):
            settle(st, cd)
            need = -1
        if s[S_OVER] or s[S_PEND] != PEND_NONE:
            return
        if need < 0:
            need = holders(st)
        p = s[S_PRIO]
        if not st.pl[p, P_ALIVE]:
            p = players.next_in_turn_order(st, p)
        if s[S_TEAM_TURNS]:
            p = players.primary(st, p)
        if s[S_NMARK] and not st.pl[p, P_ELIG]:
            p = turn_markers.next_marked(st, p)
        s[S_PRIO] = p
        if not s[S_AUTOPASS] or legal_actions.has_action(st, cd, p):
            s[S_PEND] = PEND_PRIORITY
            s[S_PPLAYER] = p
            return
        passed(st, cd, p, need)
        if s[S_PASSES] == 0 or s[S_PEND] != PEND_NONE:
            return  # the stack resolved (or stopped for a choice) or the step ended


@kernel
def passed(st, cd, p, need):
    """p (p's team) passed: once everyone has in succession, the top of the stack
    resolves or the step ends (117.4); otherwise the next player gets priority."""
    s = st.s
    s[S_PEND] = PEND_NONE
    if shortcuts.passing(st, cd):  # 729.4: a loop of mandatory actions: a draw
        return
    s[S_PASSES] += 1
    if s[S_PASSES] >= need:
        s[S_PASSES] = 0
        if s[S_NSTK]:
            stack.resolve_top(st, cd)
        else:
            s[S_TODO] = TODO_END
    else:
        s[S_PRIO] = _next_holder(st, p)
        s[S_TODO] = TODO_PRIORITY


@kernel
def do_pass(st, cd, p):
    passed(st, cd, p, holders(st))


@kernel
def player_left(st, cd, p):
    """800.4a: a decision p had to make is handed back to the rules."""
    s, o = st.s, st.o
    attack_targets.player_left(st, p)
    rm_queue(st, p)
    if s[S_OVER]:
        return
    if s[S_CASTING] >= 0:
        it = s[S_CASTING]
        if o[it, F_ZONE] != STACK:  # their spell or ability left the game with them
            s[S_CASTING] = -1
            s[S_PEND] = PEND_NONE
            s[S_TODO] = TODO_PRIORITY
            s[S_PRIO] = players.next_in_turn_order(st, p)
            return
        if s[S_PPLAYER] == p:  # the opponent naming a choice left: 801.5c picks again
            o[it, F_CHOOSER] = -1
            s[S_PEND] = PEND_NONE  # (the game loop asks again: systems/game_loop.run)
        return
    if s[S_RES] >= 0:
        i = s[S_RES]
        if o[i, F_ZONE] != STACK:  # what was resolving left the game
            s[S_RES] = -1
            s[S_PEND] = PEND_NONE
            stack.after_resolution(st, cd)
            return
        if s[S_PPLAYER] == p and s[S_PEND] != PEND_NONE:
            s[S_PEND] = PEND_NONE  # the step goes on without them (the game loop resumes it)
        return
    if s[S_PEND] == PEND_NONE or s[S_PPLAYER] != p:
        return
    kind = s[S_PEND]
    s[S_PEND] = PEND_NONE
    if kind == PEND_PRIORITY:
        s[S_PRIO] = _next_holder(st, p)
        s[S_TODO] = TODO_PRIORITY
    elif kind == PEND_ATTACK:
        combat.clear_declarations(st)
        s[S_DECLARED] = 0
        s[S_TODO] = TODO_PRIORITY
        s[S_PRIO] = s[S_ACTIVE]
    elif kind == PEND_BLOCK:
        combat.clear_declarations(st)
        combat.ask_next_blocker(st, cd)
        if s[S_PEND] == PEND_NONE:
            s[S_TODO] = TODO_PRIORITY
            s[S_PRIO] = s[S_ACTIVE]
    elif kind == PEND_DISCARD:
        s[S_TODO] = TODO_BEGIN
    elif kind == PEND_MULLIGAN or kind == PEND_BOTTOM:
        mulligan.advance(st, cd)


@kernel
def rm_queue(st, p):
    """A player who left no longer declares blockers."""
    s = st.s
    s[S_NBQ] = remove_all(st.bq, s[S_NBQ], p)
