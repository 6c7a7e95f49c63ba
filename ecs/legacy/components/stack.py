"""Python-side payload of stack objects, and the pending decision.

A stack object's hot columns (zone, controller, source) live in
``components/objects.py``; what doesn't fit a column (its targets, X, the
ability it is, the trigger event it answers) is a :class:`StackItem`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class StackItem:
    """Python-side payload of an object on the stack (targets, X, the event it answers)."""

    controller: int
    ability: Any  # ecs.legacy.cards.Ability
    targets: tuple[int, ...] = ()
    x: int = 0
    source: int = -1  # object the ability came from (or the spell itself)
    event: dict = field(default_factory=dict)
    is_spell: bool = False


@dataclass
class Decision:
    kind: str  # priority | attack | block | mulligan | bottom | discard
    player: int
    count: int = 0  # cards to bottom / discard


@dataclass
class TurnMarkerTag:
    """Grand Melee turn marker (807.4) as an esper entity; its state lives in
    ``systems.turn_markers.TurnMarker``."""

    number: int
