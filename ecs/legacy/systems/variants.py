"""Multiplayer variants: default options, seating, teams, first player (806, 808, 809, 811).

A variant is data (:data:`VARIANTS`): its default range of influence and attack
option, whether deploy creatures is on, and whether a player may attack only
opponents seated next to them. The functions below seat generated games and
pick the starting player; the scenario runner seats players in file order.

- Free-for-All (806): random seats, attack multiple by default (806.2b), no deploy.
- Team vs. Team (808): teams sit together (808.2), attack multiple (808.3a),
  the first player is the centre of a random team, or the player left of its
  midpoint (808.4).
- Emperor (809): teams of three or more, the emperor in the middle (809.2),
  ranges 2 and 1 (809.3a) or per 809.6a for larger teams, deploy (809.3b),
  attack only an opponent seated next to you (809.3c), a random emperor goes
  first (809.4), the team wins and loses with its emperor (809.5).
- Alternating Teams (811): seats A1 B1 C1 A2 B2 C2 ... (811.3), range 2
  recommended (811.2a), attack only adjacent opponents (811.4).
- Two-Headed Giant (810): two teams sitting together, shared team turns (805),
  a shared life total of 30 and shared poison (15 to lose), +15 life and +5
  poison for each extra head (810.11); the starting team's primary player goes
  first and the team skips its first draw (810.6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class VariantRules:
    name: str
    teams: bool
    default_range: int | None
    default_attack: str
    deploy: bool
    adjacent_only: bool
    min_players: int = 2
    team_turns: bool = False  # shared team turns (805)
    shared_life: bool = False  # shared life and poison (810.4, 810.10)


VARIANTS: dict[str, VariantRules] = {
    "two-player": VariantRules("two-player", False, None, "multiple", False, False, 2),
    "free-for-all": VariantRules("free-for-all", False, None, "multiple", False, False, 2),
    "team-vs-team": VariantRules("team-vs-team", True, None, "multiple", False, False, 4),
    "emperor": VariantRules("emperor", True, None, "multiple", True, True, 6),
    "alternating-teams": VariantRules("alternating-teams", True, 2, "multiple", False, True, 4),
    "grand-melee": VariantRules("grand-melee", False, 1, "left", False, False, 4),  # 807.2-807.3
    "two-headed-giant": VariantRules(
        "two-headed-giant",
        True,
        None,
        "multiple",
        False,
        False,
        4,
        team_turns=True,
        shared_life=True,
    ),
}


def turn_cap(variant: str, players: int, max_turns: int) -> int:
    """The safety cap on turns (0 = none). In Grand Melee it counts rounds of the table:
    ``max_turns`` turns for each turn marker the game begins with (807.4a)."""
    if variant == "grand-melee":
        return max_turns * max(1, players // 4)
    return max_turns


def starting_life(variant: str, players: int, teams: int = 2) -> int:
    """103.4: 20 life; a Two-Headed Giant team shares 30, plus 15 for each player a team
    has beyond the second (810.4, 810.11)."""
    if variant == "two-headed-giant":
        return 30 + 15 * max(0, players // max(teams, 1) - 2)
    return 20


def poison_limit(variant: str, players: int, teams: int = 2) -> int:
    """704.5c: ten poison counters; a Two-Headed Giant team loses at fifteen, plus five
    for each player beyond the second (810.8d, 810.11)."""
    if variant == "two-headed-giant":
        return 15 + 5 * max(0, players // max(teams, 1) - 2)
    return 10


def default_teams(variant: str, n: int, teams: int | None = None) -> list[int]:
    """Team id of each player for a generated game (players in dealing order)."""
    rules = VARIANTS[variant]
    if not rules.teams:
        return list(range(n))
    k = teams or (n // 3 if variant == "emperor" else 2)
    if k < 2 or n % k:
        raise ValueError(f"{variant}: {n} players can't form {k} equal teams")
    if variant == "emperor" and n // k < 3:
        raise ValueError("emperor: teams need at least three players (809.1)")
    return [p // (n // k) for p in range(n)]


def emperor_index(size: int) -> int:
    """Position of the emperor inside a team seated left to right (809.2, 809.6a example)."""
    return (size - 1) // 2


def seat_players(
    variant: str, team: list[int], rng: np.random.Generator
) -> tuple[np.ndarray, list[str | None]]:
    """Seat positions (clockwise) for each player, and each player's role."""
    n = len(team)
    roles: list[str | None] = [None] * n
    if not VARIANTS[variant].teams:
        seat = rng.permutation(n) if variant != "two-player" else np.arange(n)
        return np.asarray(seat, dtype=np.int64), roles
    teams = sorted(set(team))
    members = {t: [p for p in range(n) if team[p] == t] for t in teams}
    for t in teams:
        rng.shuffle(members[t])  # each team decides its own order (808.2, 809.2)
    order: list[int] = []
    if variant == "alternating-teams":  # 811.3: A1 B1 C1 A2 B2 C2 ...
        size = len(members[teams[0]])
        for k in range(size):
            for t in teams:
                order.append(members[t][k])
    else:  # teams sit together, in a random team order
        for t in rng.permutation(len(teams)):
            order.extend(members[teams[t]])
    if variant == "emperor":
        for t in teams:
            m = members[t]
            roles[m[emperor_index(len(m))]] = "emperor"
            for p in m:
                roles[p] = roles[p] or "general"
    seat = np.zeros(n, dtype=np.int64)
    for pos, p in enumerate(order):
        seat[p] = pos
    return seat, roles


