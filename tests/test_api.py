"""API suite (PettingZoo/OpenSpiel style): random legal play with invariants after every
action, refused actions leave the state untouched (730.1), determinism and cloning."""

from __future__ import annotations

import numpy as np
import pytest

from ecs.actions import Action, IllegalAction
from ecs.agents import HeuristicAgent, Observation, RandomAgent, play_game
from ecs.constants import BATTLEFIELD, GONE, LIBRARY, STACK
from ecs.decks import load_deck, stock_decks
from ecs.game import Game, Options
from ecs.legacy.scenario import _fingerprint

DECKS = {d: load_deck(d).main for d in stock_decks()}


def _decks(n: int, k: int = 0) -> list[list[str]]:
    names = sorted(DECKS)
    return [DECKS[names[(k + i) % len(names)]] for i in range(n)]


def check_invariants(g: Game) -> None:
    o, pl = g.obj, g.pl
    n = o.n
    zone = o.zone[:n]
    # every card is in exactly one zone, and ordered zones agree with the zone column
    for p in range(g.n_players):
        for i in g.library[p]:
            assert zone[i] == LIBRARY and o.owner[i] == p
        lib = set(g.library[p])
        assert len(lib) == len(g.library[p])
    in_libs = {i for lib in g.library for i in lib}
    assert {int(i) for i in np.flatnonzero(zone == LIBRARY)} == in_libs
    stacks = [g.stack] + [m.turn["stack"] for k, m in enumerate(g.markers) if k != g.cur]
    on_stacks = [i for st in stacks for i in st]
    assert len(on_stacks) == len(set(on_stacks)), "an object on two stacks"
    assert {int(i) for i in np.flatnonzero(zone == STACK)} == set(on_stacks)
    assert set(g.items) == set(on_stacks)
    if g.markers:  # 807.4a-b: markers and holders
        assert len(g.markers) <= max(1, int(pl.alive.sum()) // 4) + sum(
            m.removal for m in g.markers
        )
        holders = [m.holder for m in g.markers]
        assert len(holders) == len(set(holders)), "two markers with one player"
    # no negative counts
    assert (o.damage[:n] >= 0).all() and (o.counters[:n] >= 0).all()
    assert (pl.poison >= 0).all() and (pl.mana >= 0).all()
    # departed players own nothing left in the game
    for p in range(g.n_players):
        if not pl.alive[p]:
            assert not ((o.owner[:n] == p) & (zone != GONE)).any()
            assert not ((o.controller[:n] == p) & (zone == BATTLEFIELD)).any()
    # 810.4, 810.10: a shared life total and shared poison counters
    if g.shared_life:
        for p in g.alive_players():
            for q in g.teammates(p):
                assert pl.life[q] == pl.life[p] and pl.poison[q] == pl.poison[p]
    # the game is over exactly when at most one team remains
    teams = {int(pl.team[p]) for p in g.alive_players()}
    assert g.over == (len(teams) <= 1) or g.drawn
    if not g.over:
        assert g.pending is not None and pl.alive[g.pending.player]
        assert g.legal_actions(), "a pending decision always has a legal action"


@pytest.mark.parametrize(
    "players,variant",
    [
        (2, "two-player"),
        (4, "free-for-all"),
        (5, "free-for-all"),
        (4, "team-vs-team"),
        (6, "emperor"),
        (6, "alternating-teams"),
        (4, "two-headed-giant"),
        (8, "grand-melee"),
        (13, "grand-melee"),
    ],
)
@pytest.mark.parametrize("auto_pass", [False, True])
def test_random_play_invariants(players: int, variant: str, auto_pass: bool) -> None:
    for seed in range(2):
        g = Game.new(
            _decks(players, seed), variant=variant, seed=seed, max_turns=40, mulligans=True
        )
        g.auto_pass = auto_pass
        agents = [RandomAgent(seed * 10 + p) for p in range(players)]
        steps = 0
        while not g.over and steps < 3000:
            check_invariants(g)
            acts = g.legal_actions()
            d = g.pending
            a = agents[d.player].act(Observation(g, d.player), acts)
            # the mask matches what step accepts: a legal action is accepted on a clone
            g.clone().step(acts[-1])
            g.step(a)
            steps += 1
        check_invariants(g)
        g.close()


