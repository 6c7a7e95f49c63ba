"""Subgames (726) on the compiled engine: Shahrazad decks played to the end through the
step API (with clones, replays and pickles taken inside a subgame) and in batches (the
compiled play loop makes the subgames' arenas itself), the cards all accounted for."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from components import game as G
from components import objects as O
from components import players as PL
from components.rules import GONE
from components.state import GAME_LAYOUT
from ecs.cards import load_pool
from ecs.engine import Game, Options, _ops, call, seed_rng, template

ROOT = Path(__file__).resolve().parents[1]
DECK = ["Plains"] * 10 + ["Shahrazad"] * 5 + ["Youthful Knight"] * 5
OPTS = Options(max_turns=40)


def _choose(g: Game, rng: random.Random) -> int:
    """A random player that casts what it can most of the time (Shahrazad often)."""
    acts = g.legal_actions()
    casts = [k for k, a in enumerate(acts) if a.kind == "cast"]
    if casts and rng.random() < 0.8:
        return rng.choice(casts)
    return rng.randrange(len(acts))


def _cards(g: Game) -> int:
    """The main game's cards in a zone (not tokens, not abilities; the ones in a
    subgame being played are counted there instead)."""
    total = 0
    for d in range(g.depth + 1):
        v = g.level(d).v
        o = v.o[: int(v.s[G.S_N])]
        real = (o[:, O.F_CARD] >= 0) & (o[:, O.F_TOKEN] == 0) & (o[:, O.F_IKIND] == 0)
        here = (o[:, O.F_ZONE] != GONE) | (o[:, O.F_MERGED_IN] >= 0)
        if d > 0:
            here &= o[:, O.F_OUTSIDE] == 0  # (cards of the game above are counted there)
        total += int((real & here).sum())
    return total


def test_step_api_plays_subgames_and_keeps_every_card() -> None:
    seen_depth = 0
    for seed in range(3):
        g = Game.new([DECK, DECK], variant="two-player", seed=seed, options=OPTS)
        rng = random.Random(seed)
        total = _cards(g)
        assert total == 2 * len(DECK)
        while not g.over:
            g.step(_choose(g, rng))
            seen_depth = max(seen_depth, g.depth)
            if g.depth:  # the view nests, actions go to the innermost game
                view = g.view()
                sub = view["game"]["subgame"]
                assert view["game"]["depth"] == 0 and sub["game"]["depth"] == 1
            if g.depth == 0 and not g.over:
                assert _cards(g) == total  # 726.5: every card back in the main game
        assert g.winners or g.drawn
    assert seen_depth >= 2  # subgames inside subgames were played (726.6)


def _into_a_subgame(seed: int) -> tuple[Game, random.Random, list[int]]:
    g = Game.new([DECK, DECK], variant="two-player", seed=seed, options=OPTS)
    rng = random.Random(seed)
    taken = []
    while g.depth == 0 and not g.over:
        k = _choose(g, rng)
        taken.append(k)
        g.step(k)
    assert g.depth == 1
    return g, rng, taken


def test_clone_and_pickle_inside_a_subgame_play_alike() -> None:
    g, rng, _ = _into_a_subgame(1)
    c = g.clone()
    p = pickle.loads(pickle.dumps(g))
    assert c.depth == p.depth == 1 and c.fingerprint() == g.fingerprint() == p.fingerprint()
    r2 = random.Random(99)
    for _ in range(200):
        if g.over:
            break
        k = r2.randrange(g.n_actions())
        g.step(k)
        c.step(k)
        p.step(k)
        assert g.fingerprint() == c.fingerprint() == p.fingerprint()
        assert g.depth == c.depth == p.depth
    # the clone is its own game: stepping it leaves the original alone
    before = g.fingerprint()
    if not c.over:
        c.step(0)
    assert g.fingerprint() == before


def test_replay_through_subgames_is_identical() -> None:
    g = Game.new([DECK, DECK], variant="two-player", seed=7, options=OPTS)
    rng = random.Random(7)
    taken = []
    while not g.over:
        k = _choose(g, rng)
        taken.append(k)
        g.step(k)
    again = Game.new([DECK, DECK], variant="two-player", seed=7, options=OPTS)
    for k in taken:
        again.step(k)
    assert again.over and again.fingerprint() == g.fingerprint()
    assert again.winners == g.winners


def test_starting_player_can_be_named_and_a_snapshot_restores_the_chain() -> None:
    g, _, _ = _into_a_subgame(3)
    sub = g.level(1).v
    assert int(sub.s[G.S_DEPTH]) == 1
    snap = g.snapshot()
    before = g.fingerprint()
    g.concede(1 - int(g.v.s[G.S_PPLAYER]))  # someone concedes the subgame: it ends
    assert g.depth == 0
    g.restore(snap)
    assert g.depth == 1 and g.fingerprint() == before


def _batch(n: int, decks: list[list[str]]) -> tuple[np.ndarray, object]:
    db = load_pool()
    compiled = db.compile(sorted({c for d in decks for c in d}))
    rows = []
    for seed in range(n):
        a = template(compiled, decks, "two-player", OPTS)
        seed_rng(a, seed)
        rows.append(a)
    A = np.stack(rows)
    call(_ops().DEAL, A, compiled.arena)
    return A, compiled


def test_batches_play_shahrazad_decks_to_the_end() -> None:
    """The compiled play loop (systems/subgames.play_nested) plays the subgames."""
    A, compiled = _batch(3, [DECK, DECK])
    made = call(_ops().PLAY, A, compiled.arena, 0)
    assert made > 0
    for g in range(A.shape[0]):
        v = GAME_LAYOUT.views(A[g])
        assert v.s[G.S_OVER] == 1 and v.s[G.S_ERROR] == 0
        assert v.s[G.S_SUBGAME] == G.SUB_NONE and v.s[G.S_DEPTH] == 0
        o = v.o[: int(v.s[G.S_N])]
        real = (o[:, O.F_CARD] >= 0) & (o[:, O.F_TOKEN] == 0) & (o[:, O.F_IKIND] == 0)
        for p in range(2):  # the winner's cards are all in the game (the loser's left it)
            mine = real & (o[:, O.F_OWNER] == p) & (o[:, O.F_ZONE] != GONE)
            if v.pl[p, PL.P_ALIVE]:
                assert int(mine.sum()) == len(DECK)


TWIN_BATCH = """
import json, sys
sys.path.insert(0, {root!r})
from tests.test_subgames import DECK, _batch
from ecs.engine import _ops, call
from components.state import GAME_LAYOUT
A, compiled = _batch(3, [DECK, DECK])
made = call(_ops().PLAY, A, compiled.arena, 0)
print(json.dumps([made] + [GAME_LAYOUT.fingerprint(A[g]) for g in range(A.shape[0])]))
"""


@pytest.mark.slow
def test_twin_and_jit_play_the_same_subgames() -> None:
    """Batches of Shahrazad decks (subgames inside subgames) as the Python twin and
    compiled: the same decisions and the same final states (-m slow: it compiles)."""
    runs = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", TWIN_BATCH.format(root=str(ROOT))],
            env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1]
