"""The PettingZoo environment (ecs/envs/melee_v0.py): API, seeding, masks, hidden info."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ecs.constants import HAND, LIBRARY
from ecs.envs import melee_v0

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


@pytest.mark.parametrize("name", list(CONFIGS))
def test_api(name):
    # enough cycles to play whole games: players leave, dead steps, the agents list empties
    api_test(melee_v0.env(**CONFIGS[name]), num_cycles=400, verbose_progress=False)


@pytest.mark.parametrize("name", list(CONFIGS))
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
    mask = obs["action_mask"]
    assert mask.dtype == np.int8
    assert mask.sum() == min(len(legal), melee_v0.MAX_ACTIONS) > 0
    assert mask[: len(legal)].all()
    assert raw.legal_actions() == legal[: melee_v0.MAX_ACTIONS]
    assert raw.possible_agents[raw.game.current_player()] == agent
    rows = melee_v0.split_observation(obs["observation"])["actions"]
    kinds = [melee_v0.ACTION_KINDS[int(k) - 1] for k in rows[: len(legal), 0]]
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
    history = len(raw.game.history)

    def state():
        return (env.agent_selection, dict(env._cumulative_rewards), list(env.agents))

    saved = state()
    for bad in (n_legal, melee_v0.MAX_ACTIONS + 3, -1, None, 1.5, "pass"):
        with pytest.raises(ValueError, match="illegal action"):
            env.step(bad)
    with pytest.raises(ValueError, match=f"illegal action {n_legal} for {agent}"):
        env.step(n_legal)
    assert len(raw.game.history) == history
    assert state() == saved
    for a, obs in before.items():
        np.testing.assert_array_equal(env.observe(a)["observation"], obs)
    env.step(0)  # a legal action still works afterwards
    assert len(raw.game.history) == history + 1


def _swap_hand_with_library(g, p):
    """Give player p a different hand: swap each hand card with a library card."""
    o = g.obj
    hand = g.hand(p)
    lib = [i for i in g.library[p] if o.card[i] not in {o.card[h] for h in hand}]
    assert len(lib) >= len(hand) > 0
    for h, lcard in zip(hand, lib):
        o.zone[h], o.zone[lcard] = LIBRARY, HAND
        k = g.library[p].index(lcard)
        g.library[p][k] = h
    g.library[p].reverse()  # and a different library order
    g.dirty = True


def test_hidden_information():
    env = melee_v0.env(variant="free-for-all", players=4)
    env.reset(seed=4)
    g = env.unwrapped.game
    p1 = 1
    other = g.clone()
    _swap_hand_with_library(other, p1)
    assert sorted(g.obj.card[g.hand(p1)]) != sorted(other.obj.card[other.hand(p1)])
    for viewer in (0, 2, 3):
        v1, m1 = melee_v0.build_observation(g, viewer)
        v2, m2 = melee_v0.build_observation(other, viewer)
        np.testing.assert_array_equal(v1, v2)
        np.testing.assert_array_equal(m1, m2)
    # player 1 does see the change; player 0 sees player 1's hand only as a count
    assert not np.array_equal(
        melee_v0.build_observation(g, p1)[0], melee_v0.build_observation(other, p1)[0]
    )
    cards = melee_v0.split_observation(melee_v0.build_observation(g, 0)[0])["cards"]
    C = melee_v0.C
    shown = cards[cards[:, C["present"]] == 1]
    in_hand = shown[shown[:, C["zone"]] == HAND + 1]
    assert len(in_hand) == len(g.hand(0)) and (in_hand[:, C["owner_seat"]] == 0).all()
    assert not (shown[:, C["zone"]] == LIBRARY + 1).any()


def test_observation_layout_and_spaces():
    env = melee_v0.env(variant="team-vs-team", players=4)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert env.observation_space(env.agent_selection).contains(obs)
    assert obs["observation"].shape == (melee_v0.OBS_SIZE,)
    sec = melee_v0.split_observation(obs["observation"])
    P = melee_v0.P
    players = sec["players"]
    assert players[:4, P["present"]].all() and not players[4:].any()
    assert players[0, P["is_me"]] == 1 and players[0, P["seat"]] == 0
    assert players[:4, P["teammate"]].sum() == 2  # me and my teammate
    assert (players[:4, P["life"]] == 20).all()
    assert env.action_space(env.agent_selection).n == melee_v0.MAX_ACTIONS
    with pytest.raises(ValueError):
        melee_v0.env(variant="two-player", players=3)
    with pytest.raises(ValueError):
        melee_v0.env(variant="free-for-all", players=melee_v0.MAX_PLAYERS + 1)


def test_choose_decisions_are_covered():
    """Opponent-chosen targets (Cuombajj Witches) and Fact or Fiction piles are actions too;
    revealed cards are shown with their pile while the choice is pending."""
    fof = ["Island"] * 24 + ["Fact or Fiction"] * 36
    witches = ["Swamp"] * 24 + ["Cuombajj Witches"] * 36
    env = melee_v0.env(variant="free-for-all", players=4, decks=[fof, witches], max_turns=30)
    seen = set()
    C, A = melee_v0.C, melee_v0.A

    def check(env, agent, obs):
        _check_mask(env, agent, obs)
        g = env.unwrapped.game
        if g.pending.kind != "choose":
            return
        seen.add(g.choice.kind)
        sec = melee_v0.split_observation(obs["observation"])
        cards, rows = sec["cards"], sec["actions"]
        revealed = cards[(cards[:, C["present"]] == 1) & (cards[:, C["zone"]] == LIBRARY + 1)]
        if g.choice.kind == "piles":  # the opponent splits 5 revealed cards: 2**5 ways
            assert len(revealed) == 5 and len(g.legal_actions()) == 32
            assert sorted(rows[:32, A["arg"]]) == list(range(32))  # pile-1 bitmasks
        elif g.choice.kind == "pile":
            assert set(revealed[:, C["pile"]]) <= {1, 2} and len(revealed) == 5
        else:
            assert len(revealed) == 0

    for seed in range(6):
        _play(env, seed=seed, check=check)
        if len(seen) == 3:
            break
    assert seen == {"target", "piles", "pile"}
