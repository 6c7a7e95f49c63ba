"""Rules scenarios: the YAML format of ../shared/SCENARIOS.md and its runner, on the
compiled engine.

``load_scenario`` validates a file and names the file, field and what was expected for
anything wrong (exit code 2). ``run_scenario`` builds the position in a game's arena,
plays the script and checks every expectation, returning the failures as readable
lines.

How a script maps onto the engine's decisions (components/decisions.py): every
scripted action is one or more options of the pending decisions, taken in order; an
action the engine doesn't list is refused and the state is restored exactly (730.1).
Documented defaults (the contract leaves them to the engine):
- when the script gives no choice, the first listed option is taken: passing priority,
  no attackers, no blockers, keeping a hand; a choice's first option otherwise (yes
  before no, objects by id, players in turn order from the chooser, "none" last;
  not kicking before kicking, not paying conspire before paying it; X from 0);
- a scenario starting at a step begins that step: its turn-based actions happen (a
  draw step draws) and its beginning-of-step triggers trigger;
- scenarios run with every priority stop (no auto-pass), so ``pass`` steps read
  exactly like the table;
- ``resolve`` stops at a decision that isn't a priority pass or a declaration (a
  choice of a resolving spell, a trigger's target, a discard) if the next step of the
  script is a ``choose`` or an ``expect``; ``advance_to`` stops there if it is a
  ``choose``; otherwise the first option is taken and the run goes on;
- besides the contract's keys, ``choose`` takes ``pay_life: true|false`` (Killing Wave
  asks each controller about one creature at a time, in object order) and a cast's
  ``choices`` take ``opponent: NAME`` (the opponent named to choose, 801.5a) and
  ``kicked: true``;
- conspire (702.78) is answered with the contract's ``choose`` keys: the cast stops at
  its yes/no (after the targets), ``choose: {may: true}`` (or ``false``) answers it and
  ``choose: {card: CREATURE}`` names each of the two creatures to tap, one step each;
- a path into ``counters`` that names a counter kind the object has none of reads 0;
  ``game.pending`` (``{kind, player}``) shows the pending decision;
- Conspiracy Draft (905): a command entry's ``face_up`` defaults to false for a card
  with hidden agenda and true otherwise; ``named`` may be a list of two (a double
  agenda); ``number: N`` is the number chosen for a conspiracy before the game
  (Emissary's Ploy); a player's ``draft_notes: [{card, number | removed | passer |
  colors | correct | name | types}]`` is what the draft noted for them (905.2b; see
  tests/drafts/README.md); ``players.P.monarch`` and ``game.monarch`` show the monarch
  (724); on turn 1 the active player is in their first turn, on a later turn every
  player is past theirs ("your first upkeep").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from components import game as G
from components import objects as O
from components import players as PL
from components.cards import (
    AB_ACTIVATED,
    AB_EQUIP,
    AB_LOYALTY,
    AB_MANA,
    B_ARG,
    B_INDEX,
    B_KIND,
    C_AB0,
    C_BACK,
    C_NAB,
)
from components.decisions import (
    A_ACTIVATE,
    A_ATTACK,
    A_ATTACK_DONE,
    A_BLOCK,
    A_BLOCK_DONE,
    A_CAST,
    A_KEEP,
    A_LAND,
    A_MULLIGAN,
    A_PASS,
    A_SPECIAL,
    AC_ARG,
    AC_KIND,
    AC_OBJ,
    AC_PLAYER,
    PEND_ATTACK,
    PEND_BLOCK,
    PEND_CHOOSE_OBJECT,
    PEND_CHOOSE_PLAYER,
    PEND_COLOR,
    PEND_COMMAND_ZONE,
    PEND_KICKER,
    PEND_MODE,
    PEND_MULLIGAN,
    PEND_NAME_CARD,
    PEND_NONE,
    PEND_PILE_SPLIT,
    PEND_POSITION,
    PEND_PRIORITY,
    PEND_SCRY,
    PEND_SHORTCUT,
    PEND_TARGET,
    PEND_X,
    PEND_YES_NO,
    SP_ROLL_PLANAR_DIE,
    SP_SUSPEND,
    SP_TURN_FACE_UP,
)
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    COUNTER_NAMES,
    CTR_DEFENSE,
    CTR_LOYALTY,
    EXILE,
    GONE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    MANA_LETTERS,
    NO_TARGET,
    PREGAME,
    STEP_NAMES,
    T_BATTLE,
    T_PLANESWALKER,
)
from components.state import GAME_LAYOUT
from components.variants import VARIANT_NAMES
from ecs.cards import CardDB, CardError, load_pool
from ecs.checks import INT32, MAX_PLAYERS, InputError, int_fields, load_yaml, read_text
from ecs.engine import (
    VARIANTS,
    Game,
    IllegalAction,
    Options,
    SetupError,
    add_object,
    designate,
    new_arena,
)
from systems.casting import CAST_MUTATE

ZONES = {
    "hand": HAND,
    "library": LIBRARY,
    "graveyard": GRAVEYARD,
    "exile": EXILE,
    "command": COMMAND,
    "battlefield": BATTLEFIELD,
    "outside_game": GONE,  # (our field: cards a wish may bring in, 903.11)
}
PLAYER_FIELDS = {
    "name", "team", "role", "range_of_influence", "life", "poison", "mana", *ZONES,
    "vanguard", "max_hand_size", "planar_deck", "scheme_deck", "ongoing_schemes",
    "commander_damage", "commander_casts",
    "draft_notes",  # Conspiracy Draft (905.2b): what the draft noted (tests/drafts/README.md)
}  # fmt: skip
CARD_FIELDS = {
    "card",
    "id",
    "tapped",
    "damage",
    "counters",
    "summoning_sick",
    "attached_to",
    "controller",
    "count",
    "face_up",
    "commander",
    "named",
    "merged",
    "transformed",
    "protector",
    "number",  # a number chosen for a conspiracy before the game (Emissary's Ploy)
    "color",  # a commander's colour chosen before the game (903.4b: The Prismatic Piper)
}
ACTION_KEYS = {
    "play_land",
    "cast",
    "activate",
    "attack",
    "block",
    "pass",
    "leave",
    "mulligan",
    "keep",
    "roll_planar_die",
    "choose",
    "shortcut",
    "turn_face_up",
    "suspend",  # (our word: Talon Gates' special action, 702.62)
}
ACTION_EXTRA = {
    "player", "targets", "x", "modes", "choices", "ability", "pay", "expect_error", "result",
    "mutate",
}  # fmt: skip
CASUAL = (
    "none",
    "commander",
    "brawl",
    "planechase",
    "vanguard",
    "archenemy",
    "supervillain-rumble",
    "conspiracy",
)
MAX_AUTO_STEPS = 5000
MAX_CARDS = 5000  # cards in a scenario, all zones of all players (and in one count)


class ScenarioError(ValueError):
    """A scenario file is invalid; the message names the file, the field and what was expected."""


class ScenarioFailure(Exception):
    """The script could not be carried out (an unexpected illegal action, say)."""


@dataclass
class Scenario:
    path: str
    name: str
    data: dict
    failures: list[str] = field(default_factory=list)
    game: Game | None = None
    shortcut: tuple | None = None  # a shortcut proposed, being answered (729.2)
    refs_by_id: dict[str, int] = field(default_factory=dict)

    @property
    def refs(self) -> dict[int, str]:
        """Object -> the id the file gave it (the view names those objects by it)."""
        return {i: r for r, i in self.refs_by_id.items()}


def _err(path: str, fld: str, msg: str) -> ScenarioError:
    return ScenarioError(f"{path}: {fld}: {msg}")


# ------------------------------------------------------------------ loading
def load_scenario(path: str | Path, db: CardDB | None = None) -> Scenario:
    """Read and check a scenario file; :class:`ScenarioError` naming the file, the field
    and what was expected if it is wrong. Bounded: a text file of at most 16 MiB, YAML
    nested at most 64 deep without anchors/aliases, whole numbers within 32 bits (the
    seed within 63), at most ``MAX_PLAYERS`` players and ``MAX_CARDS`` cards in all
    (checked before any card is expanded from a ``count``)."""
    path = str(path)
    try:
        data = load_yaml(read_text(path), path)
    except InputError as e:
        raise ScenarioError(str(e)) from None
    db = db or load_pool()
    _check_numbers(path, data)
    validate(path, data, db)
    return Scenario(path, data["name"], data)


def _check_numbers(path: str, data: Any) -> None:
    """Every whole number fits the engine's 32-bit columns (``game.seed``: 63 bits)."""
    for fld, v in int_fields(data):
        lo, hi = (0, 2**63 - 1) if fld == "game.seed" else INT32
        if not lo <= v <= hi:
            raise _err(path, fld, f"expected a whole number from {lo} to {hi}, got {v}")


def _card_entries(path: str, fld: str, entries: Any, db: CardDB) -> list[dict]:
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise _err(path, fld, "expected a list of card names or {card: ...} mappings")
    out = []
    for k, e in enumerate(entries):
        f = f"{fld}[{k}]"
        if isinstance(e, str):
            e = {"card": e}
        if not isinstance(e, dict) or "card" not in e:
            raise _err(path, f, "expected a card name or a mapping with a 'card' key")
        for key in e:
            if key not in CARD_FIELDS:
                raise _err(
                    path, f, f"unknown field {key!r} (expected one of {sorted(CARD_FIELDS)})"
                )
        if not isinstance(e["card"], str) or e["card"] not in db:
            raise _err(path, f"{f}.card", db.unknown(e["card"]))
        cnt = e.get("count", 1)
        if not isinstance(cnt, int) or isinstance(cnt, bool) or not 1 <= cnt <= MAX_CARDS:
            raise _err(path, f"{f}.count", f"expected a whole number from 1 to {MAX_CARDS}")
        for key in ("damage",):
            if key in e and (not isinstance(e[key], int) or e[key] < 0):
                raise _err(path, f"{f}.{key}", "expected a whole number >= 0")
        for key in ("tapped", "summoning_sick", "face_up", "commander", "transformed"):
            if key in e and not isinstance(e[key], bool):
                raise _err(path, f"{f}.{key}", "expected true or false")
        if "named" in e and not (
            isinstance(e["named"], str)
            or isinstance(e["named"], list)
            and 1 <= len(e["named"]) <= 2
            and all(isinstance(x, str) for x in e["named"])
        ):
            raise _err(path, f"{f}.named", "expected a card name (a list of two: double agenda)")
        for x in [e["named"]] if isinstance(e.get("named"), str) else e.get("named") or []:
            if x not in db:
                raise _err(path, f"{f}.named", f"unknown card {x!r} (a card name of the pool)")
        if "number" in e and (not isinstance(e["number"], int) or isinstance(e["number"], bool)):
            raise _err(path, f"{f}.number", "expected a whole number")
        if "counters" in e:
            if not isinstance(e["counters"], dict):
                raise _err(path, f"{f}.counters", "expected a mapping of counter kind -> number")
            for ck, cv in e["counters"].items():
                if ck not in COUNTER_NAMES:
                    raise _err(
                        path,
                        f"{f}.counters",
                        f"unknown counter kind {ck!r} (known: {sorted(COUNTER_NAMES)})",
                    )
                if not isinstance(cv, int):
                    raise _err(path, f"{f}.counters.{ck}", "expected a whole number")
        if cnt > 1 and "id" in e:
            raise _err(path, f"{f}.id", "an entry with count > 1 can't have one id")
        if cnt > 1 and e.get("commander"):
            raise _err(path, f"{f}.count", "a count never applies to a commander")
        if "merged" in e:  # 727: a merged permanent, its cards top first
            mg = e["merged"]
            if not isinstance(mg, list) or not mg or not all(isinstance(x, str) for x in mg):
                raise _err(path, f"{f}.merged", "expected a list of card names, top first")
            for x in mg:
                if x not in db:
                    raise _err(path, f"{f}.merged", db.unknown(x))
            if e["card"] not in mg:
                raise _err(path, f"{f}.merged", f"the entry's card {e['card']!r} is not in it")
            if cnt > 1:
                raise _err(path, f"{f}.merged", "a merged permanent can't have a count")
        out.append(e)
    total = sum(e.get("count", 1) for e in out)
    if total > MAX_CARDS:
        raise _err(path, fld, f"{total:,} cards; a scenario has at most {MAX_CARDS:,}")
    return [dict(e, count=1) for e in out for _ in range(e.get("count", 1))]


