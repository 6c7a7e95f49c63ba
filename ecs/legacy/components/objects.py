"""Object columns: every card, token and stack object is a row (struct of arrays).

Row ``i`` is the entity ``i``: cards in every zone, tokens, and stack objects
(spells keep their card's row; abilities get a row of their own). Columns hold
the hot state the systems loop over. ``power``, ``toughness``, ``kw`` and
``controller`` are *derived* by the layer system (613) from the base columns
and the continuous effects; the rest is primary state.
"""

from __future__ import annotations

import numpy as np

from ecs.constants import COUNTER_KINDS

# name -> (dtype, default)
OBJECT_COLUMNS: dict[str, tuple[type, int]] = {
    "card": (np.int32, -1),  # card definition index; -1 for an ability on the stack
    "types": (
        np.int64,
        0,
    ),  # card type bits of the card (copied at creation; no type-changing effects yet)
    "zone": (np.int8, 7),  # ecs.constants zone id (7 = gone: ceased to exist / left the game)
    "owner": (np.int16, -1),
    "base_controller": (np.int16, -1),  # controller before layer-2 effects
    "controller": (np.int16, -1),  # derived (layer 2)
    "last_controller": (np.int16, -1),  # controller when last checked: a change makes it sick
    "tapped": (np.bool_, 0),
    "sick": (np.bool_, 0),  # not continuously controlled since its controller's turn began (302.6)
    "damage": (np.int32, 0),
    "deathtouch_hit": (np.bool_, 0),  # dealt damage by a deathtouch source (704.5h)
    "attached_to": (np.int32, -1),
    "timestamp": (np.int64, 0),
    "token": (np.bool_, 0),
    "zpos": (np.int64, 0),  # order inside ordered zones (graveyard)
    "attacking_player": (np.int16, -1),
    "attacking_object": (np.int32, -1),  # planeswalker or battle being attacked
    "blocking": (np.int32, -1),  # the attacker this creature blocks
    "blocked": (np.bool_, 0),
    "dealt_first_strike": (np.bool_, 0),
    "source": (np.int32, -1),  # stack abilities: the object the ability came from
    "protector": (np.int16, -1),  # battles: the player protecting it (310.8)
    "exiled_by": (np.int32, -1),  # "exiled with" this source (Karn Liberated)
    "exile_if_leaves": (np.bool_, 0),  # unearth (702.84a): exiled instead of leaving otherwise
    "face_up": (np.bool_, 1),
    "power": (np.int32, 0),  # derived (layer 7)
    "toughness": (np.int32, 0),  # derived (layer 7)
    "kw": (np.int64, 0),  # derived keyword mask (layer 6)
    "restrict": (np.int8, 0),  # derived: 1 can't attack, 2 can't block
    "loyalty_used": (np.bool_, 0),  # a loyalty ability was activated this turn (606.3)
}


class ObjectColumns:
    """Growable struct of arrays, one row per entity."""

    __slots__ = (*OBJECT_COLUMNS, "counters", "n", "cap")

    def __init__(self, cap: int = 256):
        self.n = 0
        self.cap = cap
        for name, (dt, default) in OBJECT_COLUMNS.items():
            setattr(self, name, np.full(cap, default, dtype=dt))
        self.counters = np.zeros((cap, len(COUNTER_KINDS)), dtype=np.int32)

    def add(self) -> int:
        if self.n == self.cap:
            self._grow()
        i = self.n
        self.n += 1
        return i

    def _grow(self) -> None:
        new = self.cap * 2
        for name, (dt, default) in OBJECT_COLUMNS.items():
            old = getattr(self, name)
            arr = np.full(new, default, dtype=dt)
            arr[: self.cap] = old
            setattr(self, name, arr)
        c = np.zeros((new, self.counters.shape[1]), dtype=np.int32)
        c[: self.cap] = self.counters
        self.counters = c
        self.cap = new

    def copy(self) -> ObjectColumns:
        o = ObjectColumns.__new__(ObjectColumns)
        o.n, o.cap = self.n, self.cap
        for name in OBJECT_COLUMNS:
            setattr(o, name, getattr(self, name).copy())
        o.counters = self.counters.copy()
        return o

    def reset_combat(self, i: int) -> None:
        self.attacking_player[i] = -1
        self.attacking_object[i] = -1
        self.blocking[i] = -1
        self.blocked[i] = False
        self.dealt_first_strike[i] = False

    def arrays(self) -> dict[str, np.ndarray]:
        d = {name: getattr(self, name)[: self.n] for name in OBJECT_COLUMNS}
        d["counters"] = self.counters[: self.n]
        return d
