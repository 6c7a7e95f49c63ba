"""Combat (506-511) with multiplayer attack options (802, 803).

Declarations are made one creature at a time (``declare_attack`` /
``declare_block``) and closed with ``finish_attacks`` / ``finish_blocks``, which
check the whole declaration (508.1, 509.1) before anything is tapped or marked.
Which players a creature may attack comes from the attack-target kernel
(``systems/attack_targets.py``): range of influence (801.3), the attack option
(802, 803) and teammates. Blockers are declared by each defending player in
APNAP order (802.4); a defender sees only creatures attacking them (802.4a-b).
Combat damage: first-strike step when needed (510.4), damage assignment order
is declaration order (documented default for 510.1c), lethal damage to each
blocker in order, the rest to the last blocker or, with trample, the defender.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.actions import IllegalAction, is_player_ref, player_ref, ref_player
from ecs.constants import (
    BATTLEFIELD,
    FIRST_STRIKE_DAMAGE,
    KW_DEATHTOUCH,
    KW_DEFENDER,
    KW_DOUBLE_STRIKE,
    KW_FIRST_STRIKE,
    KW_FLYING,
    KW_HASTE,
    KW_MENACE,
    KW_REACH,
    KW_TRAMPLE,
    KW_VIGILANCE,
    LANDWALK,
    T_BATTLE,
    T_CREATURE,
    T_PLANESWALKER,
)
from ecs.legacy.systems.continuous_effects import CANT_ATTACK, CANT_BLOCK, recompute

if TYPE_CHECKING:
    from ecs.game import Game


def _creatures(g: Game, p: int) -> list[int]:
    o, db = g.obj, g.db
    n = o.n
    card = o.card[:n]
    m = (o.zone[:n] == BATTLEFIELD) & (o.controller[:n] == p) & (card >= 0)
    m &= (db.types[np.where(card >= 0, card, 0)] & T_CREATURE) != 0
    return [int(i) for i in np.flatnonzero(m)]


# ----------------------------------------------------------------- attacking
def attackable_players(g: Game, p: int) -> list[int]:
    """Players p's creatures could attack now (801.3, 802, 803, teammates excluded)."""
    return [int(q) for q in np.flatnonzero(g.attack_mask[p]) if g.pl.alive[q]]


def attack_defenders(g: Game, p: int) -> list[int]:
    """Defender codes: attackable players, then planeswalkers they control (by object id)."""
    players = attackable_players(g, p)
    out = [player_ref(q) for q in players]
    o = g.obj
    n = o.n
    m = (o.zone[:n] == BATTLEFIELD) & ((o.types[:n] & (T_PLANESWALKER | T_BATTLE)) != 0)
    for i in np.flatnonzero(m):
        # 801.3: planeswalkers controlled by, and battles protected by, attackable opponents
        who = int(o.protector[i]) if o.types[i] & T_BATTLE else int(o.controller[i])
        if who in players:
            out.append(int(i))
    return out


def can_attack(g: Game, i: int) -> bool:
    o = g.obj
    if o.tapped[i] or o.restrict[i] & CANT_ATTACK or o.kw[i] & KW_DEFENDER:
        return False
    if o.sick[i] and not o.kw[i] & KW_HASTE:  # 302.6
        return False
    return True


def possible_attackers(g: Game) -> list[int]:
    """Creatures the active player (or active team, 805.10b: one combined attack) could attack with."""
    recompute(g)
    out = []
    for p in g.active_players:
        if g.pl.alive[p]:
            out += [i for i in _creatures(g, p) if can_attack(g, i) and i not in g.attack_decl]
    return out


def _side(g: Game, p: int) -> list[int]:
    """The players whose creatures p declares for: p, or p's team with shared team turns."""
    return g.teammates(p) if g.team_turns else [p]


def check_attack(g: Game, p: int, i: int, defender: int) -> None:
    d = g.pending
    if d is None or d.kind != "attack" or d.player != p:
        raise IllegalAction(f"{g.names[p]} is not declaring attackers now")
    recompute(g)
    o = g.obj
    side = _side(g, p)
    if not (0 <= i < o.n) or not any(i in _creatures(g, q) for q in side):
        raise IllegalAction(f"{_desc(g, i)} is not a creature {g.names[p]} controls")
    if i in g.attack_decl:
        raise IllegalAction(f"{g.name_of(i)} is already attacking")
    if not can_attack(g, i):
        why = "tapped" if o.tapped[i] else "unable to attack"
        if o.sick[i] and not o.kw[i] & KW_HASTE:
            why = "summoning sick (302.6)"
        if o.kw[i] & KW_DEFENDER:
            why = "a creature with defender"
        raise IllegalAction(f"{g.name_of(i)} can't attack: it is {why}")
    if defender not in attack_defenders(g, p):
        raise IllegalAction(
            f"{g.names[p]}'s creatures can't attack {_desc(g, defender)} (801.3, 802, 803)"
        )


