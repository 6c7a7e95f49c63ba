"""The state view of ../shared/SCENARIOS.md: a plain dict of names and numbers, read
from a game's arena.

``state_view(g)`` is what ``melee scenario --dump`` prints and what scenario
expectations address with dotted paths. ``state_view(g, viewer=p)`` hides what p may
not see: other players' hands, every library's order and face-down cards (counts stay
visible)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from components import cards as K
from components import game as G
from components import objects as O
from components import players as PL
from components.decisions import PEND_NAMES
from components.markers import K_HOLDER, K_NSTK, K_NUMBER, K_STACK, K_WAITING
from components.rules import (
    BATTLEFIELD,
    COMMAND,
    COUNTER_NAMES,
    EXILE,
    GONE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    MANA_LETTERS,
    STACK,
    STEP_NAMES,
    T_CONSPIRACY,
    T_PHENOMENON,
    T_PLANE,
    T_SCHEME,
    ZONE_NAMES,
)
from components.stack import I_PLANESWALKING, I_SPELL

if TYPE_CHECKING:
    from ecs.engine import Game

# the view's name for a pending decision (what scenarios may look at)
PENDING_KIND = {
    "priority": "priority", "attack": "attack", "block": "block", "discard": "discard",
    "mulligan": "mulligan", "bottom": "bottom", "none": None,
}  # fmt: skip


def display_name(g: Game, i: int, face: bool = True) -> str:
    """A card's name; a token's name per 111.4 (its subtypes and the word Token). With
    ``face``: the name it shows: a transformed card's back face (712.8), a merged
    permanent's topmost component (727.2a)."""
    o = g.v.o
    if face and o[i, O.F_TOP] > 0:
        i = int(o[i, O.F_TOP]) - 1
    c = int(o[i, O.F_CARD])
    if face and o[i, O.F_TRANSFORMED] and c >= 0:
        back = int(g.compiled.tables.rows["ct"][c][K.C_BACK])
        if back >= 0:
            c = back
    name = g.compiled.name_of(c)
    if o[i, O.F_COPY]:
        return name  # 707.2: a copy has the name of what it copies
    if g.v.o[i, O.F_TOKEN] == 1 and name.endswith(" Token"):
        return name  # (a token described inline is already named by 111.4)
    if g.v.o[i, O.F_TOKEN] == 1:
        card = g.compiled.db.cards.get(name)
        rec = card.record if card else {}
        subs = rec.get("subtypes") or []
        return (" ".join(subs) if subs else name) + " Token"
    return name


def item_name(g: Game, i: int) -> str:
    """What the stack shows: a spell's name, "ability of NAME", the planeswalking ability."""
    o = g.v.o
    kind = int(o[i, O.F_IKIND])
    if kind == I_SPELL and o[i, O.F_SRC] < 0:
        return display_name(g, i)
    if kind == I_PLANESWALKING:
        return "planeswalking ability"
    src = int(o[i, O.F_SRC])
    return f"ability of {display_name(g, src) if src >= 0 else display_name(g, i)}"


def _label(g: Game, refs: dict[int, str], i: int) -> str:
    return refs.get(i) or display_name(g, i)


def state_view(
    g: Game, viewer: int | None = None, refs: dict[int, str] | None = None
) -> dict[str, Any]:
    """The view of game g: the main game's, with ``game.subgame`` the view of the
    subgame being played (726), nested as deep as they go (``game.depth`` 0, 1, ...).
    A subgame's cards are named as the game above names the cards they came from."""
    levels = [g.level(d) for d in range(g.depth + 1)] if hasattr(g, "level") else [g]
    views = []
    r = dict(refs or {})
    for d, lv in enumerate(levels):
        if d > 0:  # the subgame's cards: as the game above names them
            o = lv.v.o
            n = int(lv.v.s[G.S_N])
            r = {j: r[int(o[j, O.F_ORIGIN]) - 1] for j in range(n)
                 if o[j, O.F_ORIGIN] > 0 and not o[j, O.F_OUTSIDE]
                 and int(o[j, O.F_ORIGIN]) - 1 in r}  # fmt: skip
        view, r = _level_view(lv, viewer, r, d)
        views.append(view)
    for d in range(len(views) - 1, 0, -1):
        views[d - 1]["game"]["subgame"] = views[d]
    return views[0]


