"""Subgames (726): a complete game of Magic played inside a game (Shahrazad).

A game is one arena and kernels can't recurse, so a subgame is a second arena, of the
same layout and capacities, that whoever drives the game holds beside it: the Python
facade (ecs/engine.Game keeps the chain of arenas, main game first) or, for batches,
``play_nested`` below (a chain of arenas on the side of the batch's row). Actions go to
the innermost game.

1. The effect that makes the players play a subgame (effects: OP_SUBGAME) pauses its
   game mid-resolution: ``S_SUBGAME`` SUB_REQUESTED, pending PEND_SUBGAME (no player
   decides anything in it).
2. ``start`` makes the subgame (726.2): the players still in the game, their seats and
   teams, the variant and its options; each player's library becomes their deck in it
   (the cards leave the main game's library with no event); the command zone's cards
   (commanders, vanguards, supplementary decks) go to its command zone (726.5a-c); every
   other card of the main game is outside it (726.4: ``F_OUTSIDE``, a card an effect
   may bring in). Nothing else carries over: life, counters, poison, day and night,
   designations start anew (726.4b). Each subgame card remembers what it is in the game
   above (``F_ORIGIN``). The starting player is chosen at random from the game's
   generator (103.1) unless the driver names one (a script's ``starting_player``);
   then the subgame begins like any game: shuffles, seven cards, mulligans (726.3).
3. A card brought into the subgame (``F_BROUGHT``) leaves its zone of the game above at
   once (``sync``), whose abilities that trigger on it leaving wait there until it
   resumes (726.4a).
4. When the subgame is over, ``finish`` (726.5): every card of the subgame that came from
   the game above and isn't outside it nor in the subgame's command zone goes into its
   owner's library there, and each library is shuffled; the command zone's cards go back
   to its command zone; everything else ceases to exist with the subgame's arena. The
   results (``P_SUB_RESULT``: won, or lost or drew) are put in the game above, which goes
   on resolving the effect that made the subgame ("each player who doesn't win the
   subgame loses half their life, rounded up"). The subgame's decisions count for the
   game above's cap and its trace rows are appended to its trace.
5. A subgame can start a subgame of its own (726.6): the chain grows by one arena."""

from __future__ import annotations

import numpy as np

from components.cards import C_TYPES
from components.decisions import PEND_NONE, PEND_SUBGAME
from components.game import (
    ERR_FULL,
    S_ATTACK_MODE,
    S_AUTOPASS,
    S_CASTING,
    S_CASUAL,
    S_COMMANDER_DAMAGE,
    S_DECISIONS,
    S_DEPLOY,
    S_DEPTH,
    S_ERROR,
    S_FREE_MULLIGAN,
    S_GY_TRIGMASK,
    S_LDIRTY,
    S_MAXDECISIONS,
    S_MAXTURNS,
    S_MONARCH,
    S_MULLIGANS,
    S_N,
    S_NBROUGHT,
    S_NCOMMUNAL,
    S_NCZ,
    S_NEEDS,
    S_NPLAYERS,
    S_NTR,
    S_OVER,
    S_PEND,
    S_PLANAR_CTL,
    S_POISON_LIMIT,
    S_PREV_ACTIVE,
    S_RES,
    S_RNG,
    S_SDIRTY,
    S_SKIP_FIRST_DRAW,
    S_START_LIFE,
    S_STARTING,
    S_STEP,
    S_SUB_BASE,
    S_SUBGAME,
    S_TEAM_TURNS,
    S_TRIGMASK,
    S_VARIANT,
    SUB_DONE,
    SUB_PLAYING,
)
from components.objects import (
    F_BROUGHT,
    F_CARD,
    F_COMMANDER,
    F_FACE_DOWN,
    F_IKIND,
    F_NAMED,
    F_NAMED2,
    F_NUMBER,
    F_ORIGIN,
    F_OUTSIDE,
    F_OWNER,
    F_TOKEN,
    F_ZONE,
)
from components.players import (
    P_ALIVE,
    P_CMD,
    P_HA_VER,
    P_IDENTITY,
    P_LAND_DROPS,
    P_LIBN,
    P_LIFE,
    P_LIFEPOOL,
    P_MAXHAND,
    P_PDECKN,
    P_REACH,
    P_ROLE,
    P_SDECKN,
    P_SEATPOS,
    P_START_HAND,
    P_SUB_RESULT,
    P_TEAM,
    P_VANGUARD,
    P_WON,
)
from components.rules import (
    COMMAND,
    GONE,
    LIBRARY,
    PREGAME,
    T_NONTRADITIONAL,
    T_PHENOMENON,
    T_PLANE,
    T_SCHEME,
)
from components.schema import HEADER_FIXED, PER_TABLE
from components.variants import CASUAL_SINGLE_PLANAR_DECK
from systems import game_loop, legal_actions, players, policies, variants, zones
from systems.jit import kernel
from systems.state import copy_into, fail, game_state, rand_below, remove_value, touch

