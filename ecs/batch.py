"""Batches: many games of one configuration played by compiled agents inside the
engine's game loop (systems/game_loop.play_batch), a chunk of games per call.

    from ecs.batch import BatchPlayer
    bp = BatchPlayer(cfg)                 # cards compiled, one template per deck rotation
    rows = bp.play(first=0, seeds=[...])  # one result row per game

Game k of a batch gets the stock decks rotated by k (seat p plays deck (k + p) mod D)
and its own seed; everything random in it (seating, shuffles, the agents' picks) comes
from that seed, so a game is the same whichever worker plays it and in whatever
chunk. The arenas of a chunk are copies of the rotation's template: the state of a
game lives only in its row, and a chunk's memory is bounded by ``CHUNK_BYTES``."""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from components import game as G
from components import players as PL
from components.state import GAME_LAYOUT
from ecs.cards import Compiled, load_pool
from ecs.engine import VARIANTS, Options, call, policy_id, seed_rng, template

CHUNK_BYTES = 64 << 20
"""The most memory one call's arenas take (a chunk is cut to fit)."""
COMMANDER_ROWS = 96
"""More object rows per player in Commander batches (long games, armies of tokens,
abilities on the stack). A game that outgrows its tables is played again, the same,
with twice the room; when more than one game in 20 of a chunk did, the room grows."""
RUMBLE_ROWS = 48
"""The same for Supervillain Rumble (schemes' tokens: without them one game in 18 of a
400-game batch outgrew its tables, with them one in 400)."""

MAX_DECISIONS = 200_000
"""A safety cap besides the turn cap: a game whose agents keep deciding without the
game moving on (undoing a declaration forever...) ends as a draw, counted as capped."""

SETUPS = 8
"""Casual batches (Planechase, Vanguard, Archenemy): how many command-zone set-ups
(planar and scheme decks, avatars) are drawn from the batch seed; game k of a batch of
D decks plays set-up (k // D) mod SETUPS with its deck rotation (a template each, so a
game is still a copy of a prepared arena)."""

REPLAY_TRACE = 20_000
"""Decisions a game's trace holds when replays are written (a longer game gets none)."""


@dataclass(frozen=True)
class Seat:
    """Who sits where in one game: deck names by player, the starting player first."""

    deck: str
    agent: str


