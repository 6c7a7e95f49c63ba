"""Batch simulation: ``melee simulate``.

Each game's seed derives from the batch seed through numpy's SeedSequence, so a
batch gives the same games whatever the number of workers. Games are played
with auto-pass (priority stops where a player can only pass are skipped, which
changes no outcome) and a safety cap on length (a capped game is a draw).

Every game is played by compiled agents (``--agents``: random, heuristic) inside the
engine's compiled game loop (``ecs/batch.py``), a chunk of games per call; game k is
dealt the stock decks rotated by k and plays from its own seed.

How a batch runs: the parent process hands out runs of consecutive games (sized to
take about ``CHUNK_S`` seconds each, so Ctrl-C is felt at once) to the workers,
keeps a few runs in flight per worker, and writes finished games to the results
store in chunks (one transaction per ``FLUSH_ROWS`` games or ``FLUSH_S`` seconds).
The summary is tallied as rows arrive, so memory stays flat in the number of games.
Ctrl-C stops the workers, commits the finished games and prints the command that
resumes the batch.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from ecs.checks import MAX_GAMES, MAX_PLAYERS, MAX_SEED, MAX_TURNS, MAX_WORKERS, int_arg
from ecs.decks import load_deck, stock_decks
from ecs.engine import VARIANTS, Options, SetupError, check_setup, default_teams
from ecs.stats import team_game, team_labels
from systems.policies import POLICY_NAMES as AGENTS

DEFAULT_GAMES = 200
DEFAULT_DB = "melee-results.duckdb"
#: fewest players per variant where the variant's rules make sense (more: any number
#: the variant's teams divide evenly, up to MAX_PLAYERS)
MIN_PLAYERS = {"two-player": 2, "grand-melee": 4, "two-headed-giant": 4, "emperor": 6}
CHUNK_S = 0.5  # target seconds of play per run of games handed to a worker
FLUSH_ROWS = 5000  # games per store transaction, at most
FLUSH_S = 1.0  # ... and at least one transaction this often while games finish


class UsageError(Exception):
    """A flag's value is refused; the message names the flag and what was expected."""


