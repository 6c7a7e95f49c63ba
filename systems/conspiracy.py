"""Conspiracy Draft in the game (905.3-905.6) and hidden agendas (702.106).

Conspiracies start the game in the command zone (905.4), face up, or face down when
they have hidden agenda (905.4a, 702.106a) with the card name chosen for them
(``F_NAMED``; a double agenda's second name in ``F_NAMED2``). Their owner and
controller is the player who put them there (905.5). A face-down conspiracy's
abilities don't function: the triggers (systems/triggers.py), the layers
(systems/continuous_effects.py), cost changes (systems/casting.py) and the statics
here all skip face-down cards. Turning one face up is a special action (702.106c,
116.2): any time its controller has priority, without the stack.

The statics of conspiracies and of the draft-matters cards (905.2) read here, each
from the face-up command-zone cards and the permanents of a player:

- ``enters_with_counters`` (Muzzio's Preparations; Cogwork Grinder and Lurking
  Automaton with the numbers the draft noted): counters a permanent enters with;
- ``cant_cast`` and ``mana_any_color`` (Hymn of the Wilds; Unexpected Potential,
  Emissary's Ploy): spells a player can't cast, or pays with mana of any colour;
- ``starting_player`` (Power Play, 103.1), ``starting_hand`` (Sovereign's Realm);
- ``toughness_damage`` (Weight Advantage, 510.1a);
- ``must_attack`` (Cogwork Tracker, 508.1d): attacks each combat if able (a player
  the draft noted, if able).
"""

from __future__ import annotations

import numpy as np

from components.cards import (
    A_AMT,
    A_ARG,
    A_IF,
    A_KIND,
    A_REF,
    A_REFA,
    A_ZONE,
    C_FLAGS,
    C_KW,
    C_NSA,
    C_SA0,
    C_SUPER,
    C_TYPES,
    CF_DOUBLE_AGENDA,
    CF_REAL,
    R_EACH,
    R_SELF,
    ST_ANY_COLOR,
    ST_CANT_CAST,
    ST_CHOOSE_NUMBER,
    ST_ENTERS_COUNTERS,
    ST_EXTRA_HAND,
    ST_MUST_ATTACK,
    ST_START_HAND,
    ST_STARTING_PLAYER,
    ST_TOUGHNESS_DAMAGE,
)
from components.decisions import PEND_NAME_CARD, PEND_NONE, PEND_NUMBER
from components.game import (
    NEED_CONSPIRACY,
    S_NBF,
    S_NCZ,
    S_NEEDS,
    S_NNOTES,
    S_PA,
    S_PB,
    S_PEND,
    S_PPLAYER,
    S_STARTING,
)
from components.objects import (
    F_CARD,
    F_CTL,
    F_CTR,
    F_FACE_DOWN,
    F_NAMED,
    F_NAMED2,
    F_NUMBER,
    F_OWNER,
    F_POW,
    F_TOU,
    F_ZONE,
)
from components.players import NOTE_PLAYER, NT_CARD, NT_KIND, NT_PLAYER, NT_VALUE, P_ALIVE, P_SPELLS
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    KW_HIDDEN_AGENDA,
    LIBRARY,
    S_BASIC,
    T_CONSPIRACY,
    T_LAND,
)
from systems import players, selectors, zones
from systems.jit import kernel
from systems.state import rand_below, touch


# ----------------------------------------------------------------- hidden agenda
@kernel(inline="always")
def is_conspiracy(st, cd, i):
    c = st.o[i, F_CARD]
    return c >= 0 and (cd.ct[c, C_TYPES] & T_CONSPIRACY) != 0


@kernel
def can_turn_face_up(st, cd, p, i):
    """702.106c / 905.4a: a face-down conspiracy p controls in the command zone."""
    o = st.o
    return (
        o[i, F_ZONE] == COMMAND
        and o[i, F_FACE_DOWN] == 1
        and o[i, F_CTL] == p
        and is_conspiracy(st, cd, i)
    )


@kernel
def turn_face_up(st, cd, p, i):
    """The special action (116.2, 702.106c): the card is turned face up, revealing the
    name chosen for it; its abilities function from now on."""
    st.o[i, F_FACE_DOWN] = 0
    touch(st)


# ----------------------------------------------------------------- their statics
@kernel
def _applies(st, cd, r, src, you, x):
    """Does static ability row r of src (controlled by ``you``) apply to object x?"""
    sa = cd.sa
    if not selectors.holds(st, cd, sa[r, A_IF], you, src, -1):
        return False
    if sa[r, A_REF] == R_SELF:
        return x == src
    if sa[r, A_REF] == R_EACH:
        return x >= 0 and selectors.matches_card(st, cd, sa[r, A_REFA], x, you, src)
    return True


