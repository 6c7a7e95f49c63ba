"""Batch simulation: ``melee simulate``.

Each game's seed derives from the batch seed through numpy's SeedSequence, so a
batch gives the same games whatever the number of workers. Games are played
with auto-pass (priority stops where a player can only pass are skipped, which
changes no outcome) and a safety cap on length (a capped game is a draw).

Engines (``--engine``): ``python`` plays every configuration; ``compiled`` plays
two-player and free-for-all games between random agents in one numba kernel
(``systems/compiled_game.py``, proven to make the same decisions as the Python
engine by ``tests/test_compiled_game.py``); ``auto`` (the default) uses the compiled
engine whenever it can play the batch. Both deal game k from the same seed; the
random agents' own draws differ between engines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from ecs.agents import AGENTS, play_game
from ecs.decks import load_deck, stock_decks
from ecs.game import Game, Options

DEFAULT_GAMES = 200


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--variant",
        default="free-for-all",
        help="two-player | free-for-all | team-vs-team | emperor | alternating-teams",
    )
    ap.add_argument("--teams", type=int, default=None, help="number of teams (team variants)")
    ap.add_argument(
        "--team-turns", action="store_true", help="shared team turns (805; team-vs-team)"
    )
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES)
    ap.add_argument(
        "--agents", default="random", help="random | heuristic, or a comma list per seat"
    )
    ap.add_argument("--decks", default=None, help="comma list of deck files or stock deck names")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--range", type=int, default=None, dest="range_", help="range of influence")
    ap.add_argument(
        "--attack", default=None, choices=["multiple", "left", "right"],
        help="attack option (default: the variant's: left in Grand Melee, else multiple)",
    )  # fmt: skip
    ap.add_argument(
        "--max-turns", type=int, default=200, help="safety cap; a capped game is a draw"
    )
    ap.add_argument("--mulligans", action="store_true", help="play pregame mulligan decisions")
    ap.add_argument("--json", action="store_true", help="print one JSON object as the summary")
    ap.add_argument("--out", default=None, help="also write one JSON line per game to this file")
    ap.add_argument(
        "--db",
        default="melee-results.duckdb",
        help="results store (DuckDB), written as games finish (default: %(default)s)",
    )
    ap.add_argument("--no-db", action="store_true", help="don't write the results store")
    ap.add_argument(
        "--resume", action="store_true", help="finish an interrupted batch: skip stored games"
    )
    ap.add_argument("--replays", default=None, help="write each game's replay into this folder")
    ap.add_argument("--backend", default="local", choices=["local", "ray"])
    ap.add_argument("--address", default=None, help="Ray cluster address (with --backend ray)")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument(
        "--engine", default="auto", choices=["auto", "python", "compiled"],
        help="compiled: the numba game loop (random agents; two-player, free-for-all, grand-melee); "
        "auto: compiled when it can play the batch (default)",
    )  # fmt: skip


def game_seeds(seed: int, games: int) -> list[int]:
    ss = np.random.SeedSequence(seed)
    return [int(s.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)) for s in ss.spawn(games)]


def play_one(cfg: dict[str, Any], index: int, seed: int) -> dict[str, Any]:
    n = cfg["players"]
    decks = cfg["decks"]
    rng = np.random.default_rng(seed)
    deck_names = [decks[(index + k) % len(decks)] for k in range(n)]
    lists = [cfg["deck_cards"][d] for d in deck_names]
    t0 = time.perf_counter()
    g = Game.new(
        lists,
        variant=cfg["variant"],
        options=Options(
            range_of_influence=cfg["range"],
            attack=cfg["attack"],
            shared_team_turns=cfg.get("team_turns", False),
        ),
        seed=seed,
        mulligans=cfg["mulligans"],
        max_turns=cfg["max_turns"],
        teams=cfg.get("teams"),
        auto_pass=True,
    )
    agents = [
        AGENTS[cfg["agents"][k % len(cfg["agents"])]](int(rng.integers(2**31))) for k in range(n)
    ]
    play_game(g, agents)
    if cfg.get("replays"):
        from ecs.replay import save

        save(g, Path(cfg["replays"]) / f"game-{index:06d}.json")
    # seat position relative to the starting player (0 = took the first turn)
    seat_of = _seat_positions(g)
    row = {
        "game": index,
        "seed": seed,
        "variant": cfg["variant"],
        "players": n,
        "range": cfg["range"],
        "attack": cfg["attack"],
        "decks": [deck_names[p] for p in sorted(range(n), key=lambda p: seat_of[p])],
        "agents": [
            cfg["agents"][p % len(cfg["agents"])]
            for p in sorted(range(n), key=lambda p: seat_of[p])
        ],
        "winners": sorted(seat_of[p] for p in g.winners),
        "losers": sorted(seat_of[p] for p in g.losers),
        "drawn": sorted(seat_of[p] for p in g.drawn),
        "draw": not g.winners,
        "capped": bool(g.max_turns and g.turn >= g.turn_cap() and not g.winners),
        "turns": int(g.turn),
        "actions": len(g.history),
        "duration_s": round(time.perf_counter() - t0, 6),
    }
    if g.team_names:
        row["teams"] = [int(g.pl.team[p]) for p in sorted(range(n), key=lambda p: seat_of[p])]
        row["winning_team"] = int(g.pl.team[g.winners[0]]) if g.winners else None
    g.close()
    return row


def _seat_positions(g: Game) -> dict[int, int]:
    """Seat index counted clockwise from the starting player."""
    n = g.n_players
    s0 = int(g.pl.seat[g.starting_player])
    return {p: int((g.pl.seat[p] - s0) % n) for p in range(n)}


def _worker(args: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    return play_one(*args)


def compiled_unsupported(cfg: dict[str, Any]) -> str | None:
    """Why the compiled engine can't play this batch (None: it can)."""
    from ecs.compiled import supports

    if set(cfg["agents"]) != {"random"}:
        return "agents other than random"
    if cfg.get("replays"):
        return "replays (the Python engine records them)"
    if cfg.get("backend") == "ray":
        return "the Ray backend"
    if cfg.get("team_turns") or cfg.get("teams"):
        return "teams"
    decks = [cfg["deck_cards"][d] for d in cfg["decks"]]
    return supports(
        cfg["variant"], decks, range_of_influence=cfg["range"], attack=cfg["attack"],
        mulligans=cfg["mulligans"],
    )  # fmt: skip


