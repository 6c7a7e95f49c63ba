"""The monarch (724), a designation Conspiracy: Take the Crown's cards give.

724.1-724.3: a player becomes the monarch ("you become the monarch"); there is only
one, and becoming it takes it from whoever had it. Its two inherent triggered
abilities (724.2: at the beginning of the monarch's end step, that player draws a
card; whenever a creature deals combat damage to the monarch, its controller becomes
the monarch) are the abilities of a designation card, "The Monarch"
(ecs/data/cards/conspiracy.yaml), put into the command zone the first time someone
becomes the monarch and controlled by the monarch from then on: they trigger and use
the stack like any triggered ability. 724.4: if the monarch leaves the game, the
active player becomes the monarch (the next player in turn order if the active
player is leaving too)."""

from __future__ import annotations

from components.game import S_ACTIVE, S_MONARCH, S_MONARCH_OBJ
from components.objects import F_BCTL, F_CTL, F_LCTL, F_OWNER
from components.players import P_ALIVE, P_MONARCH
from components.rules import COMMAND
from systems import players, zones
from systems.jit import kernel
from systems.state import touch


@kernel
def become(st, cd, p, card):
    """724.3: p becomes the monarch (``card``: the card row of the designation)."""
    if p < 0 or not st.pl[p, P_ALIVE]:
        return
    old = st.s[S_MONARCH]
    if old >= 0:
        st.pl[old, P_MONARCH] = 0
    st.s[S_MONARCH] = p
    st.pl[p, P_MONARCH] = 1
    i = st.s[S_MONARCH_OBJ] - 1
    if i < 0:
        i = zones.new_object(st, cd, card, p, COMMAND)
        if i < 0:
            return
        st.s[S_MONARCH_OBJ] = i + 1
    _hand_to(st, i, p)
    touch(st)


@kernel(inline="always")
def _hand_to(st, i, p):
    o = st.o
    o[i, F_OWNER] = p
    o[i, F_CTL] = p
    o[i, F_BCTL] = p
    o[i, F_LCTL] = p


@kernel
def players_leave(st, cd, ps, m):
    """724.4: the monarch is among the players leaving (ps[:m], already out of the
    game): the active player becomes the monarch, or the next player in turn order who
    stays; the designation goes with it (before the leavers' objects leave, 800.4a)."""
    p = st.s[S_MONARCH]
    if p < 0:
        return
    leaving = False
    for j in range(m):
        if ps[j] == p:
            leaving = True
    if not leaving:
        return
    st.pl[p, P_MONARCH] = 0
    new = st.s[S_ACTIVE]
    if not st.pl[new, P_ALIVE]:
        new = players.next_in_turn_order(st, new)
    if new < 0:
        st.s[S_MONARCH] = -1
        return
    st.s[S_MONARCH] = new
    st.pl[new, P_MONARCH] = 1
    i = st.s[S_MONARCH_OBJ] - 1
    if i >= 0:
        _hand_to(st, i, new)
    touch(st)
