"""Day and night (728, 702.145): the game's designation, the check in the untap step
(728.2), and daybound and nightbound permanents.

The game starts with neither (728.1). It becomes day or night by an effect ("it becomes
day", The Celestus, Sunstreak Phoenix as they enter) or because a player controls a
daybound (day) or nightbound (night) permanent while it is neither (702.145c, e); from
then on it is always one of the two. Each change transforms the permanents at once:
at night a daybound permanent turns to its nightbound face, by day back (702.145b, d);
a daybound card entering at night enters transformed (702.145f). "Whenever day becomes
night or night becomes day" triggers (EV_DAY_NIGHT) only on a change from one to the
other, not when it first becomes day or night (728.1a)."""

from __future__ import annotations

from components.cards import C_BACK, C_FLAGS, C_KW, CF_DAY_AS_ENTERS, EV_DAY_NIGHT, EV_TRANSFORMS
from components.game import S_DAY_NIGHT, S_TURN
from components.objects import F_CARD, F_CTL, F_KW, F_TRANSFORMED
from components.players import P_SPELLS_LAST
from components.rules import KW_DAYBOUND, KW_NIGHTBOUND
from systems import continuous_effects, players, triggers, zones
from systems.jit import kernel
from systems.state import touch

NEITHER, DAY, NIGHT = 0, 1, 2
TOGGLE = 3  # the effect "if it's night, it becomes day; otherwise, it becomes night"


@kernel
def untap_check(st, cd, previous_active):
    """728.2: if it's day and the previous turn's active player (805: no player of the
    active team) cast no spells that turn, it becomes night (728.2a); if it's night and
    they (any one player of the team) cast two or more, it becomes day (728.2b); with
    neither, nothing happens (728.2c)."""
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
    """It becomes day or night (728.1; TOGGLE: the other one, day if it was neither):
    daybound permanents transform to their nightbound face at night and nightbound ones
    back by day (702.145b, d), each a "transforms" event; "whenever day becomes night or
    night becomes day" triggers when it changed from one to the other (728.1a)."""
    s = st.s
    old = s[S_DAY_NIGHT]
    if dn == TOGGLE:
        dn = DAY if old == NIGHT else NIGHT
    if old == dn:
        return
    s[S_DAY_NIGHT] = dn
    touch(st)
    continuous_effects.recompute(st, cd)
    o = st.o
    for i in zones.permanents(st):
        kw = o[i, F_KW]
        if dn == NIGHT and kw & KW_DAYBOUND and not o[i, F_TRANSFORMED] and _has_back(st, cd, i):
            transform(st, cd, i)
        elif dn == DAY and o[i, F_TRANSFORMED] and kw & KW_NIGHTBOUND:
            transform(st, cd, i)
    if old != NEITHER:
        triggers.event(st, cd, EV_DAY_NIGHT, -1, -1, dn, -1)


@kernel(inline="always")
def _has_back(st, cd, i):
    c = st.o[i, F_CARD]
    return c >= 0 and cd.ct[c, C_BACK] >= 0


@kernel
def transform(st, cd, i):
    """712.3: permanent i turns over to its other face (the same object): an event for
    "when this transforms into ..." (amount: 1 to the back face, 0 to the front)."""
    o = st.o
    o[i, F_TRANSFORMED] = 1 - o[i, F_TRANSFORMED]
    touch(st)
    continuous_effects.recompute(st, cd)
    triggers.event(st, cd, EV_TRANSFORMS, i, -1, o[i, F_TRANSFORMED], o[i, F_CTL])


@kernel
def can_transform(st, cd, i):
    """702.145b, d: a daybound or nightbound permanent transforms only by those abilities
    (an effect that says "transform it" does nothing to it)."""
    return not (st.o[i, F_KW] & (KW_DAYBOUND | KW_NIGHTBOUND))


@kernel
def entering(st, cd, i):
    """As card i enters the battlefield: a daybound card enters transformed if it's night
    (702.145f); "if it's neither day nor night, it becomes day as this enters" (The
    Celestus, Sunstreak Phoenix). Called before it enters (no event yet)."""
    c = st.o[i, F_CARD]
    if c < 0:
        return
    dn = st.s[S_DAY_NIGHT]
    if dn == NIGHT and cd.ct[c, C_KW] & KW_DAYBOUND and cd.ct[c, C_BACK] >= 0:
        st.o[i, F_TRANSFORMED] = 1
    if dn == NEITHER and cd.ct[c, C_FLAGS] & CF_DAY_AS_ENTERS:
        st.s[S_DAY_NIGHT] = DAY
        touch(st)


@kernel
def bound_check(st, cd):
    """702.145c, e: while it's neither day nor night, a player controlling a daybound
    permanent makes it day; one controlling a nightbound permanent, night (day first)."""
    if st.s[S_DAY_NIGHT] != NEITHER:
        return
    continuous_effects.recompute(st, cd)
    o = st.o
    night = False
    for i in zones.permanents(st):
        if o[i, F_KW] & KW_DAYBOUND:
            become(st, cd, DAY)
            return
        if o[i, F_KW] & KW_NIGHTBOUND:
            night = True
    if night:
        become(st, cd, NIGHT)
