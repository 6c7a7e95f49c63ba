"""Mandatory loops (104.4b, 801.16).

When the game repeats a state through mandatory actions only (every player who
got priority could do nothing but pass), it is in a loop with no way to stop.
In a game without limited range of influence the game is a draw (104.4b);
with it, the game is a draw for each player who controls an object involved
in the loop and for each player within the range of influence of any of them;
they leave and the rest play on (801.16).

The detector records a canonical key of the state (everything but monotonic
counters such as timestamps) at each priority stop with a non-empty stack where
the player could only pass; any real choice clears the record. A repeated key
is a loop. States that grow (a token made each time round) never repeat and
are not detected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ecs.game import Game

COLUMNS = ("card", "zone", "controller", "tapped", "damage", "attached_to", "token")


def loop_key(g: Game) -> bytes:
    o, pl = g.obj, g.pl
    n = o.n
    # cards and tokens still in the game; abilities get fresh rows, so they are keyed
    # by what they are (below), not by their row
    keep = (o.card[:n] >= 0) & (o.zone[:n] != 7)
    parts = [getattr(o, c)[:n][keep].tobytes() for c in COLUMNS]
    parts += [o.counters[:n][keep].tobytes(), pl.life.tobytes(), pl.poison.tobytes()]
    parts.append(pl.alive.tobytes())
    stack = []
    for i in g.stack:
        it = g.items[i]
        stack.append((int(o.card[i]), int(o.card[it.source]) if it.source >= 0 else -1, it.targets))
    # who is passing, and how many have passed in succession: the same spell waiting on
    # successive passes is progress, not a loop
    where = (g.turn, g.step_no, g.active, g.priority_to, g.passes, stack, len(g.triggers))
    parts.append(repr(where).encode())
    return b"|".join(parts)


WARMUP = 32  # pass-only stops in a row before states are recorded (keeps games fast)


def mandatory_stop(g: Game) -> bool:
    """Record a pass-only priority stop; True if it closes a loop (which is then handled).
    States are recorded only after ``WARMUP`` pass-only stops in a row: a loop repeats
    forever, so it is still found, a few rounds later."""
    if not g.stack:
        g.loop_seen.clear()
        g.loop_run = 0
        return False
    g.loop_run += 1
    if g.loop_run < WARMUP:
        return False
    key = loop_key(g)
    if key in g.loop_seen:
        g.loop_seen.clear()
        end_loop(g)
        return True
    g.loop_seen.add(key)
    return False


def choice_made(g: Game) -> None:
    g.loop_run = 0
    if g.loop_seen:
        g.loop_seen.clear()


def end_loop(g: Game) -> None:
    from ecs.legacy.systems.leaving_game import draw_players

    o = g.obj
    involved = set()
    for i in g.stack:
        it = g.items[i]
        involved.add(it.controller)
        if it.source >= 0 and o.card[it.source] >= 0:
            involved.add(int(o.controller[it.source]))
    players = {q for p in involved for q in g.alive_players() if g.in_range(p, q)}  # 801.16
    g.world.emit("loop", sorted(involved))
    draw_players(g, sorted(players))
