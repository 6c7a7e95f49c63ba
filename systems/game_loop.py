"""The game loop and the entry points called from Python.

``run`` advances the game until someone must decide (or it is over): the turn's
next thing to do is offering priority, beginning a step or ending it; Grand Melee
interleaves its markers (systems/turn_markers.py). What Python calls (through systems/entry.py):

- ``begin``: a game set up in the arena starts (opening hands, mulligans) or a
  position set up mid-game goes on; the first decision's options are listed;
- ``step``: carry out option k of the pending decision, then go on to the next
  decision and list its options (returns how many; -1 refuses an index that isn't an
  option, the state untouched);
- ``play_batch``: a compiled policy plays every game of a batch (rows of A) to the
  end, choosing among the listed options with each game's own generator."""

from __future__ import annotations

import numpy as np

from components.decisions import PEND_NONE, PEND_PRIORITY, PEND_SUBGAME
from components.game import (
    S_CAPPED,
    S_CASTING,
    S_DECISIONS,
    S_MAXDECISIONS,
    S_MULLIGANS,
    S_NACTS,
    S_NMARK,
    S_OVER,
    S_PEND,
    S_PPLAYER,
    S_RES,
    S_STARTING,
    S_STEP,
    S_TODO,
    S_TURN,
    S_VARIANT,
    TODO_BEGIN,
    TODO_PRIORITY,
)
from components.players import P_ALIVE, P_START_HAND
from components.rules import PREGAME
from components.variants import GRAND_MELEE
from systems import (
    conspiracy,
    leaving_game,
    legal_actions,
    mulligan,
    players,
    policies,
    priority,
    stack,
    subgames,
    turn_markers,
    turn_structure,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import game_state, trace


@kernel
def run(st, cd):
    """Advance until a player must decide something (or the game is over)."""
    s = st.s
    if s[S_STEP] == PREGAME:
        start_game(st, cd)
    if s[S_NMARK]:
        turn_markers.run(st, cd)
        return
    while not s[S_OVER] and s[S_PEND] == PEND_NONE:
        if s[S_CASTING] >= 0 or s[S_RES] >= 0:
            stack.resume(st, cd)
        elif s[S_TODO] == TODO_PRIORITY:
            priority.offer(st, cd)
        elif s[S_TODO] == TODO_BEGIN:
            turn_structure.begin_step(st, cd)
        else:
            turn_structure.end_step(st, cd)


@kernel
def start_game(st, cd):
    """103.3-103.5: libraries shuffled, opening hands drawn in turn order from the
    starting player, mulligans if the game has them; then the first turn (103.8)."""
    s = st.s
    if conspiracy.pregame_name(st, cd):  # (hidden agendas named as the game begins)
        return
    if conspiracy.pregame_number(st, cd):  # (Emissary's Ploy: before the opening hands)
        return
    s[S_STEP] = -1  # (no longer the pregame: started)
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    for j in range(k):
        zones.shuffle(st, buf[j])
    for j in range(k):  # (Sovereign's Realm: a starting hand of five)
        p = buf[j]
        st.pl[p, P_START_HAND] = conspiracy.starting_hand(st, cd, p, st.pl[p, P_START_HAND])
    variants.shuffle_decks(st)  # planar and scheme decks (901.3, 904.3)
    for j in range(k):
        zones.draw(st, cd, buf[j], st.pl[buf[j], P_START_HAND])
    conspiracy.extra_hands(st, cd)  # (Backup Plan: a hand kept before mulligans)
    if conspiracy.pregame_hand(st, cd):
        return
    if s[S_MULLIGANS]:
        if not mulligan.advance(st, cd):
            return
    first_turn(st, cd)


@kernel
def first_turn(st, cd):
    """The starting player's (team's) first turn, or every marker holder's (807.4b)."""
    s = st.s
    s[S_TURN] = 0
    s[S_PEND] = PEND_NONE
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    variants.before_first_turn(st, cd, buf, k)  # 901.5: starting planes
    if st.s[S_VARIANT] == GRAND_MELEE:
        turn_markers.setup(st, cd, buf, k)
        return
    turn_structure.begin_turn(st, cd, s[S_STARTING])


# ----------------------------------------------------------------- from Python
@kernel
def begin(st, cd):
    """Start (or go on with) the game up to the first decision; returns how many
    options it has (0 once the game is over)."""
    run(st, cd)
    return legal_actions.list_actions(st, cd)


@kernel
def step(st, cd, k):
    """Carry out option k of the pending decision and go on to the next one; returns
    its number of options (0: the game is over), or -1 if k isn't an option (nothing
    changes then)."""
    s = st.s
    if s[S_OVER] or k < 0 or k >= s[S_NACTS]:
        return -1
    record(st, k)
    legal_actions.apply(st, cd, k)
    s[S_DECISIONS] += 1
    run(st, cd)
    cap(st, cd)
    return legal_actions.list_actions(st, cd)


@kernel
def concede(st, cd, p):
    """104.3a: player p concedes (at any time; not an option of any decision)."""
    s = st.s
    if s[S_OVER] or not st.pl[p, P_ALIVE]:
        return -1
    if s[S_PEND] == PEND_PRIORITY:  # whoever has priority gets it again, after 117.5
        s[S_PEND] = PEND_NONE
        s[S_TODO] = TODO_PRIORITY
    leaving_game.concede(st, cd, p)
    run(st, cd)
    return legal_actions.list_actions(st, cd)


@kernel
def refresh(st, cd):
    """List the options of the pending decision again (after Python changed the arena)."""
    return legal_actions.list_actions(st, cd)


@kernel(inline="always")
def record(st, k):
    acts = st.acts
    trace(st, st.s[S_PEND], st.s[S_PPLAYER], st.s[S_NACTS], k,
          acts[k, 0], acts[k, 1], acts[k, 2], acts[k, 3], acts[k, 4])  # fmt: skip


@kernel
def cap(st, cd):
    """The safety cap on decisions: the game ends as a draw, marked capped."""
    s = st.s
    if not s[S_OVER] and s[S_MAXDECISIONS] and s[S_DECISIONS] >= s[S_MAXDECISIONS]:
        s[S_CAPPED] = 1
        leaving_game.game_is_a_draw(st, cd, -1)


@kernel
def policy_choice(st, cd, policy):
    """The option the compiled policy picks for the pending decision (-1: none)."""
    n = st.s[S_NACTS]
    if st.s[S_OVER] or n <= 0:
        return -1
    return policies.choose(st, cd, policy, n)


@kernel
def play_batch(A, cd, policy):
    """Every game of the batch (rows of A) played to its end by the compiled policy
    (systems/policies POLICY_*); returns the decisions made."""
    total = 0
    for g in range(A.shape[0]):
        st = game_state(A[g])
        total += play_one(st, cd, policy)
        if st.s[S_PEND] == PEND_SUBGAME and not st.s[S_OVER]:  # 726: a subgame to play
            total += subgames.play_nested(A, g, cd, policy)
    return total


@kernel
def play_one(st, cd, policy):
    s = st.s
    run(st, cd)
    k = 0
    while not s[S_OVER]:
        n = legal_actions.list_actions(st, cd)
        if n == 0:
            break
        j = policies.choose(st, cd, policy, n)
        record(st, j)
        legal_actions.apply(st, cd, j)
        s[S_DECISIONS] += 1
        k += 1
        run(st, cd)
        cap(st, cd)
    return k
