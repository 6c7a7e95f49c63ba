"""Agents: something that sees its own view and the legal actions, and returns one.

``Agent.act(obs, actions)`` gets an :class:`Observation` (a player's window on
the game: ``obs.view()`` builds the hidden-information view lazily, so cheap
agents don't pay for it) and the list of legal actions, and returns one of them.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ecs.actions import Action, is_player_ref, ref_player
from ecs.constants import KW_FLYING, KW_REACH, T_CREATURE, T_LAND
from ecs.game import Game


class Observation:
    __slots__ = ("game", "player")

    def __init__(self, game: Game, player: int):
        self.game, self.player = game, player

    def view(self) -> dict:
        return self.game.observe(self.player)


class Agent(Protocol):
    def act(self, obs: Observation, actions: list[Action]) -> Action: ...


class RandomAgent:
    """Uniformly random legal actions from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, obs: Observation, actions: list[Action]) -> Action:
        return actions[int(self.rng.integers(len(actions)))]


class HeuristicAgent:
    """Plays a land, casts the most expensive spell it can (aiming harm at opponents),
    attacks when the attacker survives the defender's best blocker or meets none,
    blocks when the blocker survives or trades, keeps 2-5 land hands."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, obs: Observation, actions: list[Action]) -> Action:
        g, me = obs.game, obs.player
        kind = actions[0].kind if actions else "pass"
        kinds = {a.kind for a in actions}
        if "keep" in kinds:
            lands = sum(1 for i in g.hand(me) if g.db.types[g.obj.card[i]] & T_LAND)
            mull = [a for a in actions if a.kind == "mulligan"]
            return (
                mull[0] if mull and not 2 <= lands <= 5 and g.pl.mulligans[me] == 0 else actions[0]
            )
        if kind in ("bottom", "discard"):
            return max(actions, key=lambda a: g.db.mana_value[g.obj.card[a.obj]])
        if kind == "attack_done":
            return self._attack(g, me, actions)
        if "block" in kinds or kind == "block_done":
            return self._block(g, me, actions)
        lands = [a for a in actions if a.kind == "play_land"]
        if lands:
            return lands[0]
        best, score = actions[0], 0.0
        for a in actions:
            s = self._score(g, me, a)
            if s > score:
                best, score = a, s
        return best

    def _score(self, g: Game, me: int, a: Action) -> float:
        if a.kind not in ("cast", "activate"):
            return 0.0
        o, db = g.obj, g.db
        harmful = True
        d = db.defs[o.card[a.obj]]
        if a.kind == "cast":
            names = {e for e, _ in (d.spell.effects if d.spell else ())}
            harmful = bool(names & {"damage", "destroy", "gain_control"})
            if "pump" in names or "prevent" in names:
                return 0.0  # combat tricks: the simple agent holds them
            if names & {"life_becomes_lowest", "draw_game"}:
                return 0.0
        score = 1.0 + float(db.mana_value[o.card[a.obj]])
        for t in a.targets:
            ctl = ref_player(t) if is_player_ref(t) else int(o.controller[t])
            mine = g.pl.team[ctl] == g.pl.team[me]
            if harmful and mine or (not harmful and not mine):
                return 0.0
        if d.types & T_CREATURE:
            score += 0.5
        return score

    def _attack(self, g: Game, me: int, actions: list[Action]) -> Action:
        o = g.obj
        best_by_attacker: dict[int, tuple[float, Action]] = {}
        for a in actions:
            if a.kind != "attack":
                continue
            dfd = a.arg
            q = ref_player(dfd) if is_player_ref(dfd) else int(o.controller[dfd])
            blockers = [
                b
                for b in g.battlefield(q)
                if g.db.types[o.card[b]] & T_CREATURE
                and not o.tapped[b]
                and (not o.kw[a.obj] & KW_FLYING or o.kw[b] & (KW_FLYING | KW_REACH))
            ]
            safe = all(o.power[b] < o.toughness[a.obj] for b in blockers)
            if not safe:
                continue
            s = 100.0 - float(g.pl.life[q]) + (5.0 if not is_player_ref(dfd) else 0.0)
            if a.obj not in best_by_attacker or s > best_by_attacker[a.obj][0]:
                best_by_attacker[a.obj] = (s, a)
        if best_by_attacker:
            return max(best_by_attacker.values(), key=lambda t: t[0])[1]
        return actions[0]

    def _block(self, g: Game, me: int, actions: list[Action]) -> Action:
        o = g.obj
        done = [a for a in actions if a.kind == "block_done"]
        for a in actions:
            if a.kind != "block":
                continue
            b, atk = a.obj, a.arg
            if o.blocking[b] >= 0 or b in g.block_decl:
                continue
            survives = o.power[atk] < o.toughness[b]
            trades = o.power[b] >= o.toughness[atk]
            if survives or (trades and g.db.mana_value[o.card[atk]] >= g.db.mana_value[o.card[b]]):
                return a
        return done[0] if done else actions[0]


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent}


def play_game(game: Game, agents: list[Agent]) -> Game:
    """Drive a game to its end with one agent per player."""
    while not game.over:
        p = game.pending.player
        actions = game.legal_actions()
        if len(actions) == 1:
            game.step(actions[0])
        else:
            game.step(agents[p].act(Observation(game, p), actions))
    return game


class MonteCarloAgent:
    """Flat Monte Carlo: for each legal action, play ``playouts`` random games from a
    clone (cut at ``horizon`` turns, then scored by life share) and pick the best mean.

    An example of embedding the engine for search: it only uses ``clone``,
    ``legal_actions`` and ``step``."""

    def __init__(self, seed: int = 0, playouts: int = 4, horizon: int = 8, max_actions: int = 8):
        self.rng = np.random.default_rng(seed)
        self.playouts, self.horizon, self.max_actions = playouts, horizon, max_actions

    def act(self, obs: Observation, actions: list[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        g, me = obs.game, obs.player
        cands = actions
        if len(cands) > self.max_actions:
            idx = self.rng.choice(len(cands), self.max_actions, replace=False)
            cands = [actions[0]] + [actions[i] for i in idx if i != 0][: self.max_actions - 1]
        best, best_score = cands[0], -1.0
        for a in cands:
            score = 0.0
            for _ in range(self.playouts):
                sim = g.clone()
                sim.step(a)
                score += self._rollout(sim, me)
                sim.close()
            if score > best_score:
                best, best_score = a, score
        return best

    def _rollout(self, g: Game, me: int) -> float:
        stop = g.turn + self.horizon
        while not g.over and g.turn < stop:
            acts = g.legal_actions()
            g.step(acts[int(self.rng.integers(len(acts)))])
        if g.over:
            return 1.0 if me in g.winners else (0.5 if me in g.drawn else 0.0)
        life = np.maximum(g.pl.life, 0).astype(float) * g.pl.alive
        total = life.sum()
        return float(life[me] / total) if total > 0 else 0.0


AGENTS["montecarlo"] = MonteCarloAgent
