"""Cold compile, warm start and speed of the compiled engine, per set of compile levers.

    PYTHONPATH=$PWD python bench/compile_time.py                 # every lever, and stock
    PYTHONPATH=$PWD python bench/compile_time.py all literals,link stock --repeat 5
    PYTHONPATH=$PWD python bench/compile_time.py --write-order   # systems/compile_order.txt

Each configuration is a value of ``MELEE_JIT`` (``systems/jit.py``: ``all`` = every
lever, ``stock`` = numba's own way, or a comma list of levers). For each one, in fresh
subprocesses and a fresh ``NUMBA_CACHE_DIR``:

* cold: the first call of the engine's entry point (compiling everything),
* warm: the same in a new process, loading from the cache,
* games/s: ``python -m ecs simulate --players 4 --games 1000 --workers 1 --seed 1
  --no-db --json``, the median of ``--repeat`` runs (interleaved across the
  configurations),
* fingerprint: a hash of the results of seeded games (two-player, free-for-all,
  Grand Melee); every configuration must give the same one,
* the cache's size on disk and the cold process's peak memory.

Prints a Markdown table. A cold compile of the stock configuration takes minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIMULATE = "-m ecs simulate --players 4 --games 1000 --workers 1 --seed 1 --no-db --json"
CONFIGS = (("two-player", 2, 200), ("free-for-all", 4, 200), ("grand-melee", 16, 10))


def fingerprint() -> str:
    """A hash of the results of seeded games in the compiled engine (in this process)."""
    from ecs.batch import BatchPlayer
    from ecs.decks import load_deck
    from ecs.simulate import game_seeds

    decks = ["burn", "big-green", "white-fliers", "dimir-control", "red-aggro", "selesnya-midrange"]
    h = hashlib.sha256()
    for variant, players, games in CONFIGS:
        cfg = {"variant": variant, "players": players, "decks": decks, "agents": ["random"],
               "deck_cards": {d: load_deck(d).main for d in decks}, "max_turns": 200}  # fmt: skip
        for row in BatchPlayer(cfg).play(0, game_seeds(7, games)):
            row.pop("duration_s")
            h.update(json.dumps(row, sort_keys=True).encode())
    return h.hexdigest()[:16]


def _child() -> None:
    t0 = time.perf_counter()
    import numpy as np

    from ecs.engine import call
    from systems.jit import startups

    call(-1, np.zeros(1, np.int32), np.zeros(1, np.int32), 0)  # an op that does nothing: loads it
    first = time.perf_counter() - t0
    runs = [s for s in startups() if s.entry == "call"]
    games = fingerprint()
    print(
        json.dumps(
            {
                "seconds": runs[0].seconds if runs else first,
                "functions": runs[0].functions if runs else 0,
                "fingerprint": games,
                "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


def _run(args: str, env: dict[str, str]) -> dict:
    out = subprocess.run(
        [sys.executable, *args.split()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _env(config: str, cache: str) -> dict[str, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    env["MELEE_JIT"] = config
    return env


def compile_twice(config: str, cache: str) -> dict:
    """A cold and a warm start of one configuration in a fresh cache directory."""
    child = f"{Path(__file__).resolve()} --child"
    cold = _run(child, _env(config, cache))
    warm = _run(child, _env(config, cache))
    return {
        "config": config,
        "cold_s": round(cold["seconds"], 1),
        "functions": cold["functions"],
        "warm_s": round(warm["seconds"], 2),
        "fingerprint": cold["fingerprint"],
        "same_warm": warm["fingerprint"] == cold["fingerprint"],
        "cache_mb": round(_size(Path(cache)) / 1e6, 1),
        "peak_mb": round(cold["peak_mb"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("configs", nargs="*", default=["all", "stock"])
    parser.add_argument("--repeat", type=int, default=5, help="simulate runs per configuration")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--write-order",
        action="store_true",
        help="compile the engine cold and write systems/compile_order.txt (the kernels in "
        "the order a compile lowers them: a cold compile's helper process goes from its end)",
    )
    args = parser.parse_args()
    if args.child:
        _child()
        return
    if args.write_order:
        import numpy as np

        from ecs.engine import call
        from systems.jit import ORDER_FILE, write_order

        n = write_order(lambda: call(-1, np.zeros(1, np.int32), np.zeros(1, np.int32), 0))
        print(f"{n} kernels written to {ORDER_FILE}")
        return
    with tempfile.TemporaryDirectory(prefix="melee-cold-") as tmp:
        caches = {c: str(Path(tmp) / str(k)) for k, c in enumerate(args.configs)}
        rows = [compile_twice(c, caches[c]) for c in args.configs]
        speeds: dict[str, list[float]] = {c: [] for c in args.configs}
        for _ in range(args.repeat):  # interleaved, so that other load hits all alike
            for c in args.configs:
                speeds[c].append(_run(SIMULATE, _env(c, caches[c]))["games_per_s"])
    print(
        "| MELEE_JIT | cold s | functions | warm s | games/s | cache MB | peak MB | fingerprint |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        same = "" if r["same_warm"] else " (warm differs!)"
        games = statistics.median(speeds[r["config"]])
        print(
            f"| {r['config']} | {r['cold_s']} | {r['functions']} | {r['warm_s']} | "
            f"{games:.0f} | {r['cache_mb']} | {r['peak_mb']} | {r['fingerprint']}{same} |"
        )
    prints = {r["fingerprint"] for r in rows}
    print("same games in every configuration" if len(prints) == 1 else "GAMES DIFFER")


if __name__ == "__main__":
    main()