def _level_view(
    g: Any, viewer: int | None, refs: dict[int, str], depth: int
) -> tuple[dict[str, Any], dict[int, str]]:
    v = g.v
    s, o, pl = v.s, v.o, v.pl
    n = int(s[G.S_N])
    P = len(g.names)
    refs = dict(refs or {})
    _default_refs(g, refs, n)
    alive = [p for p in range(P) if pl[p, PL.P_ALIVE]]
    seat_rank = {p: k for k, p in enumerate(sorted(alive, key=lambda q: pl[q, PL.P_SEATPOS]))}
    by_zone: dict[tuple[int, int], list[int]] = {}
    for i in range(n):
        z = int(o[i, O.F_ZONE])
        who = int(o[i, O.F_CTL]) if z == BATTLEFIELD else int(o[i, O.F_OWNER])
        by_zone.setdefault((z, who), []).append(i)
    team_names = getattr(g, "team_names", None)
    monarch_obj = int(s[G.S_MONARCH_OBJ]) - 1  # the monarch designation (724): not a card
    players: dict[str, Any] = {}
    for p, name in enumerate(g.names):
        in_game = bool(pl[p, PL.P_ALIVE])
        pool = int(pl[p, PL.P_LIFEPOOL])
        hidden = viewer is not None and viewer != p and not _revealed(g, p)

        def names_in(z: int, p: int = p) -> list[str]:
            return [display_name(g, i) for i in by_zone.get((z, p), [])]

        lib = [int(x) for x in v.lib[p, : int(pl[p, PL.P_LIBN])]][::-1]
        cmd_ids = [
            i
            for i in by_zone.get((COMMAND, p), [])
            if i != monarch_obj and o[i, O.F_TOKEN] != O.TOKEN_LASTING
        ]  # (an effect, not an object seen)
        commanders = [int(pl[p, PL.P_CMD + k]) for k in range(2) if pl[p, PL.P_CMD + k] >= 0]
        players[name] = {
            "life": int(pl[pool, PL.P_LIFE]),
            "poison": int(pl[pool, PL.P_POISON]),
            "in_game": in_game,
            "team": (team_names[int(pl[p, PL.P_TEAM])] if team_names else None),
            "seat": seat_rank.get(p),
            "range": [g.names[q] for q in alive if v.rm[0, p, q]] if in_game else [],
            "attackable": _attackable(g, p, refs) if in_game else [],
            "hand": None if hidden else names_in(HAND),
            "graveyard": names_in(GRAVEYARD),
            "exile": names_in(EXILE),
            "command": [_hidden_name(g, i, viewer) for i in cmd_ids if not _deck_card(g, i)],
            "battlefield": names_in(BATTLEFIELD),
            "library": None if viewer is not None else [display_name(g, i) for i in lib],
            "hand_size": int(pl[p, PL.P_HANDN]),
            "library_size": int(pl[p, PL.P_LIBN]),
            "max_hand_size": int(pl[p, PL.P_MAXHAND]),
            "mana": {c: int(pl[p, PL.P_MANA + k]) for k, c in enumerate(MANA_LETTERS)},
            "counters": {
                k: int(pl[p, PL.P_CTR + j])
                for j, k in enumerate(COUNTER_NAMES)
                if pl[p, PL.P_CTR + j]
            },
            "commanders": [display_name(g, i) for i in commanders],
            "commander_damage": _commander_damage(g, p, refs),
            "commander_casts": {
                _label(g, refs, i): int(pl[p, PL.P_CMDCAST + k]) for k, i in enumerate(commanders)
            },
            "commander_tax": {
                _label(g, refs, i): 2 * int(pl[p, PL.P_CMDCAST + k])
                for k, i in enumerate(commanders)
            },
            "color_identity": [c for k, c in enumerate("WUBRG") if pl[p, PL.P_IDENTITY] >> k & 1],
            "vanguard": display_name(g, int(pl[p, PL.P_VANGUARD]))
            if pl[p, PL.P_VANGUARD] >= 0
            else None,
            "planar_library": [
                display_name(g, int(x)) for x in v.pdeck[p, : int(pl[p, PL.P_PDECKN])][::-1]
            ],
            "scheme_library": [
                display_name(g, int(x)) for x in v.sdeck[p, : int(pl[p, PL.P_SDECKN])][::-1]
            ],
            "ongoing_schemes": [
                display_name(g, i)
                for i in cmd_ids
                if _is(g, i, T_SCHEME) and not o[i, O.F_FACE_DOWN] and _ongoing(g, i)
            ],
            "conspiracies": [
                _hidden_name(g, i, viewer) for i in cmd_ids if _is(g, i, T_CONSPIRACY)
            ],
            "monarch": bool(pl[p, PL.P_MONARCH]),
            "planar_rolls": int(pl[p, PL.P_PLANAR_ROLLS]),
        }
    cards: dict[str, Any] = {}
    for i in range(n):
        if (
            o[i, O.F_CARD] < 0
            or o[i, O.F_IKIND] > 0
            or (o[i, O.F_SRC] >= 0 and o[i, O.F_ZONE] == STACK)
        ):
            continue
        if o[i, O.F_OUTSIDE] or copy_part(g, i):
            continue  # (a card of the game above: outside this subgame, 726.4)
        me = i
        if o[i, O.F_ZONE] == GONE and o[i, O.F_MERGED_IN] >= 0:
            i = int(o[i, O.F_MERGED_IN])  # a component of a merged permanent: read it (727)
        z = int(o[i, O.F_ZONE])
        if viewer is not None and ((z == HAND and o[i, O.F_OWNER] != viewer) or z == LIBRARY):
            continue
        if i == monarch_obj or _hidden_name(g, i, viewer) != display_name(g, i):
            continue  # (the monarch designation; another player's face-down conspiracy)
        att = int(o[i, O.F_ATT])
        ctl = int(o[i, O.F_CTL]) if z in (BATTLEFIELD, COMMAND) else (
            int(o[i, O.F_ICTL]) if z == STACK else int(o[i, O.F_OWNER]))  # fmt: skip
        merged = merged_names(g, i) if z == BATTLEFIELD else [display_name(g, me)]
        cards[_label(g, refs, me)] = {
            "name": display_name(g, i),
            "zone": ZONE_NAMES[z] if z < len(ZONE_NAMES) else "gone",
            "owner": g.names[int(o[i, O.F_OWNER])],
            "controller": g.names[ctl] if 0 <= ctl < P else None,
            "tapped": bool(o[i, O.F_TAPPED]),
            "damage": int(o[i, O.F_DMG]),
            "power": int(o[i, O.F_POW]),
            "toughness": int(o[i, O.F_TOU]),
            "colors": [c for k, c in enumerate("WUBRG") if o[i, O.F_COLORS] >> k & 1],
            "counters": {
                k: int(o[i, O.F_CTR + j]) for j, k in enumerate(COUNTER_NAMES) if o[i, O.F_CTR + j]
            },
            "attached_to": None if att < 0 else _label(g, refs, att),
            "attacking": _defender(g, i, refs) if z == BATTLEFIELD else None,
            "blocking": _label(g, refs, int(o[i, O.F_BLOCKING]))
            if o[i, O.F_BLOCKING] >= 0 and z == BATTLEFIELD
            else None,
            "face_up": not bool(o[i, O.F_FACE_DOWN]),
            "token": bool(o[int(o[i, O.F_TOP]) - 1 if o[i, O.F_TOP] > 0 else i, O.F_TOKEN] == 1),
            "merged": merged,
            "named": _named(g, i),
            "transformed": bool(o[i, O.F_TRANSFORMED]),
        }
    _aliases(g, cards, refs, n)
    teams = {}
    if team_names:
        for t, tname in enumerate(team_names):
            members = [p for p in range(P) if pl[p, PL.P_TEAM] == t]
            if not members:
                continue
            pools = sorted({int(pl[p, PL.P_LIFEPOOL]) for p in members})
            teams[tname] = {
                "life": int(sum(pl[q, PL.P_LIFE] for q in pools)),
                "poison": int(sum(pl[q, PL.P_POISON] for q in pools)),
                "in_game": any(pl[p, PL.P_ALIVE] for p in members),
            }
    nmark = int(s[G.S_NMARK])
    stack = [item_name(g, int(i)) for i in v.stk[: int(s[G.S_NSTK])][::-1]]
    stacks = [stack]
    markers = []
    if nmark:  # 807.5: one stack per marker, in marker order
        stacks = []
        for k in range(nmark):
            if k == s[G.S_CUR]:
                stacks.append(stack)
            else:
                row = v.mk[k]
                ids = row[K_STACK : K_STACK + int(row[K_NSTK])]
                stacks.append([item_name(g, int(i)) for i in ids[::-1]])
        markers = [
            {"number": int(v.mk[k, K_NUMBER]), "holder": g.names[int(v.mk[k, K_HOLDER])]}
            for k in range(nmark)
        ]
        stack = [x for st in stacks for x in st]
    pend = PEND_NAMES[int(s[G.S_PEND])]
    step = int(s[G.S_STEP])
    planes = [display_name(g, int(i)) for i in v.cz[: int(s[G.S_NCZ])]
              if (_is(g, int(i), T_PLANE) or _is(g, int(i), T_PHENOMENON)) and not o[int(i), O.F_FACE_DOWN]
              and not _deck_card(g, int(i))]  # fmt: skip
    schemes = [display_name(g, int(i)) for i in v.cz[: int(s[G.S_NCZ])]
               if _is(g, int(i), T_SCHEME) and not o[int(i), O.F_FACE_DOWN] and not _deck_card(g, int(i))]  # fmt: skip
    dn = int(s[G.S_DAY_NIGHT])
    return {
        "game": {
            "over": bool(s[G.S_OVER]),
            "winners": [g.names[p] for p in g.winners],
            "losers": [g.names[p] for p in g.losers],
            "drawn": [g.names[p] for p in g.drawn],
            "turn": int(s[G.S_TURN]),
            "step": STEP_NAMES[step] if 0 <= step < len(STEP_NAMES) else "pregame",
            "active": _active(g),
            "day_night": (None, "day", "night")[dn],
            "planar_controller": g.names[int(s[G.S_PLANAR_CTL])]
            if s[G.S_PLANAR_CTL] >= 0
            else None,
            "planar_library": [
                display_name(g, int(x)) for x in v.cdeck[: int(s[G.S_NCOMMUNAL])][::-1]
            ],
            "monarch": g.names[int(s[G.S_MONARCH])] if s[G.S_MONARCH] >= 0 else None,
            "subgame": None,
            "depth": depth,
            "variant": g.variant_name,
            "pending": None
            if pend == "none"
            else {"kind": PENDING_KIND.get(pend, "choose"), "player": g.names[int(s[G.S_PPLAYER])]},
        },
        "players": players,
        "teams": teams,
        "cards": cards,
        "stack": stack,
        "stacks": stacks,
        "turn_markers": markers,
        "planes": planes,
        "schemes": schemes,
    }, refs


