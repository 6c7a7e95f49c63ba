"""Grand Melee (807): turn markers, simultaneous turns and one stack per marker.

There is one turn marker for each full four players (807.4a). The starting
player takes marker 1 and every fourth seat to the left the next (807.4b);
all holders take their turns at the same time. Each marker carries its own
turn: its active player, step, priority, combat and stack (807.5). The game's
turn fields (``g.active``, ``g.step_no``, ``g.stack``, ...) always hold the
turn of the marker being advanced; the others wait in their markers.

**The interleaving** (documented, so every run is the same): markers advance
in marker-number order, one step at a time. The marker being advanced runs
its current step to the end (turn-based actions, then priority until every
eligible player passes with its stack empty), putting each decision to the
agent whose turn it is; then the next marker (by number) advances its own
current step, and so on round the table. Triggered abilities go on the stack
of the marker being advanced (807.5b's choice, by default).

Priority for a marker's stack goes only to players within range of its holder
or of the controller of an object on that stack (807.5a), in turn order from
the holder. When a turn ends the holder passes the marker to the left
(807.4c); a player can't begin a turn while another marker is within the three
seats to their left and waits (807.4d). Departures that reduce the number of
markers designate the marker to the departed player's right for removal,
lowest number first, possibly several times (807.4e-g). Extra turns keep the
marker when no other marker is within three seats; otherwise they wait or are
taken just before the player's next turn (807.4i-j).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ecs.game import Game

# the turn state each marker carries (swapped into the game's fields while it advances)
FIELDS = (
    "active",
    "active_players",
    "step_no",
    "todo",
    "passes",
    "priority_to",
    "stack",
    "attack_decl",
    "block_decl",
    "blockers_to_declare",
    "block_order",
    "first_strike_step",
    "declared_attackers",
    "cleanup_again",
    "pending",
    "choice",
    "loop_seen",
    "loop_run",
)


@dataclass
class TurnMarker:
    number: int
    holder: int
    removal: int = 0  # times designated for removal (807.4e-g)
    waiting: bool = True  # the holder can't begin a turn yet (807.4d)
    then_normal: bool = False  # this turn is a delayed extra turn: the normal turn follows
    turn: dict[str, Any] = field(default_factory=dict)  # saved turn fields when not loaded
    entity: int = -1

    def copy(self) -> TurnMarker:
        import copy as _copy

        m = TurnMarker(self.number, self.holder, self.removal, self.waiting, entity=self.entity)
        m.then_normal = self.then_normal
        m.turn = {k: _copy.deepcopy(v) if k != "choice" else v for k, v in self.turn.items()}
        return m


def fresh_turn(holder: int, step: int) -> dict[str, Any]:
    return {
        "active": holder,
        "active_players": [holder],
        "step_no": step,
        "todo": "begin",
        "passes": 0,
        "priority_to": holder,
        "stack": [],
        "attack_decl": {},
        "block_decl": {},
        "blockers_to_declare": [],
        "block_order": {},
        "first_strike_step": False,
        "declared_attackers": False,
        "cleanup_again": False,
        "pending": None,
        "choice": None,
        "loop_seen": set(),
        "loop_run": 0,
    }


def save(g: Game) -> None:
    m = g.markers[g.cur]
    m.turn = {k: getattr(g, k) for k in FIELDS}


def load(g: Game, k: int) -> None:
    g.cur = k
    for f, v in g.markers[k].turn.items():
        setattr(g, f, v)


def marker_count(g: Game) -> int:
    """807.4a: one turn marker for each full four players."""
    return max(1, int(g.pl.alive.sum()) // 4)


def setup(g: Game, holders: list[int], step: int) -> None:
    """807.4b: markers 1, 2, ... to the given holders; their turns begin together."""
    from ecs.legacy.components.stack import TurnMarkerTag

    g.markers = []
    for k, h in enumerate(holders):
        m = TurnMarker(k + 1, h, waiting=False, turn=fresh_turn(h, step))
        m.entity = g.world.create(TurnMarkerTag(k + 1))
        g.markers.append(m)
    g.cur = 0
    load(g, 0)


def starting_holders(g: Game, start: int) -> list[int]:
    order = g.turn_order_from(start)
    return [order[4 * k] for k in range(marker_count(g)) if 4 * k < len(order)]


def seats_left(g: Game, p: int, k: int) -> list[int]:
    """The k players (still in the game) seated to p's left, nearest first."""
    order = g.turn_order_from(p)
    return order[1 : k + 1]