MAX_DEPTH = 8  # subgames within subgames a batch plays (726.6); deeper: ERR_FULL
RESULT_NONE, RESULT_WON, RESULT_LOST = 0, 1, 2


# ----------------------------------------------------------------- making one (726.2)
@kernel
def prepare(parent, sub):
    """The arena ``sub`` made ready for a subgame of ``parent``: zeroed, the same header
    (the same tables and capacities)."""
    h = HEADER_FIXED + PER_TABLE * parent[2]
    sub[:] = 0
    copy_into(sub, parent, h)


@kernel
def start(st, sub, cd, starting):
    """726.2: the subgame of st (paused with SUB_REQUESTED) set up in ``sub`` (prepared);
    ``starting`` >= 0 names its starting player, else one is chosen at random. The
    subgame is then in its pregame (game_loop.begin starts it)."""
    s, t = st.s, sub.s
    # the variant, its options and the caps; a new game otherwise
    for f in (S_VARIANT, S_CASUAL, S_NPLAYERS, S_ATTACK_MODE, S_TEAM_TURNS, S_DEPLOY,
              S_POISON_LIMIT, S_SKIP_FIRST_DRAW, S_FREE_MULLIGAN, S_COMMANDER_DAMAGE,
              S_MAXTURNS, S_MAXDECISIONS, S_AUTOPASS, S_TRIGMASK, S_GY_TRIGMASK, S_NEEDS,
              S_START_LIFE):  # fmt: skip
        t[f] = s[f]
    t[S_MULLIGANS] = 1  # 726.2: opening hands and mulligans as any game begins
    t[S_STEP] = PREGAME
    t[S_LDIRTY] = 1
    t[S_SDIRTY] = 1
    t[S_CASTING] = -1
    t[S_RES] = -1
    t[S_PLANAR_CTL] = -1
    t[S_MONARCH] = -1
    t[S_PREV_ACTIVE] = -1
    t[S_DEPTH] = s[S_DEPTH] + 1
    t[S_RNG] = rand_below(st, 1 << 30)  # its own generator, from the game above's
    t[S_RNG + 1] = rand_below(st, 1 << 30)
    # the players still in the game: seats, teams, ranges; life anew (726.4b)
    P = st.pl.shape[0]
    for p in range(P):
        sub.seat[p] = st.seat[p]
        for f in (P_TEAM, P_LIFEPOOL, P_SEATPOS, P_REACH, P_ROLE, P_MAXHAND, P_START_HAND,
                  P_IDENTITY):  # fmt: skip
            sub.pl[p, f] = st.pl[p, f]
        sub.pl[p, P_ALIVE] = st.pl[p, P_ALIVE]
        sub.pl[p, P_LIFE] = t[S_START_LIFE] if st.pl[p, P_LIFEPOOL] == p else 0
        sub.pl[p, P_LAND_DROPS] = 1
        sub.pl[p, P_VANGUARD] = -1
        sub.pl[p, P_CMD] = -1
        sub.pl[p, P_CMD + 1] = -1
        sub.pl[p, P_HA_VER] = -1
        st.pl[p, P_SUB_RESULT] = RESULT_NONE
    # the cards: libraries become decks, the command zone goes along, the rest is outside
    o = st.o
    for p in range(P):  # libraries in their order (bottom first): shuffled as it begins
        for k in range(st.pl[p, P_LIBN]):
            i = st.lib[p, k]
            j = _copy(st, sub, cd, i, LIBRARY)
            if j < 0:
                return
            o[i, F_ZONE] = GONE  # (out of the game above's library, no event: 726.2)
        st.pl[p, P_LIBN] = 0
    n = s[S_N]
    for i in range(n):
        if o[i, F_CARD] < 0 or o[i, F_TOKEN] != 0 or o[i, F_IKIND] != 0:
            continue  # (tokens, copies and abilities stay where they are)
        if o[i, F_ZONE] == GONE or not st.pl[o[i, F_OWNER], P_ALIVE]:
            continue
        if o[i, F_ZONE] == COMMAND and not _face_up_plane_or_scheme(st, cd, i):
            j = _copy(st, sub, cd, i, COMMAND)  # commanders, vanguards, supplementary decks
            if j < 0:
                return
            sub.o[j, F_FACE_DOWN] = o[i, F_FACE_DOWN]
            _map_player_cards(st, sub, i, j)
            zones.cease(st, cd, i)  # (its place waits for it: finish puts it back)
        else:
            j = _copy(st, sub, cd, i, GONE)  # 726.4: outside the subgame
            if j < 0:
                return
            sub.o[j, F_OUTSIDE] = 1
    for p in range(P):  # the supplementary decks, in their order (shuffled as it begins)
        if st.pl[p, P_ALIVE]:  # (726.5a: in the subgame's command zone until it ends)
            sub.pl[p, P_PDECKN] = _deck_copy(st.pdeck[p], st.pl[p, P_PDECKN], sub, sub.pdeck[p])
            sub.pl[p, P_SDECKN] = _deck_copy(st.sdeck[p], st.pl[p, P_SDECKN], sub, sub.sdeck[p])
            st.pl[p, P_PDECKN] = 0
            st.pl[p, P_SDECKN] = 0
    t[S_NCOMMUNAL] = _deck_copy(st.cdeck, s[S_NCOMMUNAL], sub, sub.cdeck)
    s[S_NCOMMUNAL] = 0
    t[S_SUB_BASE] = t[S_N]
    t[S_STARTING] = starting if starting >= 0 else _random_starting(sub)
    s[S_SUBGAME] = SUB_PLAYING
    touch(st)


