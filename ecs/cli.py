"""Command line: ``python -m ecs`` / ``melee``.

melee scenario PATH... [--json] [--dump]
melee simulate [--variant V] [--players N] [--games N] [--agents random|heuristic]
               [--seed S] [--workers W] [--range R] [--attack multiple|left|right]
               [--json] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="melee", description="Melee: multiplayer Magic rules engine")
    sub = ap.add_subparsers(dest="cmd")
    sc = sub.add_parser("scenario", help="run rules scenarios (YAML)")
    sc.add_argument("paths", nargs="+")
    sc.add_argument("--json", action="store_true", help="machine-readable summary")
    sc.add_argument("--dump", action="store_true", help="print the full state view at the end")
    sim = sub.add_parser("simulate", help="play a batch of games")
    from ecs.simulate import add_arguments

    add_arguments(sim)
    rep = sub.add_parser("report", help="win rates, game lengths and plots from a results file")
    from ecs import report

    report.add_arguments(rep)
    cmp_ = sub.add_parser("compare", help="run several configurations side by side")
    from ecs import compare

    compare.add_arguments(cmp_)
    rpl = sub.add_parser("replay", help="replay a recorded game to its final state")
    from ecs import replay

    replay.add_arguments(rpl)
    args = ap.parse_args(argv)
    if args.cmd == "report":
        return report.main(args)
    if args.cmd == "compare":
        return compare.main(args)
    if args.cmd == "replay":
        return replay.main(args)
    if args.cmd == "scenario":
        from ecs.scenario import main as scenario_main

        return scenario_main(args.paths, as_json=args.json, dump=args.dump)
    if args.cmd == "simulate" or args.cmd is None:
        from ecs.simulate import main as simulate_main

        if args.cmd is None:
            args = ap.parse_args(["simulate", *(argv or sys.argv[1:])])
        return simulate_main(args)
    ap.print_help()
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