def seats_right(g: Game, p: int, k: int) -> list[int]:
    order = g.turn_order_from(p)
    return list(reversed(order[1:]))[:k]


def eligible(g: Game, q: int) -> bool:
    """807.5a: priority for this marker's stack only if its holder, or the controller of
    an object on the stack, is within q's range of influence."""
    if not g.pl.alive[q]:
        return False
    if g.in_range(q, g.active) or (not g.pl.alive[g.active] and g.range_mask[q, g.active]):
        return True
    o = g.obj
    for i in g.stack:
        it = g.items.get(i)
        ctl = it.controller if it is not None else int(o.controller[i])
        if g.in_range(q, ctl):
            return True
    return False


def holders_now(g: Game) -> list[int]:
    """Players taking a turn now (807.4): holders of markers that aren't waiting."""
    return [m.holder for m in g.markers if not m.waiting and g.pl.alive[m.holder]]


def run(g: Game) -> None:
    """Advance the simultaneous turns until an agent must decide (the interleaving above)."""
    from ecs.legacy.systems.turn_structure import (
        BEGIN,
        PRIORITY,
        begin_step,
        end_step,
        offer_priority,
    )

    guard = 0
    while not g.over and g.pending is None:
        guard += 1
        if guard > 100_000:
            raise RuntimeError("grand melee: no progress")
        m = g.markers[g.cur]
        if m.waiting:
            _rotate(g)
            continue
        if g.todo == PRIORITY:
            offer_priority(g)
        elif g.todo == BEGIN:
            begin_step(g)
        else:
            end_step(g)
            if g.pending is None and not g.over:
                _rotate(g)  # this marker's step is over: the next marker advances its step


def _rotate(g: Game) -> None:
    if len(g.markers) <= 1:
        if g.markers and g.markers[0].waiting:
            _wake(g)
        return
    save(g)
    k = (g.cur + 1) % len(g.markers)
    if all(m.waiting for m in g.markers):
        _wake(g)
    load(g, k)


def end_turn(g: Game) -> None:
    """The loaded marker's turn ended (after cleanup): remove, keep or pass it (807.4c, g, i)."""
    from ecs.legacy.systems.turn_structure import start_turn

    m = g.markers[g.cur]
    h = m.holder
    if g.max_turns and g.turn >= g.turn_cap():
        from ecs.legacy.systems.leaving_game import draw_players

        draw_players(g, g.alive_players())  # the safety cap counts rounds of every marker
        return
    if m.then_normal:  # 807.4i-j: the delayed extra turn is over; the normal turn follows
        m.then_normal = False
        if m.removal == 0 and g.pl.alive[h]:
            start_turn(g, h)
            return
    if m.removal > 0:  # 807.4g
        if h in g.extra_turns:  # 807.4j: no marker for it now: before the next turn instead
            g.extra_turns.remove(h)
            g.deferred_extra[h] = g.deferred_extra.get(h, 0) + 1
        k = g.cur
        _remove(g, k)
        if g.markers:  # keep marker-number order: the next marker advances next
            nxt = g.markers[k % len(g.markers)].number
            _remove_waiting_designated(g)  # (designations it passed on)
            j = next((j for j, x in enumerate(g.markers) if x.number >= nxt), 0)
            if g.markers:
                load(g, (j - 1) % len(g.markers))
        _wake(g)
        return
    extra = h in g.extra_turns and g.pl.alive[h]
    if extra:
        g.extra_turns.remove(h)
        left_busy = any(x.holder in seats_left(g, h, 3) for x in g.markers if x is not m)
        right_busy = any(x.holder in seats_right(g, h, 3) for x in g.markers if x is not m)
        if right_busy:  # 807.4i: pass it on; the extra turn comes just before the next one
            g.deferred_extra[h] = g.deferred_extra.get(h, 0) + 1
        else:  # keep the marker (and wait if another is within three seats to the left)
            m.waiting = left_busy
            if not m.waiting:
                start_turn(g, h)
            _wake(g)
            return
    nxt = g.next_in_turn_order(h)  # 807.4c: pass it to the left
    m.holder = nxt
    m.waiting = _must_wait(g, m)
    if not m.waiting:
        _begin(g, m)
    _wake(g)  # a marker that moved may free one waiting behind it (807.4d)


