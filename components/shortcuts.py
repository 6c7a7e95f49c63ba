"""Shortcuts and loops (729): what the loop detector remembers (systems/shortcuts.py).

A row of ``lk`` is a state the game was in at a priority stop (its key: a hash of the
game's visible state, 729.3's "the same game state"), with the player who had
priority there and the action they took from it. 729.3: when the game comes back to
a recorded state by actions of several players, the player the rule names must act
differently (the recorded action is no longer offered to them). 729.4: when a state
recurs while every player only passed, the loop has only mandatory actions: a draw."""

from __future__ import annotations

from components.schema import Table

LOOP_KEYS = Table("lk", "states the loop detector recorded (729.3, 729.4)", rows="loop_keys")
F = LOOP_KEYS.field
LK_KEY = F("key", "hash of the state (two halves)", width=2)
LK_PLAYER = F("player", "who had priority there")
LK_KIND = F("kind", "the action they took from it (A_*); A_PASS for the mandatory-loop record")
LK_OBJ = F("object", "its object")
LK_ARG = F("arg", "its argument (ability row)")

WARMUP = 24  # pass-only priority stops in a row before states are recorded (104.4b, 729.4)
