"""The game state: the tables of a game's arena, in one list (the declaration every
kernel, the clone, save/load, the fingerprint and the state view follow from), and
the capacities an arena is made with."""

from __future__ import annotations

from components.decisions import ACTIONS, TRACE
from components.effects import EFFECTS, SHIELDS
from components.game import GAME
from components.markers import MARKERS
from components.objects import OBJECTS
from components.players import (
    COMMANDER_DAMAGE,
    COMMUNAL_DECK,
    HANDS,
    LIBRARIES,
    NOTES,
    PLANAR_DECKS,
    PLAYERS,
    RANGES,
    SCHEME_DECKS,
    SEATS,
)
from components.schema import Layout, Table
from components.scratch import SCRATCH
from components.shortcuts import LOOP_KEYS
from components.stack import (
    BLOCK_QUEUE,
    CHOSEN,
    DELAYED,
    DIVISIONS,
    EXTRA_TURNS,
    LEFT,
    LOOP,
    MARKS,
    STACK_TABLE,
    TRIGGERED,
)

PERMANENTS = Table("bf", "the permanents, in object-id order", shape=("objects",))
COMMAND_ZONE = Table(
    "cz", "the objects in the command zone, in object-id order", shape=("objects",)
)
BEGAN = Table("began", "steps begun since the caller last looked: step, turn, active (for "
              "scripts that advance to a step)", shape=(16, 3), volatile=True)  # fmt: skip
HELD = Table(
    "held", "the permanents grouped by controller (made with the layers)", shape=("objects",)
)

GAME_LAYOUT = Layout(
    "GameState",
    [
        GAME, OBJECTS, PLAYERS, LIBRARIES, HANDS, PERMANENTS, COMMAND_ZONE, HELD, LEFT, STACK_TABLE, TRIGGERED,
        DELAYED, DIVISIONS, EFFECTS, SHIELDS, EXTRA_TURNS, BLOCK_QUEUE, SEATS, RANGES, MARKERS,
        COMMANDER_DAMAGE, PLANAR_DECKS, SCHEME_DECKS, COMMUNAL_DECK, CHOSEN, MARKS, LOOP, LOOP_KEYS, BEGAN, SCRATCH, ACTIONS, TRACE, NOTES,
    ],
    layout_id=1,
)  # fmt: skip

DEFAULT_CAPS = {
    "players": 4,
    "objects": 512,
    "library": 128,
    "hand": 64,
    "stack": 64,
    "triggers": 64,
    "delayed": 32,
    "divisions": 16,
    "effects": 256,
    "shields": 32,
    "extra_turns": 16,
    "markers": 1,
    "commander_slots": 8,
    "deck": 64,
    "chosen": 64,
    "loop_keys": 64,
    "actions": 1024,
    "trace": 0,
    "scratch": 512 + 4 + 16,
    "notes": 16,
}


def capacities(players: int, cards: int, library: int, trace: int = 0, markers: int = 1) -> dict:
    """Capacities for a game of ``players`` with ``cards`` objects at the start (every
    deck, command zone and planar/scheme card) and libraries of at most ``library``."""
    caps = dict(DEFAULT_CAPS)
    caps["players"] = players
    caps["objects"] = max(256, cards + 48 * players)  # tokens, copies, stack objects
    caps["library"] = max(64, library + 16)
    caps["hand"] = max(32, library + 16)
    caps["commander_slots"] = 2 * players
    caps["markers"] = max(1, markers)
    caps["trace"] = trace
    caps["actions"] = max(256, caps["objects"])
    # what many permanents can make wait at once (a token army's "whenever a creature
    # dies"); grows with the room, so a game that overflows is played again with more
    caps["triggers"] = max(64, caps["objects"] // 4)
    caps["stack"] = max(64, caps["objects"] // 8)
    caps["effects"] = max(256, caps["objects"] // 2)
    caps["divisions"] = max(16, caps["objects"] // 16)
    caps["scratch"] = caps["objects"] + players + 16
    caps["notes"] = max(16, 8 * players)
    return caps
