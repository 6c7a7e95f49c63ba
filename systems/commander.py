"""The Commander variant (903) and its Brawl option (903.12): what a Commander game
adds to the core, reached through the hooks of systems/variants.py (each hook tests
the game's S_CASUAL bits first, so other games never come here).

- 903.3: a commander is a card, marked F_COMMANDER = 1 + its slot among its owner's
  commanders (a partner pair has two, 702.124); the owner's row lists them (P_CMD).
  An object row outlives its zone changes (400.7), so the designation stays with the
  card wherever it goes, face down or copying something else; a token or a permanent
  copying a commander is another row, not a commander. A merged permanent with a
  commander among its cards is that commander (903.3c: ``card_of``).
- 903.4: each player's colour identity is fixed when the game is set up (ecs/engine.py
  ``designate``), from their commanders' cards (P_IDENTITY); without a commander it is
  undefined (903.4f): mana "of a colour in your commander's colour identity" is none.
- 903.6-903.7: the commanders start in the command zone and life is 40 (Brawl: 25 in a
  two-player game, 30 in a multiplayer one, 903.12f): the set-up (ecs/engine.py).
- 903.8: the owner may cast a commander from the command zone (at the time its type
  allows), for {2} more for each earlier cast of it from there (P_CMDCAST per slot).
- 903.9a: a commander put into a graveyard or into exile since state-based actions
  last looked (F_CMD_MOVED): its owner may put it into the command zone, a state-based
  action with a decision (PEND_COMMAND_ZONE, asked in APNAP order of the owners).
- 903.9b: a commander that would be put into its owner's hand or library goes to the
  command zone instead if its owner wants: effects putting objects into hands and
  libraries ask each commander's owner first (systems/effects.py); the answer rides on
  the card (F_CMD_ANSWER) until the move uses it. Where nothing asks (a draw, a
  search, a look at the top, a mulligan), the first option, the command zone, is taken
  (a documented default).
- 903.10a: combat damage a commander deals to a player is counted per commander,
  whoever controls it (``cdmg[victim, 2 * owner + slot]``); 21 from one commander makes
  the player lose, a state-based action; Brawl has no such rule (903.12h: the limit
  S_COMMANDER_DAMAGE is 0 there).
- 903.11: a card brought in from outside the game (a wish) must not share a name with a
  card its player started with or owns in the game, and its colour identity must be
  within their commander's (``may_bring_in``, asked through variants.may_bring_in).
- 903.12g: Brawl's free first mulligan is the mulligan rule's (S_FREE_MULLIGAN)."""

from __future__ import annotations

import numpy as np

from components.cards import C_IDENTITY, C_NAME_ID
from components.decisions import PEND_COMMAND_ZONE, PEND_NONE
from components.game import S_ACTIVE, S_COMMANDER_DAMAGE, S_N, S_PB, S_PEND, S_PPLAYER
from components.objects import (
    CMD_NO,
    CMD_YES,
    F_CARD,
    F_CMD_ANSWER,
    F_CMD_MOVED,
    F_COMMANDER,
    F_FROM,
    F_IKIND,
    F_MERGED,
    F_OUTSIDE,
    F_OWNER,
    F_TOKEN,
    F_ZONE,
)
from components.players import HOW_COMMANDER, P_ALIVE, P_CMD, P_CMDCAST, P_HOW, P_IDENTITY
from components.rules import COMMAND, EXILE, GRAVEYARD, HAND, LIBRARY
from systems import players, zones
from systems.jit import kernel
from systems.state import touch


# ----------------------------------------------------------------- what is a commander
@kernel
def card_of(st, i):
    """The commander card object i is, or has among the cards merged into it (903.3c);
    -1 if none."""
    o = st.o
    j = i
    while j >= 0:
        if o[j, F_COMMANDER] > 0:
            return j
        j = o[j, F_MERGED]
    return -1


@kernel(inline="always")
def column(st, c):
    """The ``cdmg`` column of commander card c: its owner's slot (903.10a, 702.124)."""
    return 2 * st.o[c, F_OWNER] + st.o[c, F_COMMANDER] - 1


# ----------------------------------------------------------------- 903.11
@kernel
def may_bring_in(st, cd, p, i):
    """903.11: may p bring card i from outside the game into this game? Not if a card p
    started with or owns in the game has its name (every card object p owns that isn't
    outside the game: the starting deck and what was brought in since), nor if a colour
    of its identity is outside p's commander's (903.4; none without a commander, 903.4f)."""
    o, ct = st.o, cd.ct
    c = o[i, F_CARD]
    if ct[c, C_IDENTITY] & ~st.pl[p, P_IDENTITY]:
        return False
    name = ct[c, C_NAME_ID]
    for j in range(st.s[S_N]):
        if o[j, F_OWNER] != p or o[j, F_OUTSIDE] or o[j, F_TOKEN] or o[j, F_IKIND]:
            continue
        cj = o[j, F_CARD]
        if cj >= 0 and ct[cj, C_NAME_ID] == name:
            return False
    return True


# ----------------------------------------------------------------- casting (903.8)
@kernel
def may_cast(st, p, i):
    """903.8: p may cast commander i from the command zone if p owns it."""
    o = st.o
    return o[i, F_COMMANDER] > 0 and o[i, F_OWNER] == p and o[i, F_ZONE] == COMMAND


