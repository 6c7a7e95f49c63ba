"""The effect vocabulary: what a resolving spell or ability does (608.2c, 609).

Each effect in a card record is ``{name: argument}``; ``run_effects`` runs them
in order. References: ``target.K`` (the K-th target, skipped if it became
illegal, 608.2b), ``controller``, ``self`` (the spell or the ability's source),
``event.player`` / ``event.controller`` / ``event.amount`` (the trigger event),
and group words ``each_creature``, ``each_player``, ``each_opponent``,
``creatures_you_control``. Spells and abilities affect only objects and players
within their controller's range of influence (801.10); the rest of the effect
still happens.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ecs.actions import is_player_ref, player_ref, ref_player
from ecs.constants import (
    BATTLEFIELD,
    COUNTER_INDEX,
    GRAVEYARD,
    HAND,
    KW,
    LIBRARY,
    STACK,
    T_CREATURE,
)
from ecs.legacy.components.effects import ContinuousEffect, PreventionShield

if TYPE_CHECKING:
    from ecs.game import Game, StackItem


def then(g: Game, continuation) -> None:
    """Run ``continuation`` once the pending choice (and any it leads to) is answered."""
    prev = g.choice.resume

    def resume(g: Game, value) -> None:
        prev(g, value)
        if g.pending is not None and g.pending.kind == "choose":
            then(g, continuation)
        else:
            continuation(g)

    g.choice.resume = resume


class Ctx:
    __slots__ = ("g", "item", "targets", "ctl")

    def __init__(self, g: Game, item: StackItem, targets: list[int | None]):
        self.g, self.item, self.targets, self.ctl = g, item, targets, item.controller

    def ref(self, spec: Any) -> list[int]:
        """Resolve a reference to a list of codes (object ids / player refs) in range."""
        g, ctl = self.g, self.ctl
        if isinstance(spec, str) and spec.startswith("target."):
            t = self.targets[int(spec.split(".")[1])]
            return [] if t is None else [t]
        if spec == "controller":
            return [player_ref(ctl)]
        if spec == "self":
            return [self.item.source]
        if isinstance(spec, str) and spec.startswith("event."):
            key = spec.split(".")[1]
            v = self.item.event.get(key)
            if v is None:
                return []
            return [player_ref(v)] if key in ("player", "controller") else [v]
        if spec in ("each_creature", "creatures_you_control"):
            o = g.obj
            n = o.n
            card = o.card[:n]
            mask = (o.zone[:n] == BATTLEFIELD) & (card >= 0)
            mask &= (g.db.types[np.where(card >= 0, card, 0)] & T_CREATURE) != 0
            out = [int(i) for i in np.flatnonzero(mask) if g.obj_in_range(ctl, int(i))]
            if spec == "creatures_you_control":
                out = [i for i in out if o.controller[i] == ctl]
            return out
        if spec == "each_player":
            return [player_ref(q) for q in g.apnap() if g.in_range(ctl, q)]
        if spec == "each_opponent":
            return [
                player_ref(q)
                for q in g.apnap()
                if g.in_range(ctl, q) and g.pl.team[q] != g.pl.team[ctl]
            ]
        raise ValueError(f"unknown reference {spec!r}")

    def players(self, spec: Any) -> list[int]:
        return [
            ref_player(c)
            for c in self.ref(spec)
            if is_player_ref(c) and self.g.pl.alive[ref_player(c)]
        ]

    def objects(self, spec: Any) -> list[int]:
        return [c for c in self.ref(spec) if not is_player_ref(c)]

    def amount(self, v: Any, times: int = 1) -> int:
        if isinstance(v, int):
            return v * times
        if v in ("X", "x"):
            return self.item.x * times
        if isinstance(v, str) and v.startswith("event."):
            return int(self.item.event.get(v.split(".")[1], 0)) * times
        raise ValueError(f"unknown amount {v!r}")


def run_effects(
    g: Game, item: StackItem, targets: list[int | None], finish=None, start: int = 0
) -> None:
    """Run the effects in order; an effect that asks a player something pauses the rest,
    which continue (then ``finish``) once the choice is made."""
    ctx = Ctx(g, item, targets)
    effects = item.ability.effects
    if item.ability.modes:  # a modal spell does what its chosen mode says (700.2)
        effects = item.ability.modes[item.event.get("mode", 0)]
    for k in range(start, len(effects)):
        if g.over:
            break
        name, arg = effects[k]
        EFFECTS[name](ctx, arg)
        g.dirty = True
        if g.pending is not None and g.pending.kind == "choose":

            def carry_on(g: Game, k: int = k) -> None:
                run_effects(g, item, targets, finish, k + 1)
                if g.pending is None:
                    g.todo, g.priority_to = "priority", g.active  # 117.3b: after resolving

            then(g, carry_on)
            return
    if finish is not None:
        finish(g)


def _damage(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.damage import deal_damage

    amount = c.amount(a["amount"])
    src = c.item.source
    for t in c.ref(a["to"]):  # 801.10: refs are already limited to what is in range
        deal_damage(c.g, src, c.ctl, t, amount)


def _prevent(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.continuous_effects import add_shield

    amt = -1 if a.get("amount") == "all" else c.amount(a["amount"])
    recips = c.ref(a["to"]) if "to" in a else [None]
    for r in recips:
        add_shield(c.g, PreventionShield(c.ctl, r, amt, bool(a.get("combat")), c.g.stamp()))


def _draw(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.zones import draw

    for p in c.players(a.get("who", "controller")):
        draw(c.g, p, c.amount(a.get("count", 1)))


def _gain_life(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.damage import gain_life

    for p in c.players(a.get("who", "controller")):
        gain_life(c.g, p, c.amount(a["amount"], a.get("times", 1)))


def _lose_life(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.damage import lose_life

    for p in c.players(a.get("who", "controller")):
        lose_life(c.g, p, c.amount(a["amount"]))


def _destroy(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.zones import destroy

    for i in c.objects(a):
        destroy(c.g, i)


def _pump(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.continuous_effects import add_effect

    objs = tuple(i for i in c.objects(a["to"]) if c.g.obj.zone[i] == BATTLEFIELD)
    if not objs:
        return
    kw = sum(KW[k] for k in a.get("keywords", []))
    add_effect(
        c.g,
        ContinuousEffect(
            "pump", objs, c.ctl, c.g.stamp(), a.get("power", 0), a.get("toughness", 0), kw
        ),
    )


def _gain_control(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.continuous_effects import add_effect

    objs = tuple(i for i in c.objects(a) if c.g.obj.zone[i] == BATTLEFIELD)
    if objs and c.g.pl.alive[c.ctl]:  # 800.4b
        add_effect(c.g, ContinuousEffect("control", objs, c.ctl, c.g.stamp(), new_controller=c.ctl))


def _give_control(c: Ctx, a: dict) -> None:
    """Target player gains control (deploy creatures, 804.2); no duration."""
    from ecs.legacy.systems.continuous_effects import add_effect

    objs = tuple(i for i in c.objects(a["what"]) if c.g.obj.zone[i] == BATTLEFIELD)
    for p in c.players(a["to"]):
        if objs:
            add_effect(
                c.g,
                ContinuousEffect(
                    "control", objs, c.ctl, c.g.stamp(), new_controller=p, until="permanent"
                ),
            )


def _animate(c: Ctx, a: dict) -> None:
    """ "X becomes a P/T creature ...": card types (layer 4), abilities (6), base power and
    toughness (7b); no duration (611.2)."""
    from ecs.constants import TYPE_BITS
    from ecs.legacy.systems.continuous_effects import add_effect

    objs = tuple(i for i in c.objects(a["what"]) if c.g.obj.zone[i] == BATTLEFIELD)
    if not objs:
        return
    add_effect(
        c.g,
        ContinuousEffect(
            "animate", objs, c.ctl, c.g.stamp(), a.get("power", 0), a.get("toughness", 0),
            sum(KW[k] for k in a.get("keywords", [])), until="permanent",
            types=sum(TYPE_BITS[t] for t in a.get("types", [])),
        ),
    )  # fmt: skip


def _untap(c: Ctx, a: Any) -> None:
    for i in c.objects(a):
        c.g.obj.tapped[i] = False


def _tap(c: Ctx, a: Any) -> None:
    for i in c.objects(a):
        c.g.obj.tapped[i] = True


def _extra_turn(c: Ctx, a: Any) -> None:
    for p in c.players(a):  # 500.7: the most recently created extra turn is taken first
        c.g.extra_turns.insert(0, p)


def _win(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.leaving_game import win

    for p in c.players(a):
        win(c.g, p)


def _lose(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.leaving_game import players_lose
    from ecs.legacy.systems.state_based_actions import cant_lose

    ps = [p for p in c.players(a) if not cant_lose(c.g, p)]
    if ps:
        players_lose(c.g, ps)


def _draw_game(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.leaving_game import game_draw

    game_draw(c.g, c.ctl)


def _create_token(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.zones import create_token

    who = a.get("for", "controller")
    ps = c.players(who) if isinstance(who, str) else []
    if isinstance(who, str) and who.startswith("event.") and not ps:
        return  # that player has left the game: no token (800.4b)
    for p in ps:
        create_token(c.g, a, p)


def _double_life(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.damage import set_life

    for p in c.players(a):  # 701.10d: gain or lose the difference (-4 becomes -8)
        set_life(c.g, p, 2 * int(c.g.pl.life[p]))


def _life_becomes_lowest(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.damage import set_life

    ps = c.players("each_player")  # 801.11: it sees only players in range
    if ps:
        low = min(int(c.g.pl.life[p]) for p in ps)
        if c.g.shared_life:  # 810.9d: each team picks one member (default: its first)
            ps = [
                p for k, p in enumerate(ps) if all(c.g.pl.team[q] != c.g.pl.team[p] for q in ps[:k])
            ]
        for p in ps:
            set_life(c.g, p, low)


def _exchange_life(c: Ctx, a: dict) -> None:
    """Two players exchange life totals: each gains or loses the difference to the other's
    previous total (119.5). The exchange happens whole or not at all: not if either player
    is gone or no longer a legal target, not if a player who can't gain life would get the
    higher total or one who can't lose life the lower, and never between teammates who
    share a life total (810.9e). Heads of different teams exchange their teams' totals."""
    from ecs.legacy.systems.damage import cant_gain_life, cant_lose_life, set_life

    g = c.g
    found = [c.players(r) for r in a["players"]]
    if any(len(ps) != 1 for ps in found):
        return
    p, q = found[0][0], found[1][0]
    if p == q or (g.shared_life and g.pl.team[p] == g.pl.team[q]):  # 810.9e
        return
    lp, lq = int(g.pl.life[p]), int(g.pl.life[q])
    for who, old, new in ((p, lp, lq), (q, lq, lp)):
        if (new > old and cant_gain_life(g, who)) or (new < old and cant_lose_life(g, who)):
            return
    set_life(g, p, lq)
    set_life(g, q, lp)


