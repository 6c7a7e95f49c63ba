"""The compiled engine (systems/compiled_game.py): whole games, random agents, stock
decks, played to the end on one core; dealing included.

    python -m pytest bench/bench_compiled.py --benchmark-only

games/s = games per round / mean seconds per round (extra_info["games_per_s"]).
The first call in a fresh environment compiles the kernel (about 30 s on this machine,
``bench/compile_time.py``); ``test_first_call`` reports the cost of loading it from the
cache.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from ecs.compiled import play_compiled, warm
from ecs.decks import load_deck, stock_decks

DECKS = [load_deck(d).main for d in stock_decks()]
GAMES = {2: 1000, 4: 500, 6: 200}


@pytest.mark.benchmark(group="compiled games")
@pytest.mark.parametrize("players", [2, 4, 6], ids=["two-player", "ffa-4", "ffa-6"])
def test_compiled_games(benchmark, per_second, players):
    warm()
    n = GAMES[players]
    counter = iter(range(0, 10**8, n))
    res = benchmark.pedantic(
        lambda: play_compiled(DECKS, players, n, seed=next(counter)), rounds=3, iterations=1
    )
    benchmark.extra_info["games_per_round"] = n
    benchmark.extra_info["games_per_s"] = per_second(n)
    benchmark.extra_info["turns_mean"] = float(np.mean(res["turns"]))
    benchmark.extra_info["draws"] = float(np.mean(res["winner"] < 0))
    benchmark.extra_info["setup_share"] = float(res["setup_s"] / (res["setup_s"] + res["play_s"]))
    assert (res["errors"] == 0).all() and (res["turns"] > 0).all()


@pytest.mark.benchmark(group="compiled games")
@pytest.mark.parametrize("players", [16, 100], ids=["grand-melee-16", "grand-melee-100"])
def test_compiled_grand_melee(benchmark, per_second, players):
    """807: Grand Melee (range 1, attack left, a turn marker per four players)."""
    warm()
    n = 100 if players == 16 else 2
    counter = iter(range(0, 10**8, n))
    res = benchmark.pedantic(
        lambda: play_compiled(DECKS, players, n, seed=next(counter), variant="grand-melee"),
        rounds=3,
        iterations=1,
    )
    benchmark.extra_info["games_per_round"] = n
    benchmark.extra_info["games_per_s"] = per_second(n)
    benchmark.extra_info["turns_mean"] = float(np.mean(res["turns"]))
    assert (res["errors"] == 0).all() and (res["turns"] > 0).all()


@pytest.mark.benchmark(group="compiled first call")
def test_first_call(benchmark):
    """Loading the kernel from numba's cache (the compile itself happens once)."""
    t = time.perf_counter()
    warm()
    benchmark.extra_info["this_process_first_call_s"] = time.perf_counter() - t
    benchmark.pedantic(warm, rounds=1, iterations=1)