class BatchPlayer:
    """Plays the games of one batch configuration (the dict ``melee simulate`` builds:
    variant, players, teams, team_turns, decks (names), deck_cards (name -> card list),
    agents (names by player, cycled), range, attack, max_turns, mulligans, replays)."""

    def __init__(self, cfg: dict[str, Any]):
        self.cfg = cfg
        self.n = int(cfg["players"])
        self.decks: list[str] = list(cfg["decks"])
        self.lists = {d: list(cfg["deck_cards"][d]) for d in self.decks}
        self.agents = [cfg["agents"][p % len(cfg["agents"])] for p in range(self.n)]
        self.policies = [policy_id(a) for a in self.agents]
        db = load_pool()
        self.casual = tuple(cfg.get("casual") or ())
        self.commanders = {d: list(c) for d, c in (cfg.get("commanders") or {}).items()}
        cards = {c for d in self.lists.values() for c in d}
        cards |= {c for cs in self.commanders.values() for c in cs}
        self.setups: list[Any] = []
        if set(self.casual) - {"commander", "brawl"}:  # command-zone cards from the seed
            from ecs import casual as C

            self.setups = [C.choose(self.casual, self.n, int(cfg.get("seed", 0)) * SETUPS + j,
                                    db=db) for j in range(SETUPS)]  # fmt: skip
            for st in self.setups:
                cards |= st.cards()
        self.card_names = sorted(cards)
        self.compiled: Compiled = db.compiled(self.card_names)
        self.options = Options(
            range_of_influence=cfg.get("range"),
            attack=cfg.get("attack"),
            shared_team_turns=cfg.get("team_turns") or None,
            teams=cfg.get("teams"),
            max_turns=int(cfg.get("max_turns") or 0),
            max_decisions=MAX_DECISIONS,
            mulligans=bool(cfg.get("mulligans")),
            casual=self.casual,
        )
        self.trace = REPLAY_TRACE if cfg.get("replays") else 0
        # every rotation's arena has the same size: room for the largest decks dealt
        sizes = sorted((len(v) for v in self.lists.values()), reverse=True)
        most = max((len(c) for c in self.commanders.values()), default=0)
        zone = 0
        if self.setups:
            from ecs.casual import casual_cards

            zone = max(casual_cards(st) for st in self.setups)
        cards = sum(sizes[k % len(sizes)] for k in range(self.n)) + most * self.n + zone
        if {"commander", "brawl"} & set(self.casual):  # long games, armies of tokens
            cards += COMMANDER_ROWS * self.n
        elif "supervillain-rumble" in self.casual:
            cards += RUMBLE_ROWS * self.n
        self.room = (cards, sizes[0])
        self._templates: dict[tuple[int, int, int], np.ndarray] = {}
        self._buf: np.ndarray | None = None
        self._frozen = False

    def decks_of(self, index: int) -> list[str]:
        """The deck each player of game ``index`` plays."""
        return [self.decks[(index + p) % len(self.decks)] for p in range(self.n)]

    def setup_of(self, index: int) -> Any:
        """Game ``index``'s command-zone cards (an ``ecs.casual.CasualSetup``)."""
        return self.setups[(index // len(self.decks)) % SETUPS]

    def template(self, index: int, scale: int = 1) -> np.ndarray:
        """Game ``index``'s arena before it is dealt; ``scale`` > 1: with that many times
        the room (for a game that outgrew its tables: it is played again, the same)."""
        r = index % len(self.decks)
        j = (index // len(self.decks)) % SETUPS if self.setups else 0
        if (r, j, scale) not in self._templates:
            names = self.decks_of(r)
            lists = [self.lists[d] for d in names]
            room = (self.room[0] * scale, self.room[1] * min(scale, 4))
            cmds = [self.commanders.get(d, []) for d in names] if self.commanders else None
            if self.setups:
                from ecs.casual import casual_arena

                a = casual_arena(self.compiled, lists, self.cfg["variant"], self.options,
                                 self.setups[j], trace=self.trace, room=room,
                                 commanders=cmds)  # fmt: skip
            else:
                a = template(self.compiled, lists, self.cfg["variant"], self.options,
                             trace=self.trace, room=room, commanders=cmds)  # fmt: skip
            v = GAME_LAYOUT.views(a)
            for p, pol in enumerate(self.policies):
                v.pl[p, PL.P_POLICY] = pol
            self._templates[(r, j, scale)] = a
        return self._templates[(r, j, scale)]

    def chunk_size(self) -> int:
        return max(1, CHUNK_BYTES // (self.template(0).nbytes))

    def play(self, first: int, seeds: list[int]) -> list[dict[str, Any]]:
        """Games ``first .. first + len(seeds) - 1``: their result rows, in order."""
        rows: list[dict[str, Any]] = []
        step = self.chunk_size()
        for k in range(0, len(seeds), step):
            rows += self._play(first + k, seeds[k : k + step])
        return rows

    def _play(self, first: int, seeds: list[int]) -> list[dict[str, Any]]:
        t0 = time.perf_counter()
        m = len(seeds)
        size = self.template(0).size
        if self._buf is None or self._buf.shape[0] < m:
            self._buf = np.empty((max(m, self.chunk_size() if m > 1 else 1), size), np.int32)
        A = self._buf[:m]  # (reused: fresh memory costs page faults every chunk)
        for j, seed in enumerate(seeds):
            A[j] = self.template(first + j)
            seed_rng(A[j], seed)
        cards = self.compiled.arena
        from systems import entry

        call(entry.DEAL, A, cards)
        call(entry.PLAY, A, cards, -1)
        per_game = (time.perf_counter() - t0) / max(1, m)
        if not self._frozen:  # the engine is loaded: its many long-lived objects (numba's
            gc.freeze()  # types, dispatchers) leave the cyclic collector's scans (once: a
            self._frozen = True  # freeze count walks every frozen object)
        arenas = list(A)  # (views: rows are read below, before the buffer is reused)
        for j in range(m):  # a game that outgrew its tables is played again with more room
            scale = 2
            while GAME_LAYOUT.view(arenas[j], "s")[G.S_ERROR] == G.ERR_FULL and scale <= 64:
                a = self.template(first + j, scale).copy()
                seed_rng(a, seeds[j])
                call(entry.DEAL, a, cards)
                call(entry.PLAY, a, cards, -1)
                arenas[j] = a
                scale *= 2
        grown = sum(a.size != A[0].size for a in arenas)
        rows = [self._row(first + j, seeds[j], arenas[j], per_game) for j in range(m)]
        if self.cfg.get("replays"):
            for j in range(m):
                self._save_replay(first + j, seeds[j], arenas[j])
        if grown * 20 > m and m >= 8:  # many outgrew their tables: more room from now on
            self.room = (self.room[0] + self.room[0] // 4, self.room[1])
            self._templates.clear()
            self._buf = None
        return rows

    def _row(self, index: int, seed: int, a: np.ndarray, seconds: float) -> dict[str, Any]:
        s, pl = GAME_LAYOUT.view(a, "s"), GAME_LAYOUT.view(a, "pl")
        n = self.n
        if s[G.S_ERROR]:
            raise RuntimeError(
                f"game {index} (seed {seed}): the engine stopped it (error {int(s[G.S_ERROR])})"
            )
        start = int(s[G.S_STARTING])
        s0 = int(pl[start, PL.P_SEATPOS])
        pos = [int((pl[p, PL.P_SEATPOS] - s0) % n) for p in range(n)]
        order = sorted(range(n), key=lambda p: pos[p])
        decks = self.decks_of(index)
        won = [p for p in range(n) if pl[p, PL.P_WON]]
        row: dict[str, Any] = {
            "game": index,
            "seed": seed,
            "variant": "+".join((self.cfg["variant"], *self.casual)),
            "players": n,
            "range": self.cfg.get("range"),
            "attack": self.cfg.get("attack"),
            "decks": [decks[p] for p in order],
            "agents": [self.agents[p] for p in order],
            "winners": sorted(pos[p] for p in won),
            "losers": sorted(pos[p] for p in range(n) if pl[p, PL.P_LOST]),
            "drawn": sorted(pos[p] for p in range(n) if pl[p, PL.P_DRAWN]),
            "draw": not won,
            "capped": bool(s[G.S_CAPPED]),
            "turns": int(s[G.S_TURN]),
            "actions": int(s[G.S_DECISIONS]),
            "how": [PL.HOW_NAMES[int(pl[p, PL.P_HOW])] for p in order],
            "duration_s": round(seconds, 6),
        }
        if self.commanders:
            row["commanders"] = [self.commanders.get(decks[p], []) for p in order]
        if self.setups:
            row["planeswalks"] = int(s[G.S_PW_EVENTS])
        roles = [int(pl[p, PL.P_ROLE]) for p in order]
        if any(roles):
            row["roles"] = [PL.ROLE_NAMES[r] for r in roles]
        if VARIANTS[self.cfg["variant"]].teams:
            row["teams"] = [int(pl[p, PL.P_TEAM]) for p in order]
            row["winning_team"] = int(pl[won[0], PL.P_TEAM]) if won else None
        return row

    def room_of(self, index: int, a: np.ndarray) -> tuple[int, int]:
        """The room game ``index`` was played with (more if it outgrew its tables)."""
        scale = 1
        while self.template(index, scale).size != a.size and scale < 64:
            scale *= 2
        return (self.room[0] * scale, self.room[1] * min(scale, 4))

    def _save_replay(self, index: int, seed: int, a: np.ndarray) -> None:
        from ecs.replay import save_batch_game

        path = Path(self.cfg["replays"]) / f"game-{index:06d}.json"
        save_batch_game(path, self, index, seed, a)