def validate(path: str, data: Any, db: CardDB) -> None:
    """Check a scenario against the format; raise ScenarioError naming file and field."""
    try:
        _validate(path, data, db)
    except (TypeError, AttributeError, ValueError) as e:
        if isinstance(e, ScenarioError):
            raise
        # a value of the wrong shape somewhere the checks below didn't expect it
        raise ScenarioError(
            f"{path}: a field has a value of the wrong type or shape ({e})"
        ) from None


def _hashable_in(v: Any, options: Any) -> bool:
    return isinstance(v, (str, int, float, bool, type(None))) and v in options


def _validate(path: str, data: Any, db: CardDB) -> None:
    if not isinstance(data, dict):
        raise _err(path, "(top level)", "expected a mapping with name, players, ...")
    known = {
        "name",
        "rules",
        "game",
        "teams",
        "players",
        "start",
        "actions",
        "expect",
        "description",
    }
    for k in data:
        if k not in known:
            raise _err(path, k, f"unknown field (expected one of {sorted(known)})")
    if not isinstance(data.get("name"), str) or not data["name"]:
        raise _err(path, "name", "required: a non-empty string")
    game = data.get("game") or {}
    if not isinstance(game, dict):
        raise _err(path, "game", "expected a mapping")
    game_keys = ("variant", "options", "casual", "seed", "planes", "planar_deck", "day_night")
    for k in game:
        if k not in game_keys:
            raise _err(path, f"game.{k}", f"unknown field (expected one of {', '.join(game_keys)})")
    if game.get("day_night") not in (None, "day", "night"):
        raise _err(path, "game.day_night", "expected null, day or night")
    if "variant" in game and not _hashable_in(game["variant"], VARIANTS):
        raise _err(
            path,
            "game.variant",
            f"unknown variant {game['variant']!r} (expected one of {list(VARIANTS)})",
        )
    opts = game.get("options") or {}
    if not isinstance(opts, dict):
        raise _err(path, "game.options", "expected a mapping")
    for k, v in opts.items():
        if k == "range_of_influence":
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
                raise _err(
                    path, "game.options.range_of_influence", "expected an integer >= 1 or null"
                )
        elif k == "attack":
            if v not in ("multiple", "left", "right"):
                raise _err(path, "game.options.attack", "expected multiple, left or right")
        elif k in (
            "deploy_creatures",
            "shared_team_turns",
            "single_planar_deck",
            "supervillain_rumble",
        ):
            if not isinstance(v, bool):
                raise _err(path, f"game.options.{k}", "expected true or false")
        else:
            raise _err(path, f"game.options.{k}", "unknown option")
    casual = game.get("casual", "none")
    for c in casual if isinstance(casual, list) else [casual]:
        if not _hashable_in(c, CASUAL):
            raise _err(
                path, "game.casual", f"unknown casual variant {c!r} (expected one of {CASUAL})"
            )
    if "seed" in game and (
        not isinstance(game["seed"], int) or isinstance(game["seed"], bool) or game["seed"] < 0
    ):
        raise _err(path, "game.seed", "expected an integer >= 0")
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise _err(path, "players", "required: a list of at least two players")
    if len(players) > MAX_PLAYERS:
        raise _err(path, "players", f"at most {MAX_PLAYERS} players, got {len(players)}")
    cards = 0
    names = []
    ids: dict[str, int] = {}
    name_counts: dict[str, int] = {}
    for k, p in enumerate(players):
        f = f"players[{k}]"
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise _err(path, f, "expected a mapping with a 'name'")
        for key in p:
            if key not in PLAYER_FIELDS:
                raise _err(
                    path, f"{f}.{key}", f"unknown field (expected one of {sorted(PLAYER_FIELDS)})"
                )
        if p["name"] in names:
            raise _err(path, f"{f}.name", f"duplicate player name {p['name']!r}")
        names.append(p["name"])
        for key in ("life", "poison"):
            if key in p and not isinstance(p[key], int):
                raise _err(path, f"{f}.{key}", "expected an integer")
        if "range_of_influence" in p and p["range_of_influence"] is not None:
            v = p["range_of_influence"]
            if not isinstance(v, int) or v < 1:
                raise _err(path, f"{f}.range_of_influence", "expected an integer >= 1 or null")
        if "team" in p and not isinstance(p["team"], (str, int)):
            raise _err(path, f"{f}.team", "expected a team name")
        if "role" in p and not _hashable_in(p["role"], ("emperor", "general", "archenemy")):
            raise _err(path, f"{f}.role", "expected emperor, general or archenemy")
        if "draft_notes" in p:
            _check_notes(path, f"{f}.draft_notes", p["draft_notes"], db)
        if "mana" in p:
            if not isinstance(p["mana"], dict) or any(
                c not in "WUBRGC" or not isinstance(v, int) for c, v in p["mana"].items()
            ):
                raise _err(path, f"{f}.mana", "expected a mapping like {R: 2} over W U B R G C")
        for z in ZONES:
            entries = _card_entries(path, f"{f}.{z}", p.get(z), db)
            cards += len(entries)
            if cards > MAX_CARDS:
                raise _err(path, f"{f}.{z}", f"more than {MAX_CARDS:,} cards in the scenario")
            for j, e in enumerate(entries):
                name_counts[e["card"]] = name_counts.get(e["card"], 0) + 1
                mg = list(e.get("merged") or [])
                if e["card"] in mg:
                    mg.remove(e["card"])
                for x in mg:  # 727: each card of a merged permanent can be named
                    name_counts[x] = name_counts.get(x, 0) + 1
                if "id" in e:
                    if e["id"] in ids:
                        raise _err(path, f"{f}.{z}[{j}].id", f"duplicate card id {e['id']!r}")
                    ids[e["id"]] = 1
    for fld, es in _casual_entries(path, game, players, names, db):  # (issue 14)
        for j, e in enumerate(es):
            name_counts[e["card"]] = name_counts.get(e["card"], 0) + 1
            if "id" in e:
                if e["id"] in ids:
                    raise _err(path, f"{fld}[{j}].id", f"duplicate card id {e['id']!r}")
                ids[e["id"]] = 1
    for k, p in enumerate(players):
        for z in ZONES:
            for j, e in enumerate(_card_entries(path, f"players[{k}].{z}", p.get(z), db)):
                if e.get("controller") is not None and e["controller"] not in names:
                    raise _err(
                        path,
                        f"players[{k}].{z}[{j}].controller",
                        f"unknown player {e['controller']!r}",
                    )
                if e.get("attached_to") is not None:
                    _check_ref(
                        path,
                        f"players[{k}].{z}[{j}].attached_to",
                        e["attached_to"],
                        names,
                        ids,
                        name_counts,
                        db,
                    )
    _validate_commander(path, game, players, names, ids, name_counts, db)
    variant = game.get("variant")
    if variant in ("team-vs-team", "emperor", "alternating-teams", "two-headed-giant"):
        for k, p in enumerate(players):
            if "team" not in p:
                raise _err(path, f"players[{k}].team", f"required by the {variant} variant")
    if variant == "emperor":
        for k, p in enumerate(players):
            if p.get("role") not in ("emperor", "general"):
                raise _err(
                    path,
                    f"players[{k}].role",
                    "required by the emperor variant: emperor or general",
                )
    teams = data.get("teams") or {}
    if not isinstance(teams, dict):
        raise _err(path, "teams", "expected a mapping of team name -> {life, poison}")
    for t, v in teams.items():
        if not isinstance(v, dict) or any(k not in ("life", "poison") for k in v):
            raise _err(path, f"teams.{t}", "expected {life: N, poison: N}")
        for k, x in v.items():
            if not isinstance(x, int) or isinstance(x, bool):
                raise _err(path, f"teams.{t}.{k}", "expected an integer")
    start = data.get("start") or {}
    if not isinstance(start, dict):
        raise _err(path, "start", "expected a mapping")
    for k in start:
        if k not in ("active", "step", "turn"):
            raise _err(path, f"start.{k}", "unknown field (expected active, step, turn)")
    if "step" in start and not _hashable_in(start["step"], STEP_NAMES):
        raise _err(
            path,
            "start.step",
            f"unknown step {start['step']!r} (expected one of {list(STEP_NAMES)})",
        )
    act = start.get("active")
    if "active" in start and not isinstance(act, (str, list)):
        raise _err(path, "start.active", "expected a player name or a list of names")
    if isinstance(act, list) and not act:
        raise _err(path, "start.active", "expected a player name or a non-empty list of names")
    for a in act if isinstance(act, list) else ([act] if act is not None else []):
        if a not in names:
            raise _err(path, "start.active", f"unknown player {a!r}")
    if "turn" in start and (not isinstance(start["turn"], int) or start["turn"] < 1):
        raise _err(path, "start.turn", "expected an integer >= 1")
    actions = data.get("actions") or []
    if not isinstance(actions, list):
        raise _err(path, "actions", "expected a list")
    for k, a in enumerate(actions):
        _validate_action(path, f"actions[{k}]", a, names, ids, name_counts, db)
    exp = data.get("expect")
    if exp is not None and not isinstance(exp, dict):
        raise _err(path, "expect", "expected a mapping of path -> value")


def _compiled_name(e: dict, db: Any) -> str:
    """The name a card entry compiles to: a commander with ``color:`` (903.4b, chosen
    before the game) is that card in that colour (``ecs.cards.chosen_color_key``)."""
    if e.get("color") and e.get("commander"):
        from ecs.cards import chosen_color_key

        return chosen_color_key(db.get(e["card"]).name, e["color"])
    return e["card"]


