"""The state view of ../shared/SCENARIOS.md: a plain dict of names and numbers.

``state_view(g)`` is what ``--dump`` prints and what scenario expectations
address with dotted paths. ``state_view(g, viewer=p)`` hides what p may not
see: other players' hands and every library's order (counts stay visible).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ecs.constants import (
    BATTLEFIELD,
    COMMAND,
    COUNTER_KINDS,
    EXILE,
    GRAVEYARD,
    HAND,
    STACK,
    STEP_NAMES,
    ZONE_NAMES,
)

if TYPE_CHECKING:
    from ecs.game import Game


def _active_names(g: Game) -> list[str]:
    """Players taking a turn now: the active player or team, or every holder of a turn
    marker that isn't waiting (807.4)."""
    if g.markers:
        from ecs.legacy.systems.turn_markers import holders_now

        return [g.names[p] for p in holders_now(g)]
    return [g.names[p] for p in g.active_players if g.pl.alive[p]]


def card_refs(g: Game) -> dict[int, str]:
    """Object id -> the reference a scenario uses: its id, its unique name, or NAME#N."""
    o = g.obj
    out: dict[int, str] = {}
    counts: dict[str, int] = {}
    for i in range(o.n):
        if o.card[i] >= 0:
            nm = g.db.defs[o.card[i]].name
            counts[nm] = counts.get(nm, 0) + 1
    for i in range(o.n):
        if o.card[i] >= 0:
            nm = g.db.defs[o.card[i]].name
            out[i] = nm if counts[nm] == 1 else f"{nm}@{i}"
    for ref, i in g.refs.items():
        out[i] = ref
    return out


def _names(g: Game, ids: list[int]) -> list[str]:
    return [g.name_of(i) for i in ids]


def _defender_name(g: Game, i: int, refs: dict[int, str]) -> str | None:
    o = g.obj
    if o.attacking_object[i] >= 0:
        return refs.get(int(o.attacking_object[i]), g.name_of(int(o.attacking_object[i])))
    if o.attacking_player[i] >= 0:
        return g.names[int(o.attacking_player[i])]
    return None


def state_view(g: Game, viewer: int | None = None) -> dict[str, Any]:
    from ecs.legacy.systems.combat import attack_defenders
    from ecs.legacy.systems.continuous_effects import recompute

    recompute(g)
    o, pl = g.obj, g.pl
    n = o.n
    refs = card_refs(g)
    alive = g.alive_players()
    seat_rank = {p: k for k, p in enumerate(sorted(alive, key=lambda q: pl.seat[q]))}
    players: dict[str, Any] = {}
    zone = o.zone[:n]
    for p, name in enumerate(g.names):

        def zone_list(z: int, by: str = "owner", p: int = p) -> list[str]:
            col = o.owner if by == "owner" else o.controller
            ids = np.flatnonzero((zone == z) & (col[:n] == p)).tolist()
            ids.sort(key=lambda i: o.zpos[i])
            return _names(g, ids)

        hidden_hand = viewer is not None and viewer != p
        in_game = bool(pl.alive[p])
        players[name] = {
            "life": int(pl.life[p]),
            "poison": int(pl.poison[p]),
            "in_game": in_game,
            "team": g.team_names[int(pl.team[p])] if g.team_names else None,
            "seat": seat_rank.get(p),
            "range": [g.names[q] for q in alive if g.in_range(p, q)] if in_game else [],
            "attackable": [
                g.names[-1 - c] if c < 0 else refs.get(c, g.name_of(c))
                for c in (attack_defenders(g, p) if in_game else [])
            ],
            "hand": None if hidden_hand else zone_list(HAND),
            "graveyard": zone_list(GRAVEYARD),
            "exile": zone_list(EXILE),
            "command": zone_list(COMMAND),
            "battlefield": zone_list(BATTLEFIELD, "controller"),
            "library": None if viewer is not None else _names(g, list(reversed(g.library[p]))),
            "hand_size": len(g.hand(p)),
            "library_size": len(g.library[p]),
            "max_hand_size": int(pl.max_hand[p]),
            "commander_damage": {},
            "commander_casts": {},
        }
    cards: dict[str, Any] = {}
    for i in range(n):
        if o.card[i] < 0:
            continue
        z = int(zone[i])
        if viewer is not None and z == HAND and o.owner[i] != viewer:
            continue
        if viewer is not None and z == 0:  # library order is hidden
            continue
        att = int(o.attached_to[i])
        cards[refs[i]] = {
            "name": g.name_of(i),
            "zone": ZONE_NAMES[z],
            "owner": g.names[int(o.owner[i])],
            "controller": g.names[int(o.controller[i])]
            if z in (BATTLEFIELD, STACK)
            else g.names[int(o.owner[i])],
            "tapped": bool(o.tapped[i]),
            "damage": int(o.damage[i]),
            "power": int(o.power[i]),
            "toughness": int(o.toughness[i]),
            "counters": {
                k: int(o.counters[i, j]) for j, k in enumerate(COUNTER_KINDS) if o.counters[i, j]
            },
            "attached_to": None if att < 0 else refs.get(att, g.name_of(att)),
            "attacking": _defender_name(g, i, refs) if z == BATTLEFIELD else None,
            "blocking": refs.get(int(o.blocking[i]))
            if o.blocking[i] >= 0 and z == BATTLEFIELD
            else None,
            "face_up": bool(o.face_up[i]),
            "token": bool(o.token[i]),
        }
    teams = {}
    if g.team_names:
        for t, tname in enumerate(g.team_names):
            members = [p for p in range(g.n_players) if pl.team[p] == t]
            if not members:
                continue
            alive_m = [p for p in members if pl.alive[p]] or members
            shared = g.shared_life  # 810.4: one shared total, mirrored on each member
            teams[tname] = {
                "life": int(pl.life[alive_m[0]] if shared else sum(pl.life[p] for p in members)),
                "poison": int(
                    pl.poison[alive_m[0]] if shared else sum(pl.poison[p] for p in members)
                ),
                "in_game": any(pl.alive[p] for p in members),
            }
    stack = [g.name_of(i) for i in reversed(g.stack)]
    stacks = [stack]
    markers = []
    if g.markers:  # 807.4, 807.5: one stack per turn marker, in marker order
        stacks = [
            [g.name_of(i) for i in reversed(g.stack if k == g.cur else m.turn["stack"])]
            for k, m in enumerate(g.markers)
        ]
        stack = [name for st in stacks for name in st]
        markers = [{"number": m.number, "holder": g.names[m.holder]} for m in g.markers]
    return {
        "game": {
            "over": bool(g.over),
            "winners": [g.names[p] for p in g.winners],
            "losers": [g.names[p] for p in g.losers],
            "drawn": [g.names[p] for p in g.drawn],
            "turn": int(g.turn),
            "step": STEP_NAMES[g.step_no],
            "active": _active_names(g),
            "day_night": None,
            "variant": g.variant,
            "pending": None
            if g.pending is None
            else {"kind": g.pending.kind, "player": g.names[g.pending.player]},
        },
        "players": players,
        "teams": teams,
        "cards": cards,
        "stack": stack,
        "stacks": stacks,
        "turn_markers": markers,
        "planes": [],
        "schemes": [],
    }
