"""The observation vector of a player (components/observation.py declares it): what
the environments give an agent, filled in one pass over the game's tables. Hidden
information stays hidden: other players' hands and libraries are counts, face-down
cards of others show no card, library order never appears."""

from __future__ import annotations

from components.decisions import (
    A_ATTACK,
    A_BLOCK,
    AC_ARG,
    AC_ARG2,
    AC_KIND,
    AC_OBJ,
    AC_PLAYER,
    PEND_NONE,
)
from components.game import (
    S_ACTIVE,
    S_ATTACK_MODE,
    S_DAY_NIGHT,
    S_MONARCH,
    S_N,
    S_NACTS,
    S_NSTK,
    S_OVER,
    S_PCOUNT,
    S_PEND,
    S_PPLAYER,
    S_STARTING,
    S_STEP,
    S_TURN,
    S_VARIANT,
)
from components.objects import (
    F_ATKO,
    F_ATKP,
    F_ATT,
    F_BLOCKING,
    F_CARD,
    F_COMMANDER,
    F_CTL,
    F_CTR,
    F_DMG,
    F_FACE_DOWN,
    F_IKIND,
    F_KW,
    F_OWNER,
    F_POW,
    F_SICK,
    F_TAPPED,
    F_TOKEN,
    F_TOU,
    F_TYPES,
    F_ZONE,
)
from components.observation import (
    ACTION_INDEX,
    CARD_INDEX,
    GAME_INDEX,
    NA,
    NC,
    NG,
    NP,
    PLAYER_INDEX,
)
from components.players import (
    P_ALIVE,
    P_DRAWN,
    P_HANDN,
    P_LANDS,
    P_LIBN,
    P_LIFE,
    P_LIFEPOOL,
    P_LOST,
    P_MANA,
    P_MULLIGANS,
    P_POISON,
    P_ROLE,
    P_SEATPOS,
    P_TEAM,
    P_WON,
)
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    CTR_LOYALTY,
    CTR_M1M1,
    CTR_P1P1,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    N_MANA,
    STACK,
)
from components.scratch import SCR_OBS_BUCKET, SCR_OBS_SLOT
from components.stack import I_SPELL
from systems import continuous_effects, players
from systems.jit import kernel