def _aliases(g: Game, cards: dict[str, Any], refs: dict[int, str], n: int) -> None:
    """A card the file gave an id can also be read by its name when that name is unique
    among the cards the file set up (the parts of a merged permanent, say)."""
    o = g.v.o
    created = getattr(g, "created_from", n)
    counts: dict[str, int] = {}
    for i in range(min(n, created)):
        if o[i, O.F_CARD] >= 0 and o[i, O.F_IKIND] == 0:
            nm = display_name(g, i, face=False)
            counts[nm] = counts.get(nm, 0) + 1
    for i in range(min(n, created)):
        label = refs.get(i)
        if label is None or label not in cards or o[i, O.F_CARD] < 0:
            continue
        nm = display_name(g, i, face=False)
        if nm != label and counts.get(nm) == 1 and nm not in cards:
            cards[nm] = cards[label]


def copy_part(g: Any, i: int) -> bool:
    """Is object i a part of a token copy of a merged permanent (not an object of its own)?"""
    o = g.v.o
    return bool(o[i, O.F_COPY]) and o[i, O.F_MERGED_IN] >= 0 and o[i, O.F_ZONE] == GONE


def merged_names(g: Game, i: int) -> list[str]:
    """727: the names of the cards (or tokens) permanent i is made of, top first (each
    with its own face up); one card: [its name]. A token copy is one token (707.2)."""
    o = g.v.o
    if o[i, O.F_COPY]:
        return [display_name(g, i)]
    j = int(o[i, O.F_TOP]) - 1 if o[i, O.F_TOP] > 0 else i
    out = []
    while j >= 0:
        nm = display_name(g, j, face=False)
        c = int(o[j, O.F_CARD])
        if o[j, O.F_TRANSFORMED] and c >= 0:
            back = int(g.compiled.tables.rows["ct"][c][K.C_BACK])
            if back >= 0:
                nm = g.compiled.name_of(back)
        out.append(nm)
        j = int(o[j, O.F_MERGED])
    return out


