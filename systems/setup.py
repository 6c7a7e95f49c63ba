"""Setting up a game of a multiplayer variant (806-811): seats, teams' seating, roles,
ranges of influence, the starting player, and the life each begins with, from the
game's own generator. The deck cards are already in the arena (in their owners'
libraries); the game then starts (systems/game_loop.start_game: shuffles, opening
hands, mulligans).

- Free-for-All (806) and Grand Melee (807.3): random seats; two-player: as listed.
- Team vs. Team (808.2): teams sit together in a random order, each team's members in
  a random order; the first player is the middle of a random team (808.4).
- Emperor (809.2): teams sit together, the emperor in the middle of the team; ranges
  per 809.3a / 809.6a; a random emperor goes first (809.4).
- Alternating Teams (811.3): seats A1 B1 C1 A2 B2 C2 ...
- Two-Headed Giant (810): teams sit together; a random team starts, its primary
  player taking the turn (805.3, 805.2)."""

from __future__ import annotations

import numpy as np

from components.game import (
    S_ACTIVE,
    S_CASUAL,
    S_CUR,
    S_NBF,
    S_NMARK,
    S_PASSES,
    S_PEND,
    S_PRIO,
    S_STARTING,
    S_STEP,
    S_TEAM_TURNS,
    S_TODO,
    S_TURN,
    S_VARIANT,
    TODO_BEGIN,
)
from components.markers import K_HOLDER, K_NUMBER
from components.objects import F_CTL, F_LCTL, F_SICK
from components.players import (
    P_LAND_DROPS,
    P_LIFE,
    P_LIFEPOOL,
    P_REACH,
    P_ROLE,
    P_SEATPOS,
    P_START_HAND,
    P_TEAM,
    ROLE_ARCHENEMY,
    ROLE_EMPEROR,
    ROLE_GENERAL,
)
from components.scratch import SCR_RING
from components.variants import (
    ALTERNATING_TEAMS,
    CASUAL_ARCHENEMY,
    CASUAL_RUMBLE,
    EMPEROR,
    GRAND_MELEE,
    TEAM_VS_TEAM,
    TWO_HEADED_GIANT,
    TWO_PLAYER,
)
from systems import (
    attack_targets,
    conspiracy,
    continuous_effects,
    day_night,
    game_loop,
    mulligan,
    players,
    range_of_influence,
    turn_markers,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import rand_below, shuffle_ints


@kernel
def seat(st, order):
    """Players sit in ``order`` (clockwise)."""
    P = st.pl.shape[0]
    for pos in range(P):
        st.seat[pos] = order[pos]
        st.pl[order[pos], P_SEATPOS] = pos


@kernel
def deal(st, cd):
    """Seats, roles, ranges and the starting player for the game's variant."""
    pl = st.pl
    P = pl.shape[0]
    v = st.s[S_VARIANT]
    order = np.arange(P)
    if v == TWO_PLAYER:
        pass
    elif v == TEAM_VS_TEAM or v == EMPEROR or v == TWO_HEADED_GIANT or v == ALTERNATING_TEAMS:
        _seat_teams(st, order, v == ALTERNATING_TEAMS)
    else:
        shuffle_ints(st, order, P)
    seat(st, order)
    for p in range(P):  # each player its own life total, unless a team shares one (810.4)
        pl[p, P_LIFEPOOL] = p
    if v == TWO_HEADED_GIANT:
        for p in range(P):
            pl[p, P_LIFEPOOL] = players.primary(st, p)
        for p in range(P):
            if pl[p, P_LIFEPOOL] != p:
                pl[p, P_LIFE] = 0
    if v == EMPEROR:
        _emperors(st)
    st.s[S_STARTING] = conspiracy.starting_player(st, cd, _starting(st, v))  # (Power Play)
    if st.s[S_CASUAL]:  # the casual variants' setup (902.4-902.5, 904.6)
        for p in range(P):
            variants.apply_vanguard(st, cd, p)
        if st.s[S_CASUAL] & CASUAL_ARCHENEMY and not st.s[S_CASUAL] & CASUAL_RUMBLE:
            for p in range(P):
                if pl[p, P_ROLE] == ROLE_ARCHENEMY:
                    st.s[S_STARTING] = p  # 904.6: the archenemy takes the first turn


@kernel
def _seat_teams(st, order, alternating):
    """Teams sit together (or alternate, 811.3); each team's member order and the order
    of the teams are random."""
    pl = st.pl
    P = pl.shape[0]
    nteams = 0
    for p in range(P):
        nteams = max(nteams, pl[p, P_TEAM] + 1)
    size = P // max(nteams, 1)
    members = np.empty((nteams, P), np.int64)
    fill = np.zeros(nteams, np.int64)
    for p in range(P):
        t = pl[p, P_TEAM]
        members[t, fill[t]] = p
        fill[t] += 1
    for t in range(nteams):
        shuffle_ints(st, members[t], fill[t])
    k = 0
    if alternating:
        for x in range(size):
            for t in range(nteams):
                order[k] = members[t, x]
                k += 1
        return
    teams = np.arange(nteams)
    shuffle_ints(st, teams, nteams)
    for t in teams:  # (teams may differ in size: Archenemy's, 904.2)
        for x in range(fill[t]):
            order[k] = members[t, x]
            k += 1


@kernel
def _emperors(st):
    """809.2: each team's emperor sits in its middle, the others are generals; ranges
    (809.3a, 809.6a): the smallest reach to one opposing general (two for an emperor)."""
    pl = st.pl
    P = pl.shape[0]
    for p in range(P):
        pl[p, P_ROLE] = ROLE_GENERAL
    nteams = 0
    for p in range(P):
        nteams = max(nteams, pl[p, P_TEAM] + 1)
    for t in range(nteams):
        mem = np.empty(P, np.int64)
        n = 0
        for pos in range(P):
            q = st.seat[pos]
            if pl[q, P_TEAM] == t:
                mem[n] = q
                n += 1
        # the team's block may wrap around seat 0: start after a non-teammate
        start = 0
        for x in range(n):
            left = st.seat[(pl[mem[x], P_SEATPOS] - 1) % P]
            if pl[left, P_TEAM] != t:
                start = x
        block = np.empty(n, np.int64)
        cur = mem[start]
        for x in range(n):
            block[x] = cur
            cur = st.seat[(pl[cur, P_SEATPOS] + 1) % P]
        pl[block[(n - 1) // 2], P_ROLE] = ROLE_EMPEROR
    emperor_ranges(st)


@kernel
def emperor_ranges(st):
    """809.3a / 809.6a: each player whose range the variant decides (P_REACH -1) gets
    the smallest reach to one opposing general (two for an emperor) as seated."""
    pl = st.pl
    P = pl.shape[0]
    for p in range(P):
        if pl[p, P_REACH] != -1:
            continue
        need = 2 if pl[p, P_ROLE] == ROLE_EMPEROR else 1
        first = second = P  # the two smallest distances (each is below P)
        k = 0
        for q in range(P):
            if pl[q, P_TEAM] != pl[p, P_TEAM] and pl[q, P_ROLE] == ROLE_GENERAL:
                d = (pl[q, P_SEATPOS] - pl[p, P_SEATPOS]) % P
                d = min(d, P - d)
                if d < first:
                    first, second = d, first
                elif d < second:
                    second = d
                k += 1
        pl[p, P_REACH] = (first if need == 1 else second) if k >= need else P // 2


@kernel
def _starting(st, v):
    """103.1 / 805.3 / 808.4 / 809.4: who takes the first turn."""
    pl = st.pl
    P = pl.shape[0]
    if v == EMPEROR:
        n = 0
        em = np.empty(P, np.int64)
        for p in range(P):
            if pl[p, P_ROLE] == ROLE_EMPEROR:
                em[n] = p
                n += 1
        return em[rand_below(st, n)]
    if v == TWO_HEADED_GIANT or v == TEAM_VS_TEAM:
        nteams = 0
        for p in range(P):
            nteams = max(nteams, pl[p, P_TEAM] + 1)
        t = rand_below(st, nteams)
        first = -1
        for p in range(P):
            if pl[p, P_TEAM] == t:
                first = players.primary(st, p)
        if v == TWO_HEADED_GIANT:
            return first
        size = P // nteams  # 808.4: the middle of the team (left of the midpoint)
        q = first
        for _ in range(size // 2):
            q = st.seat[(pl[q, P_SEATPOS] + 1) % P]
        return q
    return rand_below(st, P)


# ----------------------------------------------------------------- a position (scenarios)
@kernel
def scenario_start(st, cd, holders, auto_markers):
    """A position set up mid-game (a scenario's ``start``): continuous effects of the
    permanents apply from the start (a creature under another's control by an Aura is
    not sick for it), ranges fixed for the turn (801.2c), and the turn of ``holders[0]``
    (every holder's, one turn marker each, in Grand Melee) begins at its start step."""
    s, o = st.s, st.o
    step, turn = s[S_STEP], s[S_TURN]
    if s[S_VARIANT] == EMPEROR:
        emperor_ranges(st)
    ring = st.scr[SCR_RING]
    n = range_of_influence.snapshot(st, ring)
    attack_targets.snapshot(st, ring, n)
    sick = np.empty(s[S_NBF], np.int64)
    for k in range(s[S_NBF]):
        sick[k] = o[st.bf[k], F_SICK]
    continuous_effects.recompute(st, cd)
    for k in range(s[S_NBF]):  # (control from the start is no change of control)
        o[st.bf[k], F_LCTL] = o[st.bf[k], F_CTL]
        o[st.bf[k], F_SICK] = sick[k]
    for p in range(st.pl.shape[0]):
        st.pl[p, P_LAND_DROPS] = 1
    if s[S_VARIANT] == GRAND_MELEE:
        hs = holders
        if auto_markers:  # 807.4b: the starting player and every fourth seat to the left
            buf = np.empty(st.pl.shape[0], np.int64)
            k = players.turn_order_from(st, holders[0], buf)
            hs = np.empty((k + 3) // 4, np.int32)
            for x in range(hs.shape[0]):
                hs[x] = buf[4 * x]
        s[S_NMARK] = min(hs.shape[0], st.mk.shape[0])
        for k in range(s[S_NMARK]):
            st.mk[k, :] = 0
            st.mk[k, K_NUMBER] = k + 1
            st.mk[k, K_HOLDER] = hs[k]
            s[S_CUR] = k
            _begin_at(st, hs[k], step, turn)
            turn_markers.save(st)
        turn_markers.load(st, 0)
        return
    p = holders[0]
    if s[S_TEAM_TURNS]:
        p = players.primary(st, p)
    _begin_at(st, p, step, turn)
    day_night.bound_check(st, cd)  # 702.145c, e: a daybound permanent in the position


@kernel
def _begin_at(st, p, step, turn):
    s = st.s
    s[S_ACTIVE] = p
    s[S_PRIO] = p
    s[S_STEP] = step
    s[S_TURN] = turn
    s[S_TODO] = TODO_BEGIN
    s[S_PASSES] = 0
    s[S_PEND] = 0


@kernel
def scenario_pregame(st, cd, draw):
    """A scenario in the pregame: players without a hand in the file draw seven, then
    the mulligans (103.5); the libraries are as the file lists them (no shuffle)."""
    s = st.s
    s[S_STARTING] = conspiracy.starting_player(st, cd, s[S_STARTING])  # (Power Play)
    buf = np.empty(st.pl.shape[0], np.int64)
    k = players.turn_order_from(st, s[S_STARTING], buf)
    for j in range(k):
        if draw[buf[j]]:
            q = buf[j]  # (Sovereign's Realm: a starting hand of five)
            st.pl[q, P_START_HAND] = conspiracy.starting_hand(st, cd, q, st.pl[q, P_START_HAND])
            zones.draw(st, cd, q, st.pl[q, P_START_HAND])
    s[S_STEP] = -1
    conspiracy.extra_hands(st, cd)  # (Backup Plan)
    if conspiracy.pregame_name(st, cd):  # (hidden agendas without a name in the file)
        return
    if conspiracy.pregame_hand(st, cd):
        return
    if mulligan.advance(st, cd):
        game_loop.first_turn(st, cd)