def _sacrifice_unless_pay_life(c: Ctx, a: dict) -> None:
    """Killing Wave: "For each creature, its controller sacrifices it unless they pay X
    life." Controllers decide in APNAP order (805.6: the active team first), creature by
    creature in object order; then everyone pays the life they chose to (paying life is
    losing it, 119.4) and the other creatures are sacrificed, all at the same time. Paying
    is offered (first, the default) only while the player could pay: no more life than they
    have, with a shared life total no more than the team's total for what all its members
    pay together (810.9b), and nothing but 0 for a player who can't lose life (810.9h)."""
    g = c.g
    amount = c.amount(a["amount"])
    creatures = c.objects(a.get("what", "each_creature"))  # 801.10: those in range
    queue = tuple((p, i) for p in g.apnap() for i in creatures if g.obj.controller[i] == p)
    _ask_payment(amount, queue, 0, (), g)


def _ask_payment(amount: int, queue: tuple, start: int, paid: tuple, g: Game) -> None:
    """Ask whether to pay for ``queue[start]`` (a (controller, creature) pair) and go on; a
    controller who can't pay isn't asked. ``paid`` holds the pairs paid for so far."""
    from ecs.legacy.systems.choices import Choice, ask
    from ecs.legacy.systems.damage import cant_lose_life

    for k in range(start, len(queue)):
        p, i = queue[k]
        payers = g.teammates(p) if g.shared_life else [p]  # 810.9b: paying at the same time
        due = amount * (1 + sum(1 for q, _ in paid if q in payers))
        if g.pl.alive[p] and (amount == 0 or (due <= g.pl.life[p] and not cant_lose_life(g, p))):
            resume = partial(_answered, amount, queue, k, paid)
            ask(g, Choice("pay_life", p, [1, 0], resume, {"object": i, "amount": amount}))
            return
    _pay_and_sacrifice(g, amount, queue, paid)


