"""Agents for the step API: something that looks at a game from one player's seat and
picks one of the pending decision's options (an index into ``game.legal_actions()``).

    from ecs.agents import RandomAgent, PolicyAgent, play_game
    play_game(game, [RandomAgent(1), PolicyAgent("heuristic"), ...])

- :class:`RandomAgent`: uniform among the options, from its own seeded generator.
- :class:`PolicyAgent`: asks a compiled agent of the engine (``systems/policies.py``:
  ``random``, ``heuristic``) what it would take, so a Python loop and a compiled batch
  play the same agent (the same games, when both draw from the game's generator).
- :class:`MonteCarloAgent`: flat Monte Carlo over clones, with compiled random
  playouts: an example of search on top of ``clone``.

An agent only needs ``act(game, player) -> int``."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from components import game as G
from components import players as PL
from ecs.engine import Game


class Agent(Protocol):
    def act(self, game: Game, player: int) -> int: ...


class RandomAgent:
    """Uniformly random among the options, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game, player: int) -> int:
        return int(self.rng.integers(game.n_actions()))


class PolicyAgent:
    """A compiled agent of the engine (systems/policies.py), drawing from the game's
    own generator as it does in batches."""

    def __init__(self, policy: str = "heuristic", seed: int = 0):
        self.policy = policy
        from ecs.engine import policy_id

        policy_id(policy)  # refuse an unknown name now

    def act(self, game: Game, player: int) -> int:
        return game.policy_choice(self.policy)


class MonteCarloAgent:
    """Flat Monte Carlo: each option (at most ``max_actions`` of them) is tried on
    ``playouts`` clones played out by the compiled random agent for at most ``horizon``
    more turns, then scored (1 for a win, the life share otherwise); the best mean wins."""

    def __init__(self, seed: int = 0, playouts: int = 4, horizon: int = 8, max_actions: int = 8):
        self.rng = np.random.default_rng(seed)
        self.playouts, self.horizon, self.max_actions = playouts, horizon, max_actions

    def act(self, game: Game, player: int) -> int:
        n = game.n_actions()
        if n == 1:
            return 0
        cands = list(range(n))
        if n > self.max_actions:
            cands = [
                0,
                *sorted(self.rng.choice(np.arange(1, n), self.max_actions - 1, replace=False)),
            ]
        best, best_score = cands[0], -1.0
        for k in cands:
            score = 0.0
            for _ in range(self.playouts):
                sim = game.clone()
                v = sim.v
                v.s[G.S_AGENT_RNG] ^= np.int32(self.rng.integers(1, 2**31))  # its own playout
                sim.step(k)
                v = sim.v
                v.s[G.S_MAXTURNS] = v.s[G.S_TURN] + self.horizon
                if not sim.over:
                    sim.play_out("random")
                score += _score(sim, player)
            if score > best_score:
                best, best_score = k, score
        return int(best)


def _score(g: Game, me: int) -> float:
    v = g.v
    if v.pl[me, PL.P_WON]:
        return 1.0
    if v.pl[me, PL.P_LOST]:
        return 0.0
    life = np.maximum(0, v.pl[:, PL.P_LIFE]).astype(float)
    return 0.5 * float(life[me] / life.sum()) if life.sum() else 0.0


AGENTS = {
    "random": RandomAgent,
    "heuristic": lambda seed=0: PolicyAgent("heuristic", seed),
    "montecarlo": MonteCarloAgent,
}


def play_game(game: Game, agents: list[Agent]) -> Game:
    """Drive a game to its end with one agent per player (options with a single choice
    are taken without asking)."""
    while not game.over:
        n = game.n_actions()
        if n == 0:
            break
        p = game.current_player()
        game.step(0 if n == 1 else agents[p].act(game, p))
    return game