class BatchInterrupted(Exception):
    """Ctrl-C stopped the batch; ``games`` finished games were written (to the store and
    the JSON-lines file, those given)."""

    def __init__(self, games: int):
        super().__init__(f"interrupted after {games} games")
        self.games = games


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The flags of ``melee simulate`` (every one checked by argparse or :func:`check_args`)."""
    ap.add_argument(
        "--variant", default="free-for-all", choices=list(VARIANTS), metavar="VARIANT",
        help=f"one of: {', '.join(VARIANTS)}",
    )  # fmt: skip
    ap.add_argument(
        "--players", type=int_arg(2, MAX_PLAYERS), default=None, metavar="N",
        help="players per game (default: 2 in two-player, else 4; grand-melee and "
        f"two-headed-giant need 4 or more, emperor 6 or more; at most {MAX_PLAYERS:,})",
    )  # fmt: skip
    ap.add_argument(
        "--teams", type=int_arg(2, MAX_PLAYERS), default=None, metavar="N",
        help="number of teams in team variants (default: the variant's: 2, emperor players/3)",
    )  # fmt: skip
    ap.add_argument(
        "--team-turns", action="store_true", help="shared team turns (805; team-vs-team)"
    )
    ap.add_argument(
        "--games", type=int_arg(1, MAX_GAMES), default=DEFAULT_GAMES, metavar="N",
        help="games in the batch",
    )  # fmt: skip
    ap.add_argument(
        "--agents", default="random", metavar="AGENT[,AGENT...]",
        help=f"one of {', '.join(AGENTS)}, or a comma list by seat (cycled)",
    )  # fmt: skip
    ap.add_argument(
        "--decks", default=None, metavar="DECK[,DECK...]",
        help="stock deck names or decklist files, dealt to the seats in turn "
        f"(default: every stock deck: {', '.join(stock_decks())})",
    )  # fmt: skip
    ap.add_argument(
        "--casual", default=None, metavar="NAME[,NAME...]",
        help="casual variants (900-904): commander, brawl (default decks: the six stock "
        "Commander decks), planechase, vanguard, archenemy, supervillain-rumble (stock "
        "planar and scheme decks and avatars drawn from the batch seed); several combine: "
        "commander,planechase",
    )  # fmt: skip
    add_seed_and_workers(ap, "batch seed: every game's seed derives from it")
    ap.add_argument(
        "--range", type=int_arg(1, MAX_PLAYERS), default=None, dest="range_", metavar="R",
        help="range of influence (801) for every player (default: the variant's; "
        "unlimited but in grand-melee and emperor)",
    )  # fmt: skip
    ap.add_argument(
        "--attack", default=None, choices=["multiple", "left", "right"],
        help="attack option (802, 803; default: the variant's: left in grand-melee, else multiple)",
    )  # fmt: skip
    ap.add_argument(
        "--max-turns", type=int_arg(1, MAX_TURNS), default=200, metavar="N",
        help="safety cap on a game's turns (per turn marker in grand-melee); "
        "a capped game is a draw, counted as capped",
    )  # fmt: skip
    ap.add_argument("--mulligans", action="store_true", help="play pregame mulligan decisions")
    ap.add_argument("--json", action="store_true", help="print one JSON object as the summary")
    ap.add_argument(
        "--out", default=None, metavar="FILE.jsonl",
        help="also write one JSON line per game to FILE (appended to with --resume)",
    )  # fmt: skip
    ap.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE.duckdb",
        help="results store (DuckDB; its folder must exist), written in chunks as games finish",
    )  # fmt: skip
    ap.add_argument("--no-db", action="store_true", help="don't write the results store")
    ap.add_argument(
        "--resume", action="store_true",
        help="finish an interrupted batch (same flags): play only the games not in --db",
    )  # fmt: skip
    ap.add_argument(
        "--replays", default=None, metavar="DIR",
        help="write each game's replay into DIR (created if its parent folder exists)",
    )  # fmt: skip
    ap.add_argument(
        "--backend", default="local", choices=["local", "ray"],
        help="local processes, or Ray tasks (pip install -e '.[ray]')",
    )  # fmt: skip
    ap.add_argument(
        "--address", default=None, metavar="ADDR",
        help="with --backend ray: the cluster to join (ray://head:10001, or auto for the "
        "one `ray start` runs here; default: start a local Ray instance)",
    )  # fmt: skip
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_seed_and_workers(ap: argparse.ArgumentParser, seed_help: str) -> None:
    """``--seed`` and ``--workers``, as simulate and compare take them."""
    ap.add_argument("--seed", type=int_arg(0, MAX_SEED), default=0, metavar="S", help=seed_help)
    ap.add_argument(
        "--workers", type=int_arg(1, MAX_WORKERS, "processes"), default=None, metavar="W",
        help=f"worker processes (default: one per core, here {os.cpu_count() or 1}; at most "
        f"{MAX_WORKERS}: each holds its own engine, more than the cores only slow a batch)",
    )  # fmt: skip


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of a batch's games (game k plays from the k-th)."""
    return [s for block in seed_blocks(seed, games, max(1, games)) for s in block]


def seed_blocks(seed: int, games: int, block: int = 4096) -> Iterator[list[int]]:
    """:func:`game_seeds` in blocks of ``block`` games, made as they are needed."""
    ss = np.random.SeedSequence(seed)
    for first in range(0, games, block):
        kids = ss.spawn(min(block, games - first))  # continues where the last block ended
        yield [int(s.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)) for s in kids]


def play_run(cfg: dict[str, Any], first: int, seeds: list[int]) -> tuple[list[dict], float]:
    """Games ``first .. first + len(seeds) - 1`` in the batch's engine: their rows and the
    seconds they took."""
    t0 = time.perf_counter()
    rows = _player(cfg).play(first, seeds)
    return rows, time.perf_counter() - t0


_PLAYERS: dict[str, Any] = {}


def _player(cfg: dict[str, Any]) -> Any:
    """This process's BatchPlayer for the batch (cards compiled and templates made once)."""
    from ecs.batch import BatchPlayer

    key = json.dumps(
        {k: v for k, v in cfg.items() if k != "deck_cards"}, sort_keys=True, default=str
    )
    if key not in _PLAYERS:
        _PLAYERS.clear()
        _PLAYERS[key] = BatchPlayer(cfg)
    return _PLAYERS[key]


# --- running a batch: runs of games out, rows back ------------------------------------

_WORKER_CFG: dict[str, Any] = {}


def _worker_init(cfg: dict[str, Any]) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _WORKER_CFG.clear()
    _WORKER_CFG.update(cfg)


def _worker_run(task: tuple[int, list[int]]) -> tuple[list[dict], float]:
    return play_run(_WORKER_CFG, *task)


