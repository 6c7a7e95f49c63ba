"""``melee report RESULTS [--out [DIR]] [--json]``: win rates, draws and game lengths.

RESULTS is a DuckDB results store (``melee simulate --db``) or a JSON-lines file
(``melee simulate --out x.jsonl``). Games are grouped by configuration: variant,
players, range, attack, agents (as a multiset: seat order rotates between
games), number of teams, the deck pool, and for a DuckDB store the batch. The
deck pool of a group is every deck its games used; games whose decks overlap
(directly or through other games) belong to the same pool, as the games of one
rotating batch do. A group's name reads as its configuration
(``free-for-all-4p-random-seed7``: the batch seed, not a hash).

For each group: games, win rate by seat (seat 0 took the first turn), by deck,
by agent (when there are several), by role (Emperor: emperor, general) and by
team, each with a 95% Wilson interval; draws, capped games, game length (mean,
median, p10/p90 of turns). A deck's, agent's or role's rate counts the seats it
played. Teams are named "team of seat S" by the lowest seat they hold, as
``melee simulate`` names them (``ecs.stats.team_labels``). The terminal gets rich
tables; ``--json`` prints one JSON object instead; ``--out DIR`` also writes
``summary.md`` and, per group, ``winrate_by_seat_<group>.png``,
``winrate_by_deck_<group>.png`` (and by agent, by role), ``turns_<group>.png``;
the win-rate axes are fitted to the intervals, not 0-100%.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ecs.stats import game_stats, team_game

DEFAULT_OUT = "melee-report"
REQUIRED_KEYS = ("variant", "players", "winners", "draw", "turns")


class ReportError(Exception):
    """Bad input; the message names the file."""


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("results", help="results store (.duckdb) or JSON-lines file (.jsonl)")
    add_output_arguments(ap, "summary.md", DEFAULT_OUT)


def add_output_arguments(ap: argparse.ArgumentParser, document: str, default_dir: str) -> None:
    """``--out [DIR]`` (a Markdown document and PNG plots) and ``--json``."""
    ap.add_argument(
        "--out",
        nargs="?",
        const=default_dir,
        default=None,
        metavar="DIR",
        help=f"write {document} and PNG plots to DIR (without DIR: ./{default_dir})",
    )
    ap.add_argument("--json", action="store_true", help="print one JSON object as the summary")


def main(args: argparse.Namespace) -> int:
    try:
        rows = load_results(args.results)
    except ReportError as e:
        print(f"melee report: error: {e}", file=sys.stderr)
        return 2
    grouped = group_games(rows)
    groups = summarise_groups(grouped)
    report: dict[str, Any] = {"file": str(args.results), "games": len(rows), "groups": groups}
    if args.out is not None:
        try:
            report["outputs"] = write_report(groups, grouped, args.out, args.results)
        except OSError as e:
            print(
                f"melee report: error: {args.out}: cannot write the report ({e})", file=sys.stderr
            )
            return 2
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0


# --- loading and grouping -------------------------------------------------------------


def load_results(path: str | Path) -> list[dict[str, Any]]:
    """Game rows from ``path``; :class:`ReportError` naming the file if it isn't one."""
    import duckdb

    from ecs.results import StoreError, load_rows

    p = Path(path)
    if not p.exists():
        raise ReportError(f"{path}: no such results file")
    if p.is_dir():
        raise ReportError(f"{path}: is a directory, not a results file")
    try:
        rows = load_rows(p)
    except StoreError as e:
        raise ReportError(str(e)) from None
    except (ValueError, duckdb.Error, OSError) as e:  # ValueError covers bad JSON, bad UTF-8
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ReportError(f"{path}: not a results file ({msg})") from None
    if not rows:
        raise ReportError(f"{path}: no games in the results file")
    for k, r in enumerate(rows, 1):
        if not isinstance(r, dict):
            raise ReportError(f"{path}: not a results file (row {k} is not a game record)")
        missing = [key for key in REQUIRED_KEYS if key not in r]
        if missing:
            raise ReportError(
                f"{path}: not a results file (row {k} has no {', '.join(map(repr, missing))})"
            )
    return rows


def config_key(row: dict[str, Any]) -> tuple:
    """What a game's configuration is, but for the deck pool."""
    n_teams = len(set(row["teams"])) if team_game(row) else None
    agents = tuple(sorted(Counter(row.get("agents") or []).items()))
    return (
        row.get("batch_id"),
        row["variant"],
        int(row["players"]),
        row.get("range"),
        row.get("attack") or "multiple",
        agents,
        n_teams,
    )