def _validate_commander(path, game, players, names, ids, name_counts, db) -> None:
    """The Commander fields (903): ``commander: true`` entries (at most two a player, in
    a Commander or Brawl game), ``commander_damage`` and ``commander_casts``."""
    casual = game.get("casual", "none")
    casual = casual if isinstance(casual, list) else [casual]
    commander_game = "commander" in casual or "brawl" in casual
    for k, p in enumerate(players):
        marked = []
        for z in ZONES:
            for j, e in enumerate(_card_entries(path, f"players[{k}].{z}", p.get(z), db)):
                if e.get("commander"):
                    marked.append(f"players[{k}].{z}[{j}].commander")
                chooses = bool(db.get(e["card"]).record.get("commander_color_choice"))
                f = f"players[{k}].{z}[{j}]"
                if "color" in e and not (e.get("commander") and chooses):
                    raise _err(path, f"{f}.color", "a colour is chosen before the game only "
                               "for a commander that asks for one (903.4b: The Prismatic Piper)")  # fmt: skip
                if "color" in e and e["color"] not in ("W", "U", "B", "R", "G"):
                    raise _err(path, f"{f}.color", "expected W, U, B, R or G")
                if e.get("commander") and chooses and "color" not in e:
                    raise _err(path, f"{f}.color", f"{e['card']} as a commander: its colour is "
                               "chosen before the game (903.4b); give color: W|U|B|R|G")  # fmt: skip
        if marked and not commander_game:
            raise _err(path, marked[0], "a commander needs game.casual: commander or brawl")
        if len(marked) > 2:
            raise _err(path, marked[2], "a player has at most two commanders (702.124)")
        for key in ("commander_damage", "commander_casts"):
            if key not in p or p[key] is None:
                continue
            f = f"players[{k}].{key}"
            if not commander_game:
                raise _err(path, f, "needs game.casual: commander or brawl")
            if not isinstance(p[key], dict):
                raise _err(path, f, "expected a mapping of commander -> number")
            for ref, n in p[key].items():
                _check_ref(path, f, ref, names, ids, name_counts, db)
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise _err(path, f"{f}.{ref}", "expected a whole number >= 0")


_CREATED = re.compile(r"^(.+)#(\d+)$")


def _check_notes(path: str, fld: str, notes: Any, db: CardDB) -> None:
    """Conspiracy Draft (905.2b): ``[{card: CARD, number | removed | passer | colors |
    correct | name | types: ...}]``, what the draft noted for this player."""
    from ecs.engine import NOTE_KEYS

    if not isinstance(notes, list):
        raise _err(path, fld, "expected a list of {card: CARD, KIND: VALUE} notes")
    for k, n in enumerate(notes):
        if not isinstance(n, dict) or not isinstance(n.get("card"), str) or n["card"] not in db:
            raise _err(path, f"{fld}[{k}]", "expected {card: CARD, ...} naming a known card")
        extra = set(n) - {"card"} - NOTE_KEYS
        if extra or len(n) < 2:
            raise _err(path, f"{fld}[{k}]", f"note keys: card and one of {sorted(NOTE_KEYS)}")


# ------------------------------------------------------------------ the casual variants (issue 14)
CASUAL_TYPES = {
    "planar_deck": ("Plane", "Phenomenon"), "scheme_deck": ("Scheme",),
    "ongoing_schemes": ("Scheme",), "vanguard": ("Vanguard",), "planes": ("Plane", "Phenomenon"),
}  # fmt: skip


def _casual_entries(path: str, game: dict, players: list, names: list[str], db: CardDB):
    """The card lists of the casual variants' fields (901-904), checked: (field, entries)."""
    out = []

    def typed(fld: str, key: str, es: list[dict]) -> list[dict]:
        for j, e in enumerate(es):
            types = db.get(e["card"]).types
            if not any(t in types for t in CASUAL_TYPES[key]):
                raise _err(path, f"{fld}[{j}].card",
                           f"{e['card']!r} is not a {' or '.join(CASUAL_TYPES[key]).lower()} card")  # fmt: skip
        return es

    for k, p in enumerate(players):
        for key in ("planar_deck", "scheme_deck", "ongoing_schemes"):
            if key in p:
                fld = f"players[{k}].{key}"
                out.append((fld, typed(fld, key, _card_entries(path, fld, p.get(key), db))))
        if p.get("vanguard") is not None:
            fld = f"players[{k}].vanguard"
            v = p["vanguard"]
            out.append((fld, typed(fld, "vanguard", _card_entries(path, fld, [v], db))))
        if "max_hand_size" in p and p["max_hand_size"] is not None:
            if not isinstance(p["max_hand_size"], int) or p["max_hand_size"] < 0:
                raise _err(path, f"players[{k}].max_hand_size", "expected an integer >= 0 or null")
    if "planar_deck" in game:
        out.append(("game.planar_deck",
                    typed("game.planar_deck", "planar_deck",
                          _card_entries(path, "game.planar_deck", game["planar_deck"], db))))  # fmt: skip
    planes = game.get("planes")
    if planes is not None:
        if not isinstance(planes, list):
            raise _err(path, "game.planes", "expected a list of {card, owner} mappings")
        es = []
        for j, e in enumerate(planes):
            f = f"game.planes[{j}]"
            if isinstance(e, str):
                e = {"card": e}
            if not isinstance(e, dict) or "card" not in e:
                raise _err(path, f, "expected a card name or {card, owner, controller, counters}")
            for key in e:
                if key not in ("card", "id", "owner", "controller", "counters"):
                    raise _err(path, f"{f}.{key}", "unknown field (expected card, id, owner, "
                               "controller, counters)")  # fmt: skip
            for key in ("owner", "controller"):
                if e.get(key) is not None and e[key] not in names:
                    raise _err(path, f"{f}.{key}", f"unknown player {e[key]!r}")
            if e["card"] not in db:
                raise _err(path, f"{f}.card", db.unknown(e["card"]))
            for ck, cv in (e.get("counters") or {}).items():
                if ck not in COUNTER_NAMES or not isinstance(cv, int):
                    raise _err(
                        path, f"{f}.counters", f"unknown counter kind {ck!r} or not a number"
                    )
            es.append(e)
        out.append(("game.planes", typed("game.planes", "planes", es)))
    return out


def _casual_list(game: dict) -> list[str]:
    casual = game.get("casual", "none")
    out = [c for c in (casual if isinstance(casual, list) else [casual]) if c != "none"]
    if (game.get("options") or {}).get("supervillain_rumble") and "supervillain-rumble" not in out:
        out.append("supervillain-rumble")
    return out


def _check_ref(path, fld, ref, names, ids, name_counts, db, players_ok=False) -> None:
    if not isinstance(ref, str):
        raise _err(path, fld, f"expected a card or player reference, got {ref!r}")
    if players_ok and ref in names:
        return
    if ref in ids:
        return
    if ref in name_counts:
        if name_counts[ref] > 1:
            raise _err(
                path,
                fld,
                f"ambiguous card reference {ref!r}: {name_counts[ref]} cards have that name; give them ids",
            )
        return
    m = _CREATED.match(ref)
    if m and (m.group(1) in db or m.group(1).endswith(" Token")):
        return
    what = "card or player" if players_ok else "card"
    raise _err(path, fld, db.unknown(ref, what))


def _validate_choose(path, f, ch, names, chk, db) -> None:
    """The references of a choose step name players and cards of the scenario."""
    if not isinstance(ch, dict) or not ch:
        raise _err(path, f, "expected a mapping of choices, e.g. {target: REF}")
    for key, val in ch.items():
        g = f"{f}.{key}"
        if key == "starting_player" and val not in names:
            raise _err(path, g, f"unknown player {val!r}")
        if key == "target" or key == "card" and val not in (None, "none"):
            chk(g, val, True)  # (a player may be what is chosen: the runner resolves both)
        elif key in ("targets", "discard", "bottom"):
            if key == "targets" and not isinstance(val, list):
                raise _err(path, g, "expected a list of card or player references")
            for j, x in enumerate(val if isinstance(val, list) else [val]):
                chk(f"{g}[{j}]", x, key == "targets")
        elif key == "piles":
            if (
                not isinstance(val, list)
                or len(val) != 2
                or not all(isinstance(x, list) for x in val)
            ):
                raise _err(path, g, "expected two lists of cards: [[...], [...]]")
            for j, pile in enumerate(val):
                for k, x in enumerate(pile):
                    chk(f"{g}[{j}][{k}]", x)
        elif key == "named" and (not isinstance(val, str) or val not in db):
            raise _err(path, g, f"unknown card {val!r} (a card name of the pool)")
        elif key == "redistribute" and (
            not isinstance(val, dict) or not all(k in names and v in names for k, v in val.items())
        ):
            raise _err(path, g, "expected {PLAYER: PLAYER, ...} with the scenario's players")


def _validate_action(path, f, a, names, ids, name_counts, db) -> None:
    if not isinstance(a, dict):
        raise _err(path, f, "expected a mapping")
    if "expect" in a:
        if len(a) != 1 or not isinstance(a["expect"], dict):
            raise _err(path, f, "an expect step is {expect: {path: value}}")
        return
    if "resolve" in a:
        if a["resolve"] not in ("all", 1):
            raise _err(path, f"{f}.resolve", "expected all or 1")
        return
    if "advance_to" in a:
        adv = a["advance_to"]
        if not isinstance(adv, dict) or adv.get("step") not in STEP_NAMES:
            raise _err(
                path,
                f"{f}.advance_to",
                "expected {step: STEP, active: P, turn: N} with a known step",
            )
        if adv.get("active") is not None and adv["active"] not in names:
            raise _err(path, f"{f}.advance_to.active", f"unknown player {adv['active']!r}")
        return
    kinds = [k for k in a if k in ACTION_KEYS]
    if len(kinds) != 1:
        raise _err(
            path, f, f"expected exactly one of {sorted(ACTION_KEYS)}, resolve, advance_to or expect"
        )
    for k in a:
        if k not in ACTION_KEYS and k not in ACTION_EXTRA:
            raise _err(path, f"{f}.{k}", "unknown field")
    if a.get("player") not in names:
        raise _err(path, f"{f}.player", f"unknown player {a.get('player')!r}")
    kind = kinds[0]
    chk = lambda fld, r, po=False: _check_ref(path, fld, r, names, ids, name_counts, db, po)  # noqa: E731
    if (
        kind == "play_land"
        and a[kind] not in name_counts
        and a[kind] in db
        and "Basic" in (db.get(a[kind]).record.get("supertypes") or [])
    ):
        pass  # a basic land from outside the game (Sovereign's Realm)
    elif kind in ("play_land", "cast", "activate", "turn_face_up", "suspend"):
        chk(f"{f}.{kind}", a[kind])
    if "mutate" in a:
        if kind != "cast":
            raise _err(path, f"{f}.mutate", "goes with cast (702.140)")
        chk(f"{f}.mutate", a["mutate"])
    for j, t in enumerate(a.get("targets") or []):
        chk(f"{f}.targets[{j}]", t, True)
    for j, t in enumerate(a.get("pay") or []):
        chk(f"{f}.pay[{j}]", t)
    if kind == "attack":
        if not isinstance(a["attack"], dict):
            raise _err(path, f"{f}.attack", "expected {ATTACKER: DEFENDER, ...}")
        for atk, d in a["attack"].items():
            chk(f"{f}.attack", atk)
            chk(f"{f}.attack.{atk}", d, True)
    if kind == "block":
        if not isinstance(a["block"], dict):
            raise _err(path, f"{f}.block", "expected {BLOCKER: ATTACKER, ...}")
        for b, atk in a["block"].items():
            chk(f"{f}.block", b)
            chk(f"{f}.block.{b}", atk)
    if "result" in a and a["result"] not in ("chaos", "planeswalk", "blank"):
        raise _err(path, f"{f}.result", "expected chaos, planeswalk or blank")
    if "x" in a and (not isinstance(a["x"], int) or a["x"] < 0):
        raise _err(path, f"{f}.x", "expected an integer >= 0")
    if "ability" in a and (not isinstance(a["ability"], int) or a["ability"] < 0):
        raise _err(path, f"{f}.ability", "expected an integer >= 0")
    if kind == "choose":
        _validate_choose(path, f"{f}.choose", a["choose"], names, chk, db)
    if kind == "shortcut":  # 729.2a: {actions: [...], times: N}
        sc = a["shortcut"]
        if not isinstance(sc, dict) or set(sc) != {"actions", "times"}:
            raise _err(path, f"{f}.shortcut", "expected {actions: [...], times: N}")
        t = sc["times"]
        if not isinstance(t, int) or isinstance(t, bool) or t < 0:
            raise _err(path, f"{f}.shortcut.times", "expected a whole number >= 0")
        if not isinstance(sc["actions"], list) or not sc["actions"]:
            raise _err(path, f"{f}.shortcut.actions", "expected a non-empty list of actions")
        for j, sub in enumerate(sc["actions"]):
            g = f"{f}.shortcut.actions[{j}]"
            if not isinstance(sub, dict) or "expect" in sub or "shortcut" in sub:
                raise _err(path, g, "expected an action (not expect, not another shortcut)")
            if "expect_error" in sub:
                raise _err(path, f"{g}.expect_error", "not in a shortcut")
            _validate_action(path, g, sub, names, ids, name_counts, db)


