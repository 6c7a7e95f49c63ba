"""Statistics shared by ``melee report`` and ``melee compare``.

- :func:`wilson` — Wilson score interval for a binomial proportion.
- :func:`rate` — a count out of a total with its rate and 95% interval.
- :func:`distribution` — mean, median, p10/p90, min/max of a list of numbers.
- :func:`game_stats` — everything the reports show about a group of game rows
  (rows as written by ``melee simulate``; seats count clockwise from the
  starting player, seat 0 took the first turn): win rates by seat, deck, agent,
  role and team.
- :func:`team_labels` — the one way teams are named ("team of seat S").

Pure functions over plain Python data; no plotting, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

#: two-sided 95% normal quantile
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval ``(low, high)`` for ``successes`` out of ``trials``.

    With no trials nothing is known: ``(0.0, 1.0)``.
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"wilson: need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def rate(count: int, total: int, z: float = Z95) -> dict[str, float | int | None]:
    """``{"count", "total", "rate", "ci_low", "ci_high"}``; ``rate`` is None when total is 0."""
    lo, hi = wilson(count, total, z)
    return {
        "count": count,
        "total": total,
        "rate": count / total if total else None,
        "ci_low": lo,
        "ci_high": hi,
    }


def distribution(values: Iterable[float]) -> dict[str, float | int | None]:
    """``{"n", "mean", "median", "p10", "p90", "min", "max"}`` (linear-interpolated
    percentiles, as numpy's default); all None but ``n`` for no values."""
    xs = sorted(float(v) for v in values)
    n = len(xs)
    if not n:
        return dict.fromkeys(("mean", "median", "p10", "p90", "min", "max"), None) | {"n": 0}
    return {
        "n": n,
        "mean": sum(xs) / n,
        "median": percentile(xs, 50),
        "p10": percentile(xs, 10),
        "p90": percentile(xs, 90),
        "min": xs[0],
        "max": xs[-1],
    }


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of already sorted values, linear interpolation."""
    if not sorted_values:
        raise ValueError("percentile of no values")
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def team_labels(teams: Sequence[int]) -> dict[int, str]:
    """Readable team names for one game: each team is named by the lowest seat it holds,
    ``"team of seat S"`` (seats count clockwise from the starting player, so "team of
    seat 0" is the team that took the first turn). ``melee simulate`` and ``melee
    report`` both name teams this way; engine team ids vary from game to game."""
    out: dict[int, str] = {}
    for seat, t in enumerate(teams):
        out.setdefault(t, f"team of seat {seat}")
    return out


def team_game(row: dict[str, Any]) -> bool:
    """Whether a game row is a team game (some seats share a team)."""
    teams = row.get("teams")
    return bool(teams) and len(set(teams)) < len(teams)


def game_stats(rows: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Summary of games with ``players`` seats each.

    ``seats``: per seat, wins out of games with rate and 95% Wilson interval;
    ``draws`` (games without a winner) and ``capped`` likewise; ``turns``: the
    game-length :func:`distribution`. ``by_deck``, ``by_agent`` and ``by_role``: per
    deck, agent and role (emperor, general; empty without roles), wins out of the
    seats it played (a deck at two seats of a game counts twice), sorted by name. For team
    games also ``teams`` (per team named by :func:`team_labels`, games that team won)
    and ``first_team`` (the team of seat 0, the starting player); None otherwise.
    ``ends``: how the games ended for the seats that didn't win (the ``how`` of each
    such seat: combat, life, poison, decking, commander-damage, conceded, effect, draw,
    team...), counts and shares, most common first; ``[]`` for rows without it.
    """
    n = len(rows)
    wins = [0] * players
    for r in rows:
        for s in r["winners"]:
            wins[s] += 1
    out: dict[str, Any] = {
        "games": n,
        "seats": [dict(rate(wins[s], n), seat=s) for s in range(players)],
        "draws": rate(sum(1 for r in rows if r["draw"]), n),
        "capped": rate(sum(1 for r in rows if r.get("capped")), n),
        "turns": distribution(r["turns"] for r in rows),
        "by_deck": by_seat_value(rows, "decks"),
        "by_agent": by_seat_value(rows, "agents"),
        "by_role": by_seat_value(rows, "roles"),
        "teams": None,
        "first_team": None,
        "ends": game_ends(rows),
    }
    if rows and all(team_game(r) for r in rows):
        team_wins: dict[str, int] = {}
        first = 0
        for r in rows:
            labels = team_labels(r["teams"])
            for label in labels.values():
                team_wins.setdefault(label, 0)
            won = {r["teams"][s] for s in r["winners"]}
            for t in won:
                team_wins[labels[t]] += 1
            first += r["teams"][0] in won
        ordered = sorted(team_wins, key=lambda label: int(label.rsplit(" ", 1)[1]))
        out["teams"] = [dict(rate(team_wins[t], n), team=t) for t in ordered]
        out["first_team"] = rate(first, n)
    return out


def game_ends(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """How the games ended for the seats that didn't win (their ``how``)."""
    seen: dict[str, int] = {}
    for r in rows:
        winners = set(r["winners"])
        for seat, how in enumerate(r.get("how") or []):
            if how is not None and seat not in winners and how != "won":
                seen[how] = seen.get(how, 0) + 1
    total = sum(seen.values())
    order = sorted(seen, key=lambda h: (-seen[h], h))
    return [dict(rate(seen[h], total), how=h) for h in order]


def by_seat_value(rows: Sequence[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """Win rate of each value of a per-seat list (``decks``, ``agents``, ``roles``): the
    seats holding it that won, out of the seats holding it; ``[]`` if no row has it."""
    won: dict[str, int] = {}
    seen: dict[str, int] = {}
    for r in rows:
        values = r.get(key)
        if not values:
            continue
        winners = set(r["winners"])
        for seat, v in enumerate(values):
            if v is None:
                continue
            seen[v] = seen.get(v, 0) + 1
            won[v] = won.get(v, 0) + (seat in winners)
    return [dict(rate(won[v], seen[v]), name=v) for v in sorted(seen)]
