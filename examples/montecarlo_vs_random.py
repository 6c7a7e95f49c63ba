"""Flat Monte Carlo vs. uniformly random, two-player, stock decks (an embedding example).

    python examples/montecarlo_vs_random.py --games 200 --workers 2

Each game alternates which agent sits first; the Monte Carlo agent plays
random playouts from clones of the game (``Game.clone``) for every option.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

from ecs.agents import MonteCarloAgent, RandomAgent, play_game
from ecs.decks import load_deck, stock_decks
from ecs.engine import Game, Options


def one(seed: int) -> tuple[int, bool, bool]:
    decks = [load_deck(d).main for d in stock_decks()]
    mc_first = seed % 2 == 0
    pair = [decks[seed % len(decks)], decks[(seed // len(decks) + seed + 1) % len(decks)]]
    g = Game.new(pair, variant="two-player", seed=seed, options=Options(max_turns=80))
    mc = MonteCarloAgent(seed, playouts=2, horizon=4, max_actions=6)
    rnd = RandomAgent(seed)
    play_game(g, [mc, rnd] if mc_first else [rnd, mc])
    me = 0 if mc_first else 1
    won, drawn = me in g.winners, not g.winners
    return seed, won, drawn


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    t0 = time.time()
    with mp.Pool(args.workers) as pool:
        res = pool.map(one, range(args.games))
    wins = sum(w for _, w, _ in res)
    draws = sum(d for _, _, d in res)
    print(
        f"Monte Carlo vs random: {wins}/{args.games} wins ({wins / args.games:.1%}), "
        f"{draws} draws, {time.time() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