@kernel(inline="always")
def _functions(st, cd, src, r):
    """Static ability r of src works where src is (face-up, command zone or battlefield)."""
    o = st.o
    return o[src, F_FACE_DOWN] == 0 and cd.sa[r, A_ZONE] == o[src, F_ZONE]


@kernel
def count_static(st, cd, kind, p, x, first):
    """The sources of p (face-up command-zone cards p controls, then p's permanents)
    with a static of ``kind`` that applies to x; with ``first``, 1 at the first (a spell's
    instances of conspire granted by them, 702.78b: casting.conspire_instances)."""
    o, ct, sa = st.o, cd.ct, cd.sa
    n = 0
    if not selectors.static_present(st, cd, kind):
        return 0
    for pass_ in range(2):
        m = st.s[S_NCZ] if pass_ == 0 else st.s[S_NBF]
        for k in range(m):
            src = st.cz[k] if pass_ == 0 else st.bf[k]
            you = o[src, F_CTL]
            if you != p and kind != ST_CANT_CAST:
                continue
            c = o[src, F_CARD] if pass_ == 0 else selectors.face(st, cd, src)  # (its face, 712)
            if not selectors.has_static(cd, c, kind):
                continue
            for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
                if sa[r, A_KIND] != kind or not _functions(st, cd, src, r):
                    continue
                if (
                    kind == ST_CANT_CAST
                    and sa[r, A_AMT] >= 0
                    and st.pl[p, P_SPELLS] < (selectors.amount(st, cd, sa[r, A_AMT], you, src, -1))
                ):
                    ok = False  # ("can't cast more than N spells each turn": fewer so far)
                elif kind == ST_CANT_CAST and sa[r, A_REF] == R_EACH:  # players it names
                    ok = selectors.matches(st, cd, sa[r, A_REFA], -1 - p, you, src, -1) and (
                        selectors.holds(st, cd, sa[r, A_IF], you, src, -1)
                        and selectors.matches_card(st, cd, sa[r, A_ARG], x, you, src)
                    )
                elif you != p:  # ("you can't cast")
                    ok = False
                elif kind == ST_CANT_CAST or kind == ST_ANY_COLOR:  # (spells: a filter in A_ARG)
                    ok = selectors.holds(st, cd, sa[r, A_IF], p, src, -1) and (
                        selectors.matches_card(st, cd, sa[r, A_ARG], x, p, src)
                    )
                else:
                    ok = _applies(st, cd, r, src, p, x)
                if ok:
                    n += 1
                    if first:
                        return n
    return n


@kernel
def cant_cast(st, cd, p, i):
    """Hymn of the Wilds: can p not cast card i (a static of theirs forbids it)?"""
    if not st.s[S_NEEDS] & NEED_CONSPIRACY:
        return False
    return count_static(st, cd, ST_CANT_CAST, p, i, True) > 0


@kernel
def any_color(st, cd, p, i):
    """Unexpected Potential, Emissary's Ploy: may p spend mana as though it were mana of
    any colour to cast i? (Then the cost's coloured symbols can be paid with any mana.)"""
    if not st.s[S_NEEDS] & NEED_CONSPIRACY:
        return False
    return count_static(st, cd, ST_ANY_COLOR, p, i, True) > 0


@kernel
def enters_counters(st, cd, i, p):
    """614.1c: counters i enters the battlefield with under p's control from statics:
    its own (Cogwork Grinder, Lurking Automaton: numbers the draft noted) and p's face-up
    conspiracies' and permanents' (Muzzio's Preparations: an additional +1/+1 counter)."""
    if not st.s[S_NEEDS] & NEED_CONSPIRACY:
        return
    o, ct, sa = st.o, cd.ct, cd.sa
    c = o[i, F_CARD]
    if c >= 0:
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == ST_ENTERS_COUNTERS and sa[r, A_REF] == R_SELF:
                if selectors.holds(st, cd, sa[r, A_IF], p, i, -1):
                    n = selectors.amount(st, cd, sa[r, A_AMT], p, i, -1)
                    if n > 0:
                        o[i, F_CTR + sa[r, A_ARG]] += n
    for pass_ in range(2):
        m = st.s[S_NCZ] if pass_ == 0 else st.s[S_NBF]
        for k in range(m):
            src = st.cz[k] if pass_ == 0 else st.bf[k]
            if src == i or o[src, F_CTL] != p:
                continue
            cs = o[src, F_CARD]
            if cs < 0 or ct[cs, C_NSA] == 0:
                continue
            for r in range(ct[cs, C_SA0], ct[cs, C_SA0] + ct[cs, C_NSA]):
                if sa[r, A_KIND] != ST_ENTERS_COUNTERS or sa[r, A_REF] != R_EACH:
                    continue
                if _functions(st, cd, src, r) and _applies(st, cd, r, src, p, i):
                    n = selectors.amount(st, cd, sa[r, A_AMT], p, src, -1)
                    if n > 0:
                        o[i, F_CTR + sa[r, A_ARG]] += n