def _deck_pools(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Split rows into deck pools: games sharing a deck (transitively) share a pool."""
    parent: dict[str, str] = {}

    def find(d: str) -> str:
        while parent.setdefault(d, d) != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    for r in rows:
        decks = list(r.get("decks") or [])
        for d in decks[1:]:
            parent[find(d)] = find(decks[0])
    pools: dict[str | None, list[dict[str, Any]]] = {}
    for r in rows:
        decks = r.get("decks") or []
        pools.setdefault(find(decks[0]) if decks else None, []).append(r)
    return list(pools.values())


def group_games(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Rows grouped by configuration, groups in order of first appearance."""
    buckets: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        buckets.setdefault(config_key(r), []).append(r)
    return [pool for rs in buckets.values() for pool in _deck_pools(rs)]


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "group"


def describe_group(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The configuration fields of one group (its first row stands for all)."""
    r = rows[0]
    batch, variant, players, range_, attack, agents, n_teams = config_key(r)
    decks = sorted({d for g in rows for d in (g.get("decks") or [])})
    return {
        "batch_id": batch,
        "batch_seed": r.get("batch_seed"),
        "variant": variant,
        "players": players,
        "range": range_,
        "attack": attack,
        "n_teams": n_teams,
        "agents": dict(agents),
        "decks": decks,
    }


def group_name(info: dict[str, Any]) -> str:
    parts = [info["variant"], f"{info['players']}p"]
    if info["range"] is not None:
        parts.append(f"range{info['range']}")
    if info["attack"] != "multiple":
        parts.append(f"attack-{info['attack']}")
    if info["n_teams"]:
        parts.append(f"{info['n_teams']}teams")
    parts += [f"{a}{c}" if len(info["agents"]) > 1 else a for a, c in info["agents"].items()]
    if info.get("batch_seed") is not None:  # batches told apart by their seed, not a hash
        parts.append(f"seed{info['batch_seed']}")
    return slug("-".join(parts))


def summarise_groups(grouped: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One summary per group of :func:`group_games`: its configuration fields, a unique
    ``name`` (used in file names) and :func:`ecs.stats.game_stats`."""
    out = []
    seen: Counter[str] = Counter()
    for rs in grouped:
        info = describe_group(rs)
        name = group_name(info)
        seen[name] += 1
        if seen[name] > 1:
            name = f"{name}-{seen[name]}"
        out.append({"name": name, **info, **game_stats(rs, info["players"])})
    return out


# --- formatting -----------------------------------------------------------------------


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def ci(r: dict[str, Any]) -> str:
    return f"{100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f}%"


def num(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "–"
    return str(int(x)) if float(x).is_integer() else f"{x:.{digits}f}"


def describe(g: dict[str, Any]) -> str:
    agents = ", ".join(f"{c}×{a}" if len(g["agents"]) > 1 else a for a, c in g["agents"].items())
    rng = "default" if g["range"] is None else str(g["range"])
    text = (
        f"{g['variant']}, {g['players']} players, range {rng}, attack {g['attack']}, "
        f"agents {agents or '?'}"
    )
    if g["n_teams"]:
        text += f", {g['n_teams']} teams"
    return text


def seat_rows(g: dict[str, Any]) -> list[list[str]]:
    """Rows (label, count, rate, CI) for seats, draws and capped games."""
    out = [[f"seat {s['seat']}", str(s["count"]), pct(s["rate"]), ci(s)] for s in g["seats"]]
    out.append(["draws", str(g["draws"]["count"]), pct(g["draws"]["rate"]), ci(g["draws"])])
    out.append(["capped", str(g["capped"]["count"]), pct(g["capped"]["rate"]), ci(g["capped"])])
    return out


def team_rows(g: dict[str, Any]) -> list[list[str]]:
    if not g["teams"]:
        return []
    return [[t["team"], str(t["count"]), pct(t["rate"]), ci(t)] for t in g["teams"]]


def value_rows(values: list[dict[str, Any]]) -> list[list[str]]:
    """Rows (name, wins, seats played, rate, CI) of a by-deck/agent/role breakdown."""
    return [[v["name"], str(v["count"]), str(v["total"]), pct(v["rate"]), ci(v)] for v in values]


def breakdowns(g: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The by-value tables worth showing: decks, agents (if more than one), roles."""
    out = [("deck", g["by_deck"])] if g["by_deck"] else []
    if len(g["by_agent"]) > 1:
        out.append(("agent", g["by_agent"]))
    if g["by_role"]:
        out.append(("role", g["by_role"]))
    return out


def ends_line(g: dict[str, Any]) -> str:
    """How the games ended for the seats that didn't win ("" without that record)."""
    if not g.get("ends"):
        return ""
    parts = [f"{e['how']} {pct(e['rate'])} ({e['count']})" for e in g["ends"]]
    return "how games end (seats that didn't win): " + ", ".join(parts)


def turns_line(g: dict[str, Any]) -> str:
    t = g["turns"]
    return (
        f"turns: mean {num(t['mean'])}, median {num(t['median'])}, "
        f"p10 {num(t['p10'])}, p90 {num(t['p90'])} (min {num(t['min'])}, max {num(t['max'])})"
    )


def md_table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or "l" + "r" * (len(header) - 1)
    sep = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def print_report(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    c = Console()
    n = len(report["groups"])
    c.print(
        f"[bold]{report['file']}[/]: {report['games']} games in {n} configuration"
        f"{'s' if n != 1 else ''} (seat 0 took the first turn)"
    )
    for g in report["groups"]:
        c.print()
        c.print(f"[bold]{g['name']}[/]: {g['games']} games; {describe(g)}")
        t = Table()
        for col, just in (("", "left"), ("wins", "right"), ("rate", "right"), ("95% CI", "right")):
            t.add_column(col, justify=just)
        for r in seat_rows(g):
            t.add_row(*r)
        if g["teams"]:
            t.add_section()
            for r in team_rows(g):
                t.add_row(*r)
        c.print(t)
        for what, values in breakdowns(g):
            t = Table(title=f"win rate by {what} (out of the seats it played)")
            for col in (what, "wins", "seats", "rate", "95% CI"):
                t.add_column(col, justify="left" if col == what else "right")
            for r in value_rows(values):
                t.add_row(*r)
            c.print(t)
        c.print(turns_line(g))
        if ends_line(g):
            c.print(ends_line(g))
    if report.get("outputs"):
        c.print(f"wrote {len(report['outputs'])} files to {Path(report['outputs'][0]).parent}")


# --- files ----------------------------------------------------------------------------


def _figure(width: float = 7.0, height: float = 4.0):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)  # the Agg backend, without touching pyplot's global state
    return fig


def fitted_limits(
    rates: list[dict[str, Any]], fair: float | None = None, pad: float = 0.1
) -> tuple[float, float]:
    """Win-rate axis limits that hold every interval (and the equal-share line) with a
    margin, within 0..1: differences of a few points stay visible."""
    lows = [r["ci_low"] for r in rates] + ([fair] if fair is not None else [])
    highs = [r["ci_high"] for r in rates] + ([fair] if fair is not None else [])
    lo, hi = min(lows), max(highs)
    margin = max(0.02, pad * (hi - lo))
    return max(0.0, lo - margin), min(1.0, hi + margin)


def plot_rates(
    series: list[tuple[str, list[dict[str, Any]]]],
    categories: list[str],
    path: str | Path,
    title: str,
    xlabel: str,
    fair: float | None = None,
) -> None:
    """Win rates (points) with 95% CI whiskers per category, several series side by side;
    the rate axis is fitted to the intervals (:func:`fitted_limits`), not 0..1.
    ``fair``: the equal-share win rate as a dashed line."""
    fig = _figure(max(6.0, 1.2 + 0.35 * sum(len(s) for _, s in series)))
    ax = fig.add_subplot()
    k = len(series)
    width = 0.6 / k
    for i, (label, rates) in enumerate(series):
        xs = [j + (i - (k - 1) / 2) * width for j in range(len(rates))]
        ys = [r["rate"] if r["rate"] is not None else float("nan") for r in rates]
        err = [
            [max(0.0, y - r["ci_low"]) if y == y else 0.0 for y, r in zip(ys, rates)],
            [max(0.0, r["ci_high"] - y) if y == y else 0.0 for y, r in zip(ys, rates)],
        ]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=4, label=label if k > 1 else None)
    if fair is not None:
        ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label="equal share")
    ax.set_xticks(range(len(categories)))
    ax.set_xticklabels(categories, rotation=20 if max(map(len, categories)) > 6 else 0)
    ax.set_xlim(-0.6, len(categories) - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(*fitted_limits([r for _, rs in series for r in rs], fair))
    ax.yaxis.set_major_formatter(_percent)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title)
    if k > 1 or fair is not None:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, format="png")


def _percent(x: float, _pos: int) -> str:
    return f"{100 * x:.0f}%"


def plot_winrate_by_seat(
    series: list[tuple[str, list[dict[str, Any]]]],
    path: str | Path,
    title: str,
    fair: float | None = None,
) -> None:
    """Win rate by seat with 95% CIs (:func:`plot_rates`); several series side by side."""
    seats = max(len(s) for _, s in series)
    plot_rates(
        series, [str(s) for s in range(seats)], path, title, "seat (0 = took the first turn)", fair
    )


def plot_turns(
    series: list[tuple[str, list[int]]], path: str | Path, title: str, kind: str = "hist"
) -> None:
    """Game-length distribution: a histogram (overlaid for several series) or boxplots."""
    fig = _figure()
    ax = fig.add_subplot()
    if kind == "box":
        ax.boxplot([v for _, v in series], showmeans=True)
        ax.set_xticks(range(1, len(series) + 1))
        ax.set_xticklabels([label for label, _ in series], rotation=15, fontsize="small")
        ax.set_ylabel("turns")
    else:
        allv = [x for _, v in series for x in v]
        lo, hi = min(allv), max(allv)
        bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 30 + 1)))
        for label, v in series:
            kw = (
                {"histtype": "step", "linewidth": 1.5}
                if len(series) > 1
                else {"edgecolor": "white", "linewidth": 0.5}
            )
            ax.hist(v, bins=bins, label=label, **kw)
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("turns")
        ax.set_ylabel("games")
        if len(series) > 1:
            ax.legend(fontsize="small")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, format="png")


