"""Continuous effects and the layer system (611, 613).

Derived columns are recomputed from scratch whenever the state is dirty:
layer 2 (control), layer 6 (abilities: keyword grants and "can't attack/block"),
layer 7a (base power/toughness), 7c (modifications: pumps, Equipment, Coat of
Arms) and counters. Within a layer, effects apply in timestamp order (613.7).
Sources: static abilities of permanents on the battlefield (611.3) and the
esper-held effects of resolved spells and abilities (611.2), whose affected set
was locked in as they resolved (611.2c). Range of influence (801.10, 801.11):
an effect affects and counts only what is within its controller's range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ecs.constants import BATTLEFIELD, T_CREATURE
from ecs.legacy.components.effects import ContinuousEffect, PreventionShield
from systems.jit import entry

if TYPE_CHECKING:
    from ecs.game import Game

CANT_ATTACK, CANT_BLOCK = 1, 2


def _static_cards(g: Game) -> np.ndarray:
    db = g.db
    cached = getattr(db, "_has_static", None)
    if cached is None:
        cached = np.array([bool(d.static) for d in db.defs], dtype=np.bool_)
        db._has_static = cached
    return cached


@entry
def base_layers(
    card, zone, base_controller, counters, card_kw, card_power, card_toughness, has_static,
    card_types, controller, kw, power, toughness, restrict, static_count, types,
):  # fmt: skip
    """Layers with no effects (G, N): copiable values (7a), base control, keywords, and
    +1/+1 / -1/-1 counters; counts the battlefield objects with static abilities."""
    G, N = card.shape
    for g in range(G):
        k = 0
        for i in range(N):
            c = card[g, i]
            controller[g, i] = base_controller[g, i]
            restrict[g, i] = 0
            if c < 0:
                kw[g, i] = 0
                power[g, i] = 0
                toughness[g, i] = 0
                types[g, i] = 0
                continue
            types[g, i] = card_types[c]
            kw[g, i] = card_kw[c]
            d = counters[g, i, 0] - counters[g, i, 1]
            power[g, i] = card_power[c] + d
            toughness[g, i] = card_toughness[c] + d
            if zone[g, i] == 2 and has_static[c]:
                k += 1
        static_count[g] = k


def base_layers_py(
    card, zone, base_controller, counters, card_kw, card_power, card_toughness, has_static,
    card_types, controller, kw, power, toughness, restrict, static_count, types,
):  # fmt: skip
    """Plain-Python twin of :func:`base_layers`."""
    G, N = card.shape
    for g in range(G):
        static_count[g] = 0
        for i in range(N):
            c = card[g, i]
            controller[g, i] = base_controller[g, i]  # layer 2 starts from the base controller
            restrict[g, i] = 0
            if c < 0:  # an ability on the stack has no characteristics
                kw[g, i] = power[g, i] = toughness[g, i] = types[g, i] = 0
                continue
            types[g, i] = card_types[c]  # layer 4 starts from the printed types
            counter_bonus = counters[g, i, 0] - counters[g, i, 1]  # +1/+1 minus -1/-1
            kw[g, i] = card_kw[c]
            power[g, i] = card_power[c] + counter_bonus
            toughness[g, i] = card_toughness[c] + counter_bonus
            if zone[g, i] == BATTLEFIELD and has_static[c]:
                static_count[g] += 1


def recompute(g: Game) -> None:
    if not g.dirty:
        return
    g.dirty = False
    o, db = g.obj, g.db
    cnt = g._static_count
    base_layers(
        o.card[None], o.zone[None], o.base_controller[None], o.counters[None], db.kw,
        db.power, db.toughness, _static_cards(g), db.types, o.controller[None], o.kw[None],
        o.power[None], o.toughness[None], o.restrict[None], cnt, o.types[None],
    )  # fmt: skip
    effects = [e for _, e in g.world.get(ContinuousEffect)] if g.world.has_effects else []
    if not cnt[0] and not effects:
        g.static_objs = []
        _control_changes(g)
        return
    n = o.n
    card = o.card[:n]
    c = np.where(card >= 0, card, 0)
    bf = o.zone[:n] == BATTLEFIELD
    # counters are re-applied after the modifications below (layer 7c/7d order is a sum)
    o.power[:n] -= o.counters[:n, 0] - o.counters[:n, 1]
    o.toughness[:n] -= o.counters[:n, 0] - o.counters[:n, 1]
    static_src = np.flatnonzero(bf & _static_cards(g)[c] & (card >= 0))
    g.static_objs = static_src.tolist()
    effects.sort(key=lambda e: e.timestamp)
    statics = [
        (int(o.timestamp[s]), int(s), k, a) for s in static_src for k, a in db.defs[card[s]].static
    ]
    statics.sort()

    def applies(e: ContinuousEffect, i: int) -> bool:
        return o.zone[i] == BATTLEFIELD and o.timestamp[i] < e.timestamp

    # layer 2: control-changing effects, in timestamp order
    layer2 = [(e.timestamp, "e", e) for e in effects if e.kind == "control"]
    layer2 += [(ts, "s", (s, a)) for ts, s, k, a in statics if k == "control"]
    for _, kind, x in sorted(layer2, key=lambda t: t[0]):
        if kind == "e":
            for i in x.objects:
                if applies(x, i) and g.pl.alive[x.new_controller]:
                    o.controller[i] = x.new_controller
        else:
            s, what = x
            t = o.attached_to[s]
            if what == "enchanted" and t >= 0 and o.zone[t] == BATTLEFIELD:
                new = o.controller[s]
                if g.pl.alive[new] and g.in_range(new, int(o.controller[t])):
                    o.controller[t] = new
    # layer 4 (types) and 7b (base power/toughness) of "becomes a creature" effects
    for e in effects:
        if e.kind == "animate":
            for i in e.objects:
                if applies(e, i):
                    o.types[i] |= e.types
                    o.kw[i] |= e.keywords
                    o.power[i] = e.power
                    o.toughness[i] = e.toughness
    # layer 6: abilities; layer 7c: power/toughness modifications
    for _ts, s, k, a in statics:
        ctl = int(o.controller[s])
        if k in ("cant_attack", "cant_block"):
            t = o.attached_to[s]
            if t >= 0:
                o.restrict[t] |= CANT_ATTACK if k == "cant_attack" else CANT_BLOCK
        elif k == "grant":
            from ecs.constants import KW

            bits = sum(KW[w] for w in a["keywords"])
            for i in _affected(g, s, a["to"], ctl, bf, c):
                o.kw[i] |= bits
        elif k == "pump":
            for i in _affected(g, s, a["to"], ctl, bf, c):
                o.power[i] += a.get("power", 0)
                o.toughness[i] += a.get("toughness", 0)
    for e in effects:
        if e.kind == "pump":
            for i in e.objects:
                if applies(e, i):
                    o.kw[i] |= e.keywords
                    o.power[i] += e.power
                    o.toughness[i] += e.toughness
    for _ts, s, k, _a in statics:
        if k == "coat_of_arms":
            _coat_of_arms(g, s, bf, c)
    _counters(g, n, bf)
    _control_changes(g)


def _control_changes(g: Game) -> None:
    """302.6: a permanent that changes controller is "summoning sick" for its new one."""
    o = g.obj
    n = o.n
    changed = (o.controller[:n] != o.last_controller[:n]) & (o.zone[:n] == BATTLEFIELD)
    if changed.any():
        o.sick[:n][changed] = True
        o.last_controller[:n][changed] = o.controller[:n][changed]
        for i in np.flatnonzero(changed):  # 506.4: a control change removes it from combat
            i = int(i)
            if o.attacking_player[i] >= 0 or o.blocking[i] >= 0:
                o.reset_combat(i)
                g.block_order.pop(i, None)
                for lst in g.block_order.values():
                    if i in lst:
                        lst.remove(i)


def _affected(g: Game, s: int, what: str, ctl: int, bf: np.ndarray, c: np.ndarray) -> list[int]:
    o = g.obj
    if what in ("equipped", "enchanted"):
        t = int(o.attached_to[s])
        return [t] if t >= 0 and o.zone[t] == BATTLEFIELD else []
    creatures = np.flatnonzero(bf & ((g.db.types[c] & T_CREATURE) != 0))
    if what == "all_creatures":
        return [int(i) for i in creatures if g.obj_in_range(ctl, int(i))]
    if what == "creatures_you_control":
        return [int(i) for i in creatures if o.controller[i] == ctl]
    raise ValueError(f"unknown static target {what!r}")


def _coat_of_arms(g: Game, s: int, bf: np.ndarray, c: np.ndarray) -> None:
    """Coat of Arms: +1/+1 for each other creature sharing a creature type (801.11)."""
    o, db = g.obj, g.db
    ctl = int(o.controller[s])
    creatures = [
        int(i)
        for i in np.flatnonzero(bf & ((db.types[c] & T_CREATURE) != 0))
        if g.obj_in_range(ctl, int(i))
    ]
    sub = db.subtypes[c] & db.creature_type_mask
    for i in creatures:
        k = sum(1 for j in creatures if j != i and sub[i] & sub[j])
        o.power[i] += k
        o.toughness[i] += k


def _counters(g: Game, n: int, bf: np.ndarray) -> None:
    o = g.obj
    o.power[:n] += o.counters[:n, 0] - o.counters[:n, 1]
    o.toughness[:n] += o.counters[:n, 0] - o.counters[:n, 1]


def add_effect(g: Game, effect: ContinuousEffect) -> None:
    g.world.create(effect)
    g.world.has_effects = True
    g.dirty = True


def add_shield(g: Game, shield: PreventionShield) -> None:
    g.world.create(shield)
    g.world.has_effects = True


def end_of_turn_cleanup(g: Game) -> None:
    """514.2: "until end of turn" effects end; prevention shields "this turn" end (in
    Grand Melee, those made by players within range of the turn's holder)."""
    mine = (lambda c: bool(g.range_mask[g.active, c])) if g.markers else (lambda c: True)
    for e, eff in g.world.get(ContinuousEffect):
        if eff.until == "end_of_turn" and mine(eff.controller):
            g.world.delete(e)
    from ecs.legacy.components.effects import RedirectShield

    for comp in (PreventionShield, RedirectShield):
        for e, s in g.world.get(comp):
            if mine(s.controller):
                g.world.delete(e)
    g.dirty = True


def end_control_effects_of(g: Game, p: int) -> None:
    """800.4a: effects that give a departed player control of anything end."""
    for e, eff in g.world.get(ContinuousEffect):
        if eff.kind == "control" and eff.new_controller == p:
            g.world.delete(e)
    g.dirty = True