@kernel
def _face_up_plane_or_scheme(st, cd, i):
    """A face-up plane, phenomenon or scheme of the command zone: not part of a
    supplementary deck, it stays in the game above (726.4) while a subgame is played."""
    c = st.o[i, F_CARD]
    kinds = T_PLANE | T_PHENOMENON | T_SCHEME
    return c >= 0 and st.o[i, F_FACE_DOWN] == 0 and (cd.ct[c, C_TYPES] & kinds) != 0


@kernel
def _deck_copy(deck, n, sub, out):
    """The subgame's copy of a supplementary deck (``deck[:n]``, object ids of the game
    above, bottom first): the ids of its cards' subgame objects in ``out``; their count."""
    so = sub.o
    m = 0
    for k in range(n):
        for j in range(sub.s[S_N]):
            if so[j, F_ORIGIN] == deck[k] + 1 and so[j, F_ZONE] == COMMAND:
                out[m] = j
                m += 1
                sub.s[S_NCZ] = remove_value(sub.cz, sub.s[S_NCZ], j)  # (a deck's card)
                break
    return m


@kernel
def _copy(st, sub, cd, i, zone):
    """A subgame object for card i of the game above, in ``zone`` (GONE: outside)."""
    o = st.o
    j = zones.new_object(sub, cd, o[i, F_CARD], o[i, F_OWNER], zone)
    if j < 0:
        fail(st, ERR_FULL)
        return -1
    so = sub.o
    so[j, F_ORIGIN] = i + 1
    so[j, F_COMMANDER] = o[i, F_COMMANDER]
    so[j, F_NAMED] = o[i, F_NAMED]
    so[j, F_NAMED2] = o[i, F_NAMED2]  # (a double agenda's second name)
    so[j, F_NUMBER] = o[i, F_NUMBER]  # (Emissary's Ploy's number)
    return j