_G_TURN, _G_STEP, _G_DECISION = GAME_INDEX["turn"], GAME_INDEX["step"], GAME_INDEX["decision"]
_G_I_DECIDE, _G_COUNT = GAME_INDEX["i_decide"], GAME_INDEX["decision_count"]
_G_STACK, _G_PLAYERS, _G_ALIVE = (
    GAME_INDEX["stack_size"],
    GAME_INDEX["players"],
    GAME_INDEX["players_in_game"],
)
_G_ACTIVE, _G_START = GAME_INDEX["active_seat"], GAME_INDEX["starting_seat"]
_G_VARIANT, _G_ATTACK = GAME_INDEX["variant"], GAME_INDEX["attack_option"]
_G_LEGAL, _G_OVER = GAME_INDEX["legal_actions"], GAME_INDEX["over"]
_G_DAYNIGHT, _G_MONARCH = GAME_INDEX["day_night"], GAME_INDEX["monarch_seat"]
_A_ARG = ACTION_INDEX["arg"]
_A_ARG2 = ACTION_INDEX["arg2"]
_A_ARG_SEAT = ACTION_INDEX["arg_seat"]
_A_ARG_SLOT = ACTION_INDEX["arg_slot"]
_A_KIND = ACTION_INDEX["kind"]
_A_OBJ_CARD = ACTION_INDEX["obj_card"]
_A_OBJ_SLOT = ACTION_INDEX["obj_slot"]
_A_PLAYER_SEAT = ACTION_INDEX["player_seat"]
_C_ATTACHED_SLOT = CARD_INDEX["attached_slot"]
_C_ATTACKING_SEAT = CARD_INDEX["attacking_seat"]
_C_ATTACKING_SLOT = CARD_INDEX["attacking_slot"]
_C_BLOCKING_SLOT = CARD_INDEX["blocking_slot"]
_C_CARD = CARD_INDEX["card"]
_C_COMMANDER = CARD_INDEX["commander"]
_C_CONTROLLER_SEAT = CARD_INDEX["controller_seat"]
_C_COUNTERS_M1M1 = CARD_INDEX["counters_m1m1"]
_C_COUNTERS_P1P1 = CARD_INDEX["counters_p1p1"]
_C_DAMAGE = CARD_INDEX["damage"]
_C_FACE_DOWN = CARD_INDEX["face_down"]
_C_IS_ABILITY = CARD_INDEX["is_ability"]
_C_KEYWORDS = CARD_INDEX["keywords"]
_C_LOYALTY = CARD_INDEX["loyalty"]
_C_MINE = CARD_INDEX["mine"]
_C_OWNER_SEAT = CARD_INDEX["owner_seat"]
_C_POWER = CARD_INDEX["power"]
_C_PRESENT = CARD_INDEX["present"]
_C_SICK = CARD_INDEX["sick"]
_C_STACK_POS = CARD_INDEX["stack_pos"]
_C_TAPPED = CARD_INDEX["tapped"]
_C_TEAMMATE = CARD_INDEX["teammate"]
_C_TOKEN = CARD_INDEX["token"]
_C_TOUGHNESS = CARD_INDEX["toughness"]
_C_TYPES = CARD_INDEX["types"]
_C_ZONE = CARD_INDEX["zone"]
_P_BATTLEFIELD_SIZE = PLAYER_INDEX["battlefield_size"]
_P_DRAWN = PLAYER_INDEX["drawn"]
_P_GRAVEYARD_SIZE = PLAYER_INDEX["graveyard_size"]
_P_HAND_SIZE = PLAYER_INDEX["hand_size"]
_P_IN_GAME = PLAYER_INDEX["in_game"]
_P_IN_MY_RANGE = PLAYER_INDEX["in_my_range"]
_P_IS_ACTIVE = PLAYER_INDEX["is_active"]
_P_IS_DECIDING = PLAYER_INDEX["is_deciding"]
_P_IS_ME = PLAYER_INDEX["is_me"]
_P_LANDS_PLAYED = PLAYER_INDEX["lands_played"]
_P_LIBRARY_SIZE = PLAYER_INDEX["library_size"]
_P_LIFE = PLAYER_INDEX["life"]
_P_LOST = PLAYER_INDEX["lost"]
_P_MANA_W = PLAYER_INDEX["mana_W"]
_P_MULLIGANS = PLAYER_INDEX["mulligans"]
_P_POISON = PLAYER_INDEX["poison"]
_P_PRESENT = PLAYER_INDEX["present"]
_P_ROLE = PLAYER_INDEX["role"]
_P_TEAMMATE = PLAYER_INDEX["teammate"]
_P_WON = PLAYER_INDEX["won"]


@kernel(inline="always")
def _seat(st, me, p, n):
    """How many seats to me's left player p sits (0: me)."""
    return (st.pl[p, P_SEATPOS] - st.pl[me, P_SEATPOS]) % n


@kernel(inline="always")
def _bucket(st, me, i, n):
    """The group of a visible object outside the hand and stack: 4 x its seat + zone."""
    o = st.o
    z = o[i, F_ZONE]
    if z == BATTLEFIELD:
        return 4 * _seat(st, me, o[i, F_CTL], n)
    if z == GRAVEYARD:
        return 4 * _seat(st, me, o[i, F_OWNER], n) + 1
    if z == EXILE:
        return 4 * _seat(st, me, o[i, F_OWNER], n) + 2
    if z == COMMAND:
        return 4 * _seat(st, me, o[i, F_OWNER], n) + 3
    return -1