@kernel
def starting_player(st, cd, default):
    """103.1 with Power Play: a player with a face-up conspiracy saying "you are the
    starting player" is; several: one of them at random. Otherwise ``default``."""
    o, ct, sa = st.o, cd.ct, cd.sa
    P = st.pl.shape[0]
    n = 0
    pick = -1
    for p in range(P):
        if not st.pl[p, P_ALIVE]:
            continue
        found = False
        for k in range(st.s[S_NCZ]):
            src = st.cz[k]
            if o[src, F_OWNER] != p or o[src, F_FACE_DOWN]:
                continue
            c = o[src, F_CARD]
            for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
                if sa[r, A_KIND] == ST_STARTING_PLAYER and sa[r, A_ZONE] == COMMAND:
                    found = True
        if found:
            n += 1
            if rand_below(st, n) == 0:  # (reservoir: each claimant equally likely)
                pick = p
    return pick if pick >= 0 else default


@kernel
def starting_hand(st, cd, p, default):
    """103.5 with Sovereign's Realm: the cards in p's opening hand."""
    o, ct, sa = st.o, cd.ct, cd.sa
    for k in range(st.s[S_NCZ]):
        src = st.cz[k]
        if o[src, F_OWNER] != p or o[src, F_FACE_DOWN]:
            continue
        c = o[src, F_CARD]
        for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
            if sa[r, A_KIND] == ST_START_HAND and sa[r, A_ZONE] == COMMAND:
                return selectors.amount(st, cd, sa[r, A_AMT], p, src, -1)
    return default


@kernel
def combat_power(st, cd, i):
    """510.1a with Weight Advantage: the damage i assigns in combat (its toughness when
    a static of its controller's says so, else its power)."""
    o = st.o
    if st.s[S_NEEDS] & NEED_CONSPIRACY:
        if count_static(st, cd, ST_TOUGHNESS_DAMAGE, o[i, F_CTL], i, True) > 0:
            return o[i, F_TOU]
    return o[i, F_POW]


@kernel
def must_attack(st, cd, i):
    """508.1d (Cogwork Tracker): 0 if i has no attack requirement; 1 if it attacks each
    combat if able; 2 if, able, it attacks a player noted for it (``noted_players``)."""
    if not st.s[S_NEEDS] & NEED_CONSPIRACY:
        return 0
    o, ct, sa = st.o, cd.ct, cd.sa
    c = o[i, F_CARD]
    if c < 0 or o[i, F_ZONE] != BATTLEFIELD:
        return 0
    req = 0
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] == ST_MUST_ATTACK:
            req = max(req, 2 if sa[r, A_ARG] >= 0 else 1)
    return req


@kernel
def noted_player(st, cd, i, q):
    """Did i's controller note player q for cards named like i's must_attack says?"""
    o, ct, sa, nt = st.o, cd.ct, cd.sa, st.nt
    c = o[i, F_CARD]
    you = o[i, F_CTL]
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] == ST_MUST_ATTACK and sa[r, A_ARG] >= 0:
            for x in range(st.s[S_NNOTES]):
                if (
                    nt[x, NT_PLAYER] == you
                    and nt[x, NT_CARD] == sa[r, A_ARG]
                    and nt[x, NT_KIND] == NOTE_PLAYER
                    and nt[x, NT_VALUE] == q
                ):
                    return True
    return False


@kernel
def chosen_number(st, i):
    """The number chosen for a command-zone card before the game (Emissary's Ploy)."""
    return st.o[i, F_NUMBER]


# ----------------------------------------------------------------- before the game
@kernel
def _command_amount(st, cd, i, kind):
    """The amount of face-up command-zone card i's static of this kind (0: none)."""
    o, ct, sa = st.o, cd.ct, cd.sa
    c = o[i, F_CARD]
    if c < 0 or o[i, F_FACE_DOWN] or o[i, F_ZONE] != COMMAND:
        return 0
    for r in range(ct[c, C_SA0], ct[c, C_SA0] + ct[c, C_NSA]):
        if sa[r, A_KIND] == kind and sa[r, A_ZONE] == COMMAND:
            return selectors.amount(st, cd, sa[r, A_AMT], o[i, F_OWNER], i, -1)
    return 0


