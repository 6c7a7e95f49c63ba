"""Rare Python-side components, kept as esper entities in the game's world.

Continuous effects from resolved spells and abilities (611.2) and prevention
shields (615) are few and short-lived, so they live in esper rather than in
columns. Static abilities of permanents are not stored: the layer system reads
them from the permanents on the battlefield each time it runs (611.3).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ContinuousEffect:
    """A continuous effect from a resolved spell or ability (611.2)."""

    kind: str  # "control" (layer 2) | "animate" (layers 4, 6, 7b) | "pump" (layers 6, 7c)
    objects: tuple[int, ...]  # affected objects, locked in as it resolved (611.2c)
    controller: int  # controller of the spell or ability that made it
    timestamp: int
    power: int = 0
    toughness: int = 0
    keywords: int = 0
    new_controller: int = -1
    until: str = "end_of_turn"  # end_of_turn | permanent
    types: int = 0  # animate: card types added (layer 4)


@dataclass
class PreventionShield:
    """A prevention effect (615): the next ``amount`` damage, or all (-1)."""

    controller: int
    recipient: int | None  # target code (object id or -1-player); None = any recipient
    amount: int  # -1 = all damage
    combat_only: bool
    timestamp: int


@dataclass
class DelayedTrigger:
    """A delayed triggered ability (603.7): ``effects`` happen for ``obj`` when ``when``
    comes ("next_end_step"), once; it is controlled by ``controller``."""

    controller: int
    obj: int
    obj_timestamp: int  # the object it refers to (a new object after a zone change, 400.7)
    when: str
    ability: object


@dataclass
class RedirectShield:
    """A redirection effect (614.9): the next ``amount`` damage to ``recipient`` is dealt
    to ``new_recipient`` instead."""

    controller: int
    recipient: int  # target code
    new_recipient: int
    amount: int
    timestamp: int