def _answered(amount: int, queue: tuple, k: int, paid: tuple, g: Game, pay: int) -> None:
    _ask_payment(amount, queue, k + 1, (*paid, queue[k]) if pay else paid, g)


def _pay_and_sacrifice(g: Game, amount: int, queue: tuple, paid: tuple) -> None:
    from ecs.legacy.systems.damage import lose_life
    from ecs.legacy.systems.triggers import _sources
    from ecs.legacy.systems.zones import move

    for p in dict.fromkeys(p for p, _ in paid):
        lose_life(g, p, amount * sum(1 for q, _ in paid if q == p))
    o = g.obj
    g.lookback = _sources(g, "another_creature_leaves")  # leaving together (603.10a)
    for p, i in queue:
        if (p, i) not in paid and o.zone[i] == BATTLEFIELD and o.controller[i] == p:
            move(g, i, GRAVEYARD)
    g.lookback = None


MAX_REDISTRIBUTIONS = 720  # listed ways to redistribute: every one for up to six players


def _redistribute_life(c: Ctx, a: Any) -> None:
    """Reverse the Sands: the controller redistributes any number of players' life totals;
    each of those players gets one of those totals back (gaining or losing the difference,
    119.5). Only players in range can be chosen (801.10). With shared life totals the
    controller may affect at most one member of each team (810.9f): a head who gets the
    other team's total changes the whole team's. The controller chooses one permutation of
    the life totals (default: the first, nobody changes); at most MAX_REDISTRIBUTIONS are
    listed."""
    from itertools import islice, permutations

    from ecs.legacy.systems.choices import Choice, ask

    g = c.g
    players = c.players("each_player")
    team = g.pl.team

    def allowed(perm: tuple[int, ...]) -> bool:
        moved = [team[players[k]] for k, j in enumerate(perm) if j != k]
        return not g.shared_life or len(set(moved)) == len(moved)  # 810.9f

    perms = (perm for perm in permutations(range(len(players))) if allowed(perm))
    options = [
        tuple(player_ref(players[j]) for j in perm) for perm in islice(perms, MAX_REDISTRIBUTIONS)
    ]
    if len(options) > 1:
        who = tuple(players)
        chosen = partial(_redistribute, who)
        ask(g, Choice("redistribute", c.ctl, options, chosen, {"players": who}))


