"""Delayed triggered abilities (603.7): created by an effect ("at the beginning of the
next end step, exile it"), they trigger once, at the moment they name."""

from __future__ import annotations

from components.game import S_NDL, S_TURN
from components.rules import END, END_COMBAT, UPKEEP
from components.stack import (
    D_AB,
    D_CTL,
    D_OBJ,
    D_SRC,
    D_TURN,
    D_WHEN,
    DL_END_OF_COMBAT,
    DL_NEXT_END_STEP,
    DL_YOUR_NEXT_UPKEEP,
)
from systems import players, triggers
from systems.jit import kernel
from systems.state import delete_row, new_row


@kernel
def create(st, when, ab, ctl, src, obj):
    k = new_row(st, st.dl, S_NDL)
    if k < 0:
        return
    dl = st.dl
    dl[k, D_WHEN] = when
    dl[k, D_AB] = ab
    dl[k, D_CTL] = ctl
    dl[k, D_SRC] = src
    dl[k, D_OBJ] = obj
    dl[k, D_TURN] = st.s[S_TURN]


@kernel
def at_step(st, cd, step):
    """The delayed triggers waiting for this step trigger (603.7b: once)."""
    s = st.s
    k = 0
    while k < s[S_NDL]:
        dl = st.dl
        fire = (dl[k, D_WHEN] == DL_NEXT_END_STEP and step == END) or (
            dl[k, D_WHEN] == DL_END_OF_COMBAT and step == END_COMBAT  # 511: "at end of combat"
        )
        if dl[k, D_WHEN] == DL_YOUR_NEXT_UPKEEP:  # its controller's next upkeep (rebound)
            fire = (
                step == UPKEEP and s[S_TURN] > dl[k, D_TURN] and players.is_active(st, dl[k, D_CTL])
            )
        if fire:
            triggers.queue(st, dl[k, D_SRC], dl[k, D_AB], dl[k, D_CTL], -1, 0, dl[k, D_OBJ], -1)
            s[S_NDL] = delete_row(dl, k, s[S_NDL])
        else:
            k += 1