def _ray_run(task: tuple[dict[str, Any], int, list[int]]) -> tuple[list[dict], float]:
    return play_run(*task)


class _Runs:
    """Pending games as runs of consecutive games (a resumed batch has gaps), each sized
    to take about ``CHUNK_S`` seconds at the rate measured so far."""

    def __init__(self, jobs: Iterator[tuple[int, int]], start: int, most: int):
        self.jobs = jobs
        self.size, self.most = start, most
        self.peek: tuple[int, int] | None = next(jobs, None)

    def __bool__(self) -> bool:
        return self.peek is not None

    def take(self) -> tuple[int, list[int]]:
        assert self.peek is not None
        first, seed = self.peek
        seeds = [seed]
        self.peek = next(self.jobs, None)
        while (
            self.peek is not None and len(seeds) < self.size and self.peek[0] == first + len(seeds)
        ):
            seeds.append(self.peek[1])
            self.peek = next(self.jobs, None)
        return first, seeds

    def measured(self, games: int, seconds: float) -> None:
        if games and seconds > 0:
            self.size = max(1, min(self.most, int(CHUNK_S * games / seconds)))


def _local_results(
    cfg: dict[str, Any], runs: _Runs, workers: int
) -> Iterator[tuple[list[dict], float]]:
    """Finished runs in order: in this process, or in a pool of ``workers`` processes
    with at most two runs in flight per worker (the pool is terminated on Ctrl-C)."""
    if workers <= 1:
        while runs:
            yield play_run(cfg, *runs.take())
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    pool = ctx.Pool(workers, initializer=_worker_init, initargs=(cfg,))
    finished = False
    try:
        pending: deque = deque()
        while runs or pending:
            while runs and len(pending) < 2 * workers:
                pending.append(pool.apply_async(_worker_run, (runs.take(),)))
            head = pending.popleft()
            while not head.ready():
                head.wait(0.2)  # short waits: Ctrl-C is seen at once
            yield head.get()
        finished = True
    finally:
        if finished:
            pool.close()
        else:  # Ctrl-C or an error: stop the workers now, whatever they are playing
            pool.terminate()
        pool.join()


def _ray_results(cfg: dict[str, Any], runs: _Runs) -> Iterator[tuple[list[dict], float]]:
    from ecs.distributed import ray_map

    def tasks() -> Iterator[tuple[dict, int, list[int]]]:
        while runs:
            yield (cfg, *runs.take())

    yield from ray_map(_ray_run, tasks(), address=cfg.get("address"))


class _Sink:
    """Finished games on their way to the store and the JSON-lines file, in chunks."""

    def __init__(self, store: Any, bid: str | None, out: TextIO | None):
        self.store, self.bid, self.out = store, bid, out
        self.buf: list[dict] = []
        self.stored = 0  # games written (committed, with a store)
        self.last = time.perf_counter()

    def add(self, rows: list[dict]) -> None:
        self.buf += rows
        if len(self.buf) >= FLUSH_ROWS or time.perf_counter() - self.last >= FLUSH_S:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            if self.store is not None:
                self.store.add_rows(self.bid, self.buf)  # committed: these games are kept
            if self.out is not None:
                self.out.write("".join(json.dumps(r) + "\n" for r in self.buf))
                self.out.flush()
            self.stored += len(self.buf)
        self.buf = []
        self.last = time.perf_counter()


def _pending_jobs(seed: int, games: int, store: Any, bid: str | None) -> Iterator[tuple[int, int]]:
    """(game, seed) of the games still to play (with a store: those it doesn't have)."""
    block = 4096
    for k, seeds in enumerate(seed_blocks(seed, games, block)):
        first = k * block
        done = store.done_games(bid, first, first + len(seeds)) if store is not None else ()
        for j, s in enumerate(seeds):
            if first + j not in done:
                yield first + j, s


