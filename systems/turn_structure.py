"""Turn structure (500-514): turns and extra turns (500.7), the steps and their
turn-based actions, with shared team turns (805.4) and the first-turn draw (103.8,
800.7, 810.6).

``begin_step`` performs a step's turn-based actions and its "at the beginning of"
triggers (503.1-513.1); ``end_step`` empties the mana pools (500.4) and moves to the
next step (combat steps skipped when no creature attacks, 508.8; a first-strike
damage step only when needed, 510.4); the cleanup step (514) may repeat (514.3a)."""

from __future__ import annotations

from components.cards import (
    A_KIND,
    A_REFA,
    A_ZONE,
    C_NSA,
    C_SA0,
    EV_BEGINNING_OF,
    ST_DOESNT_UNTAP,
    ST_DOUBLE_COUNTERS,
    ST_MANA_KEEP,
    ST_NO_MAX_HAND,
    ST_SKIP_UNTAP,
    ST_UNTAP_IN_OPP_UNTAP,
    ST_UNTAP_TO_COUNTERS,
)
from components.decisions import PEND_ATTACK, PEND_DISCARD
from components.effects import (
    H_CTL,
    UNTIL_END_OF_TURN,
    UNTIL_YOUR_NEXT_TURN,
    X_CTL,
    X_KIND,
    X_LASTING,
    X_OBJ,
    X_SRC,
    X_TS,
    X_UNTIL,
)
from components.game import (
    NEED_DOESNT_UNTAP,
    NEED_SUSPEND,
    S_ACTIVE,
    S_AUTOPASS,
    S_CAPPED,
    S_CASUAL,
    S_CLEANUP_AGAIN,
    S_DECLARED,
    S_FSSTEP,
    S_MAXTURNS,
    S_N,
    S_NBEGAN,
    S_NEEDS,
    S_NEFF,
    S_NMARK,
    S_NSH,
    S_NTRG,
    S_NXT,
    S_PASSES,
    S_PCOUNT,
    S_PEND,
    S_PPLAYER,
    S_PREV_ACTIVE,
    S_PRIO,
    S_SKIP_FIRST_DRAW,
    S_STARTING,
    S_STEP,
    S_TEAM_TURNS,
    S_TODO,
    S_TURN,
    S_XCOMBATS,
    S_XRESUME,
    TODO_BEGIN,
    TODO_END,
    TODO_PRIORITY,
)
from components.objects import (
    F_ACTUSED,
    F_CTL,
    F_DMG,
    F_DTHIT,
    F_LOYUSED,
    F_NOREGEN,
    F_REGEN,
    F_SICK,
    F_TAPPED,
    F_TS,
    F_TYPES,
    F_ZONE,
)
from components.players import (
    P_ALIVE,
    P_CREATURE_SPELLS,
    P_DAMAGE_TURN,
    P_DRAWS,
    P_GRAVEYARD_TURN,
    P_HANDN,
    P_KEEP_MANA,
    P_LAND_DROPS,
    P_LANDS,
    P_MANA,
    P_MAXHAND,
    P_OPP_DAMAGED,
    P_OPP_SPELLS_SINCE,
    P_OUTSIDE_BASICS,
    P_PLANAR_ROLLS,
    P_SPELLS,
    P_SPELLS_LAST,
    P_TURNS,
)
from components.rules import (
    BATTLEFIELD,
    BEGIN_COMBAT,
    CLEANUP,
    COMBAT_DAMAGE,
    COMMAND,
    CTR_P1P1,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    DRAW,
    END_COMBAT,
    FIRST_STRIKE_DAMAGE,
    MAIN1,
    MAIN2,
    N_MANA,
    T_CREATURE,
    UNTAP,
    UPKEEP,
)
from components.scratch import SCR_BEGINNING_ORDER, SCR_CLEANUP_ORDER, SCR_DRAW_ORDER, SCR_RING
from systems import (
    attack_targets,
    combat,
    command_zone,
    continuous_effects,
    delayed,
    leaving_game,
    loops,
    players,
    range_of_influence,
    selectors,
    state_based_actions,
    suspend,
    triggers,
    turn_markers,
    variants,
    zones,
)
from systems.jit import kernel
from systems.state import bump, delete_row, touch


