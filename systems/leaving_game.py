"""Leaving the game, losing, winning and draws (104, 800.4, 801.14, 801.15, 809.5,
810.8).

800.4a: when a player leaves, every object they own leaves the game (a permanent's
leaving is seen by the other players' abilities, 603.6c), effects giving them control
end, their abilities on the stack cease to exist, and what they still control is
exiled; a decision they had to make is handed back to the rules (priority passes on,
their declarations are over). 800.4d: their waiting triggered abilities are never
put on the stack. 800.4k: their turns, extra turns included, don't begin.
809.5b / 810.8a: a team loses with its emperor, and a Two-Headed Giant team wins,
loses and draws only as a team."""

from __future__ import annotations

import numpy as np

from components.cards import ST_CANT_LOSE, ST_CANT_WIN
from components.decisions import PEND_NONE
from components.effects import X_CONTROL, X_KIND, X_NEWCTL
from components.game import S_N, S_NEFF, S_NMARK, S_NSTK, S_NTRG, S_NXT, S_OVER, S_PEND
from components.objects import F_CARD, F_CTL, F_ICTL, F_OWNER, F_ZONE
from components.players import (
    HOW_CONCEDED,
    HOW_DRAW,
    HOW_EFFECT,
    HOW_PLAYING,
    HOW_TEAM,
    HOW_WON,
    P_ALIVE,
    P_DRAWN,
    P_HOW,
    P_LIBN,
    P_LOST,
    P_MANA,
    P_ROLE,
    P_TEAM,
    P_WON,
    ROLE_EMPEROR,
)
from components.rules import BATTLEFIELD, EXILE, GONE, N_MANA, STACK
from components.stack import Q_CTL
from systems import continuous_effects, monarch, players, priority, turn_markers, variants, zones
from systems.jit import kernel
from systems.state import copy_into, delete_row, remove_all, touch


@kernel
def check_game_over(st):
    """104.2a: the game is over when the players left are all on one team; they win."""
    s, pl = st.s, st.pl
    if s[S_OVER]:
        return
    team = -1
    for q in range(pl.shape[0]):
        if pl[q, P_ALIVE]:
            if team >= 0 and pl[q, P_TEAM] != team:
                return
            team = pl[q, P_TEAM]
    s[S_OVER] = 1
    s[S_PEND] = PEND_NONE
    for q in range(pl.shape[0]):
        if pl[q, P_ALIVE]:
            pl[q, P_WON] = 1
            pl[q, P_HOW] = HOW_WON


@kernel
def with_team(st, ps, m):
    """809.5b: a team loses (or draws) with its emperor; 810.8a: a team sharing a life
    total does everything as a team. Adds those teammates to ps[:m]; returns the count."""
    pl = st.pl
    n = m
    for j in range(m):
        p = ps[j]
        if pl[p, P_ROLE] == ROLE_EMPEROR or _shares_with_someone(st, p):
            for q in range(pl.shape[0]):
                if pl[q, P_ALIVE] and pl[q, P_TEAM] == pl[p, P_TEAM]:
                    found = False
                    for k in range(n):
                        if ps[k] == q:
                            found = True
                    if not found:
                        ps[n] = q
                        n += 1
    return n


@kernel(inline="always")
def _shares_with_someone(st, p):
    for q in range(st.pl.shape[0]):
        if q != p and players.shares_life(st, p, q):
            return True
    return False


@kernel
def cant_lose(st, cd, p):
    """ "You can't lose the game" (Platinum Angel); with a shared life total it covers the
    team (810.8a)."""
    for q in range(st.pl.shape[0]):
        if (q == p or players.shares_life(st, p, q)) and continuous_effects.player_static(
            st, cd, q, ST_CANT_LOSE
        ):
            return True
    return False


@kernel
def cant_win(st, cd, p):
    """ "Your opponents can't win the game", from an opponent within p's range (801.10)."""
    return continuous_effects.opponent_static(st, cd, p, ST_CANT_WIN)


@kernel
def players_lose(st, cd, ps, m):
    """104.3: these players lose at once (with their teams, as above); if that is
    everyone left, the game is a draw for them (104.4a)."""
    buf = np.empty(st.pl.shape[0], np.int64)
    copy_into(buf, ps, m)
    k = m
    m = with_team(st, buf, m)
    pl = st.pl
    _how(st, buf, k, m, HOW_EFFECT)
    everyone = True
    for q in range(pl.shape[0]):
        if pl[q, P_ALIVE]:
            found = False
            for j in range(m):
                if buf[j] == q:
                    found = True
            if not found:
                everyone = False
    if everyone:
        draw_players(st, cd, buf, m)
        return
    for j in range(m):
        pl[buf[j], P_LOST] = 1
    leave_many(st, cd, buf, m)


@kernel(inline="always")
def _how(st, buf, k, m, default):
    """Why these players leave: the first k their own reason (the default if none was
    given), the teammates who go with them (k..m) 'team'."""
    for j in range(m):
        if st.pl[buf[j], P_HOW] == HOW_PLAYING:
            st.pl[buf[j], P_HOW] = default if j < k else HOW_TEAM


