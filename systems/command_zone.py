"""The static abilities of face-up command-zone cards that change what a player may do or
how the game counts (901.7, 902.7, 904.8): planes, phenomena, schemes, vanguards. (Those
that change objects go through the layers, systems/continuous_effects.py.)"""

from __future__ import annotations

from components.cards import (
    A_ARG,
    A_IF,
    A_KIND,
    A_P,
    A_REFA,
    A_ZONE,
    C_NSA,
    C_SA0,
    EACH_PLAYER_STATIC,
)
from components.game import S_CASUAL, S_NCZ, S_TEAM_TURNS
from components.objects import F_CARD, F_CTL, F_FACE_DOWN, F_TYPES
from components.rules import COMMAND, T_PHENOMENON, T_PLANE
from systems import players, selectors
from systems.jit import kernel


@kernel
def command_static(st, cd, p, kind):
    """The static abilities of this kind (ST_*) of face-up command-zone cards that apply
    to player p as "you": the sum of their amounts (A_P), or 0. A plane's "you" is its
    controller's whole team in shared team turns (901.12c); a vanguard's and a scheme's
    is its controller. One with A_ARG EACH_PLAYER_STATIC applies to every player (A
    Display of My Dark Power's lands)."""
    if not st.s[S_CASUAL] or not selectors.static_present(st, cd, kind):
        return 0
    o, ct, sa = st.o, cd.ct, cd.sa
    total = 0
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        if o[i, F_FACE_DOWN]:
            continue
        you = o[i, F_CTL]
        mine = you == p or (
            st.s[S_TEAM_TURNS]
            and (o[i, F_TYPES] & (T_PLANE | T_PHENOMENON)) != 0
            and players.teammates(st, you, p)
        )
        c = o[i, F_CARD]
        if not selectors.has_static(cd, c, kind):
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if not mine and sa[r, A_ARG] != EACH_PLAYER_STATIC:
                continue
            if sa[r, A_KIND] == kind and sa[r, A_ZONE] == COMMAND:
                if selectors.holds(st, cd, sa[r, A_IF], you, i, -1):
                    total += max(1, sa[r, A_P])
    return total


@kernel
def command_static_any(st, cd, kind):
    """Has a face-up command-zone card a static ability of this kind that applies to the
    whole game (The Great Forest's)?"""
    return count_statics(st, cd, kind, -1) > 0


@kernel
def doublings(st, cd, kind):
    """614.1a replacement effects that double (Selesnya Loft Gardens: tokens an effect
    would create, counters an effect would put on a permanent): how many face-up
    command-zone objects have a static ability of this kind; each one doubles once
    (616.1: applied one after another, 2 to the power of the count)."""
    return count_statics(st, cd, kind, -1)


@kernel
def grants(st, cd, x, kind):
    """Does a face-up command-zone card's static ability of this kind apply to object x
    (its filter matches x: Otaria's "instant and sorcery cards in graveyards have
    flashback", Grixis's unearth)?"""
    return count_statics(st, cd, kind, x) > 0


@kernel
def count_statics(st, cd, kind, x):
    """How many static abilities of this kind (ST_*) the face-up command-zone cards have
    (those whose filter, A_REFA, matches object x; x < 0: all)."""
    if not st.s[S_CASUAL] or not selectors.static_present(st, cd, kind):
        return 0
    o, ct, sa = st.o, cd.ct, cd.sa
    n = 0
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        c = o[i, F_CARD]
        if o[i, F_FACE_DOWN] or not selectors.has_static(cd, c, kind):
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == kind and sa[r, A_ZONE] == COMMAND:
                if x < 0 or selectors.matches(st, cd, sa[r, A_REFA], x, o[i, F_CTL], i, -1):
                    n += 1
    return n