# ----------------------------------------------------------------- turns (500)
@kernel
def next_turn(st, cd):
    """The next turn: an extra turn first (500.7, the most recently created), else the
    next player (team, 805.4) in turn order; the safety cap makes the game a draw."""
    s = st.s
    bump(st)
    if s[S_MAXTURNS] and s[S_TURN] >= s[S_MAXTURNS]:
        s[S_CAPPED] = 1
        leaving_game.game_is_a_draw(st, cd, -1)
        return
    while s[S_NXT] and not st.pl[st.xt[0], P_ALIVE]:
        _pop_extra(st)
    if s[S_NXT]:
        p = st.xt[0]
        _pop_extra(st)
    else:
        p = players.next_in_turn_order(st, s[S_ACTIVE])
        if s[S_TEAM_TURNS]:  # the next team: its primary player
            while p >= 0 and players.teammates(st, p, s[S_ACTIVE]) and p != s[S_ACTIVE]:
                p = players.next_in_turn_order(st, p)
    if p < 0:
        return
    begin_turn(st, cd, p)


@kernel
def _pop_extra(st):
    s = st.s
    for j in range(s[S_NXT] - 1):
        st.xt[j] = st.xt[j + 1]
    s[S_NXT] -= 1


@kernel
def begin_turn(st, cd, p):
    """p's (p's team's) turn begins: land drops (305.2, 805.4c), "this turn" counts,
    once-per-turn abilities (606.3), ranges and attack targets fixed (801.2c), the
    planar controller (901.6)."""
    s, o = st.s, st.o
    bump(st)
    if s[S_TEAM_TURNS]:
        p = players.primary(st, p)
    for q in range(st.pl.shape[0]):  # the turn that ends: "since your last turn ended"
        if s[S_TURN] > 0 and players.is_active(st, q):
            st.pl[q, P_OPP_SPELLS_SINCE] = 0
    s[S_TURN] += 1
    s[S_PREV_ACTIVE] = s[S_ACTIVE] if s[S_TURN] > 1 else -1
    s[S_ACTIVE] = p
    st.pl[p, P_TURNS] += 1
    for q in range(st.pl.shape[0]):
        st.pl[q, P_SPELLS_LAST] = st.pl[q, P_SPELLS]
        st.pl[q, P_SPELLS] = 0
        st.pl[q, P_CREATURE_SPELLS] = 0
        st.pl[q, P_OUTSIDE_BASICS] = 0
        st.pl[q, P_DRAWS] = 0
        st.pl[q, P_OPP_DAMAGED] = 0
        st.pl[q, P_PLANAR_ROLLS] = 0
        st.pl[q, P_DAMAGE_TURN] = 0
        st.pl[q, P_LANDS] = 0
        st.pl[q, P_GRAVEYARD_TURN] = 0
        st.pl[q, P_LAND_DROPS] = 1
        for r in range(st.pl.shape[0]):
            st.rm[2, q, r] = 0
    for i in zones.permanents(st):
        o[i, F_LOYUSED] = 0
        o[i, F_ACTUSED] = 0
    for i in range(s[S_N]):  # ("this turn" for abilities working from the command zone too)
        if o[i, F_ZONE] == COMMAND:
            o[i, F_ACTUSED] = 0
    ring = st.scr[SCR_RING]
    n = range_of_influence.snapshot(st, ring)
    attack_targets.snapshot(st, ring, n)
    variants.turn_begins(st, cd, p)  # 901.6: the planar controller
    s[S_STEP] = UNTAP
    s[S_TODO] = TODO_BEGIN
    s[S_PASSES] = 0
    s[S_XCOMBATS] = 0
    s[S_XRESUME] = 0
    _end_effects(st, cd, UNTIL_YOUR_NEXT_TURN, p)