def run_batch(
    cfg: dict[str, Any],
    progress: bool = True,
    out: TextIO | None = None,
    store: Any = None,
    resume: bool = False,
    keep_rows: bool = True,
    on_row: Callable[[dict], None] | None = None,
) -> tuple[list[dict], float]:
    """Play the batch; finished games go to ``out`` (JSON lines) and ``store`` in chunks,
    and to ``on_row`` one by one. With ``resume``, games already in the store are not
    played again. Returns the rows (empty unless ``keep_rows``) and the wall time.
    Ctrl-C raises :class:`BatchInterrupted` once the finished games are written."""
    bid = store.start_batch(cfg, resume=resume) if store is not None else None
    done = store.count_games(bid) if store is not None and resume else 0
    todo = cfg["games"] - done
    jobs = _pending_jobs(cfg["seed"], cfg["games"], store if resume else None, bid)
    workers = cfg["workers"]
    cfg["engine_load_s"] = round(_load_engine(cfg), 3)
    # the first runs: small, until a rate is measured (a 100-player game takes 0.4 s)
    runs = _Runs(jobs, start=max(1, 128 // cfg["players"]), most=4096)
    rows: list[dict] = []
    sink = _Sink(store, bid, out)
    t0 = time.perf_counter()
    bar = _Progress(todo, enabled=progress)
    try:
        if cfg.get("backend") == "ray":
            results = _ray_results(cfg, runs)
        else:
            results = _local_results(cfg, runs, workers)
        try:
            for got, seconds in results:
                runs.measured(len(got), seconds)
                sink.add(got)
                if keep_rows:
                    rows += got
                if on_row is not None:
                    for r in got:
                        on_row(r)
                bar.advance(len(got))
        finally:
            results.close()  # stops the workers (at once if interrupted)
            sink.flush()
    except KeyboardInterrupt:
        raise BatchInterrupted(sink.stored) from None
    finally:
        bar.close()
    return rows, time.perf_counter() - t0


def _load_engine(cfg: dict[str, Any]) -> float:
    """Load the compiled engine and compile the batch's cards once, before the clock
    starts (forked workers inherit both). The first run after installing or changing
    the engine compiles it (about a minute and a half here), with progress on stderr
    (systems/jit.py); later runs load it from the cache in about a second."""
    t0 = time.perf_counter()
    bp = _player(cfg)
    from systems import entry

    a = bp.template(0).copy()
    from ecs.engine import call

    call(entry.DEAL, a, bp.compiled.arena)
    return time.perf_counter() - t0


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

    def advance(self, k: int = 1) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.advance(self.task, k)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


# --- the summary ----------------------------------------------------------------------


class Tally:
    """The batch summary, counted as rows arrive (memory independent of the games)."""

    def __init__(self, players: int):
        self.players = players
        self.games = self.draws = self.capped = 0
        self.wins: Counter[int] = Counter()
        self.turns: Counter[int] = Counter()
        self.team_wins: Counter[str] | None = None
        self.resumed = 0  # games of a resumed batch stored before this run

    def add_stored(self, r: dict) -> None:
        """A game a resumed batch had stored: in the summary, not in this run's rate."""
        self.add(r)
        self.resumed += 1

    def add(self, r: dict) -> None:
        self.games += 1
        for s in r["winners"]:
            self.wins[s] += 1
        self.draws += bool(r["draw"])
        self.capped += bool(r["capped"])
        self.turns[int(r["turns"])] += 1
        if team_game(r):  # a team variant: wins by team, named as ``melee report`` names them
            if self.team_wins is None:
                self.team_wins = Counter()
            if r["winners"]:  # (the winners are one team's seats)
                self.team_wins[team_labels(r["teams"])[r["teams"][r["winners"][0]]]] += 1

    def turns_mean_median(self) -> tuple[float | None, float | None]:
        n = self.games
        if not n:
            return None, None
        mean = sum(t * c for t, c in self.turns.items()) / n
        lo_rank, hi_rank = (n - 1) // 2, n // 2  # numpy's median: the middle one or two
        seen, lo = 0, None
        for t in sorted(self.turns):
            seen += self.turns[t]
            if lo is None and seen > lo_rank:
                lo = t
            if seen > hi_rank:
                return round(mean, 2), (lo + t) / 2
        raise AssertionError("unreachable")

    def summary(self, wall: float, cfg: dict[str, Any]) -> dict[str, Any]:
        mean, median = self.turns_mean_median()
        out = {
            "variant": cfg["variant"],
            "players": self.players,
            "games": self.games,
            "agents": cfg["agents"],
            "decks": cfg["decks"],
            "seed": cfg["seed"],
            "workers": cfg["workers"],
            "engine_load_s": cfg.get("engine_load_s", 0.0),
            "wall_s": round(wall, 3),
            "games_per_s": round((self.games - self.resumed) / wall, 2) if wall > 0 else None,
            "turns_mean": mean,
            "turns_median": median,
            "wins_by_seat": {str(s): self.wins.get(s, 0) for s in range(self.players)},
            "draws": self.draws,
            "capped": self.capped,
        }
        if self.team_wins is not None:
            out["wins_by_team"] = dict(sorted(self.team_wins.items()))
        if self.resumed:
            out["resumed"] = self.resumed  # (stored before; ``games`` is the whole batch)
        return out


def summarise(rows: Iterable[dict], wall: float, cfg: dict[str, Any]) -> dict[str, Any]:
    """The batch summary of finished game rows (see :class:`Tally`)."""
    t = Tally(cfg["players"])
    for r in rows:
        t.add(r)
    return t.summary(wall, cfg)


# --- the command ----------------------------------------------------------------------


def check_args(args: argparse.Namespace) -> dict[str, Any]:
    """The batch configuration of checked flags; :class:`UsageError` naming the flag
    otherwise. Creates nothing and allocates no game."""
    from ecs.decks import DeckError

    variant = args.variant
    players = args.players or (2 if variant == "two-player" else 4)
    if variant == "two-player" and players != 2:
        raise UsageError(f"--players: two-player games have 2 players, got {players}")
    low = MIN_PLAYERS.get(variant, 2)
    if players < low:
        raise UsageError(f"--players: {variant} needs at least {low} players, got {players}")
    if args.teams is not None and args.teams > players:
        raise UsageError(f"--teams: at most one team per player ({players}), got {args.teams}")
    for flag, value in (("--decks", args.decks), ("--casual", getattr(args, "casual", None))):
        if value is not None and not value.strip(","):
            raise UsageError(f"{flag}: expected a comma-separated list, got {value!r}")
    if args.team_turns and variant not in ("team-vs-team", "two-headed-giant"):
        raise UsageError(
            f"--team-turns: shared team turns are for teams (805.1: team-vs-team; "
            f"two-headed-giant always), not {variant}"
        )
    if args.teams is not None and not VARIANTS[variant].teams:
        raise UsageError(f"--teams: {variant} is not played in teams")
    casual = _check_casual(getattr(args, "casual", None), variant)
    if "supervillain-rumble" in casual and (
        args.range_ is not None or args.attack not in (None, "multiple")
    ):
        raise UsageError(
            "--casual supervillain-rumble: only the attack multiple players option is used "
            "(904.12a): drop --range and --attack"
        )
    commander = bool({"commander", "brawl"} & set(casual))
    commanders: dict[str, list[str]] = {}
    try:
        if args.decks:
            decks = args.decks.split(",")
        elif "brawl" in casual:
            raise UsageError(
                "--casual brawl: there are no stock Brawl decks; give --decks with 60-card "
                "decklists that have a Commander section (903.12)"
            )
        else:
            decks = COMMANDER_DECKS if commander else stock_decks()
        deck_cards = {}
        for d in decks:
            deck = load_deck(d)
            deck_cards[d] = deck.main
            commanders[d] = list(deck.commander)
    except DeckError as e:
        raise UsageError(f"--decks: {e}") from None
    if commander:
        from ecs.cards import load_pool
        from ecs.deck_rules import check_deck

        fmt = "brawl" if "brawl" in casual else "commander"
        for d in decks:
            deck = load_deck(d)
            problems = check_deck(deck, fmt, load_pool())
            if problems:
                raise UsageError(f"--decks {d}: not a legal {fmt} deck: {problems[0]}")
    agents = args.agents.split(",")
    for a in agents:
        if a not in AGENTS:
            raise UsageError(f"--agents: unknown agent {a!r} (expected one of {', '.join(AGENTS)})")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address: only with --backend ray")
    if args.backend == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise UsageError(
                "--backend ray: Ray is not installed (pip install -e '.[ray]', or pip install ray)"
            )
    if args.resume and args.no_db:
        raise UsageError("--resume: needs the results store (drop --no-db)")
    _check_parent("--db", None if args.no_db else args.db)
    _check_parent("--out", args.out)
    _check_parent("--replays", args.replays)
    try:
        options = Options(range_of_influence=args.range_, attack=args.attack,
                          shared_team_turns=args.team_turns or None, teams=args.teams)  # fmt: skip
        check_setup(variant, players, options)
        default_teams(variant, players, args.teams)
    except SetupError as e:
        raise UsageError(f"--variant {variant}: {e}") from None
    return {
        "variant": variant,
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
        "casual": list(casual),
        "commanders": commanders if commander else {},
    }


COMMANDER_DECKS = [
    f"stock/commander-{n}" for n in ("atraxa-praetors-voice", "edgar-markov", "krenko-mob-boss",
                                     "meren-of-clan-nel-toth", "omnath-locus-of-mana",
                                     "talrand-sky-summoner")
]  # fmt: skip
"""The default decks of a Commander or Brawl batch (ecs/data/decks/stock/)."""


def _check_casual(value: str | None, variant: str) -> tuple[str, ...]:
    """``--casual``: the casual variants of a batch, the combinations batches play."""
    from ecs.engine import casual_names

    try:
        casual = casual_names(value)
    except SetupError as e:
        raise UsageError(f"--casual: {e}") from None
    names = set(casual)
    if "conspiracy" in names:
        raise UsageError(
            "--casual conspiracy: Conspiracy games come from a draft: melee draft --play"
        )
    if {"commander", "brawl"} <= names:
        raise UsageError("--casual: commander or brawl, not both (Brawl is a Commander option)")
    if {"archenemy", "supervillain-rumble"} <= names:
        raise UsageError("--casual: archenemy or supervillain-rumble, not both (904.12)")
    if "supervillain-rumble" in names and variant != "free-for-all":
        raise UsageError(
            f"--casual supervillain-rumble: a Free-for-All game (904.12a), not {variant}"
        )
    if "archenemy" in names and variant != "free-for-all":
        raise UsageError(
            f"--casual archenemy: the archenemy's teams are set up by 904.2 (use the default "
            f"--variant free-for-all, got {variant})"
        )
    return casual


def _check_parent(flag: str, path: str | None) -> None:
    """A file or folder to write must be in a folder that exists (nothing is created for it)."""
    if path is None:
        return
    p = Path(path)
    if flag == "--replays" and p.exists() and not p.is_dir():
        raise UsageError(f"{flag} {path}: is a file; expected a folder")
    if flag != "--replays" and p.is_dir():
        raise UsageError(f"{flag} {path}: is a folder; expected a file name")
    if not p.parent.is_dir():
        raise UsageError(f"{flag} {path}: the folder {str(p.parent)!r} does not exist")


def resume_command(argv: list[str] | None = None) -> str:
    """The command line that resumes this batch: the same flags plus ``--resume``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] != ["simulate"]:
        argv = ["simulate", *argv]
    if "--resume" not in argv:
        argv.append("--resume")
    prog = Path(sys.argv[0]).name
    head = "melee" if prog == "melee" else f"{shlex.quote(sys.executable)} -m ecs"
    return f"{head} {shlex.join(argv)}"


def main(args: argparse.Namespace, argv: list[str] | None = None) -> int:
    try:
        cfg = check_args(args)
        if args.backend == "ray":
            from ecs.distributed import RayError, connect

            try:
                connect(args.address)
            except RayError as e:
                raise UsageError(str(e)) from None
    except UsageError as e:
        print(f"melee simulate: error: {e}", file=sys.stderr)
        return 2
    store = None
    if not args.no_db:
        from ecs.results import ResultStore, StoreError

        try:
            store = ResultStore(args.db)
        except StoreError as e:
            print(f"melee simulate: error: --db {e}", file=sys.stderr)
            return 2
    if args.replays:
        Path(args.replays).mkdir(exist_ok=True)
    out = open(args.out, "a" if args.resume else "w") if args.out else None
    tally = Tally(cfg["players"])
    if args.resume and store is not None:  # the summary is of the whole batch
        from ecs.results import batch_id

        for r in store.iter_games(batch_id(cfg)):
            tally.add_stored(r)
    try:
        _, wall = run_batch(
            cfg,
            progress=not args.no_progress and not args.json and sys.stderr.isatty(),
            out=out,
            store=store,
            resume=args.resume,
            keep_rows=False,
            on_row=tally.add,
        )
    except (BatchInterrupted, KeyboardInterrupt) as e:
        games = e.games if isinstance(e, BatchInterrupted) else 0
        kept = f"stored in {args.db}" if store is not None else "not stored (--no-db)"
        print(f"\ninterrupted: {games} finished games {kept}", file=sys.stderr)
        if store is not None:
            print(f"resume with: {resume_command(argv)}", file=sys.stderr)
        return 130
    finally:
        if out is not None:
            out.close()
        if store is not None:
            store.close()
        if args.backend == "ray":
            from ecs.distributed import disconnect

            disconnect()
    summary = tally.summary(wall, cfg)
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
        f"(engine loaded in {s['engine_load_s']} s)"
    )
    if s.get("db"):
        c.print(f"results stored in {s['db']} (melee report {s['db']} --out report/)")