def play_compiled_chunk(cfg: dict[str, Any], first: int, seeds: list[int]) -> list[dict[str, Any]]:
    """Games first .. first + len(seeds) - 1 in the compiled engine, as result rows."""
    from ecs.compiled import play_compiled
    from ecs.legacy.systems.variants import turn_cap

    n = cfg["players"]
    decks = cfg["decks"]
    cap = turn_cap(cfg["variant"], n, cfg["max_turns"])
    t0 = time.perf_counter()
    res = play_compiled(
        [cfg["deck_cards"][d] for d in decks], n, len(seeds), max_turns=cfg["max_turns"],
        variant=cfg["variant"], seeds=seeds, first=first, range_of_influence=cfg["range"],
        attack=cfg["attack"],
    )  # fmt: skip
    per_game = (time.perf_counter() - t0) / max(1, len(seeds))
    rows = []
    for j, seed in enumerate(seeds):
        index = first + j
        if res["errors"][j]:
            raise RuntimeError(
                f"game {index}: the compiled engine ran out of room (error {res['errors'][j]})"
            )
        deck_names = [decks[(index + q) % len(decks)] for q in range(n)]
        s0 = int(res["seat"][j, res["starting"][j]])
        pos = [int((res["seat"][j, p] - s0) % n) for p in range(n)]
        order = sorted(range(n), key=lambda p: pos[p])
        won = [p for p in range(n) if res["won"][j, p]]
        turns = int(res["turns"][j])
        rows.append({
            "game": index, "seed": seed, "variant": cfg["variant"], "players": n,
            "range": cfg["range"], "attack": cfg["attack"],
            "decks": [deck_names[p] for p in order],
            "agents": ["random"] * n,
            "winners": sorted(pos[p] for p in won),
            "losers": sorted(pos[p] for p in range(n) if res["lost"][j, p]),
            "drawn": sorted(pos[p] for p in range(n) if res["drawn"][j, p]),
            "draw": not won,
            "capped": bool(cap and turns >= cap and not won),
            "turns": turns,
            "actions": int(res["decisions"][j]),
            "duration_s": round(per_game, 6),
            "engine": "compiled+python" if res["python_finished_mask"][j] else "compiled",
        })  # fmt: skip
    return rows