# ------------------------------------------------------------------ building
NOT_YET: dict[str, str] = {}  # casual variants the engine doesn't play yet: none


def _not_implemented(d: dict) -> str | None:
    """What a scenario uses that the engine doesn't play yet (refused by name)."""
    game = d.get("game") or {}
    casual = game.get("casual", "none")
    for c in casual if isinstance(casual, list) else [casual]:
        if c in NOT_YET:
            return f"{NOT_YET[c]} is not implemented yet"
    return None


def _steps(actions: Any) -> list:
    """The steps of an actions list, those of proposed shortcuts (729.2a) included."""
    out = []
    for a in actions if isinstance(actions, list) else []:
        out.append(a)
        sc = a.get("shortcut") if isinstance(a, dict) else None
        if isinstance(sc, dict):
            out.extend(_steps(sc.get("actions")))
    return out


def _vanguard_from_command(players: list[dict], db: CardDB) -> list[dict]:
    """A vanguard card listed in a player's ``command:`` (the layout's command zone) is
    that player's vanguard (902.3), as if given as ``vanguard:``."""
    out = []
    for p in players:
        cmd = p.get("command")
        if p.get("vanguard") is None and isinstance(cmd, list):
            names = [e if isinstance(e, str) else (e or {}).get("card") for e in cmd]
            at = [k for k, n in enumerate(names) if n in db and "Vanguard" in db.get(n).types]
            if len(at) == 1:
                rest = [e for k, e in enumerate(cmd) if k != at[0]]
                p = dict(p, vanguard=cmd[at[0]], command=rest)
        out.append(p)
    return out


def _with_archenemy(players: list[dict], game: dict) -> list[dict]:
    """904.2a: in an Archenemy game where no player is given ``role: archenemy``, the
    one player alone on their team is the archenemy (teams not given: the one player
    with a scheme deck)."""
    casual = _casual_list(game)
    if "archenemy" not in casual or "supervillain-rumble" in casual:
        return players
    if any(p.get("role") == "archenemy" for p in players):
        return players
    teams = [p.get("team") for p in players]
    alone = [k for k, t in enumerate(teams) if t is not None and teams.count(t) == 1]
    if len(alone) != 1:
        alone = [
            k for k, p in enumerate(players) if p.get("scheme_deck") or p.get("ongoing_schemes")
        ]
    if len(alone) != 1:
        return players
    return [dict(p, role="archenemy") if k == alone[0] else p for k, p in enumerate(players)]


def build_game(sc: Scenario, db: CardDB | None = None) -> Game:
    d = sc.data
    db = db or load_pool()
    why = _not_implemented(d)
    if why:
        raise ScenarioFailure(why)
    game = d.get("game") or {}
    players = _vanguard_from_command(_with_archenemy(d["players"], game), db)
    names = [p["name"] for p in players]
    variant = game.get("variant") or ("two-player" if len(names) == 2 else "free-for-all")
    opts = game.get("options") or {}
    team_list: list[str] = []
    for p in players:
        if "team" in p and p["team"] not in team_list:
            team_list.append(p["team"])
    team = [
        team_list.index(p["team"]) if "team" in p else len(team_list) + k
        for k, p in enumerate(players)
    ]
    if not team_list:
        team = list(range(len(players)))
    shared = opts.get("shared_team_turns")
    casual = _casual_list(game)
    archenemy = "archenemy" in casual and "supervillain-rumble" not in casual
    if archenemy and shared is None and variant == "team-vs-team":
        shared = True  # 904.2: Archenemy's default setup shares team turns
    if shared and variant not in ("team-vs-team", "two-headed-giant"):
        raise ScenarioFailure(f"shared team turns can't be used in {variant} (805.1)")
    rng = opts.get("range_of_influence", "default")
    options = Options(
        range_of_influence=None if rng == "default" else (0 if rng is None else rng),
        attack=opts.get("attack"),
        deploy=opts.get("deploy_creatures"),
        shared_team_turns=shared,
        autopass=False,
        casual=tuple(casual),
        single_planar_deck=bool(opts.get("single_planar_deck")),
    )
    entries: dict[tuple[int, str], list[dict]] = {}
    all_cards = set()
    count = 0
    for k, pd in enumerate(players):
        for z in ZONES:
            es = _card_entries(sc.path, f"players[{k}].{z}", pd.get(z), db)
            entries[(k, z)] = es
            count += len(es)
            all_cards.update(_compiled_name(e, db) for e in es)
    notes = []  # Conspiracy Draft: named cards and what the draft noted (905.2b)
    for k, pd in enumerate(players):
        for e in entries[(k, "command")]:
            named = e.get("named")
            all_cards.update(x for x in ([named] if isinstance(named, str) else named or [])
                             if x in db)  # fmt: skip
        for n in pd.get("draft_notes") or []:
            n = dict(n, player=k)
            if n.get("passer") is not None:
                if n["passer"] not in names:
                    raise ScenarioFailure(f"draft_notes: unknown player {n['passer']!r}")
                n["passer"] = names.index(n["passer"])
            notes.append(n)
            all_cards.update(x for x in (n["card"], n.get("name")) if x in db and not db.check(x))
        for z in ZONES:
            for e in entries[(k, z)]:  # 727: the cards of a merged permanent
                all_cards.update(e.get("merged") or [])
                count += len(e.get("merged") or [])
    for a_ in _steps(d.get("actions")):  # names a hidden agenda may be given (702.106a)
        ch = a_.get("choose") if isinstance(a_, dict) else None
        if isinstance(ch, dict) and isinstance(ch.get("named"), str) and ch["named"] in db:
            all_cards.add(ch["named"])
    cas = _casual_entries(sc.path, game, players, names, db)
    for _, es in cas:
        count += len(es)
        all_cards.update(e["card"] for e in es)
    try:
        compiled = db.compile(sorted(all_cards))
        a = new_arena(variant, options, team, count + 8, max(
            [len(entries[(k, "library")]) for k in range(len(players))] + [8]))  # fmt: skip
    except (CardError, SetupError) as e:
        raise ScenarioFailure(str(e)) from None
    if notes:
        from ecs.engine import add_notes

        a = add_notes(a, compiled, notes)
    if "conspiracy" in casual:
        from components.variants import CASUAL_CONSPIRACY

        GAME_LAYOUT.views(a).s[G.S_CASUAL] |= CASUAL_CONSPIRACY
    v = GAME_LAYOUT.views(a)
    s, pl, o = v.s, v.pl, v.o
    from ecs.engine import seed_rng, set_masks

    seed_rng(a, int(game.get("seed", 0)))
    s[G.S_DAY_NIGHT] = {None: 0, "day": 1, "night": 2}[game.get("day_night")]  # 728
    set_masks(s, compiled)
    refs: dict[str, int] = {}
    attach: list[tuple[int, str]] = []
    protector: list[tuple[int, str | None]] = []
    for p, pd in enumerate(players):
        if "life" in pd:
            pl[p, PL.P_LIFE] = pd["life"]
        pl[p, PL.P_POISON] = pd.get("poison", 0)
        if "range_of_influence" in pd:  # per-player range (801.2a); null = unlimited
            pl[p, PL.P_REACH] = pd["range_of_influence"] or 0
        if "max_hand_size" in pd:  # (null: no maximum hand size)
            mh = pd["max_hand_size"]
            pl[p, PL.P_MAXHAND] = -1 if mh is None else mh
        for c, n in (pd.get("mana") or {}).items():
            pl[p, PL.P_MANA + MANA_LETTERS.index(c)] = n
        if pd.get("role") == "emperor":
            pl[p, PL.P_ROLE] = PL.ROLE_EMPEROR
        elif pd.get("role") == "general":
            pl[p, PL.P_ROLE] = PL.ROLE_GENERAL
    if variant == "two-headed-giant":  # 810.4: one life total per team, on its first member
        for p in range(len(players)):
            first = min(q for q in range(len(players)) if team[q] == team[p])
            pl[p, PL.P_LIFEPOOL] = first
    for tname, tv in (d.get("teams") or {}).items():  # team state: shared totals (810.4)
        if tname not in team_list:
            raise ScenarioFailure(f"teams.{tname}: no player is on team {tname!r}")
        pools = {
            int(pl[p, PL.P_LIFEPOOL])
            for p in range(len(players))
            if team[p] == team_list.index(tname)
        }
        for q in pools:
            if "life" in tv:
                pl[q, PL.P_LIFE] = tv["life"]
            if "poison" in tv:
                pl[q, PL.P_POISON] = tv["poison"]
    from components import cards as K

    # battlefield objects first, in file order (timestamps follow the file), then the rest
    for zname in (
        "battlefield",
        "hand",
        "library",
        "graveyard",
        "exile",
        "command",
        "outside_game",
    ):
        for p in range(len(players)):
            es = entries[(p, zname)]
            if zname == "library":
                es = list(reversed(es))  # the file lists the top first
            for e in es:
                i = add_object(a, compiled, _compiled_name(e, db), p, ZONES[zname], v)
                if "id" in e:
                    refs[e["id"]] = i
                if zname == "outside_game":
                    o[i, O.F_OUTSIDE] = 1  # (a card its owner has outside the game: 903.11)
                    continue
                if e.get("commander"):
                    try:
                        designate(a, compiled, p, i)  # 903.3, 903.4
                    except SetupError as err:
                        raise ScenarioFailure(f"players[{p}]: {err}") from None
                if zname == "command" and _is_conspiracy(db, e["card"]):  # 905.4, 702.106
                    from ecs.engine import set_agenda

                    set_agenda(a, compiled, i, e)
                if zname != "battlefield":
                    continue
                ctl = names.index(e["controller"]) if e.get("controller") else p
                o[i, O.F_BCTL] = o[i, O.F_CTL] = o[i, O.F_LCTL] = ctl
                o[i, O.F_TAPPED] = int(bool(e.get("tapped", False)))
                o[i, O.F_DMG] = e.get("damage", 0)
                o[i, O.F_SICK] = int(bool(e.get("summoning_sick", False)))
                o[i, O.F_FACE_DOWN] = int(not e.get("face_up", True))
                o[i, O.F_TRANSFORMED] = int(bool(e.get("transformed", False)))
                ct = compiled.tables.rows["ct"][int(o[i, O.F_CARD])]
                if "counters" not in e:
                    if ct[K.C_TYPES] & T_PLANESWALKER:
                        o[i, O.F_CTR + CTR_LOYALTY] = ct[K.C_LOY]
                    if ct[K.C_TYPES] & T_BATTLE:
                        o[i, O.F_CTR + CTR_DEFENSE] = ct[K.C_DEF]
                    if ct[K.C_ENTERS_CTR] >= 0:
                        o[i, O.F_CTR + ct[K.C_ENTERS_CTR]] = ct[K.C_ENTERS_N]
                for kname, n in (e.get("counters") or {}).items():
                    o[i, O.F_CTR + COUNTER_NAMES.index(kname)] = n
                if e.get("merged"):
                    _merge_setup(a, compiled, i, e, p, o)
                if e.get("attached_to") is not None:
                    attach.append((i, e["attached_to"]))
                if ct[K.C_TYPES] & T_BATTLE:
                    protector.append((i, e.get("protector")))
    start = d.get("start") or {}
    if archenemy and "active" not in start:  # 904.6 (a pregame's starting player too)
        arch = [k for k, pd in enumerate(players) if pd.get("role") == "archenemy"]
        if arch:
            start = dict(start, active=names[arch[0]])
    _place_casual(sc, a, compiled, dict(cas), players, names, casual, start, refs)
    g = Game(a, compiled, names)
    g.auto_subgames = False  # (the script may name a subgame's starting player)
    g.hold_subgame = False
    g.team_names = team_list + [f"({n})" for n in names] if team_list else None
    g.created_from = int(s[G.S_N])
    sc.refs_by_id = refs
    sc.game = g
    for i, r in attach:
        o[i, O.F_ATT] = resolve_card(sc, r)
    _commander_setup(sc, players)
    for i, who in protector:  # 310.11a: by default the first opponent in turn order
        if who is not None:
            o[i, O.F_PROTECTOR] = names.index(who)
        else:
            c = int(o[i, O.F_CTL])
            nxt = [q for q in range(1, len(names)) if team[(c + q) % len(names)] != team[c]]
            o[i, O.F_PROTECTOR] = (c + nxt[0]) % len(names) if nxt else -1
    active = start.get("active", names[0])
    holders = [names.index(x) for x in (active if isinstance(active, list) else [active])]
    step_name = start.get("step", "precombat-main")
    turn = int(start.get("turn", 1))
    from ecs.engine import call
    from systems import entry

    if step_name == "pregame":
        s[G.S_STARTING] = holders[0]
        s[G.S_MULLIGANS] = 1
        s[G.S_STEP] = PREGAME
        draw = np.array([0 if players[p].get("hand") else 1 for p in range(len(players))], np.int32)
        g._n = call(entry.SCENARIO_PREGAME, a, compiled.arena, 0, draw)
        return g
    s[G.S_STARTING] = holders[0]
    s[G.S_TURN] = turn
    s[G.S_STEP] = STEP_NAMES.index(step_name)
    # turns each player has begun ("your first upkeep", Hold the Perimeter): on turn 1
    # the active player's first; later, every player is past their first turn
    for q in range(len(players)):
        pl[q, PL.P_TURNS] = (1 if q in holders else 0) if turn == 1 else turn
    hold = np.array(holders, np.int32)
    auto = variant == "grand-melee" and not isinstance(active, list)
    call(entry.SCENARIO_START, a, compiled.arena, int(auto), hold)
    if variant == "grand-melee" and "planechase" in casual:  # 901.14: each plane's marker
        from components.markers import K_HOLDER, K_NUMBER

        for k in range(int(s[G.S_NCZ])):
            i = int(v.cz[k])
            if not o[i, O.F_FACE_DOWN]:
                for x in range(int(s[G.S_NMARK])):
                    if v.mk[x, K_HOLDER] == o[i, O.F_CTL]:
                        o[i, O.F_MARKER] = v.mk[x, K_NUMBER]
    g._n = call(entry.BEGIN, a, compiled.arena)
    return g