# ----------------------------------------------------------------- steps
@kernel
def begin_step(st, cd):
    """The turn-based actions of the step beginning (502-514), then its "at the
    beginning of" triggers; the active player will get priority (117.3a)."""
    s, o = st.s, st.o
    step = s[S_STEP]
    s[S_TODO] = TODO_PRIORITY
    s[S_PRIO] = s[S_ACTIVE]
    loops.choice_made(st)  # (a new step: no loop goes on across steps)
    s[S_PASSES] = 0
    act = s[S_ACTIVE]
    k = s[S_NBEGAN]
    if k < st.began.shape[0]:
        st.began[k, 0], st.began[k, 1], st.began[k, 2] = step, s[S_TURN], act
        s[S_NBEGAN] = k + 1
    triggers.new_event(st)
    if step == UNTAP:  # 502: day and night (728.2), then untap; no priority
        variants.untap_step(st, cd)
        bump(st)
        skip = st.s[S_CASUAL] and command_zone.command_static_any(st, cd, ST_SKIP_UNTAP)
        for i in zones.permanents(st):
            if players.is_active(st, o[i, F_CTL]):
                if not skip and not (s[S_NEEDS] & NEED_DOESNT_UNTAP and _stays_tapped(st, cd, i)):
                    if not _untap_to_counters(st, cd, i):
                        o[i, F_TAPPED] = 0
                o[i, F_SICK] = 0
            elif not skip and st.s[S_CASUAL] and _untaps_in_opponents_step(st, cd, o[i, F_CTL]):
                o[i, F_TAPPED] = 0  # (I Know All, I See All: in each opponent's untap step)
        s[S_TODO] = TODO_END
        return
    if step == DRAW:  # 504.1; 103.8 / 800.7 / 810.6 on the first turn
        skip = s[S_TURN] == 1 and s[S_SKIP_FIRST_DRAW] and players.same_side(st, act, s[S_STARTING])
        if not skip:
            buf = st.scr[SCR_DRAW_ORDER]
            k = players.turn_order_from(st, act, buf)
            for j in range(k):
                if players.is_active(st, buf[j]):
                    zones.draw(st, cd, buf[j], 1)
    elif step == MAIN1:
        variants.precombat_main(st, cd)  # 904.9: setting a scheme in motion
    elif step == DECLARE_ATTACKERS:  # 508.1 (auto-pass skips a declaration nobody can make)
        combat.clear_declarations(st)
        if combat.has_possible_attacker(st, cd) or (
            not s[S_AUTOPASS] and combat.controls_creature(st, cd)
        ):
            s[S_PPLAYER] = act
            s[S_PEND] = PEND_ATTACK
    elif step == DECLARE_BLOCKERS:  # 509.1, 802.4
        combat.clear_declarations(st)
        combat.queue_blockers(st)
        combat.ask_next_blocker(st, cd)
    elif step == FIRST_STRIKE_DAMAGE or step == COMBAT_DAMAGE:
        combat.combat_damage(st, cd, step)
    elif step == CLEANUP:
        cleanup(st, cd)
        return
    _beginning_of(st, cd, step)


@kernel
def _untap_to_counters(st, cd, i):
    """614.1a, Edge of Malacol: "if a creature you control would untap during your untap
    step, put two +1/+1 counters on it instead" (a tapped creature; the counters are an
    effect's, so they may be doubled). Returns whether it was replaced."""
    o = st.o
    if not st.s[S_CASUAL] or not o[i, F_TAPPED] or not (o[i, F_TYPES] & T_CREATURE):
        return False
    n = command_zone.command_static(st, cd, o[i, F_CTL], ST_UNTAP_TO_COUNTERS)
    if n <= 0:
        return False
    n = n << command_zone.doublings(st, cd, ST_DOUBLE_COUNTERS)
    zones.add_counters(st, cd, i, CTR_P1P1, n)
    return True