def declare_attack(g: Game, p: int, i: int, defender: int) -> None:
    check_attack(g, p, i, defender)
    g.attack_decl[i] = defender


def finish_attacks(g: Game, p: int) -> None:
    """508.1: the declaration as a whole is checked, then attackers tap (unless vigilance)."""
    d = g.pending
    if d is None or d.kind != "attack" or d.player != p:
        raise IllegalAction(f"{g.names[p]} is not declaring attackers now")
    o = g.obj
    for i, defender in g.attack_decl.items():
        if is_player_ref(defender):
            o.attacking_player[i] = ref_player(defender)
        else:
            o.attacking_object[i] = defender
            battle = o.types[defender] & T_BATTLE
            o.attacking_player[i] = o.protector[defender] if battle else o.controller[defender]
        if not o.kw[i] & KW_VIGILANCE:
            o.tapped[i] = True
    g.declared_attackers = bool(g.attack_decl)
    g.attack_decl = {}
    g.pending = None
    g.dirty = True
    g.world.emit("attackers_declared", p)


def attackers(g: Game) -> list[int]:
    """Attacking creatures of this turn's combat (in Grand Melee, this marker's turn)."""
    o = g.obj
    n = o.n
    m = (o.attacking_player[:n] >= 0) & (o.zone[:n] == BATTLEFIELD)
    if g.markers:
        m &= np.isin(o.controller[:n], g.active_players)
    return np.flatnonzero(m).tolist()


# ----------------------------------------------------------------- blocking
def defending_players(g: Game) -> list[int]:
    """Players being attacked (directly or through their planeswalkers), in APNAP order;
    with shared team turns, one combined block per defending team, declared by its
    primary player (805.10d, 805.2)."""
    atk = {int(g.obj.attacking_player[i]) for i in attackers(g)}
    out = [q for q in g.apnap() if q in atk and not g.is_active(q)]
    if g.team_turns:
        seen, teams = set(), []
        for q in out:
            if int(g.pl.team[q]) not in seen:
                seen.add(int(g.pl.team[q]))
                teams.append(g.primary(q))
        return teams
    return out


def _blockable(g: Game, b: int, a: int, q: int) -> bool:
    """Can q's creature b block attacker a (802.4a, 702.9, 702.17, 702.14)?"""
    o = g.obj
    attacked = int(o.attacking_player[a])
    if o.zone[a] != BATTLEFIELD or attacked < 0:
        return False
    if attacked != q and not (g.team_turns and g.pl.team[attacked] == g.pl.team[q]):
        return False  # 802.4a; 805.10d: a team blocks creatures attacking any of its players
    akw = int(o.kw[a])
    if akw & KW_FLYING and not o.kw[b] & (KW_FLYING | KW_REACH):
        return False
    for _, (land, bit) in LANDWALK.items():  # 702.14, 802.2a: the player it attacks
        if akw & bit and _controls_land_type(g, attacked, land):
            return False
    return True


def _controls_land_type(g: Game, q: int, land: str) -> bool:
    for i in g.battlefield(q):
        if land in g.db.defs[g.obj.card[i]].subtypes:
            return True
    return False


def can_block(g: Game, b: int) -> bool:
    o = g.obj
    return not o.tapped[b] and not o.restrict[b] & CANT_BLOCK and b not in g.block_decl


def block_options(g: Game, q: int) -> list[tuple[int, int]]:
    recompute(g)
    atk = attackers(g)
    out = []
    for b in [b for p in _side(g, q) for b in _creatures(g, p)]:
        if can_block(g, b):
            for a in atk:
                if _blockable(g, b, a, int(g.obj.controller[b])):
                    out.append((b, a))
    return out


def check_block(g: Game, q: int, b: int, a: int) -> None:
    d = g.pending
    if d is None or d.kind != "block" or d.player != q:
        raise IllegalAction(f"{g.names[q]} is not declaring blockers now")
    recompute(g)
    o = g.obj
    if not (0 <= b < o.n) or not any(b in _creatures(g, p) for p in _side(g, q)):
        raise IllegalAction(f"{_desc(g, b)} is not a creature {g.names[q]} controls")
    if b in g.block_decl:
        raise IllegalAction(f"{g.name_of(b)} is already blocking")
    if o.tapped[b]:
        raise IllegalAction(f"{g.name_of(b)} is tapped and can't block")
    if o.restrict[b] & CANT_BLOCK:
        raise IllegalAction(f"{g.name_of(b)} can't block")
    if not (0 <= a < o.n) or a not in attackers(g):
        raise IllegalAction(f"{_desc(g, a)} is not attacking")
    if not _blockable(g, b, a, int(o.controller[b])):
        raise IllegalAction(f"{g.name_of(b)} can't block {g.name_of(a)}")


def declare_block(g: Game, q: int, b: int, a: int) -> None:
    check_block(g, q, b, a)
    g.block_decl[b] = a