def _begin(g: Game, m: TurnMarker) -> None:
    from ecs.legacy.systems.turn_structure import start_turn

    h = m.holder
    if g.deferred_extra.get(h):  # 807.4i-j: the extra turn comes first, then the normal one
        g.deferred_extra[h] -= 1
        m.then_normal = True
    start_turn(g, h)


def _must_wait(g: Game, m: TurnMarker) -> bool:
    """807.4d: not while another marker is within the three seats to the holder's left."""
    near = seats_left(g, m.holder, 3)
    return any(x is not m and x.holder in near for x in g.markers)


def _wake(g: Game) -> None:
    """Markers waiting under 807.4d begin when no marker is close on their left."""
    for k, m in enumerate(g.markers):
        if m.waiting and not _must_wait(g, m):
            m.waiting = False
            if k == g.cur:
                _begin(g, m)
            else:
                save(g)
                cur = g.cur
                load(g, k)
                _begin(g, m)
                save(g)
                load(g, cur)


def _remove(g: Game, k: int) -> None:
    m = g.markers[k]
    extra = m.removal - 1
    if m.entity >= 0 and g.world.exists(m.entity):
        g.world.delete(m.entity)
    right = _marker_to_right(g, m.holder, exclude=m)
    del g.markers[k]
    if extra > 0 and right is not None:
        right.removal += extra  # 807.4g: the marker to its right, that many times minus one
    if not g.markers:
        return
    g.cur = k % len(g.markers)
    load(g, g.cur)


def _remove_waiting_designated(g: Game) -> None:
    """807.4g: a designated marker whose holder isn't taking a turn (waiting) is removed
    at once, also one that a removal has just designated (highest index first)."""
    while True:
        ks = [k for k, m in enumerate(g.markers) if m.removal > 0 and m.waiting]
        if not ks:
            return
        g.cur = ks[-1]
        _remove(g, ks[-1])


def _marker_to_right(g: Game, p: int, exclude: TurnMarker | None = None) -> TurnMarker | None:
    """The turn marker nearest to p's right (p's own marker last)."""
    n = g.n_players
    seat = int(g.pl.seat[p])
    by_seat = {int(g.pl.seat[m.holder]): m for m in g.markers if m is not exclude}
    for d in [*range(1, n), 0]:
        m = by_seat.get((seat - d) % n)
        if m is not None:
            return m
    return None


def players_left(g: Game, ps: list[int]) -> None:
    """807.4c, 807.4e-g: markers of departed players, and markers designated for removal."""
    if not g.markers:
        return
    save(g)
    loaded = g.markers[g.cur]
    for m in g.markers:  # what left the game is no longer on any marker's stack
        st = m.turn["stack"]
        st[:] = [i for i in st if g.obj.zone[i] == 5]
    # 807.4e-f: departures that reduce the number of markers designate markers for removal,
    # the one immediately to a departed player's right, lowest number first
    excess = sum(1 for m in g.markers if m.removal == 0) - marker_count(g)
    while excess > 0:
        cands = [m for m in (_marker_to_right(g, p) for p in ps) if m is not None]
        undesignated = [m for m in cands if m.removal == 0] or cands
        if not undesignated:
            break
        min(undesignated, key=lambda m: m.number).removal += 1
        excess -= 1
    _remove_waiting_designated(g)  # 807.4g
    for m in g.markers:  # 807.4c: a holder who left before their turn began
        if m.waiting and not g.pl.alive[m.holder]:
            m.holder = g.next_in_turn_order(m.holder)
            m.waiting = _must_wait(g, m)
    k = next((k for k, m in enumerate(g.markers) if m is loaded), 0)
    if g.markers:
        load(g, k)
        _wake(g)