@kernel
def _stays_tapped(st, cd, i):
    """502.3: does a static ability say permanent i doesn't untap during its controller's
    untap step (Intruder Alarm)?"""
    continuous_effects.recompute(st, cd)
    o = st.o
    for x in zones.permanents(st):
        c = continuous_effects.face(st, cd, x)
        if c < 0:
            continue
        for r in range(cd.ct[c, C_SA0], cd.ct[c, C_SA0] + cd.ct[c, C_NSA]):
            if cd.sa[r, A_KIND] == ST_DOESNT_UNTAP and cd.sa[r, A_ZONE] == BATTLEFIELD:
                you = o[x, F_CTL]
                if players.in_range(st, you, o[i, F_CTL]) and selectors.matches(
                    st, cd, cd.sa[r, A_REFA], i, you, x, -1
                ):
                    return True
    return False


@kernel
def _beginning_of(st, cd, step):
    """ "At the beginning of [step]" triggers, once for each active player (805.4d), and
    delayed triggers for this step (603.7)."""
    buf = st.scr[SCR_BEGINNING_ORDER]
    k = players.turn_order_from(st, st.s[S_ACTIVE], buf)
    for j in range(k):
        if players.is_active(st, buf[j]):
            triggers.event(st, cd, EV_BEGINNING_OF, -1, buf[j], step, buf[j])
            if step == UPKEEP and st.s[S_NEEDS] & NEED_SUSPEND:  # 702.62a
                suspend.upkeep(st, cd, buf[j])
    delayed.at_step(st, cd, step)


@kernel
def cleanup(st, cd):
    """514.1: each active player discards down to their maximum hand size (805: every
    player of the active team); 514.2: damage wears off and "until end of turn"
    effects end; 514.3a: if a state-based action or trigger happens, players get
    priority and another cleanup step follows."""
    s, o = st.s, st.o
    buf = st.scr[SCR_CLEANUP_ORDER]
    k = players.turn_order_from(st, s[S_ACTIVE], buf)
    for j in range(k):
        p = buf[j]
        if not players.is_active(st, p):
            continue
        excess = st.pl[p, P_HANDN] - max_hand_size(st, cd, p)
        if excess > 0:
            s[S_PEND] = PEND_DISCARD
            s[S_PPLAYER] = p
            s[S_PCOUNT] = excess
            s[S_TODO] = TODO_BEGIN
            return
    touch(st)
    gm = s[S_NMARK] > 0
    holder = s[S_ACTIVE]
    for i in zones.permanents(st):  # (in Grand Melee: within the holder's range)
        if not gm or st.rm[0, holder, o[i, F_CTL]]:
            o[i, F_DMG] = 0
            o[i, F_DTHIT] = 0
            o[i, F_REGEN] = 0
            o[i, F_NOREGEN] = 0
    _end_effects(st, cd, UNTIL_END_OF_TURN, -1)
    for q in range(st.pl.shape[0]):  # mana kept "until end of turn" empties now
        for c in range(N_MANA):
            st.pl[q, P_KEEP_MANA + c] = 0
    k = 0
    while k < s[S_NSH]:
        if not gm or st.rm[0, holder, st.sh[k, H_CTL]]:
            s[S_NSH] = delete_row(st.sh, k, s[S_NSH])
        else:
            k += 1
    acted = state_based_actions.check(st, cd)
    if s[S_NTRG] or acted:
        s[S_TODO] = TODO_PRIORITY
        s[S_CLEANUP_AGAIN] = 1
    else:
        s[S_TODO] = TODO_END


@kernel
def _untaps_in_opponents_step(st, cd, p):
    """Does p untap all permanents they control during each opponent's untap step (a
    static of a face-up command-zone card of theirs), and is this an opponent's?"""
    if command_zone.command_static(st, cd, p, ST_UNTAP_IN_OPP_UNTAP) == 0:
        return False
    for q in range(st.pl.shape[0]):
        if st.pl[q, P_ALIVE] and players.is_active(st, q) and players.is_opponent(st, p, q):
            return True
    return False


@kernel
def max_hand_size(st, cd, p):
    """402.2: seven, or what the player's row says (vanguard, 902.5b); none with
    "you have no maximum hand size" (Reliquary Tower)."""
    if continuous_effects.player_static(st, cd, p, ST_NO_MAX_HAND):
        return 1 << 30
    if st.s[S_CASUAL] and variants.no_max_hand(st, cd, p):  # (schemes, planes)
        return 1 << 30
    m = st.pl[p, P_MAXHAND]
    return (1 << 30) if m < 0 else m