def blocks_legal(g: Game) -> str | None:
    """Whole-declaration checks (509.1c): menace needs two or more blockers (702.110b)."""
    counts: dict[int, int] = {}
    for a in g.block_decl.values():
        counts[a] = counts.get(a, 0) + 1
    for a, k in counts.items():
        if g.obj.kw[a] & KW_MENACE and k < 2:
            return f"{g.name_of(a)} has menace and can't be blocked except by two or more creatures"
    return None


def finish_blocks(g: Game, q: int) -> None:
    d = g.pending
    if d is None or d.kind != "block" or d.player != q:
        raise IllegalAction(f"{g.names[q]} is not declaring blockers now")
    err = blocks_legal(g)
    if err:
        raise IllegalAction(err)
    o = g.obj
    newly: dict[int, list[int]] = {}
    for b, a in g.block_decl.items():
        o.blocking[b] = a
        o.blocked[a] = True
        g.block_order.setdefault(a, []).append(b)
        newly.setdefault(a, []).append(b)
    g.block_decl = {}
    from ecs.legacy.systems.triggers import became_blocked

    for a, bs in newly.items():
        became_blocked(g, a, bs)
    g.pending = None
    if q in g.blockers_to_declare:
        g.blockers_to_declare.remove(q)
    g.world.emit("blockers_declared", q)


# ----------------------------------------------------------------- damage (510)
def needs_first_strike_step(g: Game) -> bool:
    o = g.obj
    for i in attackers(g) + blockers(g):
        if o.kw[i] & (KW_FIRST_STRIKE | KW_DOUBLE_STRIKE):
            return True
    return False


def blockers(g: Game) -> list[int]:
    o = g.obj
    n = o.n
    m = (o.blocking[:n] >= 0) & (o.zone[:n] == BATTLEFIELD)
    if g.markers:
        m &= np.isin(o.blocking[:n], attackers(g))
    return np.flatnonzero(m).tolist()


def _deals_now(g: Game, i: int, step: int) -> bool:
    kw = int(g.obj.kw[i])
    if step == FIRST_STRIKE_DAMAGE:
        return bool(kw & (KW_FIRST_STRIKE | KW_DOUBLE_STRIKE))
    if not g.first_strike_step:
        return True
    return bool(kw & KW_DOUBLE_STRIKE) or not g.obj.dealt_first_strike[i]


def combat_damage(g: Game, step: int) -> None:
    """510.1-510.2: assign all combat damage, then deal it at once."""
    from ecs.legacy.systems.damage import deal_damage

    recompute(g)
    o = g.obj
    assignments: list[tuple[int, int, int]] = []  # (source, target code, amount)
    for a in attackers(g):
        if not _deals_now(g, a, step):
            continue
        power = int(o.power[a])
        if power <= 0:
            continue
        defender = (
            int(o.attacking_object[a])
            if o.attacking_object[a] >= 0
            else player_ref(int(o.attacking_player[a]))
        )
        if o.attacking_object[a] >= 0 and o.zone[defender] != BATTLEFIELD:
            defender = None
        if not o.blocked[a]:
            if defender is not None:
                assignments.append((a, defender, power))
            continue
        order = [
            b for b in g.block_order.get(a, []) if o.zone[b] == BATTLEFIELD and o.blocking[b] == a
        ]
        if not order:
            if o.kw[a] & KW_TRAMPLE and defender is not None:  # 702.19e
                assignments.append((a, defender, power))
            continue
        left = power
        for k, b in enumerate(order):
            lethal = (
                1 if o.kw[a] & KW_DEATHTOUCH else max(0, int(o.toughness[b]) - int(o.damage[b]))
            )
            last = k == len(order) - 1
            give = min(left, lethal)
            if last and not (o.kw[a] & KW_TRAMPLE and defender is not None):
                give = left
            if give > 0:
                assignments.append((a, b, give))
                left -= give
        if left > 0 and defender is not None:
            assignments.append((a, defender, left))
    for b in blockers(g):
        if not _deals_now(g, b, step):
            continue
        a = int(o.blocking[b])
        if o.power[b] > 0 and o.zone[a] == BATTLEFIELD:
            assignments.append((b, a, int(o.power[b])))
    if step == FIRST_STRIKE_DAMAGE:
        for src, _, _ in assignments:
            o.dealt_first_strike[src] = True
    for src, tgt, amt in assignments:
        deal_damage(g, src, int(o.controller[src]), tgt, amt, combat=True)


def end_combat(g: Game) -> None:
    """511.3: creatures and planeswalkers are removed from combat (in Grand Melee, those
    of this marker's combat only)."""
    o = g.obj
    n = o.n
    if g.markers:
        for i in attackers(g) + blockers(g):
            o.reset_combat(i)
    else:
        o.attacking_player[:n] = -1
        o.attacking_object[:n] = -1
        o.blocking[:n] = -1
        o.blocked[:n] = False
        o.dealt_first_strike[:n] = False
    g.block_order = {}
    g.declared_attackers = False
    g.first_strike_step = False


def _desc(g: Game, code: int) -> str:
    from ecs.legacy.systems.stack import describe

    return describe(g, code)
