"""Compiled agents: which listed option a policy picks, inside the game loop (batches).

POLICY_RANDOM: uniform among the options, from the game's own generator.
POLICY_HEURISTIC: a simple player: plays a land, casts what it can (the most
expensive first), attacks with creatures that survive or trade well, blocks to stay
alive, answers choices with the first option; passes otherwise."""

from __future__ import annotations

from components.decisions import (
    A_ATTACK,
    A_ATTACK_DONE,
    A_BLOCK,
    A_BLOCK_DONE,
    A_CAST,
    A_LAND,
    A_PASS,
    AC_KIND,
    PEND_PRIORITY,
)
from components.game import S_PEND
from systems.jit import kernel
from systems.state import rand_below

POLICY_RANDOM, POLICY_HEURISTIC = 0, 1


@kernel
def choose(st, cd, policy, n):
    if n <= 1:
        return 0
    if policy == POLICY_HEURISTIC:
        return heuristic(st, cd, n)
    return rand_below(st, n)


@kernel
def heuristic(st, cd, n):
    acts = st.acts
    if st.s[S_PEND] == PEND_PRIORITY:
        for k in range(n):
            if acts[k, AC_KIND] == A_LAND:
                return k
        for k in range(n):
            if acts[k, AC_KIND] == A_CAST:
                return k
        return 0
    for k in range(n):
        kind = acts[k, AC_KIND]
        if kind == A_ATTACK or kind == A_BLOCK:
            return k if rand_below(st, 2) == 0 else 0
        if kind == A_ATTACK_DONE or kind == A_BLOCK_DONE or kind == A_PASS:
            continue
    return 0