@kernel
def _map_player_cards(st, sub, i, j):
    """A commander or vanguard card moved to the subgame's command zone is still its
    owner's commander (vanguard) there."""
    p = st.o[i, F_OWNER]
    for k in range(2):
        if st.pl[p, P_CMD + k] == i:
            sub.pl[p, P_CMD + k] = j
    if st.pl[p, P_VANGUARD] == i:
        sub.pl[p, P_VANGUARD] = j


@kernel
def _random_starting(sub):
    """103.1: a player chosen at random among those in the game (the team's primary
    player with shared team turns)."""
    P = sub.pl.shape[0]
    n = 0
    for p in range(P):
        if sub.pl[p, P_ALIVE]:
            n += 1
    if n == 0:
        return 0
    k = rand_below(sub, n)
    for p in range(P):
        if sub.pl[p, P_ALIVE]:
            if k == 0:
                return players.primary(sub, p) if sub.s[S_TEAM_TURNS] else p
            k -= 1
    return 0


# ----------------------------------------------------------------- while it is played
@kernel
def sync(st, sub, cd):
    """726.4a: a card brought into the subgame from the game above leaves its zone there
    (its leaving triggers wait there until that game resumes)."""
    so = sub.o
    for j in range(sub.s[S_N]):
        if so[j, F_BROUGHT]:
            so[j, F_BROUGHT] = 0
            i = so[j, F_ORIGIN] - 1
            if i >= 0 and st.o[i, F_ZONE] != GONE:
                zones.move(st, cd, i, GONE, -1)
    sub.s[S_NBROUGHT] = 0


# ----------------------------------------------------------------- the end (726.5)
@kernel
def finish(st, sub, cd):
    """726.5: the subgame (over) ends: its cards go back to their owners' libraries in
    the game above, shuffled; command-zone cards to its command zone; the results are
    recorded and the paused effect goes on (the next ``game_loop.run`` of st)."""
    sync(st, sub, cd)
    s, t = st.s, sub.s
    P = st.pl.shape[0]
    for p in range(P):
        if sub.pl[p, P_WON]:
            st.pl[p, P_SUB_RESULT] = RESULT_WON
        elif st.pl[p, P_ALIVE]:
            st.pl[p, P_SUB_RESULT] = RESULT_LOST  # (lost, drew or never won: 726.1)
    so, o = sub.o, st.o
    for j in range(t[S_N]):
        if so[j, F_ORIGIN] <= 0 or so[j, F_TOKEN] != 0 or so[j, F_OUTSIDE]:
            continue
        i = so[j, F_ORIGIN] - 1
        c = so[j, F_CARD]
        nontraditional = c >= 0 and (cd.ct[c, C_TYPES] & T_NONTRADITIONAL) != 0
        if so[j, F_ZONE] == COMMAND or nontraditional:  # 726.5a-c: to the command zone above
            # (a nontraditional card of a player who left the subgame too: never a library)
            if o[i, F_ZONE] == GONE:
                zones.move_one(st, cd, i, COMMAND, -1)
                o[i, F_FACE_DOWN] = so[j, F_FACE_DOWN]
            continue
        zones.move_one(st, cd, i, LIBRARY, -1)  # 726.5: into its owner's library
    for p in range(P):
        if st.pl[p, P_ALIVE]:
            zones.shuffle(st, p)
    _decks_back(st, sub, cd)
    _append_trace(st, sub)
    s[S_DECISIONS] += t[S_DECISIONS]
    if t[S_ERROR] != 0:  # a subgame the engine couldn't go on with: nor can this game
        fail(st, t[S_ERROR])
    s[S_SUBGAME] = SUB_DONE
    if s[S_PEND] == PEND_SUBGAME:
        s[S_PEND] = PEND_NONE
    touch(st)


