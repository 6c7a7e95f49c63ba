"""Where the variants' own rules reach the core: a small set of hooks the turn, the
state-based actions and the stack call, each dispatching to the variant modules that
the game's options switch on (S_CASUAL). The multiplayer variants (806-811) need no
hook: they are options of the core (teams, ranges, attack options, turn markers)."""

from __future__ import annotations

from components.game import S_CASUAL, S_PREV_ACTIVE
from components.variants import COMMANDER_RULES
from systems import commander, day_night
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
    """The casual variants' state-based actions (903.9a, 704.6f, 904.10). Returns whether
    one was performed (or a decision about one is now pending)."""
    acted = False
    if st.s[S_CASUAL] & COMMANDER_RULES:
        if commander.state_based_actions(st, cd):  # 903.9a
            acted = True
    return acted


@kernel
def planeswalk(st, cd, p):
    """701.24: p planeswalks (Planechase). Unreachable until Planechase is implemented:
    no planeswalking ability can be created without it."""
    return


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