def out_folder(path: str | Path) -> Path:
    """The folder ``--out`` names, made if missing: only the last folder (a typo makes no
    tree); OSError if its parent does not exist."""
    out = Path(path)
    if not out.parent.is_dir():
        raise OSError(f"the folder {str(out.parent)!r} does not exist")
    out.mkdir(exist_ok=True)
    return out


def write_report(
    groups: list[dict[str, Any]],
    grouped_rows: list[list[dict[str, Any]]],
    out_dir: str | Path,
    source: str | Path,
) -> list[str]:
    """Write summary.md and the plots; returns the paths written."""
    out = out_folder(out_dir)
    written: list[str] = []
    total = sum(g["games"] for g in groups)
    md = [
        f"# Melee report: `{source}`",
        "",
        f"{total} games in {len(groups)} configuration{'s' if len(groups) != 1 else ''}. "
        "Seats count clockwise from the starting player (seat 0 took the first turn); "
        "intervals are 95% Wilson score intervals.",
    ]
    for g, rows in zip(groups, grouped_rows):
        wr = out / f"winrate_by_seat_{g['name']}.png"
        tp = out / f"turns_{g['name']}.png"
        fair = 1 / (g["n_teams"] or g["players"])
        plot_winrate_by_seat(
            [(g["name"], g["seats"])], wr, f"{g['name']}: win rate by seat", fair=fair
        )
        plot_turns([(g["name"], [int(r["turns"]) for r in rows])], tp, f"{g['name']}: turns")
        written += [str(wr), str(tp)]
        pictures = [f"![win rate by seat]({wr.name})"]
        for what, values in breakdowns(g):
            if len(values) > 1:
                pv = out / f"winrate_by_{what}_{g['name']}.png"
                plot_rates(
                    [(g["name"], values)], [v["name"] for v in values], pv,
                    f"{g['name']}: win rate by {what}", what, fair=fair,
                )  # fmt: skip
                written.append(str(pv))
                pictures.append(f"![win rate by {what}]({pv.name})")
        t = g["turns"]
        md += [
            "",
            f"## {g['name']}",
            "",
            f"- configuration: {describe(g)}",
            f"- decks: {', '.join(g['decks']) or '?'}",
        ]
        if g["batch_id"]:
            md.append(f"- batch: seed {g['batch_seed']} (id `{g['batch_id']}`)")
        md += [
            f"- games: {g['games']}",
            "",
            md_table(["", "wins", "rate", "95% CI"], seat_rows(g)),
        ]
        if g["teams"]:
            md += ["", md_table(["team", "wins", "rate", "95% CI"], team_rows(g))]
        for what, values in breakdowns(g):
            md += [
                "",
                f"Win rate by {what} (out of the seats it played):",
                "",
                md_table([what, "wins", "seats", "rate", "95% CI"], value_rows(values)),
            ]
        md += [
            "",
            md_table(
                ["turns", "mean", "median", "p10", "p90", "min", "max"],
                [
                    [str(t["n"])]
                    + [num(t[k]) for k in ("mean", "median", "p10", "p90", "min", "max")]
                ],
            ),
            "",
            *([ends_line(g) + ".", ""] if ends_line(g) else []),
            *pictures,
            f"![turns]({tp.name})",
        ]
    summary = out / "summary.md"
    summary.write_text("\n".join(md) + "\n")
    return [str(summary), *written]
