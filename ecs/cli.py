"""Command line: ``melee`` (also ``python -m ecs``).

melee                      this help
melee simulate [FLAGS]     play a batch of games (melee simulate --help)
melee report RESULTS       win rates with 95% intervals, game lengths, plots
melee query "SQL"          a read-only SQL query on the results store, as a table
melee compare CONFIG...    configurations side by side, same seeds
melee replay FILE          replay a recorded game to its final state
melee scenario PATH...     run rules scenarios (YAML)
melee cards NAME...        the rules text the engine plays for each card (--all: every card)
melee draft [FLAGS]        a Conspiracy or Commander draft: pools, decks; --play plays them

A refused flag or input file is one line on stderr naming it and what was
expected, and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``melee simulate: error: argument --seed: ...``) and
    every option's default in its help."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults shown, but not the uninformative ones (None, False)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False or action.default is argparse.SUPPRESS:
            return action.help
        return super()._get_help_string(action)


def build_parser() -> Parser:
    from ecs import compare, draft, query, replay, report
    from ecs.simulate import add_arguments

    ap = Parser(
        prog="melee",
        description="Melee: a rules engine for multiplayer Magic: The Gathering. "
        "Start with `melee simulate` (a 200-game batch), then `melee report "
        "melee-results.duckdb`.",
    )
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser)
    sim = sub.add_parser(
        "simulate", help="play a batch of games", description="Play a batch of games."
    )
    add_arguments(sim)
    rep = sub.add_parser(
        "report",
        help="win rates (95%% CI) by seat, deck, agent, team and role; game lengths; plots",
        description="Win rates by seat, deck, agent, role and team with 95% Wilson "
        "intervals, draws and game lengths, from a results store (.duckdb) or a JSON-lines "
        "file (.jsonl), and how the games ended; --out also writes summary.md and PNG "
        "plots.",
    )
    report.add_arguments(rep)
    qry = sub.add_parser(
        "query", help="a read-only SQL query on the results store, printed as a table",
        description="Run SQL on the results store (opened read-only) and print the rows "
        "as a table. Tables: batches, games, players (see ecs/results.py). Example: "
        "melee query \"select variant, count(*), avg(turns) from games group by variant\"",
    )  # fmt: skip
    query.add_arguments(qry)
    cmp_ = sub.add_parser(
        "compare", help="run several configurations side by side",
        description="Play each configuration (a YAML file: name, variant, players, range, "
        "attack, teams, agents, decks, games; examples/compare/) with the same seeds and "
        "print their win rates by seat and game lengths side by side; --out also writes "
        "compare.md and PNG plots.",
    )  # fmt: skip
    compare.add_arguments(cmp_)
    rpl = sub.add_parser("replay", help="replay a recorded game to its final state")
    replay.add_arguments(rpl)
    sc = sub.add_parser("scenario", help="run rules scenarios (YAML): PASS/FAIL per file")
    sc.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    sc.add_argument("--json", action="store_true", help="machine-readable summary")
    sc.add_argument("--dump", action="store_true", help="print the full state view at the end")
    cards = sub.add_parser(
        "cards", help="the rules text the engine plays for each card named",
        description="Print each card's rules text, rendered from its record (what the "
        "engine will do), and why the engine can't play it if it can't.",
    )  # fmt: skip
    cards.add_argument("names", nargs="*", metavar="NAME", help="card names (any case)")
    cards.add_argument("--all", action="store_true", help="every real card of the pool")
    dr = sub.add_parser(
        "draft", help="a Conspiracy draft (905) or a Commander Draft (903.13, --format "
        "commander): pools, notes, decks; --play plays them",
        description="Draft boosters of a set (905.1; two cards a pick in Commander Draft, "
        "903.13b), note what the draft-matters cards note (905.2), build decks (Commander "
        "Draft: a commander and 60 cards, 903.13e-f), write JSON (--out) and play the games "
        "(--play).",
    )  # fmt: skip
    draft.add_arguments(dr)
    return ap


def main(argv: list[str] | None = None) -> int:
    """The ``melee`` command: its exit status (130 after Ctrl-C, wherever it came)."""
    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def _dispatch(argv: list[str]) -> int:
    ap = build_parser()
    if not argv:
        ap.print_help()
        return 0
    if argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["simulate", *argv]  # `melee --games 10`: flags alone are simulate's
    args = ap.parse_args(argv)
    if args.cmd == "simulate":
        from ecs.simulate import main as simulate_main

        return simulate_main(args, argv)
    if args.cmd == "report":
        from ecs import report

        return report.main(args)
    if args.cmd == "query":
        from ecs import query

        return query.main(args)
    if args.cmd == "compare":
        from ecs import compare

        return compare.main(args)
    if args.cmd == "replay":
        from ecs import replay

        return replay.main(args)
    if args.cmd == "cards":
        from ecs.cards import cards_main

        if not args.names and not args.all:
            ap.parse_args(["cards", "--help"])
        return cards_main(args.names, args.all)
    if args.cmd == "draft":
        from ecs import draft

        return draft.main(args)
    from ecs.scenario import main as scenario_main

    return scenario_main(args.paths, as_json=args.json, dump=args.dump)


if __name__ == "__main__":
    raise SystemExit(main())