@kernel
def concede(st, cd, p):
    """104.3a: a player who concedes loses and leaves; "can't lose" doesn't stop it
    (810.8b: their team leaves with them)."""
    buf = np.empty(st.pl.shape[0], np.int64)
    buf[0] = p
    m = with_team(st, buf, 1)
    st.pl[p, P_HOW] = HOW_CONCEDED
    _how(st, buf, 1, m, HOW_CONCEDED)
    for j in range(m):
        st.pl[buf[j], P_LOST] = 1
    leave_many(st, cd, buf, m)


@kernel
def draw_players(st, cd, ps, m):
    """The game is a draw for these players; they leave (104.4, 801.15)."""
    buf = np.empty(st.pl.shape[0], np.int64)
    copy_into(buf, ps, m)
    m = with_team(st, buf, m)
    for j in range(m):
        st.pl[buf[j], P_DRAWN] = 1
        st.pl[buf[j], P_HOW] = HOW_DRAW
    leave_many(st, cd, buf, m)


@kernel
def win(st, cd, p):
    """An effect says p wins: p's opponents within p's range lose instead (801.14),
    unless something stops it."""
    if not st.pl[p, P_ALIVE] or cant_win(st, cd, p):
        return
    ps = np.empty(st.pl.shape[0], np.int64)
    m = 0
    for q in range(st.pl.shape[0]):
        if (
            players.is_opponent(st, p, q)
            and players.in_range(st, p, q)
            and not cant_lose(st, cd, q)
        ):
            ps[m] = q
            m += 1
    if m:
        players_lose(st, cd, ps, m)


@kernel
def game_is_a_draw(st, cd, ctl):
    """ "The game is a draw": for everyone, or, with ``ctl`` >= 0, for ctl and the players
    within ctl's range (801.15)."""
    ps = np.empty(st.pl.shape[0], np.int64)
    m = 0
    for q in range(st.pl.shape[0]):
        if st.pl[q, P_ALIVE] and (ctl < 0 or players.in_range(st, ctl, q)):
            ps[m] = q
            m += 1
    if m:
        draw_players(st, cd, ps, m)


@kernel
def leave_many(st, cd, ps, m):
    """800.4a: these players leave the game at the same time."""
    pl = st.pl
    k = 0
    for j in range(m):
        if pl[ps[j], P_ALIVE]:
            ps[k] = ps[j]
            k += 1
    if k == 0:
        return
    touch(st)
    info = variants.players_leaving(st, cd, ps, k)  # 901.6, 901.10b, 901.14b
    for j in range(k):
        pl[ps[j], P_ALIVE] = 0
    monarch.players_leave(st, cd, ps, k)  # 724.4
    check_game_over(st)
    if st.s[S_OVER]:  # 104.2: the game is over, the position stays as it ended
        return
    for j in range(k):
        _remove_objects(st, cd, ps[j])
    variants.players_left(st, cd, ps, k, info)  # 901.10
    if st.s[S_NMARK]:  # 807.4c, 807.4e-g: turn markers of a shrinking table
        turn_markers.players_left(st, cd, ps, k)
    check_game_over(st)
    for j in range(k):
        priority.player_left(st, cd, ps[j])


@kernel
def _remove_objects(st, cd, p):
    o, s = st.o, st.s
    k = 0  # control effects giving p control end
    while k < s[S_NEFF]:
        if st.eff[k, X_KIND] == X_CONTROL and st.eff[k, X_NEWCTL] == p:
            s[S_NEFF] = delete_row(st.eff, k, s[S_NEFF])
        else:
            k += 1
    n = s[S_N]
    for i in range(n):  # what p owns leaves the game
        if o[i, F_OWNER] == p and o[i, F_ZONE] != GONE:
            zones.cease(st, cd, i)
    st.pl[p, P_LIBN] = 0
    q = 0  # p's abilities on the stack cease to exist
    while q < s[S_NSTK]:
        i = st.stk[q]
        if o[i, F_ICTL] == p and o[i, F_CARD] < 0:
            zones.cease(st, cd, i)
        else:
            q += 1
    continuous_effects.recompute(st, cd)
    for i in range(n):  # what p controls but doesn't own is exiled
        if o[i, F_ZONE] == BATTLEFIELD and o[i, F_CTL] == p:
            zones.move(st, cd, i, EXILE, -1)
    q = 0
    while q < s[S_NSTK]:
        i = st.stk[q]
        if o[i, F_ICTL] == p and o[i, F_ZONE] == STACK:
            zones.move(st, cd, i, EXILE, -1)
        else:
            q += 1
    k = 0  # 800.4d: their triggered abilities never go on the stack
    while k < s[S_NTRG]:
        if st.trg[k, Q_CTL] == p:
            s[S_NTRG] = delete_row(st.trg, k, s[S_NTRG])
        else:
            k += 1
    s[S_NXT] = remove_all(st.xt, s[S_NXT], p)  # 800.4k: nor do their extra turns begin
    for c in range(N_MANA):
        st.pl[p, P_MANA + c] = 0
