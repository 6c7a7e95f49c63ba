"""State-based actions (704): checked whenever a player would receive priority.

``sba_kernel`` (numba) and ``sba_kernel_py`` (its plain twin) compute, over
columns with a leading game axis (G, ...), which objects die and which players
lose; ``check_state_based_actions`` applies one round of all of them at once
(704.3) and is called until none apply. Rules covered:
704.5a 0 or less life, 704.5b drawing from an empty library, 704.5c ten poison
counters, 704.5d tokens outside the battlefield, 704.5f toughness 0 or less,
704.5g lethal damage, 704.5h deathtouch damage, 704.5i 0 loyalty,
704.5j legend rule, 704.5k world rule (801.12: only with another world permanent
in its controller's range), 704.5m Auras attached illegally (801.8),
704.5n Equipment attached illegally (801.9), 704.5q +1/+1 and -1/-1 counters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.constants import (
    BATTLEFIELD,
    C_DEFENSE,
    C_LOYALTY,
    GONE,
    GRAVEYARD,
    S_LEGENDARY,
    S_WORLD,
    T_BATTLE,
    T_CREATURE,
    T_PLANESWALKER,
)
from ecs.legacy.systems.continuous_effects import recompute
from ecs.legacy.systems.zones import move
from systems.jit import entry

if TYPE_CHECKING:
    from ecs.game import Game

DIE_NONE, DIE_TOUGHNESS, DIE_DESTROY, DIE_LOYALTY = 0, 1, 2, 3


@entry
def sba_kernel(
    zone, types, toughness, damage, deathtouch, counters, alive, life, poison, drew_empty,
    zero_life_ok, poison_limit, dies, annihilate, loses, card, token, special, work,
):  # fmt: skip
    """(G, N) object columns and (G, P) player columns -> dies, annihilate, loses, and
    work (G,): how many things need the Python part (deaths, counters, tokens outside the
    battlefield, Auras/Equipment/legends/world permanents on the battlefield, losers)."""
    G, N = zone.shape
    P = alive.shape[1]
    for g in range(G):
        w = 0
        for i in range(N):
            dies[g, i] = 0
            annihilate[g, i] = 0
            z = zone[g, i]
            if token[g, i] and z != 2 and z != 7:
                w += 1
            if z != 2:  # battlefield
                continue
            if card[g, i] >= 0 and special[card[g, i]]:
                w += 1
            if types[g, i] & 2:  # creature
                t = toughness[g, i]
                if t <= 0:
                    dies[g, i] = 1
                elif damage[g, i] >= t or (damage[g, i] > 0 and deathtouch[g, i]):
                    dies[g, i] = 2
            if types[g, i] & 16 and counters[g, i, 2] <= 0 and dies[g, i] == 0:
                dies[g, i] = 3
            a = min(counters[g, i, 0], counters[g, i, 1])
            if a > 0:
                annihilate[g, i] = a
            if dies[g, i] or a > 0:
                w += 1
        for p in range(P):
            loses[g, p] = alive[g, p] and (
                (life[g, p] <= 0 and not zero_life_ok[g, p])
                or drew_empty[g, p]
                or poison[g, p] >= poison_limit[g]
            )
            if loses[g, p]:
                w += 1
        work[g] = w


def sba_kernel_py(
    zone, types, toughness, damage, deathtouch, counters, alive, life, poison, drew_empty,
    zero_life_ok, poison_limit, dies, annihilate, loses, card, token, special, work,
):  # fmt: skip
    """Plain-Python twin of :func:`sba_kernel`, written for reading."""
    G, N = zone.shape
    for g in range(G):
        work[g] = 0
        for i in range(N):
            dies[g, i], annihilate[g, i] = DIE_NONE, 0
            if token[g, i] and zone[g, i] not in (BATTLEFIELD, GONE):  # 704.5d
                work[g] += 1
            if zone[g, i] != BATTLEFIELD:
                continue
            if card[g, i] >= 0 and special[card[g, i]]:  # 704.5j-n are checked in Python
                work[g] += 1
            is_creature = bool(types[g, i] & T_CREATURE)
            if is_creature and toughness[g, i] <= 0:  # 704.5f
                dies[g, i] = DIE_TOUGHNESS
            elif is_creature and damage[g, i] >= toughness[g, i]:  # 704.5g
                dies[g, i] = DIE_DESTROY
            elif is_creature and damage[g, i] > 0 and deathtouch[g, i]:  # 704.5h
                dies[g, i] = DIE_DESTROY
            elif types[g, i] & T_PLANESWALKER and counters[g, i, C_LOYALTY] <= 0:  # 704.5i
                dies[g, i] = DIE_LOYALTY
            annihilate[g, i] = max(0, min(counters[g, i, 0], counters[g, i, 1]))  # 704.5q
            if dies[g, i] != DIE_NONE or annihilate[g, i] > 0:
                work[g] += 1
        for p in range(alive.shape[1]):
            zero_life = life[g, p] <= 0 and not zero_life_ok[g, p]  # 704.5a
            loses[g, p] = bool(alive[g, p]) and (
                zero_life or bool(drew_empty[g, p]) or poison[g, p] >= poison_limit[g]  # 704.5b-c
            )
            if loses[g, p]:
                work[g] += 1


def _statics_of(g: Game, p: int, key: str) -> bool:
    """Does p control a permanent with static ability ``key`` naming "you"?"""
    recompute(g)
    o = g.obj
    for i in g.static_objs:
        if o.controller[i] == p and o.zone[i] == BATTLEFIELD:
            for k, _ in g.db.defs[o.card[i]].static:
                if k == key:
                    return True
    return False


def team_has_static(g: Game, p: int, key: str) -> bool:
    """Does p, or with a shared life total anyone on p's team, control a permanent with
    static ability ``key`` naming "you"? (810.8a, 810.9g-h: such a "you" covers the team.)"""
    return any(_statics_of(g, q, key) for q in _team_if_shared(g, p))


def cant_lose(g: Game, p: int) -> bool:
    """ "You can't lose the game" (810.8a: with a shared life total, for the whole team)."""
    return team_has_static(g, p, "cant_lose")


def _team_if_shared(g: Game, p: int) -> list[int]:
    return g.teammates(p) if g.shared_life else [p]


def cant_win(g: Game, p: int) -> bool:
    """Does an opponent of p control a "your opponents can't win" permanent in range (801.14)?"""
    for q in g.opponents(p):
        if _statics_of(g, q, "cant_win"):
            return True
    return False


def check_state_based_actions(g: Game) -> bool:
    """Perform every applicable state-based action at once; True if any was performed."""
    if not g.sba_dirty:
        return False
    g.sba_dirty = False
    recompute(g)
    o, pl, db = g.obj, g.pl, g.db
    n = o.n
    card = o.card[:n]
    P = pl.n
    zero_ok = np.zeros(P, dtype=np.bool_)
    if g.static_objs:
        zero_ok[:] = [team_has_static(g, p, "no_loss_at_zero_life") for p in range(P)]
    cap = o.cap
    if g._sba_buf is None or g._sba_buf[0].shape[1] != cap:
        g._sba_buf = (
            np.zeros((1, cap), dtype=np.int8),
            np.zeros((1, cap), dtype=np.int32),
            np.zeros((1, P), dtype=np.bool_),
        )
    dies, ann, loses = g._sba_buf
    work = g._sba_work
    sba_kernel(
        o.zone[None], o.types[None], o.toughness[None], o.damage[None],
        o.deathtouch_hit[None], o.counters[None], pl.alive[None], pl.life[None],
        pl.poison[None], pl.drew_from_empty[None], zero_ok[None],
        g.poison_limit, dies, ann, loses, o.card[None], o.token[None], db.special_sba, work,
    )  # fmt: skip
    if not work[0]:
        return False
    dies, ann = dies[:, :n], ann[:, :n]
    acted = False
    to_graveyard = [int(i) for i in np.flatnonzero(dies[0])]
    for i in np.flatnonzero(ann[0]):
        o.counters[i, 0] -= ann[0, i]
        o.counters[i, 1] -= ann[0, i]
        acted = True
    # 704.5d tokens outside the battlefield cease to exist
    gone_tokens = np.flatnonzero(o.token[:n] & (o.zone[:n] != BATTLEFIELD) & (o.zone[:n] != GONE))
    for i in gone_tokens:
        o.zone[i] = GONE
        acted = True
    bf = np.flatnonzero(o.zone[:n] == BATTLEFIELD)
    bf = bf[db.special_sba[card[bf]]].tolist()
    unattach = []
    for i in bf:
        d = db.defs[card[i]]
        t = int(o.attached_to[i])
        if d.is_aura:  # 704.5m, 801.8
            ok = t >= 0 and o.zone[t] == BATTLEFIELD and g.obj_in_range(int(o.controller[i]), t)
            if ok and d.enchant == "creature":
                ok = bool(db.types[card[t]] & T_CREATURE)
            if not ok:
                to_graveyard.append(i)
        elif d.is_equipment and t >= 0:  # 704.5n, 801.9
            ok = (
                o.zone[t] == BATTLEFIELD
                and bool(db.types[card[t]] & T_CREATURE)
                and g.obj_in_range(int(o.controller[i]), t)
            )
            if not ok:
                unattach.append(i)
    # 704.5v a battle with no defense counters goes to the graveyard, unless it is the
    # source of a triggered ability that hasn't left the stack yet (its "defeated" trigger)
    for i in bf:
        if db.types[card[i]] & T_BATTLE and o.counters[i, C_DEFENSE] <= 0:
            waiting = any(t[0] == i for t in g.triggers) or any(
                it.source == i for it in g.items.values() if not it.is_spell
            )
            if not waiting:
                to_graveyard.append(i)
    # 704.5j legend rule: a player keeps the newest (documented default choice)
    legends: dict[tuple[int, str], list[int]] = {}
    worlds = []
    for i in bf:
        d = db.defs[card[i]]
        if d.supertypes & S_LEGENDARY:
            legends.setdefault((int(o.controller[i]), d.name), []).append(i)
        if d.supertypes & S_WORLD:
            worlds.append(i)
    for group in legends.values():
        if len(group) > 1:
            group.sort(key=lambda i: o.timestamp[i])
            to_graveyard.extend(group[:-1])
    for i in worlds:  # 704.5k with 801.12: only newer world permanents in range count
        ctl = int(o.controller[i])
        if any(o.timestamp[j] > o.timestamp[i] and g.obj_in_range(ctl, j) for j in worlds):
            to_graveyard.append(i)
    for i in unattach:
        o.attached_to[i] = -1
        acted = True
    if to_graveyard:  # simultaneous: leave-the-battlefield triggers look back (603.10a)
        from ecs.legacy.systems.triggers import _sources

        g.lookback = _sources(g, "another_creature_leaves")
        for i in dict.fromkeys(to_graveyard):
            if o.zone[i] == BATTLEFIELD:
                move(g, i, GRAVEYARD)
                acted = True
        g.lookback = None
    losers = [int(p) for p in np.flatnonzero(loses[0]) if not cant_lose(g, int(p))]
    pl.drew_from_empty[:] = False  # 704.5b: a draw from an empty library counts once
    if losers:
        from ecs.legacy.systems.leaving_game import players_lose

        players_lose(g, losers)
        acted = True
    if acted:
        g.dirty = True
    return acted
