"""The engine's one entry point from Python: ``call(op, A, c, x, ints)``.

Every operation Python asks of the engine goes through this one compiled function, so
a cold start compiles (and optimises) the whole engine once, not once per operation.
``A`` is a 2-D array of game arenas (one row for a single game), ``c`` the cards
arena; ``x`` and ``ints`` carry the operation's arguments. Returns an int (how many
options the pending decision has, or what the operation says)."""

from __future__ import annotations

from components.observation import OD_ACTIONS, OD_CARDS, OD_HEADER, OD_PLAYERS
from systems import game_loop, observation, setup, shortcuts, subgames, vector_env
from systems.jit import entry
from systems.state import card_tables, game_state

(
    BEGIN, STEP, CONCEDE, REFRESH, PLAY, DEAL, SCENARIO_START, SCENARIO_PREGAME, POLICY,
    OBSERVE, VBEGIN, VSTEP,
) = range(12)  # fmt: skip
SUBGAME_START, SUBGAME_END, SUBGAME_SYNC = 12, 13, 14  # 726: A's rows are [game, its subgame]
SHORTCUT = 15  # 729.2: player ints[0] proposes a shortcut of x repetitions


@entry
def call(op, A, c, x, ints, out, res):
    """BEGIN: start / go on to the first decision. STEP: take option x. CONCEDE: player
    x concedes. REFRESH: list the options again. PLAY: policy x plays every row to the
    end. DEAL: seat every row's players (systems/setup.deal). SCENARIO_START: a
    position's turn begins (ints: the turn's holders; x: markers chosen by the rules).
    SCENARIO_PREGAME: a position's pregame (ints: who draws an opening hand). POLICY: the
    option compiled policy x would take now (nothing changes but the generator).
    OBSERVE: player x's observation into out[0] (ints: components/observation OD_*
    dims and the card-id map). VBEGIN / VSTEP: the vectorised environment
    (systems/vector_env.py; the last row of A is the template; res per game)."""
    cd = card_tables(c)
    if op == PLAY:
        return game_loop.play_batch(A, cd, x)
    if op == VBEGIN:
        vector_env.begin_all(A, cd, ints, out, res)
        return 0
    if op == VSTEP:
        vector_env.step_all(A, cd, ints, out, res)
        return 0
    if op == DEAL:
        for g in range(A.shape[0]):
            setup.deal(game_state(A[g]), cd)
        return 0
    st = game_state(A[0])
    if op == BEGIN:
        return game_loop.begin(st, cd)
    if op == STEP:
        return game_loop.step(st, cd, x)
    if op == CONCEDE:
        return game_loop.concede(st, cd, x)
    if op == REFRESH:
        return game_loop.refresh(st, cd)
    if op == SCENARIO_START:
        setup.scenario_start(st, cd, ints, x)
        return 0
    if op == SCENARIO_PREGAME:
        setup.scenario_pregame(st, cd, ints)
        return game_loop.refresh(st, cd)
    if op == POLICY:
        return game_loop.policy_choice(st, cd, x)
    if op == OBSERVE:
        return observation.observe(st, cd, x, out[0], ints[OD_PLAYERS], ints[OD_CARDS],
                                   ints[OD_ACTIONS], ints[OD_HEADER:])  # fmt: skip
    # 726: subgames (systems/subgames.py): row 0 the game, row 1 its subgame
    if op == SUBGAME_START:  # x: its starting player, -1 at random
        subgames.prepare(A[0], A[1])
        sub = game_state(A[1])
        subgames.start(st, sub, cd, x)
        return game_loop.begin(sub, cd)
    if op == SUBGAME_END:
        subgames.finish(st, game_state(A[1]), cd)
        return game_loop.begin(st, cd)
    if op == SHORTCUT:
        if not shortcuts.propose(st, cd, ints[0], x):
            return -1
        return game_loop.refresh(st, cd)
    if op == SUBGAME_SYNC:
        subgames.sync(st, game_state(A[1]), cd)
        return game_loop.refresh(game_state(A[1]), cd)
    return -1
