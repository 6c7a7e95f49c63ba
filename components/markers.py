"""Grand Melee turn markers (807.4): one row each, in marker-number order. The turn of
the marker being advanced is "loaded" into the game's scalars and the stack; the
other markers keep theirs in their rows (the scalars listed in SAVED, then the
stack)."""

from __future__ import annotations

from components.game import (
    S_ACTIVE,
    S_CLEANUP_AGAIN,
    S_DECLARED,
    S_FSSTEP,
    S_PASSES,
    S_PCOUNT,
    S_PEND,
    S_PPLAYER,
    S_PRIO,
    S_STEP,
    S_TODO,
)
from components.schema import Table

# the turn scalars each marker keeps while another marker's turn is loaded
SAVED = (
    S_ACTIVE, S_STEP, S_TODO, S_PRIO, S_PASSES, S_DECLARED, S_FSSTEP, S_CLEANUP_AGAIN,
    S_PEND, S_PPLAYER, S_PCOUNT,
)  # fmt: skip

MARKERS = Table("mk", "turn markers (807.4)", rows="markers")
F = MARKERS.field
K_NUMBER = F("number", "marker number (807.4a)")
K_HOLDER = F("holder", "player holding it")
K_REMOVAL = F("removal", "times designated for removal (807.4e-g)")
K_WAITING = F("waiting", "1 while its holder waits (807.4d)")
K_THEN_NORMAL = F("then_normal", "a delayed extra turn is being taken; the normal one follows")
K_SAVED = F("saved", "the turn scalars of SAVED", width=len(SAVED))
K_NSTK = F("stack_size", "objects on its stack")
K_STACK = F("stack", "its stack, bottom first", width=64)