@kernel
def observe(st, cd, me, out, max_players, max_cards, max_actions, card_ids):
    """Fill ``out`` (float32, components/observation.offsets long) with what player me
    sees; returns how many objects were shown."""
    continuous_effects.recompute(st, cd)
    s, o, pl = st.s, st.o, st.pl
    out[:] = 0
    n = pl.shape[0]
    p0 = NG
    c0 = p0 + max_players * NP
    a0 = c0 + max_cards * NC
    deciding = s[S_PPLAYER] if s[S_PEND] != PEND_NONE and not s[S_OVER] else -1
    # ---- game
    out[_G_TURN] = s[S_TURN]
    out[_G_STEP] = s[S_STEP]
    out[_G_DECISION] = s[S_PEND]
    out[_G_I_DECIDE] = 1 if deciding == me else 0
    out[_G_COUNT] = s[S_PCOUNT]
    out[_G_STACK] = s[S_NSTK]
    out[_G_PLAYERS] = n
    alive = 0
    for q in range(n):
        alive += pl[q, P_ALIVE]
    out[_G_ALIVE] = alive
    out[_G_ACTIVE] = _seat(st, me, s[S_ACTIVE], n)
    out[_G_START] = _seat(st, me, s[S_STARTING], n)
    out[_G_VARIANT] = s[S_VARIANT]
    out[_G_ATTACK] = s[S_ATTACK_MODE]
    out[_G_OVER] = s[S_OVER]
    out[_G_DAYNIGHT] = s[S_DAY_NIGHT]
    out[_G_MONARCH] = 1 + _seat(st, me, s[S_MONARCH], n) if s[S_MONARCH] >= 0 else 0
    # ---- players
    for q in range(n):
        r = _seat(st, me, q, n)
        if r >= max_players:
            continue
        b = p0 + r * NP
        pool = pl[q, P_LIFEPOOL]
        out[b + _P_PRESENT] = 1
        out[b + _P_IN_GAME] = pl[q, P_ALIVE]
        out[b + _P_IS_ME] = 1 if q == me else 0
        out[b + _P_TEAMMATE] = 1 if pl[q, P_TEAM] == pl[me, P_TEAM] else 0
        out[b + _P_IS_ACTIVE] = 1 if players.is_active(st, q) else 0
        out[b + _P_IS_DECIDING] = 1 if q == deciding else 0
        out[b + _P_LIFE] = pl[pool, P_LIFE]
        out[b + _P_POISON] = pl[pool, P_POISON]
        out[b + _P_HAND_SIZE] = pl[q, P_HANDN]
        out[b + _P_LIBRARY_SIZE] = pl[q, P_LIBN]
        out[b + _P_LANDS_PLAYED] = pl[q, P_LANDS]
        out[b + _P_IN_MY_RANGE] = 1 if players.in_range(st, me, q) else 0
        out[b + _P_WON] = pl[q, P_WON]
        out[b + _P_LOST] = pl[q, P_LOST]
        out[b + _P_DRAWN] = pl[q, P_DRAWN]
        for c in range(N_MANA):
            out[b + _P_MANA_W + c] = pl[q, P_MANA + c]
        out[b + _P_ROLE] = pl[q, P_ROLE]
        out[b + _P_MULLIGANS] = pl[q, P_MULLIGANS]
    # ---- cards: give each visible object a slot, in the documented order
    slot = st.scr[SCR_OBS_SLOT]
    N = s[S_N]
    for i in range(N):
        slot[i] = 0
        z = o[i, F_ZONE]
        if z == GRAVEYARD:
            r = _seat(st, me, o[i, F_OWNER], n)
            if r < max_players:
                out[p0 + r * NP + _P_GRAVEYARD_SIZE] += 1
        elif z == BATTLEFIELD:
            r = _seat(st, me, o[i, F_CTL], n)
            if r < max_players:
                out[p0 + r * NP + _P_BATTLEFIELD_SIZE] += 1
    m = 0
    if deciding == me:  # cards the options of my decision show me (a revealed pile...)
        for k in range(min(s[S_NACTS], st.acts.shape[0])):
            i = st.acts[k, AC_OBJ]
            if 0 <= i < N and m < max_cards and slot[i] == 0 and o[i, F_ZONE] == LIBRARY:
                m += 1
                slot[i] = m
    for i in range(N):  # my hand
        if m < max_cards and o[i, F_ZONE] == HAND and o[i, F_OWNER] == me:
            m += 1
            slot[i] = m
    for k in range(s[S_NSTK] - 1, -1, -1):  # the stack, top first
        i = st.stk[k]
        if m < max_cards:
            m += 1
            slot[i] = m
    # battlefield, graveyards, exile, command zone, each by seat, then id: a counting sort
    first = st.scr[SCR_OBS_BUCKET]
    nb = 4 * n
    first[: nb + 1] = 0
    for i in range(N):
        k = _bucket(st, me, i, n)
        if k >= 0:
            first[k + 1] += 1
    first[0] = m
    for k in range(nb):
        first[k + 1] += first[k]
    for i in range(N):
        k = _bucket(st, me, i, n)
        if k >= 0:
            first[k] += 1
            if first[k] <= max_cards:
                slot[i] = first[k]
    for i in range(N):
        if slot[i] == 0:
            continue
        b = c0 + (slot[i] - 1) * NC
        z = o[i, F_ZONE]
        hidden = o[i, F_FACE_DOWN] == 1 and o[i, F_OWNER] != me
        out[b + _C_PRESENT] = 1
        c = o[i, F_CARD]
        out[b + _C_CARD] = 0 if hidden or c < 0 else 1 + card_ids[c]
        out[b + _C_IS_ABILITY] = 1 if z == STACK and o[i, F_IKIND] != I_SPELL else 0
        out[b + _C_ZONE] = 1 + z
        out[b + _C_OWNER_SEAT] = _seat(st, me, o[i, F_OWNER], n)
        ctl = o[i, F_CTL]
        out[b + _C_CONTROLLER_SEAT] = _seat(st, me, ctl, n)
        out[b + _C_MINE] = 1 if ctl == me else 0
        out[b + _C_TEAMMATE] = 1 if pl[ctl, P_TEAM] == pl[me, P_TEAM] else 0
        out[b + _C_TAPPED] = o[i, F_TAPPED]
        out[b + _C_SICK] = o[i, F_SICK]
        if not hidden:
            out[b + _C_POWER] = o[i, F_POW]
            out[b + _C_TOUGHNESS] = o[i, F_TOU]
            out[b + _C_TYPES] = o[i, F_TYPES]
            out[b + _C_KEYWORDS] = o[i, F_KW]
        out[b + _C_DAMAGE] = o[i, F_DMG]
        out[b + _C_COUNTERS_P1P1] = o[i, F_CTR + CTR_P1P1]
        out[b + _C_COUNTERS_M1M1] = o[i, F_CTR + CTR_M1M1]
        out[b + _C_LOYALTY] = o[i, F_CTR + CTR_LOYALTY]
        if z == BATTLEFIELD and o[i, F_ATKP] >= 0:
            out[b + _C_ATTACKING_SEAT] = 1 + _seat(st, me, o[i, F_ATKP], n)
            if o[i, F_ATKO] >= 0:
                out[b + _C_ATTACKING_SLOT] = slot[o[i, F_ATKO]]
        if z == BATTLEFIELD and o[i, F_BLOCKING] >= 0:
            out[b + _C_BLOCKING_SLOT] = slot[o[i, F_BLOCKING]]
        if o[i, F_ATT] >= 0:
            out[b + _C_ATTACHED_SLOT] = slot[o[i, F_ATT]]
        out[b + _C_TOKEN] = o[i, F_TOKEN]
        if z == STACK:
            for k in range(s[S_NSTK]):
                if st.stk[k] == i:
                    out[b + _C_STACK_POS] = s[S_NSTK] - k
        out[b + _C_FACE_DOWN] = o[i, F_FACE_DOWN]
        out[b + _C_COMMANDER] = 1 if o[i, F_COMMANDER] else 0
    # ---- actions (only for the player deciding)
    if deciding == me:
        na = s[S_NACTS]
        out[_G_LEGAL] = na
        acts = st.acts
        for k in range(min(na, max_actions)):
            b = a0 + k * NA
            kind = acts[k, AC_KIND]
            out[b + _A_KIND] = 1 + kind
            out[b + _A_PLAYER_SEAT] = 1 + _seat(st, me, acts[k, AC_PLAYER], n)
            obj = acts[k, AC_OBJ]
            if 0 <= obj < N:
                out[b + _A_OBJ_SLOT] = slot[obj]
                c = o[obj, F_CARD]
                if slot[obj] and c >= 0 and not (o[obj, F_FACE_DOWN] and o[obj, F_OWNER] != me):
                    out[b + _A_OBJ_CARD] = 1 + card_ids[c]
            arg = acts[k, AC_ARG]
            out[b + _A_ARG] = arg
            if kind == A_BLOCK and 0 <= arg < N:
                out[b + _A_ARG_SLOT] = slot[arg]
            elif kind == A_ATTACK:
                if arg < 0 and -1 - arg < n:
                    out[b + _A_ARG_SEAT] = 1 + _seat(st, me, -1 - arg, n)
                elif 0 <= arg < N:
                    out[b + _A_ARG_SLOT] = slot[arg]
            out[b + _A_ARG2] = acts[k, AC_ARG2]
    return min(first[nb], max_cards)