def _commander_setup(sc: Scenario, players: list[dict]) -> None:
    """``commander_damage`` (903.10a) and ``commander_casts`` (903.8) of the players:
    keys are card references to commanders (``commander: true`` entries)."""
    g = sc.game
    v = g.v
    for p, pd in enumerate(players):
        for key in ("commander_damage", "commander_casts"):
            for ref, n in (pd.get(key) or {}).items():
                c = resolve_card(sc, ref)
                slot = int(v.o[c, O.F_COMMANDER])
                if slot == 0:
                    raise ScenarioFailure(
                        f"players[{p}].{key}.{ref}: not a commander (give its entry commander: true)"
                    )
                owner = int(v.o[c, O.F_OWNER])
                if key == "commander_damage":
                    v.cdmg[p, 2 * owner + slot - 1] = n
                elif owner != p:
                    raise ScenarioFailure(
                        f"players[{p}].commander_casts.{ref}: {g.names[owner]}'s commander;"
                        " a player casts only their own from the command zone (903.8)"
                    )
                else:
                    v.pl[p, PL.P_CMDCAST + slot - 1] = n


def _place_casual(sc, a, compiled, cas, players, names, casual, start, refs) -> None:
    """The casual variants' cards and setup (901-904): planar and scheme decks, face-up
    planes and ongoing schemes, vanguards (their modifiers, 902.4-902.5b, unless the file
    sets life or max_hand_size), archenemies (904.2a, 904.5, 904.12c), the planar
    controller (901.6: the active player; the active team's primary player, 901.12b)."""
    from ecs import casual as C

    v = GAME_LAYOUT.views(a)
    s, pl = v.s, v.pl
    rumble = "supervillain-rumble" in casual
    archenemy = "archenemy" in casual or rumble
    planechase = "planechase" in casual
    gm = v.s[G.S_VARIANT] == VARIANT_NAMES.index("grand-melee")
    active = start.get("active", names[0])
    first = names.index(active[0] if isinstance(active, list) else active)
    ctl = first
    if s[G.S_TEAM_TURNS]:  # 805.2: the primary player (the member whose right isn't a teammate)
        team = int(pl[first, PL.P_TEAM])
        n = len(names)
        for q in range(n):
            if int(pl[q, PL.P_TEAM]) == team and int(pl[(q - 1) % n, PL.P_TEAM]) != team:
                ctl = q

    def ids(fld, made):
        for e, i in zip(cas.get(fld, []), made):
            if "id" in e:
                refs[e["id"]] = i

    for p, pd in enumerate(players):
        fld = f"players[{p}]"
        if cas.get(f"{fld}.planar_deck"):
            ids(f"{fld}.planar_deck", C.add_planar_deck(
                a, compiled, p, [e["card"] for e in cas[f"{fld}.planar_deck"]]))  # fmt: skip
        if cas.get(f"{fld}.scheme_deck"):
            ids(f"{fld}.scheme_deck", C.add_scheme_deck(
                a, compiled, p, [e["card"] for e in cas[f"{fld}.scheme_deck"]]))  # fmt: skip
        for e in cas.get(f"{fld}.ongoing_schemes", []):
            i = C.add_face_up(a, compiled, e["card"], p)
            if "id" in e:
                refs[e["id"]] = i
        if cas.get(f"{fld}.vanguard"):
            e = cas[f"{fld}.vanguard"][0]
            i = C.add_vanguard(a, compiled, p, e["card"])
            if "id" in e:
                refs[e["id"]] = i
        if archenemy and (rumble or pd.get("role") == "archenemy"):
            pl[p, PL.P_ROLE] = PL.ROLE_ARCHENEMY
            if "life" not in pd:
                pl[p, PL.P_LIFE] = C.ARCHENEMY_LIFE  # 904.5, 904.12c
        if cas.get(f"{fld}.vanguard"):
            hand, life = C.modifiers(compiled, cas[f"{fld}.vanguard"][0]["card"])
            if "life" not in pd:
                pl[p, PL.P_LIFE] += life  # 902.4
            pl[p, PL.P_START_HAND] = max(0, 7 + hand)  # 902.5
            if "max_hand_size" not in pd:
                pl[p, PL.P_MAXHAND] = max(0, 7 + hand)  # 902.5b
        if pd.get("max_hand_size", 0) is None:
            pl[p, PL.P_MAXHAND] = -1
    if not planechase:
        return
    if cas.get("game.planar_deck"):
        ids("game.planar_deck", C.add_communal_deck(
            a, compiled, [e["card"] for e in cas["game.planar_deck"]], ctl))  # fmt: skip
    for e in cas.get("game.planes", []):
        owner = names.index(e["owner"]) if e.get("owner") else ctl
        if e.get("controller"):
            c = names.index(e["controller"])
        else:
            c = owner if gm else ctl
        i = C.add_face_up(a, compiled, e["card"], owner, c, e.get("counters"))
        if "id" in e:
            refs[e["id"]] = i
    if not gm and start.get("step") != "pregame":
        s[G.S_PLANAR_CTL] = ctl


def _merge_setup(a: np.ndarray, compiled: Any, i: int, e: dict, p: int, o: np.ndarray) -> None:
    """727: a merged permanent of the setup: its cards top first; object i (the entry's
    ``card``) is the permanent, the others its components (zone GONE, F_MERGED_IN)."""
    from components.rules import GONE

    names = list(e["merged"])
    k = names.index(e["card"])  # (validated: the entry's card is one of them)
    ids = []
    for j, nm in enumerate(names):
        if j == k:
            ids.append(i)
            continue
        c = add_object(a, compiled, nm, p, GONE)
        o[c, O.F_MERGED_IN] = i
        o[c, O.F_CTL] = o[c, O.F_BCTL] = o[c, O.F_LCTL] = o[i, O.F_CTL]
        ids.append(c)
    for j, c in enumerate(ids):
        o[c, O.F_MERGED] = ids[j + 1] if j + 1 < len(ids) else -1
    o[i, O.F_TOP] = ids[0] + 1 if ids[0] != i else 0


_CREATED_REF = re.compile(r"^(.+)#(\d+)$")


def _is_conspiracy(db: CardDB, name: str) -> bool:
    return "Conspiracy" in (db.get(name).record.get("types") or [])


def resolve_card(sc: Scenario, ref: str) -> int:
    """A card reference of the script: an id, a unique name, or NAME#N (the N-th object
    of that name created during the game). While a subgame is played (726) it names the
    object that card is in the subgame (a NAME#N: one created in the subgame, if any)."""
    g = sc.game
    if g.depth > 0 and _CREATED_REF.match(ref):
        i = _created(g.level(g.depth), ref, quiet=True)
        if i >= 0:
            return i
    i = _resolve_main(sc, ref)
    if g.depth == 0:
        return i
    j = g.local(i)
    if j < 0:
        raise ScenarioFailure(f"{ref!r} is not in the subgame being played")
    return j


def _created(lv: Any, ref: str, quiet: bool = False) -> int:
    from ecs.view import display_name

    v = lv.v
    n = int(v.s[G.S_N])
    m = _CREATED_REF.match(ref)
    want, k = m.group(1), int(m.group(2))
    seen = 0
    for i in range(lv.created_from, n):
        if v.o[i, O.F_CARD] >= 0 and v.o[i, O.F_IKIND] == 0 and display_name(lv, i, False) == want:
            if v.o[i, O.F_COPY] and v.o[i, O.F_MERGED_IN] >= 0:
                continue  # (a part of a token copy of a merged permanent)
            seen += 1
            if seen == k:
                return i
    if quiet:
        return -1
    raise ScenarioFailure(f"no {ref!r}: {seen} object(s) named {want!r} were created")


