"""Booster drafts: Conspiracy Draft (905.1-905.2) and the draft of Commander Draft
(903.13b-d), then a deck from each pool (905.1d, 903.13f). Pure Python and numpy: the
draft is not part of a game, so none of it runs in the compiled rules.

    from ecs.draft import Draft, load_set, RatingDrafter
    result = Draft(load_set("conspiracy"), players=8, seed=7).run()
    result.pools[0]            # the cards drafter 0 drafted
    result.notes               # what the draft noted (905.2b), JSON-ready
    decks = result.build_decks()
    # Commander Draft (903.13): Commander Legends boosters, two cards a pick
    cd = Draft(load_set("commander-legends"), players=4, seed=1).run()
    decks = cd.build_decks(fmt="commander")   # a commander and 60 cards (903.13e-f)

How a draft runs (905.1a-b): three rounds; in each, every player opens a booster,
drafts one card from it (``picks`` cards in Commander Draft: two, 903.13b) and passes
the rest to the left (rounds 1 and 3) or right (round 2); a player drafts from the
first booster waiting in front of them. Each "tick" every player with a booster
waiting drafts from it at the same time, in a random order when draft abilities make
the order matter (905.2a); the boosters then move on. Seats are clockwise: player
p's left neighbour is p + 1.

Drafters see only what 905.1c lets them see (:class:`DraftView`): the booster they
draft from, their own picks, every revealed card and note (905.2b) and every card
drafted face up (905.2c), plus what their own abilities let them look at. Every
choice a drafter makes is a :class:`Decision` answered by an index: picks, and the
options draft abilities give ("may", a colour, a player, a guess...). Drafters:
:class:`RandomDrafter`, :class:`RatingDrafter` (a card rating and two colours) and
:class:`CallbackDrafter` (any Python function: an AI agent).

Draft abilities (905.2) are data: a card record's ``draft:`` field names one of the
abilities of ``DRAFT_ABILITIES`` (with ``face_up: true`` when the card is drafted face
up, ``reveal: true`` when it is revealed as it is drafted); the 21 cards of Conspiracy
(2014) and Conspiracy: Take the Crown (2016) that act during the draft use them. What
a draft notes goes into ``DraftResult.notes`` (one JSON-ready mapping per note); the
game reads it (``game_notes``).

Commander Draft decks (903.13e-f): :func:`build_commander_deck` picks the commander (two
with partner, or a legend with "choose a Background" and a Background, 702.124; The Prismatic Piper or Faceless One in a chosen colour when the set's
boosters allow it, 903.13e, 903.4b) whose colour identity holds the pool's best cards,
and fills 60 cards with basic lands of that identity; :func:`commander_deck_from_list`
checks a player's own list; both by ``ecs.deck_rules`` (format ``commander-draft``).
Their games (903.13g) are Commander games (:func:`play_games`).

Set files (``ecs/data/sets/NAME.yaml``): card names with rarities and a booster layout
(documented in ``tests/drafts/README.md``). Randomness comes from one seed: the same
seed, set and drafters give the same draft.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

SETS_DIR = Path(__file__).parent / "data" / "sets"
RARITIES = ("C", "U", "R", "M")
COLORS = "WUBRG"
BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
MIN_PLAYERS, MAX_PLAYERS = 2, 16
DEFAULT_SET = "conspiracy"
FORMATS = ("conspiracy", "commander")  # 905 Conspiracy Draft, 903.13 Commander Draft
DEFAULT_SETS = {"conspiracy": DEFAULT_SET, "commander": "commander-legends"}  # 903.13a


class DraftError(ValueError):
    """A set file, a booster list, a drafter's answer or a deck that can't be used (the
    message says which and why, in one line)."""


# ===================================================================== set files
@dataclass(frozen=True)
class Slot:
    """One slot kind of a booster: ``count`` cards of a rarity (a rare slot may be a
    mythic with probability ``mythic``) or of a sheet (drawn by rarity ``weights``)."""

    count: int
    rarity: str | None = None
    sheet: str | None = None
    mythic: float = 0.0
    weights: dict[str, float] | None = None


@dataclass(frozen=True)
class CardSet:
    """A set file: cards by rarity, sheets, the booster layout, picks per pass."""

    name: str
    code: str
    cards: dict[str, str]  # name -> rarity
    sheets: dict[str, list[str]]
    booster: tuple[Slot, ...]
    picks: int = 1
    rounds: int = 3
    path: str = ""
    prismatic_piper: bool = False  # 903.13e: Commander Legends / Commander Masters boosters
    masters_partner: bool = False  # 903.13f(3): Commander Masters boosters
    faceless_one: bool = False  # 903.13e: Battle for Baldur's Gate boosters

    def by_rarity(self, rarity: str) -> list[str]:
        """The set's cards of a rarity that aren't on a sheet (sheets have their slots)."""
        on_sheet = {c for cs in self.sheets.values() for c in cs}
        return [c for c, r in self.cards.items() if r == rarity and c not in on_sheet]

    @property
    def booster_size(self) -> int:
        return sum(s.count for s in self.booster)


def set_names() -> list[str]:
    return sorted(p.stem for p in SETS_DIR.glob("*.yaml"))


def load_set(name_or_path: str | Path) -> CardSet:
    """A bundled set by name (``conspiracy``, ``cns``, ``cn2``...) or a set file's path;
    DraftError naming the file and field for anything wrong."""
    from ecs.checks import InputError, load_yaml, read_text

    p = Path(name_or_path)
    if not p.suffix and not p.exists():
        p = SETS_DIR / f"{name_or_path}.yaml"
        if not p.exists():
            raise DraftError(
                f"unknown set {str(name_or_path)!r} (bundled sets: {', '.join(set_names())}; "
                "or the path of a set file)"
            )
    try:
        data = load_yaml(read_text(str(p)), str(p))
    except InputError as e:
        raise DraftError(str(e)) from None
    return parse_set(data, str(p))


def parse_set(data: Any, path: str = "<set>") -> CardSet:
    def err(fld: str, msg: str) -> DraftError:
        return DraftError(f"{path}: {fld}: {msg}")

    if not isinstance(data, dict):
        raise err("(top level)", "expected a mapping with name, cards, booster")
    known = {"name", "code", "cards", "sheets", "booster", "picks", "rounds", "description",
             "prismatic_piper", "masters_partner", "faceless_one"}  # fmt: skip
    for k in data:
        if k not in known:
            raise err(k, f"unknown field (expected one of {sorted(known)})")
    cards = data.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise err("cards", "required: a mapping of card name -> rarity (C, U, R, M)")
    for n, r in cards.items():
        if not isinstance(n, str) or r not in RARITIES:
            raise err(f"cards.{n}", f"rarity is one of {', '.join(RARITIES)}, not {r!r}")
    sheets = data.get("sheets") or {}
    if not isinstance(sheets, dict):
        raise err("sheets", "expected a mapping of sheet name -> list of card names")
    for s, cs in sheets.items():
        if not isinstance(cs, list) or not cs:
            raise err(f"sheets.{s}", "expected a non-empty list of card names")
        for c in cs:
            if c not in cards:
                raise err(f"sheets.{s}", f"{c!r} is not in the set's cards")
    raw = data.get("booster")
    if not isinstance(raw, list) or not raw:
        raise err("booster", "required: a list of slots like {count: 10, rarity: C}")
    slots = []
    cset = CardSet(str(data.get("name", path)), str(data.get("code", Path(path).stem)),
                   dict(cards), {k: list(v) for k, v in sheets.items()}, ())  # fmt: skip
    for k, s in enumerate(raw):
        f = f"booster[{k}]"
        if not isinstance(s, dict):
            raise err(f, "expected {count: N, rarity: R} or {count: N, sheet: NAME}")
        for key in s:
            if key not in ("count", "rarity", "sheet", "mythic", "weights"):
                raise err(f"{f}.{key}", "unknown field (count, rarity, sheet, mythic, weights)")
        n = s.get("count", 1)
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100:
            raise err(f"{f}.count", "a whole number from 1 to 100")
        if ("rarity" in s) == ("sheet" in s):
            raise err(f, "exactly one of rarity and sheet")
        mythic = s.get("mythic", 0.0)
        if not isinstance(mythic, (int, float)) or not 0 <= mythic <= 1:
            raise err(f"{f}.mythic", "a probability from 0 to 1")
        weights = s.get("weights")
        if weights is not None and (
            not isinstance(weights, dict)
            or any(r not in RARITIES or not isinstance(w, (int, float)) or w < 0
                   for r, w in weights.items())
        ):  # fmt: skip
            raise err(f"{f}.weights", "a mapping of rarity -> weight >= 0")
        slot = Slot(n, s.get("rarity"), s.get("sheet"), float(mythic), weights)
        if slot.rarity is not None:
            if slot.rarity not in RARITIES:
                raise err(f"{f}.rarity", f"one of {', '.join(RARITIES)}")
            have = len(cset.by_rarity(slot.rarity))
            if have < n:
                raise err(f, f"needs {n} different cards of rarity {slot.rarity}; "
                          f"the set has {have} (off its sheets)")  # fmt: skip
        else:
            if slot.sheet not in sheets:
                raise err(f"{f}.sheet", f"no sheet named {slot.sheet!r}")
            if len(sheets[slot.sheet]) < n:
                raise err(f, f"needs {n} different cards of sheet {slot.sheet!r}")
        slots.append(slot)
    picks = data.get("picks", 1)
    rounds = data.get("rounds", 3)
    for key, v, hi in (("picks", picks, 10), ("rounds", rounds, 10)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= hi:
            raise err(key, f"a whole number from 1 to {hi}")
    flags = {}
    for key in ("prismatic_piper", "masters_partner", "faceless_one"):
        v = data.get(key, False)
        if not isinstance(v, bool):
            raise err(key, f"true or false, not {v!r}")
        flags[key] = v
    return CardSet(cset.name, cset.code, cset.cards, cset.sheets, tuple(slots), picks,
                   rounds, path, **flags)  # fmt: skip


def open_booster(cset: CardSet, rng: np.random.Generator) -> list[str]:
    """One booster: each slot's cards drawn without repeating a card in the booster."""
    out: list[str] = []
    for slot in cset.booster:
        for _ in range(slot.count):
            if slot.sheet is not None:
                pool = [c for c in cset.sheets[slot.sheet] if c not in out]
                if slot.weights:
                    w = np.array([slot.weights.get(cset.cards[c], 0.0) for c in pool], float)
                    if w.sum() <= 0:
                        w = np.ones(len(pool))
                    out.append(pool[int(rng.choice(len(pool), p=w / w.sum()))])
                    continue
            else:
                rarity = slot.rarity
                if slot.mythic and rng.random() < slot.mythic and cset.by_rarity("M"):
                    rarity = "M"
                pool = [c for c in cset.by_rarity(rarity) if c not in out]
                if not pool:  # every card of the rarity is already in the booster
                    pool = cset.by_rarity(rarity)
            out.append(pool[int(rng.integers(len(pool)))])
    return out