def _default_refs(g: Game, refs: dict[int, str], n: int) -> None:
    """Object -> how a scenario names it: its id, its name when unique (cards that
    existed at the start), NAME#N for the N-th created object of that name."""
    o = g.v.o
    counts: dict[str, int] = {}
    for i in range(n):
        if o[i, O.F_CARD] >= 0 and o[i, O.F_IKIND] == 0 and not (o[i, O.F_SRC] >= 0):
            counts[display_name(g, i, face=False)] = (
                counts.get(display_name(g, i, face=False), 0) + 1
            )
    created = getattr(g, "created_from", n)
    seen: dict[str, int] = {}
    for i in range(n):
        if i in refs or o[i, O.F_CARD] < 0 or copy_part(g, i):
            continue
        nm = display_name(g, i, face=False)
        if i >= created:
            seen[nm] = seen.get(nm, 0) + 1
            refs[i] = f"{nm}#{seen[nm]}"
        elif counts.get(nm, 0) == 1:
            refs[i] = nm
        else:
            refs[i] = f"{nm}@{i}"


def _named(g: Game, i: int) -> str | list[str] | None:
    """The card a hidden agenda names (702.106); a double agenda's two, as a list."""
    o = g.v.o
    first = g.compiled.name_of(int(o[i, O.F_NAMED])) if o[i, O.F_NAMED] >= 0 else None
    if o[i, O.F_NAMED2] > 0:
        return [first, g.compiled.name_of(int(o[i, O.F_NAMED2]) - 1)]
    return first


