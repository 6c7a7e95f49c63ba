"""Actions an agent (or a scenario script) can take, and the error for illegal ones.

Targets and defenders share one integer code: an object id ``i >= 0`` or a
player ``p`` encoded as ``-1 - p`` (see :func:`player_ref`).
"""

from __future__ import annotations

from typing import NamedTuple


class IllegalAction(ValueError):
    """An action the rules do not allow now; the game state is left unchanged (730.1)."""


class Action(NamedTuple):
    kind: str  # pass | play_land | cast | activate | attack | attack_done | block | block_done
    # | block_reset | mulligan | keep | bottom | discard | choose | leave
    player: int
    obj: int = -1  # card / attacker / blocker
    arg: int = -1  # x for cast, ability index for activate, defender for attack, attacker for block
    targets: tuple[int, ...] = ()
    choices: tuple = ()  # extra (key, value) pairs: ("pay", ids), ("opponent", player), ...

    def option(self, key: str, default=None):
        for k, v in self.choices:
            if k == key:
                return v
        return default

    def __repr__(self) -> str:  # compact, used in replays and error messages
        parts = [self.kind, f"p{self.player}"]
        if self.obj >= 0:
            parts.append(f"o{self.obj}")
        if self.arg != -1:
            parts.append(f"a{self.arg}")
        if self.targets:
            parts.append("t" + ",".join(map(str, self.targets)))
        if self.choices:
            parts.append(repr(self.choices))
        return "<" + " ".join(parts) + ">"


def player_ref(p: int) -> int:
    return -1 - p


def is_player_ref(code: int) -> bool:
    return code < 0


def ref_player(code: int) -> int:
    return -1 - code
