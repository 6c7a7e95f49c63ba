"""Commander pods (903): random agents play 4-player Commander games to the end on the
compiled engine (a batch: one template per pod, copied per game, each with its seed).

    python -m pytest bench/bench_commander.py --benchmark-only

games/s = (games per round) / (mean seconds per round). The decks: the stock Commander
decks (``ecs/data/decks/commander-*.txt``, an Arena/MTGO export with a ``Commander``
section), four in turn per pod.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from components import game as G
from components.state import GAME_LAYOUT
from ecs.cards import load_pool
from ecs.engine import Options, call, pod_template, seed_rng

DECKS = sorted(
    (Path(__file__).resolve().parents[1] / "ecs" / "data" / "decks" / "stock").glob("commander-*")
)
GAMES = 200


class Decklist:
    def __init__(self, main: list[str], commander: list[str]):
        self.main, self.commander = main, commander


def read(path: Path) -> Decklist:
    """A decklist with a Commander section (the lines ``N NAME`` under ``Commander`` /
    ``Deck``)."""
    section, main, cmd = "deck", [], []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        if line.lower() in ("commander", "deck"):
            section = line.lower()
            continue
        n, name = line.split(" ", 1)
        (cmd if section == "commander" else main).extend([name] * int(n))
    return Decklist(main, cmd)


def play_pods(casual: str, variant: str, players: int, start: int, games: int) -> list[int]:
    from systems import entry

    decks = [read(DECKS[(start + p) % len(DECKS)]) for p in range(players)]
    comp, a = pod_template(decks, variant, Options(max_turns=400, casual=(casual,)), load_pool())
    A = np.tile(a, (games, 1))
    for g in range(games):
        seed_rng(A[g], start + g)
    call(entry.DEAL, A, comp.arena)
    call(entry.PLAY, A, comp.arena, 0)
    return [int(GAME_LAYOUT.views(A[g]).s[G.S_TURN]) for g in range(games)]


@pytest.mark.skipif(len(DECKS) < 4, reason="the stock Commander decks aren't in the pool yet")
@pytest.mark.benchmark(group="commander")
@pytest.mark.parametrize(
    ("casual", "variant", "players"),
    [("commander", "free-for-all", 4), ("commander", "two-player", 2)],
    ids=["commander-4", "commander-2"],
)
def test_commander_pods(benchmark, per_second, casual, variant, players):
    play_pods(casual, variant, players, 0, 2)  # load (or compile) the engine
    counter = iter(range(0, 10**6, GAMES))
    turns = benchmark.pedantic(
        lambda: play_pods(casual, variant, players, next(counter), GAMES), rounds=3, iterations=1
    )
    benchmark.extra_info["games_per_round"] = GAMES
    benchmark.extra_info["games_per_s"] = per_second(GAMES)
    benchmark.extra_info["turns_mean"] = float(np.mean(turns))
    assert len(turns) == GAMES