def _resolve_main(sc: Scenario, ref: str) -> int:
    g = sc.game
    if ref in sc.refs_by_id:
        return sc.refs_by_id[ref]
    from ecs.view import display_name

    lv = g.level(0)
    v = lv.v
    n = int(v.s[G.S_N])
    if _CREATED_REF.match(ref):
        return _created(lv, ref)
    named = [
        i for i in range(min(n, g.created_from))
        if v.o[i, O.F_CARD] >= 0 and display_name(lv, i, False) == ref
    ]  # fmt: skip
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise ScenarioFailure(f"card reference {ref!r} is ambiguous")
    raise ScenarioFailure(f"no card {ref!r} exists (yet)")


def resolve_target(sc: Scenario, ref: str) -> int:
    """A player (as -1 - p) or a card."""
    if ref in sc.game.names:
        return -1 - sc.game.names.index(ref)
    return resolve_card(sc, ref)


# ------------------------------------------------------------------ running
def _options(g: Game) -> np.ndarray:
    v = g.v
    return v.acts[: int(v.s[G.S_NACTS])]


def _pend(g: Game) -> tuple[int, int]:
    s = g.v.s
    return int(s[G.S_PEND]), int(s[G.S_PPLAYER])


def _take(g: Game, what: str, kind: int | None = None, player: int | None = None,
          obj: int | None = None, arg: int | None = None) -> None:  # fmt: skip
    """Take the first listed option matching these fields; IllegalAction if none does."""
    rows = _options(g)
    for k, r in enumerate(rows):
        if kind is not None and r[AC_KIND] != kind:
            continue
        if player is not None and r[AC_PLAYER] != player:
            continue
        if obj is not None and r[AC_OBJ] != obj:
            continue
        if arg is not None and r[AC_ARG] != arg:
            continue
        g.step(k)
        return
    raise IllegalAction(f"{what} is not one of the {len(rows)} options of the pending decision")


def _auto(g: Game, stop, what: str) -> None:
    """Everyone takes the first option (pass, no attackers, no blockers, keep, a choice's
    first option) until ``stop(g)`` holds or the game is over."""
    for _ in range(MAX_AUTO_STEPS):
        if g.over or stop(g):
            return
        if g.subgame_requested():  # 726: the script names its starting player, or at random
            if g.hold_subgame:
                return
            g.start_subgame(None)
            continue
        if g.n_actions() == 0:
            raise ScenarioFailure(f"{what}: no decision is pending")
        g.v.s[G.S_NBEGAN] = 0
        g.step(_default_option(g))
    raise ScenarioFailure(f"{what}: gave up after {MAX_AUTO_STEPS} automatic steps")


def _default_option(g: Game) -> int:
    """The option a script that says nothing takes: the first, except where the script
    said it earlier (a mutating spell's ``choices.position``, 702.140c)."""
    kind, _ = _pend(g)
    if kind == PEND_POSITION:
        want = g.positions.get(int(g.v.s[G.S_RES]))
        if want is not None:
            for k, r in enumerate(_options(g)):
                if r[AC_ARG] == want:
                    return k
    return 0


TURN_DECISIONS = (PEND_PRIORITY, PEND_ATTACK, PEND_BLOCK, PEND_MULLIGAN)


def _choosing(g: Game) -> bool:
    """A choice the script may answer: anything but priority and declarations (and a
    mutate position the cast already gave)."""
    kind, _ = _pend(g)
    if kind == PEND_POSITION and int(g.v.s[G.S_RES]) in g.positions:
        return False
    return kind != PEND_NONE and kind not in TURN_DECISIONS


def _stacks(g: Game) -> int:
    v = g.v
    n = int(v.s[G.S_NSTK])
    from components.markers import K_NSTK

    for k in range(int(v.s[G.S_NMARK])):
        if k != v.s[G.S_CUR]:
            n += int(v.mk[k, K_NSTK])
    return n


def _side(g: Game, p: int) -> int:
    """Who decides for p: p, or with shared team turns p's team's primary player."""
    v = g.v
    if not v.s[G.S_TEAM_TURNS]:
        return p
    team = int(v.pl[p, PL.P_TEAM])
    members = [q for q in range(len(g.names)) if v.pl[q, PL.P_TEAM] == team and v.pl[q, PL.P_ALIVE]]
    seats = sorted(members, key=lambda q: int(v.pl[q, PL.P_SEATPOS]))
    n = len(g.names)
    for q in seats:  # the member whose right-hand neighbour isn't a teammate
        right = [r for r in range(n) if v.pl[r, PL.P_SEATPOS] == (v.pl[q, PL.P_SEATPOS] - 1) % n]
        if not right or v.pl[right[0], PL.P_TEAM] != team:
            return q
    return seats[0] if seats else p


def run_action(sc: Scenario, a: dict, lookahead: Any = None) -> None:
    """Carry out one scripted step. ``lookahead`` is the next step (see the module
    docstring for when resolving stops at a choice)."""
    g = sc.game
    names = g.names
    answers = isinstance(lookahead, dict) and ("choose" in lookahead or "expect" in lookahead)
    if "resolve" in a:
        position_next = isinstance(lookahead, dict) and "position" in (
            lookahead.get("choose") or {}
        )

        def stop_choice(g: Game) -> bool:
            if not answers:
                return False
            if _pend(g)[0] == PEND_POSITION and not position_next:
                return False  # (a mutate position the script doesn't give next: top, 702.140)
            return _choosing(g)

        if a["resolve"] == "all":
            _auto(g, lambda g: _stacks(g) == 0 or stop_choice(g), "resolve: all")
        else:
            v = g.v
            if int(v.s[G.S_NSTK]) == 0:
                return
            top = int(v.stk[int(v.s[G.S_NSTK]) - 1])

            def gone(g: Game) -> bool:
                vv = g.v
                return top not in vv.stk[: int(vv.s[G.S_NSTK])] or stop_choice(g)

            _auto(g, gone, "resolve: 1")
        return
    if "advance_to" in a:
        adv = a["advance_to"]
        step = STEP_NAMES.index(adv["step"])
        who = names.index(adv["active"]) if adv.get("active") is not None else None
        turn = adv.get("turn")
        choose_next = isinstance(lookahead, dict) and "choose" in lookahead
        reached = [False]

        def began(g: Game) -> bool:
            v = g.v
            for k in range(int(v.s[G.S_NBEGAN])):
                st, tn, act = (int(x) for x in v.began[k])
                if (
                    st == step
                    and (who is None or act == who or _side(g, who) == act)
                    and (turn is None or tn == turn)
                ):
                    reached[0] = True
            v.s[G.S_NBEGAN] = 0
            if reached[0]:
                return True
            return choose_next and _choosing(g)

        g.v.s[G.S_NBEGAN] = 0
        _auto(g, began, f"advance_to {adv}")
        return
    p = names.index(a["player"])
    if "leave" in a:
        g.concede(p)
        return
    if "play_land" in a:
        _need_priority(g, p, a["player"])
        try:
            land = resolve_card(sc, a["play_land"])
        except ScenarioFailure:  # a basic land from outside the game (Sovereign's Realm)
            if a["play_land"] not in g.compiled.row_of:
                raise
            land = -2 - g.compiled.row(a["play_land"])
        _take(g, f"playing {a['play_land']}", A_LAND, p, land)
    elif "cast" in a:
        _need_priority(g, p, a["player"])
        i = resolve_card(sc, a["cast"])
        if "mutate" in a:  # 702.140a: for its mutate cost, targeting that creature
            pos = (a.get("choices") or {}).get("position")
            if pos not in ("top", "bottom", None):
                raise ScenarioFailure("choices.position: expected top or bottom")
            with _paying(g, sc, a):
                _take(g, f"casting {a['cast']} for its mutate cost", A_CAST, p, i, CAST_MUTATE)
                _choices(sc, dict(a, targets=[a["mutate"]]))
            if pos is not None:  # (answered as it resolves; else asked then: choose.position)
                g.positions[i] = 1 if pos == "top" else 0
        else:
            option = 1 if (a.get("choices") or {}).get("overload") else 0  # 702.96: overloaded
            if g.v.o[i, O.F_ZONE] in (GRAVEYARD, LIBRARY):  # flashback (its own cost listed
                option = None  # first, 702.34a); the top of the library (Windriddle Palace)
            with _paying(g, sc, a):
                _take(g, f"casting {a['cast']}", A_CAST, p, i, option)
                _choices(sc, a)
    elif "activate" in a:
        _need_priority(g, p, a["player"])
        i = resolve_card(sc, a["activate"])
        ab = _ability_row(g, i, int(a.get("ability", 0)))
        with _paying(g, sc, a):
            _take(
                g,
                f"activating {a['activate']}'s ability {a.get('ability', 0)}",
                A_ACTIVATE,
                p,
                i,
                ab,
            )
            _choices(sc, a)
    elif "pass" in a:
        _need_priority(g, p, a["player"])
        _take(g, "passing", A_PASS)
    elif "mulligan" in a or "keep" in a:
        kind, who = _pend(g)
        if kind != PEND_MULLIGAN or who != p:
            raise IllegalAction(f"{a['player']} is not deciding on a mulligan now")
        _take(g, "a mulligan decision", A_MULLIGAN if "mulligan" in a else A_KEEP)
    elif "attack" in a:
        decl = [(resolve_card(sc, k), resolve_target(sc, d)) for k, d in a["attack"].items()]
        q = _side(g, p)
        if _pend(g) != (PEND_ATTACK, q):
            _reach_declaration(g, PEND_ATTACK, q, a["player"], not decl)
            if _pend(g) != (PEND_ATTACK, q):
                return  # no declaration to make, and none is made (508.1)
        for i, d in decl:
            _take(g, f"{g.card_name(i)} attacking", A_ATTACK, None, i, d)
        _take(g, "the attack as declared", A_ATTACK_DONE)
    elif "block" in a:
        decl = [(resolve_card(sc, k), resolve_card(sc, d)) for k, d in a["block"].items()]
        q = _side(g, p)
        if _pend(g) != (PEND_BLOCK, q):
            _reach_declaration(g, PEND_BLOCK, q, a["player"], not decl)
            if _pend(g) != (PEND_BLOCK, q):
                return  # nothing to block with, and no blocker declared (509.1)
        for b, atk in decl:
            _take(g, f"{g.card_name(b)} blocking", A_BLOCK, None, b, atk)
        _take(g, "the blocks as declared", A_BLOCK_DONE)
    elif "choose" in a:
        _choose(sc, p, a["choose"])
        if sc.shortcut is not None:  # 729.2b: the others accept unless the script says
            _answer_shortcut(sc, lookahead)
    elif "roll_planar_die" in a:  # 901.9: a special action; `result` forces the face
        _need_priority(g, p, a["player"])
        g.v.s[G.S_DIE_FORCE] = {"planeswalk": 1, "chaos": 2, "blank": 3}.get(a.get("result"), 0)
        try:
            with _paying(g, sc, a):
                _take(g, "rolling the planar die (901.9)", A_SPECIAL, p, -1, SP_ROLL_PLANAR_DIE)
        finally:
            g.v.s[G.S_DIE_FORCE] = 0
    elif "shortcut" in a:
        _propose(sc, p, a, lookahead)
    elif "turn_face_up" in a:  # 702.106c, 905.4a: a special action while holding priority
        _need_priority(g, p, a["player"])
        i = resolve_card(sc, a["turn_face_up"])
        _take(g, f"turning {a['turn_face_up']} face up", A_SPECIAL, p, i, SP_TURN_FACE_UP)
    elif "suspend" in a:  # Talon Gates: exile a card from the hand suspended (702.62)
        _need_priority(g, p, a["player"])
        i = resolve_card(sc, a["suspend"])
        _take(g, f"suspending {a['suspend']}", A_SPECIAL, p, i, SP_SUSPEND)


