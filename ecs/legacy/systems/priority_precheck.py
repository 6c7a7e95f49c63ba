"""Who could do anything with priority now? A vectorised pre-check (117.1).

When a player has priority they may cast a spell (instants any time; other
spells only in their main phase with an empty stack, 307.1), play a land
(305.1-2) or activate an ability (602.2). ``can_act_kernel`` rules out, for all
players at once, those who certainly can do none of these: no affordable card
of the right speed in hand, no land drop, no activatable ability. A ``True``
is only "maybe" (targets and exact colours are checked by the full
enumeration in ``systems/legal_actions.py``); a ``False`` is certain, so an
engine in auto-pass mode can skip the player (or the whole round) safely.
"""

from __future__ import annotations

import numpy as np

from ecs.legacy.systems.continuous_effects import recompute
from ecs.legacy.systems.stack import sorcery_timing
from systems.jit import entry

HAND, BATTLEFIELD = 1, 2
T_LAND = 1


@entry
def can_act_kernel(
    zone, owner, controller, card, tapped, types, is_instant, mana_value, mana_color,
    has_ability, has_instant_ability, pool, lands_played, sorcery_ok, out,
):  # fmt: skip
    """zone/owner/controller/card/tapped (G, N); card tables (C,) and mana_value (C, 7):
    total then W U B R G C symbols; pool (G, P, 6); lands_played (G, P);
    sorcery_ok (G, P) the players with sorcery timing now (one, or the active team, 805).
    out (G, P) bool: True where the player may have an action besides passing."""
    G, N = zone.shape
    P = pool.shape[1]
    for g in range(G):
        avail = np.zeros((P, 6), np.int64)  # mana each player could make, by colour
        for p in range(P):
            for k in range(6):
                avail[p, k] = pool[g, p, k]
            out[g, p] = False
        for i in range(N):
            c = card[g, i]
            if c >= 0 and zone[g, i] == BATTLEFIELD and not tapped[g, i] and mana_color[c] >= 0:
                avail[controller[g, i], mana_color[c]] += 1
        for i in range(N):
            c = card[g, i]
            if c < 0:
                continue
            if zone[g, i] == HAND:
                p = owner[g, i]
                if types[c] & T_LAND:
                    if sorcery_ok[g, p] and lands_played[g, p] < 1:
                        out[g, p] = True
                elif is_instant[c] or sorcery_ok[g, p]:
                    total = 0
                    ok = True
                    for k in range(6):
                        total += avail[p, k]
                        if mana_value[c, 1 + k] > avail[p, k]:
                            ok = False
                    if ok and mana_value[c, 0] <= total:
                        out[g, p] = True
            elif zone[g, i] == BATTLEFIELD:
                p = controller[g, i]
                if has_instant_ability[c] or (sorcery_ok[g, p] and has_ability[c]):
                    out[g, p] = True


def can_act_kernel_py(
    zone, owner, controller, card, tapped, types, is_instant, mana_value, mana_color,
    has_ability, has_instant_ability, pool, lands_played, sorcery_ok, out,
):  # fmt: skip
    """Plain-Python twin of :func:`can_act_kernel`."""
    G, N = zone.shape
    P = pool.shape[1]
    for g in range(G):
        # mana each player could make, by colour: the pool plus one per untapped source
        avail = [[int(pool[g, p, k]) for k in range(6)] for p in range(P)]
        for i in range(N):
            c = card[g, i]
            if c >= 0 and zone[g, i] == BATTLEFIELD and not tapped[g, i] and mana_color[c] >= 0:
                avail[controller[g, i]][mana_color[c]] += 1
        out[g, :] = False
        for i in range(N):
            c = card[g, i]
            if c < 0:
                continue
            if zone[g, i] == HAND:
                p = owner[g, i]
                is_land = bool(types[c] & T_LAND)
                land_drop = is_land and bool(sorcery_ok[g, p]) and lands_played[g, p] < 1
                affordable = mana_value[c, 0] <= sum(avail[p]) and all(
                    mana_value[c, 1 + k] <= avail[p][k] for k in range(6)
                )
                spell = (not is_land) and (is_instant[c] or bool(sorcery_ok[g, p])) and affordable
                if land_drop or spell:
                    out[g, p] = True
            elif zone[g, i] == BATTLEFIELD:
                p = controller[g, i]
                if has_instant_ability[c] or (sorcery_ok[g, p] and has_ability[c]):
                    out[g, p] = True


def kernel_args(g, sorcery_ok: np.ndarray) -> tuple:
    """The kernel's inputs for one game (G = 1 views; rows past ``n`` are empty)."""
    o, db = g.obj, g.db
    recompute(g)
    return (
        o.zone[None], o.owner[None], o.controller[None], o.card[None], o.tapped[None],
        db.types, db.is_instant, db.cost_table, db.mana_color,
        db.has_ability | ((db.types & 2) != 0) if g.deploy else db.has_ability,
        db.has_instant_ability, g.pl.mana[None], g.pl.lands_played[None],
        np.asarray(sorcery_ok, dtype=np.bool_)[None],
    )  # fmt: skip


def can_act(g) -> np.ndarray:
    """(P,) mask for one game; cached until the state changes."""
    sp = tuple(p for p in g.active_players if g.pl.alive[p] and sorcery_timing(g, p))
    key = (g.version, g.turn, sp)
    if g._can_act_version == key:
        return g._can_act
    ok = np.zeros(g.n_players, dtype=np.bool_)
    ok[list(sp)] = True
    out = np.zeros((1, g.n_players), dtype=np.bool_)
    can_act_kernel(*kernel_args(g, ok), out)
    if sp and g.db.graveyard_ability.any():  # unearth and the like: from the graveyard
        o = g.obj
        n = o.n
        card = o.card[:n]
        gy = (o.zone[:n] == 3) & (card >= 0)
        gy &= g.db.graveyard_ability[np.where(card >= 0, card, 0)]
        for p in sp:
            if (gy & (o.owner[:n] == p)).any():
                out[0, p] = True
    g._can_act = out[0]
    g._can_act_version = key
    return g._can_act
