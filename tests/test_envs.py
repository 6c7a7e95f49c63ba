"""The environments: the PettingZoo AEC env (ecs/envs/melee_v0.py: API, seeding, masks,
rewards, hidden information) and the vectorised env (ecs/envs/vector.py)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from components import observation as OB
from components import players as PL
from components.decisions import ACTION_NAMES
from components.rules import HAND, LIBRARY
from ecs.envs import melee_v0
from ecs.envs.observation import ObsLayout
from ecs.envs.vector import VectorEnv

CONFIGS = {
    "two-player": dict(variant="two-player", players=2),
    "free-for-all": dict(variant="free-for-all", players=4),
    "ffa-range1-left": dict(variant="free-for-all", players=6, range_of_influence=1, attack="left"),
    "team-vs-team": dict(variant="team-vs-team", players=4),
    "emperor": dict(variant="emperor", players=6),
    "alternating-teams": dict(variant="alternating-teams", players=6),
    "two-headed-giant": dict(variant="two-headed-giant", players=4),
    "grand-melee": dict(variant="grand-melee", players=8),
}
C, A, P = OB.CARD_INDEX, OB.ACTION_INDEX, OB.PLAYER_INDEX


@pytest.mark.parametrize("name", list(CONFIGS))
def test_api(name):
    # enough cycles to play whole games: players leave, dead steps, the agents list empties
    api_test(melee_v0.env(**CONFIGS[name]), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("name", ["two-player", "free-for-all", "grand-melee"])
def test_seed(name):
    seed_test(lambda: melee_v0.env(**CONFIGS[name]), num_cycles=100)


def _play(env, seed, check=None):
    """A random episode; returns each agent's final reward, result and how it ended."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, info["result"], "trunc" if trunc else "term")
            env.step(None)
            continue
        if check:
            check(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


def _check_mask(env, agent, obs):
    raw = env.unwrapped
    legal = raw.game.legal_actions()
    layout = raw.layout
    mask = obs["action_mask"]
    assert mask.dtype == np.int8
    assert mask.sum() == min(len(legal), layout.max_actions) > 0
    assert mask[: len(legal)].all()
    assert raw.possible_agents[raw.game.current_player()] == agent
    rows = layout.split(obs["observation"])["actions"]
    kinds = [ACTION_NAMES[int(k) - 1] for k in rows[: len(legal), A["kind"]]]
    assert kinds == [a.kind for a in legal]
    for other in raw.agents:  # nobody else may act
        if other != agent:
            assert not raw.observe(other)["action_mask"].any()


@pytest.mark.parametrize("name", ["free-for-all", "emperor"])
def test_random_episode_masks_and_rewards(name):
    env = melee_v0.env(**CONFIGS[name], mulligans=True)
    final = _play(env, seed=5, check=_check_mask)
    g = env.unwrapped.game
    assert g.over and not env.agents
    assert set(final) == set(env.possible_agents)
    for agent, (reward, result, how) in final.items():
        p = env.unwrapped.agent_name_mapping[agent]
        expected = 1.0 if p in g.winners else -1.0 if p in g.losers else 0.0
        assert reward == expected and how == "term"
        assert result == {1.0: "win", -1.0: "loss", 0.0: "draw"}[expected]
    rewards = [r for r, _, _ in final.values()]
    assert sum(rewards) == len(g.winners) - len(g.losers)
    assert len(g.winners) >= 1 and rewards.count(1.0) == len(g.winners)


def test_turn_cap_truncates():
    env = melee_v0.env(variant="free-for-all", players=4, max_turns=2)
    final = _play(env, seed=1)
    assert env.unwrapped.game.over and not env.unwrapped.game.winners
    assert all(how == "trunc" and r == 0.0 and res == "draw" for r, res, how in final.values())


def test_illegal_action_raises_and_changes_nothing():
    env = melee_v0.env(variant="free-for-all", players=4)
    env.reset(seed=2)
    raw = env.unwrapped
    agent = env.agent_selection
    n_legal = len(raw.legal_actions())
    before = {a: env.observe(a)["observation"].copy() for a in env.agents}
    fingerprint = raw.game.fingerprint()

    def state():
        return (env.agent_selection, dict(env._cumulative_rewards), list(env.agents))

    saved = state()
    for bad in (n_legal, raw.layout.max_actions + 3, -1, None, 1.5, "pass"):
        with pytest.raises(ValueError, match="illegal action"):
            env.step(bad)
    with pytest.raises(ValueError, match=f"illegal action {n_legal} for {agent}"):
        env.step(n_legal)
    assert raw.game.fingerprint() == fingerprint and state() == saved
    for a, obs in before.items():
        np.testing.assert_array_equal(env.observe(a)["observation"], obs)
    env.step(0)  # a legal action still works afterwards
    assert raw.game.fingerprint() != fingerprint


def _swap_hand_with_library(g, p):
    """Give player p a different hand (each hand card swapped with a library card of
    another name) and a different library order."""
    v = g.v
    hand = [int(i) for i in v.hand[p, : v.pl[p, PL.P_HANDN]]]
    names = {g.card_name(h) for h in hand}
    lib = list(v.lib[p, : v.pl[p, PL.P_LIBN]])
    swap = [k for k, i in enumerate(lib) if g.card_name(int(i)) not in names][: len(hand)]
    assert len(swap) == len(hand) > 0
    for j, k in enumerate(swap):
        h, x = hand[j], int(lib[k])
        v.o[h, 1], v.o[x, 1] = LIBRARY, HAND  # F_ZONE
        v.hand[p, j], lib[k] = x, h
    v.lib[p, : len(lib)] = lib[::-1]


def test_hidden_information():
    from components import objects as O

    assert O.F_ZONE == 1
    env = melee_v0.env(variant="free-for-all", players=4)
    env.reset(seed=4)
    raw = env.unwrapped
    g = raw.game
    other = g.clone()
    _swap_hand_with_library(other, 1)
    assert sorted(g.card_name(int(i)) for i in g.v.hand[1, :7]) != sorted(
        other.card_name(int(i)) for i in other.v.hand[1, :7]
    )
    for viewer in (0, 2, 3):
        np.testing.assert_array_equal(
            raw.layout.observe(g, viewer), raw.layout.observe(other, viewer)
        )
    assert not np.array_equal(raw.layout.observe(g, 1), raw.layout.observe(other, 1))
    cards = raw.layout.split(raw.layout.observe(g, 0))["cards"]
    shown = cards[cards[:, C["present"]] == 1]
    in_hand = shown[shown[:, C["zone"]] == HAND + 1]
    assert len(in_hand) == 7 and (in_hand[:, C["owner_seat"]] == 0).all()
    assert (in_hand[:, C["card"]] > 0).all()
    assert not (shown[:, C["zone"]] == LIBRARY + 1).any()


def test_observation_layout_and_spaces():
    env = melee_v0.env(variant="team-vs-team", players=4)
    env.reset(seed=0)
    raw = env.unwrapped
    obs = env.observe(env.agent_selection)
    assert env.observation_space(env.agent_selection).contains(obs)
    assert obs["observation"].shape == (raw.layout.size,)
    players = raw.layout.split(obs["observation"])["players"]
    assert players[:4, P["present"]].all() and not players[4:].any()
    assert players[0, P["is_me"]] == 1
    assert players[:4, P["teammate"]].sum() == 2  # me and my teammate
    assert (players[:4, P["life"]] == 20).all()
    assert env.action_space(env.agent_selection).n == raw.layout.max_actions
    with pytest.raises(ValueError):
        melee_v0.env(variant="two-player", players=3)
    with pytest.raises(ValueError):
        melee_v0.env(variant="free-for-all", players=raw.layout.max_players + 1)


# ----------------------------------------------------------------- the vectorised env
def _run(env: VectorEnv, steps: int, seed: int):
    obs, mask, player = env.reset()
    rng = np.random.default_rng(seed)
    trail = []
    for _ in range(steps):
        n = mask.sum(1)
        a = (rng.random(len(n)) * n).astype(np.int64)
        obs, mask, player, done, res = env.step(a)
        trail.append((obs.copy(), mask.copy(), player.copy(), done.copy(), res.copy()))
    return trail


def test_vector_env_is_reproducible_and_restarts_finished_games():
    make = lambda: VectorEnv(num_envs=6, players=4, seed=11, layout=ObsLayout(4, 96, 64))  # noqa: E731
    a, b = _run(make(), 400, 1), _run(make(), 400, 1)
    for x, y in zip(a, b):
        for u, w in zip(x, y):
            np.testing.assert_array_equal(u, w)
    done = np.array([t[3] for t in a])
    assert done.any(), "some game ended within 400 steps"
    for t in a:
        for g in np.flatnonzero(t[3]):  # a finished game's results: somebody won or all drew
            r = t[4][g]
            assert (r == 1).sum() >= 1 or (r == -1).sum() == 0
        assert (t[1].sum(1) > 0).all()  # every game has a decision pending


def test_vector_env_observations_match_the_single_game_observation():
    env = VectorEnv(num_envs=3, players=4, seed=3, layout=ObsLayout(4, 96, 64))
    obs, mask, player = env.reset()
    from ecs.engine import Game

    for g in range(3):
        game = Game(env.A[g], env.compiled, [f"P{p}" for p in range(4)])
        np.testing.assert_array_equal(obs[g], env.layout.observe(game, int(player[g])))
        assert mask[g].sum() == min(game.n_actions(), 64)


def test_vector_env_refuses_bad_actions_and_steps_nothing():
    env = VectorEnv(num_envs=2, players=2, variant="two-player", seed=1)
    obs, mask, player = env.reset()
    before = env.A.copy()
    for bad in (np.array([0]), np.array([0.5, 0.0]), np.array([int(mask[0].sum()), 0])):
        with pytest.raises(ValueError):
            env.step(bad)
    np.testing.assert_array_equal(env.A, before)
