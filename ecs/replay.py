"""Replays: a game's set-up and every action, replayed to the identical final state.

``save(game, path)`` writes JSON: the arguments of :meth:`Game.new`, whether
auto-pass was on, every action in order, and the final state's hash.
``melee replay FILE`` rebuilds the game, applies the actions and checks that
the final state hash is the same (exit 0), printing the outcome.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ecs.actions import Action
from ecs.game import Game, Options

FORMAT = "melee-replay/1"


def to_json(g: Game) -> dict[str, Any]:
    if g.setup is None:
        raise ValueError("only games made with Game.new can be replayed")
    return {
        "format": FORMAT,
        "setup": g.setup,
        "actions": [_action_json(a) for a in g.history],
        "final": {
            "hash": g.state_hash(),
            "turn": g.turn,
            "winners": [g.names[p] for p in g.winners],
            "drawn": [g.names[p] for p in g.drawn],
        },
    }


def _action_json(a: Action) -> list:
    choices = [[k, list(v) if isinstance(v, tuple) else v] for k, v in a.choices]
    return [a.kind, a.player, a.obj, a.arg, list(a.targets), choices]


def _action(x: list) -> Action:
    kind, player, obj, arg, targets, choices = x
    ch = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in choices)
    return Action(kind, player, obj, arg, tuple(targets), ch)


def save(g: Game, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_json(g)))


def replay(data: dict[str, Any]) -> Game:
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    s = data["setup"]
    g = Game.new(
        s["decks"],
        names=s["names"],
        variant=s["variant"],
        options=Options(**s["options"]),
        seed=s["seed"],
        mulligans=s["mulligans"],
        max_turns=s["max_turns"],
        teams=s["teams"],
        auto_pass=s.get("auto_pass", False),
    )
    for x in data["actions"]:
        g.step(_action(x))
    return g


def load(path: str | Path) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: can't read replay ({e})") from None


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("file", help="a replay written by `melee simulate --replays DIR`")


def main(args: argparse.Namespace) -> int:
    try:
        data = load(args.file)
        g = replay(data)
    except (ValueError, KeyError) as e:
        print(f"error: {args.file}: {e}", file=sys.stderr)
        return 2
    same = g.state_hash() == data["final"]["hash"]
    print(
        f"{args.file}: {len(data['actions'])} actions, turn {g.turn}, "
        f"winners {[g.names[p] for p in g.winners]}, drawn {[g.names[p] for p in g.drawn]}: "
        + ("identical final state" if same else "DIFFERENT final state")
    )
    return 0 if same else 1