def _stop_after_next(g: Game, step: Any) -> bool:
    """Is the next step the answer of the player now asked about the shortcut (729.2b:
    the players before them in turn order accepted)?"""
    if not (
        isinstance(step, dict)
        and isinstance(step.get("choose"), dict)
        and ("stop_after" in step["choose"])
    ):
        return False
    who = step.get("player")
    if who not in g.names:
        return True  # (the step itself says what is wrong)
    return _side(g, g.names.index(who)) == _pend(g)[1]


def _propose(sc: Scenario, p: int, a: dict, lookahead: Any) -> None:
    """729.2a: P proposes the listed actions repeated ``times`` times; the other players
    answer in turn order (a ``choose: {stop_after: K}`` step, else they accept); then the
    agreed repetitions are carried out. If an action can't be taken as proposed, the
    whole shortcut is refused (the state as it was)."""
    g = sc.game
    _need_priority(g, p, a["player"])
    sc.shortcut = (list(a["shortcut"]["actions"]), g.snapshot())
    g.propose_shortcut(None, int(a["shortcut"]["times"]))
    _answer_shortcut(sc, lookahead)


def _answer_shortcut(sc: Scenario, lookahead: Any) -> None:
    g = sc.game
    while _pend(g)[0] == PEND_SHORTCUT:
        if _stop_after_next(g, lookahead):
            return  # (the script's answer comes next)
        g.step(0)  # accepting
    actions, snap = sc.shortcut
    sc.shortcut = None
    times = g.shortcut_agreed()
    try:
        for _ in range(times):
            for k, sub in enumerate(actions):
                run_action(sc, sub, actions[k + 1] if k + 1 < len(actions) else None)
    except (IllegalAction, ScenarioFailure) as e:
        g.restore(snap)
        raise IllegalAction(f"the shortcut can't be taken as proposed (729.2a): {e}") from None


def _need_priority(g: Game, p: int, who: str) -> None:
    kind, q = _pend(g)
    if kind != PEND_PRIORITY or q != _side(g, p):
        raise IllegalAction(f"{who} doesn't have priority now")


def _reach_declaration(g: Game, kind: int, q: int, who: str, empty: bool) -> None:
    """Everyone passes until q declares attackers (blockers) this turn, or that is past
    (an empty declaration is then accepted as made: q had nothing to declare)."""
    v = g.v
    turn0 = int(v.s[G.S_TURN])
    limit = STEP_NAMES.index("declare-attackers" if kind == PEND_ATTACK else "declare-blockers")
    holder = q
    if kind == PEND_BLOCK:  # the turn whose attackers q faces (Grand Melee: several)
        holder = int(v.s[G.S_ACTIVE])
        for i in v.bf[: int(v.s[G.S_NBF])]:
            if int(v.o[i, O.F_ATKP]) == q:
                holder = int(v.o[i, O.F_CTL])

    def stop(g: Game) -> bool:
        v = g.v
        s = v.s
        if _pend(g) == (kind, q):
            return True
        if int(s[G.S_NMARK]):  # Grand Melee: the turn of the marker held by `holder`
            step = _marker_step(g, holder)
            if step is None or step > limit:
                return True
            if step < limit or int(s[G.S_ACTIVE]) != holder:
                return False
        elif int(s[G.S_TURN]) != turn0 or int(s[G.S_STEP]) > limit:
            return True
        if int(s[G.S_STEP]) == limit:  # in the step: is q's declaration past (none to make)?
            if kind == PEND_ATTACK:
                return _pend(g)[0] != PEND_ATTACK
            return q not in v.bq[: int(s[G.S_NBQ])]
        return False

    _auto(g, stop, "declaring")
    if _pend(g) != (kind, q) and not empty:
        what = "attackers" if kind == PEND_ATTACK else "blockers"
        raise IllegalAction(f"{who} can't declare {what} now")


def _marker_step(g: Game, holder: int) -> int | None:
    """The step of the turn marker ``holder`` holds (807.4); None if they hold none."""
    from components.markers import K_HOLDER, K_SAVED, K_WAITING, SAVED

    v = g.v
    for k in range(int(v.s[G.S_NMARK])):
        if int(v.mk[k, K_HOLDER]) == holder and not v.mk[k, K_WAITING]:
            if k == int(v.s[G.S_CUR]):
                return int(v.s[G.S_STEP])
            return int(v.mk[k, K_SAVED + SAVED.index(G.S_STEP)])
    return None


class _paying:
    """A cast's or activation's ``pay: [...]``: those mana sources are tapped first."""

    def __init__(self, g: Game, sc: Scenario, a: dict):
        self.g, self.ids = g, [resolve_card(sc, r) for r in a.get("pay") or []]

    def __enter__(self):
        for i in self.ids:
            self.g.v.o[i, O.F_PAY_FIRST] = 1

    def __exit__(self, *exc):
        for i in self.ids:
            self.g.v.o[i, O.F_PAY_FIRST] = 0
        return False


def _ability_row(g: Game, i: int, index: int) -> int:
    """The ability-table row of object i's ``index``-th activated ability (0-based, in
    printed order, mana abilities included; 804.2's deploy comes after its own): a
    merged permanent's are those of its cards, top first (702.140e), then what Auras on
    it give it ("enchanted creature has ..."). A mana ability is activated while paying
    a cost, not on its own (refused)."""
    rows = g.compiled.tables.rows["ab"]
    cts = g.compiled.tables.rows["ct"]
    v = g.v
    o = v.o
    kinds = (AB_ACTIVATED, AB_LOYALTY, AB_EQUIP, AB_MANA)

    def own_of(c: int, granted: bool) -> list[int]:
        ct = cts[c]
        out = [a for a in range(ct[C_AB0], ct[C_AB0] + ct[C_NAB]) if rows[a][B_KIND] in kinds
               and (rows[a][B_KIND] == AB_ACTIVATED and rows[a][B_ARG] == 1) == granted]  # fmt: skip
        return sorted(out, key=lambda a: rows[a][B_INDEX])

    comps = []
    j = int(o[i, O.F_TOP]) - 1 if o[i, O.F_TOP] > 0 else i
    while j >= 0:
        comps.append(j)
        j = int(o[j, O.F_MERGED])
    own: list[int] = []
    for j in comps:
        c = int(o[j, O.F_CARD])
        if c >= 0:
            if o[j, O.F_TRANSFORMED] and cts[c][C_BACK] >= 0:
                c = int(cts[c][C_BACK])
            own += own_of(c, False)
    for x in v.bf[: int(v.s[G.S_NBF])]:
        if int(o[x, O.F_ATT]) == i and o[x, O.F_CARD] >= 0:
            own += own_of(int(o[x, O.F_CARD]), True)
    if index < len(own):
        return own[index]
    if index == len(own) and g.v.s[G.S_DEPLOY]:
        return len(rows) - 1
    # abilities command-zone cards grant it (Conspiracy Draft): after its own, as listed
    granted = []
    for r in _options(g):
        if r[AC_KIND] == A_ACTIVATE and r[AC_OBJ] == i and int(r[AC_ARG]) not in own:
            if int(r[AC_ARG]) not in granted:
                granted.append(int(r[AC_ARG]))
    if 0 <= index - len(own) < len(granted):
        return granted[index - len(own)]
    raise IllegalAction(f"{g.card_name(i)} has no ability {index}")


def _choices(sc: Scenario, a: dict) -> None:
    """The choices of a cast or activation being put on the stack (601.2b-c): the
    opponent named to choose, modes, kicker, X, targets, then what a cost sacrifices."""
    g = sc.game
    names = g.names
    targets = [resolve_target(sc, t) for t in a.get("targets") or []]
    modes = list(a.get("modes") or [])
    ch = dict(a.get("choices") or {})
    for _ in range(200):
        if g.v.s[G.S_CASTING] < 0:
            break
        kind, who = _pend(g)
        if kind == PEND_CHOOSE_PLAYER:
            if "opponent" in ch:
                if ch["opponent"] not in names:
                    raise ScenarioFailure(f"choices.opponent: unknown player {ch['opponent']!r}")
                _take(g, f"naming {ch['opponent']}", arg=names.index(ch.pop("opponent")))
            else:
                g.step(0)
        elif kind == PEND_MODE:
            caster = int(g.v.o[int(g.v.s[G.S_CASTING]), O.F_ICTL])
            if who != caster:
                break  # an opponent chooses the mode (801.5b): the script's `choose`
            _take(g, "the mode", arg=int(modes.pop(0))) if modes else g.step(0)
        elif kind == PEND_KICKER:
            _take(g, "kicking", arg=1 if ch.pop("kicked", False) else 0)
        elif kind == PEND_X:
            _take(g, f"X = {a.get('x', 0)}", arg=int(a.get("x", 0)))
        elif kind == PEND_TARGET:
            caster = int(g.v.o[int(g.v.s[G.S_CASTING]), O.F_ICTL])
            if who != caster:
                break  # an opponent chooses this target (801.5a): the script's `choose`
            if targets:
                t = targets.pop(0)
                _take(g, f"target {t}", obj=t)
            elif any(r[AC_OBJ] == NO_TARGET for r in _options(g)):
                _take(g, "no more targets", obj=NO_TARGET)
            else:
                raise IllegalAction("a target is needed and the script gives none (601.2c)")
        elif kind == PEND_CHOOSE_OBJECT:
            if "sacrifice" in ch:
                _take(g, "the sacrifice", obj=resolve_card(sc, ch.pop("sacrifice")))
            else:
                g.step(0)
        elif kind == PEND_COLOR:  # a mana ability's colour (106.1b)
            if "color" in ch:
                _take(g, f"colour {ch['color']}", arg=_color(ch.pop("color")))
            else:
                g.step(0)
        else:
            break
    if targets:
        raise IllegalAction(f"{len(targets)} target(s) more than it has")
    if "opponent" in ch:
        raise IllegalAction(
            f"{ch['opponent']} can't be named to choose (801.5a: an opponent in range)"
        )
    for k in ch:
        if k not in ("opponent", "kicked", "sacrifice", "color", "overload", "position"):
            raise ScenarioFailure(f"choices: {k!r} is not implemented yet")
    if "color" in ch:
        raise IllegalAction(f"no colour to choose ({ch['color']})")


def _color(val: Any) -> int:
    if val not in ("W", "U", "B", "R", "G", "C"):
        raise ScenarioFailure(f"color: expected W, U, B, R, G or C, not {val!r}")
    return "WUBRGC".index(val)


def _redistribute(sc: Scenario, val: Any) -> None:
    """Reverse the Sands: {PLAYER: PLAYER, ...}, each key gets the life total the value
    had. The players are chosen in the mapping's order, then each one's new total."""
    g = sc.game
    names = g.names
    if not isinstance(val, dict) or not all(k in names and v in names for k, v in val.items()):
        raise ScenarioFailure("choose.redistribute: expected {PLAYER: PLAYER, ...}")
    for who in val:
        _take(g, f"redistributing {who}'s life total", obj=-1 - names.index(who))
    if _pend(g)[0] == PEND_CHOOSE_OBJECT and g.v.s[G.S_PB] == NO_TARGET:
        _take(g, "no more players", obj=NO_TARGET)
    while _pend(g)[0] == PEND_CHOOSE_OBJECT and NO_TARGET < g.v.s[G.S_PB] < 0:
        who = names[-1 - int(g.v.s[G.S_PB])]
        _take(g, f"{who} gets {val[who]}'s life total", obj=-1 - names.index(val[who]))


