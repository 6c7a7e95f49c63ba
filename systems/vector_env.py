"""The vectorised environment's kernels: N games stepped in one call, each game's next
observation written for the player who decides next, finished games started again
from the template (the last row of the batch) with a generator drawn from the
finished game's own, so a run is the same from the same seeds.

``res`` has one row per game (components/observation.py VR_*): the option to take
(in), then how many options the next decision has, whether the game just ended,
who decides next, and each player's result of the game that ended (1 won, -1 lost,
0 drawn)."""

from __future__ import annotations

from components.game import S_AGENT_RNG, S_OVER, S_PPLAYER, S_RNG
from components.observation import (
    OD_ACTIONS,
    OD_CARDS,
    OD_HEADER,
    OD_PLAYERS,
    VR_ACTION,
    VR_DONE,
    VR_NOPTIONS,
    VR_PLAYER,
    VR_RESULT,
)
from components.players import P_DRAWN, P_LOST, P_WON
from systems import game_loop, observation, setup
from systems.jit import kernel
from systems.state import copy_into, game_state, rand_below


@kernel
def begin_all(A, cd, ints, out, res):
    """Every game (rows of A but the last, the template) to its first decision."""
    for g in range(A.shape[0] - 1):
        st = game_state(A[g])
        res[g, VR_NOPTIONS] = game_loop.begin(st, cd)
        res[g, VR_DONE] = 0
        _observe(st, cd, g, ints, out, res)


@kernel
def step_all(A, cd, ints, out, res):
    """Each game takes option res[g, VR_ACTION]; a game that ends starts again. A game
    whose option isn't one (res[g, VR_NOPTIONS] = -1 afterwards) is left as it was."""
    P = res.shape[1] - VR_RESULT
    for g in range(A.shape[0] - 1):
        st = game_state(A[g])
        n = game_loop.step(st, cd, res[g, VR_ACTION])
        res[g, VR_DONE] = 0
        if n < 0:
            res[g, VR_NOPTIONS] = -1
            continue
        if st.s[S_OVER] or n == 0:
            pl = st.pl
            for p in range(min(P, pl.shape[0])):
                res[g, VR_RESULT + p] = 1 if pl[p, P_WON] else (-1 if pl[p, P_LOST] else 0)
                if pl[p, P_DRAWN]:
                    res[g, VR_RESULT + p] = 0
            res[g, VR_DONE] = 1
            a = rand_below(st, 1 << 30)
            b = rand_below(st, 1 << 30)
            copy_into(A[g], A[A.shape[0] - 1], A.shape[1])
            st = game_state(A[g])
            st.s[S_RNG] = a
            st.s[S_RNG + 1] = b
            st.s[S_AGENT_RNG] = b ^ 0x5BD1E995
            st.s[S_AGENT_RNG + 1] = a ^ 0x1B873593
            setup.deal(st, cd)
            n = game_loop.begin(st, cd)
        res[g, VR_NOPTIONS] = n
        _observe(st, cd, g, ints, out, res)


@kernel(inline="always")
def _observe(st, cd, g, ints, out, res):
    p = st.s[S_PPLAYER]
    res[g, VR_PLAYER] = p
    if out.shape[1] > 0:
        observation.observe(st, cd, p, out[g], ints[OD_PLAYERS], ints[OD_CARDS],
                            ints[OD_ACTIONS], ints[OD_HEADER:])  # fmt: skip