@kernel
def tax(st, p, i):
    """903.8: the generic mana added to p's cast of i from the command zone: {2} for each
    time p cast it from there before."""
    o = st.o
    slot = o[i, F_COMMANDER]
    if slot == 0 or o[i, F_ZONE] != COMMAND or o[i, F_OWNER] != p:
        return 0
    return 2 * st.pl[p, P_CMDCAST + slot - 1]


@kernel
def cast(st, p, it):
    """p cast spell ``it`` (601.2i): a commander cast from the command zone counts for
    its tax."""
    o = st.o
    slot = o[it, F_COMMANDER]
    if slot > 0 and o[it, F_FROM] == COMMAND and o[it, F_OWNER] == p:
        st.pl[p, P_CMDCAST + slot - 1] += 1


# ----------------------------------------------------------------- damage (903.10a)
@kernel
def combat_damage(st, source, p, a):
    """``source`` dealt ``a`` combat damage to player p: counted for the commander it is
    (or has merged into it), whoever controls it."""
    c = card_of(st, source)
    if c >= 0:
        st.cdmg[p, column(st, c)] += a


@kernel
def losers(st, out, n):
    """903.10a: the players in the game dealt 21 or more combat damage by one commander
    (none in Brawl, 903.12h), added to the losers ``out[:n]`` of this check; returns
    the new count."""
    limit = st.s[S_COMMANDER_DAMAGE]
    if limit <= 0:
        return n
    pl, cdmg = st.pl, st.cdmg
    for p in range(pl.shape[0]):
        if not pl[p, P_ALIVE]:
            continue
        listed = False
        for k in range(n):
            if out[k] == p:
                listed = True
        if listed:
            continue
        for k in range(cdmg.shape[1]):
            if cdmg[p, k] >= limit:
                out[n] = p
                n += 1
                pl[p, P_HOW] = HOW_COMMANDER
                break
    return n


# ----------------------------------------------------------------- the command zone (903.9)
@kernel
def destination(st, i, zone):
    """903.9b: where card i goes when it would be put into ``zone``: a commander bound for
    a hand or a library goes to the command zone instead, unless its owner said no. The
    owner's answer is used up by the move."""
    o = st.o
    if o[i, F_COMMANDER] == 0 or o[i, F_ZONE] == zone:
        return zone  # (a card moved within its library isn't put into it: scry, 701.22)
    answer = o[i, F_CMD_ANSWER]
    o[i, F_CMD_ANSWER] = 0
    if (zone == HAND or zone == LIBRARY) and answer != CMD_NO:
        return COMMAND
    return zone


@kernel(inline="always")
def moved(st, i, zone):
    """Card i was put into ``zone``: a commander put into a graveyard or exile is marked
    for the next state-based action check (903.9a)."""
    o = st.o
    if o[i, F_COMMANDER]:
        o[i, F_CMD_MOVED] = 1 if zone == GRAVEYARD or zone == EXILE else 0
        o[i, F_CMD_ANSWER] = 0


@kernel
def unasked(st, i):
    """A commander card among object i's cards (903.9c: a merged permanent's) whose owner,
    in the game, hasn't answered 903.9b for the move under way; -1 if none."""
    o = st.o
    j = i
    while j >= 0:
        if o[j, F_COMMANDER] > 0 and o[j, F_CMD_ANSWER] == 0 and st.pl[o[j, F_OWNER], P_ALIVE]:
            return j
        j = o[j, F_MERGED]
    return -1


@kernel
def record_answer(st, c, yes):
    """The owner of commander c answered 903.9b for the move under way."""
    st.o[c, F_CMD_ANSWER] = CMD_YES if yes else CMD_NO


@kernel
def state_based_actions(st, cd):
    """903.9a: the owner of a commander put into a graveyard or exile since the last check
    decides whether to put it into the command zone (one decision at a time, owners in
    APNAP order, then slot order). Returns True if a decision is now pending."""
    s, o, pl = st.s, st.o, st.pl
    marked = False
    for p in range(pl.shape[0]):
        for k in range(2):
            i = pl[p, P_CMD + k]
            if i >= 0 and o[i, F_CMD_MOVED]:
                if pl[p, P_ALIVE]:
                    marked = True
                else:
                    o[i, F_CMD_MOVED] = 0
    if not marked:
        return False
    buf = np.empty(pl.shape[0], np.int64)
    m = players.turn_order_from(st, s[S_ACTIVE], buf)
    for j in range(m):
        p = buf[j]
        for k in range(2):
            i = pl[p, P_CMD + k]
            if i < 0 or not o[i, F_CMD_MOVED]:
                continue
            z = o[i, F_ZONE]
            if (z != GRAVEYARD and z != EXILE) or o[i, F_OWNER] != p:
                o[i, F_CMD_MOVED] = 0
                continue
            s[S_PEND] = PEND_COMMAND_ZONE
            s[S_PPLAYER] = p
            s[S_PB] = i
            return True
    return False


@kernel
def answer(st, cd, yes):
    """The owner answered the 903.9a decision: the commander goes to the command zone
    (yes) or stays; the state-based actions look again."""
    s, o = st.s, st.o
    i = s[S_PB]
    s[S_PEND] = PEND_NONE
    o[i, F_CMD_MOVED] = 0
    z = o[i, F_ZONE]
    if yes and (z == GRAVEYARD or z == EXILE):
        zones.move(st, cd, i, COMMAND, -1)
    touch(st)