def _choose(sc: Scenario, p: int, ch: Any) -> None:
    """Answer pending choices (several keys: several decisions, in order)."""
    g = sc.game
    if not isinstance(ch, dict):
        raise ScenarioFailure("choose: expected a mapping")
    for key, val in ch.items():
        if key == "starting_player":  # 726: fixes the starting player of the subgame asked for
            if val not in g.names:
                raise ScenarioFailure(f"choose.starting_player: unknown player {val!r}")
            if not g.subgame_requested():
                raise IllegalAction("no subgame is about to begin (choose.starting_player)")
            if not g.v.pl[g.names.index(val), PL.P_ALIVE]:
                raise IllegalAction(f"{val} is not in the game (choose.starting_player)")
            g.start_subgame(g.names.index(val))
            continue
        kind, who = _pend(g)
        if kind == PEND_NONE or (who != p and who != _side(g, p)):
            raise IllegalAction(f"{g.names[p]} has no choice to make now")
        if key in ("discard", "bottom"):
            for x in val if isinstance(val, list) else [val]:
                _take(g, f"{key} {x}", obj=resolve_card(sc, x))
        elif key in ("target", "card"):
            if key == "card" and val in (None, "none"):  # (our word: "no more", "none")
                _take(g, "choosing none", obj=NO_TARGET)
                continue
            _take(g, f"choosing {val}", obj=resolve_target(sc, val))
        elif key == "targets":
            for x in val:
                _take(g, f"choosing {x}", obj=resolve_target(sc, x))
        elif key in ("mode", "pile", "number"):
            if not isinstance(val, int) or isinstance(val, bool):
                raise ScenarioFailure(f"choose.{key}: expected a number")
            _take(g, f"{key} {val}", arg=val)
        elif key == "piles":
            if not isinstance(val, list) or len(val) != 2:
                raise ScenarioFailure("choose.piles: expected two lists of cards")
            first = {resolve_card(sc, x) for x in val[0]}
            second = {resolve_card(sc, x) for x in val[1]}
            while _pend(g)[0] == PEND_PILE_SPLIT:
                card = int(g.v.s[G.S_PB])
                if card not in first and card not in second:
                    raise IllegalAction(f"{g.card_name(card)} is in neither pile")
                _take(g, "a pile", arg=0 if card in first else 1)
        elif key == "stop_after":  # 729.2b: shorten the proposed shortcut
            if kind != PEND_SHORTCUT:
                raise IllegalAction("no shortcut is being answered now (choose.stop_after)")
            if not isinstance(val, int) or isinstance(val, bool) or val < 0:
                raise ScenarioFailure("choose.stop_after: expected a whole number >= 0")
            _take(g, f"stopping after {val} repetitions", arg=val)
        elif key == "position":  # 702.140c: a mutating spell on top of / under its target
            if val not in ("top", "bottom") or kind != PEND_POSITION:
                raise IllegalAction("no mutate position is being chosen now (choose.position)")
            _take(g, f"position {val}", arg=1 if val == "top" else 0)
        elif key == "named":  # 702.106a: the name a hidden agenda's owner chooses
            if kind != PEND_NAME_CARD:
                raise IllegalAction(f"no card is being named now (choose.named: {val})")
            _take(g, f"naming {val}", arg=g.compiled.row(val))
        elif key == "color":
            _take(g, f"colour {val}", arg=_color(val))
        elif key == "redistribute":
            _redistribute(sc, val)
        elif key == "command_zone":  # 903.9a-b: the owner moves a commander, or not
            if not isinstance(val, bool):
                raise ScenarioFailure(f"choose.{key}: expected true or false")
            if kind != PEND_COMMAND_ZONE:
                raise IllegalAction("no commander is waiting for its owner's choice (903.9)")
            _take(g, f"{key} {val}", arg=int(val))
        elif key in ("may", "pay_life"):
            if not isinstance(val, bool):
                raise ScenarioFailure(f"choose.{key}: expected true or false")
            if kind not in (PEND_YES_NO, PEND_SCRY):
                raise IllegalAction(f"no yes/no decision is pending (choose.{key})")
            _take(g, f"{key} {val}", arg=int(val))
        else:
            raise ScenarioFailure(f"choose: {key!r} choices are not implemented yet")


# ------------------------------------------------------------------ expectations
def _get(view: Any, path: str) -> tuple[bool, Any]:
    cur = view
    segs = path.split(".")
    k = 0
    while k < len(segs):
        s = segs[k]
        if isinstance(cur, dict):
            # card names may contain dots: take the longest key that matches
            for j in range(len(segs), k, -1):
                cand = ".".join(segs[k:j])
                if cand in cur:
                    cur = cur[cand]
                    k = j
                    break
            else:
                if k > 0 and segs[k - 1] == "counters":
                    return True, 0  # a counter kind the object has none of
                return False, None
            continue
        if isinstance(cur, list) and s.lstrip("-").isdigit():
            idx = int(s)
            if -len(cur) <= idx < len(cur):
                cur = cur[idx]
                k += 1
                continue
        return False, None
    return True, cur


def _ordered(path: str) -> bool:
    last = path.split(".")[-1]
    return path.split(".")[0] in ("stack", "stacks") or last == "library"


def check(view: dict, path: str, want: Any) -> str | None:
    """Compare one expectation; a message when it fails (never an exception)."""
    try:
        return _check(view, path, want)
    except (TypeError, ValueError) as e:
        return f"{path}: can't compare the expected value {want!r} ({e})"


def _check(view: dict, path: str, want: Any) -> str | None:
    ok, got = _get(view, path)
    if not ok:
        return f"{path}: no such path in the state"
    if isinstance(want, dict) and len(want) == 1 and next(iter(want)).startswith("$"):
        ((op, arg),) = want.items()
        if op == "$in":
            good = got in arg
        elif op == "$contains":
            good = isinstance(got, list) and arg in got
        elif op == "$excludes":
            good = isinstance(got, list) and arg not in got
        elif op == "$ge":
            good = isinstance(got, (int, float)) and got >= arg
        elif op == "$le":
            good = isinstance(got, (int, float)) and got <= arg
        else:
            return f"{path}: unknown operator {op}"
        return None if good else f"{path}: expected {op} {arg!r}, got {got!r}"
    if isinstance(want, list) and isinstance(got, list) and not _ordered(path):
        if sorted(map(repr, want)) == sorted(map(repr, got)):
            return None
        return f"{path}: expected {want!r} (any order), got {got!r}"
    if (
        want == got
        and type(want) is type(got)
        or (want == got and not isinstance(want, bool) and not isinstance(got, bool))
    ):
        return None
    return f"{path}: expected {want!r}, got {got!r}"


def _check_all(sc: Scenario, exp: dict, where: str) -> list[str]:
    view = sc.game.view(refs=sc.refs)
    out = []
    for path, want in exp.items():
        msg = check(view, str(path), want)
        if msg:
            out.append(f"{where}: {msg}")
    return out


def run_scenario(sc: Scenario, db: CardDB | None = None) -> list[str]:
    """Play a scenario; returns the failed expectations (empty when it passes)."""
    failures: list[str] = []
    try:
        build_game(sc, db)
    except (ScenarioFailure, IllegalAction, CardError, SetupError) as e:
        return [f"setup: {e}"]
    except Exception as e:  # an engine bug must not stop the other scenarios
        return [f"setup: engine error: {type(e).__name__}: {e}"]
    g = sc.game
    steps = sc.data.get("actions") or []
    for k, a in enumerate(steps):
        where = f"actions[{k}]"
        if "expect" in a:
            try:
                failures += _check_all(sc, a["expect"], where)
            except Exception as e:
                failures.append(f"{where}: engine error in the state view: {type(e).__name__}: {e}")
                return failures
            continue
        expect_error = bool(a.get("expect_error", False))
        before = g.fingerprint()
        snapshot = g.snapshot()
        nxt = steps[k + 1] if k + 1 < len(steps) else None
        g.hold_subgame = _names_starting_player(nxt)
        try:
            run_action(sc, a, nxt)
            if g.subgame_requested() and not g.hold_subgame:
                g.start_subgame(None)  # (726: its starting player at random)
        except IllegalAction as e:
            g.restore(snapshot)  # a scripted action is refused whole (730.1)
            if expect_error:
                if g.fingerprint() != before:
                    failures.append(f"{where}: refused ({e}) but the state changed (730.1)")
                continue
            failures.append(f"{where}: illegal action: {e}")
            return failures
        except ScenarioFailure as e:
            failures.append(f"{where}: {e}")
            return failures
        except Exception as e:  # an engine bug must not stop the other scenarios
            failures.append(f"{where}: engine error: {type(e).__name__}: {e}")
            return failures
        else:
            if expect_error:
                failures.append(
                    f"{where}: expected the action to be refused, but it was carried out"
                )
                return failures
    try:
        failures += _check_all(sc, sc.data.get("expect") or {}, "expect")
    except Exception as e:
        failures.append(f"expect: engine error in the state view: {type(e).__name__}: {e}")
    return failures


def _names_starting_player(step: Any) -> bool:
    """Is this script step a ``choose`` naming a subgame's starting player (726)?"""
    return (
        isinstance(step, dict)
        and isinstance(step.get("choose"), dict)
        and ("starting_player" in step["choose"])
    )


def find_files(paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        q = Path(p)
        if q.is_dir():
            out += sorted(str(f) for f in q.rglob("*.yaml"))
        else:
            out.append(str(q))
    return out


def main(paths: list[str], as_json: bool = False, dump: bool = False) -> int:
    files = find_files(paths)
    db = load_pool()
    results = []
    invalid = False
    for f in files:
        try:
            sc = load_scenario(f, db)
        except ScenarioError as e:
            invalid = True
            results.append(
                {"file": f, "name": None, "passed": False, "invalid": True, "failures": [str(e)]}
            )
            if not as_json:
                print(f"INVALID {e}")
            continue
        fails = run_scenario(sc, db)
        results.append(
            {"file": f, "name": sc.name, "passed": not fails, "invalid": False, "failures": fails}
        )
        if not as_json:
            print(f"{'PASS' if not fails else 'FAIL'} {sc.name}")
            for m in fails:
                print(f"    {m}")
            if dump and sc.game is not None:
                print(json.dumps(sc.game.view(refs=sc.refs), indent=2, default=str))
        elif dump and sc.game is not None:
            results[-1]["state"] = sc.game.view(refs=sc.refs)
    if not files:
        invalid = True
        msg = f"no scenario files found in {paths}"
        results.append(
            {"file": None, "name": None, "passed": False, "invalid": True, "failures": [msg]}
        )
        if not as_json:
            print(f"INVALID {msg}")
    passed = sum(r["passed"] for r in results)
    failed = len(results) - passed
    if as_json:
        print(
            json.dumps(
                {"passed": passed, "failed": failed, "scenarios": results}, indent=2, default=str
            )
        )
    else:
        print(f"{passed} passed, {failed} failed")
    if invalid:
        return 2
    return 0 if failed == 0 else 1


__all__ = ["load_scenario", "run_scenario", "build_game", "main", "ScenarioError"]
