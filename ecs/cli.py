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
    args = ap.parse_args(argv)
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
