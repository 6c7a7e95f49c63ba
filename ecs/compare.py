"""``melee compare CONFIG... [--games N] [--seed S] [--workers W] [--out [DIR]] [--json]``.

Plays a batch per configuration file, every batch from the same seed (so the
same per-game seeds and, for the same deck list, the same deck rotation), and
shows them side by side: games, turns, draws, win rate by seat with 95% Wilson
intervals, first-player advantage (seat-0 win rate minus 1/players) and
games/s. Each configuration is played as ``melee simulate`` plays a batch.
``--out DIR`` also writes ``compare.md``, ``winrate_by_seat.png``
(grouped bars) and ``turns.png`` (boxplots).

A configuration is a YAML mapping (see ``examples/compare/``)::

    name: ffa-range-1        # default: the file name without extension
    variant: free-for-all    # two-player | free-for-all | team-vs-team | emperor |
                             # alternating-teams | two-headed-giant | grand-melee
    players: 6               # default 4 (two-player: 2)
    range: 1                 # null = the variant's default
    attack: left             # multiple | left | right (default multiple)
    teams: null              # number of teams, team variants
    agents: [random]         # per seat, cycling (or "random,heuristic")
    decks: [burn, big-green] # stock deck names or deck files; default: all stock decks
    games: 200               # --games overrides
    max_turns: 200           # safety cap; a capped game is a draw
    mulligans: false         # play pregame mulligan decisions
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ecs.checks import (
    MAX_GAMES,
    MAX_PLAYERS,
    MAX_TURNS,
    InputError,
    int_arg,
    load_yaml,
    read_text,
)
from ecs.report import add_output_arguments
from ecs.stats import game_stats

DEFAULT_OUT = "melee-compare"
VARIANT_NAMES = (
    "two-player", "free-for-all", "team-vs-team", "emperor", "alternating-teams",
    "two-headed-giant", "grand-melee",
)  # fmt: skip
ATTACKS = ("multiple", "left", "right")
KEYS = (
    "name", "variant", "players", "range", "attack", "teams", "agents", "decks", "games",
    "max_turns", "mulligans",
)  # fmt: skip


class ConfigError(Exception):
    """A configuration file is wrong; the message names the file and the key."""


def add_arguments(ap: argparse.ArgumentParser) -> None:
    from ecs.simulate import add_seed_and_workers

    ap.add_argument("configs", nargs="+", metavar="CONFIG", help="configuration files (YAML)")
    ap.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=None, metavar="N",
        help="games per configuration (default: each file's games, else 200)",
    )  # fmt: skip
    add_seed_and_workers(ap, "batch seed, the same for every configuration")
    add_output_arguments(ap, "compare.md", DEFAULT_OUT)


# --- configurations -------------------------------------------------------------------


def _int(path: str, key: str, value: Any, minimum: int, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ConfigError(
            f"{path}: {key}: expected a whole number from {minimum} to {maximum:,}, got {value!r}"
        )
    return value


def _names(path: str, key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{path}: {key}: expected a list of names, got {value!r}")
    return value


def load_config(path: str | Path) -> dict[str, Any]:
    """Read and check one configuration file; :class:`ConfigError` if it is wrong.

    Returns the settings with defaults filled in (``decks`` resolved to names or
    paths ``load_deck`` accepts) plus ``file``.
    """
    from ecs.simulate import DEFAULT_GAMES
    from systems.policies import POLICY_NAMES as AGENTS

    where = str(path)
    p = Path(path)
    try:
        data = load_yaml(read_text(p), where)
    except InputError as e:
        raise ConfigError(str(e)) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping of settings, got {type(data).__name__}")
    for key in data:
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (expected one of: {', '.join(KEYS)})")
    name = data.get("name", p.stem)
    if not isinstance(name, (str, int)) or not str(name).strip():
        raise ConfigError(f"{where}: name: expected a non-empty string, got {name!r}")
    variant = data.get("variant") or "free-for-all"
    if variant not in VARIANT_NAMES:
        raise ConfigError(
            f"{where}: variant: unknown variant {variant!r} (expected one of: "
            f"{', '.join(VARIANT_NAMES)})"
        )
    players = data.get("players")
    if variant == "two-player":
        if players is not None and players != 2:
            raise ConfigError(f"{where}: players: two-player has 2 players, got {players!r}")
        players = 2
    else:
        players = _int(where, "players", 4 if players is None else players, 2, MAX_PLAYERS)
    range_ = data.get("range")
    if range_ is not None:
        range_ = _int(where, "range", range_, 1, MAX_PLAYERS)
    from ecs.engine import VARIANTS as _RULES

    attack = data.get("attack") or (  # the variant's default (left in Grand Melee)
        _RULES[variant].default_attack if variant in _RULES else "multiple"
    )
    if attack not in ATTACKS:
        raise ConfigError(f"{where}: attack: expected one of {', '.join(ATTACKS)}, got {attack!r}")
    teams = data.get("teams")
    if teams is not None:
        teams = _int(where, "teams", teams, 2, MAX_PLAYERS)
    agents = _names(where, "agents", data.get("agents") or ["random"])
    for a in agents:
        if a not in AGENTS:
            raise ConfigError(
                f"{where}: agents: unknown agent {a!r} (expected one of: {', '.join(AGENTS)})"
            )
    decks = data.get("decks")
    decks = _names(where, "decks", decks) if decks is not None else None
    if decks is not None:  # deck files are relative to the configuration file
        decks = [str(p.parent / d) if (p.parent / d).is_file() else d for d in decks]
    games = data.get("games")
    games = DEFAULT_GAMES if games is None else _int(where, "games", games, 1, MAX_GAMES)
    max_turns = data.get("max_turns")
    max_turns = 200 if max_turns is None else _int(where, "max_turns", max_turns, 1, MAX_TURNS)
    mulligans = data.get("mulligans", False)
    if not isinstance(mulligans, bool):
        raise ConfigError(f"{where}: mulligans: expected true or false, got {mulligans!r}")
    return {
        "file": where,
        "name": str(name),
        "variant": variant,
        "players": players,
        "range": range_,
        "attack": attack,
        "teams": teams,
        "agents": agents,
        "decks": decks,
        "games": games,
        "max_turns": max_turns,
        "mulligans": mulligans,
    }


def build_cfg(spec: dict[str, Any], games: int | None, seed: int, workers: int | None) -> dict:
    """The ``run_batch`` configuration for one checked spec, built as ``melee simulate``
    builds it (decks loaded, the variant/players/teams/range/attack combination tried
    on a game); :class:`ConfigError` naming the file if it is refused."""
    from ecs.decks import DeckError, load_deck, stock_decks
    from ecs.engine import Options, SetupError, check_setup, default_teams

    where = spec["file"]
    decks = spec["decks"] or stock_decks()
    try:
        deck_cards = {d: load_deck(d).main for d in decks}
    except DeckError as e:
        raise ConfigError(f"{where}: decks: {e}") from None
    players, variant = spec["players"], spec["variant"]
    try:
        default_teams(variant, players, spec["teams"])
        opts = Options(range_of_influence=spec["range"], attack=spec["attack"], teams=spec["teams"])
        check_setup(variant, players, opts)
    except SetupError as e:
        raise ConfigError(f"{where}: {e}") from None
    cfg = {
        "variant": variant,
        "players": players,
        "games": games if games is not None else spec["games"],
        "agents": spec["agents"],
        "decks": decks,
        "deck_cards": deck_cards,
        "seed": seed,
        "workers": workers or os.cpu_count() or 1,
        "range": spec["range"],
        "attack": spec["attack"],
        "max_turns": spec["max_turns"],
        "mulligans": spec["mulligans"],
        "teams": spec["teams"],
        "backend": "local",
        "address": None,
    }
    return cfg


# --- running --------------------------------------------------------------------------


def main(args: argparse.Namespace) -> int:
    from ecs.simulate import BatchInterrupted, run_batch

    try:
        specs = [load_config(c) for c in args.configs]
        names: dict[str, str] = {}
        for s in specs:
            if s["name"] in names:
                raise ConfigError(
                    f"{s['file']}: name: {s['name']!r} is also the name of {names[s['name']]}"
                )
            names[s["name"]] = s["file"]
        cfgs = [build_cfg(s, args.games, args.seed, args.workers) for s in specs]
    except ConfigError as e:
        print(f"melee compare: error: {e}", file=sys.stderr)
        return 2
    results = []
    chatty = not args.json and sys.stderr.isatty()
    for k, (spec, cfg) in enumerate(zip(specs, cfgs), 1):
        if chatty:
            print(f"[{k}/{len(specs)}] {spec['name']}: {cfg['games']} games", file=sys.stderr)
        try:
            rows, wall = run_batch(cfg, progress=False, out=None, store=None)
        except (BatchInterrupted, KeyboardInterrupt):
            print(f"\ninterrupted: the comparison stopped in {spec['name']}", file=sys.stderr)
            return 130
        rows.sort(key=lambda r: r["game"])
        results.append(summarise(spec, cfg, rows, wall))
    report: dict[str, Any] = {"seed": args.seed, "configs": results}
    if args.out is not None:
        try:
            report["outputs"] = write_outputs(results, args.out)
        except OSError as e:
            print(
                f"melee compare: error: {args.out}: cannot write the comparison ({e})",
                file=sys.stderr,
            )
            return 2
    if args.json:
        for r in report["configs"]:
            r.pop("turns_list")
        print(json.dumps(report))
    else:
        print_table(report)
    return 0


def summarise(spec: dict, cfg: dict, rows: list[dict], wall: float) -> dict[str, Any]:
    stats = game_stats(rows, cfg["players"])
    seat0 = stats["seats"][0]["rate"]
    return {
        "name": spec["name"],
        "file": spec["file"],
        **{k: cfg[k] for k in ("variant", "players", "range", "attack", "agents")},
        "n_teams": cfg["teams"],  # as configured (None: the variant's default)
        "decks": cfg["decks"],
        "seed": cfg["seed"],
        "max_turns": cfg["max_turns"],
        "mulligans": cfg["mulligans"],
        **stats,
        "first_player_advantage": None if seat0 is None else seat0 - 1 / cfg["players"],
        "wall_s": round(wall, 3),
        "games_per_s": round(len(rows) / wall, 2) if wall > 0 else None,
        "turns_list": [int(r["turns"]) for r in rows],
    }


# --- output ---------------------------------------------------------------------------


def table_rows(configs: list[dict[str, Any]]) -> list[list[str]]:
    """Metric rows of the side-by-side table: label, then one cell per configuration."""
    from ecs.report import ci, num, pct

    def rate_ci(r: dict[str, Any]) -> str:
        return f"{pct(r['rate'])} ({ci(r)})"

    def row(label: str, fn) -> list[str]:
        return [label, *(fn(c) for c in configs)]

    out = [
        row("variant", lambda c: c["variant"]),
        row("players", lambda c: str(c["players"])),
        row("range", lambda c: "default" if c["range"] is None else str(c["range"])),
        row("attack", lambda c: c["attack"]),
        row("agents", lambda c: ",".join(c["agents"])),
        row("decks", lambda c: str(len(c["decks"]))),
        row("games", lambda c: str(c["games"])),
        row("mean turns", lambda c: num(c["turns"]["mean"])),
        row("median turns", lambda c: num(c["turns"]["median"])),
        row("p10–p90 turns", lambda c: f"{num(c['turns']['p10'])}–{num(c['turns']['p90'])}"),
        row("draws", lambda c: f"{c['draws']['count']} ({pct(c['draws']['rate'])})"),
        row("capped", lambda c: str(c["capped"]["count"])),
    ]
    if any(c["teams"] for c in configs):  # team games were played
        out.insert(4, row("teams", lambda c: str(len(c["teams"])) if c["teams"] else "–"))
    for s in range(max(c["players"] for c in configs)):
        out.append(
            row(
                f"seat {s} win rate",
                lambda c, s=s: rate_ci(c["seats"][s]) if s < len(c["seats"]) else "",
            )
        )
    if any(c["first_team"] for c in configs):
        out.append(
            row(
                "seat-0 team win rate",
                lambda c: rate_ci(c["first_team"]) if c["first_team"] else "",
            )
        )

    def fpa(c: dict[str, Any]) -> str:
        a = c["first_player_advantage"]
        return "–" if a is None else f"{100 * a:+.1f} pp"

    out.append(row("first-player advantage", fpa))
    out.append(row("games/s", lambda c: num(c["games_per_s"], 2)))
    return out


def print_table(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    configs = report["configs"]
    t = Table(
        title=f"melee compare (seed {report['seed']}; seat 0 took the first turn; 95% Wilson CI)"
    )
    t.add_column("")
    for c in configs:
        t.add_column(c["name"], justify="right")
    for r in table_rows(configs):
        t.add_row(*r)
    c = Console()
    c.print(t)
    c.print("first-player advantage = seat-0 win rate − 1/players")
    if report.get("outputs"):
        c.print(f"wrote {len(report['outputs'])} files to {Path(report['outputs'][0]).parent}")


def write_outputs(configs: list[dict[str, Any]], out_dir: str | Path) -> list[str]:
    from ecs.report import md_table, out_folder, plot_turns, plot_winrate_by_seat

    out = out_folder(out_dir)
    wr, tp, md = out / "winrate_by_seat.png", out / "turns.png", out / "compare.md"
    players = {c["players"] for c in configs}
    plain = (
        all(c["variant"] in ("two-player", "free-for-all") for c in configs) and len(players) == 1
    )
    plot_winrate_by_seat(
        [(c["name"], c["seats"]) for c in configs],
        wr,
        "win rate by seat",
        fair=1 / players.pop() if plain else None,
    )
    plot_turns([(c["name"], c["turns_list"]) for c in configs], tp, "turns per game", kind="box")
    lines = [
        "# Melee compare",
        "",
        f"Every configuration played from seed {configs[0]['seed']} (same per-game seeds). "
        "Seats count clockwise from the starting player (seat 0 took the first turn); "
        "intervals are 95% Wilson score intervals; first-player advantage is the seat-0 "
        "win rate minus 1/players.",
        "",
        md_table(["", *(c["name"] for c in configs)], table_rows(configs)),
        "",
        "Configurations: " + ", ".join(f"{c['name']} (`{c['file']}`)" for c in configs),
        "",
        f"![win rate by seat]({wr.name})",
        "",
        f"![turns]({tp.name})",
    ]
    md.write_text("\n".join(lines) + "\n")
    return [str(md), str(wr), str(tp)]