def _runs(jobs: list, size: int) -> list[tuple[int, list[int]]]:
    """Jobs (cfg, game, seed) as (first game, seeds) runs of consecutive games, at most
    ``size`` long (a resumed batch has gaps where games are already stored)."""
    out: list[tuple[int, list[int]]] = []
    for _, index, seed in jobs:
        if out and out[-1][0] + len(out[-1][1]) == index and len(out[-1][1]) < size:
            out[-1][1].append(seed)
        else:
            out.append((index, [seed]))
    return out


def _pool(workers: int):
    import multiprocessing as mp

    return mp.get_context("fork" if sys.platform != "win32" else "spawn").Pool(workers)


def _compiled_worker(args: tuple[dict[str, Any], int, list[int]]) -> list[dict[str, Any]]:
    return play_compiled_chunk(*args)


def run_batch(
    cfg: dict[str, Any], progress: bool = True, out=None, store=None, resume: bool = False
) -> tuple[list[dict], float]:
    """Play the batch; each finished game goes to ``out`` (JSON lines) and ``store``
    at once. With ``resume``, games already in the store are not played again."""
    seeds = game_seeds(cfg["seed"], cfg["games"])
    bid = store.start_batch(cfg, resume=resume) if store is not None else None
    done = store.done_games(bid) if store is not None and resume else set()
    jobs = [(cfg, k, s) for k, s in enumerate(seeds) if k not in done]
    rows: list[dict] = []
    workers = cfg["workers"]
    if cfg.get("engine") == "compiled":
        from ecs.compiled import warm

        # load the kernel once, before the clock starts (the first run after a change
        # compiles it, about 30 s, showing progress on stderr); forked workers share it
        cfg["engine_load_s"] = round(warm(), 3)
    t0 = time.perf_counter()
    bar = _Progress(len(jobs), enabled=progress)
    pool = None
    if cfg.get("engine") == "compiled":  # chunks of consecutive games, one kernel call each
        size = max(1, min(512, -(-len(jobs) // max(1, workers * 4))))
        chunks = [(cfg, first, seeds) for first, seeds in _runs(jobs, size)]
        if workers <= 1 or len(chunks) == 1:
            it = (row for rs in map(_compiled_worker, chunks) for row in rs)
        else:
            pool = _pool(workers)
            it = (row for rs in pool.imap(_compiled_worker, chunks) for row in rs)
    elif cfg.get("backend") == "ray":
        from ecs.distributed import ray_map

        it = ray_map(_worker, jobs, address=cfg.get("address"))
    elif workers <= 1:
        it = map(_worker, jobs)
    else:
        pool = _pool(workers)
        it = pool.imap(_worker, jobs, chunksize=max(1, min(16, len(jobs) // (workers * 8) or 1)))
    try:
        for row in it:
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if store is not None:
                store.add(bid, row)
            bar.advance()
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        bar.close()
    return rows, time.perf_counter() - t0


class _Progress:
    def __init__(self, total: int, enabled: bool):
        self.total, self.done = total, 0
        self.bar = None
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self.bar = Progress(
                "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                TimeRemainingColumn(), transient=False, console=None,
            )  # fmt: skip
            self.bar.start()
            self.task = self.bar.add_task("games", total=total)

    def advance(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.advance(self.task)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def summarise(rows: list[dict], wall: float, cfg: dict[str, Any]) -> dict[str, Any]:
    n = cfg["players"]
    wins: Counter[int] = Counter()
    for r in rows:
        for s in r["winners"]:
            wins[s] += 1
    turns = [r["turns"] for r in rows]
    return {
        "variant": cfg["variant"],
        "players": n,
        "games": len(rows),
        "agents": cfg["agents"],
        "decks": cfg["decks"],
        "seed": cfg["seed"],
        "workers": cfg["workers"],
        "engine": cfg.get("engine", "python"),
        "engine_load_s": cfg.get("engine_load_s", 0.0),
        "wall_s": round(wall, 3),
        "games_per_s": round(len(rows) / wall, 2) if wall > 0 else None,
        "turns_mean": round(float(np.mean(turns)), 2) if turns else None,
        "turns_median": float(np.median(turns)) if turns else None,
        "wins_by_seat": {str(s): wins.get(s, 0) for s in range(n)},
        "draws": sum(1 for r in rows if r["draw"]),
        "capped": sum(1 for r in rows if r["capped"]),
        **_team_wins(rows),
    }


def _team_wins(rows: list[dict]) -> dict[str, Any]:
    """Team variants: wins per team, teams named by their lowest seat (seat 0's team first)."""
    if not rows or "teams" not in rows[0]:
        return {}
    wins: Counter[str] = Counter()
    for r in rows:
        if r.get("winning_team") is not None:
            seats = [s for s, t in enumerate(r["teams"]) if t == r["winning_team"]]
            wins["team of seat " + str(min(seats))] += 1
    return {"wins_by_team": dict(sorted(wins.items()))}


def main(args: argparse.Namespace) -> int:
    from ecs.decks import DeckError

    try:
        decks = args.decks.split(",") if args.decks else stock_decks()
        deck_cards = {d: load_deck(d).main for d in decks}
    except DeckError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    agents = args.agents.split(",")
    for a in agents:
        if a not in AGENTS:
            print(f"error: unknown agent {a!r} (expected one of {sorted(AGENTS)})", file=sys.stderr)
            return 2
    players = 2 if args.variant == "two-player" else args.players
    cfg = {
        "variant": args.variant,
        "players": players,
        "games": args.games,
        "agents": agents,
        "decks": decks,
        "deck_cards": deck_cards,
        "seed": args.seed,
        "workers": args.workers or os.cpu_count() or 1,
        "range": args.range_,
        "attack": args.attack,
        "max_turns": args.max_turns,
        "mulligans": args.mulligans,
        "teams": args.teams,
        "team_turns": args.team_turns,
        "backend": args.backend,
        "replays": args.replays,
        "address": args.address,
        "engine": "python",
    }
    try:
        from ecs.game import SUPPORTED_VARIANTS
        from ecs.legacy.systems.variants import default_teams

        if args.variant not in SUPPORTED_VARIANTS:  # a clear error for the others
            Game([f"P{k}" for k in range(players)], variant=args.variant)
        if args.range_ is not None and args.range_ < 1:
            raise ValueError("--range must be at least 1")
        Game([f"P{k}" for k in range(players)], variant=args.variant,
             options=Options(range_of_influence=args.range_, attack=args.attack, shared_team_turns=args.team_turns),
             teams=default_teams(args.variant, players, args.teams))  # fmt: skip
    except (ValueError, NotImplementedError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    why = compiled_unsupported(cfg)
    if args.engine == "compiled" and why:
        print(f"error: the compiled engine can't play this batch: {why}", file=sys.stderr)
        return 2
    if args.engine != "python" and not why:
        cfg["engine"] = "compiled"
    if args.replays:
        Path(args.replays).mkdir(parents=True, exist_ok=True)
    out = open(args.out, "a" if args.resume else "w") if args.out else None
    store = None
    if not args.no_db:
        from ecs.results import ResultStore

        store = ResultStore(args.db)
    try:
        rows, wall = run_batch(
            cfg,
            progress=not args.no_progress and not args.json and sys.stderr.isatty(),
            out=out,
            store=store,
            resume=args.resume,
        )
    finally:
        if out is not None:
            out.close()
        if store is not None:
            store.close()
    summary = summarise(rows, wall, cfg)
    if store is not None:
        summary["db"] = args.db
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary)
    return 0


def _print_summary(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    c = Console()
    t = Table(
        title=f"{s['games']} games of {s['variant']} ({s['players']} players, agents {','.join(s['agents'])})"
    )
    t.add_column("seat (0 = first turn)")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    for seat, w in s["wins_by_seat"].items():
        t.add_row(seat, str(w), f"{w / max(1, s['games']):.1%}")
    t.add_row("draws", str(s["draws"]), f"{s['draws'] / max(1, s['games']):.1%}")
    for team, w in s.get("wins_by_team", {}).items():
        t.add_row(team, str(w), f"{w / max(1, s['games']):.1%}")
    c.print(t)
    c.print(
        f"mean turns {s['turns_mean']}, median {s['turns_median']}; {s['capped']} capped at the turn limit; "
        f"{s['games_per_s']} games/s on {s['workers']} worker(s), {s['wall_s']} s wall "
        f"({s['engine']} engine)"
    )
    if s.get("db"):
        c.print(f"results stored in {s['db']} (melee report {s['db']} --out report/)")