def test_refused_action_leaves_state_exactly_as_it_was() -> None:
    g = Game.new(_decks(4), seed=3, max_turns=40)
    rng = np.random.default_rng(0)
    refused = 0
    while not g.over and refused < 200:
        d = g.pending
        legal = set(g.legal_actions())
        hand = g.hand(d.player)
        bogus = [
            Action("cast", d.player, hand[0] if hand else 0, 0, (-1,)),
            Action("play_land", (d.player + 1) % g.n_players, 0),
            Action("attack", d.player, 0, -1),
            Action("block", d.player, 0, 1),
            Action("activate", d.player, int(rng.integers(g.obj.n)), 3),
            Action("pass", (d.player + 1) % g.n_players),
        ]
        for b in bogus:
            if b in legal:
                continue
            before = _fingerprint(g)
            with pytest.raises(IllegalAction):
                g.step(b)
            assert _fingerprint(g) == before
            refused += 1
        g.step(g.legal_actions()[int(rng.integers(len(g.legal_actions())))])
    assert refused > 50


def _play(seed: int, players: int = 4) -> tuple:
    g = Game.new(_decks(players, seed), seed=seed, max_turns=60)
    g.auto_pass = True
    play_game(g, [RandomAgent(seed + p) for p in range(players)])
    out = (g.turn, tuple(g.winners), tuple(g.drawn), tuple(g.history))
    g.close()
    return out


def test_same_seed_same_game() -> None:
    assert _play(11) == _play(11)
    assert _play(11) != _play(12)


def test_clone_is_independent_and_replays_identically() -> None:
    g = Game.new(_decks(4), seed=5, max_turns=60)
    g.auto_pass = True
    agent = RandomAgent(1)
    for _ in range(40):
        g.step(agent.act(Observation(g, g.pending.player), g.legal_actions()))
    c = g.clone()
    before = _fingerprint(g)
    # playing on the clone doesn't touch the original
    a2 = RandomAgent(9)
    while not c.over:
        c.step(a2.act(Observation(c, c.pending.player), c.legal_actions()))
    assert _fingerprint(g) == before
    # the same decisions from the same state give the same game
    c1, c2 = g.clone(), g.clone()
    r1, r2 = RandomAgent(3), RandomAgent(3)
    while not c1.over:
        c1.step(r1.act(Observation(c1, c1.pending.player), c1.legal_actions()))
        c2.step(r2.act(Observation(c2, c2.pending.player), c2.legal_actions()))
    assert _fingerprint(c1) == _fingerprint(c2)


def test_observation_hides_hidden_information() -> None:
    g = Game.new(_decks(4), seed=1)
    v = g.observe(0)
    for name, pv in v["players"].items():
        assert pv["library"] is None
        if name != g.names[0]:
            assert pv["hand"] is None and pv["hand_size"] == 7
    assert v["players"][g.names[0]]["hand"] is not None
    assert all(c["zone"] != "library" for c in v["cards"].values())


def test_heuristic_beats_random_two_player() -> None:
    wins = 0
    for seed in range(12):
        g = Game.new(_decks(2, seed), variant="two-player", seed=seed, max_turns=80)
        g.auto_pass = True
        play_game(g, [HeuristicAgent(seed), RandomAgent(seed)])
        wins += g.winners == [0]
        g.close()
    assert wins >= 8


def test_unsupported_variant_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown variant 'pentagram'"):
        Game(["a", "b", "c", "d"], variant="pentagram")
    with pytest.raises(ValueError, match="attack option"):
        Game(["a", "b"], options=Options(attack="sideways"))


@pytest.mark.parametrize(
    "variant,players", [("grand-melee", 9), ("two-headed-giant", 4), ("emperor", 6)]
)
def test_clone_mid_game_every_variant(variant: str, players: int) -> None:
    """Clones of a game in progress are independent and replay identically (807 markers,
    805 team state and 809 roles included)."""
    g = Game.new(_decks(players), variant=variant, seed=4, max_turns=60, auto_pass=True)
    agent = RandomAgent(1)
    for _ in range(120):
        if g.over:
            break
        g.step(agent.act(Observation(g, g.pending.player), g.legal_actions()))
    before = _fingerprint(g)
    c1, c2 = g.clone(), g.clone()
    r1, r2 = RandomAgent(5), RandomAgent(5)
    while not c1.over:
        c1.step(r1.act(Observation(c1, c1.pending.player), c1.legal_actions()))
        c2.step(r2.act(Observation(c2, c2.pending.player), c2.legal_actions()))
        check_invariants(c1)
    assert _fingerprint(c1) == _fingerprint(c2)
    assert _fingerprint(g) == before