# ===================================================================== card facts
@dataclass(frozen=True)
class CardInfo:
    """What drafters and deck builders know of a card (from its record, if any)."""

    name: str
    rarity: str = "C"
    colors: str = ""  # letters
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    mv: int = 0
    power: int = 0
    toughness: int = 0
    rating: float = 1.0
    known: bool = False  # the engine has a record for it
    draft: dict | None = None  # its draft ability (the record's `draft:`)
    produces: str = ""  # colours its mana abilities make (lands)

    @property
    def creature(self) -> bool:
        return "Creature" in self.types

    @property
    def land(self) -> bool:
        return "Land" in self.types

    @property
    def conspiracy(self) -> bool:
        return "Conspiracy" in self.types


_INFO_CACHE: dict[tuple[str, str], CardInfo] = {}


def card_info(name: str, rarity: str = "C", db: Any = None) -> CardInfo:
    """The facts of a card, from its record when the pool has one; a card rating: a
    rough value for picks and decks (rarity, a creature's size for its cost, removal,
    card draw, evasion)."""
    key = (name, rarity)
    if key in _INFO_CACHE:
        return _INFO_CACHE[key]
    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    rec = db.cards[db.by_lower[name.lower()]].record if name in db else None
    base = {"C": 1.0, "U": 1.4, "R": 2.0, "M": 2.4}[rarity]
    if rec is None:
        info = CardInfo(name, rarity, rating=base)
        _INFO_CACHE[key] = info
        return info
    from ecs.cards import colors_of_cost, parse_cost

    try:
        cost, xs, _, _ = parse_cost(rec.get("cost"), name)
    except Exception:  # a cost the compiler refuses: rated as colourless
        cost, xs = [0] * 7, 0
    bits = colors_of_cost(cost)
    if "colors" in rec:
        bits = sum(1 << COLORS.index(c) for c in rec.get("colors") or [] if c in COLORS)
    colors = "".join(c for k, c in enumerate(COLORS) if bits >> k & 1)
    types = tuple(_as_list(rec.get("types")))
    mv = sum(cost)
    power = rec.get("power", 0) if isinstance(rec.get("power", 0), int) else 0
    tough = rec.get("toughness", 0) if isinstance(rec.get("toughness", 0), int) else 0
    text = repr(rec.get("abilities", ""))
    kws = repr(rec.get("keywords", ""))
    r = base
    if "Creature" in types:
        r += 0.35 * (power + tough) / max(mv, 1) + 0.25 * min(power, 5) / 5
        r += 0.5 * kws.count("flying") + 0.2 * kws.count("first strike")
        r += 0.2 * (kws.count("deathtouch") + kws.count("lifelink") + kws.count("trample"))
    for word, bonus in (("'destroy'", 1.2), ("'damage'", 0.9), ("'exile'", 0.8),
                        ("'draw'", 0.5), ("'counters'", 0.3), ("'create_token'", 0.5),
                        ("'pump'", 0.2)):  # fmt: skip
        if word in text:
            r += bonus
    if "Conspiracy" in types:
        r = base + 0.8
    if "Land" in types:
        r = base - 0.6 if "Basic" not in _as_list(rec.get("supertypes")) else 0.0
    if xs:
        r += 0.5
    produces = ""
    if "Land" in types:
        subs = _as_list(rec.get("subtypes"))
        produces = "".join(c for c, b in zip(COLORS, ("Plains", "Island", "Swamp", "Mountain",
                                                     "Forest")) if b in subs)  # fmt: skip
        for m in ("{W}", "{U}", "{B}", "{R}", "{G}"):
            if m in text and m[1] not in produces:
                produces += m[1]
        if "'any'" in text:
            produces = COLORS
    info = CardInfo(name, rarity, colors, types, tuple(_as_list(rec.get("subtypes"))), mv,
                    power, tough, round(r, 3), True, rec.get("draft"), produces)  # fmt: skip
    _INFO_CACHE[key] = info
    return info


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return list(v) if isinstance(v, (list, tuple)) else [v]


# ===================================================================== draft abilities
# The draft abilities a record's `draft: {ability: NAME}` may name (905.2). Each is
# carried out by Draft below; the words say what it does, in our own words.
DRAFT_ABILITIES = {
    "extra_pick_into_pack": "as you draft a card, you may draft another card from that "
    "booster; then put this card into that booster (Cogwork Librarian)",
    "extra_pick_skip_next": "as you draft a card, you may draft another card from that "
    "booster; then turn this card face down and pass the next booster without drafting "
    "from it (Leovold's Operative)",
    "take_whole_pack": "instead of drafting a card, you may draft every card of that "
    "booster one at a time; then turn this face down: no more drafting this round "
    "(Agent of Acquisitions)",
    "remove_from_draft": "as you draft a card, you may remove it from the draft face down; "
    "the number removed is noted (Cogwork Grinder)",
    "last_cards": "the last card of each booster is passed to a player who drafted this "
    "(Canal Dredger)",
    "trade_after_draft": "right after the draft, you may reveal a card of your pool; each "
    "other player may offer one of theirs in exchange; you may accept one (Deal Broker)",
    "look_at_pack": "you may turn this face down to look at an unopened booster or one no "
    "other player is looking at (Whispergear Sneak)",
    "look_at_next_pick_of": "you may turn this face down to look at the next card a player "
    "of your choice drafts (Illusionary Informant)",
    "draft_at_random": "while this is face up you can't look at boosters and draft at "
    "random; after three cards, turn it face down (Archdemon of Paliano)",
    "note_creature_name": "as you draft a creature card, you may reveal it, note its name "
    "and turn this face down (Noble Banneret)",
    "note_creature_types": "as you draft a creature card, you may reveal it, note its "
    "creature types and turn this face down (Paliano Vanguard)",
    "note_name": "as you draft a card, you may reveal it, note its name and turn this face "
    "down (Smuggler Captain)",
    "look_at_next_from_pack": "you may look at the next card drafted from this booster "
    "(Cogwork Spy)",
    "note_passer": "note the player who passed this card to you (Cogwork Tracker)",
    "add_booster": "after you draft this, you may add a booster to the draft: your next "
    "pick is from it, and it is passed on this round (Lore Seeker)",
    "note_count_this_round": "note how many cards you have drafted this round, this one "
    "included (Lurking Automaton, Garbage Fire)",
    "choose_three_colors": "the player to your right chooses a colour, you another, the "
    "player to your left a third; they are noted (Paliano, the High City; Regicide)",
    "guess_next_from_pack": "guess the name of the next card drafted from this booster; "
    "that player reveals it; a right guess is noted (Spire Phantasm)",
    "note_next_pick_name": "reveal the next card you draft and note its name (Aether Searcher)",
}


# ===================================================================== drafters
@dataclass(frozen=True)
class Decision:
    """A choice put to a drafter: ``kind`` (pick, may, color, player, pack, guess,
    reveal, offer, accept), the ``options`` (card names, "no"/"yes", colour letters,
    player indices...), and the card whose ability asks (None for a plain pick)."""

    kind: str
    options: tuple
    card: str | None = None
    prompt: str = ""


@dataclass
class DraftView:
    """What a drafter may look at now (905.1c): the booster it drafts from (None while
    an ability hides it), its own picks (name, face up), every card drafted face up,
    every revealed card and note (905.2b-c) and what its own abilities showed it."""

    player: int
    players: int
    round: int  # 1-based
    pick: int  # 1-based: this player's picks this round, the next one included
    direction: str  # "left" | "right"
    pack: list[str] | None
    picks: list[tuple[str, bool]]
    face_up: dict[int, list[str]]
    revealed: list[dict]
    notes: list[dict]
    private: list[dict]
    pool_sizes: list[int]


class Drafter(Protocol):
    def choose(self, view: DraftView, decision: Decision) -> int: ...


class RandomDrafter:
    """Uniform among the options (its own generator, from the draft's seed)."""

    name = "random"

    def __init__(self, rng: np.random.Generator | None = None):
        self.rng = rng or np.random.default_rng(0)

    def choose(self, view: DraftView, decision: Decision) -> int:
        return int(self.rng.integers(len(decision.options)))