@kernel
def _end_effects(st, cd, until, p):
    """Effects whose duration is over: "until end of turn" ones at cleanup (514.2; in
    Grand Melee those of players within the marker holder's range), "until your next
    turn" ones as p's turn begins (611.2b); and effects on an object that has left the
    battlefield since (400.7: it is a new object, they never apply again). A lasting
    effect's statics (X_LASTING) end with the object holding them."""
    s, o = st.s, st.o
    gm = s[S_NMARK] > 0
    holder = s[S_ACTIVE]
    k = 0
    while k < s[S_NEFF]:
        e = st.eff
        i = e[k, X_OBJ]
        done = i >= 0 and (o[i, F_ZONE] != BATTLEFIELD or o[i, F_TS] > e[k, X_TS])
        if done:
            pass
        elif e[k, X_UNTIL] == until:
            if until == UNTIL_YOUR_NEXT_TURN:
                done = e[k, X_CTL] == p
            else:
                done = not gm or st.rm[0, holder, e[k, X_CTL]]
        if done:
            if e[k, X_KIND] == X_LASTING and e[k, X_SRC] >= 0:
                zones.cease(st, cd, e[k, X_SRC])
            s[S_NEFF] = delete_row(e, k, s[S_NEFF])
            touch(st)
        else:
            k += 1


@kernel
def end_step(st, cd):
    """The step ends: mana empties (500.4), and the next step begins (or the turn ends)."""
    s = st.s
    step = s[S_STEP]
    _empty_pools(st, cd)
    if step == CLEANUP:
        if s[S_CLEANUP_AGAIN]:
            s[S_CLEANUP_AGAIN] = 0
            s[S_TODO] = TODO_BEGIN
            return
        if s[S_NMARK]:
            turn_markers.end_turn(st, cd)  # 807.4c: the marker moves on
        else:
            next_turn(st, cd)
        return
    if step == DECLARE_ATTACKERS and not s[S_DECLARED]:
        nxt = END_COMBAT  # 508.8
    elif step == DECLARE_BLOCKERS:
        s[S_FSSTEP] = 1 if combat.needs_first_strike_step(st) else 0
        nxt = FIRST_STRIKE_DAMAGE if s[S_FSSTEP] else COMBAT_DAMAGE
    elif step == FIRST_STRIKE_DAMAGE:
        nxt = COMBAT_DAMAGE
    elif step == COMBAT_DAMAGE:
        nxt = END_COMBAT
    elif step == END_COMBAT:
        combat.end_combat(st)
        nxt = MAIN2  # (an additional combat's additional main phase is postcombat, 505.1a)
    elif (step == MAIN1 or step == MAIN2) and s[S_XCOMBATS] > 0:
        # 500.8: "after this main phase, an additional combat phase followed by an
        # additional main phase" (Sokenzan); then the turn goes on where it was
        s[S_XCOMBATS] -= 1
        if s[S_XRESUME] == 0:
            s[S_XRESUME] = 1 + step + 1
        nxt = BEGIN_COMBAT
    elif step == MAIN2 and s[S_XRESUME] > 0:  # the additional main phase ends
        nxt = s[S_XRESUME] - 1
        s[S_XRESUME] = 0
    else:
        nxt = step + 1
    s[S_STEP] = nxt
    s[S_TODO] = TODO_BEGIN


@kernel
def _empty_pools(st, cd):
    """500.4: unspent mana empties from each pool (Omnath's green stays)."""
    for p in range(st.pl.shape[0]):
        keep_green = False
        for c in range(N_MANA):
            if st.pl[p, P_MANA + c]:
                if c == 4 and not keep_green:
                    keep_green = continuous_effects.player_static(st, cd, p, ST_MANA_KEEP)
                if c != 4 or not keep_green:  # (mana kept until end of turn stays)
                    st.pl[p, P_MANA + c] = min(st.pl[p, P_MANA + c], st.pl[p, P_KEEP_MANA + c])
