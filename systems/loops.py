"""Mandatory loops (104.4b, 801.16): a loop of actions nobody can choose to stop makes
the game a draw; with limited range of influence, a draw for the controller of the
looping ability and the players within their range (801.16), who leave the game.

Detected by counting: objects resolving one after another in one step while no
decision offers a choice (every player could only pass, or nobody was asked). At
``LOOP_LIMIT`` such resolutions the game state can't be going anywhere a player chose,
and the loop is declared. A choice (any decision with more than one option) or a new
step starts the count again. A loop that keeps offering real choices is not mandatory
and is not declared (the players could stop it)."""

from __future__ import annotations

from components.game import S_FORCED
from systems import leaving_game
from systems.jit import kernel

LOOP_LIMIT = 150
"""Resolutions in a row without a choice that make a loop (far above any real turn)."""


@kernel(inline="always")
def choice_made(st):
    st.s[S_FORCED] = 0


@kernel
def resolved(st, cd, ctl):
    """An object controlled by ctl resolved without a choice since the last one: if that
    has happened LOOP_LIMIT times in a row, the loop is mandatory: the game is a draw
    for ctl and the players in ctl's range (104.4b, 801.16)."""
    s = st.s
    s[S_FORCED] += 1
    if s[S_FORCED] >= LOOP_LIMIT:
        s[S_FORCED] = 0
        leaving_game.game_is_a_draw(st, cd, ctl)
