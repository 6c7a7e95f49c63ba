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
systems/command_zone.py."""

from __future__ import annotations

from components.cards import (
    A_ARG,
    A_KIND,
    A_ZONE,
    C_NSA,
    C_SA0,
    ST_DOUBLE_DAMAGE,
    ST_NO_MAX_HAND,
    ST_PREVENT_ONE,
    X_NO_MAX_HAND,
)
from components.decisions import SP_ROLL_PLANAR_DIE
from components.effects import X_CTL, X_KIND
from components.game import S_CASUAL, S_NCOMMUNAL, S_NCZ, S_NEFF, S_PREV_ACTIVE
from components.objects import F_CARD, F_CTL, F_FACE_DOWN, F_TYPES, F_ZONE
from components.players import P_LIFE, P_PDECKN, P_SDECKN
from components.rules import BATTLEFIELD, COMMAND, T_CREATURE
from components.variants import COMMANDER_RULES
from systems import archenemy, command_zone, commander, day_night, planechase, players, vanguard
from systems.jit import kernel
from systems.state import shuffle_ints


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
def shuffle_decks(st):
    """As the game starts, the supplementary decks are shuffled too: planar decks (the
    single planar deck, 901.15) and scheme decks."""
    if not st.s[S_CASUAL]:
        return
    for p in range(st.pl.shape[0]):
        shuffle_ints(st, st.pdeck[p], st.pl[p, P_PDECKN])
        shuffle_ints(st, st.sdeck[p], st.pl[p, P_SDECKN])
    shuffle_ints(st, st.cdeck, st.s[S_NCOMMUNAL])


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
    """The casual variants' state-based actions: 903.9a (a commander in a graveyard or
    exile), 704.6f (a phenomenon whose encounter has left the stack), 904.10 (a finished
    scheme goes back under its deck). Returns whether one was performed (or a decision
    about one is now pending)."""
    acted = False
    if st.s[S_CASUAL] & COMMANDER_RULES:
        if commander.state_based_actions(st, cd):  # 903.9a
            acted = True
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


@kernel
def no_max_hand(st, cd, p):
    """402.2: p has no maximum hand size by a command-zone card or an effect of one (Your
    Puny Minds Cannot Fathom: until p's next turn)."""
    for k in range(st.s[S_NEFF]):
        if st.eff[k, X_KIND] == X_NO_MAX_HAND and st.eff[k, X_CTL] == p:
            return True
    return command_zone.command_static(st, cd, p, ST_NO_MAX_HAND) > 0


@kernel
def damage_dealt(st, cd, source, src_ctl, t, a):
    """Replacement and prevention effects of command-zone cards on damage about to be dealt
    (the affected player's order is the documented one: doubling first, 616.1): Mishra
    and Stronghold Furnace double it, Nothing Can Stop Me Now prevents 1 of the damage an
    opponent's source would deal to its controller. Returns the damage left."""
    o, ct, sa = st.o, cd.ct, cd.sa
    for k in range(st.s[S_NCZ]):
        i = st.cz[k]
        c = o[i, F_CARD]
        if o[i, F_FACE_DOWN] or c < 0:
            continue
        you = o[i, F_CTL]
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == ST_DOUBLE_DAMAGE and sa[r, A_ZONE] == COMMAND:
                if sa[r, A_ARG] == 0 or (
                    source >= 0
                    and o[source, F_ZONE] == BATTLEFIELD
                    and o[source, F_TYPES] & T_CREATURE
                    and o[source, F_CTL] == you
                ):
                    a *= 2
    if t < 0:
        p = -1 - t
        for k in range(st.s[S_NCZ]):
            i = st.cz[k]
            c = o[i, F_CARD]
            if o[i, F_FACE_DOWN] or c < 0 or o[i, F_CTL] != p:
                continue
            if src_ctl >= 0 and players.is_opponent(st, p, src_ctl):
                for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
                    if sa[r, A_KIND] == ST_PREVENT_ONE and sa[r, A_ZONE] == COMMAND and a > 0:
                        a -= 1
    return a


@kernel
def apply_vanguard(st, cd, p):
    """902.4-902.5b at the start of a game."""
    vanguard.apply_modifiers(st, cd, p, st.pl[p, P_LIFE])


# ----------------------------------------------------------------- Commander (903)
@kernel(inline="always")
def commander_rules(st):
    """Is this a Commander game (903; Brawl is one, 903.12a)?"""
    return (st.s[S_CASUAL] & COMMANDER_RULES) != 0


@kernel
def losers(st, cd, out, n):
    """Players the casual variants' state-based actions make lose, added to ``out[:n]``
    (903.10a: 21 combat damage from one commander); returns the new count."""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        n = commander.losers(st, out, n)
    return n


@kernel(inline="always")
def destination(st, i, zone):
    """The zone card i goes to when it would be put into ``zone``, after the variants'
    replacement effects (903.9b: a commander may go to the command zone instead)."""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        return commander.destination(st, i, zone)
    return zone


@kernel(inline="always")
def moved(st, i, zone):
    """Card i was put into ``zone`` (903.9a remembers a commander's move)."""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        commander.moved(st, i, zone)


@kernel(inline="always")
def may_bring_in(st, cd, p, i):
    """May p bring card i from outside the game into it (903.11 limits it in Commander)?"""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        return commander.may_bring_in(st, cd, p, i)
    return True


@kernel(inline="always")
def castable_from_command_zone(st, p, i):
    """May p cast the card i in the command zone (903.8: a commander p owns)?"""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        return commander.may_cast(st, p, i)
    return False


@kernel(inline="always")
def spell_tax(st, p, i):
    """Generic mana added to the cost of p casting card i from where it is (903.8)."""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        return commander.tax(st, p, i)
    return 0


@kernel(inline="always")
def spell_cast(st, p, it):
    """p cast spell ``it`` (601.2i): 903.8 counts a commander's casts from the command
    zone."""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        commander.cast(st, p, it)


@kernel(inline="always")
def combat_damage_to_player(st, source, p, a):
    """``source`` dealt ``a`` combat damage to player p (903.10a counts a commander's)."""
    if st.s[S_CASUAL] & COMMANDER_RULES:
        commander.combat_damage(st, source, p, a)


@kernel
def answer(st, cd, kind, x):
    """A decision a variant's state-based action asked (903.9a: PEND_COMMAND_ZONE) was
    answered with x."""
    commander.answer(st, cd, x == 1)