@kernel
def pregame_number(st, cd):
    """Emissary's Ploy: "before drawing your opening hand, choose 1, 2 or 3". The first
    face-up conspiracy (owners in turn order from the starting player) still without its
    number is asked about (PEND_NUMBER; S_PA: the card, S_PB: the largest number).
    Returns True while one is asked. (A number given before the game stands.)"""
    s = st.s
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    for j in range(k):
        for x in range(s[S_NCZ]):
            i = st.cz[x]
            if st.o[i, F_OWNER] != buf[j] or st.o[i, F_NUMBER] != 0:
                continue
            n = _command_amount(st, cd, i, ST_CHOOSE_NUMBER)
            if n > 0:
                s[S_PEND] = PEND_NUMBER
                s[S_PPLAYER] = buf[j]
                s[S_PA] = i
                s[S_PB] = n
                return True
    return False


@kernel
def pregame_name(st, cd):
    """702.106a: as a conspiracy with hidden agenda is put into the command zone face
    down, its owner secretly names a card (double agenda: two different cards). The
    first such card (owners in turn order from the starting player) still without its
    name(s) is asked about (PEND_NAME_CARD; S_PA: the card). Returns True while one is
    asked. (Names given before the game stand: a draft's, a scenario's.)"""
    s, o, ct = st.s, st.o, cd.ct
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    for j in range(k):
        for x in range(s[S_NCZ]):
            i = st.cz[x]
            c = o[i, F_CARD]
            if c < 0 or o[i, F_OWNER] != buf[j] or not o[i, F_FACE_DOWN]:
                continue
            if not ct[c, C_KW] & KW_HIDDEN_AGENDA:
                continue
            unnamed = o[i, F_NAMED] == -1  # (-2: a name given that no card of the game has)
            if unnamed or ct[c, C_FLAGS] & CF_DOUBLE_AGENDA and o[i, F_NAMED2] == 0:
                s[S_PEND] = PEND_NAME_CARD
                s[S_PPLAYER] = buf[j]
                s[S_PA] = i
                return True
    return False


@kernel
def answer_name(st, c):
    """The name chosen for the hidden agenda asked about (PEND_NAME_CARD): card row c."""
    s, o = st.s, st.o
    i = s[S_PA]
    s[S_PEND] = PEND_NONE
    if o[i, F_NAMED] == -1:
        o[i, F_NAMED] = c
    else:
        o[i, F_NAMED2] = 1 + c
    touch(st)


@kernel
def extra_hands(st, cd):
    """Backup Plan: each player draws an additional hand of seven cards per face-up card
    saying so, as the game begins; the cards of each hand are marked (F_NUMBER: 1 the
    opening hand, 2, 3... the others) until one is kept (``pregame_hand``)."""
    o = st.o
    for p in range(st.pl.shape[0]):
        if not st.pl[p, P_ALIVE]:
            continue
        hands = 0
        for x in range(st.s[S_NCZ]):
            i = st.cz[x]
            if o[i, F_OWNER] == p:
                n = _command_amount(st, cd, i, ST_EXTRA_HAND)
                if n > 0:
                    if hands == 0:
                        for h in zones.hand_of(st, p):
                            o[h, F_NUMBER] = 1
                    hands += 1
                    for _ in range(n):
                        top = zones.library_top(st, p, 0)
                        if top < 0:
                            break
                        zones.draw(st, cd, p, 1)
                        o[top, F_NUMBER] = hands + 1


@kernel
def pregame_hand(st, cd):
    """Backup Plan: before mulligans, the first player (turn order from the starting
    player) with several hands keeps one (PEND_NUMBER; S_PA -1, S_PB: how many hands).
    Returns True while one is asked."""
    s, o = st.s, st.o
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    for j in range(k):
        m = 0
        for h in zones.hand_of(st, buf[j]):
            m = max(m, o[h, F_NUMBER])
        if m > 1:
            s[S_PEND] = PEND_NUMBER
            s[S_PPLAYER] = buf[j]
            s[S_PA] = -1
            s[S_PB] = m
            return True
    return False


@kernel
def answer_pregame(st, cd, p, n):
    """The answer to a pregame choice: Emissary's Ploy's number, or (Backup Plan) the
    hand p keeps: the others are shuffled into p's library."""
    s, o = st.s, st.o
    s[S_PEND] = PEND_NONE
    if s[S_PA] >= 0:
        o[s[S_PA], F_NUMBER] = n
        touch(st)
        return
    moved = True
    while moved:
        moved = False
        for h in zones.hand_of(st, p):
            if o[h, F_NUMBER] != n:
                o[h, F_NUMBER] = 0
                zones.move(st, cd, h, LIBRARY, -1)
                moved = True
                break
    for h in zones.hand_of(st, p):
        o[h, F_NUMBER] = 0
    zones.shuffle(st, p)


@kernel(inline="always")
def is_basic_land(cd, c):
    """Is card row c a basic land card (one that can come from outside the game)?"""
    return (
        (cd.ct[c, C_TYPES] & T_LAND) != 0
        and (cd.ct[c, C_SUPER] & S_BASIC) != 0
        and (cd.ct[c, C_FLAGS] & CF_REAL) != 0
    )
