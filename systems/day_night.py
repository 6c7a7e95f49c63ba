"""Day and night (728): the game's designation, and the check in the untap step (728.2)."""

from __future__ import annotations

from components.cards import EV_DAY_NIGHT
from components.game import S_DAY_NIGHT, S_TURN
from components.objects import F_KW, F_TRANSFORMED
from components.players import P_SPELLS_LAST
from components.rules import KW_DAYBOUND, KW_NIGHTBOUND
from systems import players, triggers, zones
from systems.jit import kernel
from systems.state import touch

NEITHER, DAY, NIGHT = 0, 1, 2


@kernel
def untap_check(st, cd, previous_active):
    """728.2: if it's day and the previous turn's active player (805: team) cast no
    spells that turn, it becomes night; if it's night and they (any one of the team)
    cast two or more, it becomes day; with neither, nothing happens (728.2c)."""
    s = st.s
    dn = s[S_DAY_NIGHT]
    if dn == NEITHER or previous_active < 0 or s[S_TURN] <= 1:
        return
    total = 0
    most = 0
    for q in range(st.pl.shape[0]):
        if players.same_side(st, previous_active, q):
            total += st.pl[q, P_SPELLS_LAST]
            most = max(most, st.pl[q, P_SPELLS_LAST])
    if dn == DAY and total == 0:
        become(st, cd, NIGHT)
    elif dn == NIGHT and most >= 2:
        become(st, cd, DAY)


@kernel
def become(st, cd, dn):
    """It becomes day or night (728.1): daybound permanents transform to their
    nightbound face at night and back by day (702.145)."""
    s = st.s
    if s[S_DAY_NIGHT] == dn:
        return
    s[S_DAY_NIGHT] = dn
    touch(st)
    o = st.o
    for i in zones.permanents(st):
        kw = o[i, F_KW]
        if dn == NIGHT and kw & KW_DAYBOUND and not o[i, F_TRANSFORMED]:
            o[i, F_TRANSFORMED] = 1
        elif dn == DAY and o[i, F_TRANSFORMED] and kw & KW_NIGHTBOUND:
            o[i, F_TRANSFORMED] = 0
    triggers.event(st, cd, EV_DAY_NIGHT, -1, -1, dn, -1)