def _redistribute(players: tuple[int, ...], g: Game, option: tuple[int, ...]) -> None:
    """players[k] gets the life total player ``option[k]`` (a player ref) had before; a
    player who gets their own total back is not affected (their teammate may be)."""
    from ecs.legacy.systems.damage import set_life

    before = {p: int(g.pl.life[p]) for p in players}
    for p, r in zip(players, option):
        if ref_player(r) != p:
            set_life(g, p, before[ref_player(r)])


def _shuffle_into_library(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.zones import move, shuffle

    for i in c.objects(a):
        if c.g.obj.zone[i] in (STACK, GRAVEYARD, HAND, BATTLEFIELD):
            move(c.g, i, LIBRARY)
            shuffle(c.g, int(c.g.obj.owner[i]))


def _discard_random(c: Ctx, a: Any) -> None:
    from ecs.legacy.systems.zones import move

    for p in c.players(a):
        hand = c.g.hand(p)
        if hand:
            move(c.g, hand[int(c.g.rng.integers(len(hand)))], GRAVEYARD)


def _remove_counter(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.triggers import last_counter_removed

    k = COUNTER_INDEX[a["kind"]]
    for i in c.objects(a.get("from", "self")):
        if c.g.obj.zone[i] == BATTLEFIELD and c.g.obj.counters[i, k] > 0:
            c.g.obj.counters[i, k] -= 1
            if c.g.obj.counters[i, k] == 0:
                last_counter_removed(c.g, i)


def _add_counter(c: Ctx, a: dict) -> None:
    k = COUNTER_INDEX[a["kind"]]
    for i in c.objects(a.get("to", "self")):
        if c.g.obj.zone[i] == BATTLEFIELD:
            c.g.obj.counters[i, k] += c.amount(a.get("amount", 1))


def _redirect(c: Ctx, a: dict) -> None:
    """Captain's Maneuver: the next X damage to one target is dealt to another (615-616)."""
    from ecs.legacy.components.effects import RedirectShield

    src, dst = c.ref(a["from"]), c.ref(a["to"])
    if src and dst:
        c.g.world.create(RedirectShield(c.ctl, src[0], dst[0], c.amount(a["amount"]), c.g.stamp()))
        c.g.world.has_effects = True


def _mill(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.zones import move

    for p in c.players(a.get("who", "controller")):
        for _ in range(c.amount(a.get("count", 1))):
            if c.g.library[p]:
                move(c.g, c.g.library[p][-1], GRAVEYARD)


def _exile(c: Ctx, a: Any) -> None:
    from ecs.constants import EXILE
    from ecs.legacy.systems.zones import move

    what, mark = (a["what"], a.get("with_source")) if isinstance(a, dict) else (a, False)
    for i in c.objects(what):
        if c.g.obj.zone[i] in (BATTLEFIELD, STACK, GRAVEYARD, HAND):
            move(c.g, i, EXILE)
            if mark:  # "exiled with" its source (607.2a-style link)
                c.g.obj.exiled_by[i] = c.item.source


def _exile_from_hand(c: Ctx, a: dict) -> None:
    """The player exiles a card of their choice from their hand (a choice by that player)."""
    from ecs.constants import EXILE
    from ecs.legacy.systems.choices import Choice, ask
    from ecs.legacy.systems.zones import move

    src = c.item.source
    for p in c.players(a["who"]):
        hand = c.g.hand(p)
        if not hand:
            continue

        def chosen(g: Game, i: int, src: int = src) -> None:
            move(g, i, EXILE)
            g.obj.exiled_by[i] = src

        ask(c.g, Choice("card", p, hand, chosen))
        return  # one player per effect here


def _unearth(c: Ctx, a: Any) -> None:
    """702.84a: return this card from the graveyard to the battlefield; it gains haste;
    exile it at the beginning of the next end step (a delayed trigger, 603.7) or if it
    would leave the battlefield (a replacement effect, 614)."""
    from ecs.legacy.cards import Ability
    from ecs.legacy.components.effects import DelayedTrigger
    from ecs.legacy.systems.continuous_effects import add_effect
    from ecs.legacy.systems.zones import enter_battlefield

    g, i = c.g, c.item.source
    if g.obj.zone[i] != GRAVEYARD or not g.pl.alive[c.ctl]:
        return
    enter_battlefield(g, i, c.ctl)
    g.obj.exile_if_leaves[i] = True
    haste = ContinuousEffect(
        "pump", (i,), c.ctl, g.stamp(), keywords=KW["haste"], until="permanent"
    )
    add_effect(g, haste)
    exile_it = Ability(effects=(("exile", "self"),), when="delayed")
    g.world.create(DelayedTrigger(c.ctl, i, int(g.obj.timestamp[i]), "next_end_step", exile_it))
    g.world.has_effects = True


def _restart_game(c: Ctx, a: dict) -> None:
    from ecs.legacy.systems.restart import restart_game

    restart_game(c.g, c.ctl, c.item.source if a.get("return_exiled") else -1)


def _fact_or_fiction(c: Ctx, a: Any) -> None:
    """Reveal the top N; an opponent separates them into two piles (801.5a, 801.5c);
    the controller puts one pile into their hand and the other into the graveyard."""
    from itertools import combinations

    from ecs.legacy.systems.choices import Choice, ask, opponent_chooser
    from ecs.legacy.systems.zones import move

    g, p = c.g, c.ctl
    cards = list(reversed(g.library[p][-int(a) :]))  # top first
    if not cards:
        return
    named = c.item.event.get("opponent")
    q = opponent_chooser(g, p, named)
    splits = [tuple(x) for r in range(len(cards) + 1) for x in combinations(cards, r)]

    def chosen_pile(g: Game, pile: int, piles=None) -> None:
        first, second = piles
        for i in first if pile == 0 else second:
            move(g, i, HAND)
        for i in second if pile == 0 else first:
            move(g, i, GRAVEYARD)

    def separated(g: Game, pile1) -> None:
        piles = (list(pile1), [i for i in cards if i not in pile1])
        ask(
            g,
            Choice("pile", p, [0, 1], lambda g, v: chosen_pile(g, v, piles), {"piles": piles}),
        )

    ask(g, Choice("piles", q, splits, separated, {"cards": cards}))


EFFECTS = {
    "damage": _damage,
    "prevent": _prevent,
    "draw": _draw,
    "gain_life": _gain_life,
    "lose_life": _lose_life,
    "destroy": _destroy,
    "pump": _pump,
    "gain_control": _gain_control,
    "untap": _untap,
    "animate": _animate,
    "give_control": _give_control,
    "redirect": _redirect,
    "mill": _mill,
    "exile": _exile,
    "exile_from_hand": _exile_from_hand,
    "unearth": _unearth,
    "restart_game": _restart_game,
    "fact_or_fiction": _fact_or_fiction,
    "tap": _tap,
    "extra_turn": _extra_turn,
    "win_game": _win,
    "lose_game": _lose,
    "draw_game": _draw_game,
    "create_token": _create_token,
    "double_life": _double_life,
    "life_becomes_lowest": _life_becomes_lowest,
    "shuffle_into_library": _shuffle_into_library,
    "discard_random": _discard_random,
    "remove_counter": _remove_counter,
    "add_counter": _add_counter,
    "exchange_life": _exchange_life,
    "redistribute_life": _redistribute_life,
    "sacrifice_unless_pay_life": _sacrifice_unless_pay_life,
}
