"""Where the variants' own rules reach the core: a small set of hooks the turn, the
state-based actions, the stack, priority and players leaving call, each dispatching to
the variant modules that the game's options switch on (S_CASUAL): Planechase
(systems/planechase.py), Vanguard (systems/vanguard.py), Archenemy and Supervillain
Rumble (systems/archenemy.py). The multiplayer variants (806-811) need no hook: they
are options of the core (teams, ranges, attack options, turn markers).

Cards of the casual variants work from the command zone (901.7, 902.7, 904.8): their
triggered abilities through systems/triggers.py, their activated abilities through
systems/legal_actions.py, their static abilities that change objects through the layers
(systems/continuous_effects.py) and those that change what a player may do through
``command_static`` below."""

from __future__ import annotations

from components.cards import A_IF, A_KIND, A_P, A_ZONE, C_NSA, C_SA0
from components.decisions import SP_ROLL_PLANAR_DIE
from components.game import S_CASUAL, S_NCZ, S_PREV_ACTIVE, S_TEAM_TURNS
from components.objects import F_CARD, F_CTL, F_FACE_DOWN
from components.players import P_LIFE
from components.rules import COMMAND
from systems import archenemy, day_night, planechase, players, selectors, vanguard
from systems.jit import kernel


@kernel
def untap_step(st, cd):
    """502.2 / 728.2: day and night may change as the untap step begins."""
    day_night.untap_check(st, cd, st.s[S_PREV_ACTIVE])


@kernel
def turn_begins(st, cd, p):
    """A turn (a team's turn, a turn marker's turn) begins for p: 901.6 / 901.12b /
    901.14, the planar controller."""
    if planechase.on(st):
        planechase.turn_begins(st, cd, p)


@kernel
def before_first_turn(st, cd, order, m):
    """Once the opening hands are kept (901.5, 901.14a): the starting planes."""
    if planechase.on(st):
        planechase.before_first_turn(st, cd, order, m)


@kernel
def precombat_main(st, cd):
    """Turn-based actions as the precombat main phase begins: 904.9, an archenemy sets
    a scheme in motion."""
    if archenemy.on(st):
        archenemy.precombat_main(st, cd)


@kernel
def state_based_actions(st, cd):
    """The casual variants' state-based actions: 704.6f (a phenomenon whose encounter has
    left the stack), 904.10 (a finished scheme goes back under its deck). Returns
    whether one was performed."""
    acted = False
    if planechase.on(st) and planechase.state_based_actions(st, cd):
        acted = True
    if archenemy.on(st) and archenemy.state_based_actions(st, cd):
        acted = True
    return acted


@kernel
def planeswalk(st, cd, p):
    """701.24: p planeswalks (the planeswalking ability resolving, 901.8)."""
    planechase.planeswalk(st, cd, p)


@kernel
def special_options(st, cd, p, q, acts, m):
    """Special actions of the casual variants q may take on p's priority (116.2i: the
    planar die, 901.9; the timing is the caller's: q's main phase, stack empty);
    returns the new number of options."""
    if planechase.on(st):
        m = planechase.special_options(st, cd, p, q, acts, m)
    return m


@kernel
def special_action(st, cd, q, kind):
    """q takes special action ``kind`` (SP_*)."""
    if kind == SP_ROLL_PLANAR_DIE:
        planechase.roll_as_special_action(st, cd, q)


@kernel
def players_leaving(st, cd, ps, m):
    """These m players are about to leave the game (800.4a): 901.6 / 901.10b / 901.14b.
    Returns what ``players_left`` is told."""
    if planechase.on(st):
        return planechase.players_leaving(st, cd, ps, m)
    return -1


@kernel
def players_left(st, cd, ps, m, info):
    """These m players have left (their objects gone): 901.10, 901.10a."""
    if planechase.on(st):
        planechase.players_left(st, cd, ps, m, info)


# ----------------------------------------------------------------- command-zone statics
@kernel
def command_static(st, cd, p, kind):
    """The static abilities of this kind (ST_*) of face-up command-zone cards that apply
    to player p as "you": the sum of their amounts (A_P), or 0. A plane's "you" is its
    controller's whole team in shared team turns (901.12c); a vanguard's and a scheme's
    is its controller."""
    if not st.s[S_CASUAL]:
        return 0
    o, ct, sa = st.o, cd.ct, cd.sa
    total = 0
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        if o[i, F_FACE_DOWN]:
            continue
        you = o[i, F_CTL]
        if you != p:
            if not (
                st.s[S_TEAM_TURNS] and planechase.is_planar(st, i) and players.teammates(st, you, p)
            ):
                continue
        c = o[i, F_CARD]
        if c < 0:
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == kind and sa[r, A_ZONE] == COMMAND:
                if selectors.holds(st, cd, sa[r, A_IF], you, i, -1):
                    total += max(1, sa[r, A_P])
    return total


@kernel
def command_static_any(st, cd, kind):
    """Has a face-up command-zone card a static ability of this kind that applies to the
    whole game (The Great Forest's)?"""
    if not st.s[S_CASUAL]:
        return False
    o, ct, sa = st.o, cd.ct, cd.sa
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        c = o[i, F_CARD]
        if o[i, F_FACE_DOWN] or c < 0:
            continue
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == kind and sa[r, A_ZONE] == COMMAND:
                return True
    return False


@kernel
def apply_vanguard(st, cd, p):
    """902.4-902.5b at the start of a game."""
    vanguard.apply_modifiers(st, cd, p, st.pl[p, P_LIFE])
