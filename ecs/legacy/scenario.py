"""Rules scenarios: the YAML format of ../shared/SCENARIOS.md and its runner.

``load_scenario`` validates a file and names the file, field and what was
expected for anything wrong (exit code 2). ``run_scenario`` builds the
position, plays the script and checks every expectation, returning the
failures as readable lines.

Documented defaults (the contract leaves them to the engine):
- when the script gives no choice, the engine takes the first legal option of
  ``legal_actions`` (see ``systems/legal_actions.py``); declarations default to
  no attackers and no blockers, mulligan decisions to keeping, discards to the
  card with the lowest object id;
- a scenario starting at a step begins that step: its turn-based actions happen
  (a draw step draws) and its beginning-of-step triggers trigger;
- scenarios run with every priority stop (no auto-pass), so ``pass`` steps
  read exactly like the table;
- when a resolving spell or ability needs a player's choice (an opponent's
  target, Fact or Fiction's piles, a mode), ``resolve`` stops there if the
  next step of the script is a ``choose`` (or an ``expect``, to look at the
  pending choice); otherwise the first legal option is taken and resolving
  goes on; besides the contract's keys, ``choose`` takes ``pay_life: true|false``
  (Killing Wave asks each controller about one creature at a time, in object
  order, and pays first by default) and ``redistribute: {PLAYER: PLAYER, ...}``
  (Reverse the Sands: who gets whose life total; the default changes nothing);
- a path into ``counters`` that names a counter kind the object has none of
  reads 0.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs.actions import Action, IllegalAction, player_ref
from ecs.checks import INT32, MAX_PLAYERS, InputError, int_fields, load_yaml, read_text
from ecs.constants import (
    BATTLEFIELD,
    COMMAND,
    COUNTER_INDEX,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    STEP_BY_NAME,
    STEP_NAMES,
)
from ecs.game import VARIANTS, Game, Options
from ecs.legacy.cards import CardDB, CardError, load_cards
from ecs.legacy.systems.variants import starting_life

ZONES = {
    "hand": HAND,
    "library": LIBRARY,
    "graveyard": GRAVEYARD,
    "exile": EXILE,
    "command": COMMAND,
    "battlefield": BATTLEFIELD,
}
PLAYER_FIELDS = {"name", "team", "role", "range_of_influence", "life", "poison", "mana", *ZONES}
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
}
ACTION_EXTRA = {"player", "targets", "x", "modes", "choices", "ability", "pay", "expect_error"}
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
    db = db or load_cards()
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
            raise _err(path, f"{f}.card", f"unknown card {e['card']!r}")
        cnt = e.get("count", 1)
        if not isinstance(cnt, int) or isinstance(cnt, bool) or not 1 <= cnt <= MAX_CARDS:
            raise _err(path, f"{f}.count", f"expected a whole number from 1 to {MAX_CARDS}")
        for key in ("damage",):
            if key in e and (not isinstance(e[key], int) or e[key] < 0):
                raise _err(path, f"{f}.{key}", "expected a whole number >= 0")
        for key in ("tapped", "summoning_sick", "face_up"):
            if key in e and not isinstance(e[key], bool):
                raise _err(path, f"{f}.{key}", "expected true or false")
        if "counters" in e:
            if not isinstance(e["counters"], dict):
                raise _err(path, f"{f}.counters", "expected a mapping of counter kind -> number")
            for ck, cv in e["counters"].items():
                if ck not in COUNTER_INDEX:
                    raise _err(
                        path,
                        f"{f}.counters",
                        f"unknown counter kind {ck!r} (known: {sorted(COUNTER_INDEX)})",
                    )
                if not isinstance(cv, int):
                    raise _err(path, f"{f}.counters.{ck}", "expected a whole number")
        if cnt > 1 and "id" in e:
            raise _err(path, f"{f}.id", "an entry with count > 1 can't have one id")
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
    for k in game:
        if k not in ("variant", "options", "casual", "seed"):
            raise _err(path, f"game.{k}", "unknown field (expected variant, options, casual, seed)")
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
        elif k in ("deploy_creatures", "shared_team_turns"):
            if not isinstance(v, bool):
                raise _err(path, f"game.options.{k}", "expected true or false")
        else:
            raise _err(path, f"game.options.{k}", "unknown option")
    casual = game.get("casual", "none")
    if casual not in (
        "none",
        "commander",
        "brawl",
        "planechase",
        "vanguard",
        "archenemy",
        "supervillain-rumble",
    ):
        raise _err(path, "game.casual", f"unknown casual variant {casual!r}")
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
                if "id" in e:
                    if e["id"] in ids:
                        raise _err(path, f"{f}.{z}[{j}].id", f"duplicate card id {e['id']!r}")
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
    if "step" in start and not _hashable_in(start["step"], STEP_BY_NAME):
        raise _err(
            path,
            "start.step",
            f"unknown step {start['step']!r} (expected one of {list(STEP_BY_NAME)})",
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


_CREATED = re.compile(r"^(.+)#(\d+)$")


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
    if m and (m.group(1) in db):
        return
    what = "card or player" if players_ok else "card"
    raise _err(path, fld, f"unknown {what} {ref!r}")


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
        if not isinstance(adv, dict) or adv.get("step") not in STEP_BY_NAME:
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
    if kind in ("play_land", "cast", "activate"):
        chk(f"{f}.{kind}", a[kind])
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
    if "x" in a and (not isinstance(a["x"], int) or a["x"] < 0):
        raise _err(path, f"{f}.x", "expected an integer >= 0")
    if "ability" in a and (not isinstance(a["ability"], int) or a["ability"] < 0):
        raise _err(path, f"{f}.ability", "expected an integer >= 0")


# ------------------------------------------------------------------ building
def build_game(sc: Scenario, db: CardDB | None = None) -> Game:
    d = sc.data
    db = db or load_cards()
    game = d.get("game") or {}
    players = d["players"]
    names = [p["name"] for p in players]
    variant = game.get("variant") or ("two-player" if len(names) == 2 else "free-for-all")
    casual = game.get("casual", "none")
    if casual != "none":
        raise ScenarioFailure(f"casual variant {casual!r} is not implemented yet")
    opts = game.get("options") or {}
    options = Options(
        range_of_influence=opts.get("range_of_influence"),
        attack=opts.get("attack"),  # None: the variant's default
        deploy_creatures=opts.get("deploy_creatures"),  # None: the variant's default
        shared_team_turns=bool(opts.get("shared_team_turns", False)),
    )
    if options.shared_team_turns and variant not in ("team-vs-team", "two-headed-giant"):
        # 805.1: only where each team's members sit in adjacent seats
        raise ScenarioFailure(f"shared team turns can't be used in {variant} (805.1)")
    team_list: list[str] = []
    for p in players:
        if "team" in p and p["team"] not in team_list:
            team_list.append(p["team"])
    teams = None
    if team_list:
        teams = [
            team_list.index(p["team"]) if "team" in p else len(team_list) + k
            for k, p in enumerate(players)
        ]
    try:
        g = Game(
            names,
            variant=variant,
            options=options,
            seed=int(game.get("seed", 0)),
            db=db,
            teams=teams,
            roles=[p.get("role") for p in players],
        )
    except NotImplementedError as e:
        raise ScenarioFailure(str(e)) from None
    if team_list:
        g.team_names = list(team_list) + [f"({n})" for n in names]
    from ecs.game import apply_variant_ranges

    apply_variant_ranges(g)  # 809.3a / 809.6a from the file's seating
    if "range_of_influence" in opts:  # null = unlimited, a number = that range for everyone
        v = opts["range_of_influence"]
        g.pl.reach[:] = -1 if v is None else v
    life = starting_life(variant, len(names))
    refs: dict[str, int] = {}
    name_ids: dict[str, list[int]] = {}
    attach: list[tuple[int, str]] = []
    sick_flags: list[tuple[int, bool]] = []
    for p, pd in enumerate(players):
        g.pl.life[p] = pd.get("life", life)
        g.pl.poison[p] = pd.get("poison", 0)
        if "range_of_influence" in pd:  # per-player range (801.2a); null = unlimited
            v = pd["range_of_influence"]
            g.pl.reach[p] = -1 if v is None else v
        for c, v in (pd.get("mana") or {}).items():
            g.pl.mana[p, "WUBRGC".index(c)] = v
    # battlefield objects first, in file order, so timestamps follow the file
    for zname in ("battlefield", "hand", "library", "graveyard", "exile", "command"):
        for p, pd in enumerate(players):
            entries = _card_entries(sc.path, f"players[{p}].{zname}", pd.get(zname), db)
            if zname == "library":
                entries = list(reversed(entries))  # file lists the top first
            for e in entries:
                i = g.new_object(db.index(e["card"]), p, ZONES[zname])
                name_ids.setdefault(e["card"], []).append(i)
                if "id" in e:
                    refs[e["id"]] = i
                o = g.obj
                if zname == "library":
                    g.library[p].append(i)
                g.zctr += 1
                o.zpos[i] = g.zctr
                if zname == "battlefield":
                    ctl = names.index(e["controller"]) if e.get("controller") else p
                    o.base_controller[i] = ctl
                    o.controller[i] = ctl
                    o.tapped[i] = bool(e.get("tapped", False))
                    o.damage[i] = e.get("damage", 0)
                    o.sick[i] = bool(e.get("summoning_sick", False))
                    sick_flags.append((i, bool(o.sick[i])))
                    o.face_up[i] = bool(e.get("face_up", True))
                    dd = db.defs[o.card[i]]
                    if dd.loyalty and "counters" not in e:
                        o.counters[i, 2] = dd.loyalty
                    if dd.defense and "counters" not in e:
                        o.counters[i, COUNTER_INDEX["defense"]] = dd.defense
                    for k, v in dd.enters_with.items():
                        if "counters" not in e:
                            o.counters[i, COUNTER_INDEX[k]] = v
                    for k, v in (e.get("counters") or {}).items():
                        o.counters[i, COUNTER_INDEX[k]] = v
                    if e.get("attached_to") is not None:
                        attach.append((i, e["attached_to"]))
    g.refs = dict(refs)  # ids; unique names are looked up by resolve_card
    for tname, tv in (d.get("teams") or {}).items():  # team state: shared totals (810.4)
        if tname not in team_list:
            raise ScenarioFailure(f"teams.{tname}: no player is on team {tname!r}")
        for p, pd in enumerate(players):
            if pd.get("team") == tname:
                if "life" in tv:
                    g.pl.life[p] = tv["life"]
                if "poison" in tv:
                    g.pl.poison[p] = tv["poison"]
    for i, r in attach:
        g.obj.attached_to[i] = resolve_card(g, r)
    # setup permanents: continuous effects apply from the start, and a creature that
    # starts under another player's control (Mind Control) is not summoning sick
    from ecs.legacy.systems.continuous_effects import recompute

    recompute(g)
    g.obj.last_controller[: g.obj.n] = g.obj.controller[: g.obj.n]
    for i, sick in sick_flags:
        g.obj.sick[i] = sick
    start = d.get("start") or {}
    active = start.get("active", names[0])
    holders = [names.index(x) for x in (active if isinstance(active, list) else [active])]
    if len(holders) > 1 and variant != "grand-melee" and not g.team_turns:
        raise ScenarioFailure(
            f"several active players at once need grand-melee or team turns ({variant})"
        )
    if len(holders) > 1 and g.team_turns and len({int(g.pl.team[p]) for p in holders}) > 1:
        raise ScenarioFailure(
            "start.active: with shared team turns, the active players are one team"
        )
    a = holders[0]
    turn = int(start.get("turn", 1))
    step = STEP_BY_NAME[start.get("step", "precombat-main")]
    g.starting_player = a if turn == 1 else 0
    from ecs.legacy.systems.mulligan import begin_mulligans
    from ecs.legacy.systems.turn_structure import run, snapshot_ranges

    g.active = a
    g.active_players = [a]
    if g.team_turns:  # 805.4a: the whole team is active; its primary player stands for it
        g.active = g.primary(a)
        g.active_players = g.teammates(g.active)
    g.dirty = True
    if step == STEP_BY_NAME["pregame"]:
        from ecs.legacy.systems.zones import draw

        for p in g.turn_order_from(a):
            if not players[p].get("hand"):
                draw(g, p, 7)
        begin_mulligans(g)
        return g
    g.turn = turn
    snapshot_ranges(g)
    from ecs.constants import T_BATTLE
    from ecs.legacy.systems.zones import choose_protector

    for i in g.battlefield():
        if g.obj.types[i] & T_BATTLE and g.obj.protector[i] < 0:  # 310.11a default protector
            g.obj.protector[i] = choose_protector(g, int(g.obj.controller[i]))
    g.step_no = step
    g.todo = "begin"
    if variant == "grand-melee":  # 807.4b: a marker for each holder, numbered in file order
        from ecs.legacy.systems import turn_markers

        if not isinstance(active, list):
            holders = turn_markers.starting_holders(g, a)
        turn_markers.setup(g, holders, step)
        for k in range(len(holders)):
            turn_markers.load(g, k)
            g.turn = turn
            turn_markers.save(g)
        turn_markers.load(g, 0)
    run(g)
    return g


def resolve_card(g: Game, ref: str) -> int:
    if ref in g.refs:
        return g.refs[ref]
    o = g.obj
    named = [
        i
        for i in range(o.n)
        if o.card[i] >= 0 and g.db.defs[o.card[i]].name == ref and not o.token[i]
    ]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise ScenarioFailure(f"card reference {ref!r} is ambiguous")
    raise ScenarioFailure(f"no card {ref!r} exists (yet)")


def resolve_target(g: Game, ref: str) -> int:
    if ref in g.names:
        return player_ref(g.names.index(ref))
    return resolve_card(g, ref)


# ------------------------------------------------------------------ running
def _auto(g: Game, stop, what: str) -> None:
    """Everyone passes / takes defaults until ``stop(g)`` holds."""
    from ecs.legacy.systems.legal_actions import legal_actions

    for _ in range(MAX_AUTO_STEPS):
        if stop(g) or g.over:
            return  # a game that ends on the way stops the advance (expectations tell)
        if g.pending is None:
            raise ScenarioFailure(f"{what}: no decision is pending")
        d = g.pending
        if d.kind == "priority":
            g.step(Action("pass", d.player))
        elif d.kind == "attack":
            g.step(Action("attack_done", d.player))
        elif d.kind == "block":
            g.step(Action("block_done", d.player))
        elif d.kind == "mulligan":
            g.step(Action("keep", d.player))
        else:
            g.step(legal_actions(g)[0])
    raise ScenarioFailure(f"{what}: gave up after {MAX_AUTO_STEPS} automatic steps")


def _choosing(g: Game) -> bool:
    """A player must make a choice for a resolving spell: the script answers it."""
    return g.pending is not None and g.pending.kind == "choose"


def _pending(g: Game, kind: str, p: int | None = None) -> bool:
    d = g.pending
    return d is not None and d.kind == kind and (p is None or d.player == p)


def _all_stacks(g: Game) -> list[int]:
    """Objects on every stack (Grand Melee has one per turn marker, 807.5)."""
    out = list(g.stack)
    for k, m in enumerate(g.markers):
        if k != g.cur:
            out += m.turn["stack"]
    return out


def run_action(g: Game, a: dict, lookahead: Any = None) -> None:
    """Carry out one scripted step. ``lookahead`` is the next step: when a resolution
    needs a player's choice, ``resolve`` stops there only if the script answers it next
    (a ``choose`` or an ``expect`` step); otherwise the first legal option is taken."""
    answers = isinstance(lookahead, dict) and ("choose" in lookahead or "expect" in lookahead)
    stop_at_choice = (lambda g: _choosing(g)) if answers else (lambda g: False)
    names = g.names
    if "resolve" in a:
        if a["resolve"] == "all":
            _auto(g, lambda g: not _all_stacks(g) or g.over or stop_at_choice(g), "resolve: all")
        else:
            if not g.stack:
                return
            top = g.stack[-1]
            _auto(g, lambda g: top not in g.stack or g.over or stop_at_choice(g), "resolve: 1")
        return
    if "advance_to" in a:
        adv = a["advance_to"]
        step = STEP_BY_NAME[adv["step"]]
        who = names.index(adv["active"]) if adv.get("active") is not None else None
        turn = adv.get("turn")
        reached = [False]

        def began(step_no: int) -> None:  # the engine's "step" event: a step has begun
            if STEP_NAMES[step_no] != STEP_NAMES[step]:
                return
            if who is not None and g.active != who:
                return
            if turn is not None and g.turn != turn:
                return
            reached[0] = True

        # stop at the first decision once the step has begun: its first priority, or, for
        # steps nobody gets priority in (untap, most cleanups), the next decision after it
        g.world.subscribe("step", began)
        try:
            _auto(g, lambda g: reached[0] and g.pending is not None, f"advance_to {adv}")
        finally:
            g.world.unsubscribe("step", began)
        return
    p = names.index(a["player"])
    if "play_land" in a:
        g.step(Action("play_land", p, resolve_card(g, a["play_land"])))
    elif "cast" in a:
        targets = tuple(resolve_target(g, t) for t in a.get("targets") or [])
        act = Action("cast", p, resolve_card(g, a["cast"]), int(a.get("x", 0)), targets)
        g.step(act._replace(choices=_choices(g, a)))
    elif "activate" in a:
        targets = tuple(resolve_target(g, t) for t in a.get("targets") or [])
        act = Action(
            "activate", p, resolve_card(g, a["activate"]), int(a.get("ability", 0)), targets
        )
        g.step(act._replace(choices=_choices(g, a)))
    elif "pass" in a:
        g.step(Action("pass", p))
    elif "leave" in a:
        g.step(Action("leave", p))
    elif "mulligan" in a:
        g.step(Action("mulligan", p))
    elif "keep" in a:
        g.step(Action("keep", p))
    elif "attack" in a:
        decl = [(resolve_card(g, k), resolve_target(g, v)) for k, v in a["attack"].items()]
        if g.team_turns and g.is_active(p):
            p = g.active  # 805.10b: the active team's one combined attack (its primary decides)
        if not _pending(g, "attack", p):
            taking_turn = g.active == p
            if g.markers:  # Grand Melee: any holder taking a turn now (807.4)
                from ecs.legacy.systems.turn_markers import holders_now

                taking_turn = p in holders_now(g)
            if not taking_turn:
                raise IllegalAction(f"{a['player']} is not the active player")

            def past(g: Game, p: int = p) -> bool:
                """p's turn is over, or p's turn has gone past declaring attackers."""
                if g.markers:
                    m = next((m for m in g.markers if m.holder == p and not m.waiting), None)
                    if m is None:
                        return True
                    st = g.step_no if g.markers[g.cur] is m else m.turn["step_no"]
                    return st > STEP_BY_NAME["declare-attackers"]
                return g.active != p or g.step_no > STEP_BY_NAME["declare-attackers"]

            _auto(g, lambda g: _pending(g, "attack", p) or past(g), "attack")
            if not _pending(g, "attack", p):
                raise IllegalAction(f"{a['player']} can't declare attackers any more this turn")
        for i, dfd in decl:
            g.step(Action("attack", p, i, dfd))
        g.step(Action("attack_done", p))
    elif "block" in a:
        decl = [(resolve_card(g, k), resolve_card(g, v)) for k, v in a["block"].items()]
        if g.team_turns:
            p = g.primary(p)  # 805.10d: the defending team's one combined block
        if not _pending(g, "block", p):
            t0 = g.turn
            _auto(g, lambda g: _pending(g, "block", p) or g.turn != t0 or g.step_no > 6, "block")
            if not _pending(g, "block", p):
                raise IllegalAction(f"{a['player']} is not declaring blockers this turn")
        for b, atk in decl:
            g.step(Action("block", p, b, atk))
        g.step(Action("block_done", p))
    elif "choose" in a:
        ch = a["choose"]
        d = g.pending
        if not isinstance(ch, dict):
            raise ScenarioFailure("choose: expected a mapping")
        for key, vals in ch.items():
            if key in ("discard", "bottom"):
                for v in vals if isinstance(vals, list) else [vals]:
                    g.step(Action(key, p, resolve_card(g, v)))
            elif key in ("target", "card"):
                g.step(Action("choose", p, resolve_target(g, vals)))
            elif key in ("pile", "mode"):
                if not isinstance(vals, int):
                    raise ScenarioFailure(f"choose.{key}: expected a number (0 = the first)")
                g.step(Action("choose", p, -1, vals))
            elif key == "piles":
                if not isinstance(vals, list) or len(vals) != 2:
                    raise ScenarioFailure("choose.piles: expected two lists of cards")
                first = tuple(sorted(resolve_card(g, v) for v in vals[0]))
                g.step(Action("choose", p, -1, -1, first))
            elif key == "pay_life":  # Killing Wave: pay for the creature asked about, or not
                if not isinstance(vals, bool):
                    raise ScenarioFailure("choose.pay_life: expected true or false")
                g.step(Action("choose", p, -1, int(vals)))
            elif key == "redistribute":
                g.step(Action("choose", p, -1, -1, _redistribution(g, vals)))
            else:
                raise ScenarioFailure(
                    f"choose: {key!r} choices are not implemented yet (pending: {d})"
                )
    elif "roll_planar_die" in a:
        raise ScenarioFailure("Planechase (roll_planar_die) is not implemented yet")


def _redistribution(g: Game, vals: Any) -> tuple[int, ...]:
    """``{PLAYER: WHOSE_TOTAL_THEY_GET, ...}`` as the pending redistribution's option;
    players left out get their own total back."""
    c = g.choice
    if c is None or c.kind != "redistribute":
        raise IllegalAction("no redistribution of life totals is pending")
    names = g.names
    if not isinstance(vals, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and k in names and v in names
        for k, v in vals.items()
    ):
        raise ScenarioFailure("choose.redistribute: expected {PLAYER: PLAYER, ...}")
    order = [names[q] for q in c.info["players"]]
    for name in (*vals, *vals.values()):
        if name not in order:
            raise IllegalAction(f"{name}'s life total can't be redistributed (801.10)")
    return tuple(player_ref(names.index(vals.get(name, name))) for name in order)


def _choices(g: Game, a: dict) -> tuple:
    """``pay`` and ``choices`` of a cast/activate step, as Action.choices pairs."""
    out: list[tuple[str, Any]] = []
    if a.get("pay"):
        out.append(("pay", tuple(resolve_card(g, r) for r in a["pay"])))
    for key, v in (a.get("choices") or {}).items():
        if key == "opponent":
            if v not in g.names:
                raise ScenarioFailure(f"choices.opponent: unknown player {v!r}")
            out.append(("opponent", g.names.index(v)))
        else:
            raise ScenarioFailure(f"choices: {key!r} is not implemented yet")
    return tuple(out)


def _fingerprint(g: Game) -> str:
    return g.fingerprint()


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
                rest = ".".join(segs[k:])
                if k > 0 and segs[k - 1] == "counters" and rest in COUNTER_INDEX:
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


def _check_all(g: Game, exp: dict, where: str) -> list[str]:
    view = g.view()
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
        g = build_game(sc, db)
    except (ScenarioFailure, IllegalAction, CardError) as e:
        return [f"setup: {e}"]
    except Exception as e:  # an engine bug must not stop the other scenarios
        return [f"setup: engine error: {type(e).__name__}: {e}"]
    sc.game = g
    steps = sc.data.get("actions") or []
    for k, a in enumerate(steps):
        where = f"actions[{k}]"
        if "expect" in a:
            try:
                failures += _check_all(g, a["expect"], where)
            except Exception as e:  # an engine bug must not stop the other scenarios
                failures.append(f"{where}: engine error in the state view: {type(e).__name__}: {e}")
                return failures
            continue
        expect_error = bool(a.get("expect_error", False))
        before = _fingerprint(g) if expect_error else None
        composite = any(k in a for k in ("attack", "block", "choose"))
        snapshot = g.clone() if composite else None
        try:
            run_action(g, a, steps[k + 1] if k + 1 < len(steps) else None)
        except IllegalAction as e:
            if snapshot is not None:
                g.restore(snapshot)  # a scripted declaration is one action, refused whole (730.1)
            if expect_error:
                if _fingerprint(g) != before:
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
        failures += _check_all(g, sc.data.get("expect") or {}, "expect")
    except Exception as e:
        failures.append(f"expect: engine error in the state view: {type(e).__name__}: {e}")
    return failures


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
    db = load_cards()
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
                print(json.dumps(sc.game.view(), indent=2, default=str))
        elif dump and sc.game is not None:
            results[-1]["state"] = sc.game.view()
        if sc.game is not None:
            sc.game.close()
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
