"""Player and team columns (struct of arrays, one row per player / team).

Players and teams are entities; their rows are indexed by player index
(seating order given at setup) and team index.
"""

from __future__ import annotations

import numpy as np

PLAYER_COLUMNS: dict[str, tuple[type, int]] = {
    "life": (np.int32, 20),
    "poison": (np.int32, 0),
    "alive": (np.bool_, 1),  # still in the game (800.4)
    "present": (
        np.bool_,
        1,
    ),  # occupies a seat for range purposes; fixed as each turn begins (801.2c)
    "seat": (np.int64, 0),  # clockwise seat position; left neighbour = seat + 1
    "team": (np.int64, 0),
    "reach": (np.int64, -1),  # range of influence; -1 = unlimited (801)
    "lands_played": (np.int32, 0),
    "max_hand": (np.int32, 7),
    "drew_from_empty": (np.bool_, 0),  # 704.5b
    "lost": (np.bool_, 0),
    "won": (np.bool_, 0),
    "drawn": (np.bool_, 0),
    "mulligans": (np.int32, 0),
    "life_lost_turn": (np.int32, 0),
}


class PlayerColumns:
    __slots__ = (*PLAYER_COLUMNS, "mana", "n")

    def __init__(self, n: int):
        self.n = n
        for name, (dt, default) in PLAYER_COLUMNS.items():
            setattr(self, name, np.full(n, default, dtype=dt))
        self.mana = np.zeros((n, 6), dtype=np.int32)  # mana pool W U B R G C (106.4)

    def copy(self) -> PlayerColumns:
        o = PlayerColumns.__new__(PlayerColumns)
        o.n = self.n
        for name in PLAYER_COLUMNS:
            setattr(o, name, getattr(self, name).copy())
        o.mana = self.mana.copy()
        return o
