"""Choices put to players in the middle of an action or a resolution (801.5, 800.4g).

A pending choice is a :class:`~components.stack.Decision` of kind ``choose``
plus ``g.choice``: what is being chosen, the options, and the continuation
that carries on once the choice is made. Who chooses for "an opponent":
the controller names an opponent within their range of influence (801.5a);
if none is in range, the closest opponent to the controller's left chooses
(801.5c). The default (when nobody names one) is the first opponent in turn
order within range.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ecs.actions import IllegalAction
from ecs.legacy.components.stack import Decision

if TYPE_CHECKING:
    from ecs.game import Game


@dataclass
class Choice:
    kind: str  # target | card | piles | pile | mode | pay_life | redistribute
    player: int
    options: list[Any]
    resume: Callable[[Game, Any], None]
    info: dict = field(default_factory=dict)


def opponent_chooser(g: Game, p: int, named: int | None = None) -> int:
    """801.5a / 801.5c: the opponent who makes a choice for p's spell or ability."""
    opps = [q for q in g.turn_order_from(p) if q != p and g.pl.team[q] != g.pl.team[p]]
    in_range = [q for q in opps if g.in_range(p, q)]
    if named is not None:
        if named not in opps:
            raise IllegalAction(f"{g.names[named]} is not an opponent of {g.names[p]}")
        if in_range and named not in in_range:
            raise IllegalAction(
                f"{g.names[named]} is outside {g.names[p]}'s range of influence (801.5a)"
            )
        if not in_range and named != opps[0]:
            raise IllegalAction(
                f"no opponent is in range: the closest opponent to the left, {g.names[opps[0]]}, "
                "chooses (801.5c)"
            )
        return named
    if in_range:
        return in_range[0]
    if opps:
        return opps[0]  # 801.5c: the closest appropriate player to the left
    raise IllegalAction(f"{g.names[p]} has no opponent to make that choice")


def ask(g: Game, choice: Choice) -> None:
    g.choice = choice
    g.pending = Decision("choose", choice.player)


def answer(g: Game, p: int, value: Any) -> None:
    c = g.choice
    d = g.pending
    if c is None or d is None or d.kind != "choose" or d.player != p:
        raise IllegalAction(f"{g.names[p]} has no choice to make now")
    if c.kind == "piles":
        value = tuple(sorted(value))
        allowed = {tuple(sorted(o)) for o in c.options}
        if value not in allowed:
            raise IllegalAction(f"{value!r} is not a way to separate those cards")
    elif value not in c.options:
        raise IllegalAction(f"{_describe(g, c, value)} is not a legal choice for {g.names[p]}")
    g.choice = None
    g.pending = None
    c.resume(g, value)


def _describe(g: Game, c: Choice, value: Any) -> str:
    if c.kind == "target":
        from ecs.legacy.systems.stack import describe

        return describe(g, value) if isinstance(value, int) else repr(value)
    return repr(value)