class RatingDrafter:
    """Takes the best-rated card, favouring its two best colours once it has a few
    cards; uses the draft abilities when they look worth it."""

    name = "rating"

    def __init__(self, cset: CardSet | None = None, rng: np.random.Generator | None = None,
                 db: Any = None):  # fmt: skip
        self.cset = cset
        self.rng = rng or np.random.default_rng(0)
        self.db = db

    def _info(self, name: str) -> CardInfo:
        rarity = self.cset.cards.get(name, "C") if self.cset else "C"
        return card_info(name, rarity, self.db)

    def value(self, name: str, picks: Sequence[str]) -> float:
        """The card's rating, less for colours the picks so far don't lean to."""
        info = self._info(name)
        r = info.rating
        if len(picks) >= 4 and info.colors:
            top = top_colors([self._info(p) for p in picks], 2)
            if not set(info.colors) <= set(top):
                r *= 0.45
        return r

    def choose(self, view: DraftView, decision: Decision) -> int:
        picks = [n for n, _ in view.picks]
        opts = decision.options
        k = decision.kind
        if k in ("pick", "reveal", "offer"):
            vals = [self.value(o, picks) if isinstance(o, str) and o != "none" else 0.0
                    for o in opts]  # fmt: skip
            if k == "pick":
                return int(np.argmax(vals))
            # Deal Broker: show the weakest card; offer the weakest card
            real = [j for j, o in enumerate(opts) if o != "none"]
            if not real:
                return 0
            return min(real, key=lambda j: vals[j])
        if k == "accept":
            vals = [self.value(o, picks) if o != "none" else -1.0 for o in opts]
            return int(np.argmax(vals))
        if k == "guess":
            vals = [self._info(o).rating for o in opts]
            return int(np.argmax(vals))
        if k == "color":
            mine = top_colors([self._info(p) for p in picks], 5)
            for c in mine:
                if c in opts:
                    return opts.index(c)
            return 0
        if k == "may":
            return 1 if self._may(view, decision, picks) else 0
        return 0

    def _may(self, view: DraftView, d: Decision, picks: list[str]) -> bool:
        ability = (card_info(d.card, db=self.db).draft or {}).get("ability") if d.card else None
        pack = view.pack or []
        if ability in ("extra_pick_into_pack", "extra_pick_skip_next"):
            best = sorted((self.value(c, picks) for c in pack), reverse=True)
            return bool(best) and best[0] >= 1.8
        if ability == "take_whole_pack":
            return len(pack) >= 10
        if ability == "remove_from_draft":
            return False  # (the drafter asks about the card it just drafted: keep it)
        return True


class CallbackDrafter:
    """A Python function ``fn(view, decision) -> index`` drafts (an AI agent)."""

    name = "callback"

    def __init__(self, fn: Callable[[DraftView, Decision], int]):
        self.fn = fn

    def choose(self, view: DraftView, decision: Decision) -> int:
        return self.fn(view, decision)


def top_colors(infos: Sequence[CardInfo], k: int) -> str:
    """The k colours with the highest summed rating among these cards (ties: WUBRG)."""
    score = dict.fromkeys(COLORS, 0.0)
    for i in infos:
        for c in i.colors:
            score[c] += i.rating
    return "".join(sorted(COLORS, key=lambda c: (-score[c], COLORS.index(c)))[:k])


# ===================================================================== the draft
@dataclass
class _Card:
    """A card drafted into a player's pile."""

    uid: int
    name: str
    face_up: bool
    count: int = 0  # cards drafted at random while it was face up (draft_at_random)


@dataclass
class _Pack:
    uid: int
    cards: list[str]
    passer: int | None = None  # who passed it to its current holder
    spies: list[int] = field(default_factory=list)  # look at the next card drafted from it
    guesses: list[tuple[int, str]] = field(default_factory=list)
    idle: int = 0  # passes in a row without a card drafted from it


@dataclass
class _Seat:
    queue: deque = field(default_factory=deque)
    pile: list[_Card] = field(default_factory=list)
    done_round: bool = False  # take_whole_pack used this round
    skip_next: bool = False  # extra_pick_skip_next: the next booster is passed on
    round_picks: int = 0
    next_pick_notes: int = 0  # note_next_pick_name waiting for the next card drafted
    removed: list[str] = field(default_factory=list)
    private: list[dict] = field(default_factory=list)


@dataclass
class DraftResult:
    """A finished draft: pools, every pick, notes, events; JSON-ready (``to_json``)."""

    set_code: str
    seed: int
    drafters: list[str]
    pools: list[list[str]]
    picks: list[dict]
    notes: list[dict]
    events: list[dict]
    removed: list[list[str]]
    boosters: list[list[list[str]]]  # as opened: [round][player]
    private: list[list[dict]] = field(default_factory=list)  # what each one looked at
    seconds: float = 0.0
    cset: CardSet | None = field(default=None, repr=False)

    def to_json(self, decks: list[Deck] | None = None) -> dict:
        out = {
            "set": self.set_code,
            "seed": self.seed,
            "players": len(self.pools),
            "drafters": self.drafters,
            "pools": [
                {"player": p, "cards": list(c), "removed": list(self.removed[p])}
                for p, c in enumerate(self.pools)
            ],  # fmt: skip
            "picks": self.picks,
            "notes": self.notes,
            "events": self.events,
            "private": self.private,
            "boosters": self.boosters,
        }
        if decks is not None:
            out["decks"] = [d.to_json() for d in decks]
        return out

    def build_decks(self, lists: dict[int, Any] | None = None, playable: set[str] | None = None,
                    db: Any = None, fmt: str = "conspiracy") -> list[Deck]:  # fmt: skip
        """A deck from each pool: the simple builder's (:func:`build_deck`; Commander
        Draft: :func:`build_commander_deck`), or the player's own list (``lists[p]``)
        checked against their pool (905.1d; 903.13e-f)."""
        decks = []
        for p, pool in enumerate(self.pools):
            if fmt == "commander":
                if lists and p in lists:
                    decks.append(commander_deck_from_list(p, pool, lists[p], self.cset, db=db))
                else:
                    decks.append(build_commander_deck(p, pool, self.cset, playable=playable,
                                                      db=db))  # fmt: skip
            elif lists and p in lists:
                decks.append(deck_from_list(p, pool, lists[p], db=db))
            else:
                decks.append(build_deck(p, pool, self.cset, playable=playable, db=db))
        return decks