@kernel
def _decks_back(st, sub, cd):
    """726.5a: the planes, phenomena and schemes of the subgame's command zone (every one
    came from a supplementary deck; one it turned face up goes back face down) make the
    decks of the game above again, each shuffled."""
    so, o, t = sub.o, st.o, sub.s
    single = (st.s[S_CASUAL] & CASUAL_SINGLE_PLANAR_DECK) != 0
    for j in range(t[S_N]):
        if so[j, F_ORIGIN] <= 0 or so[j, F_TOKEN] != 0 or so[j, F_OUTSIDE]:
            continue
        c = so[j, F_CARD]
        if c < 0:  # (wherever it is: a player who left the subgame took theirs along)
            continue
        i = so[j, F_ORIGIN] - 1
        q = o[i, F_OWNER]
        kind = cd.ct[c, C_TYPES]
        if kind & (T_PLANE | T_PHENOMENON | T_SCHEME):  # (a deck's card: off the zone's list)
            st.s[S_NCZ] = remove_value(st.cz, st.s[S_NCZ], i)
        if kind & (T_PLANE | T_PHENOMENON):
            if single:
                st.cdeck[st.s[S_NCOMMUNAL]] = i
                st.s[S_NCOMMUNAL] += 1
            else:
                st.pdeck[q, st.pl[q, P_PDECKN]] = i
                st.pl[q, P_PDECKN] += 1
            o[i, F_FACE_DOWN] = 1
        elif kind & T_SCHEME:
            st.sdeck[q, st.pl[q, P_SDECKN]] = i
            st.pl[q, P_SDECKN] += 1
            o[i, F_FACE_DOWN] = 1
    variants.shuffle_decks(st)


@kernel
def _append_trace(st, sub):
    """The subgame's trace rows follow the game above's (replays read one trace)."""
    tr, sr = st.tr, sub.tr
    for k in range(sub.s[S_NTR]):
        n = st.s[S_NTR]
        if n >= tr.shape[0]:
            return
        copy_into(tr[n], sr[k], tr.shape[1])
        st.s[S_NTR] = n + 1


@kernel(inline="always")
def requested(st):
    return st.s[S_PEND] == PEND_SUBGAME


# ----------------------------------------------------------------- batches
@kernel
def play_nested(A, g, cd, policy):
    """Row g of the batch waits for a subgame (game_loop.play_one returned on it): play
    it, and any subgame inside it, and then the game to its end, with the same compiled
    policy; the arenas of the subgames are made here. Returns the decisions made."""
    root = A[g]
    chain = np.zeros((1, 1), np.int32)
    depth = 0
    k = 0
    while True:
        arena = root if depth == 0 else chain[depth - 1]
        st = game_state(arena)
        s = st.s
        if s[S_PEND] == PEND_SUBGAME and not s[S_OVER]:
            if depth >= MAX_DEPTH:
                fail(st, ERR_FULL)
                continue
            if chain.shape[1] == 1:
                chain = np.zeros((MAX_DEPTH, root.shape[0]), np.int32)
            sub = chain[depth]
            prepare(arena, sub)
            start(st, game_state(sub), cd, -1)
            depth += 1
            game_loop.run(game_state(sub), cd)
            continue
        if s[S_OVER]:
            if depth == 0:
                break
            parent = root if depth == 1 else chain[depth - 2]
            pst = game_state(parent)
            finish(pst, st, cd)
            depth -= 1
            game_loop.run(pst, cd)
            continue
        n = legal_actions.list_actions(st, cd)
        if n == 0:
            break
        j = policies.choose(st, cd, policy, n)
        game_loop.record(st, j)
        legal_actions.apply(st, cd, j)
        s[S_DECISIONS] += 1
        k += 1
        game_loop.run(st, cd)
        game_loop.cap(st, cd)
        if depth > 0 and s[S_NBROUGHT]:
            sync(game_state(root if depth == 1 else chain[depth - 2]), st, cd)
    return k


# ----------------------------------------------------------------- the view's helpers
@kernel(inline="always")
def origin(sub, j):
    """The object subgame object j is in the game above; -1 if none (created in it)."""
    return sub.o[j, F_ORIGIN] - 1
