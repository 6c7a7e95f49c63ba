"""Replays: a game's set-up and every option taken, replayed to the identical final state.

``save(game, path)`` writes JSON: the arguments of :meth:`Game.new` (decks, variant,
seed, options, names, and for batch games the arena's room and the seats' agents),
the index of every option taken in order, and the final state's fingerprint.
``melee simulate --replays DIR`` writes one per game (from the game's trace).
``melee replay FILE`` rebuilds the game, takes the same options and checks that the
final state is the same (exit 0), printing the outcome; a file that is not a replay
(wrong or missing fields, null where a value belongs, an option the engine refuses)
is one line naming the file and field, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from components import game as G
from components.decisions import T_SHUFFLE, TR_INDEX, TR_KIND
from components.state import GAME_LAYOUT
from ecs.checks import INT32, MAX_PLAYERS, MAX_TURNS, InputError, read_text
from ecs.decks import MAX_CARDS
from ecs.engine import VARIANTS, Game, Options, SetupError

FORMAT = "melee-replay/2"
CASUAL_SETUP_FIELDS = ("casual", "planar_decks", "communal_deck", "scheme_decks", "vanguards",
                       "archenemy")  # fmt: skip


def to_json(g: Game) -> dict[str, Any]:
    if g.setup is None:
        raise ValueError("only games made with Game.new can be replayed")
    return {
        "format": FORMAT,
        "setup": g.setup,
        "actions": list(g.history),
        "final": {
            "hash": g.fingerprint(),
            "turn": g.turn,
            "winners": [g.names[p] for p in g.winners],
            "drawn": [g.names[p] for p in g.drawn],
        },
    }


def save(g: Game, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_json(g)))


def save_batch_game(path: Path, bp: Any, index: int, seed: int, a: np.ndarray) -> bool:
    """A batch game's replay, from its arena's trace (False if the trace overflowed:
    no file then)."""
    v = GAME_LAYOUT.views(a)
    n = int(v.s[G.S_NTR])
    if n >= v.tr.shape[0]:  # the trace filled up: some decisions weren't recorded
        return False
    names = [f"P{p}" for p in range(bp.n)]
    g = Game(a, bp.compiled, names)
    g.setup = {
        "decks": [list(bp.lists[d]) for d in bp.decks_of(index)], "variant": bp.cfg["variant"],
        "seed": int(seed), "options": asdict(bp.options), "names": names,
        "room": list(bp.room_of(index, a)), "agents": list(bp.agents), "trace": bp.trace,
        "cards": bp.card_names,
    }  # fmt: skip
    if bp.commanders:  # 903.3: each seat's commanders
        g.setup["commanders"] = [bp.commanders.get(d, []) for d in bp.decks_of(index)]
    if bp.setups:  # Planechase, Archenemy, Vanguard: the game's command-zone cards
        g.setup["casual_setup"] = asdict(bp.setup_of(index))
    rows = v.tr[:n]
    g.history = [int(x) for x in rows[rows[:, TR_KIND] < T_SHUFFLE, TR_INDEX]]
    save(g, path)
    return True


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
    fields = Options.__dataclass_fields__
    opts = s.get("options")
    _check(isinstance(opts, dict) and set(opts) <= set(fields), where,
           "setup.options", f"an object with keys among {', '.join(fields)}", opts)  # fmt: skip
    r = opts.get("range_of_influence")
    _check(r is None or _is_int(r, 0), where, "setup.options.range_of_influence",
           "null or a whole number >= 0", r)  # fmt: skip
    _check(opts.get("attack") in (None, "multiple", "left", "right"), where,
           "setup.options.attack", "null, multiple, left or right", opts.get("attack"))  # fmt: skip
    for key in ("deploy", "shared_team_turns"):
        _check(opts.get(key) in (None, True, False), where, f"setup.options.{key}",
               "true, false or null", opts.get(key))  # fmt: skip
    for key in ("mulligans", "autopass"):
        _check(opts.get(key, False) in (True, False), where, f"setup.options.{key}",
               "true or false", opts.get(key))  # fmt: skip
    for key, hi in (("max_turns", MAX_TURNS), ("max_decisions", INT32[1]), ("teams", MAX_PLAYERS)):
        x = opts.get(key)
        _check(x is None or _is_int(x, 0, hi), where, f"setup.options.{key}",
               f"null or a whole number from 0 to {hi}", x)  # fmt: skip
    _check(_is_int(s.get("seed"), 0, 2**64 - 1), where, "setup.seed",
           "a whole number >= 0", s.get("seed"))  # fmt: skip
    room = s.get("room")
    _check(room is None or (isinstance(room, list) and len(room) == 2
                            and all(_is_int(x, 1, 10**6) for x in room)), where, "setup.room",
           "null or [cards, largest library]", room)  # fmt: skip
    agents = s.get("agents")
    _check(agents is None or (isinstance(agents, list) and len(agents) == len(decks)
                              and all(isinstance(x, str) for x in agents)), where,
           "setup.agents", "null or one agent name per player", agents)  # fmt: skip
    cards = s.get("cards")
    _check(cards is None or (isinstance(cards, list) and len(cards) <= 10**5
                             and all(isinstance(c, str) for c in cards)), where, "setup.cards",
           "null or a list of card names", cards)  # fmt: skip
    _check(_is_int(s.get("trace", 0), 0, 10**7), where, "setup.trace",
           "a whole number >= 0", s.get("trace"))  # fmt: skip
    for key in ("commanders", "commander_colors"):  # 903.3, 903.4b: per player, a list
        x = s.get(key)
        _check(x is None or (isinstance(x, list) and len(x) == len(decks) and all(
            isinstance(c, list) and len(c) <= 2 and all(isinstance(n, str) for n in c)
            for c in x)), where, f"setup.{key}", "null or one list (of at most 2 names) per "
            "player", x)  # fmt: skip
    cs = s.get("casual_setup")
    _check(cs is None or (isinstance(cs, dict) and set(cs) <= set(CASUAL_SETUP_FIELDS)
                          and _names(cs.get("casual", []))
                          and _names(cs.get("communal_deck", []))
                          and _names(cs.get("vanguards", []), none=True)
                          and _is_int(cs.get("archenemy", -1), -1, MAX_PLAYERS)
                          and all(isinstance(d, list) and _names(d)
                                  for k in ("planar_decks", "scheme_decks")
                                  for d in cs.get(k, []))), where, "setup.casual_setup",
           "null or an object with keys among " + ", ".join(CASUAL_SETUP_FIELDS)
           + " (lists of card names; archenemy a player index or -1)", cs)  # fmt: skip
    for key in ("command", "notes", "pool_outside"):  # Conspiracy Draft (905)
        x = s.get(key)
        _check(x is None or isinstance(x, list), where, f"setup.{key}", "null or a list", x)
    actions = data.get("actions")
    _check(isinstance(actions, list) and all(_is_int(x, 0) for x in actions), where, "actions",
           "a list of option indexes (whole numbers >= 0)", actions)  # fmt: skip
    final = data.get("final")
    _check(isinstance(final, dict) and isinstance(final.get("hash"), str), where,
           "final", 'an object with the final state\'s "hash"', final)  # fmt: skip


def _names(x: Any, none: bool = False) -> bool:
    """A list of card names (strings; ``None`` allowed where ``none``)."""
    return (
        isinstance(x, list)
        and len(x) <= 10**4
        and all(isinstance(n, str) or (none and n is None) for n in x)
    )


def replay(data: dict[str, Any], where: str = "<replay>") -> Game:
    """Rebuild the game and take every option again; :class:`ReplayError` (naming the
    field or the action) for a replay the engine refuses."""
    check(data, where)
    s = data["setup"]
    try:
        g = Game.new(
            s["decks"], names=s["names"], variant=s["variant"], options=Options(**s["options"]),
            seed=s["seed"], room=tuple(s["room"]) if s.get("room") else None,
            agents=s.get("agents"), trace=s.get("trace", 0), cards=s.get("cards"),
            commanders=s.get("commanders"), commander_colors=s.get("commander_colors"),
            command=s.get("command"), notes=s.get("notes"), pool_outside=s.get("pool_outside"),
            casual_setup=s.get("casual_setup"),
        )  # fmt: skip
    except (SetupError, ValueError, KeyError, TypeError) as e:
        raise ReplayError(f"{where}: setup: the game can't be made ({e})") from None
    for k, x in enumerate(data["actions"]):
        try:
            g.step(x)
        except ValueError as e:  # IllegalAction included
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
    same = g.fingerprint() == data["final"]["hash"]
    print(
        f"{args.file}: {len(data['actions'])} actions, turn {g.turn}, "
        f"winners {[g.names[p] for p in g.winners]}, drawn {[g.names[p] for p in g.drawn]}: "
        + ("identical final state" if same else "DIFFERENT final state")
    )
    return 0 if same else 1