def _hidden_name(g: Game, i: int, viewer: int | None) -> str:
    """A card's name, or "face-down card" for a face-down conspiracy of another player
    than the viewer (702.106: its owner may look at it; the others may not)."""
    o = g.v.o
    if viewer is not None and o[i, O.F_FACE_DOWN] and int(o[i, O.F_OWNER]) != viewer:
        if o[i, O.F_ZONE] == COMMAND and _is(g, i, T_CONSPIRACY):
            return "face-down card"
    return display_name(g, i)


def _is(g: Game, i: int, bit: int) -> bool:
    c = int(g.v.o[i, O.F_CARD])
    return c >= 0 and bool(g.compiled.tables.rows["ct"][c][K.C_TYPES] & bit)


def _deck_card(g: Game, i: int) -> bool:
    """Is i in a planar or scheme deck (face down in the command zone, 901.4, 904.4)?"""
    v = g.v
    p = int(v.o[i, O.F_OWNER])
    return (
        i in v.pdeck[p, : int(v.pl[p, PL.P_PDECKN])]
        or i in v.sdeck[p, : int(v.pl[p, PL.P_SDECKN])]
        or i in v.cdeck[: int(v.s[G.S_NCOMMUNAL])]
    )


def _revealed(g: Game, p: int) -> bool:
    """Does p play with their hand revealed (Squee's "your opponents play with their hands
    revealed", 902.7)?"""
    v = g.v
    rows = g.compiled.tables.rows
    for i in v.cz[: int(v.s[G.S_NCZ])]:
        i = int(i)
        c = int(v.o[i, O.F_CARD])
        if (
            c < 0
            or v.o[i, O.F_FACE_DOWN]
            or v.pl[int(v.o[i, O.F_CTL]), PL.P_TEAM] == v.pl[p, PL.P_TEAM]
        ):
            continue
        ct = rows["ct"][c]
        for r in range(ct[K.C_SA0], ct[K.C_SA0] + ct[K.C_NSA]):
            if rows["sa"][r][K.A_KIND] == K.ST_HANDS_REVEALED:
                return True
    return False


