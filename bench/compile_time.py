"""Cold compile, warm start and speed of the compiled engine, per set of compile levers.

    PYTHONPATH=$PWD python bench/compile_time.py                 # every lever, and stock
    PYTHONPATH=$PWD python bench/compile_time.py all literals,link stock --repeat 5

Each configuration is a value of ``MELEE_JIT`` (``systems/jit.py``: ``all`` = every
lever, ``stock`` = numba's own way, or a comma list of levers). For each one, in fresh
subprocesses and a fresh ``NUMBA_CACHE_DIR``:

* cold: the first call of the engine's entry point (compiling everything),
* warm: the same in a new process, loading from the cache,
* games/s: ``python -m ecs simulate --players 4 --games 1000 --workers 1 --seed 1
  --engine compiled --no-db --json``, the median of ``--repeat`` runs (interleaved
  across the configurations),
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
SIMULATE = "-m ecs simulate --players 4 --games 1000 --workers 1 --seed 1 --engine compiled"
SIMULATE += " --no-db --json"


def fingerprint() -> str:
    """A hash of the results of seeded games in the compiled engine (in this process)."""
    import numpy as np

    from ecs.compiled import play_compiled
    from ecs.decks import load_deck, stock_decks

    decks = [load_deck(d).main for d in stock_decks()]
    h = hashlib.sha256()
    for players, games, variant in ((2, 200, None), (4, 200, None), (16, 10, "grand-melee")):
        res = play_compiled(decks, players, games, seed=7, variant=variant)
        for key in sorted(res):
            if isinstance(res[key], np.ndarray):
                h.update(key.encode() + np.ascontiguousarray(res[key]).tobytes())
    return h.hexdigest()[:16]


def _child() -> None:
    t0 = time.perf_counter()
    from ecs.compiled import warm
    from systems.jit import startups

    warm()
    first = time.perf_counter() - t0
    runs = [s for s in startups() if s.entry == "play_batch"]
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
    args = parser.parse_args()
    if args.child:
        _child()
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