class Draft:
    """One booster draft (see the module docstring). ``boosters`` fixes the boosters
    ([round][player] lists of names) and ``extra_boosters`` the ones draft abilities add,
    in order (draft scenarios); otherwise they are opened from the set with the seed."""

    def __init__(
        self,
        cset: CardSet,
        players: int = 8,
        seed: int = 0,
        drafters: Sequence[Drafter | str] | None = None,
        boosters: list[list[list[str]]] | None = None,
        extra_boosters: list[list[str]] | None = None,
        db: Any = None,
        shuffle_order: bool = True,
    ):
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DraftError(f"players: {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        self.cset = cset
        self.n = players
        self.seed = int(seed)
        if db is None:
            from ecs.cards import load_pool

            db = load_pool()
        self.db = db
        ss = np.random.SeedSequence(self.seed)
        s_packs, s_draft, *s_drafters = ss.spawn(2 + players)
        self.rng_packs = np.random.default_rng(s_packs)
        self.rng = np.random.default_rng(s_draft)
        self.drafters: list[Drafter] = []
        for p in range(players):
            d = drafters[p] if drafters is not None and p < len(drafters) else "rating"
            self.drafters.append(make_drafter(d, cset, np.random.default_rng(s_drafters[p]), db))
        if boosters is not None:
            if len(boosters) != cset.rounds or any(len(r) != players for r in boosters):
                raise DraftError(f"boosters: {cset.rounds} rounds of {players} boosters")
            self.boosters = [[list(b) for b in r] for r in boosters]
        else:
            self.boosters = [[open_booster(cset, self.rng_packs) for _ in range(players)]
                             for _ in range(cset.rounds)]  # fmt: skip
        self.extra = deque(list(b) for b in (extra_boosters or []))
        self.shuffle_order = shuffle_order
        self.seats = [_Seat() for _ in range(players)]
        self.picks: list[dict] = []
        self.notes: list[dict] = []
        self.events: list[dict] = []
        self.uid = 0
        self.round = 0
        self.unopened: list[_Pack] = []
        self.info: dict[str, CardInfo] = {}
        self._watch: dict[int, list[int]] = {}  # player -> who sees their next card

    # ------------------------------------------------------------ helpers
    def _info(self, name: str) -> CardInfo:
        i = self.info.get(name)
        if i is None:
            i = self.info[name] = card_info(name, self.cset.cards.get(name, "C"), self.db)
        return i

    def _ability(self, name: str) -> str | None:
        d = self._info(name).draft
        return d.get("ability") if isinstance(d, dict) else None

    def _new_uid(self) -> int:
        self.uid += 1
        return self.uid

    @property
    def direction(self) -> int:
        return -1 if self.round % 2 == 1 else 1  # 905.1b: left, right, left

    def _view(self, p: int, pack: _Pack | None, hidden: bool = False) -> DraftView:
        face_up = {q: [c.name for c in s.pile if c.face_up] for q, s in enumerate(self.seats)}
        return DraftView(
            player=p, players=self.n, round=self.round + 1,
            pick=self.seats[p].round_picks + 1,
            direction="right" if self.direction < 0 else "left",
            pack=None if pack is None or hidden else list(pack.cards),
            picks=[(c.name, c.face_up) for c in self.seats[p].pile],
            face_up=face_up,
            revealed=[e for e in self.events if e["event"] == "reveal"],
            notes=list(self.notes), private=list(self.seats[p].private),
            pool_sizes=[len(s.pile) for s in self.seats],
        )  # fmt: skip

    def _ask(self, p: int, decision: Decision, pack: _Pack | None, hidden: bool = False) -> int:
        if len(decision.options) == 1:
            return 0
        k = self.drafters[p].choose(self._view(p, pack, hidden), decision)
        if (
            isinstance(k, (bool, np.bool_))
            or not isinstance(k, (int, np.integer))
            or not (0 <= int(k) < len(decision.options))
        ):
            raise DraftError(
                f"drafter {p} answered {k!r} to a {decision.kind} decision with "
                f"{len(decision.options)} options (expected an index from 0)"
            )
        return int(k)

    def _may(self, p: int, card: str, pack: _Pack | None, prompt: str) -> bool:
        return self._ask(p, Decision("may", ("no", "yes"), card, prompt), pack) == 1

    def _face_up(self, p: int, ability: str) -> list[_Card]:
        return [c for c in self.seats[p].pile if c.face_up and self._ability(c.name) == ability]

    def _event(self, **kw: Any) -> None:
        kw.setdefault("round", self.round + 1)
        self.events.append(kw)

    def _note(self, p: int, card: str, **kw: Any) -> None:
        n = {"player": p, "card": card, "round": self.round + 1, **kw}
        self.notes.append(n)

    # ------------------------------------------------------------ running
    def run(self) -> DraftResult:
        t0 = time.perf_counter()
        for r in range(self.cset.rounds):
            self.round = r
            self._run_round()
        self._after_draft()
        for s in self.seats:  # 905.2c: face-up cards stay so until the draft is complete
            for c in s.pile:
                c.face_up = False
        return DraftResult(
            set_code=self.cset.code, seed=self.seed,
            drafters=[getattr(d, "name", type(d).__name__) for d in self.drafters],
            pools=[[c.name for c in s.pile] for s in self.seats],
            picks=self.picks, notes=self.notes, events=self.events,
            removed=[list(s.removed) for s in self.seats],
            boosters=self.boosters, private=[list(s.private) for s in self.seats],
            seconds=time.perf_counter() - t0, cset=self.cset,
        )  # fmt: skip

    def _run_round(self) -> None:
        for s in self.seats:
            s.queue.clear()
            s.done_round = False
            s.skip_next = False
            s.round_picks = 0
        for p in range(self.n):  # each player opens a booster
            self.seats[p].queue.append(_Pack(self._new_uid(), list(self.boosters[self.round][p])))
        self.unopened = [_Pack(-1 - (r * self.n + p), list(self.boosters[r][p]))
                         for r in range(self.round + 1, self.cset.rounds)
                         for p in range(self.n)]  # fmt: skip
        order = list(range(self.n))
        guard = 0
        while any(s.queue for s in self.seats):
            guard += 1
            if guard > 10_000:
                raise DraftError("the draft made no progress (a draft ability loops)")
            if self.shuffle_order:  # 905.2a: simultaneous actions in a random order
                self.rng.shuffle(order)
            incoming: list[tuple[int, _Pack]] = []
            for p in order:
                seat = self.seats[p]
                if not seat.queue:
                    continue
                pack = seat.queue.popleft()
                drafted = self._turn(p, pack)
                pack.idle = 0 if drafted else pack.idle + 1
                if pack.cards and pack.idle <= self.n:
                    incoming.append(self._pass(p, pack))
                elif pack.cards:  # nobody can draft from it: its cards leave the draft
                    self._event(event="undrafted", cards=list(pack.cards), pack=pack.uid)
            for q, pack in incoming:
                self.seats[q].queue.append(pack)

    def _pass(self, p: int, pack: _Pack) -> tuple[int, _Pack]:
        """Where p passes this booster: the next player, or the last card to a player who
        drafted a card with ``last_cards`` (Canal Dredger; the passer chooses among them)."""
        pack.passer = p
        if len(pack.cards) == 1:
            takers = [q for q in range(self.n)
                      if any(self._ability(c.name) == "last_cards" for c in self.seats[q].pile)]  # fmt: skip
            if takers:
                k = self._ask(p, Decision("player", tuple(takers), "Canal Dredger",
                                          "who gets the last card"), pack)  # fmt: skip
                self._event(event="last_card", player=p, to=takers[k], pack=pack.uid)
                return takers[k], pack
        return (p + self.direction) % self.n, pack

    # ------------------------------------------------------------ one player's turn
    def _turn(self, p: int, pack: _Pack) -> bool:
        """p drafts from this booster (or passes it on); returns whether a card was drafted."""
        seat = self.seats[p]
        if seat.done_round:
            return False
        if seat.skip_next:
            seat.skip_next = False
            self._event(event="skipped", player=p, pack=pack.uid)
            return False
        self._look_abilities(p, pack)
        at_random = bool(self._face_up(p, "draft_at_random"))
        for agent in self._face_up(p, "take_whole_pack"):
            if at_random or not self._may(p, agent.name, pack, "draft every card of this booster"):
                continue
            agent.face_up = False
            seat.done_round = True
            self._event(event="face_down", player=p, card=agent.name)
            while pack.cards:
                self._pick(p, pack, "whole_pack")
            return True
        before = self.uid  # (cards drafted from here on can't act on this turn's picks)
        for _ in range(min(self.cset.picks, len(pack.cards))):
            self._pick(p, pack, "pick")
        self._extra_picks(p, pack, before)
        return True

    def _pick(self, p: int, pack: _Pack, how: str) -> None:
        """p drafts one card from the booster: chosen, or at random while a face-up card
        says so (draft_at_random)."""
        demons = self._face_up(p, "draft_at_random")
        if demons:
            k = int(self.rng.integers(len(pack.cards)))
            how = "random"
        else:
            k = self._ask(p, Decision("pick", tuple(pack.cards)), pack)
        name = pack.cards.pop(k)
        self._drafted(p, name, pack, how)
        for d in demons:
            d.count += 1
            if d.count >= 3:
                d.face_up = False
                self._event(event="face_down", player=p, card=d.name)

    def _extra_picks(self, p: int, pack: _Pack, before: int) -> None:
        """Cards that let p draft another card from this booster (Cogwork Librarian,
        Leovold's Operative), each asked in turn while the booster has cards."""
        for ability in ("extra_pick_into_pack", "extra_pick_skip_next"):
            for c in self._face_up(p, ability):
                if not pack.cards or not c.face_up or c.uid > before:
                    continue
                if not self._may(p, c.name, pack, "draft an additional card from this booster"):
                    continue
                self._pick(p, pack, "extra")
                seat = self.seats[p]
                if ability == "extra_pick_into_pack":
                    seat.pile.remove(c)
                    pack.cards.append(c.name)
                    self._event(event="into_pack", player=p, card=c.name, pack=pack.uid)
                else:
                    c.face_up = False
                    seat.skip_next = True
                    self._event(event="face_down", player=p, card=c.name)

    def _look_abilities(self, p: int, pack: _Pack) -> None:
        """Face-up cards p may turn face down to look (Whispergear Sneak, Illusionary
        Informant), offered as p is about to draft."""
        seat = self.seats[p]
        for c in self._face_up(p, "look_at_pack"):
            if not self._may(p, c.name, pack, "turn face down to look at a booster"):
                continue
            c.face_up = False
            self._event(event="face_down", player=p, card=c.name)
            waiting = [b for s in self.seats for b in list(s.queue)[1:]]
            waiting += [b for q, s in enumerate(self.seats) if q == p for b in list(s.queue)[:1]]
            choices = self.unopened + waiting
            if not choices:
                continue
            labels = tuple(("unopened" if b.uid < 0 else "booster") + f" {abs(b.uid)}"
                           for b in choices)  # fmt: skip
            k = self._ask(p, Decision("pack", labels, c.name, "which booster to look at"), pack)
            seat.private.append({"card": c.name, "looked_at": labels[k],
                                 "cards": list(choices[k].cards)})  # fmt: skip
        for c in self._face_up(p, "look_at_next_pick_of"):
            if not self._may(p, c.name, pack, "turn face down to look at a player's next pick"):
                continue
            c.face_up = False
            self._event(event="face_down", player=p, card=c.name)
            others = tuple(q for q in range(self.n) if q != p)
            k = self._ask(p, Decision("player", others, c.name, "whose next pick to see"), pack)
            self._watch.setdefault(others[k], []).append(p)

    def _drafted(self, p: int, name: str, pack: _Pack, how: str) -> None:
        """``name`` goes into p's pile: its own draft ability (reveal, face up, notes),
        the abilities waiting for this booster's or this player's next card, and the
        face-up cards that act "as you draft a card"."""
        seat = self.seats[p]
        seat.round_picks += 1
        info = self._info(name)
        spec = info.draft if isinstance(info.draft, dict) else {}
        ability = spec.get("ability")
        card = _Card(self._new_uid(), name, bool(spec.get("face_up")))
        seat.pile.append(card)
        self.picks.append({"round": self.round + 1, "pick": seat.round_picks, "player": p,
                           "card": name, "pack": pack.uid, "how": how})  # fmt: skip
        # abilities waiting for the next card drafted from this booster
        for q in pack.spies:
            self.seats[q].private.append({"card": "Cogwork Spy", "saw": name, "drafted_by": p})
        pack.spies = []
        for q, guess in pack.guesses:
            self._event(event="reveal", player=p, card=name, because="Spire Phantasm")
            self._note(q, "Spire Phantasm", guess=guess, actual=name, correct=guess == name)
        pack.guesses = []
        for q in self._watch.pop(p, []):
            self.seats[q].private.append({"card": "Illusionary Informant", "saw": name,
                                          "drafted_by": p})  # fmt: skip
        while seat.next_pick_notes > 0 and ability != "note_next_pick_name":
            seat.next_pick_notes -= 1
            self._event(event="reveal", player=p, card=name, because="Aether Searcher")
            self._note(p, "Aether Searcher", name=name)
        # the card's own draft ability
        if spec.get("reveal"):
            self._event(event="reveal", player=p, card=name)
        if card.face_up:
            self._event(event="face_up", player=p, card=name)
        if ability == "note_count_this_round":
            self._note(p, name, number=seat.round_picks)
        elif ability == "note_passer":
            self._note(p, name, passer=pack.passer)
        elif ability == "choose_three_colors":
            self._note(p, name, colors=self._three_colors(p, name, pack))
        elif ability == "guess_next_from_pack":
            if pack.cards:
                names = tuple(sorted(set(pack.cards)))
                k = self._ask(p, Decision("guess", names, name, "the next card drafted"), pack)
                pack.guesses.append((p, names[k]))
        elif ability == "look_at_next_from_pack":
            pack.spies.append(p)
        elif ability == "note_next_pick_name":
            seat.next_pick_notes += 1
        elif ability == "add_booster":
            if self._may(p, name, pack, "add a booster to the draft"):
                cards = (
                    self.extra.popleft() if self.extra else open_booster(self.cset, self.rng_packs)
                )
                new = _Pack(self._new_uid(), list(cards))
                seat.queue.appendleft(new)  # "your next pick is from that booster"
                self._event(event="booster_added", player=p, pack=new.uid, cards=list(cards))
        # face-up cards of p's pile that act as p drafts a card (not the card itself)
        creature = info.creature
        for c in [c for c in seat.pile if c.face_up and c is not card]:
            ab = self._ability(c.name)
            if ab in ("note_creature_name", "note_creature_types") and not creature:
                continue
            if ab not in ("note_creature_name", "note_creature_types", "note_name"):
                continue
            if not self._may(p, c.name, pack, f"reveal {name} and note it"):
                continue
            c.face_up = False
            self._event(event="reveal", player=p, card=name, because=c.name)
            self._event(event="face_down", player=p, card=c.name)
            if ab == "note_creature_types":
                types = [t for t in info.subtypes]
                self._note(p, c.name, types=types)
            else:
                self._note(p, c.name, name=name)
        for c in self._face_up(p, "remove_from_draft"):
            if c is card or card not in seat.pile:
                continue
            if self._may(p, c.name, pack, f"remove {name} from the draft face down"):
                seat.pile.remove(card)
                seat.removed.append(name)
                self._note(p, c.name, removed=1)
                self._event(event="removed", player=p, by=c.name)

    def _three_colors(self, p: int, name: str, pack: _Pack) -> list[str]:
        """905.2b (Paliano, the High City; Regicide): the player to p's right chooses a
        colour, p another, the player to p's left a third."""
        chosen: list[str] = []
        right, left = (p - 1) % self.n, (p + 1) % self.n
        for q in (right, p, left):
            opts = tuple(c for c in COLORS if c not in chosen)
            k = self._ask(q, Decision("color", opts, name, f"a colour for {p}'s {name}"),
                          pack if q == p else None)  # fmt: skip
            chosen.append(opts[k])
        return chosen

    def _after_draft(self) -> None:
        """Deal Broker (trade_after_draft): right after the draft, each in seat order."""
        self.round = self.cset.rounds - 1
        for p in range(self.n):
            for c in [
                c for c in self.seats[p].pile if self._ability(c.name) == "trade_after_draft"
            ]:
                pile = self.seats[p].pile
                opts = ("none",) + tuple(x.name for x in pile)
                k = self._ask(p, Decision("reveal", opts, c.name, "a card to trade away"), None)
                if k == 0:
                    continue
                mine = pile[k - 1]
                self._event(event="reveal", player=p, card=mine.name, because=c.name)
                offers: list[tuple[int, _Card]] = []
                for q in range(self.n):
                    if q == p or not self.seats[q].pile:
                        continue
                    theirs = self.seats[q].pile
                    o = ("none",) + tuple(x.name for x in theirs)
                    j = self._ask(q, Decision("offer", o, c.name, f"offer to {p} for {mine.name}"),
                                  None)  # fmt: skip
                    if j:
                        offers.append((q, theirs[j - 1]))
                        self._event(event="offer", player=q, to=p, card=theirs[j - 1].name)
                if not offers:
                    continue
                o = ("none",) + tuple(x.name for _, x in offers)
                j = self._ask(p, Decision("accept", o, c.name, "an offer to accept"), None)
                if j:
                    q, theirs = offers[j - 1]
                    pile.remove(mine)
                    self.seats[q].pile.remove(theirs)
                    pile.append(theirs)
                    self.seats[q].pile.append(mine)
                    self._event(event="trade", player=p, gave=mine.name, to=q, got=theirs.name)


def make_drafter(
    d: Drafter | str, cset: CardSet, rng: np.random.Generator, db: Any = None
) -> Drafter:
    if not isinstance(d, str):
        return d
    if d == "random":
        return RandomDrafter(rng)
    if d == "rating":
        return RatingDrafter(cset, rng, db)
    raise DraftError(f"unknown drafter {d!r} (random, rating, or a Drafter object)")


def draft(cset: CardSet | str = DEFAULT_SET, players: int = 8, seed: int = 0,
          drafters: Sequence[Drafter | str] | None = None, **kw: Any) -> DraftResult:  # fmt: skip
    """A whole draft in one call."""
    if isinstance(cset, str):
        cset = load_set(cset)
    return Draft(cset, players, seed, drafters, **kw).run()


# ===================================================================== decks
DECK_SIZE, DECK_LANDS = 40, 17


@dataclass
class Deck:
    """A deck built from a pool (905.1d): the main deck (library), the conspiracies put
    into the command zone (905.4: face up, or face down with the named card of a hidden
    agenda), the rest of the pool (sideboard) and pool cards left out because the engine
    can't play them."""

    player: int
    main: list[str]
    command: list[dict] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    commander: list[str] = field(default_factory=list)  # Commander Draft (903.13)
    colors: list[str] = field(default_factory=list)  # chosen colours (903.4b: the Piper)

    def to_json(self) -> dict:
        out = {"player": self.player, "main": list(self.main), "command": list(self.command),
               "sideboard": list(self.sideboard), "left_out": list(self.left_out)}  # fmt: skip
        if self.commander:
            out["commander"] = list(self.commander)
            out["colors"] = list(self.colors)
        return out


_PLAYABLE: dict[str, bool] = {}


def playable_cards(db: Any, names: set[str]) -> set[str]:
    """The cards of ``names`` the engine can play (their records compile)."""
    out = set()
    for n in names:
        if n not in _PLAYABLE:
            _PLAYABLE[n] = n in db and db.check(n) is None
        if _PLAYABLE[n]:
            out.add(n)
    return out


def agenda_names(db: Any, name: str) -> int:
    """How many names a conspiracy's agenda chooses: 0 (none), 1 (hidden agenda,
    702.106), 2 (double agenda)."""
    if name not in db:
        return 0
    kws = _as_list(db.get(name).record.get("keywords"))
    return 2 if "double agenda" in kws else (1 if "hidden agenda" in kws else 0)


def _agenda_wants(db: Any, name: str) -> str:
    """What a hidden agenda's effects are about: instant/sorcery spells, creatures, or any
    card (read from the record: what its `named` filters also ask)."""
    text = repr(db.get(name).record.get("abilities", ""))
    if "Instant" in text or "instant_or_sorcery" in text:
        return "spell"
    if "Creature" in text or "creature" in text:
        return "creature"
    return "any"


def choose_names(db: Any, name: str, main: list[str], infos: dict[str, CardInfo]) -> list[str]:
    """The card(s) a hidden or double agenda names: the deck's most numerous, then best,
    card of the kind its effects are about."""
    want = _agenda_wants(db, name)
    counts: dict[str, int] = {}
    for c in main:
        i = infos[c]
        if i.land:
            continue
        if want == "spell" and not ({"Instant", "Sorcery"} & set(i.types)):
            continue
        if want == "creature" and not i.creature:
            continue
        counts[c] = counts.get(c, 0) + 1
    if not counts:
        counts = {c: 1 for c in main if not infos[c].land} or {c: 1 for c in main}
    ranked = sorted(counts, key=lambda c: (-counts[c], -infos[c].rating, c))
    k = agenda_names(db, name)
    return ranked[:k] if len(ranked) >= k else (ranked * 2)[:k]


def build_deck(p: int, pool: Sequence[str], cset: CardSet | None = None,
               playable: set[str] | None = None, db: Any = None, size: int = DECK_SIZE,
               lands: int = DECK_LANDS) -> Deck:  # fmt: skip
    """The simple builder: the pool's two best colours, its best-rated spells of those
    colours (and colourless ones), its lands of those colours, basic lands for the rest
    (905.1d: any number of basics); every conspiracy into the command zone, hidden
    agendas naming the deck's best card of their kind (Sovereign's Realm stays out: its
    deck can't have basic lands). ``playable``: the cards the engine can play (others
    are left out)."""
    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    rarity = cset.cards if cset else {}
    infos = {c: card_info(c, rarity.get(c, "C"), db) for c in set(pool)}
    if playable is None:
        playable = playable_cards(db, set(pool))
    ok = [c for c in pool if infos[c].known and c in playable]
    left_out = [c for c in pool if c not in ok]
    spells = [c for c in ok if not infos[c].land and not infos[c].conspiracy]
    colors = top_colors([infos[c] for c in spells], 2)
    on = [c for c in spells if set(infos[c].colors) <= set(colors)]
    on.sort(key=lambda c: (-infos[c].rating, c))
    off = sorted((c for c in spells if c not in on), key=lambda c: (-infos[c].rating, c))
    main = (on + off)[: size - lands]
    land_cards = [c for c in ok if infos[c].land and (not infos[c].produces
                  or set(infos[c].produces) & set(colors))]  # fmt: skip
    main += land_cards[: max(0, size - len(main))]
    need = size - len(main)
    weight = {c: sum(infos[m].colors.count(c) for m in main) for c in colors}
    total = sum(weight.values()) or 1
    basics: list[str] = []
    for k, c in enumerate(colors or "W"):
        n = round(need * weight.get(c, 0) / total) if k < len(colors) - 1 else need - len(basics)
        basics += [BASICS[c]] * max(0, n)
    main += basics[:need]
    for b in set(basics):
        infos[b] = card_info(b, "C", db)
    command = []
    for c in ok:
        if infos[c].conspiracy and c != "Sovereign's Realm":
            k = agenda_names(db, c)
            entry: dict[str, Any] = {"card": c, "face_up": k == 0}
            if k:
                names = choose_names(db, c, main, infos)
                entry["named"] = names[0] if k == 1 else names
            if "chosen_number" in repr(db.get(c).record.get("abilities")):  # Emissary's Ploy
                mvs = [infos[m].mv for m in main if infos[m].creature and 1 <= infos[m].mv <= 3]
                entry["number"] = max((1, 2, 3), key=lambda n: (mvs.count(n), -n))
            command.append(entry)
    used = list(main) + [e["card"] for e in command]
    side = list(pool)
    for c in used:
        if c in side:
            side.remove(c)
    return Deck(p, main, command, side, [c for c in left_out if c in side])


def deck_from_list(p: int, pool: Sequence[str], spec: Any, db: Any = None) -> Deck:
    """A player's own deck (905.1d): ``spec`` is ``{main: [...], command: [...]}`` (main
    as names, "N Name" lines or {name: count}; command entries as names or {card, named})
    or decklist text ("N Name" lines; a "Conspiracies" line starts the command zone, where
    "Card = Named Card" names a hidden agenda's card). Only pool cards and basic lands."""
    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    if isinstance(spec, str):
        spec = _parse_list_text(spec)
    if not isinstance(spec, dict) or "main" not in spec:
        raise DraftError(f"deck of player {p}: expected {{main: [...], command: [...]}}")
    main = _expand(spec["main"], f"deck of player {p}: main")
    command = []
    for e in _as_list(spec.get("command")):
        e = {"card": e} if isinstance(e, str) else dict(e)
        if not isinstance(e.get("card"), str):
            raise DraftError(f"deck of player {p}: command entries are names or {{card, named}}")
        k = agenda_names(db, e["card"])
        e.setdefault("face_up", k == 0)
        command.append(e)
    have = list(pool)
    for c in main + [e["card"] for e in command]:
        if c in db and "Basic" in _as_list(db.get(c).record.get("supertypes")):
            continue
        if c not in have:
            raise DraftError(f"deck of player {p}: {c!r} is not in their card pool (905.1d)")
        have.remove(c)
    procl = sum(e["card"] == "Advantageous Proclamation" for e in command)
    minimum = DECK_SIZE - 5 * procl
    if len(main) < minimum:
        raise DraftError(f"deck of player {p}: {len(main)} cards; at least {minimum}")
    if any(e["card"] == "Sovereign's Realm" for e in command) and any(
        c in db and "Basic" in _as_list(db.get(c).record.get("supertypes")) for c in main
    ):
        raise DraftError(f"deck of player {p}: Sovereign's Realm: no basic land cards")
    return Deck(p, main, command, have, [])


# ------------------------------------------------------------ Commander Draft decks
COMMANDER_DRAFT_SIZE = 60  # 903.13f(1): at least 60 cards, the commander included


def _commander_options(db: Any, ok: list[str], piper: bool, masters: bool,
                       playable: set[str], faceless: bool = False
                       ) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:  # fmt: skip
    """Every (commanders, chosen colours) a pool offers (903.13e-f): each card of the pool
    that can be a commander, pairs of them with partner, a legend with "choose a
    Background" and a drafted Background (702.124), The Prismatic Piper (with each
    colour, 903.4b) alone or as a partner, and Faceless One alone, as the Background of a
    legend that chooses one, or two of them (one chooses the other as its Background)."""
    from ecs.deck_rules import (
        FACELESS,
        PIPER,
        _has_partner,
        _masters_partner,
        background_pair,
        can_be_commander,
        is_background,
    )

    def partner(c: str) -> bool:
        return _has_partner(db, c) or (masters and _masters_partner(db, c))

    legends = sorted({c for c in ok if can_be_commander(db, c)})
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = [((c,), ()) for c in legends]
    out += [((a, b), ()) for k, a in enumerate(legends) for b in legends[k + 1:]
            if partner(a) and partner(b)]  # fmt: skip
    backgrounds = sorted({c for c in ok if is_background(db, c) and c != FACELESS})
    out += [((a, b), ()) for a in legends for b in backgrounds
            if a != b and background_pair(db, a, b)]  # fmt: skip

    def added(name: str, pairs: Any) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """903.13e's commander in each colour (903.4b): alone, beside a legend it pairs
        with, or two of them."""
        return ([((name,), (c,)) for c in COLORS]
                + [((c, name), (x,)) for c in legends if pairs(c) for x in COLORS]
                + [((name, name), (x, y)) for k, x in enumerate(COLORS)
                   for y in COLORS[k + 1 :]])  # fmt: skip

    if piper and PIPER in db and PIPER in playable:
        out += added(PIPER, partner)
    if faceless and FACELESS in db and FACELESS in playable:
        out += added(FACELESS, lambda c: background_pair(db, c, FACELESS))
    return out


def build_commander_deck(p: int, pool: Sequence[str], cset: CardSet | None = None,
                         playable: set[str] | None = None, db: Any = None,
                         size: int = COMMANDER_DRAFT_SIZE) -> Deck:  # fmt: skip
    """The Commander Draft builder (903.13e-f): the commander (or two partners) whose
    colour identity holds the most value of the pool's playable cards, The Prismatic
    Piper or Faceless One with a chosen colour (903.13e, 903.4b) when the set's boosters
    allow it and no drafted commander does better; the pool's cards of that identity
    (every copy: 903.13f allows any number of the same name), its lands of the identity,
    then basic lands of the identity up to ``size`` cards counting the commander
    (903.13f: at least 60).
    The rest of the pool is the sideboard; cards the engine can't play are left out."""
    from ecs.deck_rules import FACELESS, PIPER, _identity_problems, check_deck, color_identity

    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    rarity = cset.cards if cset else {}
    piper = bool(cset and cset.prismatic_piper)
    masters = bool(cset and cset.masters_partner)
    faceless = bool(cset and cset.faceless_one)
    added = {PIPER} if piper else set()  # 903.13e: commanders the boosters allow adding
    added |= {FACELESS} if faceless else set()
    infos = {c: card_info(c, rarity.get(c, "C"), db) for c in set(pool)}
    if playable is None:
        playable = playable_cards(db, set(pool) | {c for c in added if c in db})
    ok = [c for c in pool if infos[c].known and c in playable]
    ident = {c: color_identity(db, c) for c in set(ok)}
    spells_all = [c for c in ok if not infos[c].land and not infos[c].conspiracy]
    max_spells = size - 1 - 22  # room for at least 22 lands (a usual limited share)

    def fit(cmds: tuple[str, ...], chosen: tuple[str, ...]) -> tuple[float, list[str], set[str]]:
        allowed: set[str] = set(chosen)
        for c in cmds:
            if c not in added:
                allowed |= ident[c]
        rest = list(spells_all)
        for c in cmds:
            if c in rest:
                rest.remove(c)
        on = sorted((c for c in rest if ident[c] <= allowed), key=lambda c: (-infos[c].rating, c))
        on = on[:max_spells]
        value = sum(infos[c].rating for c in on)
        value += sum(1.5 * infos[c].rating for c in cmds if c not in added)
        value -= 2.0 * sum(c in added for c in cmds)  # a drafted commander first
        return value, on, allowed

    options = _commander_options(db, ok, piper, masters, playable, faceless)
    if not options:
        raise DraftError(
            f"player {p}: no card of their pool can be a commander (903.3) and "
            f"the set's boosters don't give The Prismatic Piper or Faceless One (903.13e)"
        )
    scored = []
    for cmds, chosen in options:
        value, on, allowed = fit(cmds, chosen)
        scored.append((-value, cmds, chosen, on, allowed))
    scored.sort(key=lambda x: (x[0], x[1], x[2]))
    _, cmds, chosen, main, allowed = scored[0]
    main = list(main)
    rest = list(ok)
    for c in list(cmds) + main:
        if c in rest:
            rest.remove(c)
    lands = [c for c in rest if infos[c].land and not _identity_problems([c], allowed, db)]
    main += lands[: max(0, size - len(cmds) - len(main))]
    need = size - len(cmds) - len(main)
    letters = [c for c in COLORS if c in allowed]
    weight = {c: sum(color_identity(db, m) >= {c} for m in main) + 1 for c in letters}
    total = sum(weight.values())
    basics: list[str] = []
    for k, c in enumerate(letters):
        n = round(need * weight[c] / total) if k < len(letters) - 1 else need - len(basics)
        basics += [BASICS[c]] * max(0, n)
    main += basics[:need]
    side = list(pool)
    for c in list(cmds) + main:
        if c in side:
            side.remove(c)
    deck = Deck(p, main, [], side, [c for c in side if c not in playable or not infos[c].known],
                list(cmds), list(chosen))  # fmt: skip
    problems = check_deck(deck, "commander-draft", db, pool=pool, piper=piper, masters=masters,
                          colors=list(chosen), faceless=faceless)  # fmt: skip
    if problems:  # (the builder's own mistake: never a player's)
        raise DraftError(f"player {p}: the built Commander deck is illegal: {problems[0]}")
    return deck


def commander_deck_from_list(p: int, pool: Sequence[str], spec: Any, cset: CardSet | None = None,
                             db: Any = None) -> Deck:  # fmt: skip
    """A player's own Commander Draft deck (903.13e-f): decklist text with a Commander
    section (``ecs.deck_rules.parse_deck``), or ``{commander: [...], main: [...], colors:
    [...]}``; checked against their pool by 903.13f (DraftError naming the first problem,
    and how many more)."""
    from ecs.deck_rules import ParsedDeck, check_deck, parse_deck

    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    colors = None
    if isinstance(spec, str):
        deck = parse_deck(spec, db)
    elif isinstance(spec, dict) and "main" in spec:
        deck = ParsedDeck(main=_expand(spec["main"], f"deck of player {p}: main"),
                          commander=_expand(spec.get("commander") or [],
                                            f"deck of player {p}: commander"))  # fmt: skip
        colors = spec.get("colors")
    else:
        raise DraftError(f"deck of player {p}: decklist text with a Commander section, or "
                         "{commander: [...], main: [...]}")  # fmt: skip
    piper = bool(cset and cset.prismatic_piper)
    masters = bool(cset and cset.masters_partner)
    faceless = bool(cset and cset.faceless_one)
    problems = check_deck(deck, "commander-draft", db, pool=pool, piper=piper, masters=masters,
                          colors=colors, faceless=faceless)  # fmt: skip
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise DraftError(f"deck of player {p}: {problems[0]}{more}")
    chosen = list(colors) if colors is not None else _chosen_colors(deck, db)
    side = list(pool)
    for c in deck.main + deck.commander:
        if c in side:
            side.remove(c)
    return Deck(p, list(deck.main), [], side, [], list(deck.commander), chosen)


def _chosen_colors(deck: Any, db: Any) -> list[str]:
    """903.4b without a stated choice: the colours that make the deck legal (the first
    such in WUBRG order), one per commander that asks for one."""
    from ecs.deck_rules import _chooses_color, _color_choices, _identity_problems, color_identity

    choosers = [c for c in deck.commander if _chooses_color(db, c)]
    fixed: set[str] = set()
    for c in deck.commander:
        if c not in choosers:
            fixed |= color_identity(db, c)
    for combo in _color_choices(len(choosers)):
        if not _identity_problems(deck.main, fixed | set(combo), db):
            return list(combo)
    return []


def _expand(v: Any, where: str) -> list[str]:
    out: list[str] = []
    if isinstance(v, dict):
        for name, n in v.items():
            if not isinstance(n, int) or n < 0 or n > 1000:
                raise DraftError(f"{where}: {name}: a count from 0 to 1000")
            out += [name] * n
        return out
    for line in _as_list(v):
        if not isinstance(line, str):
            raise DraftError(f"{where}: card names or 'N Name' lines")
        parts = line.strip().split(" ", 1)
        if len(parts) == 2 and parts[0].isdigit():
            out += [parts[1].strip()] * int(parts[0])
        elif line.strip():
            out.append(line.strip())
    return out


def _parse_list_text(text: str) -> dict:
    main: list[str] = []
    command: list[dict] = []
    in_command = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower().rstrip(":") in ("conspiracies", "command", "conspiracy"):
            in_command = True
            continue
        if line.lower().rstrip(":") in ("deck", "main"):
            in_command = False
            continue
        if in_command:
            card, _, named = line.partition("=")
            card = card.strip()
            parts = card.split(" ", 1)
            if len(parts) == 2 and parts[0].isdigit():
                card = parts[1]
            e: dict[str, Any] = {"card": card}
            if named.strip():
                names = [x.strip() for x in named.split(",")]
                e["named"] = names[0] if len(names) == 1 else names
            command.append(e)
        else:
            main.append(line)
    return {"main": main, "command": command}


# ===================================================================== playing the decks
def pods(n: int) -> list[list[int]]:
    """The drafters split into multiplayer games (905.3): tables of three to five, four
    where possible (8 -> 4+4, 7 -> 4+3, 6 -> 3+3, 5 -> 5); two drafters play each other."""
    if n <= 5:
        return [list(range(n))]
    k = -(-n // 4)
    sizes = [n // k + (1 if j < n % k else 0) for j in range(k)]
    out, start = [], 0
    for s in sizes:
        out.append(list(range(start, start + s)))
        start += s
    return out


def play_games(result: DraftResult, decks: list[Deck], seed: int = 0, policy: str = "heuristic",
               max_turns: int = 200, db: Any = None) -> list[dict]:  # fmt: skip
    """905.3-905.6: each pod (``pods``) plays one free-for-all game (attack multiple
    players, no range limit, life 20, seven cards) on the compiled engine, every player
    driven by the compiled ``policy`` (heuristic or random); conspiracies start in the
    command zone, the notes of the draft come along. Decks with a commander (Commander
    Draft, 903.13g) play a Commander game instead (903.6-903.11: the commanders in the
    command zone, life 40, the tax, 21 combat damage from one commander). Returns one
    row per game."""
    from ecs.engine import Game, Options, call
    from systems import entry, policies

    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    pol = {"heuristic": policies.POLICY_HEURISTIC, "random": policies.POLICY_RANDOM}[policy]
    rows = []
    seeds = np.random.SeedSequence(int(seed)).generate_state(len(decks) + 1, np.uint32)
    for g, pod in enumerate(pods(len(decks))):
        seat = {d: k for k, d in enumerate(pod)}
        notes = []
        for n in result.notes:
            if n["player"] in seat:
                m = dict(n, player=seat[n["player"]])
                if m.get("passer") is not None:
                    m["passer"] = seat.get(m["passer"])
                notes.append(m)
        variant = "two-player" if len(pod) == 2 else "free-for-all"
        commander = any(decks[d].commander for d in pod)
        extra: dict[str, Any] = (
            {"casual": ("commander",), "commanders": [list(decks[d].commander) for d in pod],
             "commander_colors": [list(decks[d].colors) for d in pod]}  # 903.4b: the Piper
            if commander
            else {"command": [decks[d].command for d in pod], "notes": notes,
                  "pool_outside": [len(decks[d].sideboard) for d in pod]}
        )  # fmt: skip
        game = Game.new(
            [decks[d].main for d in pod], variant=variant, seed=int(seeds[g]),
            options=Options(max_turns=max_turns, max_decisions=20_000), db=db,
            names=[f"P{d}" for d in pod], **extra,
        )  # fmt: skip
        t0 = time.perf_counter()
        call(entry.PLAY, game.arena, game.compiled.arena, pol)
        rows.append({
            "game": g, "players": [f"P{d}" for d in pod], "turns": game.turn,
            "winners": [game.names[p] for p in game.winners],
            "capped": game.capped, "seconds": round(time.perf_counter() - t0, 3),
            "monarch": game.view()["game"]["monarch"],
        })  # fmt: skip
        if commander:
            rows[-1]["commanders"] = {f"P{d}": list(decks[d].commander) for d in pod}
    return rows


# ===================================================================== command line
def add_arguments(ap: argparse.ArgumentParser) -> None:
    """``melee draft``'s flags (the lead wires them into ecs/cli.py)."""
    from ecs.checks import int_arg

    ap.add_argument("--players", type=int_arg(MIN_PLAYERS, MAX_PLAYERS), default=8,
                    help="drafters at the table")  # fmt: skip
    ap.add_argument("--format", choices=FORMATS, default="conspiracy",
                    help="conspiracy (905: 40-card decks, conspiracies) or commander (903.13 "
                    "Commander Draft: two cards a pick, a commander and 60 cards from each "
                    "pool, Commander games)")  # fmt: skip
    ap.add_argument("--set", default=None, metavar="SET",
                    help=f"a bundled set ({', '.join(set_names())}) or a set file's path "
                    f"(default: {DEFAULT_SETS['conspiracy']}; with --format commander "
                    f"{DEFAULT_SETS['commander']})")  # fmt: skip
    ap.add_argument("--seed", type=int_arg(0, 2**63 - 1), default=0,
                    help="one seed: the same seed, set and drafters give the same draft")  # fmt: skip
    ap.add_argument("--drafters", default="rating", metavar="KIND[,KIND...]",
                    help="random or rating, one for all or one per seat")  # fmt: skip
    ap.add_argument("--out", default=None, metavar="FILE",
                    help="write pools, picks, notes and decks as JSON")  # fmt: skip
    ap.add_argument("--deck", action="append", default=[], metavar="SEAT=FILE",
                    help="seat SEAT plays its own deck list (text or YAML, from its pool; "
                    "Commander Draft: a decklist with a Commander section)")  # fmt: skip
    ap.add_argument("--play", action="store_true",
                    help="play the decks: one free-for-all game per table of 3-5 (905.3; "
                    "Commander games with --format commander)")  # fmt: skip
    ap.add_argument("--policy", choices=("heuristic", "random"), default="heuristic",
                    help="how the compiled engine plays every seat with --play")  # fmt: skip
    ap.add_argument("--max-turns", type=int_arg(1, 10_000), default=200,
                    help="with --play: a game this long is a draw")  # fmt: skip


def main(args: argparse.Namespace) -> int:
    """``melee draft``: draft, build decks, write JSON (--out), play (--play). Bad input
    is one line on stderr and exit status 2."""

    def fail(msg: str) -> int:
        print(f"melee draft: error: {msg}", file=sys.stderr)
        return 2

    out = Path(args.out) if args.out else None
    if out is not None:
        if out.is_dir():
            return fail(f"--out {args.out}: is a folder (expected a file path)")
        parent = out.parent if str(out.parent) else Path(".")
        if not parent.is_dir():
            return fail(f"--out {args.out}: folder {parent} doesn't exist")

        if not os.access(parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
            return fail(f"--out {args.out}: not writable")
    kinds = [k.strip() for k in str(args.drafters).split(",") if k.strip()]
    if not kinds or any(k not in ("random", "rating") for k in kinds):
        return fail(f"--drafters {args.drafters!r}: random or rating (a comma list by seat)")
    if len(kinds) not in (1, args.players):
        return fail(f"--drafters: one kind, or one per seat ({args.players})")
    lists: dict[int, Any] = {}
    for spec in args.deck:
        seat, sep, path = spec.partition("=")
        if not sep or not seat.isdigit() or not 0 <= int(seat) < args.players:
            return fail(f"--deck {spec!r}: SEAT=FILE with SEAT from 0 to {args.players - 1}")
        from ecs.checks import InputError, load_yaml, read_text

        try:
            text = read_text(path)
            data = load_yaml(text, path) if path.endswith((".yaml", ".yml", ".json")) else text
        except InputError as e:
            return fail(str(e))
        lists[int(seat)] = data
    fmt = getattr(args, "format", "conspiracy") or "conspiracy"
    try:
        cset = load_set(args.set or DEFAULT_SETS[fmt])
        if fmt == "commander" and cset.picks != 2:  # 903.13b: two cards at a time
            cset = replace(cset, picks=2)
        from ecs.cards import load_pool

        db = load_pool()
        drafters = kinds * args.players if len(kinds) == 1 else kinds
        result = Draft(cset, args.players, args.seed, drafters, db=db).run()
        decks = result.build_decks(lists, db=db, fmt=fmt)
    except DraftError as e:
        return fail(str(e))
    data = result.to_json(decks)
    data["format"] = fmt
    print(f"{cset.name}: {args.players} drafters, {cset.rounds} rounds, "
          f"{sum(len(p) for p in result.pools)} cards drafted in {result.seconds * 1000:.0f} ms "
          f"(seed {args.seed}); {len(result.notes)} notes")  # fmt: skip
    for d in decks:
        if d.commander:
            out_ = (
                f"; left out (the engine can't play them): {len(d.left_out)}" if d.left_out else ""
            )
            print(f"  P{d.player}: {len(result.pools[d.player])} cards, commander "
                  f"{commander_label(d)}, deck {len(d.main) + len(d.commander)} (903.13f){out_}")  # fmt: skip
            continue
        names = ", ".join(e["card"] + (f" [{e['named']}]" if e.get("named") else "")
                          for e in d.command) or "-"  # fmt: skip
        extra = f"; left out (the engine can't play them): {len(d.left_out)}" if d.left_out else ""
        print(f"  P{d.player}: {len(result.pools[d.player])} cards, deck {len(d.main)}, "
              f"conspiracies: {names}{extra}")  # fmt: skip
    if args.play:
        rows = play_games(result, decks, args.seed, args.policy, args.max_turns, db=db)
        data["games"] = rows
        for r in rows:
            who = ", ".join(r["winners"]) or ("draw (turn cap)" if r["capped"] else "draw")
            mon = f", monarch {r['monarch']}" if r["monarch"] else ""
            kind = "Commander: " if r.get("commanders") else ""  # 903.13g
            print(f"  game {r['game'] + 1} ({kind}{' '.join(r['players'])}): {who} after "
                  f"{r['turns']} turns{mon}")  # fmt: skip
    if out is not None:
        out.write_text(json.dumps(data, indent=1))
        print(f"wrote {out}")
    return 0


def commander_label(d: Deck) -> str:
    """The deck's commanders, each with its chosen colour (903.4b): "A + The Prismatic
    Piper (G)", "Faceless One (W) + Faceless One (B)"."""
    from ecs.deck_rules import ADDED  # (903.13e's commanders, whose colour is chosen)

    colors = iter(d.colors)
    return " + ".join(f"{c} ({next(colors, '?')})" if c in ADDED else c
                      for c in d.commander)  # fmt: skip


# ===================================================================== draft scenarios
class ScriptedDrafter:
    """Answers a draft scenario's decisions from a script, in the order they are asked
    (tests/drafts/README.md): each answer is one of the decision's options as text (a
    card name, yes / no, a colour letter, a player name, none). A decision the script
    doesn't answer takes its first option; an answer that isn't an option fails."""

    name = "scripted"

    def __init__(self, answers: list, names: list[str]):
        self.answers = deque(answers)
        self.names = names
        self.views: list[tuple[DraftView, Decision]] = []

    def _label(self, kind: str, o: Any) -> str:
        if kind == "player" and isinstance(o, (int, np.integer)):
            return self.names[int(o)]
        return str(o)

    def choose(self, view: DraftView, decision: Decision) -> int:
        self.views.append((view, decision))
        if not self.answers:
            return 0
        a = self.answers.popleft()
        want = ("yes" if a else "no") if isinstance(a, bool) else str(a)  # (YAML's yes/no)
        labels = [self._label(decision.kind, o) for o in decision.options]
        if want not in labels:
            raise DraftError(
                f"{self.names[view.player]} answered {want!r} to a {decision.kind} decision"
                f"{' of ' + decision.card if decision.card else ''}; options: {labels}"
            )
        return labels.index(want)


DRAFT_SCENARIO_KEYS = {"name", "rules", "description", "set", "players", "rounds", "picks",
                       "boosters", "extra_boosters", "drafts", "seed", "random_order", "expect",
                       "decks", "prismatic_piper", "masters_partner", "faceless_one"}  # fmt: skip


def load_draft_scenario(path: str | Path) -> dict:
    """A draft scenario file (tests/drafts/README.md), checked: DraftError naming the
    file and field for anything wrong."""
    from ecs.checks import InputError, load_yaml, read_text

    path = str(path)
    try:
        data = load_yaml(read_text(path), path)
    except InputError as e:
        raise DraftError(str(e)) from None

    def err(f: str, msg: str) -> DraftError:
        return DraftError(f"{path}: {f}: {msg}")

    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise err("name", "required: a non-empty string")
    for k in data:
        if k not in DRAFT_SCENARIO_KEYS:
            raise err(k, f"unknown field (expected one of {sorted(DRAFT_SCENARIO_KEYS)})")
    players = data.get("players")
    if isinstance(players, int):
        players = [f"P{k}" for k in range(players)]
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise err("players", f"a number or a list of names ({MIN_PLAYERS} to {MAX_PLAYERS})")
    data["players"] = [str(p) for p in players]
    b = data.get("boosters")
    if (
        not isinstance(b, list)
        or not b
        or any(not isinstance(r, list) or len(r) != len(players) for r in b)
    ):
        raise err("boosters", "a list of rounds, each a list of one booster per player")
    drafts = data.get("drafts") or {}
    if not isinstance(drafts, dict) or any(p not in data["players"] for p in drafts):
        raise err("drafts", "a mapping of player name -> list of answers")
    decks = data.get("decks") or {}
    if not isinstance(decks, dict) or any(
        p not in data["players"] or not isinstance(d, dict) or "main" not in d
        for p, d in decks.items()
    ):
        raise err("decks", "a mapping of player name -> {commander: [...], main: [...], "
                  "colors: [...]} (a Commander Draft deck from that player's pool)")  # fmt: skip
    for key in ("prismatic_piper", "masters_partner", "faceless_one"):
        if not isinstance(data.get(key, False), bool):
            raise err(key, "true or false")
    return data


def run_draft_scenario(data: dict, db: Any = None) -> tuple[list[str], DraftResult | None]:
    """Run a draft scenario; its failed expectations (empty when it passes)."""
    from ecs.scenario import check

    if db is None:
        from ecs.cards import load_pool

        db = load_pool()
    names = data["players"]
    boosters = data["boosters"]
    for r in boosters:
        for pack in r:
            for c in pack:
                if c not in db:
                    return [f"boosters: unknown card {c!r}"], None
    rounds = data.get("rounds", len(boosters))
    base = load_set(data["set"]) if data.get("set") else None
    cards = {c: "C" for r in boosters for pack in r for c in pack}
    for pack in data.get("extra_boosters") or []:
        cards.update({c: "C" for c in pack})
    if base is not None:
        cards = {**base.cards, **cards}
    cset = CardSet(data["name"], "scenario", cards, {}, (Slot(1, "C"),),
                   int(data.get("picks", 1)), int(rounds),
                   prismatic_piper=bool(data.get("prismatic_piper", False)),
                   masters_partner=bool(data.get("masters_partner", False)),
                   faceless_one=bool(data.get("faceless_one", False)))  # fmt: skip
    scripts = [ScriptedDrafter(list((data.get("drafts") or {}).get(p) or []), names)
               for p in names]  # fmt: skip
    try:
        result = Draft(cset, len(names), int(data.get("seed", 0)), scripts, boosters=boosters,
                       extra_boosters=data.get("extra_boosters"), db=db,
                       shuffle_order=bool(data.get("random_order", False))).run()  # fmt: skip
    except DraftError as e:
        return [f"draft: {e}"], None
    left = [f"{names[k]}: {len(s.answers)} answer(s) not used: {list(s.answers)}"
            for k, s in enumerate(scripts) if s.answers]  # fmt: skip
    view = draft_view(result, names)
    view["decks"] = {}
    for who, spec in (data.get("decks") or {}).items():
        view["decks"][who] = commander_deck_view(result.pools[names.index(who)], spec, cset, db)
    fails = list(left)
    for path, want in (data.get("expect") or {}).items():
        msg = check(view, str(path), want)
        if msg:
            fails.append(f"expect: {msg}")
    return fails, result


def commander_deck_view(pool: list[str], spec: dict, cset: CardSet, db: Any) -> dict:
    """A draft scenario's Commander Draft deck checked by 903.13e-f: ``legal``, the
    ``problems`` (ecs.deck_rules messages) and the ``rules`` they cite."""
    import re

    from ecs.deck_rules import ParsedDeck, check_deck

    where = "decks"
    main = _expand(spec.get("main"), f"{where}: main")
    deck = ParsedDeck(main=main, commander=_expand(spec.get("commander") or [], where))
    problems = check_deck(deck, "commander-draft", db, pool=pool, piper=cset.prismatic_piper,
                          masters=cset.masters_partner, colors=spec.get("colors"),
                          faceless=cset.faceless_one)  # fmt: skip
    rules = sorted({r for m in problems for r in re.findall(r"\b\d{3}\.\d+[a-z]?\b", m)})
    return {"legal": not problems, "problems": problems, "rules": rules, "size": len(main)
            + len(deck.commander)}  # fmt: skip


def draft_view(result: DraftResult, names: list[str]) -> dict:
    """What draft scenarios' expectations address (tests/drafts/README.md)."""

    def who(p: Any) -> Any:
        return names[p] if isinstance(p, int) and 0 <= p < len(names) else p

    def named(d: dict) -> dict:
        out = {k: (who(v) if k in ("player", "passer", "to", "drafted_by") else v)
               for k, v in d.items()}  # fmt: skip
        out.pop("round", None)
        return out

    return {
        "pools": {names[p]: list(c) for p, c in enumerate(result.pools)},
        "removed": {names[p]: list(c) for p, c in enumerate(result.removed)},
        "picks": {
            names[p]: [x["card"] for x in result.picks if x["player"] == p]
            for p in range(len(names))
        },  # fmt: skip
        "notes": [named(n) for n in result.notes],
        "events": [named(e) for e in result.events],
        "private": {names[p]: [named(x) for x in result.private[p]] for p in range(len(names))},
    }


def draft_scenarios_main(paths: list[str]) -> int:
    """Run draft scenario files (folders: every *.yaml): PASS / FAIL lines, then
    "N passed, M failed"; exit 0, 1 (a failure) or 2 (an invalid file)."""
    from ecs.scenario import find_files

    passed = failed = 0
    invalid = False
    for f in find_files(paths):
        try:
            data = load_draft_scenario(f)
        except DraftError as e:
            print(f"INVALID {e}")
            invalid = True
            continue
        fails, _ = run_draft_scenario(data)
        print(f"{'PASS' if not fails else 'FAIL'} {data['name']}")
        for m in fails:
            print(f"    {m}")
        passed += not fails
        failed += bool(fails)
    print(f"{passed} passed, {failed} failed")
    return 2 if invalid else (0 if failed == 0 else 1)


if __name__ == "__main__":  # python -m ecs.draft ...
    _ap = argparse.ArgumentParser(prog="melee draft", description="A booster draft (905).")
    add_arguments(_ap)
    raise SystemExit(main(_ap.parse_args()))
