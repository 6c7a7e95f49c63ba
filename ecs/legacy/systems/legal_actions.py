"""Legal actions for the pending decision, and applying an action (the step API).

``legal_actions`` lists every action in a fixed order (pass first, then lands,
spells, abilities by object id; targets in ``target_candidates`` order), so a
"first legal option" default is well defined. Mana abilities are not listed:
costs are paid automatically (``systems/mana.py``); they can still be
activated explicitly. ``apply_action`` validates before it changes anything
(730.1).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ecs.actions import Action, IllegalAction
from ecs.constants import GRAVEYARD, HAND, T_CREATURE, T_INSTANT, T_LAND
from ecs.legacy.systems import combat
from ecs.legacy.systems.mana import available_mana, can_pay
from ecs.legacy.systems.stack import sorcery_timing, target_candidates

if TYPE_CHECKING:
    from ecs.game import Game

MAX_TARGET_COMBOS = 64
MAX_X = 5


def _target_combos(g: Game, p: int, kinds: tuple[str, ...], source: int) -> list[tuple[int, ...]]:
    if not kinds:
        return [()]
    pools = [target_candidates(g, p, k, source) for k in kinds]
    out = []
    for combo in itertools.product(*pools):
        if len(set(combo)) == len(combo):
            out.append(combo)
            if len(out) >= MAX_TARGET_COMBOS:
                break
    return out


def _castable(g: Game, p: int, i: int, avail: int, sorcery_ok: bool):
    d = g.db.defs[g.obj.card[i]]
    if d.types & T_LAND:
        return None
    if not (d.types & T_INSTANT) and not sorcery_ok:
        return None
    if d.cost.mana_value > avail or not can_pay(g, p, d.cost):
        return None
    return d


def _activatable(g: Game, p: int, i: int, avail: int, sorcery_ok: bool):
    from ecs.legacy.systems.stack import abilities_of, check_activation, own_targets

    where = "graveyard" if g.obj.zone[i] == GRAVEYARD else "battlefield"
    for k, ab in enumerate(abilities_of(g, i)):
        if ab.mana or ab.zone != where:
            continue
        if ab.sorcery and not sorcery_ok:
            continue
        if ab.cost.mana_value > avail:
            continue
        combos = _target_combos(g, p, own_targets(ab), i)
        if not combos:
            continue
        try:  # candidates are legal targets, so one check covers every combination
            check_activation(g, p, i, k, combos[0], None)
        except IllegalAction:
            continue
        for t in combos:
            yield k, t


def priority_actions(g: Game, p: int, first_only: bool = False) -> list[Action]:
    from ecs.legacy.systems.continuous_effects import recompute

    recompute(g)
    out = [Action("pass", p)]
    avail = available_mana(g, p)
    sorcery_ok = sorcery_timing(g, p)
    hand = g.hand(p)
    if sorcery_ok and g.pl.lands_played[p] < 1:
        for i in hand:
            if g.db.types[g.obj.card[i]] & T_LAND:
                out.append(Action("play_land", p, i))
                if first_only:
                    return out
    for i in hand:
        d = _castable(g, p, i, avail, sorcery_ok)
        if d is None:
            continue
        xs = [0]
        if d.cost.x:  # X from 1 up to what the player could pay (at most MAX_X)
            xs = [x for x in range(1, min(avail - d.cost.mana_value, MAX_X) + 1)] or [0]
        for t in _target_combos(g, p, d.spell.targets if d.spell else (), i):
            for x in xs:
                out.append(Action("cast", p, i, x, t))
                if first_only:
                    return out
    has_ability = g.db.has_ability
    for i in g.battlefield(p):
        c = g.obj.card[i]
        if not has_ability[c] and not (g.deploy and g.obj.types[i] & T_CREATURE):
            continue  # only mana abilities (not listed: costs are paid automatically)
        for k, t in _activatable(g, p, i, avail, sorcery_ok):
            out.append(Action("activate", p, i, k, t))
            if first_only:
                return out
    if g.db.graveyard_ability.any():  # abilities that work from the graveyard (unearth)
        for i in g.zone_objects(GRAVEYARD, p, by="owner"):
            if g.db.graveyard_ability[g.obj.card[i]]:
                for k, t in _activatable(g, p, i, avail, sorcery_ok):
                    out.append(Action("activate", p, i, k, t))
                    if first_only:
                        return out
    return out


def has_action(g: Game, p: int) -> bool:
    """Does p have anything to do besides passing? (skips empty priority stops; the
    vectorised ``systems/priority_precheck.py`` rules most players out before this runs)"""
    return len(priority_actions(g, p, first_only=True)) > 1


def legal_actions(g: Game) -> list[Action]:
    d = g.pending
    if g.over or d is None:
        return []
    p = d.player
    if d.kind == "priority":
        if g.team_turns:  # 805.5a: the team's pass, then what each member could do
            out = priority_actions(g, p)
            for q in g.teammates(p)[1:]:
                out += priority_actions(g, q)[1:]
            return out
        return priority_actions(g, p)
    if d.kind == "attack":
        out = [Action("attack_done", p)]
        defenders: dict[int, list[int]] = {}
        for i in combat.possible_attackers(g):
            ctl = int(g.obj.controller[i])
            if ctl not in defenders:
                defenders[ctl] = combat.attack_defenders(g, ctl)
            for dfd in defenders[ctl]:
                out.append(Action("attack", p, i, dfd))
        return out
    if d.kind == "block":
        if combat.blocks_legal(g) is None:
            out = [Action("block_done", p)]
        else:  # e.g. a lone blocker on a menace attacker: finish the pair or start over
            out = [Action("block_reset", p)]
        out += [Action("block", p, b, a) for b, a in combat.block_options(g, p)]
        return out
    if d.kind == "mulligan":
        from ecs.legacy.systems.mulligan import to_bottom

        out = [Action("keep", p)]
        if to_bottom(g, p) + 1 <= 7:
            out.append(Action("mulligan", p))
        return out
    if d.kind == "bottom":
        return [Action("bottom", p, i) for i in g.hand(p)]
    if d.kind == "discard":
        return [Action("discard", p, i) for i in g.hand(p)]
    if d.kind == "choose":
        c = g.choice
        if c.kind in ("target", "card"):
            return [Action("choose", p, t) for t in c.options]
        if c.kind in ("pile", "mode", "pay_life"):
            return [Action("choose", p, -1, v) for v in c.options]
        if c.kind in ("piles", "redistribute"):
            return [Action("choose", p, -1, -1, tuple(o)) for o in c.options]
    return []


def apply_action(g: Game, a: Action) -> None:
    from ecs.legacy.systems import mulligan, stack
    from ecs.legacy.systems.leaving_game import concede
    from ecs.legacy.systems.turn_structure import BEGIN, PRIORITY, ask_next_blocker, do_pass, run
    from ecs.legacy.systems.zones import move

    p, k = a.player, a.kind
    if not (0 <= p < g.n_players):
        raise IllegalAction(f"no player #{p}")
    if k == "leave":  # 104.3a: a player may concede at any time
        if not g.pl.alive[p]:
            raise IllegalAction(f"{g.names[p]} has already left the game")
        concede(g, p)
        d = g.pending
        if d is not None and d.kind == "priority":
            # the holder gets priority again, so state-based actions are checked first (117.5)
            g.pending, g.todo, g.priority_to = None, PRIORITY, d.player
        run(g)
        return
    if k == "pass":
        stack._has_priority(g, p)
        do_pass(g, g.pending.player)  # with shared team turns, the team passes (805.5b)
    elif k in ("play_land", "cast", "activate"):
        pay = a.option("pay")
        if k == "play_land":
            stack.play_land(g, p, a.obj)
        elif k == "cast":
            stack.cast(g, p, a.obj, a.targets, max(a.arg, 0), pay, a.option("opponent"))
            if g.pending is not None and g.pending.kind == "choose":
                run(g)  # an opponent chooses the mode first (801.5b)
                return
        else:
            stack.activate(g, p, a.obj, max(a.arg, 0), a.targets, pay, a.option("opponent"))
        if g.pending is not None and g.pending.kind == "choose":
            run(g)  # an opponent chooses a target first (801.5a)
            return
        g.pending = None
        g.priority_to = p  # 117.3c: the player who acted receives priority
        g.todo = PRIORITY
    elif k == "attack":
        combat.declare_attack(g, p, a.obj, a.arg)
        return
    elif k == "attack_done":
        combat.finish_attacks(g, p)
        g.todo = PRIORITY
        g.priority_to = g.active
    elif k == "block":
        combat.declare_block(g, p, a.obj, a.arg)
        return
    elif k == "block_reset":
        if g.pending is None or g.pending.kind != "block" or g.pending.player != p:
            raise IllegalAction(f"{g.names[p]} is not declaring blockers now")
        g.block_decl = {}
        return
    elif k == "block_done":
        combat.finish_blocks(g, p)
        ask_next_blocker(g)
        if g.pending is None:
            g.todo = PRIORITY
            g.priority_to = g.active
    elif k in ("mulligan", "keep"):
        mulligan.decide(g, p, k == "mulligan")
    elif k == "bottom":
        mulligan.bottom(g, p, a.obj)
    elif k == "choose":
        from ecs.legacy.systems.choices import answer

        c = g.choice
        if c is None:
            raise IllegalAction(f"{g.names[p]} has no choice to make now")
        value = (
            a.obj
            if c.kind in ("target", "card")
            else (a.arg if c.kind in ("pile", "mode", "pay_life") else a.targets)
        )
        answer(g, p, value)
    elif k == "discard":
        d = g.pending
        if d is None or d.kind != "discard" or d.player != p:
            raise IllegalAction(f"{g.names[p]} is not discarding now")
        if not (0 <= a.obj < g.obj.n) or g.obj.zone[a.obj] != HAND or g.obj.owner[a.obj] != p:
            raise IllegalAction(f"that card is not in {g.names[p]}'s hand")
        move(g, a.obj, GRAVEYARD)
        d.count -= 1
        if d.count <= 0:
            g.pending = None
            g.todo = BEGIN
    else:
        raise IllegalAction(f"unknown action kind {k!r}")
    run(g)


__all__ = ["legal_actions", "apply_action", "has_action"]
