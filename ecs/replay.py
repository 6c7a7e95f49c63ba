"""Replays: a game's set-up and every action, replayed to the identical final state.

``save(game, path)`` writes JSON: the arguments of :meth:`Game.new`, whether
auto-pass was on, every action in order, and the final state's hash.
``melee replay FILE`` rebuilds the game, applies the actions and checks that
the final state hash is the same (exit 0), printing the outcome; a file that is
not a replay (wrong or missing fields, null where a value belongs, an action
the engine refuses) is one line naming the file and field, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ecs.actions import Action
from ecs.checks import INT32, MAX_PLAYERS, MAX_TURNS, InputError, read_text
from ecs.decks import MAX_CARDS
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


class ReplayError(ValueError):
    """A replay file is not one; the message names the file and the field."""


def _is_int(v: Any, lo: int = INT32[0], hi: int = INT32[1]) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _check(ok: bool, where: str, fld: str, expected: str, got: Any) -> None:
    if not ok:
        shown = repr(got)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise ReplayError(f"{where}: {fld}: expected {expected}, got {shown}")


def check(data: Any, where: str = "<replay>") -> None:
    """The replay's shape and types (every field :func:`replay` reads), before any game is
    made; :class:`ReplayError` naming ``where`` and the field otherwise."""
    from ecs.game import VARIANTS

    _check(isinstance(data, dict), where, "(top level)", "a JSON object", type(data).__name__)
    _check(data.get("format") == FORMAT, where, "format", repr(FORMAT), data.get("format"))
    s = data.get("setup")
    _check(isinstance(s, dict), where, "setup", "an object", s)
    decks, names = s.get("decks"), s.get("names")
    _check(isinstance(decks, list) and 2 <= len(decks) <= MAX_PLAYERS, where, "setup.decks",
           f"a list of 2 to {MAX_PLAYERS} decks", decks)  # fmt: skip
    for k, d in enumerate(decks):
        _check(isinstance(d, list) and len(d) <= MAX_CARDS
               and all(isinstance(c, str) for c in d), where, f"setup.decks[{k}]",
               f"a list of at most {MAX_CARDS} card names", d)  # fmt: skip
    _check(isinstance(names, list) and len(names) == len(decks)
           and all(isinstance(n, str) for n in names), where, "setup.names",
           "one name (a string) per deck", names)  # fmt: skip
    _check(s.get("variant") in VARIANTS, where, "setup.variant", f"one of {', '.join(VARIANTS)}",
           s.get("variant"))  # fmt: skip
    opts = s.get("options")
    _check(isinstance(opts, dict) and set(opts) <= set(Options.__dataclass_fields__), where,
           "setup.options", f"an object with keys among {', '.join(Options.__dataclass_fields__)}",
           opts)  # fmt: skip
    r = opts.get("range_of_influence")
    _check(r is None or _is_int(r, 1), where, "setup.options.range_of_influence",
           "null or a whole number >= 1", r)  # fmt: skip
    _check(opts.get("attack") in (None, "multiple", "left", "right"), where,
           "setup.options.attack", "null, multiple, left or right", opts.get("attack"))  # fmt: skip
    for key in ("deploy_creatures", "shared_team_turns"):
        _check(opts.get(key) in (None, True, False), where, f"setup.options.{key}",
               "true, false or null", opts.get(key))  # fmt: skip
    _check(_is_int(s.get("seed"), 0, 2**64 - 1), where, "setup.seed",
           "a whole number >= 0", s.get("seed"))  # fmt: skip
    for key in ("mulligans", "auto_pass"):
        _check(isinstance(s.get(key, False), bool), where, f"setup.{key}", "true or false",
               s.get(key))  # fmt: skip
    mt = s.get("max_turns")
    _check(mt is None or _is_int(mt, 0, MAX_TURNS), where, "setup.max_turns",
           f"null or a whole number from 0 to {MAX_TURNS}", mt)  # fmt: skip
    teams = s.get("teams")
    _check(teams is None or (isinstance(teams, list) and len(teams) == len(decks)
                             and all(_is_int(t, 0) for t in teams)), where, "setup.teams",
           "null or one team number per player", teams)  # fmt: skip
    actions = data.get("actions")
    _check(isinstance(actions, list), where, "actions", "a list", actions)
    for k, a in enumerate(actions):
        _check(isinstance(a, list) and len(a) == 6 and isinstance(a[0], str)
               and all(_is_int(x) for x in a[1:4]) and isinstance(a[4], list)
               and all(_is_int(t) for t in a[4]) and isinstance(a[5], list)
               and all(_choice(c) for c in a[5]), where, f"actions[{k}]",
               "[kind, player, object, arg, [targets], [[key, value], ...]]", a)  # fmt: skip
    final = data.get("final")
    _check(isinstance(final, dict) and isinstance(final.get("hash"), str), where,
           "final", 'an object with the final state\'s "hash"', final)  # fmt: skip


def _choice(c: Any) -> bool:
    def plain(v: Any) -> bool:
        return v is None or isinstance(v, (str, bool)) or _is_int(v)

    return (
        isinstance(c, list) and len(c) == 2 and isinstance(c[0], str)
        and (plain(c[1]) or (isinstance(c[1], list) and all(plain(v) for v in c[1])))
    )  # fmt: skip


def replay(data: dict[str, Any], where: str = "<replay>") -> Game:
    """Rebuild the game and apply every action; :class:`ReplayError` (naming the field or
    the action) for a replay the engine refuses."""
    check(data, where)
    s = data["setup"]
    try:
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
    except (ValueError, KeyError, TypeError, IndexError, NotImplementedError) as e:
        raise ReplayError(f"{where}: setup: the game can't be made ({e})") from None
    for k, x in enumerate(data["actions"]):
        try:
            g.step(_action(x))
        except (ValueError, KeyError, TypeError, IndexError) as e:  # IllegalAction included
            raise ReplayError(f"{where}: actions[{k}]: refused by the engine ({e})") from None
    return g


def load(path: str | Path) -> dict[str, Any]:
    try:
        return json.loads(read_text(path))
    except InputError as e:
        raise ReplayError(str(e)) from None
    except (json.JSONDecodeError, RecursionError) as e:
        raise ReplayError(f"{path}: not a replay (not JSON: {e})") from None


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("file", help="a replay written by `melee simulate --replays DIR`")


def main(args: argparse.Namespace) -> int:
    try:
        data = load(args.file)
        g = replay(data, args.file)
    except ReplayError as e:
        print(f"melee replay: error: {e}", file=sys.stderr)
        return 2
    same = g.state_hash() == data["final"]["hash"]
    print(
        f"{args.file}: {len(data['actions'])} actions, turn {g.turn}, "
        f"winners {[g.names[p] for p in g.winners]}, drawn {[g.names[p] for p in g.drawn]}: "
        + ("identical final state" if same else "DIFFERENT final state")
    )
    return 0 if same else 1
