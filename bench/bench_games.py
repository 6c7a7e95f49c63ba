"""Whole batches as users run them (issue 12, item 5): ``melee simulate``'s default
path (the results store on, one worker, the stock decks, random agents unless
named), games/s per variant, with the speed targets as assertions.

    python -m pytest bench/bench_games.py --benchmark-only

Targets (one core): 4-player free-for-all >= 1,000 games/s; two-player >= 2,000;
every team variant with 4+ players >= 300; the heuristic agents at least half the
random agents' speed. games/s = games per round / mean seconds per round
(``extra_info["games_per_s"]``); the engine is loaded before the clock starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs.decks import load_deck
from ecs.results import ResultStore
from ecs.simulate import run_batch

DECKS = ["burn", "big-green", "white-fliers", "dimir-control", "red-aggro", "selesnya-midrange"]
CARDS = {d: load_deck(d).main for d in DECKS}
GAMES = 2000

CASES = {  # name: (variant, players, agents, target games/s)
    "two-player": ("two-player", 2, ["random"], 2000),
    "ffa-4": ("free-for-all", 4, ["random"], 1000),
    "ffa-4-heuristic": ("free-for-all", 4, ["heuristic"], 500),
    "team-vs-team-4": ("team-vs-team", 4, ["random"], 300),
    "two-headed-giant-4": ("two-headed-giant", 4, ["random"], 300),
    "emperor-6": ("emperor", 6, ["random"], 300),
    "alternating-teams-6": ("alternating-teams", 6, ["random"], 300),
    "grand-melee-8": ("grand-melee", 8, ["random"], 100),
}


def cfg(variant: str, players: int, agents: list[str], games: int, seed: int) -> dict:
    return {
        "variant": variant, "players": players, "games": games, "agents": agents,
        "decks": DECKS, "deck_cards": CARDS, "seed": seed, "workers": 1, "range": None,
        "attack": None, "max_turns": 200, "mulligans": False, "teams": None,
    }  # fmt: skip


@pytest.mark.benchmark(group="batches (default path: results store on, 1 worker)")
@pytest.mark.parametrize("name", list(CASES))
def test_batch_default_path(benchmark, per_second, tmp_path: Path, name: str) -> None:
    variant, players, agents, target = CASES[name]
    run_batch(cfg(variant, players, agents, 2, 0), progress=False)  # load the engine
    seeds = iter(range(1, 1000))

    def one() -> int:
        store = ResultStore(tmp_path / f"{name}-{next(seeds)}.duckdb")
        try:
            rows, _ = run_batch(cfg(variant, players, agents, GAMES, 1), progress=False,
                                store=store, keep_rows=False)  # fmt: skip
        finally:
            store.close()
        return len(rows)

    benchmark.pedantic(one, rounds=3, iterations=1)
    rate = per_second(GAMES)
    benchmark.extra_info["games_per_s"] = rate
    benchmark.extra_info["target"] = target
    if rate is not None:
        assert rate >= target, f"{name}: {rate:.0f} games/s, target {target}"
