"""Whole games: random agents, stock decks, played to the end; clone cost.

    python -m pytest bench/bench_games.py --benchmark-only

games/s = (games per round) / (mean seconds per round).
"""

from __future__ import annotations

import numpy as np
import pytest

from ecs.agents import Observation, RandomAgent, play_game
from ecs.decks import load_deck, stock_decks
from ecs.game import Game, Options

DECKS = [load_deck(d).main for d in stock_decks()]
GAMES = 10


def play_batch(players: int, variant: str, start: int, games: int = GAMES, **opts) -> list[int]:
    turns = []
    for k in range(start, start + games):
        decks = [DECKS[(k + i) % len(DECKS)] for i in range(players)]
        g = Game.new(decks, variant=variant, seed=k, max_turns=200, options=Options(**opts))
        g.auto_pass = True
        play_game(g, [RandomAgent(k * 31 + p) for p in range(players)])
        turns.append(g.turn)
        g.close()
    return turns


@pytest.mark.benchmark(group="games")
@pytest.mark.parametrize(
    "players,variant,opts",
    [
        (2, "two-player", {}),
        (4, "free-for-all", {}),
        (8, "free-for-all", {"range_of_influence": 1}),
    ],
    ids=["two-player", "ffa-4", "ffa-8-range-1"],
)
def test_games(benchmark, per_second, players, variant, opts):
    play_batch(players, variant, 10_000, games=1, **opts)  # warm the numba caches
    counter = iter(range(0, 10**6, GAMES))
    turns = benchmark.pedantic(
        lambda: play_batch(players, variant, next(counter), **opts), rounds=3, iterations=1
    )
    benchmark.extra_info["games_per_round"] = GAMES
    benchmark.extra_info["games_per_s"] = per_second(GAMES)
    benchmark.extra_info["turns_mean"] = float(np.mean(turns))
    assert len(turns) == GAMES


@pytest.mark.benchmark(group="clone")
def test_clone_mid_game(benchmark):
    g = Game.new(DECKS[:4], seed=1, max_turns=200)
    g.auto_pass = True
    agent = RandomAgent(0)
    for _ in range(60):
        g.step(agent.act(Observation(g, g.pending.player), g.legal_actions()))
    c = benchmark(g.clone)
    assert c.turn == g.turn and c is not g


@pytest.mark.benchmark(group="games")
@pytest.mark.parametrize("players,variant", [(6, "emperor"), (4, "two-headed-giant")])
def test_team_variants(benchmark, per_second, players, variant):
    counter = iter(range(0, 10**6, GAMES))
    turns = benchmark.pedantic(
        lambda: play_batch(players, variant, next(counter)), rounds=2, iterations=1
    )
    benchmark.extra_info["games_per_s"] = per_second(GAMES)
    benchmark.extra_info["turns_mean"] = float(np.mean(turns))


@pytest.mark.benchmark(group="grand melee")
@pytest.mark.parametrize("players,games", [(16, 2), (100, 1)])
def test_grand_melee(benchmark, per_second, players, games):
    """807: 16 players (4 markers) and a 100-player game played to the end."""
    turns = benchmark.pedantic(
        lambda: play_batch(players, "grand-melee", 0, games=games), rounds=1, iterations=1
    )
    benchmark.extra_info["games_per_s"] = per_second(games)
    benchmark.extra_info["turns_mean"] = float(np.mean(turns))