def emperor_ranges(seat: np.ndarray, team: np.ndarray, roles: list[str | None]) -> list[int]:
    """809.6a: the smallest range that reaches one opposing general (generals) or two
    (emperors) at the start of the game; for teams of three this gives 1 and 2 (809.3a)."""
    n = len(team)
    out = []
    for p in range(n):
        need = 2 if roles[p] == "emperor" else 1
        dists = sorted(
            min((seat[q] - seat[p]) % n, (seat[p] - seat[q]) % n)
            for q in range(n)
            if team[q] != team[p] and roles[q] == "general"
        )
        out.append(int(dists[need - 1]) if len(dists) >= need else n // 2)
    return out


def starting_player(
    variant: str,
    seat: np.ndarray,
    team: np.ndarray,
    roles: list[str | None],
    rng: np.random.Generator,
) -> int:
    n = len(team)
    if variant == "emperor":  # 809.4
        emperors = [p for p in range(n) if roles[p] == "emperor"]
        return int(emperors[int(rng.integers(len(emperors)))])
    if variant == "two-headed-giant":  # 805.3: a random team; its primary player (805.2)
        teams = sorted(set(int(t) for t in team))
        t = teams[int(rng.integers(len(teams)))]
        m = sorted(
            (p for p in range(n) if team[p] == t), key=lambda p: _team_order(seat, p, team, n)
        )
        return int(m[0])
    if variant == "team-vs-team":  # 808.4
        teams = sorted(set(int(t) for t in team))
        t = teams[int(rng.integers(len(teams)))]
        m = sorted(
            (p for p in range(n) if team[p] == t), key=lambda p: _team_order(seat, p, team, n)
        )
        return int(m[len(m) // 2])
    return int(rng.integers(n))


def _team_order(seat: np.ndarray, p: int, team: np.ndarray, n: int) -> int:
    """Clockwise position of p within its team's block (handles a block that wraps)."""
    mates = [q for q in range(n) if team[q] == team[p]]
    start = mates[0]
    # the block starts at the member whose right neighbour is not a teammate
    for q in mates:
        if team[_at(seat, (seat[q] - 1) % n)] != team[p]:
            start = q
            break
    return int((seat[p] - seat[start]) % n)


def _at(seat: np.ndarray, pos: int) -> int:
    return int(np.flatnonzero(seat == pos)[0])