def _ongoing(g: Game, i: int) -> bool:
    """An ongoing scheme (904.11)."""
    from components.rules import S_ONGOING

    c = int(g.v.o[i, O.F_CARD])
    return c >= 0 and bool(g.compiled.tables.rows["ct"][c][K.C_SUPER] & S_ONGOING)


def _active(g: Game) -> list[str]:
    v = g.v
    s, pl = v.s, v.pl
    if s[G.S_NMARK]:
        return [g.names[int(v.mk[k, K_HOLDER])] for k in range(int(s[G.S_NMARK]))
                if not v.mk[k, K_WAITING] and pl[int(v.mk[k, K_HOLDER]), PL.P_ALIVE]]  # fmt: skip
    a = int(s[G.S_ACTIVE])
    if s[G.S_TEAM_TURNS]:
        return [
            g.names[p]
            for p in range(len(g.names))
            if pl[p, PL.P_TEAM] == pl[a, PL.P_TEAM] and pl[p, PL.P_ALIVE]
        ]
    return [g.names[a]] if pl[a, PL.P_ALIVE] else []


def _attackable(g: Game, p: int, refs: dict[int, str]) -> list[str]:
    """What p's creatures could attack now: players (801.3, 802, 803), then their
    planeswalkers and the battles they protect."""
    v = g.v
    out = []
    ok = [q for q in range(len(g.names)) if v.rm[1, p, q] and v.pl[q, PL.P_ALIVE]]
    out += [g.names[q] for q in ok]
    o = v.o
    from components.rules import T_BATTLE, T_PLANESWALKER

    for i in v.bf[: int(v.s[G.S_NBF])]:
        i = int(i)
        t = int(o[i, O.F_TYPES])
        who = (
            int(o[i, O.F_PROTECTOR])
            if t & T_BATTLE
            else (int(o[i, O.F_CTL]) if t & T_PLANESWALKER else -1)
        )
        if who in ok:
            out.append(_label(g, refs, i))
    return out


def _defender(g: Game, i: int, refs: dict[int, str]) -> str | None:
    o = g.v.o
    if o[i, O.F_ATKO] >= 0:
        return _label(g, refs, int(o[i, O.F_ATKO]))
    if o[i, O.F_ATKP] >= 0:
        return g.names[int(o[i, O.F_ATKP])]
    return None


def _commander_damage(g: Game, p: int, refs: dict[int, str]) -> dict[str, int]:
    """903.10a: the combat damage each commander of the game has dealt to p (0 included)."""
    v = g.v
    out = {}
    for q in range(len(g.names)):
        for k in range(2):
            c = int(v.pl[q, PL.P_CMD + k])
            if c >= 0:
                out[_label(g, refs, c)] = int(v.cdmg[p, 2 * q + k])
    return out
