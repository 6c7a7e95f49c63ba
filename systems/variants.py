"""Where the variants' own rules reach the core: a small set of hooks the turn, the
state-based actions and the stack call, each dispatching to the variant modules that
the game's options switch on (S_CASUAL). The multiplayer variants (806-811) need no
hook: they are options of the core (teams, ranges, attack options, turn markers)."""

from __future__ import annotations

from components.game import S_PREV_ACTIVE
from systems import day_night
from systems.jit import kernel


@kernel
def untap_step(st, cd):
    """502.2 / 728.2: day and night may change as the untap step begins."""
    day_night.untap_check(st, cd, st.s[S_PREV_ACTIVE])


@kernel
def precombat_main(st, cd):
    """Turn-based actions as the precombat main phase begins (904.9 when Archenemy is
    played; no variant implemented so far has any)."""
    return


@kernel
def state_based_actions(st, cd):
    """The casual variants' state-based actions (903.9a, 704.6f, 904.10): none of the
    variants implemented so far has any. Returns whether one was performed."""
    return False


@kernel
def planeswalk(st, cd, p):
    """701.24: p planeswalks (Planechase). Unreachable until Planechase is implemented:
    no planeswalking ability can be created without it."""
    return
