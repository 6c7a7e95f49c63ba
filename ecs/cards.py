"""Card records: load them, check them, compile them to the cards arena, and render
their rules text from what they say.

A record is one readable YAML mapping per card (``ecs/data/cards/*.yaml``) in the
vocabulary of ``ecs/data/cards/VOCABULARY.md``. ``load_pool()`` reads the bundled
pool; ``CardDB.compile(names)`` builds the tables a game uses (components/cards.py)
for just the cards a game needs; ``CardDB.text(name)`` renders what the engine will
do. A record that uses a word the engine doesn't know is refused by name with that
word (``CardError``), never played some other way."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from components import cards as K
from components.effects import (
    UNTIL_END_OF_TURN,
    UNTIL_FOREVER,
    UNTIL_LEAVES,
    UNTIL_PLANESWALK,
    UNTIL_WHILE_CONTROLLED,
    UNTIL_YOUR_NEXT_TURN,
)
from components.rules import (
    COLOR_LETTERS,
    COUNTER_NAMES,
    KEYWORD_NAMES,
    MANA_LETTERS,
    STEP_NAMES,
    SUPERTYPE_NAMES,
    T_NONTRADITIONAL,
    TYPE_NAMES,
    ZONE_NAMES,
)

DATA = Path(__file__).parent / "data" / "cards"


class CardError(ValueError):
    """A record (or a card name) the engine can't use: the message names the card, the
    field and what was expected."""


# ----------------------------------------------------------------- small vocabularies
TYPE_BIT = {n: 1 << k for k, n in enumerate(TYPE_NAMES)}
TYPE_BIT["Tribal"] = TYPE_BIT["Kindred"]
SUPER_BIT = {n: 1 << k for k, n in enumerate(SUPERTYPE_NAMES)}
COLOR_BIT = {c: 1 << k for k, c in enumerate(COLOR_LETTERS)}
KW_BIT = {n: 1 << k for k, n in enumerate(KEYWORD_NAMES)}
COUNTER = {n: k for k, n in enumerate(COUNTER_NAMES)}
ZONE = {n: k for k, n in enumerate(ZONE_NAMES)}
STEP = {n.replace("-", "_"): k for k, n in enumerate(STEP_NAMES)}
STEP.update({"combat": STEP["beginning_of_combat"], "end_step": STEP["end"]})
BASIC_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")  # WUBRG
# 205.3g-h: the artifact and enchantment types: never creature types, also on a creature
# card (an enchantment creature Background, an artifact creature Equipment)
ARTIFACT_TYPES = frozenset({
    "Attraction", "Blood", "Bobblehead", "Clue", "Contraption", "Equipment", "Food",
    "Fortification", "Gold", "Incubator", "Infinity", "Junk", "Lander", "Map", "Mutagen",
    "Powerstone", "Spacecraft", "Stone", "Treasure", "Vehicle",
})  # fmt: skip
ENCHANTMENT_TYPES = frozenset({
    "Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune",
    "Saga", "Shard", "Shrine",
})  # fmt: skip
NONCREATURE_SUBTYPES = ARTIFACT_TYPES | ENCHANTMENT_TYPES
# keywords that work only as the deck is built (no ability in the game, no keyword bit):
# "choose a Background" (702.124, a partner variant; read by ecs/deck_rules.py)
DECK_KEYWORDS = frozenset({"choose a Background"})
REL = {
    "any": K.REL_ANY, "you": K.REL_YOU, "opponent": K.REL_OPPONENT,
    "not_you": K.REL_NOT_YOU, "teammate": K.REL_TEAMMATE, "active": K.REL_ACTIVE,
    "each": K.REL_ANY, "opponents": K.REL_OPPONENT,
    "defending_player": K.REL_EVENT_PLAYER, "event_player": K.REL_EVENT_PLAYER,
}  # fmt: skip
UNTIL = {
    "end_of_turn": UNTIL_END_OF_TURN, "leaves": UNTIL_LEAVES,
    "your_next_turn": UNTIL_YOUR_NEXT_TURN, "forever": UNTIL_FOREVER,
}  # fmt: skip
SIMPLE_REFS = {
    "you": K.R_YOU, "controller": K.R_YOU, "self": K.R_SELF, "it": K.R_IT,
    "chosen": K.R_CHOSEN, "enchanted": K.R_ATTACHED, "equipped": K.R_ATTACHED,
    "attached": K.R_ATTACHED, "event.object": K.R_EVENT_OBJECT, "sacrificed": K.R_EVENT_OBJECT,
    "event.player": K.R_EVENT_PLAYER, "defending_player": K.R_EVENT_PLAYER,
    "event.controller": K.R_EVENT_CONTROLLER, "event.source": K.R_EVENT_SOURCE,
    "active_player": K.R_ACTIVE, "player_to_your_left": K.R_LEFT,
    "player_to_your_right": K.R_RIGHT, "chosen_player": K.R_CHOSEN_PLAYER,
    "event.attacked": K.R_EVENT_ATTACKED, "event.item": K.R_EVENT_ITEM,
}  # fmt: skip
SET_REFS = {
    "each_player": K.R_EACH_PLAYER, "each_opponent": K.R_EACH_OPPONENT,
    "each_other_player": K.R_EACH_OTHER, "each_teammate": K.R_EACH_TEAMMATE,
    "all_chosen": K.R_ALL_CHOSEN,
    "each_opponent_but_target": K.R_EACH_OPPONENT_BUT_TARGET,  # (issue 14)
    "each_opponent_but_defending": K.R_EACH_OPPONENT_BUT_DEFENDING,  # (Kharasha Foothills)
    "each_player_but_controller_of_target": K.R_EACH_PLAYER_BUT_TARGET_CONTROLLER,
}  # fmt: skip
FILTER_WORDS = {
    "any": {"what": "both", "type": ["Creature", "Planeswalker", "Battle"]},
    "creature": {"type": "Creature"},
    "player": {"what": "players"},
    "opponent": {"what": "players", "player": "opponent"},
    "teammate": {"what": "players", "player": "teammate"},
    "permanent": {},
    "nonland_permanent": {"not_type": "Land"},
    "artifact": {"type": "Artifact"},
    "enchantment": {"type": "Enchantment"},
    "land": {"type": "Land"},
    "basic_land": {"type": "Land", "supertype": "Basic"},
    "planeswalker": {"type": "Planeswalker"},
    "battle": {"type": "Battle"},
    "creature_or_planeswalker": {"type": ["Creature", "Planeswalker"]},
    "artifact_or_enchantment": {"type": ["Artifact", "Enchantment"]},
    "player_or_planeswalker": {"what": "both", "type": "Planeswalker"},
    "spell": {"zone": "stack"},
    "instant_or_sorcery": {"zone": "stack", "type": ["Instant", "Sorcery"]},
    "card": {"zone": "any"},
    "creature_you_control": {"type": "Creature", "controller": "you"},
    "creatures_you_control": {"type": "Creature", "controller": "you"},
    "each_creature": {"type": "Creature"},
}
FILTER_KEYS = {
    "what", "type", "type_all", "not_type", "subtype", "not_subtype", "supertype",
    "not_supertype", "controller", "owner", "color", "not_color", "colorless",
    "multicolored", "token", "tapped", "attacking", "another", "power", "toughness", "mv",
    "zone", "player", "name", "commander", "keyword", "any_of", "mutate", "subgame",
    "without_counter",  # Planechase 2012's planes
    "named", "noted_name", "noted_type", "noted_color",  # Conspiracy Draft (905)
    "not_keyword", "not_controller", "not_player", "put_onto_battlefield_by",  # schemes (904)
    "same_name_as", "shares_type_with",  # Planechase (2009): Isle of Vesuva, Cliffside Market
    "attacked_this_turn",  # Planechase (2009): Sokenzan
    "enchanted", "dealt_combat_damage_to_player",  # Planechase 2012: Akoum, Glen Elendra
    "face_down",  # 708: face-down permanents (Ixidron)
    "single_target",  # a spell with a single target (Glimmervoid Basin)
    "suspended",  # 702.62b: a suspended card (Talon Gates)
}  # fmt: skip


def _list(v: Any) -> list:
    if v is None:
        return []
    return list(v) if isinstance(v, (list, tuple)) else [v]


@dataclass
class Card:
    """What Python knows of a card: its record and where it is compiled to."""

    name: str
    record: dict
    real: bool = True
    token: bool = False
    source: str = ""

    @property
    def types(self) -> list[str]:
        return _list(self.record.get("types"))

    @property
    def subtypes(self) -> list[str]:
        return _list(self.record.get("subtypes"))

    @property
    def supertypes(self) -> list[str]:
        return _list(self.record.get("supertypes"))


MANA_SYMBOL = re.compile(r"\{([^}]+)\}")


def parse_cost(
    cost: Any, where: str, hybrid: list[int] | None = None
) -> tuple[list[int], int, bool, bool]:
    """A mana cost string ("{2}{R}{R}", "{X}{G}", "{T}") -> ([generic, W, U, B, R, G,
    C], number of X, tap, untap). Hybrid symbols ("{B/G}", 107.4e) are allowed where the
    caller passes a ``hybrid`` list: the colour bits of each are appended to it."""
    out = [0] * 7
    xs = 0
    tap = untap = False
    if cost in (None, ""):
        return out, 0, False, False
    if not isinstance(cost, str):
        raise CardError(f"{where}: a mana cost is a string like '{{2}}{{R}}', not {cost!r}")
    rest = MANA_SYMBOL.sub("", cost).strip()
    if rest:
        raise CardError(f"{where}: {cost!r} is not a mana cost (symbols in braces)")
    for sym in MANA_SYMBOL.findall(cost):
        s = sym.upper()
        if s.isdigit():
            out[0] += int(s)
        elif s == "X":
            xs += 1
        elif s == "T":
            tap = True
        elif s == "Q":
            untap = True
        elif s in MANA_LETTERS:
            out[1 + MANA_LETTERS.index(s)] += 1
        elif (
            hybrid is not None
            and re.fullmatch(r"[WUBRG]/[WUBRG]", s)
            and s[0] != s[2]
            and len(hybrid) < K.NHYB
        ):
            hybrid.append(COLOR_BIT[s[0]] | COLOR_BIT[s[2]])
        else:
            raise CardError(
                f"{where}: mana symbol {{{sym}}} is not supported here (hybrid only in mana "
                "costs, at most four; phyrexian, snow, ...)"
            )
    return out, xs, tap, untap


def colors_of_cost(cost: list[int]) -> int:
    bits = 0
    for k in range(5):
        if cost[1 + k]:
            bits |= 1 << k
    return bits


# ----------------------------------------------------------------- the compiler
class Tables:
    """Rows of the cards arena's tables, built card by card (filters, amounts and
    conditions are shared: equal rows are one row)."""

    def __init__(self):
        self.rows: dict[str, list[list[int]]] = {t.name: [] for t in K.CARD_LAYOUT.tables}
        self._dedup: dict[str, dict[tuple, int]] = {"fl": {}, "am": {}, "cn": {}}

    def width(self, name: str) -> int:
        return K.CARD_LAYOUT.tables[K.CARD_LAYOUT.index[name]].width

    def new(self, name: str, defaults: dict[int, int] | None = None) -> int:
        row = [0] * self.width(name)
        for k, v in (defaults or {}).items():
            row[k] = v
        self.rows[name].append(row)
        return len(self.rows[name]) - 1

    def shared(self, name: str, values: dict[int, int]) -> int:
        row = [0] * self.width(name)
        for k, v in values.items():
            row[k] = v
        key = tuple(row)
        d = self._dedup[name]
        if key not in d:
            self.rows[name].append(row)
            d[key] = len(self.rows[name]) - 1
        return d[key]

    def set(self, name: str, r: int, col: int, value: int) -> None:
        self.rows[name][r][col] = value

    def arena(self) -> np.ndarray:
        caps = {}
        for t in K.CARD_LAYOUT.tables:
            caps[t.rows] = max(1, len(self.rows[t.name]))
        a = K.CARD_LAYOUT.alloc(caps)
        for t in K.CARD_LAYOUT.tables:
            v = K.CARD_LAYOUT.view(a, t.name)
            rows = self.rows[t.name]
            if rows:
                v[: len(rows)] = np.asarray(rows, dtype=np.int32)
        return a


class Compiler:
    """Compiles card records into the tables of one cards arena."""

    def __init__(self, db: CardDB):
        self.db = db
        self.t = Tables()
        self.row_of: dict[str, int] = {}
        self.where = ""
        self.specs: list[int] = []  # target spec rows of the ability being compiled
        self.queue: list[tuple] = []  # cards referred to, compiled after the current one
        self.busy = False
        self.n_specs = 0
        self.divided = False  # the ability being compiled has a divided amount (601.2d)
        self.token_names: dict[int, str] = {}  # rows of tokens described inline
        self.name_ids: dict[str, int] = {}  # C_NAME_ID: one number per name (201.2)
        self.chosen_by_event = 0  # a target spec chosen by the event object's controller/owner
        self.delayed_programs: list[tuple[int, list, int]] = []  # (ability row, rows, where)

    # --------------------------------------------------------- errors
    def fail(self, msg: str) -> None:
        raise CardError(f"{self.where}: {msg}")

    # --------------------------------------------------------- cards
    def card(self, name: str) -> int:
        """The card row of ``name``. A card referred to while another is being compiled
        (a token it makes, a name in a filter) gets its row now and its contents after
        that card is done: each card's abilities, statics and programs stay contiguous.
        A :func:`chosen_color_key` is the card with its colour chosen before the game."""
        if name in self.row_of:
            return self.row_of[name]
        if name.startswith(CHOSEN):
            return self._chosen_card(name)
        card = self.db.get(name)
        if card.name in self.row_of:
            return self.row_of[card.name]
        r = self.t.new("ct")
        self.row_of[card.name] = r
        self._later(r, card.name, card.record, card)
        return r

    def _chosen_card(self, key: str) -> int:
        """903.4b (The Prismatic Piper, 604.3): "If this is your commander, choose a colour
        before the game begins. It is the chosen colour." The choice is made before the
        game and the ability works in every zone, so for that game the card is a row of
        its own: the card's name and rules, that colour, and that colour identity."""
        color, name = split_chosen_key(key)
        card = self.db.get(name)
        if not card.record.get("commander_color_choice"):
            raise CardError(f"card {card.name!r}: its colour isn't chosen before the game "
                            f"(no commander_color_choice; 903.4b)")  # fmt: skip
        r = self.t.new("ct")
        self.row_of[key] = r
        rec = dict(card.record, colors=[color], identity=[color])
        self._later(r, card.name, rec, card)
        return r

    def _unseen_card(self, kind: str, label: str, abilities: list) -> int:
        """A card row for abilities a resolving effect leaves in the command zone (an
        emblem, a lasting effect): not a real card, named after the card making it."""
        owner = self.current_name
        rec = {"types": [], "abilities": abilities}
        key = f"{kind}:{owner}:{len(self.row_of)}"
        r = self.t.new("ct")
        self.row_of[key] = r
        self.token_names[r] = f"{label} ({owner})"
        self._later(r, f"{label} ({owner})", rec, Card(key, rec, real=False, token=True))
        return r

    def _later(self, r: int, name: str, rec: dict, card: Card) -> None:
        self.queue.append((r, name, rec, card))
        if self.busy:
            return
        self.busy = True
        try:
            while self.queue:
                r, name, rec, card = self.queue.pop(0)
                saved = (self.where, self.n_specs, getattr(self, "default_zone", "battlefield"))
                self._fill_card(r, name, rec, card)
                self.where, self.n_specs, self.default_zone = saved
        finally:
            self.busy = False

    def _fill_card(self, r: int, name: str, rec: dict, card: Card | None) -> None:
        self.where = f"card {name!r}"
        self.current_record = rec
        self.current_name = name
        t = self.t
        hyb: list[int] = []
        cost, xs, _, _ = parse_cost(rec.get("cost"), f"{self.where}: cost", hyb)
        types = 0
        for ty in _list(rec.get("types")):
            if ty not in TYPE_BIT:
                self.fail(f"types: unknown card type {ty!r}")
            types |= TYPE_BIT[ty]
        sup = 0
        for su in _list(rec.get("supertypes")):
            if su not in SUPER_BIT:
                self.fail(f"supertypes: unknown supertype {su!r}")
            sup |= SUPER_BIT[su]
        colors = colors_of_cost(cost)
        for h in hyb:  # 202.2d: a hybrid symbol is both its colours
            colors |= h
        if "colors" in rec:
            colors = self._colors(rec["colors"], "colors")
        kw, prot, ward = self._keywords(rec.get("keywords"))
        subs = [self.db.subtype_id(s) for s in _list(rec.get("subtypes"))]
        if len(subs) > K.NSUB:
            self.fail(f"subtypes: at most {K.NSUB}")
        row = t.rows["ct"][r]
        row[K.C_NAME_ID] = self.name_ids.setdefault(name, len(self.name_ids))  # (201.2)
        row[K.C_TYPES] = types
        row[K.C_SUPER] = sup
        row[K.C_COLORS] = colors
        row[K.C_POW] = self._int(rec.get("power", 0), "power")
        row[K.C_TOU] = self._int(rec.get("toughness", 0), "toughness")
        row[K.C_LOY] = self._int(rec.get("loyalty", 0), "loyalty")
        row[K.C_DEF] = self._int(rec.get("defense", 0), "defense")
        row[K.C_KW] = kw
        row[K.C_PROT] = prot
        row[K.C_WARD] = ward
        for k in range(7):
            row[K.C_COST + k] = cost[k]
        row[K.C_XS] = xs
        row[K.C_MV] = sum(cost) + len(hyb)  # 202.3: a hybrid symbol counts one
        for k in range(K.NHYB):
            row[K.C_HYB + k] = hyb[k] if k < len(hyb) else 0
        row[K.C_SELF_COST] = -1
        for k in range(K.NSUB):
            row[K.C_SUB + k] = subs[k] if k < len(subs) else -1
        for k in range(7):
            row[K.C_KICKER + k] = -1
        for col in (K.C_SPELL, K.C_ENCHANT, K.C_EQUIP, K.C_ENTERS_CTR, K.C_BACK, K.C_ALT,
                    K.C_MUTATE, K.C_UNEARTH):  # fmt: skip
            row[col] = -1
        flags = 0
        if card is None or card.real:
            flags |= K.CF_REAL
        if card is not None and card.token:
            flags |= K.CF_TOKEN
        if rec.get("can_be_commander"):
            flags |= K.CF_CAN_BE_COMMANDER
        if rec.get("mutate_from_graveyard"):  # Brokkos (702.140)
            flags |= K.CF_MUTATE_FROM_GRAVEYARD
        subtypes = _list(rec.get("subtypes"))
        if "Aura" in subtypes:
            flags |= K.CF_AURA
        if "Equipment" in subtypes:
            flags |= K.CF_EQUIPMENT
        if "double agenda" in _list(rec.get("keywords")):
            flags |= K.CF_DOUBLE_AGENDA
        row[K.C_FLAGS] = flags
        # 901.7, 902.7, 904.8: a plane's, phenomenon's, scheme's or vanguard's abilities work
        # from the command zone (the default zone of its abilities)
        self.default_zone = "command" if types & T_NONTRADITIONAL else "battlefield"
        row[K.C_HAND_MOD] = self._int(rec.get("hand", 0), "hand")
        row[K.C_LIFE_MOD] = self._int(rec.get("life", 0), "life")
        land_mana = 0
        for k, b in enumerate(BASIC_TYPES):
            if b in subtypes:
                land_mana |= 1 << k
        # abilities: in printed order; modes and extra rows follow each
        row[K.C_AB0] = len(t.rows["ab"])
        abilities = list(_list(rec.get("abilities")))
        ab_rows = []
        for k, item in enumerate(abilities):
            self.where = f"card {name!r}: abilities[{k}]"
            if not isinstance(item, dict) or len(item) != 1:
                self.fail("each ability is a mapping with one key (spell, activated, ...)")
            ((kind, body),) = item.items()
            ab_rows.append((kind, body))
        self.where = f"card {name!r}"
        # keyword abilities that are abilities
        kws = _list(rec.get("keywords"))
        # the card's own ability rows (statics go to `sa`)
        first = len(t.rows["ab"])
        saved_index = getattr(self, "index", 0)
        self.index = 0  # activated abilities, then once-each-turn triggers (F_ACTUSED bits)
        statics = []
        enters = None
        for k, (kind, body) in enumerate(ab_rows):
            self.where = f"card {name!r}: abilities[{k}] ({kind})"
            if kind == "static":
                statics.append(body)
                continue
            if kind == "enters":
                enters = body
                continue
            if kind == "granted":  # Conspiracy Draft: abilities a command-zone card grants
                a = self._granted(body, r)
                if t.rows["ab"][a][K.B_KIND] == K.AB_MANA:
                    land_mana |= self._mana_bits(a)
                continue
            a = self.ability(kind, body, r)
            if kind in ("activated", "loyalty", "mana"):  # (mana abilities are activated, 605)
                t.set("ab", a, K.B_INDEX, self.next_index())
            if kind == "spell":
                row[K.C_SPELL] = a
            if kind == "mana":
                land_mana |= self._mana_bits(a)
        self.where = f"card {name!r}"
        conspire = sum(1 for k in kws if k == "conspire")  # 702.78b: each instance counts
        if conspire and not types & (TYPE_BIT["Instant"] | TYPE_BIT["Sorcery"]):
            self.fail(
                "keywords: conspire on an instant or sorcery card (a copy of a permanent spell "
                "is not in the vocabulary)"
            )
        row[K.C_CONSPIRE] = conspire
        for kw_item in kws:
            if isinstance(kw_item, dict):
                ((kname, arg),) = kw_item.items()
                a = self._keyword_ability(kname, arg, r, row)
                if a is not None and kname in ("equip", "cycling", "unearth"):
                    t.set("ab", a, K.B_INDEX, self.next_index())
        for a in range(first, len(t.rows["ab"])):
            if t.rows["ab"][a][K.B_TRIG_INDEX] == -2:
                t.set("ab", a, K.B_TRIG_INDEX, self.next_index())
        self.index = saved_index
        if flags & K.CF_AURA:
            if "enchant" not in rec:
                self.fail("an Aura needs `enchant:` (what it can enchant)")
            f = self.filter(rec["enchant"])
            row[K.C_ENCHANT] = f
            a = t.new("ab")
            self._ability_defaults(a, r, K.AB_SPELL)
            spec = t.new("tg")
            t.set("tg", spec, K.G_FILTER, f)
            t.set("tg", spec, K.G_COUNT, 1)
            t.set("ab", a, K.B_TG0, spec)
            t.set("ab", a, K.B_NTG, 1)
            row[K.C_SPELL] = a
        row[K.C_NAB] = len(t.rows["ab"]) - first
        row[K.C_AB0] = first
        row[K.C_LANDMANA] = land_mana
        mask = 0
        for a in range(first, len(t.rows["ab"])):
            if t.rows["ab"][a][K.B_KIND] == K.AB_TRIGGERED and t.rows["ab"][a][K.B_WHEN] >= 0:
                mask |= 1 << t.rows["ab"][a][K.B_WHEN]
        row[K.C_TRIGMASK] = mask
        if any(listed_ability(t.rows["ab"][a]) for a in range(first, len(t.rows["ab"]))):
            row[K.C_FLAGS] |= K.CF_LISTED
        for a in range(first, len(t.rows["ab"])):
            t.rows["ab"][a][K.B_FREE] = int(free_ability(t.rows["ab"][a]))
        if (
            row[K.C_FLASHBACK]
            or flags & K.CF_MUTATE_FROM_GRAVEYARD
            or any(
                t.rows["ab"][a][K.B_ZONE] == ZONE["graveyard"]
                and t.rows["ab"][a][K.B_KIND] in (K.AB_ACTIVATED, K.AB_MANA)
                for a in range(first, len(t.rows["ab"]))
            )
        ):
            row[K.C_FLAGS] |= K.CF_FROM_GRAVEYARD
        row[K.C_SA0] = len(t.rows["sa"])
        for k, body in enumerate(statics):
            self.where = f"card {name!r}: static {k}"
            self.static(body, r)
        row[K.C_NSA] = len(t.rows["sa"]) - row[K.C_SA0]
        for k in range(row[K.C_SA0], row[K.C_SA0] + row[K.C_NSA]):
            row[K.C_SAMASK] |= 1 << (t.rows["sa"][k][K.A_KIND] % 31)
        if any(
            t.rows["sa"][x][K.A_KIND] in (K.ST_COST_LESS, K.ST_COST_MORE)
            for x in range(row[K.C_SA0], len(t.rows["sa"]))
        ):
            row[K.C_FLAGS] |= K.CF_COST_CHANGE
        if enters is not None:
            self.where = f"card {name!r}: enters"
            self._enters(enters, row, r)
        if "back" in rec:
            back = self.t.new("ct")
            bname = rec["back"].get("name", name + " (back)")
            self.row_of["back:" + bname] = back  # (Compiled.name_of: the face's own name)
            self._fill_card(back, bname, rec["back"], card)
            t.rows["ct"][r][K.C_BACK] = back
        identity = colors
        for a in range(first, len(t.rows["ab"])):
            identity |= self._ability_colors(a)
        if t.rows["ct"][r][K.C_BACK] >= 0:
            identity |= t.rows["ct"][t.rows["ct"][r][K.C_BACK]][K.C_IDENTITY]
        if "identity" in rec:
            identity = self._colors(rec["identity"], "identity")
        t.rows["ct"][r][K.C_IDENTITY] = identity

    def next_index(self) -> int:
        """The next bit of F_ACTUSED for this card (activated abilities in printed order
        are numbered first: scenarios name them by that index)."""
        k = self.index
        if k >= 30:
            self.fail("too many activated or once-each-turn abilities (at most 30)")
        self.index = k + 1
        return k

    def _int(self, v: Any, what: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**6:
            self.fail(f"{what}: expected a whole number, got {v!r}")
        return int(v)

    def _colors(self, v: Any, what: str) -> int:
        bits = 0
        for c in _list(v):
            if c not in COLOR_BIT:
                self.fail(f"{what}: {c!r} is not a colour letter (W U B R G)")
            bits |= COLOR_BIT[c]
        return bits

    def _keywords(self, v: Any, grant: bool = False) -> tuple[int, int, int]:
        """Keyword bits, protection colours and ward's generic cost of a keyword list (a
        card's, or one an effect or static grants: then only plain keywords and
        protection)."""
        kw = prot = ward = 0
        for item in _list(v):
            if isinstance(item, str):
                if item == "double agenda":  # 702.106: hidden agenda naming two cards
                    item = "hidden agenda"
                if item in DECK_KEYWORDS and not grant:  # (deck building only: no bit)
                    continue
                if item == "conspire":  # 702.78: C_CONSPIRE counts a card's (no bit)
                    if grant:
                        self.fail(
                            "keywords: conspire is given to spells by a static ability alone: "
                            "{static: {grant: {what: SPELLS, keywords: [conspire]}}}"
                        )
                    continue
                if item not in KW_BIT:
                    self.fail(f"keywords: unknown keyword {item!r}")
                kw |= KW_BIT[item]
            elif isinstance(item, dict) and len(item) == 1:
                ((k, arg),) = item.items()
                if grant and k != "protection":
                    self.fail(
                        f"keywords: {k} can't be granted (only plain keywords and protection)"
                    )
                if k == "protection":
                    prot |= self._colors(arg, "keywords: protection")
                elif k == "ward":  # compiled as its triggered ability (_ward)
                    if isinstance(arg, dict):
                        if set(arg) != {"life"}:
                            self.fail("ward: a generic mana cost or {life: N}")
                        self._int(arg["life"], "ward: life")
                    else:
                        cost, _, _, _ = parse_cost(arg, f"{self.where}: ward")
                        if any(cost[1:]):
                            self.fail("ward: only a generic mana cost is supported")
                        ward = cost[0]
                elif k in (
                    "equip",
                    "kicker",
                    "overload",
                    "unearth",
                    "cycling",
                    "mutate",
                    "flashback",
                ):
                    pass  # abilities, compiled after the printed ones
                elif k == "annihilator":  # 702.86: compiled as its triggered ability
                    self._int(arg, "annihilator")
                elif k == "devour" and not grant:  # 702.82a (C_DEVOUR)
                    if self._int(arg, "devour") < 1:
                        self.fail("devour: a number, 1 or more")
                else:
                    self.fail(f"keywords: unknown keyword {k!r}")
            else:
                self.fail(f"keywords: {item!r} is neither a keyword nor a one-key mapping")
        return kw, prot, ward

    # --------------------------------------------------------- abilities
    def _ability_defaults(self, a: int, card: int, kind: int) -> None:
        t = self.t
        row = t.rows["ab"][a]
        row[K.B_KIND] = kind
        row[K.B_CARD] = card
        row[K.B_SAC] = -1
        row[K.B_RMCTR] = -1
        row[K.B_ZONE] = ZONE[getattr(self, "default_zone", "battlefield")]
        row[K.B_IF] = -1
        row[K.B_WHAT] = -1
        row[K.B_WHO] = -1
        row[K.B_ARG] = -1
        row[K.B_STEP] = -1
        row[K.B_MODES0] = -1
        row[K.B_MANA_AMT] = -1
        row[K.B_TRIG_INDEX] = -1
        row[K.B_GRANT] = -1

    def ability(self, kind: str, body: Any, card: int) -> int:
        kinds = {
            "spell": K.AB_SPELL, "activated": K.AB_ACTIVATED, "mana": K.AB_MANA,
            "loyalty": K.AB_LOYALTY, "triggered": K.AB_TRIGGERED,
        }  # fmt: skip
        if kind not in kinds:
            self.fail(f"unknown kind of ability {kind!r} (spell, activated, mana, loyalty, "
                      "triggered, static, enters)")  # fmt: skip
        if not isinstance(body, dict):
            self.fail("expected a mapping")
        allowed = {
            "spell": {"targets", "effects", "modes", "choose", "chosen_by", "opponent_chooses"},
            "activated": {"cost", "targets", "effects", "modes", "choose", "timing", "zone",
                          "once_per_turn", "opponent_chooses", "if", "granted_to"},
            "mana": {"cost", "add", "zone"},
            "loyalty": {"amount", "targets", "effects", "modes", "choose"},
            "triggered": {"when", "if", "targets", "effects", "modes", "choose", "optional",
                          "zone", "once_per_turn"},
        }[kind]  # fmt: skip
        for k in body:
            if k not in allowed:
                self.fail(f"unknown field {k!r} (expected one of {sorted(allowed)})")
        t = self.t
        a = t.new("ab")
        self._ability_defaults(a, card, kinds[kind])
        if "zone" in body:
            z = body["zone"]
            if z not in ZONE:
                self.fail(f"zone: {z!r} is not a zone")
            t.set("ab", a, K.B_ZONE, ZONE[z])
        if kind in ("activated", "mana"):
            self._cost(a, body.get("cost"))
        if kind == "activated" and "granted_to" in body:
            # an Aura's "enchanted creature has '[ability]'": the enchanted permanent's
            if body["granted_to"] not in ("enchanted", "equipped"):
                self.fail("granted_to: enchanted or equipped")
            t.set("ab", a, K.B_ARG, 1)
        if kind == "activated":
            timing = {None: 0, "instant": 0, "sorcery": 1, "your_turn": 2}.get(
                body.get("timing"), -1
            )
            if timing < 0:
                self.fail("timing: 'sorcery', 'your_turn' or 'instant'")
            t.set("ab", a, K.B_SORC, timing)
            t.set("ab", a, K.B_ONCE, 1 if body.get("once_per_turn") else 0)
            if "if" in body:  # "activate only if ..." (602.5b)
                t.set("ab", a, K.B_IF, self.cond(body["if"]))
        if kind == "loyalty":
            t.set("ab", a, K.B_LOY, self._int(body.get("amount"), "amount"))
            t.set("ab", a, K.B_HASLOY, 1)
            t.set("ab", a, K.B_SORC, 1)
        if kind == "mana":
            self._mana(a, body.get("add"))
            return a
        if kind == "triggered":
            self.current_once = bool(body.get("once_per_turn"))
            self._when(a, body.get("when"))
            if "if" in body:
                t.set("ab", a, K.B_IF, self.cond(body["if"]))
            if body.get("once_per_turn"):  # "this ability triggers only once each turn"
                t.set("ab", a, K.B_TRIG_INDEX, -2)  # (numbered after the activated ones)
            if body.get("zone") == "stack" and (
                body["when"].get("event") != "cast" or body["when"].get("what") != "self"
            ):
                self.fail(
                    "zone: stack is for 'when you cast this spell' ({event: cast, what: self})"
                )
        chooser = 0
        if body.get("chosen_by") == "opponent" or body.get("opponent_chooses"):
            chooser = 1 if "modes" in body else 2
        t.set("ab", a, K.B_CHOOSER, chooser)
        self._body(a, body, card, optional=bool(body.get("optional")))
        return a

    def _body(self, a: int, body: dict, card: int, optional: bool = False) -> None:
        """Targets and effects (or modes) of ability row a."""
        t = self.t
        if "modes" in body:
            if "effects" in body or "targets" in body:
                self.fail("modes: the targets and effects go inside each mode")
            modes = _list(body["modes"])
            if not modes:
                self.fail("modes: at least one")
            rows = []
            for _ in modes:
                r = t.new("ab")
                self._ability_defaults(r, card, K.AB_MODE)
                rows.append(r)
            for r, m in zip(rows, modes):
                if isinstance(m, list):
                    m = {"effects": m}
                if not isinstance(m, dict):
                    self.fail("modes: each mode is a list of effects or {targets, effects}")
                self._targets_effects(r, m)
            t.set("ab", a, K.B_MODES0, rows[0])
            t.set("ab", a, K.B_NMODES, len(rows))
            n = body.get("choose", 1)
            if n == "one_or_more":  # 700.2d: any number of the modes, at least one
                n = -len(rows)
            elif not isinstance(n, int) or not 1 <= n <= len(rows):
                self.fail(f"choose: between 1 and {len(rows)}, or one_or_more")
            t.set("ab", a, K.B_CHOOSE, n)
            return
        self._targets_effects(a, body, optional)

    def _targets_effects(self, a: int, body: dict, optional: bool = False) -> None:
        t = self.t
        specs = []
        self.divided = False
        for k, spec in enumerate(_list(body.get("targets"))):
            self.n_specs = k  # (a spec may name the targets before it: target.0)
            specs.append(self.target_spec(spec, k))
        if specs:
            t.set("ab", a, K.B_TG0, specs[0])
            t.set("ab", a, K.B_NTG, len(specs))
            if self.chosen_by_event:  # Immersturm: "any target of their choice"
                chooser, self.chosen_by_event = self.chosen_by_event, 0
                if t.rows["ab"][a][K.B_KIND] != K.AB_TRIGGERED:
                    self.fail(
                        "chosen_by: event.controller (or its owner) is for triggered abilities"
                    )
                t.set("ab", a, K.B_CHOOSER, chooser)
            elif (
                any(t.rows["tg"][s][K.G_CHOSEN_BY] for s in specs)
                and not t.rows["ab"][a][K.B_CHOOSER]
            ):
                t.set("ab", a, K.B_CHOOSER, 2)
        self.n_specs = len(specs)
        effects = _list(body.get("effects"))
        if optional:
            effects = [{"may": {"effects": effects}}]
        e0 = len(t.rows["ep"])
        self.effects(effects)
        t.set("ab", a, K.B_E0, e0)
        t.set("ab", a, K.B_EN, len(t.rows["ep"]) - e0)
        while self.delayed_programs:  # their rows go after this program
            prog, rows, was = self.delayed_programs.pop(0)
            start = len(t.rows["ep"])
            for row in rows:
                if row[K.E_JUMP] >= 0:  # (jumps are absolute rows: they move too)
                    row[K.E_JUMP] += start - was
                t.rows["ep"].append(row)
            t.set("ab", prog, K.B_E0, start)
            t.set("ab", prog, K.B_EN, len(rows))

    def target_spec(self, spec: Any, k: int) -> int:
        t = self.t
        extra = {}
        if isinstance(spec, dict):
            spec = dict(spec)
            for key in ("count", "up_to", "chosen_by", "different", "total_power",
                        "one_per_player", "at_random", "divide"):  # fmt: skip
                if key in spec:
                    extra[key] = spec.pop(key)
            if "filter" in spec:
                if len(spec) != 1:
                    self.fail(f"targets[{k}]: `filter` goes with count/up_to/chosen_by only")
                spec = spec["filter"]
            elif "kind" in spec:  # (the legacy form {kind: any, chosen_by: opponent})
                spec = spec["kind"]
        f = self.filter(spec)
        if (
            t.rows["fl"][f][K.L_ZONE] == ZONE["battlefield"]
            and t.rows["fl"][f][K.L_WHAT] == K.W_PLAYERS
        ):
            pass
        s = t.new("tg")
        count = extra.get("count", 1)
        if not isinstance(count, int) or not 1 <= count <= 8:
            self.fail(f"targets[{k}]: count between 1 and 8")
        t.set("tg", s, K.G_FILTER, f)
        t.set("tg", s, K.G_COUNT, count)
        t.set("tg", s, K.G_UP_TO, 1 if extra.get("up_to") else 0)
        cb = extra.get("chosen_by")
        owner = {"owner_of": "event.object"}
        if cb not in (None, "you", "opponent", "event.controller", owner):
            self.fail(f"targets[{k}]: chosen_by is 'opponent', 'event.controller' or "
                      "{owner_of: event.object}")  # fmt: skip
        t.set("tg", s, K.G_CHOSEN_BY, 0 if cb in (None, "you") else 1)
        if cb == "event.controller":  # (a trigger's: the event object's controller, unasked)
            self.chosen_by_event = K.CHOOSER_EVENT_CONTROLLER
        elif cb == owner:  # (its owner: "its owner distributes ...", Grand Ossuary)
            self.chosen_by_event = K.CHOOSER_EVENT_OWNER
        if "divide" in extra:  # 601.2d: an amount distributed among any number of targets
            if not extra.get("up_to") or "count" in extra:
                self.fail(f"targets[{k}]: divide goes with up_to (and no count): any number")
            t.set("tg", s, K.G_DIVIDE, 1 + self.amount(extra["divide"]))
            self.divided = True
        t.set("tg", s, K.G_DIFFERENT, 1 if extra.get("different") else 0)
        if extra.get("one_per_player"):  # "for each opponent, up to one target ... of theirs"
            if not extra.get("up_to") or "count" in extra:
                self.fail(f"targets[{k}]: one_per_player goes with up_to (and no count)")
            t.set("tg", s, K.G_COUNT, 8)
            t.set("tg", s, K.G_ONE_PER_PLAYER, 1)
        if extra.get("at_random"):  # "select target player at random" (no player chooses)
            if extra.get("up_to") or "chosen_by" in extra or count != 1:
                self.fail(f"targets[{k}]: at_random goes with one target, not up_to or chosen_by")
            t.set("tg", s, K.G_AT_RANDOM, 1)
        if "total_power" in extra:  # Nethroi: targets with total power N or less
            t.set("tg", s, K.G_TOTAL_POWER, self._int(extra["total_power"], "total_power"))
        return s

    def _spell_cost(self, a: int, cost: Any, kname: str) -> None:
        """The cost a spell is cast for instead of its mana cost (flashback, overload,
        mutate): mana only; a spell's other costs (life, a sacrifice) aren't paid."""
        if not isinstance(cost, str):
            self.fail(f"{kname}: a mana cost only (a spell cast this way pays no other cost)")
        self._cost(a, cost)

    def _cost(self, a: int, cost: Any) -> None:
        t = self.t
        hyb: list[int] = []
        if isinstance(cost, dict):
            allowed = {"mana", "tap", "untap", "sacrifice", "life", "discard", "remove_counters",
                       "exile_from_hand"}  # fmt: skip
            for k in cost:
                if k not in allowed:
                    self.fail(f"cost: unknown part {k!r} (expected {sorted(allowed)})")
            mana, xs, tap, untap = parse_cost(cost.get("mana", ""), f"{self.where}: cost", hyb)
            tap = tap or bool(cost.get("tap"))
            untap = untap or bool(cost.get("untap"))
            sac = cost.get("sacrifice")
            if "exile_from_hand" in cost:  # "Exile a card from your hand:" (Sovereign's Realm)
                if sac is not None:
                    self.fail("cost: sacrifice or exile_from_hand, not both")
                eh = cost["exile_from_hand"]
                f = {"zone": "hand"} if eh in (1, True) else dict(eh, zone="hand")
                sac = f
            if sac == "self":
                t.set("ab", a, K.B_SAC, -2)
            elif sac is not None:
                t.set("ab", a, K.B_SAC, self.filter(sac))
            life = cost.get("life")
            if life == "half":
                t.set("ab", a, K.B_LIFE, -2)
            elif life is not None:
                t.set("ab", a, K.B_LIFE, self._int(life, "cost: life"))
            if "discard" in cost:
                if cost["discard"] != "self":
                    self.fail("cost: discard is 'self' (discard this card); discarding other "
                              "cards as a cost is not implemented yet")  # fmt: skip
                t.set("ab", a, K.B_DISCARD_SELF, 1)
            rc = cost.get("remove_counters")
            if rc is not None:
                if not isinstance(rc, dict) or len(rc) != 1:
                    self.fail("cost: remove_counters is {KIND: N}")
                ((kind, n),) = rc.items()
                t.set("ab", a, K.B_RMCTR, self._counter(kind))
                t.set("ab", a, K.B_RMN, self._int(n, "remove_counters"))
        else:
            mana, xs, tap, untap = parse_cost(cost, f"{self.where}: cost", hyb)
        for k in range(7):
            t.set("ab", a, K.B_COST + k, mana[k])
        for k in range(K.NHYB):
            t.set("ab", a, K.B_HYB + k, hyb[k] if k < len(hyb) else 0)
        t.set("ab", a, K.B_XS, xs)
        t.set("ab", a, K.B_TAP, 1 if tap else (2 if untap else 0))

    def _counter(self, kind: Any) -> int:
        if kind not in COUNTER:
            self.fail(f"unknown counter kind {kind!r} (expected one of {list(COUNTER)})")
        return COUNTER[kind]

    def _mana(self, a: int, add: Any) -> None:
        t = self.t
        if isinstance(add, dict) and "mana" in add:  # {mana: "{G}", amount: AMOUNT}
            extra = set(add) - {"mana", "amount"}
            if extra or "amount" not in add:
                self.fail("add: {mana: SYMBOL, amount: AMOUNT}")
            cost, xs, tap, untap = parse_cost(add["mana"], f"{self.where}: add")
            if cost[0] or xs or tap or untap or sum(cost[1:]) != 1:
                self.fail("add: {mana: ...} names one coloured or colourless symbol")
            t.set("ab", a, K.B_MANA, K.MANA_FIXED)
            for k in range(6):
                t.set("ab", a, K.B_MANA_A + k, cost[1 + k])
            t.set("ab", a, K.B_MANA_N, 1)
            t.set("ab", a, K.B_MANA_AMT, self.amount(add["amount"]))
            return
        if isinstance(add, str):
            cost, xs, tap, untap = parse_cost(add, f"{self.where}: add")
            if cost[0] or xs or tap or untap:
                self.fail("add: coloured or colourless mana symbols ({W}..{G}, {C})")
            t.set("ab", a, K.B_MANA, K.MANA_FIXED)
            for k in range(6):
                t.set("ab", a, K.B_MANA_A + k, cost[1 + k])
            t.set("ab", a, K.B_MANA_N, sum(cost[1:]))
            return
        if not isinstance(add, dict) or len(add) != 1:
            self.fail("add: a mana string, or {any: N} / {one_of: [..]} / {commander_identity: N} "
                      "/ {land_could_produce: opponents} / {mana: SYMBOL, amount: AMOUNT}")  # fmt: skip
        ((k, v),) = add.items()
        if k == "any":
            t.set("ab", a, K.B_MANA, K.MANA_ANY)
            t.set("ab", a, K.B_MANA_N, self._int(v, "add: any"))
        elif k == "one_of":
            t.set("ab", a, K.B_MANA, K.MANA_ONE_OF)
            t.set("ab", a, K.B_MANA_A, self._colors(v, "add: one_of"))
            t.set("ab", a, K.B_MANA_N, 1)
        elif k == "commander_identity":
            t.set("ab", a, K.B_MANA, K.MANA_IDENTITY)
            t.set("ab", a, K.B_MANA_N, self._int(v, "add: commander_identity"))
        elif k == "noted_colors":  # Paliano, the High City (905.2b)
            t.set("ab", a, K.B_MANA, K.MANA_NOTED)
            t.set("ab", a, K.B_MANA_N, self._int(v, "add: noted_colors"))
        elif k == "land_could_produce":
            if v != "opponents":
                self.fail("add: land_could_produce: opponents")
            t.set("ab", a, K.B_MANA, K.MANA_LAND_COULD)
            t.set("ab", a, K.B_MANA_N, 1)
        else:
            self.fail(f"add: unknown kind of mana {k!r}")

    def _mana_bits(self, a: int) -> int:
        row = self.t.rows["ab"][a]
        kind = row[K.B_MANA]
        if kind == K.MANA_FIXED:
            return sum(1 << k for k in range(6) if row[K.B_MANA_A + k])
        if kind == K.MANA_ONE_OF:
            return row[K.B_MANA_A]
        if kind == K.MANA_ANY:
            return 31
        return 0

    def _ability_colors(self, a: int) -> int:
        """903.4: mana symbols in the rules text count for the colour identity."""
        row = self.t.rows["ab"][a]
        bits = colors_of_cost(row[K.B_COST : K.B_COST + 7])
        for k in range(K.NHYB):
            bits |= row[K.B_HYB + k]
        if row[K.B_KIND] == K.AB_MANA:
            bits |= self._mana_bits(a) & 31
        return bits

    def _keyword_ability(self, kname: str, arg: Any, card: int, row: list) -> int | None:
        t = self.t
        if kname == "equip":
            a = t.new("ab")
            self._ability_defaults(a, card, K.AB_EQUIP)
            self._cost(a, arg)
            t.set("ab", a, K.B_SORC, 1)
            spec = self.target_spec({"type": "Creature", "controller": "you", "another": True}, 0)
            t.set("ab", a, K.B_TG0, spec)
            t.set("ab", a, K.B_NTG, 1)
            row[K.C_EQUIP] = a
            return a
        if kname == "devour":  # 702.82a: as its spell resolves (the synthetic devour program)
            if "Creature" not in _list(self.current_record.get("types")):
                self.fail("devour: for a creature card")
            row[K.C_DEVOUR] = arg
            return None
        if kname == "kicker":
            cost, xs, _, _ = parse_cost(arg, f"{self.where}: kicker")
            for k in range(7):
                row[K.C_KICKER + k] = cost[k]
            return None
        if kname == "unearth":  # 702.84: an activated ability that works from the graveyard
            a = self.ability("activated", unearth_body(arg), card)
            row[K.C_UNEARTH] = a
            return a
        if kname == "cycling":  # 702.29: "{cost}, discard this card: draw a card", from the hand
            body = {"cost": {"mana": arg, "discard": "self"}, "zone": "hand",
                    "effects": [{"draw": {"amount": 1}}]}  # fmt: skip
            return self.ability("activated", body, card)
        if kname == "ward":  # 702.21: counter what targets it unless its controller pays
            pay = {"life": arg["life"]} if isinstance(arg, dict) else {"pays": parse_cost(
                arg, self.where)[0][0]}  # fmt: skip
            body = {
                "when": {"event": "becomes_target", "what": "self", "by": "opponent"},
                "effects": [{"unless": {"who": "event.player", **pay,
                                        "effects": [{"counter": "event.item"}]}}],
            }  # fmt: skip
            return self.ability("triggered", body, card)
        if kname == "annihilator":  # 702.86a: "whenever this attacks, the defending player
            # sacrifices N permanents"
            body = {"when": {"event": "attacks", "what": "self"},
                    "effects": [{"sacrifice": {"who": "defending_player", "filter": "permanent",
                                               "amount": self._int(arg, "annihilator")}}]}  # fmt: skip
            return self.ability("triggered", body, card)
        if kname == "overload":  # 702.96: an alternative cost; "target" becomes "each"
            spell = row[K.C_SPELL]
            rec = self.current_record
            bodies = [
                b for it in _list(rec.get("abilities")) for k, b in it.items() if k == "spell"
            ]
            if spell < 0 or len(bodies) != 1 or "modes" in bodies[0]:
                self.fail("overload: for an instant or sorcery with one spell ability")
            a = self.t.new("ab")
            self._ability_defaults(a, card, K.AB_ALT_SPELL)
            self._spell_cost(a, arg, kname)
            self._targets_effects(a, overloaded(bodies[0]))
            row[K.C_ALT] = a
            return a
        if kname == "flashback":  # 702.34a: cast from the graveyard for this cost; exiled after
            rec = self.current_record
            bodies = [
                b for it in _list(rec.get("abilities")) for k, b in it.items() if k == "spell"
            ]
            if row[K.C_SPELL] < 0 or len(bodies) != 1:
                self.fail("flashback: for an instant or sorcery with one spell ability")
            a = self.t.new("ab")
            self._ability_defaults(a, card, K.AB_FLASHBACK)
            self._spell_cost(a, arg, kname)
            if self.t.rows["ab"][a][K.B_TAP]:
                self.fail("flashback: a mana cost")
            self._targets_effects(a, bodies[0])
            row[K.C_FLASHBACK] = 1 + a
            return a
        if kname == "mutate":  # 702.140: a cast for its mutate cost targeting a creature
            a = t.new("ab")
            self._ability_defaults(a, card, K.AB_MUTATE)
            self._spell_cost(a, arg, kname)
            if t.rows["ab"][a][K.B_TAP] or t.rows["ab"][a][K.B_XS]:
                self.fail("mutate: a mana cost")
            spec = self.target_spec(
                {"type": "Creature", "not_subtype": "Human", "owner": "you"}, 0
            )  # 702.140a: target non-Human creature with the same owner
            t.set("ab", a, K.B_TG0, spec)
            t.set("ab", a, K.B_NTG, 1)
            e0 = len(t.rows["ep"])
            self._row(K.OP_MERGE, ref=K.R_TARGET)
            t.set("ab", a, K.B_E0, e0)
            t.set("ab", a, K.B_EN, 1)
            row[K.C_MUTATE] = a
            return a
        return None

    def _enters(self, body: Any, row: list, card: int) -> None:
        if not isinstance(body, dict):
            self.fail("enters: {tapped: true} or {counters: {KIND: N}} or {with_x_counters: KIND}")
        if "counters" in body and "with_x_counters" in body:
            self.fail("enters: counters or with_x_counters, not both")
        for k, v in body.items():
            if k == "day_if_neither":  # "if it's neither day nor night, it becomes day as ..."
                if v is not True:
                    self.fail("enters: day_if_neither is true")
                row[K.C_FLAGS] |= K.CF_DAY_AS_ENTERS
            elif k == "turn_face_down":  # "as this enters, turn [these] face down" (708)
                row[K.C_ENTERS_FACE_DOWN] = 1 + self.filter(v)
            elif k == "as_copy_of":  # "you may have this enter as a copy of [a card]" (707.2)
                if "Creature" not in _list(self.current_record.get("types")):
                    self.fail("enters: as_copy_of is for a creature card (its spell resolves)")
                f = dict(FILTER_WORDS.get(v, {})) if isinstance(v, str) else dict(v)
                a = self.t.new("ab")  # (after the card's abilities: not one of them)
                self._ability_defaults(a, card, K.AB_SPELL)
                self._targets_effects(
                    a,
                    {
                        "effects": [
                            {"choose": {"filter": f, "up_to": True}},
                            {"enter_as_copy": "chosen"},
                        ]
                    },
                )
                row[K.C_ENTERS_AS_COPY] = 1 + a
            elif k == "tapped":
                row[K.C_ENTERS_TAPPED] = 1 if v else 0
            elif k == "with_x_counters":  # "enters with X +1/+1 counters" (107.3m)
                if not row[K.C_XS]:
                    self.fail("enters: with_x_counters needs {X} in the mana cost")
                row[K.C_ENTERS_CTR] = self._counter(v)
                row[K.C_ENTERS_N] = -1
            elif k == "counters":
                if not isinstance(v, dict) or len(v) != 1:
                    self.fail("enters: counters is {KIND: N}")
                ((kind, n),) = v.items()
                row[K.C_ENTERS_CTR] = self._counter(kind)
                row[K.C_ENTERS_N] = self._int(n, "enters: counters")
            else:
                self.fail(f"enters: unknown field {k!r}")

    # --------------------------------------------------------- triggers
    # the keys each event takes besides `event` (anything else is refused by name)
    WHEN_KEYS = {
        "enters": {"what", "who", "one_or_more"}, "leaves": {"what", "to"}, "dies": {"what"},
        "attacks": {"what", "defender", "one_or_more", "at_least"}, "blocks": {"what"},
        "attacks_unblocked": {"what", "defender"},
        "becomes_blocked": {"what", "by_creature"}, "deals_damage": {"what", "to", "combat", "who", "first_each_turn"},
        "dealt_damage": {"what", "by"}, "cast": {"what", "who", "by", "targets"},
        "beginning_of": {"step", "whose", "who"}, "draws": {"who", "nth", "what"},
        "discards": {"who"}, "gains_life": {"who"}, "loses_life": {"who"},
        "life_at_least": {"amount"}, "last_counter_removed": {"what", "kind"},
        "becomes_target": {"what", "by"}, "planeswalk_to": {"what"},
        "planeswalk_from": {"what"}, "chaos": {"what", "who"}, "set_in_motion": {"what"},
        "rolls_die": {"who"},
        "day_night": {"becomes"}, "put_into_graveyard": {"what"},
        "mutates": {"what"}, "transforms": {"what", "into"},
        "counters_at_least": {"kind", "amount"},
    }  # fmt: skip

    def _when(self, a: int, when: Any) -> None:
        t = self.t
        if not isinstance(when, dict) or "event" not in when:
            self.fail("when: a mapping with `event` (enters, dies, attacks, ...)")
        ev = when["event"]
        if ev not in self.WHEN_KEYS:
            self.fail(f"when: unknown event {ev!r} (expected one of {sorted(self.WHEN_KEYS)})")
        t.set("ab", a, K.B_WHEN, K.EV[ev])
        for k in when:
            if k != "event" and k not in self.WHEN_KEYS[ev]:
                self.fail(f"when: {ev} takes {sorted(self.WHEN_KEYS[ev])}, not {k!r}")
        what = when.get("what")
        if what == "self":
            t.set("ab", a, K.B_WHAT, -2)
        elif what in ("enchanted", "equipped", "attached"):
            t.set("ab", a, K.B_WHAT, -3)
        elif what is not None:
            if ev == "day_night":
                self.fail(f"when: {ev} is about this card itself (what: self)")
            f = dict(FILTER_WORDS[what]) if isinstance(what, str) and what in FILTER_WORDS else what
            if ev == "put_into_graveyard" and isinstance(f, dict):  # any card (The Dark Barony)
                f = {**f, "zone": "graveyard"}
            if ev == "cast" and isinstance(f, dict):
                f = dict(f)
                f.setdefault("zone", "stack")
            if ev == "draws" and isinstance(f, dict):  # the card drawn (Sea of Sand)
                f = dict(f)
                f.setdefault("zone", "hand")
            t.set("ab", a, K.B_WHAT, self.filter(f))
        elif ev == "put_into_graveyard":
            self.fail("when: put_into_graveyard needs what: self or a card filter")
        by = when.get("by") if ev != "dealt_damage" else None  # (dealt_damage: a filter)
        who = when.get("who", when.get("whose", by if by is not None else when.get("defender")))
        if who is not None:
            if who not in REL:
                self.fail(f"when: {who!r} is not you / opponent / any / teammate")
            t.set("ab", a, K.B_WHO, REL[who])
        if when.get("one_or_more"):
            if ev == "attacks":
                t.set("ab", a, K.B_GROUP, 1)
                if "at_least" in when:  # "whenever N or more creatures attack"
                    t.set("ab", a, K.B_GROUP, self._int(when["at_least"], "at_least"))
            elif not self.current_once:
                self.fail(
                    "when: one_or_more on enters needs once_per_turn: true (one trigger a turn)"
                )
        if ev == "beginning_of":
            step = when.get("step")
            if step not in STEP:
                self.fail(f"when: step {step!r} is not a step")
            t.set("ab", a, K.B_STEP, STEP[step])
            if "whose" not in when and "who" not in when:
                t.set("ab", a, K.B_WHO, K.REL_YOU)
        elif ev == "leaves" and "to" in when:
            if when["to"] not in ZONE:
                self.fail(f"when: to {when['to']!r} is not a zone")
            t.set("ab", a, K.B_ARG, ZONE[when["to"]])
        elif ev == "deals_damage":
            bits = 1 if when.get("combat") else 0
            to = when.get("to", "any")
            codes = {
                "any": 0,
                "player": 2,
                "opponent": 4,
                "creature": 8,
                "player_or_planeswalker": 16,
            }
            if to not in codes:
                self.fail(f"when: to is one of {sorted(codes)}")
            if when.get("first_each_turn"):  # "to one or more players for the first time each turn"
                if to != "player" or when["first_each_turn"] is not True:
                    self.fail("when: first_each_turn: true goes with to: player")
                bits |= 32  # (systems/triggers.py DMG_FIRST_EACH_TURN)
            t.set("ab", a, K.B_ARG, bits | codes[to])
        elif ev == "dealt_damage" and "by" in when:  # "... dealt damage by [a source]"
            t.set("ab", a, K.B_ARG, self.filter(when["by"]))
        elif ev == "becomes_blocked":
            t.set("ab", a, K.B_ARG, 1 if when.get("by_creature") else 0)
        elif ev in ("attacks",):
            t.set("ab", a, K.B_ARG, 0)
        elif ev == "draws":
            t.set("ab", a, K.B_ARG, self._int(when.get("nth", 0), "nth"))
        elif ev == "cast" and "targets" in when:  # "if it targets ..." (Echoing Boon)
            t.set("ab", a, K.B_ARG, self.filter(when["targets"]))
        elif ev == "life_at_least":
            t.set("ab", a, K.B_ARG, self._int(when.get("amount"), "amount"))
        elif ev == "last_counter_removed":
            t.set("ab", a, K.B_ARG, self._counter(when.get("kind")))
        elif ev == "counters_at_least":  # a state trigger on this card's own counters (603.8)
            n = self._int(when.get("amount"), "amount")
            if n < 1:
                self.fail("counters_at_least: amount 1 or more")
            kind = self._counter(when.get("kind"))
            t.set("ab", a, K.B_ARG, n << K.COUNTERS_AT_LEAST_SHIFT | kind)
        elif ev == "day_night" and "becomes" in when:  # 728.1a: "day becomes night" only
            if when["becomes"] not in ("day", "night"):
                self.fail("when: becomes is day or night")
            t.set("ab", a, K.B_ARG, 1 if when["becomes"] == "day" else 2)
        elif ev == "transforms" and "into" in when:  # 712: "transforms into [its front]"
            if when["into"] not in ("front", "back"):
                self.fail("when: into is front or back")
            t.set("ab", a, K.B_ARG, 0 if when["into"] == "front" else 1)

    # --------------------------------------------------------- statics
    def static(self, body: Any, card: int) -> None:
        t = self.t
        if not isinstance(body, dict):
            self.fail("a static ability is a mapping")
        body = dict(body)
        zone = body.pop("zone", getattr(self, "default_zone", "battlefield"))
        cond = body.pop("if", None)
        if len(body) != 1:
            self.fail(f"one kind of static ability per entry, got {sorted(body)}")
        ((kind, arg),) = body.items()
        r = t.new("sa")
        row = t.rows["sa"][r]
        row[K.A_CARD] = card
        row[K.A_ZONE] = ZONE.get(zone, -1)
        if row[K.A_ZONE] < 0:
            self.fail(f"zone: {zone!r} is not a zone")
        row[K.A_IF] = self.cond(cond) if cond is not None else -1
        row[K.A_AMT] = -1
        row[K.A_REF] = K.R_NONE
        simple = {
            "cant_lose": K.ST_CANT_LOSE, "cant_win": K.ST_CANT_WIN,
            "cant_gain_life": K.ST_CANT_GAIN_LIFE, "cant_lose_life": K.ST_CANT_LOSE_LIFE,
            "no_loss_at_zero_life": K.ST_NO_LOSS_ZERO, "no_max_hand_size": K.ST_NO_MAX_HAND,
            "mana_doesnt_empty": K.ST_MANA_KEEP, "coat_of_arms": K.ST_COAT_OF_ARMS,
        }  # fmt: skip
        # what the simple ones apply to is fixed (the engine reads it from the kind)
        simple_arg = {
            "cant_lose": ("you",), "cant_win": ("opponents",), "cant_gain_life": ("you",),
            "cant_lose_life": ("you",), "no_loss_at_zero_life": ("you",),
            "no_max_hand_size": ("you",), "mana_doesnt_empty": ("G",),
            "coat_of_arms": (True,), "loyalty_abilities_at_instant_speed": ("you",),
        }  # fmt: skip
        simple["loyalty_abilities_at_instant_speed"] = K.ST_LOYALTY_INSTANT
        row[K.A_AMT2] = -1
        if kind in simple:
            if arg not in simple_arg[kind]:
                self.fail(f"{kind}: {' / '.join(map(str, simple_arg[kind]))}, not {arg!r}")
            row[K.A_KIND] = simple[kind]
            return
        if kind == "cant_be_countered":  # a spell that can't be countered (works on the stack)
            if arg != "self" or zone != "stack":
                self.fail("cant_be_countered: self, with zone: stack")
            row[K.A_KIND] = K.ST_CANT_BE_COUNTERED
            return
        if kind == "self_cost":  # "this spell costs {N} less to cast" (601.2f), from anywhere
            if not isinstance(arg, dict) or set(arg) != {"less"}:
                self.fail("self_cost: {less: AMOUNT}")
            row[K.A_KIND] = K.ST_SELF_COST
            row[K.A_ZONE] = -1
            row[K.A_AMT] = self.amount(arg["less"])
            self.t.rows["ct"][card][K.C_SELF_COST] = r
            return
        if kind in ("characteristic_pt", "pt_per"):
            if not isinstance(arg, dict):
                self.fail(f"{kind}: a mapping")
            if kind == "characteristic_pt":  # 604.3: power and toughness defined (layer 7a)
                if set(arg) != {"power", "toughness"}:
                    self.fail("characteristic_pt: {power: AMOUNT, toughness: AMOUNT}")
                row[K.A_KIND] = K.ST_CHAR_PT
                row[K.A_REF] = K.R_SELF
                row[K.A_AMT] = self.amount(arg["power"])
                row[K.A_AMT2] = self.amount(arg["toughness"])
                return
            if set(arg) - {"what", "amount", "power", "toughness"} or "amount" not in arg:
                self.fail("pt_per: {what, amount, power: 1, toughness: 1}")
            row[K.A_KIND] = K.ST_PT_PER  # +N/+N for each (layer 7c)
            self._static_what(r, arg.get("what", "self"))
            row[K.A_AMT] = self.amount(arg["amount"])
            row[K.A_P] = self._int(arg.get("power", 1), "power")
            row[K.A_T] = self._int(arg.get("toughness", 1), "toughness")
            return
        granted = {"flashback": K.ST_GRANT_FLASHBACK, "unearth": K.ST_GRANT_UNEARTH}
        kws = arg.get("keywords") if kind == "grant" and isinstance(arg, dict) else None
        one = kws[0] if isinstance(kws, list) and len(kws) == 1 else None
        if isinstance(one, dict) and len(one) == 1 and list(one.values()) == ["mana_cost"]:
            # "[these cards in graveyards] have flashback / unearth: their mana cost"
            # (Otaria, Grixis)
            (k,) = one
            if k not in granted:
                self.fail(f"grant: {k} with its mana cost can't be granted")
            if set(arg) != {"what", "keywords"} or not isinstance(arg["what"], dict):
                self.fail(f"grant {k}: {{what: FILTER, keywords: [{{{k}: mana_cost}}]}}")
            if arg["what"].get("zone") != "graveyard" or zone != "command":
                self.fail(f"grant {k}: to cards in graveyards, from the command zone")
            row[K.A_KIND] = granted[k]
            row[K.A_REF] = K.R_EACH
            row[K.A_REFA] = self.filter(arg["what"])
            return
        if kind == "grant" and isinstance(arg, dict) and "conspire" in _list(arg.get("keywords")):
            self._grant_conspire(row, arg)
            return
        if kind in ("pump", "grant"):
            if not isinstance(arg, dict):
                self.fail(f"{kind}: a mapping with `what`")
            allowed = {"what", "power", "toughness", "keywords"}
            if set(arg) - allowed:
                self.fail(f"{kind}: unknown argument {sorted(set(arg) - allowed)}")
            self._static_what(r, arg.get("what"))
            row[K.A_KIND] = K.ST_PUMP if kind == "pump" else K.ST_GRANT
            row[K.A_P] = self._int(arg.get("power", 0), "power")
            row[K.A_T] = self._int(arg.get("toughness", 0), "toughness")
            kw, prot, _ = self._keywords(arg.get("keywords"), grant=True)
            row[K.A_KW] = kw
            row[K.A_PROT] = prot
            if kind == "pump" and (kw or prot):
                r2 = t.new("sa")
                t.rows["sa"][r2] = list(row)
                t.rows["sa"][r2][K.A_KIND] = K.ST_GRANT
            return
        if kind == "doesnt_untap":  # "[these] don't untap during their controllers' untap steps"
            row[K.A_KIND] = K.ST_DOESNT_UNTAP
            row[K.A_REF] = K.R_EACH
            row[K.A_REFA] = self.filter(arg)
            return
        if kind == "cant_attack" and isinstance(arg, dict) and "defender" in arg:
            if set(arg) != {"what", "defender"} or arg["defender"] != "you":
                self.fail("cant_attack: {what: FILTER, defender: you} (can't attack you)")
            row[K.A_KIND] = K.ST_CANT_ATTACK_PLAYER  # (Agyrem: you, the player)
            row[K.A_REF] = K.R_EACH
            row[K.A_REFA] = self.filter(arg["what"])
            return
        if kind in ("double_tokens", "double_counters"):  # 614.1a (Selesnya Loft Gardens)
            if arg != "any":
                self.fail(f"{kind}: any (every effect, whoever controls it)")
            row[K.A_KIND] = K.ST_DOUBLE_TOKENS if kind == "double_tokens" else K.ST_DOUBLE_COUNTERS
            return
        if kind == "counters_instead_of_untap":  # Edge of Malacol (614.1a)
            row[K.A_KIND] = K.ST_UNTAP_TO_COUNTERS
            row[K.A_P] = self._int(arg, kind)
            if row[K.A_P] < 1:
                self.fail("counters_instead_of_untap: N (+1/+1 counters, at least 1)")
            return
        if kind == "extra_mana_from_permanents":  # Eloren Wilds: any permanent, any player
            if arg != "each_player":
                self.fail("extra_mana_from_permanents: each_player")
            row[K.A_KIND] = K.ST_PERM_MANA_PLUS
            row[K.A_ARG] = K.EACH_PLAYER_STATIC
            return
        if kind in ("control", "cant_attack", "cant_block", "cant_be_blocked"):
            row[K.A_KIND] = {"control": K.ST_CONTROL, "cant_attack": K.ST_CANT_ATTACK,
                             "cant_block": K.ST_CANT_BLOCK,
                             "cant_be_blocked": K.ST_CANT_BE_BLOCKED}[kind]  # fmt: skip
            self._static_what(r, arg)
            return
        if kind == "set_color":  # "all creatures are black" (layer 5)
            if not isinstance(arg, dict) or "color" not in arg:
                self.fail("set_color: {what: FILTER, color: [B]}")
            row[K.A_KIND] = K.ST_SET_COLOR
            row[K.A_ARG] = self._colors(arg["color"], "set_color: color")
            self._static_what(r, arg.get("what"))
            return
        if kind == "untap_during_opponents_untap_steps":  # I Know All, I See All
            if arg != "you":
                self.fail("untap_during_opponents_untap_steps: you")
            row[K.A_KIND] = K.ST_UNTAP_IN_OPP_UNTAP
            return
        if kind in ("max_attackers", "max_blockers"):  # Astral Arena (508.1c, 509.1c)
            if arg != 1:
                self.fail(f"{kind}: 1 (no more than one creature each combat)")
            row[K.A_KIND] = K.ST_ONE_ATTACKER if kind == "max_attackers" else K.ST_ONE_BLOCKER
            return
        if kind == "skip_untap_steps":  # The Eon Fog
            if arg != "players":
                self.fail("skip_untap_steps: players")
            row[K.A_KIND] = K.ST_SKIP_UNTAP
            return
        if kind == "suspend_any_nonland_card":  # Talon Gates (702.62): the controller's action
            if arg != "you" or zone != "command":
                self.fail(f"{kind}: you, on a command-zone card")
            row[K.A_KIND] = K.ST_SUSPEND_ANY
            return
        if kind == "play_from_library_top":  # Windriddle Palace (every player; 601.3, 305.1)
            if arg != "each_player" or zone != "command":
                self.fail(f"{kind}: each_player, on a command-zone card")
            row[K.A_KIND] = K.ST_PLAY_FROM_TOP
            return
        if kind in ("reveal_draws", "library_tops_revealed"):  # (information only)
            if arg != "players":
                self.fail(f"{kind}: players")
            row[K.A_KIND] = (K.ST_REVEAL_DRAWS if kind == "reveal_draws"
                             else K.ST_LIBRARY_TOPS_REVEALED)  # fmt: skip
            return
        if kind == "cant_cast_sharing_type_with_library_tops":  # Skybreen (every player)
            if arg is not True:
                self.fail(f"{kind}: true")
            row[K.A_KIND] = K.ST_CANT_CAST_LIBRARY_TOP_TYPES
            return
        if kind in ("extra_mana_from_lands", "opponents_play_with_hands_revealed"):
            row[K.A_KIND] = (K.ST_LAND_MANA_PLUS if kind == "extra_mana_from_lands"
                             else K.ST_HANDS_REVEALED)  # fmt: skip
            if kind == "extra_mana_from_lands":  # whose lands: yours, or every player's
                if arg not in ("you", "each_player"):
                    self.fail("extra_mana_from_lands: you or each_player")
                row[K.A_ARG] = K.EACH_PLAYER_STATIC if arg == "each_player" else 0
            return
        if kind == "animate_artifacts":  # Karn: each matching artifact is a creature, P/T = MV
            row[K.A_KIND] = K.ST_ARTIFACT_CREATURES
            self._static_what(r, arg.get("what") if isinstance(arg, dict) else None)
            return
        if kind in ("double_damage", "prevent_one_from_opponents"):
            if kind == "double_damage":  # Mishra (your creatures), Stronghold Furnace (any)
                if arg not in ("your_creatures", "any"):
                    self.fail("double_damage: your_creatures or any")
                row[K.A_KIND] = K.ST_DOUBLE_DAMAGE
                row[K.A_ARG] = 1 if arg == "your_creatures" else 0
            else:
                row[K.A_KIND] = K.ST_PREVENT_ONE
            return
        if kind == "damage_by_toughness":  # The Great Forest (510.1a's exception)
            if arg != "creature":
                self.fail("damage_by_toughness: creature (each creature)")
            row[K.A_KIND] = K.ST_DAMAGE_BY_TOUGHNESS
            return
        if kind == "extra_land_drops":  # 305.2: N more lands each turn ("any": Naya)
            row[K.A_KIND] = K.ST_EXTRA_LAND
            row[K.A_P] = 1000 if arg == "any" else self._int(arg, "extra_land_drops")
            return
        if kind == "prevent_damage_by":
            row[K.A_KIND] = K.ST_PREVENT_BY
            row[K.A_REF] = K.R_EACH
            if isinstance(arg, dict) and ("combat" in arg or "to" in arg):  # {what, combat, to}
                if (
                    not {"what"} < set(arg) <= {"what", "combat", "to"}
                    or arg.get("combat", True) is not True
                ):
                    self.fail(
                        "prevent_damage_by: FILTER or {what: FILTER, combat: true, to: FILTER}"
                    )
                row[K.A_ARG] = 1 if "combat" in arg else 0  # only combat damage (Kessig)
                if "to" in arg:  # only to what this matches (Mount Keralia)
                    row[K.A_TO] = 1 + self.filter(arg["to"])
                arg = arg["what"]
            row[K.A_REFA] = self.filter(arg)
            return
        if kind == "rebound":  # "[these] spells have rebound" (702.88)
            if not isinstance(arg, dict) or set(arg) != {"spells"}:
                self.fail("rebound: {spells: FILTER}")
            f = arg["spells"]
            f = FILTER_WORDS.get(f, f) if isinstance(f, str) else f
            if not isinstance(f, dict):
                self.fail("rebound: spells is a filter")
            row[K.A_KIND] = K.ST_REBOUND
            row[K.A_ARG] = self.filter({**f, "zone": "stack"})
            return
        if kind == "flash_for":  # "you may cast [these] spells as though they had flash"
            if not isinstance(arg, dict) or not {"spells"} <= set(arg) <= {"spells", "who"}:
                self.fail("flash_for: {spells: FILTER, who: each_player}")
            if arg.get("who", "you") not in ("you", "each_player"):
                self.fail("flash_for: who is you or each_player (Akoum: players may cast)")
            row[K.A_WHO] = K.REL_ANY if arg.get("who") == "each_player" else K.REL_YOU
            f = arg["spells"]
            f = FILTER_WORDS.get(f, f) if isinstance(f, str) else f
            if not isinstance(f, dict):
                self.fail("flash_for: spells is a filter")
            row[K.A_KIND] = K.ST_FLASH_FOR
            row[K.A_ARG] = self.filter({"zone": "any", **f})
            return
        if kind == "basic_lands_any_color":  # Mirri: the basic lands "you" control
            if arg != "you":
                self.fail("basic_lands_any_color: you")
            row[K.A_KIND] = K.ST_BASIC_ANY_COLOR
            return
        if kind == "cost":
            if not isinstance(arg, dict) or "spells" not in arg:
                self.fail("cost: {spells: FILTER, less: N} or {spells: FILTER, more: N}")
            if set(arg) - {"spells", "less", "more", "who"}:
                self.fail(
                    f"cost: unknown argument {sorted(set(arg) - {'spells', 'less', 'more', 'who'})}"
                )
            f = arg["spells"]
            if isinstance(f, str):
                if f not in FILTER_WORDS:
                    self.fail(f"cost: spells {f!r} is not a filter word")
                f = FILTER_WORDS[f]
            if not isinstance(f, dict):
                self.fail("cost: spells is a filter")
            f = dict(f)
            f.setdefault("zone", "any")
            row[K.A_ARG] = self.filter(f)
            who = arg.get("who", "you")  # whose spells: "spells you cast" by default
            if who not in ("you", "any", "opponent"):
                self.fail("cost: who is you, opponent or any")
            row[K.A_WHO] = REL[who]
            if "less" in arg:
                row[K.A_KIND] = K.ST_COST_LESS
                row[K.A_AMT] = self.amount(arg["less"])
            elif "more" in arg:
                row[K.A_KIND] = K.ST_COST_MORE
                row[K.A_AMT] = self.amount(arg["more"])
            else:
                self.fail("cost: `less` or `more`")
            return
        if self._conspiracy_static(kind, arg, r):
            return
        self.fail(f"unknown static ability {kind!r}")

    def _grant_conspire(self, row: list, arg: dict) -> None:
        """702.78: "each [red or green instant or sorcery] spell you cast has conspire"
        (Wort, the Raidmother): `grant: {what: FILTER, keywords: [conspire]}`, the filter
        naming instant or sorcery spells on the stack that you control."""
        what = arg.get("what")
        if set(arg) != {"what", "keywords"} or _list(arg["keywords"]) != ["conspire"]:
            self.fail("grant conspire: {what: SPELLS, keywords: [conspire]} (conspire alone)")
        if not isinstance(what, dict) or what.get("zone") != "stack":
            self.fail("grant conspire: what is a filter of spells (zone: stack)")
        types = _list(what.get("type"))
        if not types or set(types) - {"Instant", "Sorcery"}:
            self.fail(
                "grant conspire: to instant or sorcery spells (type: [Instant, Sorcery]); a copy "
                "of a permanent spell is not in the vocabulary"
            )
        if what.get("controller") != "you":
            self.fail("grant conspire: to spells you cast (controller: you)")
        row[K.A_KIND] = K.ST_GRANT_CONSPIRE
        row[K.A_REF] = K.R_EACH
        row[K.A_REFA] = self.filter(what)

    def _static_what(self, r: int, what: Any) -> None:
        row = self.t.rows["sa"][r]
        if what in ("self",):
            row[K.A_REF] = K.R_SELF
        elif what in ("enchanted", "equipped", "attached"):
            row[K.A_REF] = K.R_ATTACHED
        elif what is None:
            self.fail("what it applies to is missing (`what:`)")
        else:
            row[K.A_REF] = K.R_EACH
            row[K.A_REFA] = self.filter(what)

    # --------------------------------------------------------- filters, refs, amounts
    def filter(self, spec: Any) -> int:
        """A filter row (shared) from a shorthand word or a mapping."""
        if isinstance(spec, str):
            if spec not in FILTER_WORDS:
                self.fail(f"unknown filter word {spec!r} (expected one of {sorted(FILTER_WORDS)} "
                          "or a mapping)")  # fmt: skip
            spec = FILTER_WORDS[spec]
        if not isinstance(spec, dict):
            self.fail(f"a filter is a word or a mapping, got {spec!r}")
        for k in spec:
            if k not in FILTER_KEYS:
                self.fail(f"filter: unknown key {k!r}")
        if "any_of" in spec:  # either of two filters (one level: no any_of inside)
            alts = _list(spec["any_of"])
            rest = {k: x for k, x in spec.items() if k != "any_of"}
            if len(alts) != 2:
                self.fail("filter: any_of lists two filters")
            parts = []
            for alt in alts:
                alt = FILTER_WORDS[alt] if isinstance(alt, str) and alt in FILTER_WORDS else alt
                if not isinstance(alt, dict) or "any_of" in alt:
                    self.fail("filter: any_of lists two filters (words or mappings, no any_of)")
                parts.append({**rest, **alt})
            second = self.filter(parts[1])
            v = dict(self._filter_values(parts[0]))
            v[K.L_OR] = second
            return self.t.shared("fl", v)
        return self.t.shared("fl", self._filter_values(spec))

    def _filter_values(self, spec: dict) -> dict[int, int]:
        v = {}
        what = spec.get("what", "players" if "player" in spec else "objects")
        v[K.L_WHAT] = {"objects": K.W_OBJECTS, "players": K.W_PLAYERS, "both": K.W_BOTH}.get(
            what, 0
        )
        if not v[K.L_WHAT]:
            self.fail(f"filter: what is objects, players or both, not {what!r}")
        zone = spec.get("zone", "battlefield")
        v[K.L_ZONE] = -1 if zone == "any" else ZONE.get(zone, -2)
        if v[K.L_ZONE] == -2:
            self.fail(f"filter: zone {zone!r} is not a zone")
        v[K.L_TYPE] = self._type_bits(spec.get("type"))
        v[K.L_TYPE_ALL] = self._type_bits(spec.get("type_all"))
        v[K.L_NOT_TYPE] = self._type_bits(spec.get("not_type"))
        subs = [self.db.subtype_id(s) for s in _list(spec.get("subtype"))]
        if len(subs) > K.NFSUB:
            self.fail(f"filter: at most {K.NFSUB} subtypes")
        for k in range(K.NFSUB):
            v[K.L_SUB + k] = subs[k] if k < len(subs) else -1
        ns = _list(spec.get("not_subtype"))
        v[K.L_NOT_SUB] = self.db.subtype_id(ns[0]) if ns else -1
        v[K.L_SUPER] = self._super_bits(spec.get("supertype"))
        v[K.L_NOT_SUPER] = self._super_bits(spec.get("not_supertype"))
        v[K.L_CTL_REF] = v[K.L_OWNER_REF] = K.R_NONE
        for key, rel, ref in (
            ("controller", K.L_CTL, K.L_CTL_REF),
            ("owner", K.L_OWNER, K.L_OWNER_REF),
        ):
            x = spec.get(key, "any")
            if isinstance(x, str) and x in REL:
                v[rel] = REL[x]
            else:  # "each creature target player controls": a player reference
                v[rel] = K.REL_ANY
                v[ref] = self.simple(x, f"filter: {key}")
        kw, prot, _ = self._keywords(spec.get("keyword"), grant=True)
        if prot:
            self.fail("filter: keyword can't test protection")
        v[K.L_KW] = kw
        nkw, nprot, _ = self._keywords(spec.get("not_keyword"), grant=True)
        if nprot:
            self.fail("filter: not_keyword can't test protection")
        v[K.L_NOT_KW] = nkw
        pb = spec.get("put_onto_battlefield_by")
        if pb not in (None, "self"):
            self.fail("filter: put_onto_battlefield_by is self")
        v[K.L_PUT_BY] = 1 if pb == "self" else 0
        if "not_controller" in spec and "not_player" in spec:
            self.fail("filter: not_controller or not_player, not both")
        nref = spec.get("not_controller", spec.get("not_player"))
        v[K.L_NOT_REF] = K.R_NONE if nref is None else self.simple(nref, "filter: not_player")
        if "without_counter" in spec:  # "without a fate counter on it"
            v[K.L_NO_COUNTER] = 1 + self._counter(spec["without_counter"])
        v[K.L_OR] = -1
        pv = spec.get("player", "any")
        if isinstance(pv, str) and pv not in REL:  # "target player": the one it names
            v[K.L_PLAYER] = K.REL_ANY
            v[K.L_PLAYER_REF] = 1 + self.simple(pv, "filter: player")
        else:
            v[K.L_PLAYER] = self._rel(pv)
        if "suspended" in spec:  # 702.62b (Talon Gates)
            if spec["suspended"] is not True:
                self.fail("filter: suspended is true")
            v[K.L_SUSPENDED] = 1
        if "single_target" in spec:  # "a spell with a single target" (Glimmervoid Basin)
            if spec["single_target"] is not True:
                self.fail("filter: single_target is true")
            v[K.L_SINGLE_TARGET] = 1
        if "face_down" in spec:  # 708: "face-down creatures" (Ixidron)
            if spec["face_down"] is not True:
                self.fail("filter: face_down is true")
            v[K.L_FACE_DOWN] = 1
        if spec.get("dealt_combat_damage_to_player"):  # (Glen Elendra) this combat
            v[K.L_COMBAT_DAMAGED] = 1
        if "enchanted" in spec:  # "a creature that isn't enchanted" (Akoum)
            if not isinstance(spec["enchanted"], bool):
                self.fail("filter: enchanted is true or false")
            v[K.L_ENCHANTED] = 1 if spec["enchanted"] else 2
        v[K.L_COLOR] = self._colors(spec.get("color"), "filter: color") if "color" in spec else 0
        v[K.L_NOT_COLOR] = (
            self._colors(spec.get("not_color"), "filter: not_color") if "not_color" in spec else 0
        )
        v[K.L_COLORLESS] = 1 if spec.get("colorless") else (2 if spec.get("multicolored") else 0)
        v[K.L_TOKEN] = self._tri(spec.get("token"))
        v[K.L_TAPPED] = self._tri(spec.get("tapped"))
        at = spec.get("attacking")
        v[K.L_ATTACKING] = -1 if at is None else (
            2 if at == "or_blocking" else (3 if at == "you" else int(bool(at))))  # fmt: skip
        v[K.L_ANOTHER] = 1 if spec.get("another") else 0
        for key, col in (("power", K.L_POW), ("toughness", K.L_TOU), ("mv", K.L_MV)):
            if key in spec:
                c = spec[key]
                if (
                    not isinstance(c, dict)
                    or len(c) != 1
                    or next(iter(c)) not in ("le", "ge", "eq")
                ):
                    self.fail(f"filter: {key} is {{le: N}}, {{ge: N}} or {{eq: N}}")
                ((op, n),) = c.items()
                v[col] = {"le": K.CMP_LE, "ge": K.CMP_GE, "eq": K.CMP_EQ}[op]
                v[col + 1] = self.amount(n, counting=False)
        v[K.L_NAME] = self.card(spec["name"]) if "name" in spec else -1
        if spec.get("commander", True) is not True:  # (no "not a commander" in the tables)
            self.fail("filter: commander is true (a commander); leave it out for any")
        v[K.L_COMMANDER] = 1 if spec.get("commander") else -1
        self._conspiracy_filter(spec, v)
        v[K.L_MUTATE] = 1 if spec.get("mutate") else -1  # "a creature card with mutate"
        if "same_name_as" in spec:  # "each creature with the same name as that creature"
            v[K.L_SAME_NAME] = 1 + self.simple(spec["same_name_as"], "filter: same_name_as")
        if spec.get("attacked_this_turn"):  # "creatures that attacked this turn" (508.1)
            v[K.L_ATTACKED] = 1
        if "shares_type_with" in spec:  # "two target permanents that share a card type"
            tk = spec["shares_type_with"]
            if not (isinstance(tk, str) and re.fullmatch(r"target\.\d", tk)):
                self.fail("filter: shares_type_with is target.N (an earlier target of the ability)")
            if int(tk[-1]) >= self.n_specs:
                self.fail(f"filter: shares_type_with {tk}: only an earlier target")
            v[K.L_SHARES_TYPE] = 1 + int(tk[-1])
        sg = spec.get("subgame")  # 726: players who won (didn't win) the last subgame
        if sg not in (None, "won", "not_won"):
            self.fail("filter: subgame is won or not_won")
        v[K.L_SUBGAME] = -1 if sg is None else (1 if sg == "won" else 0)
        return v

    def _type_bits(self, v: Any) -> int:
        bits = 0
        for ty in _list(v):
            if ty not in TYPE_BIT:
                self.fail(f"filter: unknown type {ty!r}")
            bits |= TYPE_BIT[ty]
        return bits

    def _super_bits(self, v: Any) -> int:
        bits = 0
        for su in _list(v):
            if su not in SUPER_BIT:
                self.fail(f"filter: unknown supertype {su!r}")
            bits |= SUPER_BIT[su]
        return bits

    def _rel(self, v: Any) -> int:
        if v not in REL:
            self.fail(f"filter: {v!r} is not you / opponent / not_you / teammate / any")
        return REL[v]

    def _tri(self, v: Any) -> int:
        return -1 if v is None else int(bool(v))

    def ref(self, v: Any, what: str) -> tuple[int, int]:
        """(R_* reference, its argument) for who or what a step acts on."""
        if isinstance(v, str):
            if v in SIMPLE_REFS:
                return SIMPLE_REFS[v], 0
            if v in SET_REFS:
                return SET_REFS[v], 0
            if v == "target" or re.fullmatch(r"target\.\d", v):
                k = 0 if v == "target" else int(v[-1])
                if k >= self.n_specs:
                    self.fail(f"{what}: {v} but the ability has {self.n_specs} target(s)")
                return K.R_TARGET + k, 0
            if v in FILTER_WORDS and v.startswith("each"):
                return K.R_EACH, self.filter(v)
            if v in ("creatures_you_control", "each_creature"):
                return K.R_EACH, self.filter(v)
            self.fail(f"{what}: unknown reference {v!r}")
        if isinstance(v, dict) and set(v) == {
            "each",
            "of",
        }:  # (issue 14) "... target player controls"
            if v["of"] != "target":
                self.fail(f"{what}: `of` is target (the first target player)")
            return K.R_EACH_OF_TARGET, self.filter(v["each"])
        if isinstance(v, dict) and len(v) == 1:
            ((k, arg),) = v.items()
            if k == "each":
                return K.R_EACH, self.filter(arg)
            if k == "player_damaged_by":  # the player it dealt combat damage to this combat
                inner, _ = self.ref(arg, what)
                if inner >= K.R_CONTROLLER_OF:
                    self.fail(f"{what}: player_damaged_by a single object (target, it, ...)")
                return K.R_PLAYER_DAMAGED_BY + inner, 0
            if k in ("controller_of", "owner_of"):
                inner, _ = self.ref(arg, what)
                if inner >= K.R_CONTROLLER_OF:
                    self.fail(f"{what}: {k} of a set or of another controller_of")
                return (K.R_CONTROLLER_OF if k == "controller_of" else K.R_OWNER_OF) + inner, 0
        self.fail(f"{what}: {v!r} is not a reference (you, target, self, each_opponent, "
                  "{each: FILTER}, ...)")  # fmt: skip
        return 0, 0

    def simple(self, v: Any, what: str) -> int:
        r, _ = self.ref(v, what)
        if r >= K.R_EACH:
            self.fail(f"{what}: one player or object is needed here, not a set")
        return r

    def amount(self, v: Any, counting: bool = True) -> int:
        vals: dict[int, int] = {K.M_TIMES: 1}
        if isinstance(v, bool):
            self.fail(f"amount: {v!r}")
        if isinstance(v, int):
            vals[K.M_KIND] = K.AM_CONST
            vals[K.M_ARG] = v
        elif v == "X":
            vals[K.M_KIND] = K.AM_X
        elif v == "event.amount":
            vals[K.M_KIND] = K.AM_EVENT
        elif isinstance(v, dict):
            v = dict(v)
            times = v.pop("times", 1)
            plus = v.pop("plus", 0)
            vals[K.M_TIMES] = self._int(times, "amount: times")
            vals[K.M_PLUS] = self._int(plus, "amount: plus")
            on = v.pop("what", None)
            if len(v) != 1:
                self.fail(f"amount: one kind per amount, got {sorted(v)}")
            ((k, arg),) = v.items()
            refs = {"power": K.AM_POWER, "toughness": K.AM_TOUGHNESS, "mana_value": K.AM_MV,
                    "life": K.AM_LIFE, "half_life": K.AM_HALF_LIFE, "cards_in_hand": K.AM_HAND,
                    "opponents_dealt_combat_damage": K.AM_OPP_DAMAGED,
                    "opponent_spells_since_your_last_turn": K.AM_OPP_SPELLS_SINCE,
                    "cards_put_into_graveyard_this_turn": K.AM_GRAVEYARD_TURN}  # fmt: skip
            if on is not None and k != "counters":
                self.fail(f"amount: `what` goes with counters only, not {k}")
            if k == "count":
                if not counting:
                    self.fail("amount: a filter can't compare with a count")
                vals[K.M_KIND] = K.AM_COUNT
                vals[K.M_ARG] = self.filter(arg)
            elif k in refs:
                vals[K.M_KIND] = refs[k]
                vals[K.M_ARG] = self.simple(arg, f"amount: {k}")
            elif k == "counters":
                vals[K.M_KIND] = K.AM_COUNTERS
                vals[K.M_ARG2] = self._counter(arg)
                vals[K.M_ARG] = self.simple(
                    on if on is not None else "self", "amount: counters: what"
                )
            elif k == "total_power":  # the total power of the permanents matching
                if not counting:
                    self.fail("amount: a filter can't compare with a total")
                vals[K.M_KIND] = K.AM_TOTAL_POWER
                vals[K.M_ARG] = self.filter(arg)
            elif k == "mana_in_pool":  # mana of one colour in your mana pool
                if arg not in MANA_LETTERS:
                    self.fail("amount: mana_in_pool is a mana letter (W U B R G C)")
                vals[K.M_KIND] = K.AM_MANA_POOL
                vals[K.M_ARG] = MANA_LETTERS.index(arg)
            elif k in ("life_lost_this_way", "moved_this_way", "last_result"):
                if arg is not True:
                    self.fail(f"amount: {k}: true")
                vals[K.M_KIND] = K.AM_LAST  # what the step before really did (608.2c)
            elif k == "event_amount":
                vals[K.M_KIND] = K.AM_EVENT
            elif k == "power_exiled_this_way":  # the total power of what the exile step exiled
                if arg is not True:
                    self.fail(f"amount: {k}: true")
                vals[K.M_KIND] = K.AM_POWER_EXILED
            elif k == "mana_spent":
                vals[K.M_KIND] = K.AM_MANA_SPENT
            elif k == "chosen":
                vals[K.M_KIND] = K.AM_CHOSEN
            elif k in ("X", "x"):
                vals[K.M_KIND] = K.AM_X
            elif k == "number":
                vals[K.M_KIND] = K.AM_CONST
                vals[K.M_ARG] = self._int(arg, "amount")
            elif k == "noted":  # Conspiracy Draft: {noted: CARD, value: highest | count}
                if on is not None:
                    self.fail("amount: noted takes `value`, not `what`")
                vals[K.M_KIND] = K.AM_NOTED
                vals[K.M_ARG] = self.card(self._card_name(arg, "amount: noted"))
                vals[K.M_ARG2] = 0
            elif k == "creature_spells_cast":  # creature spells a player cast this turn
                vals[K.M_KIND] = K.AM_CREATURE_SPELLS
                vals[K.M_ARG] = self.simple(arg, "amount: creature_spells_cast")
            elif k == "chosen_number":  # the number chosen for the source (Emissary's Ploy)
                vals[K.M_KIND] = K.AM_CHOSEN_NUMBER
            elif k == "noted_count":
                vals[K.M_KIND] = K.AM_NOTED
                vals[K.M_ARG] = self.card(self._card_name(arg, "amount: noted_count"))
                vals[K.M_ARG2] = 1
            else:
                self.fail(f"amount: unknown kind {k!r}")
        else:
            self.fail(f"amount: a number, X, event.amount or a mapping, not {v!r}")
        return self.t.shared("am", vals)

    def cond(self, v: Any) -> int:
        if not isinstance(v, dict) or len(v) != 1:
            self.fail(f"condition: a one-key mapping, got {v!r}")
        ((k, arg),) = v.items()
        vals: dict[int, int] = {}
        if k in ("not", "all", "any"):
            subs = [self.cond(c) for c in _list(arg)] if k != "not" else [self.cond(arg)]
            if k != "not" and len(subs) != 2:
                self.fail(f"condition: {k} takes two conditions")
            vals[K.N_KIND] = {"not": K.CO_NOT, "all": K.CO_ALL, "any": K.CO_ANY}[k]
            vals[K.N_A] = subs[0]
            vals[K.N_B] = subs[1] if len(subs) > 1 else -1
            return self.t.shared("cn", vals)
        if k == "life_at_least":
            vals[K.N_KIND], vals[K.N_A] = K.CO_LIFE_AT_LEAST, self._int(arg, "life_at_least")
        elif k in ("controls", "count"):
            f = arg.get("filter", arg) if isinstance(arg, dict) else arg
            if isinstance(arg, dict) and "at_least" in arg:
                f = {kk: vv for kk, vv in arg.items() if kk != "at_least"}
                f = f.get("filter", f)
            fd = dict(FILTER_WORDS.get(f, {})) if isinstance(f, str) else dict(f)
            if k == "controls":
                fd.setdefault("controller", "you")
            vals[K.N_KIND] = K.CO_COUNT_AT_LEAST
            vals[K.N_A] = self.filter(fd)
            vals[K.N_B] = self._int(
                arg.get("at_least", 1) if isinstance(arg, dict) else 1, "at_least"
            )
        elif k == "self_untapped":
            vals[K.N_KIND] = K.CO_SELF_UNTAPPED
        elif k == "self_attacked_this_turn":  # declared as an attacker this turn (508.1)
            if arg is not True:
                self.fail("condition: self_attacked_this_turn: true (with not: for 'didn't')")
            vals[K.N_KIND] = K.CO_SELF_ATTACKED
        elif k == "self_in_zone":
            vals[K.N_KIND], vals[K.N_A] = K.CO_SELF_IN_ZONE, ZONE[arg]
        elif k in ("day", "night", "kicked"):
            vals[K.N_KIND] = {"day": K.CO_DAY, "night": K.CO_NIGHT, "kicked": K.CO_KICKED}[k]
        elif k == "monarch":
            if arg not in ("you", "opponent", True):
                self.fail("condition: monarch is you or opponent")
            vals[K.N_KIND] = K.CO_MONARCH
            vals[K.N_A] = 1 if arg == "opponent" else 0
        elif k == "is":  # {is: {what: REF, filter: FILTER}}: the object (or player) matches
            if not isinstance(arg, dict) or set(arg) != {"what", "filter"}:
                self.fail("condition: is takes {what: REF, filter: FILTER}")
            f = arg["filter"]
            if not isinstance(f, dict):  # (a word would mean a permanent: say which zone)
                self.fail("condition: is: filter is a mapping ({type: Creature}: any zone)")
            if "zone" not in f:
                f = {**f, "zone": "any"}
            vals[K.N_KIND] = K.CO_IS
            vals[K.N_A] = self.simple(arg["what"], "condition: is: what")
            vals[K.N_B] = self.filter(f)
        elif k == "in_zone":  # {in_zone: {what: REF, zone: ZONE}}
            if not isinstance(arg, dict) or set(arg) != {"what", "zone"} or arg["zone"] not in ZONE:
                self.fail("condition: in_zone takes {what: REF, zone: ZONE}")
            vals[K.N_KIND] = K.CO_IN_ZONE
            vals[K.N_A] = self.simple(arg["what"], "condition: in_zone: what")
            vals[K.N_B] = ZONE[arg["zone"]]
        elif k == "moved":  # the step before moved a card (or not: {moved: false})
            vals[K.N_KIND] = K.CO_COMPARE
            vals[K.N_A] = self.amount({"last_result": True})
            vals[K.N_B] = self.amount(1 if arg else 0)
            vals[K.N_C] = K.CMP_GE if arg else K.CMP_EQ
        elif k == "first_turn":  # Conspiracy Draft: {first_turn: active | game}
            if arg not in ("active", "game"):
                self.fail("condition: first_turn is active (the active player's first "
                          "turn) or game (the game's first turn)")  # fmt: skip
            vals[K.N_KIND], vals[K.N_A] = K.CO_FIRST_TURN, 0 if arg == "active" else 1
        elif k == "whole_pool":  # Worldknit: no card of your pool outside the game
            vals[K.N_KIND] = K.CO_WHOLE_POOL
        elif k == "noted_correct":  # a right guess noted for cards named ARG (Spire Phantasm)
            vals[K.N_KIND] = K.CO_NOTED
            vals[K.N_A] = self.card(self._card_name(arg, "condition: noted_correct"))
        elif k in ("cast_spell_this_turn", "attacked_with_creatures_this_turn"):  # (Prahv)
            if arg is not True:
                self.fail(f"condition: {k}: true (you; with not: for 'didn't')")
            vals[K.N_KIND] = (K.CO_CAST_THIS_TURN if k == "cast_spell_this_turn"
                              else K.CO_ATTACKED_THIS_TURN)  # fmt: skip
        elif k == "your_turn":  # "as long as it's your turn" (Prava)
            if arg is not True:
                self.fail("condition: your_turn: true (with not: for 'not your turn')")
            vals[K.N_KIND] = K.CO_YOUR_TURN
        elif k == "dealt_damage_this_turn":  # (issue 14) "if you've been dealt N or more damage"
            vals[K.N_KIND], vals[K.N_A] = K.CO_DAMAGE_TAKEN, self._int(arg, k)
        elif k == "compare":
            if not isinstance(arg, list) or len(arg) != 3 or arg[1] not in ("le", "ge", "eq"):
                self.fail("condition: compare is [AMOUNT, le|ge|eq, AMOUNT]")
            vals[K.N_KIND] = K.CO_COMPARE
            vals[K.N_A] = self.amount(arg[0])
            vals[K.N_B] = self.amount(arg[2])
            vals[K.N_C] = {"le": K.CMP_LE, "ge": K.CMP_GE, "eq": K.CMP_EQ}[arg[1]]
        else:
            self.fail(f"condition: unknown kind {k!r}")
        return self.t.shared("cn", vals)

    # --------------------------------------------------------- effects
    def effects(self, steps: list) -> None:
        for k, step in enumerate(steps):
            if not isinstance(step, dict) or len(step) != 1:
                self.fail(f"effects[{k}]: each step is a one-key mapping (verb: arguments)")
            ((verb, arg),) = step.items()
            self.step(verb, arg)

    def _row(self, op: int, **cols: int) -> int:
        r = self.t.new("ep")
        row = self.t.rows["ep"][r]
        row[K.E_OP] = op
        row[K.E_REF] = K.R_NONE
        row[K.E_REF2] = K.R_NONE
        row[K.E_AMT] = -1
        row[K.E_AMT2] = -1
        row[K.E_SUB] = -1
        row[K.E_D] = -1
        row[K.E_JUMP] = -1
        for name, v in cols.items():
            row[getattr(K, "E_" + name.upper())] = v
        return r

    def _args(self, verb: str, arg: Any, subject: str, allowed: set[str]) -> dict:
        """Arguments of a step: a mapping, or (a shorthand) just its subject."""
        if not isinstance(arg, dict) or (
            subject == "what" and "each" in arg and set(arg) in ({"each"}, {"each", "of"})
        ):
            arg = {subject: arg}
        for k in arg:
            if k not in allowed | {subject}:
                self.fail(
                    f"{verb}: unknown argument {k!r} (expected {sorted(allowed | {subject})})"
                )
        return arg

    def _subject(self, args: dict, key: str, default: str, verb: str) -> dict[str, int]:
        r, a = self.ref(args.get(key, default), f"{verb}: {key}")
        return {"ref": r, "refa": a}

    def _until(self, args: dict, verb: str) -> int:
        u = args.get("until", "end_of_turn")
        if u not in UNTIL:
            self.fail(f"{verb}: until is one of {list(UNTIL)}")
        return UNTIL[u]

    def step(self, verb: str, arg: Any) -> None:  # noqa: C901 (one branch per word)
        where = self.where
        self.where = f"{where}: {verb}"
        if verb not in K.OP and verb not in VERB_ALIASES:
            self.fail(f"unknown effect word {verb!r}")
        verb = VERB_ALIASES.get(verb, verb)
        op = K.OP[verb]
        if verb == "damage":
            a = self._args(verb, arg, "to", {"amount", "source", "unpreventable"})
            cols = self._subject(a, "to", "target", verb)
            src = self.simple(a["source"], "source") if "source" in a else K.R_NONE
            self._row(op, amt=self.amount(a.get("amount", 0)), ref2=src,
                      a=1 if a.get("unpreventable") else 0, **cols)  # fmt: skip
        elif verb in ("gain_life", "lose_life", "draw", "mill", "extra_turn", "shuffle",
                      "win_game", "lose_game", "draw_game", "double_life", "set_life"):  # fmt: skip
            a = self._args(verb, arg, "who", {"amount", "count"})
            n = a.get("amount", a.get("count", 1))
            self._row(op, amt=self.amount(n), **self._subject(a, "who", "you", verb))
        elif verb == "discard":
            a = self._args(verb, arg, "who", {"amount", "random", "all", "chosen_by", "filter"})
            mode = 2 if a.get("all") else (1 if a.get("random") else 0)
            chooser, f = K.R_NONE, -1
            if "chosen_by" in a or "filter" in a:  # "discard a nonland card [you choose]"
                if mode:
                    self.fail("discard: chosen_by / filter, not with random or all")
                if "chosen_by" in a:
                    chooser = self.simple(a["chosen_by"], "discard: chosen_by")
                fd = a.get("filter", "card")
                fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
                fd["zone"] = "hand"
                f = self.filter(fd)
            self._row(op, amt=self.amount(a.get("amount", 1)), a=mode, d=f, ref2=chooser,
                      **self._subject(a, "who", "you", verb))  # fmt: skip
        elif verb in ("scry", "surveil"):
            a = self._args(verb, arg, "amount", set())
            self._row(op, amt=self.amount(a["amount"]))
        elif verb in ("look_at_top", "reveal_top"):
            a = self._args(verb, arg, "amount", {"pick", "filter", "to", "rest", "who", "up_to",
                                                  "exactly", "tapped", "all"})  # fmt: skip
            rest = {"bottom": 4, "graveyard": 3, "top": 2, "top_any_order": 5, "hand": 0}.get(
                a.get("rest", "bottom"), -1)  # fmt: skip
            if rest < 0:
                self.fail("rest: bottom, graveyard, top, top_any_order or hand")
            f = self.filter(a.get("filter", "card"))
            to = {"hand": 0, "battlefield": 1, "graveyard": 3}.get(a.get("to", "hand"), -1)
            if to < 0:
                self.fail("to: hand, battlefield or graveyard")
            pick = "all" if a.get("all") else a.get("pick", 0)
            if pick == "all":  # every matching card goes (Goblin Ringleader)
                pick, mode = 99, 2
            else:
                pick = self._int(pick, "pick")
                exactly = a.get("exactly", a.get("up_to") is False)
                mode = 1 if exactly else 0  # 1: take exactly that many (of those matching)
            if a.get("tapped") and to != 1:
                self.fail("tapped: only with to: battlefield")
            self._row(op, amt=self.amount(a["amount"]), a=rest, b=pick, c=to | (8 if a.get("tapped") else 0),
                      d=mode, refa=f, ref=self.simple(a.get("who", "you"), "who"))  # fmt: skip
        elif verb == "search":
            a = self._args(verb, arg, "filter", {"to", "tapped", "amount", "who", "from"})
            fd = a["filter"]
            if isinstance(fd, str) and fd not in FILTER_WORDS:
                self.fail(f"filter: unknown filter word {fd!r}")
            fd = dict(FILTER_WORDS[fd]) if isinstance(fd, str) else dict(fd)
            frm = _list(a.get("from", "library"))
            if frm not in (["library"], ["library", "graveyard"]):
                self.fail("from: library, or [library, graveyard] (library and/or graveyard)")
            fd["zone"] = "library" if len(frm) == 1 else "any"
            dests = _list(a.get("to", "hand"))
            codes = {"hand": 0, "battlefield": 1, "library_top": 2, "graveyard": 3}
            for d in dests:
                if d not in codes:
                    self.fail(f"to: {d!r} (hand, battlefield, library_top, graveyard)")
            d2 = codes[dests[1]] if len(dests) > 1 else -1
            must = set(fd) <= {"zone"}  # 701.19b: "a card" (no stated quality) is found
            self._row(op, refa=self.filter(fd), a=codes[dests[0]], d=d2,
                      b=1 if a.get("tapped") else 0, amt=self.amount(a.get("amount", 1)),
                      c=1 if len(frm) > 1 else 0, ref=self.simple(a.get("who", "you"), "who"),
                      must_find=1 if must else 0)  # fmt: skip
        elif verb == "delayed":
            a = self._args(verb, arg, "effects", {"at", "what"})
            at = {"next_end_step": 0, "end_of_combat": 2}.get(a.get("at", "next_end_step"), -1)
            if at < 0:
                self.fail("at: next_end_step or end_of_combat (others are not implemented yet)")
            prog = self.t.new("ab")  # the delayed ability: no event of its own (B_WHEN -1)
            self._ability_defaults(prog, -1, K.AB_TRIGGERED)
            self.t.set("ab", prog, K.B_WHEN, -1)
            saved = self.n_specs
            self.n_specs = 0
            self._row(op, a=at, b=prog, **self._subject(a, "what", "self", verb))
            e1 = len(self.t.rows["ep"])
            self.effects(_list(a["effects"]))
            self.n_specs = saved
            # its program was compiled here; it moves after the ability's own program
            rows = self.t.rows["ep"][e1:]
            del self.t.rows["ep"][e1:]
            self.delayed_programs.append((prog, rows, e1))
        elif verb == "exile_if_leaves":
            a = self._args(verb, arg, "what", set())
            self._row(op, **self._subject(a, "what", "self", verb))
        elif verb in ("destroy", "exile", "bounce", "tap", "untap", "regenerate", "transform",
                      "cant_regenerate", "remove_from_combat"):  # fmt: skip
            allowed = {"destroy": {"no_regenerate"}, "exile": {"with_source", "until"},
                       "cant_regenerate": {"until"}}.get(verb, set())  # fmt: skip
            a = self._args(verb, arg, "what", allowed)
            if a.get("until", "leaves" if verb == "exile" else "end_of_turn") != (
                "leaves" if verb == "exile" else "end_of_turn"
            ):
                self.fail("until: leaves (exile until this leaves the battlefield)"
                          if verb == "exile" else "until: end_of_turn")  # fmt: skip
            mode = 1 if a.get("with_source") else (2 if "until" in a and verb == "exile" else 0)
            self._row(op, a=mode, b=1 if a.get("no_regenerate") else 0,
                      **self._subject(a, "what", "target", verb))  # fmt: skip
        elif verb == "to_library":
            a = self._args(verb, arg, "what", {"position", "from"})
            pos = {"top": 0, "bottom": 1, "shuffle": 2}.get(a.get("position", "top"), -1)
            if pos < 0:
                self.fail("position: top, bottom or shuffle")
            # from: only while it is still the card put into that zone (400.7)
            frm = ZONE.get(a["from"], -1) + 1 if "from" in a else 0
            if "from" in a and a["from"] not in ("graveyard", "exile", "hand"):
                self.fail("to_library: from is graveyard, exile or hand")
            self._row(op, a=pos, b=frm, **self._subject(a, "what", "target", verb))
        elif verb == "return":
            a = self._args(verb, arg, "what", {"to", "tapped", "under"})
            to = {"hand": 0, "battlefield": 1}.get(a.get("to", "hand"), -1)
            if to < 0:
                self.fail("to: hand or battlefield")
            self._row(op, a=to, b=1 if a.get("tapped") else 0, c=0 if a.get("under", "you") == "you" else 1,
                      **self._subject(a, "what", "target", verb))  # fmt: skip
        elif verb == "counter":
            a = self._args(verb, arg, "what", {"unless_pays"})
            amt = self.amount(a["unless_pays"]) if "unless_pays" in a else -1
            self._row(op, amt=amt, **self._subject(a, "what", "target", verb))
        elif verb == "create_token":
            a = self._args(verb, arg, "token", {"amount", "for", "tapped", "must_attack",
                                                 "blocking"})  # fmt: skip
            if "blocking" in a:  # a token put onto the battlefield blocking that creature
                if a["blocking"] != "event.object" or "must_attack" in a:
                    self.fail("create_token: blocking is event.object")
                a = dict(a)
                a["must_attack"] = "event.object"
                blocking = 1
            else:
                blocking = 0
            if a.get("tapped") not in (None, True, False):
                self.fail("tapped: true or false")
            tok = self.token(a["token"])
            # "a token that attacks that player each combat if able" (508.1d)
            att = self.simple(a["must_attack"], "must_attack") if "must_attack" in a else K.R_NONE
            self._row(op, a=tok, b=1 if a.get("tapped") else 0, amt=self.amount(a.get("amount", 1)),
                      ref2=att, c=blocking, **self._subject(a, "for", "you", verb))  # fmt: skip
        elif verb == "add_mana" and isinstance(arg, dict) and "one_of" in arg:
            # one mana of a colour the player chooses among these (PEND_COLOR); `keep:
            # end_of_turn`: it doesn't empty from the pool until the turn ends
            a = self._args(verb, arg, "one_of", {"who", "keep", "amount"})
            if a.get("keep") not in (None, "end_of_turn"):
                self.fail("add_mana: keep is end_of_turn")
            self._row(op, b=-1, c=self._colors(a["one_of"], "add_mana: one_of"),
                      a=1 if a.get("keep") else 0, amt=self.amount(a.get("amount", 1)),
                      **self._subject(a, "who", "you", verb))  # fmt: skip
        elif verb == "add_mana":
            if not isinstance(arg, dict) or len({"mana", "any", "one_of"} & set(arg)) != 1:
                self.fail("add_mana: {mana: SYMBOLS} or {any: N} or {one_of: [COLOURS]}")
            a = self._args(verb, arg, "who", {"mana", "any", "one_of", "amount"})
            who = self._subject(a, "who", "you", verb)
            if "mana" in a:
                cost, xs, tap, untap = parse_cost(a["mana"], f"{self.where}: mana")
                if cost[0] or xs or tap or untap:
                    self.fail("mana: coloured or colourless symbols only")
                for c in range(6):
                    if cost[1 + c]:
                        n = a.get("amount", cost[1 + c])
                        self._row(op, b=c, amt=self.amount(n), **who)
            else:  # mana of a colour the player chooses as it resolves (106.1b)
                bits = 31 if "any" in a else self._colors(a["one_of"], "one_of")
                n = a["any"] if "any" in a else a.get("amount", 1)
                self._row(op, b=-1, c=bits, amt=self.amount(n), **who)
        elif verb == "counters":
            a = self._args(verb, arg, "what", {"kind", "amount"})
            self._row(op, a=self._counter(a.get("kind")), amt=self.amount(a.get("amount", 1)),
                      **self._subject(a, "what", "self", verb))  # fmt: skip
        elif verb == "distribute_counters":  # 601.2d: as divided among the targets
            a = self._args(verb, arg, "kind", set())
            if not self.divided:
                self.fail("distribute_counters: the ability needs a target spec with divide")
            self._row(op, a=self._counter(a.get("kind")))
        elif verb == "proliferate":
            self._row(op)
        elif verb == "copy_token":  # "create a token that's a copy of [a permanent]" (707.2)
            a = self._args(verb, arg, "of", {"for", "tapped", "attacking"})
            if a.get("attacking", "it") != "it":  # (508.4: attacking the player `it` names)
                self.fail("copy_token: attacking: it (the player of a for_each round)")
            self._row(op, ref2=self.simple(a.get("for", "you"), "for"),
                      a=1 if "attacking" in a else 0, c=1 if a.get("tapped") else 0,
                      **self._subject(a, "of", "target", verb))  # fmt: skip
        elif verb == "copy_for_each_other_target":  # Glimmervoid Basin (707.10)
            a = self._args(verb, arg, "what", {"for"})
            self._row(op, ref2=self.simple(a.get("for", "you"), "for"),
                      **self._subject(a, "what", "event.object", verb))  # fmt: skip
        elif verb == "sacrifice_each":  # "sacrifice [these]": those the controller controls
            self._row(op, **self._subject({"what": arg}, "what", "all_chosen", verb))
        elif verb == "enter_as_copy":  # (the program of `enters: {as_copy_of: ...}`)
            a = self._args(verb, arg, "of", set())
            self._row(op, ref=self.simple(a["of"], "enter_as_copy: of"))
        elif verb == "become_copy":  # "[target creature] becomes a copy of [it]" (707.2)
            a = self._args(verb, arg, "what", {"of", "until"})
            if "of" not in a:
                self.fail("become_copy: of (the object it becomes a copy of)")
            self._row(op, ref2=self.simple(a["of"], "become_copy: of"),
                      until=self._until(a, verb), **self._subject(a, "what", "target", verb))  # fmt: skip
        elif verb == "must_attack":  # "[target creature] attacks this turn if able"
            a = self._args(verb, arg, "what", {"until", "player"})
            who, owner = K.R_NONE, 0  # "attacks [that player / its owner] ... if able"
            if a.get("player") == "owner":
                owner = K.MUST_ATTACK_OWNER
            elif "player" in a:
                who = self.simple(a["player"], "must_attack: player")
            self._row(op, until=self._until(a, verb), ref2=who, a=owner,
                      **self._subject(a, "what", "target", verb))  # fmt: skip
        elif verb in ("pump", "grant", "set_base_pt", "animate", "cant_block"):
            allowed = {"pump": {"power", "toughness", "keywords", "until"},
                       "grant": {"keywords", "until"}, "cant_block": {"until"},
                       "set_base_pt": {"power", "toughness", "until"},
                       "animate": {"power", "toughness", "keywords", "until", "types", "subtypes",
                                   "colors"}}[verb]  # fmt: skip
            a = self._args(verb, arg, "what", allowed)
            kws = _list(a.get("keywords"))
            if verb == "grant" and any(isinstance(k, dict) and "devour" in k for k in kws):
                if len(kws) != 1 or a.get("until", "forever") != "forever":
                    self.fail("grant: devour alone, until forever (a spell gains it: Jund)")
                n = self._int(kws[0]["devour"], "devour")
                self._row(K.OP_GAIN_DEVOUR, amt=self.amount(n),
                          **self._subject(a, "what", "target", verb))  # fmt: skip
                return
            kw, prot, _ = self._keywords(a.get("keywords"), grant=True)
            if prot:
                self.fail("keywords: protection from an effect is not implemented yet")
            types = self._type_bits(a.get("types"))
            subs = _list(a.get("subtypes"))
            if len(subs) > 1:
                self.fail("subtypes: one subtype an animation adds")
            pw, tg = a.get("power", 0), a.get("toughness", 0)
            fixed = isinstance(pw, int) and isinstance(tg, int) and not isinstance(pw, bool)
            self._row(op, a=pw if fixed else 0, b=tg if fixed else 0, c=kw, d=types,
                      amt=-1 if fixed else self.amount(pw), amt2=-1 if fixed else self.amount(tg),
                      sub=self.db.subtype_id(subs[0]) if subs else -1,
                      colors=self._colors(a["colors"], "colors") if "colors" in a else 0,
                      sets_pt=1 if "power" in a or "toughness" in a or verb == "set_base_pt" else 0,
                      until=self._until(a, verb), **self._subject(a, "what", "target", verb))  # fmt: skip
            if verb == "animate" and ("power" in a) != ("toughness" in a):
                self.fail("animate: power and toughness together (or neither)")
        elif verb == "gain_control":
            a = self._args(verb, arg, "what", {"until"})
            until = UNTIL_FOREVER
            if a.get("until") == "you_control_source":  # "for as long as you control this"
                until = UNTIL_WHILE_CONTROLLED
            elif "until" in a:
                until = self._until(a, verb)
            self._row(op, until=until, **self._subject(a, "what", "target", verb))
        elif verb == "sacrifice":
            a = self._args(verb, arg, "who", {"filter", "amount"})
            self._row(op, d=self.filter(a.get("filter", "creature")), amt=self.amount(a.get("amount", 1)),
                      **self._subject(a, "who", "you", verb))  # fmt: skip
        elif verb in ("fight", "attach", "redirect", "exchange_life", "exchange_control"):
            keys = {"fight": ("what", "with"), "attach": ("what", "to"),
                    "redirect": ("from", "to"), "exchange_life": ("who", "with"),
                    "exchange_control": ("what", "with")}[verb]  # fmt: skip
            if not isinstance(arg, dict):
                self.fail(f"{verb}: a mapping with {keys[0]} and {keys[1]}")
            for k in arg:
                if k not in keys and k != "amount":
                    self.fail(f"{verb}: unknown argument {k!r}")
            first = self.simple(arg.get(keys[0], "self" if verb == "attach" else "target"), keys[0])
            second = self.simple(arg[keys[1]], keys[1])
            amt = self.amount(arg["amount"]) if "amount" in arg else -1
            until = UNTIL_FOREVER if verb == "exchange_control" else 0  # (701.10: for good)
            self._row(op, ref=first, ref2=second, amt=amt, until=until)
        elif verb == "prevent":
            a = self._args(verb, arg, "amount", {"to", "combat"})
            n = a["amount"]
            amt = self.amount(-1 if n == "all" else n)
            cols = self._subject(a, "to", "target", verb) if "to" in a else {"ref": K.R_NONE}
            self._row(op, amt=amt, b=1 if a.get("combat") else 0, **cols)
        elif verb == "life_becomes_lowest":  # (Mortal Flesh Is Weak: among: each_opponent)
            a = self._args(verb, arg or {}, "among", set())
            if a.get("among", "each_player") not in ("each_player", "each_opponent"):
                self.fail("life_becomes_lowest: among is each_player or each_opponent")
            self._row(op, a=1 if a.get("among") == "each_opponent" else 0)
        elif verb == "restart_game":  # 723 (Karn Liberated)
            a = self._args(verb, arg, "return_exiled", set()) if arg else {}
            self._row(op, a=1 if a.get("return_exiled") else 0)
        elif verb == "copy_spell":  # 707.10: a copy of a spell on the stack, same choices
            a = self._args(verb, arg, "what", {"new_targets", "for"})
            who = (
                self.simple(a["for"], "for") if "for" in a else K.R_NONE
            )  # "that player copies it"
            self._row(op, a=1 if a.get("new_targets") else 0, ref2=who,
                      **self._subject(a, "what", "event.object", verb))  # fmt: skip
        elif verb == "basics_from_outside":  # this turn, basic lands from outside the game
            a = self._args(verb, arg, "who", set())
            for b in BASIC_TYPES:  # (the five basic lands, compiled for the game)
                self.card(b)
            self._row(op, **self._subject(a, "who", "you", verb))
        elif verb == "become_monarch":  # 724: E_A the designation card (its triggers)
            a = self._args(verb, arg, "who", set())
            self._row(op, a=self.card("The Monarch"), **self._subject(a, "who", "you", verb))
        elif verb == "sacrifice_unless_life":
            a = self._args(verb, arg, "what", {"amount"})
            self._row(
                op, amt=self.amount(a["amount"]), **self._subject(a, "what", "each_creature", verb)
            )
        elif verb == "fact_or_fiction":
            a = self._args(verb, arg, "amount", set())
            self._row(op, amt=self.amount(a["amount"]))
        elif verb in ("put_land", "exile_from_hand", "choose"):
            a = self._args(verb, arg, "filter", {"who", "amount", "up_to", "tapped", "attacking"})
            if "attacking" in a:  # Kaalia: put onto the battlefield tapped and attacking
                if verb != "put_land" or a["attacking"] not in ("event.player", "event.attacked"):
                    self.fail("attacking: event.attacked (what the trigger's attacker attacks)")
                op = K.OP_PUT_ATTACKING
            f = a.get("filter", "land" if verb == "put_land" else "card")
            fd = dict(FILTER_WORDS.get(f, {})) if isinstance(f, str) else dict(f)
            if verb != "choose":
                fd["zone"] = "hand"
            self._row(op, refa=self.filter(fd), ref=self.simple(a.get("who", "you"), "who"),
                      amt=self.amount(a.get("amount", 1)), b=1 if a.get("up_to") else 0,
                      c=1 if a.get("tapped") or "attacking" in a else 0)  # fmt: skip
        elif verb in ("may", "unless"):
            a = self._args(verb, arg, "effects", {"who", "pay", "pay_life", "pays", "life",
                                                   "pay_x"})  # fmt: skip
            if "pay_x" in a:  # "you may pay {X}": X chosen and paid as it resolves (107.3)
                if verb != "may" or a["pay_x"] is not True or set(a) - {"pay_x", "effects", "who"}:
                    self.fail("may: {pay_x: true, effects} (no other payment)")
                r = self._row(op, a=K.MAY_PAY_X, ref=self.simple(a.get("who", "you"), "who"))
                self.effects(_list(a["effects"]))
                self.t.set("ep", r, K.E_JUMP, len(self.t.rows["ep"]))
                self.where = where
                return
            pay = a.get("pay", a.get("pays", a.get("pay_life")))
            life = 1 if ("pay_life" in a or a.get("life")) else 0
            default_who = "you" if verb == "may" else "target"
            color, ncol = 0, 0
            if isinstance(pay, str) and pay.startswith("{"):  # a mana cost: "{W}", "{1}{G}"
                cost, xs, tap, untap = parse_cost(pay, f"{self.where}: pay")
                cols = [k for k in range(6) if cost[1 + k]]
                if xs or tap or untap or len(cols) > 1:
                    self.fail("pay: generic mana and one colour, like {W} or {2}{G}")
                if cols:
                    life, color, ncol = 2, cols[0], cost[1 + cols[0]]
                pay = cost[0]
            r = self._row(op, amt=self.amount(pay) if pay is not None else -1, a=life,
                          b=color, c=ncol, ref=self.simple(a.get("who", default_who), "who"))  # fmt: skip
            self.effects(_list(a["effects"]))
            self.t.set("ep", r, K.E_JUMP, len(self.t.rows["ep"]))
        elif verb == "if":
            if not isinstance(arg, dict) or "cond" not in arg:
                self.fail("if: {cond, then, else}")
            r = self._row(op, a=self.cond(arg["cond"]))
            self.effects(_list(arg.get("then")))
            if arg.get("else"):
                j = self._row(K.OP_JUMP)
                self.t.set("ep", r, K.E_JUMP, len(self.t.rows["ep"]))
                self.effects(_list(arg["else"]))
                self.t.set("ep", j, K.E_JUMP, len(self.t.rows["ep"]))
            else:
                self.t.set("ep", r, K.E_JUMP, len(self.t.rows["ep"]))
        elif verb == "for_each":
            if not isinstance(arg, dict) or "in" not in arg or "effects" not in arg:
                self.fail("for_each: {in: SET, effects: [...]}")
            ref, refa = self.ref(arg["in"], "for_each: in")
            r = self._row(op, ref=ref, refa=refa)
            self.effects(_list(arg["effects"]))
            n = self._row(K.OP_NEXT, jump=r)
            self.t.set("ep", r, K.E_JUMP, n + 1)
        elif verb == "emblem":  # 114: an emblem in your command zone with these abilities
            a = self._args(verb, arg, "abilities", set())
            abilities = []
            for item in _list(a["abilities"]):
                if not isinstance(item, dict) or len(item) != 1:
                    self.fail("emblem: abilities is a list of one-key mappings")
                ((kind, body),) = item.items()
                if kind not in ("static", "triggered") or not isinstance(body, dict):
                    self.fail("emblem: static and triggered abilities only")
                abilities.append({kind: {"zone": "command", **body}})
            self._row(op, a=self._unseen_card("emblem", "Emblem", abilities), ref=K.R_YOU)
        elif verb == "lasting":  # 611.2a: statics of this resolved ability until a time
            a = self._args(verb, arg, "statics", {"until"})
            until = a.get("until", "end_of_turn")
            if until not in ("end_of_turn", "your_next_turn", "planeswalk", "forever"):
                self.fail("lasting: until is end_of_turn, your_next_turn, planeswalk or forever")
            statics = []
            for body in _list(a["statics"]):
                if not isinstance(body, dict) or "zone" in body or "if" in body:
                    self.fail("lasting: statics is a list of static abilities (no zone, no if)")
                statics.append({"static": {"zone": "command", **body}})
            r = self._unseen_card("lasting", "Effect", statics)
            self._row(op, a=r, ref=K.R_YOU, until=UNTIL_PLANESWALK if until == "planeswalk"
                      else UNTIL[until])  # fmt: skip
        elif verb == "redistribute_life":  # Reverse the Sands (810.9f: one head per team)
            if arg not in (True, None, {}):
                self.fail("redistribute_life: true")
            self._row(op)
        # the casual variants' words (issue 14)
        elif verb in ("planeswalk", "roll_planar_die", "set_in_motion"):
            a = self._args(verb, {} if arg in (None, True) else arg, "who", set())
            self._row(op, **self._subject(a, "who", "you", verb))
        elif verb in ("abandon_this_scheme", "chaotic_aether", "reverse_turn_order",
                      "no_schemes_this_turn", "reshuffle_permanents",
                      "additional_combat"):  # fmt: skip
            if arg not in (None, True, {}):
                self.fail(f"{verb} takes no arguments")
            self._row(op)
        elif verb == "reveal_planes":
            a = self._args(verb, arg, "amount", {"then"})
            then = {"top": K.REVEAL_PLANES_TOP, "planeswalk": K.REVEAL_PLANES_PLANESWALK}
            if a.get("then", "top") not in then:
                self.fail("reveal_planes: then is top or planeswalk")
            self._row(op, a=then[a.get("then", "top")], amt=self.amount(a["amount"]))
        elif verb == "no_max_hand_size":
            a = self._args(verb, {} if arg in (None, True) else arg, "who", {"until"})
            self._row(op, until=self._until(dict(a, until=a.get("until", "forever")), verb),
                      **self._subject(a, "who", "you", verb))  # fmt: skip
        elif verb == "choose_mode":  # a player picks one of the modes as it resolves
            a = self._args(verb, arg, "modes", {"who"})
            modes = _list(a["modes"])
            if len(modes) < 2:
                self.fail("choose_mode: at least two modes, each a list of steps")
            r = self._row(op, a=len(modes), **self._subject(a, "who", "target", verb))
            table = [self._row(K.OP_JUMP) for _ in modes]
            ends = []
            for j, mode in zip(table, modes):
                self.t.set("ep", j, K.E_JUMP, len(self.t.rows["ep"]))
                self.effects(_list(mode))
                ends.append(self._row(K.OP_JUMP))
            for e in ends:
                self.t.set("ep", e, K.E_JUMP, len(self.t.rows["ep"]))
            self.t.set("ep", r, K.E_JUMP, len(self.t.rows["ep"]))
        elif verb == "reveal_until":  # reveal from the top until a matching card
            a = self._args(verb, arg, "filter", {"to", "rest", "who", "choose_one"})
            fd = a["filter"]
            fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
            fd["zone"] = "library"
            if "who" in a or "choose_one" in a:  # each of them reveals; you choose one card
                if (a.get("choose_one") is not True or a.get("to") != "battlefield"
                        or a.get("rest") != "graveyard" or "who" not in a):  # fmt: skip
                    self.fail("reveal_until: {who: PLAYERS, filter, choose_one: true, "
                              "to: battlefield, rest: graveyard}")  # fmt: skip
                self._row(op, refa=self.filter(fd), d=1, ref2=self.ref(a["who"], "who")[0],
                          ref=K.R_NONE)  # fmt: skip
                self.t.set(
                    "ep", len(self.t.rows["ep"]) - 1, K.E_REF2A, self.ref(a["who"], "who")[1]
                )
                self.where = where
                return
            to = {"hand": 0, "battlefield": 1}.get(a.get("to", "hand"), -1)
            rest = {"bottom_random": 0, "shuffle": 1}.get(a.get("rest", "bottom_random"), -1)
            if to < 0 or rest < 0:
                self.fail("reveal_until: to hand | battlefield, rest bottom_random | shuffle")
            self._row(op, refa=self.filter(fd), c=to, a=rest)
        elif verb == "chaos_of_top_planes":
            a = self._args(verb, arg, "amount", set())
            self._row(op, amt=self.amount(a["amount"]), ref=K.R_YOU)
        elif verb == "day_night":  # 728.1: it becomes day / night / the other one
            a = self._args(verb, arg, "becomes", set())
            dn = {"day": 1, "night": 2, "toggle": 3}.get(a["becomes"], -1)
            if dn < 0:
                self.fail("day_night: becomes day, night or toggle")
            self._row(op, a=dn)
        elif verb == "subgame":  # 726: the players play a subgame with their libraries
            if arg not in (None, True, {}):
                self.fail("subgame: takes no arguments")
            self._row(op)
        elif verb == "meld":  # 701.42a: "exile this and [its partner], then meld them"
            a = self._args(verb, arg, "with", set())
            fd = a["with"]
            fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
            self._row(op, refa=self.filter(fd))
        elif verb in ("suspend_tick", "suspend_haste"):  # (suspend's triggers, 702.62a)
            self._row(op, **self._subject({"what": arg}, "what", "event.object", verb))
        elif verb == "devour":  # (the synthetic devour program's last step, 702.82a)
            self._row(op)
        elif verb == "wish":  # a card you own from outside the game into your hand
            a = self._args(verb, arg, "filter", {"who"})
            fd = a["filter"]
            fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
            fd["zone"] = "any"
            self._row(op, refa=self.filter(fd), ref=self.simple(a.get("who", "you"), "who"))
        elif verb == "cast_without_paying":  # 601.2, 118.9: cast as this resolves
            a = self._args(verb, arg, "from", {"filter", "lands", "reveal"})
            frm = a["from"]
            ref = K.R_NONE
            if a.get("lands") not in (None, True) or a.get("reveal") not in (None, True):
                self.fail("cast_without_paying: lands / reveal are true or left out")
            if frm == "library_top":  # "reveal the top card of your library"
                if "filter" in a:
                    self.fail("cast_without_paying: from library_top takes no filter")
                mode, f = K.FREE_FROM_TOP, -1
            elif frm == ["hand", "library"]:  # "search your hand and/or library for ..."
                fd = a.get("filter", "card")
                fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
                fd["zone"] = "any"
                mode, f = K.FREE_FROM_SEARCH, self.filter(fd)
            elif isinstance(frm, dict) and set(frm) == {"each"} and "filter" not in a:
                mode, f = K.FREE_FROM_SET, self.filter(frm["each"])
            elif frm in ("event.object", "it", "target"):  # "cast that card"
                mode, f = K.FREE_FROM_REF, -1
                ref = self.simple(frm, "cast_without_paying: from")
            else:
                self.fail("cast_without_paying: from is library_top, [hand, library] (with a "
                          "filter) or {each: FILTER}")  # fmt: skip
            self._row(op, a=mode, b=1 if a.get("lands") else 0, refa=f, ref=ref)
        elif verb == "grant_ability":  # "each creature you control gains '{T}: ...' until ..."
            a = self._args(verb, arg, "what", {"ability", "until"})
            inner = a.get("ability")
            if not isinstance(inner, dict) or set(inner) != {"activated"}:
                self.fail("grant_ability: ability is {activated: {...}}")
            body = inner["activated"]
            if isinstance(body, dict) and "zone" in body:
                self.fail("grant_ability: the ability works where the permanent is (no zone)")
            until = self._until(a, verb)
            subject = self._subject(a, "what", "target", verb)
            keep = (self.where, self.n_specs, self.default_zone, self.delayed_programs)
            self.default_zone, self.delayed_programs = "battlefield", []
            e1 = len(self.t.rows["ep"])
            ab = self.ability("activated", body, -1)  # (in it, `self` is the permanent)
            if self.delayed_programs:
                self.fail("grant_ability: no delayed steps in the granted ability")
            self.where, self.n_specs, self.default_zone, self.delayed_programs = keep
            self.t.set("ab", ab, K.B_ARG, K.AB_GRANTED_BY_EFFECT)
            self.t.set("ab", ab, K.B_INDEX, 17)  # (after the permanent's own abilities)
            # its program was compiled here; it moves after the ability's own program
            rows = self.t.rows["ep"][e1:]
            del self.t.rows["ep"][e1:]
            self.delayed_programs.append((ab, rows, e1))
            self._row(op, a=ab, until=until, **subject)
        elif verb == "return_at_random":  # "return a card at random from your graveyard"
            a = self._args(verb, arg, "filter", {"to"})
            if a.get("to", "hand") != "hand":
                self.fail("return_at_random: to hand")
            fd = a["filter"]
            fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
            if fd.get("zone") not in ("graveyard", "exile"):
                self.fail("return_at_random: the filter's zone is graveyard or exile")
            self._row(op, refa=self.filter(fd))
        elif verb == "exile_until":  # Illuna: exile from the top until a matching card
            a = self._args(verb, arg, "filter", {"to"})
            fd = a["filter"]
            fd = dict(FILTER_WORDS.get(fd, {})) if isinstance(fd, str) else dict(fd)
            fd["zone"] = "any"
            to = {"hand": 0, "battlefield": 1, "battlefield_or_hand": 2}.get(
                a.get("to", "hand"), -1
            )
            if to < 0:
                self.fail("to: hand, battlefield or battlefield_or_hand")
            self._row(op, refa=self.filter(fd), a=to)
        elif verb == "lose_keywords":  # layer 6: "target creature loses flying"
            a = self._args(verb, arg, "what", {"keywords", "until"})
            kw, _, _ = self._keywords(a.get("keywords"))
            self._row(
                op, c=kw, until=self._until(a, verb), **self._subject(a, "what", "target", verb)
            )
        else:
            self.fail(f"the effect word {verb!r} is not implemented yet")
        self.where = where

    # --------------------------------------------------------- Conspiracy Draft (905)
    def _card_name(self, v: Any, what: str) -> str:
        if not isinstance(v, str) or v not in self.db:
            self.fail(f"{what}: {v!r} is not a card of the pool")
        return self.db.get(v).name

    def _conspiracy_filter(self, spec: dict, v: dict) -> None:
        """`named: true` (the name the source's hidden agenda names, 702.106), `named:
        other` (Summoner's Bond: its chosen name other than the event object's), and
        `noted_name` / `noted_type` / `noted_color: CARD` (a name, creature type or colour
        noted during the draft for cards named CARD, 905.2b)."""
        from components.players import NOTE_COLORS, NOTE_NAME, NOTE_TYPE

        named = spec.get("named")
        if named not in (None, True, False, "other"):
            self.fail("filter: named is true or other")
        v[K.L_NAMED] = 2 if named == "other" else (1 if named else 0)
        keys = [k for k in ("noted_name", "noted_type", "noted_color") if k in spec]
        if len(keys) > 1:
            self.fail("filter: one of noted_name, noted_type, noted_color")
        v[K.L_NOTED] = 0
        v[K.L_NOTED_CARD] = -1
        if keys:
            kind = {"noted_name": NOTE_NAME, "noted_type": NOTE_TYPE,
                    "noted_color": NOTE_COLORS}[keys[0]]  # fmt: skip
            v[K.L_NOTED] = 1 + kind
            v[K.L_NOTED_CARD] = self.card(self._card_name(spec[keys[0]], f"filter: {keys[0]}"))

    def _granted(self, body: Any, card: int) -> int:
        """`granted: {to: FILTER, ability: {activated | mana | triggered: ...}}`: an
        ability a command-zone card gives the permanents matching FILTER ("creatures you
        control with the chosen name have ..."); in it, `self` is that permanent."""
        if not isinstance(body, dict) or not {"to", "ability"} <= set(body) <= {
            "to",
            "ability",
            "if",
        }:
            self.fail("granted: {to: FILTER, ability: {KIND: ...}, if: COND}")
        inner = body["ability"]
        if not isinstance(inner, dict) or len(inner) != 1:
            self.fail("granted: ability is one {activated | mana | triggered: ...}")
        ((kind, ib),) = inner.items()
        if kind not in ("activated", "mana", "triggered"):
            self.fail("granted: an activated, mana or triggered ability")
        if isinstance(ib, dict) and "zone" in ib:
            self.fail("granted: the ability works where the permanent is (no zone)")
        a = self.ability(kind, ib, card)
        f = self.filter(body["to"])
        self.t.set("ab", a, K.B_GRANT, f)
        self.t.rows["ct"][card][K.C_FLAGS] |= K.CF_GRANTS
        if "if" in body:  # a condition on the grant (Worldknit)
            if kind == "triggered":
                self.fail("granted: `if` on a triggered ability goes inside it")
            self.t.set("ab", a, K.B_IF, self.cond(body["if"]))
        if kind == "activated":
            self.t.set("ab", a, K.B_INDEX, 16)  # (after the permanent's own abilities)
        return a

    def _conspiracy_static(self, kind: str, arg: Any, r: int) -> bool:
        """Statics of conspiracies and draft-matters cards (systems/conspiracy.py)."""
        row = self.t.rows["sa"][r]
        if kind == "enters_with_counters":  # {what, kind, amount} (614.1c)
            if not isinstance(arg, dict) or "what" not in arg:
                self.fail("enters_with_counters: {what, kind, amount}")
            self._static_what(r, arg["what"])
            row[K.A_KIND] = K.ST_ENTERS_COUNTERS
            row[K.A_ARG] = self._counter(arg.get("kind", "+1/+1"))
            row[K.A_AMT] = self.amount(arg.get("amount", 1))
            return True
        if kind in ("cant_cast", "mana_any_color"):  # {spells: FILTER} (you)
            who = arg.get("who") if isinstance(arg, dict) and kind == "cant_cast" else None
            if who is not None:  # the players who can't (a player filter); default: you
                row[K.A_REF] = K.R_EACH
                row[K.A_REFA] = self.filter(
                    {
                        "what": "players",
                        **(
                            FILTER_WORDS[who]
                            if isinstance(who, str) and who in FILTER_WORDS
                            else who
                        ),
                    }
                )
                arg = {k: x for k, x in arg.items() if k != "who"}
            if isinstance(arg, dict) and "more_than" in arg and kind == "cant_cast":
                # "can't cast more than N spells each turn": not once they have cast N
                row[K.A_AMT] = self.amount(arg["more_than"])
                arg = {k: x for k, x in arg.items() if k != "more_than"}
            if not isinstance(arg, dict) or set(arg) != {"spells"}:
                self.fail(
                    f"{kind}: {{spells: FILTER}}"
                    + (", who: PLAYERS, more_than: N" if kind == "cant_cast" else "")
                )
            f = (dict(FILTER_WORDS.get(arg["spells"], {})) if isinstance(arg["spells"], str)
                 else dict(arg["spells"]))  # fmt: skip
            f.setdefault("zone", "any")
            row[K.A_KIND] = K.ST_CANT_CAST if kind == "cant_cast" else K.ST_ANY_COLOR
            row[K.A_ARG] = self.filter(f)
            return True
        if kind == "starting_player":
            if arg != "you":
                self.fail("starting_player: you")
            row[K.A_KIND] = K.ST_STARTING_PLAYER
            return True
        if kind == "toughness_damage":  # 510.1a: assigns combat damage by its toughness
            self._static_what(r, arg)
            row[K.A_KIND] = K.ST_TOUGHNESS_DAMAGE
            return True
        if kind == "starting_hand":
            row[K.A_KIND] = K.ST_START_HAND
            row[K.A_AMT] = self.amount(self._int(arg, "starting_hand"))
            return True
        if kind in ("extra_opening_hand", "choose_number"):  # Backup Plan; Emissary's Ploy
            row[K.A_KIND] = K.ST_EXTRA_HAND if kind == "extra_opening_hand" else K.ST_CHOOSE_NUMBER
            row[K.A_AMT] = self.amount(self._int(arg, kind))
            return True
        if kind == "must_attack":  # {what: self, noted: CARD}: attacks (a noted player) if able
            if not isinstance(arg, dict) or arg.get("what") != "self":
                self.fail("must_attack: {what: self} or {what: self, noted: CARD}")
            self._static_what(r, "self")
            row[K.A_KIND] = K.ST_MUST_ATTACK
            row[K.A_ARG] = (self.card(self._card_name(arg["noted"], "must_attack: noted"))
                            if "noted" in arg else -1)  # fmt: skip
            return True
        return False

    def token(self, spec: Any) -> int:
        """The card row of a token: a named token record, or one described inline."""
        if isinstance(spec, str):
            return self.card(spec)
        if not isinstance(spec, dict):
            self.fail("token: a token name or a mapping")
        name = spec.get("name") or " ".join(_list(spec.get("subtypes"))) + " Token"
        key = "token:" + repr(sorted(spec.items(), key=lambda kv: kv[0]))
        if key in self.row_of:
            return self.row_of[key]
        r = self.t.new("ct")
        self.row_of[key] = r
        self.token_names[r] = name
        self._later(r, name, spec, Card(name, spec, real=False, token=True))
        return r


def manual_mana(row: list[int]) -> bool:
    """Is this mana ability row one the automatic payment doesn't use (605.3a: a cost
    besides {T}, or two colours at once; the engine's test is systems/mana.manual)?"""
    cost = any(row[K.B_COST + k] for k in range(7))
    colors = sum(1 for k in range(6) if row[K.B_MANA_A + k])
    return bool(row[K.B_TAP] != 1 or row[K.B_SAC] != -1 or row[K.B_LIFE] or row[K.B_RMCTR] >= 0
                or cost or (row[K.B_MANA] == K.MANA_FIXED and colors > 1))  # fmt: skip


def free_ability(row: list[int]) -> bool:
    """Is this an activated ability with no cost at all and no limit ({0}: Eladamri's), one
    a player may activate again and again (B_FREE)?"""
    if row[K.B_KIND] != K.AB_ACTIVATED or row[K.B_ONCE] or row[K.B_SORC]:
        return False
    mana = any(row[K.B_COST + k] for k in range(7)) or any(row[K.B_HYB + k] for k in range(K.NHYB))
    return not (mana or row[K.B_XS] or row[K.B_TAP] or row[K.B_SAC] != -1 or row[K.B_LIFE]
                or row[K.B_DISCARD] or row[K.B_DISCARD_SELF] or row[K.B_RMCTR] >= 0)  # fmt: skip


def listed_ability(row: list[int]) -> bool:
    """Could a listing of options offer this ability row of a card (CF_LISTED)?"""
    kind = row[K.B_KIND]
    if kind == K.AB_MANA:
        return manual_mana(row)
    return kind in (K.AB_ACTIVATED, K.AB_LOYALTY, K.AB_EQUIP)


def overloaded(body: dict) -> dict:
    """702.96b: an overloaded spell's text with "target" changed to "each": the effects
    act on every object its target specs would allow, and it has no targets."""
    specs = []
    for spec in _list(body.get("targets")):
        if isinstance(spec, dict) and "filter" in spec:
            spec = spec["filter"]
        elif isinstance(spec, dict):
            spec = {k: v for k, v in spec.items() if k not in ("count", "up_to", "different")}
        specs.append(spec)

    def swap(v: Any) -> Any:
        if isinstance(v, str) and (v == "target" or re.fullmatch(r"target\.\d", v)):
            k = 0 if v == "target" else int(v[-1])
            if k >= len(specs):
                raise CardError(f"overload: {v} names no target spec")
            return {"each": specs[k]}
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        return v

    return {"effects": swap(_list(body.get("effects")))}


RECORD_KEYS = {
    "cost", "types", "supertypes", "subtypes", "power", "toughness", "loyalty", "defense",
    "keywords", "abilities", "colors", "identity", "enchant", "back", "name", "hand", "life",
    "can_be_commander", "not_real", "token", "note",
    "draft", "deck",  # Conspiracy Draft: the draft ability and deck rules (ecs/draft.py)
    "mutate_from_graveyard",  # Brokkos (702.140)
    "commander_color_choice",  # The Prismatic Piper (903.4b, 903.13e)
}  # fmt: skip


def check_record_keys(name: str, rec: dict, where: str = "") -> None:
    """A record's fields are the vocabulary's: anything else is refused by name (a typo
    would otherwise be a card that silently does less)."""
    for k in rec:
        if k not in RECORD_KEYS:
            raise CardError(
                f"card {name!r}{where}: unknown field {k!r} (expected one of {sorted(RECORD_KEYS)})"
            )
    for k in ("not_real", "token", "can_be_commander", "commander_color_choice"):
        if k in rec and not isinstance(rec[k], bool):
            raise CardError(f"card {name!r}{where}: {k} is true or false, not {rec[k]!r}")
    if isinstance(rec.get("back"), dict):
        check_record_keys(name, rec["back"], " (back face)")


VERB_ALIASES = {
    "win": "win_game", "lose": "lose_game", "piles": "fact_or_fiction",
    "put_onto_battlefield": "put_land",
}  # fmt: skip


# ----------------------------------------------------------------- the pool
CHOSEN = "chosen:"  # chosen_color_key: a card with its colour chosen before the game


def chosen_color_key(name: str, color: str) -> str:
    """The name to compile (and to put into a game) for card ``name`` with colour
    ``color`` (W, U, B, R or G) chosen before the game (903.4b: The Prismatic Piper as a
    commander): ``chosen:G:The Prismatic Piper``. The game shows the card's own name."""
    return f"{CHOSEN}{color}:{name}"


def split_chosen_key(key: str) -> tuple[str, str]:
    """(the colour letter, the card's name) of a :func:`chosen_color_key`; CardError
    for a colour that isn't one of W U B R G."""
    color, _, name = key[len(CHOSEN) :].partition(":")
    if color not in ("W", "U", "B", "R", "G") or not name:
        raise CardError(f"{key!r}: expected chosen:<W|U|B|R|G>:<card name> (903.4b)")
    return color, name


def chosen_color_of(compiled: Compiled, row: int) -> str | None:
    """The colour chosen before the game for the card of this row (903.4b), or None."""
    for n, r in compiled.row_of.items():
        if r == row and n.startswith(CHOSEN):
            return split_chosen_key(n)[0]
    return None


class CardDB:
    """Every card record of the pool (and of any extra files), by name."""

    def __init__(self, records: dict[str, dict], sources: dict[str, str] | None = None):
        self.cards: dict[str, Card] = {}
        self.by_lower: dict[str, str] = {}
        for name, rec in records.items():
            if not isinstance(name, str) or not isinstance(rec, dict):
                raise CardError(f"card {name!r}: a record is a mapping of fields")
            check_record_keys(name, rec)
            card = Card(name, rec, real=not rec.get("not_real") and not rec.get("token"),
                        token=bool(rec.get("token")), source=(sources or {}).get(name, ""))  # fmt: skip
            self.cards[name] = card
            self.by_lower[name.lower()] = name
        self._subtypes()

    def _subtypes(self) -> None:
        """Subtype ids: creature types below SUBTYPE_NONCREATURE, the basic land types
        first after it (WUBRG), then the other subtypes."""
        creature, other = set(), set()
        for card in self.cards.values():
            rec = card.record
            for face in (rec, rec.get("back") or {}):
                types = _list(face.get("types"))
                subs = _list(face.get("subtypes"))
                if "Creature" in types or "Kindred" in types or "Tribal" in types:
                    # 205.3g-h: its artifact and enchantment types are none (Background)
                    creature.update(s for s in subs if s not in NONCREATURE_SUBTYPES)
                    other.update(s for s in subs if s in NONCREATURE_SUBTYPES)
                else:
                    other.update(subs)
        other -= creature
        self.subtype_ids = {s: k for k, s in enumerate(sorted(creature))}
        base = K.SUBTYPE_NONCREATURE
        for k, s in enumerate(BASIC_TYPES):
            self.subtype_ids[s] = base + k
        for s in sorted(other - set(BASIC_TYPES)):
            self.subtype_ids[s] = (
                base
                + len(BASIC_TYPES)
                + len(
                    [x for x in self.subtype_ids if self.subtype_ids[x] >= base + len(BASIC_TYPES)]
                )
            )
        self.creature_types = creature

    def subtype_id(self, name: str) -> int:
        if not isinstance(name, str):
            raise CardError(f"subtype {name!r}: expected a name")
        if name not in self.subtype_ids:
            # a creature type no card of the pool has (a filter naming it matches
            # changelings only): give it an id
            self.subtype_ids[name] = len(
                [x for x in self.subtype_ids.values() if x < K.SUBTYPE_NONCREATURE]
            )
        return self.subtype_ids[name]

    def __contains__(self, name: str) -> bool:
        return isinstance(name, str) and name.lower() in self.by_lower

    def get(self, name: str) -> Card:
        """The card named ``name`` (any case); CardError with "did you mean" otherwise."""
        if isinstance(name, str) and name.lower() in self.by_lower:
            return self.cards[self.by_lower[name.lower()]]
        raise CardError(self.unknown(name))

    def unknown(self, name: Any, what: str = "card") -> str:
        """ "unknown card 'X'; did you mean ...?" with the closest names of the pool."""
        close = difflib.get_close_matches(str(name), list(self.cards), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        return f"unknown {what} {name!r}{hint}"

    def names(self, real_only: bool = True) -> list[str]:
        return sorted(n for n, c in self.cards.items() if (c.real or not real_only) and not c.token)

    def compile(self, names) -> Compiled:
        """The cards arena for these cards (and what they refer to: tokens, back faces)."""
        comp = Compiler(self)
        comp.n_specs = 0
        for name in names:
            comp.card(name if str(name).startswith(CHOSEN) else self.get(name).name)
        _conspire_trigger(comp)
        _suspend_triggers(comp)
        _devour_program(comp)
        _granted_unearth_ability(comp)  # (then its delayed trigger's row)
        _rebound_ability(comp)
        _exalted_ability(comp)
        _deploy_ability(comp)
        _live_statics(comp)
        n = len(comp.t.rows["ab"])
        assert n - comp.granted_unearth == K.AB_FROM_END_UNEARTH, "AB_FROM_END_UNEARTH"
        assert n - comp.conspire_trigger == K.AB_FROM_END_CONSPIRE, "AB_FROM_END_CONSPIRE"
        return Compiled(
            comp.t.arena(), dict(comp.row_of), comp.t, self, tuple(names), comp.token_names
        )

    def compiled(self, names) -> Compiled:
        """:meth:`compile`, kept for the next game of the same cards (the result is
        read-only to the engine)."""
        key = tuple(sorted(set(names)))
        cache = self.__dict__.setdefault("_compiled", {})
        if key not in cache:
            if len(cache) >= 64:
                cache.clear()
            cache[key] = self.compile(key)
        return cache[key]

    def check(self, name: str) -> str | None:
        """Why card ``name`` can't be played (None if it can); worked out once a card (a
        compile each: the stock planes, say, are looked for once per set-up drawn)."""
        checks = self.__dict__.setdefault("_checks", {})
        if name not in checks:
            try:
                self.compile([name])
                checks[name] = None
            except CardError as e:
                checks[name] = str(e)
        return checks[name]

    def text(self, name: str) -> str:
        """The rules text the engine plays, rendered from the record."""
        from ecs.card_text import render

        card = self.get(name)
        tokens = {n: c.record for n, c in self.cards.items() if c.token}
        return render(card.name, card.record, tokens)


def unearth_body(cost: Any) -> dict:
    """702.84a: "[cost]: return this card from your graveyard to the battlefield. It gains
    haste. Exile it at the beginning of the next end step or if it would leave the
    battlefield. Activate only as a sorcery." """
    return {
        "cost": cost, "timing": "sorcery", "zone": "graveyard",
        "effects": [
            {"return": {"what": "self", "to": "battlefield"}},
            {"grant": {"what": "self", "keywords": ["haste"], "until": "forever"}},
            {"exile_if_leaves": "self"},
            {"delayed": {"at": "next_end_step", "what": "self",
                         "effects": [{"exile": "event.object"}]}},
        ],
    }  # fmt: skip


def _conspire_trigger(comp: Compiler) -> None:
    """702.78a: conspire's triggered ability ("when you cast this spell, if its conspire
    cost was paid, copy it; if the spell has any targets, you may choose new targets for
    the copy"), one row every cards arena has, before suspend's (components.cards
    AB_FROM_END_CONSPIRE): systems/casting.py queues it once for each instance paid, the
    spell its source and event object."""
    comp.conspire_trigger = len(comp.t.rows["ab"])
    _builtin_trigger(
        comp,
        "stack",
        "conspire (702.78)",
        [{"copy_spell": {"what": "event.object", "new_targets": True}}],
    )


def _suspend_triggers(comp: Compiler) -> None:
    """702.62a: the two triggered abilities of suspend, rows every cards arena has (before
    devour's; components.cards AB_FROM_END_SUSPEND_TICK and _CAST): "at the beginning of
    your upkeep, if this card is suspended, remove a time counter from it" and "when the
    last time counter is removed from it, you may cast it without paying its mana cost;
    a creature spell cast so gains haste" (systems/suspend.py puts them on the stack)."""
    _builtin_trigger(comp, "exile", "suspend (702.62)", [{"suspend_tick": "event.object"}])
    _builtin_trigger(
        comp,
        "exile",
        "suspend (702.62)",
        [{"cast_without_paying": {"from": "event.object"}}, {"suspend_haste": "it"}],
    )


def _devour_program(comp: Compiler) -> None:
    """702.82a: "as this enters, you may sacrifice any number of creatures; it enters with
    N +1/+1 counters for each": the program a creature spell with devour (its own, or
    gained on the stack: Jund) resolves with, one row every cards arena has, before the
    granted unearth's (components.cards AB_FROM_END_DEVOUR). At most 64 creatures (the
    size of the `chosen` table)."""
    t = comp.t
    comp.where = "devour (702.82)"
    comp.current_record, comp.current_name = {"types": ["Creature"]}, "devour"
    a = t.new("ab")
    comp._ability_defaults(a, -1, K.AB_SPELL)
    comp.n_specs = 0
    choose = {"filter": {"type": "Creature", "controller": "you"}, "amount": 64, "up_to": True}
    effects = [{"choose": choose}, {"sacrifice_each": "all_chosen"}, {"devour": True}]
    comp._targets_effects(a, {"effects": effects})
    assert len(t.rows["ab"]) == a + 1


def _granted_unearth_ability(comp: Compiler) -> None:
    """Unearth a plane gives graveyard cards (Grixis), its cost each card's mana cost
    (systems/casting.base_cost): one row every cards arena has, before rebound's
    (components.cards AB_FROM_END_UNEARTH)."""
    comp.where = "unearth granted (702.84)"
    comp.current_record, comp.current_name = {}, "unearth"
    comp.granted_unearth = comp.ability("activated", unearth_body("{0}"), -1)


def _rebound_ability(comp: Compiler) -> None:
    """702.88a: rebound's delayed trigger ("at the beginning of your next upkeep, you may
    cast this card from exile without paying its mana cost"), one row every cards arena
    has, before exalted's (components.cards AB_FROM_END_REBOUND); systems/stack.py
    creates it as a spell with rebound resolves. Its event object is the exiled card."""
    _builtin_trigger(
        comp, "exile", "rebound (702.88)", [{"cast_without_paying": {"from": "event.object"}}]
    )


def _exalted_ability(comp: Compiler) -> None:
    """702.83: exalted's trigger ("whenever a creature you control attacks alone, it gets
    +1/+1 until end of turn"), one row every cards arena has, before deploy's
    (components.cards AB_FROM_END_EXALTED); systems/combat.py puts it on the stack."""
    _builtin_trigger(
        comp,
        "battlefield",
        "exalted (702.83)",
        [{"pump": {"what": "event.object", "power": 1, "toughness": 1}}],
    )


def _builtin_trigger(comp: Compiler, zone: str, where: str, effects: list) -> None:
    """A triggered ability row of the rules, not of a card (no trigger condition: the
    system that owns it puts it on the stack), with these effects."""
    t = comp.t
    comp.default_zone = zone
    a = t.new("ab")
    comp._ability_defaults(a, -1, K.AB_TRIGGERED)
    t.set("ab", a, K.B_WHEN, -1)
    comp.where = where
    comp.n_specs = 0
    e0 = len(t.rows["ep"])
    comp.effects(effects)
    t.set("ab", a, K.B_E0, e0)
    t.set("ab", a, K.B_EN, len(t.rows["ep"]) - e0)


# Filter fields a count may use and still change only when an object moves between
# zones or the layers change it (both "touch" the state, systems/state.py); any other
# field must keep its value of a filter with no condition.
_STILL_FIELDS = frozenset(
    [K.L_TYPE, K.L_TYPE_ALL, K.L_NOT_TYPE, K.L_NOT_SUB, K.L_SUPER, K.L_NOT_SUPER, K.L_COLOR,
     K.L_NOT_COLOR, K.L_COLORLESS, K.L_TOKEN, K.L_ANOTHER, K.L_NAME, K.L_COMMANDER, K.L_MUTATE,
     K.L_KW, K.L_NOT_KW, K.L_PUT_BY, K.L_WHAT, K.L_ZONE, K.L_CTL, K.L_OWNER, K.L_OR]
    + [K.L_SUB + k for k in range(K.NFSUB)]
    + [f + k for f in (K.L_POW, K.L_TOU, K.L_MV) for k in range(2)]
)  # fmt: skip
_MOVED_ZONES = (ZONE["battlefield"], ZONE["graveyard"], ZONE["exile"])  # (not hand, stack:
# a draw and a cast only "bump" the state)


def _still_filter(comp: Compiler, f: int, plain: list[int], depth: int = 0) -> bool:
    """Does the count of filter f's objects change only with a touch (a zone move, the
    layers), not with a draw, a tap, an attack or a new turn?"""
    row, am = comp.t.rows["fl"][f], comp.t.rows["am"]
    if any(row[k] != plain[k] for k in range(len(row)) if k not in _STILL_FIELDS):
        return False
    if row[K.L_WHAT] != K.W_OBJECTS or row[K.L_ZONE] not in _MOVED_ZONES:
        return False
    if {row[K.L_CTL], row[K.L_OWNER]} & {K.REL_ACTIVE, K.REL_EVENT_PLAYER}:
        return False
    for col in (K.L_POW, K.L_TOU, K.L_MV):  # (compared with a number, not an X)
        if row[col] and (row[col + 1] < 0 or am[row[col + 1]][K.M_KIND] != K.AM_CONST):
            return False
    return row[K.L_OR] < 0 or (depth == 0 and _still_filter(comp, row[K.L_OR], plain, 1))


def _still_amount(comp: Compiler, m: int, plain: list[int]) -> bool:
    """Does amount row m change only with a touch: a number, or a count of objects
    (Reckless One's Goblins on the battlefield)? Not cards in hand, life, mana in a pool."""
    if m < 0:
        return True
    row = comp.t.rows["am"][m]
    if row[K.M_KIND] == K.AM_CONST:
        return True
    return row[K.M_KIND] in (K.AM_COUNT, K.AM_TOTAL_POWER) and _still_filter(
        comp, row[K.M_ARG], plain
    )


def _live_statics(comp: Compiler) -> None:
    """CF_LIVE_STATICS for the cards with a layer static whose condition ("as long as
    it's your turn"), count ("+1/+0 for each card in your hand", Omnath's unspent green
    mana) or set of objects ("attacking creatures you control have deathtouch") a change
    that doesn't touch the state may answer differently (613.4c: the layers must see it
    at once; systems/continuous_effects sets S_LIVE_STATICS while such a card is a
    source)."""
    values = comp._filter_values({})
    plain = [values.get(k, 0) for k in range(comp.t.width("fl"))]
    for row in comp.t.rows["sa"]:
        if row[K.A_KIND] not in K.LAYER_STATICS:
            continue
        still = all(_still_amount(comp, m, plain) for m in (row[K.A_AMT], row[K.A_AMT2]))
        if row[K.A_REF] == K.R_EACH:  # (the objects it affects: R_SELF, R_ATTACHED move
            still = still and _still_filter(comp, row[K.A_REFA], plain)  # with a touch)
        if row[K.A_IF] >= 0 or not still:
            comp.t.rows["ct"][row[K.A_CARD]][K.C_FLAGS] |= K.CF_LIVE_STATICS


def _deploy_ability(comp: Compiler) -> None:
    """804.2: every creature has "{T}: Target teammate gains control of this creature.
    Activate only as a sorcery." when creatures can be deployed: the last ability row."""
    t = comp.t
    comp.default_zone = "battlefield"
    a = t.new("ab")
    comp._ability_defaults(a, -1, K.AB_ACTIVATED)
    t.set("ab", a, K.B_TAP, 1)
    t.set("ab", a, K.B_SORC, 1)
    t.set("ab", a, K.B_INDEX, 31)
    comp.where = "deploy (804.2)"
    spec = comp.target_spec("teammate", 0)
    t.set("ab", a, K.B_TG0, spec)
    t.set("ab", a, K.B_NTG, 1)
    comp.n_specs = 1
    e0 = len(t.rows["ep"])
    comp._row(K.OP_GAIN_CONTROL, ref=K.R_SELF, ref2=K.R_TARGET, until=UNTIL_FOREVER)
    t.set("ab", a, K.B_E0, e0)
    t.set("ab", a, K.B_EN, 1)


@dataclass
class Compiled:
    """A cards arena and where each card went in it."""

    arena: np.ndarray
    row_of: dict[str, int]
    tables: Tables = field(repr=False)
    db: CardDB = field(repr=False)
    names: tuple[str, ...] = ()  # what was compiled (the same list compiles the same arena)
    token_names: dict[int, str] = field(default_factory=dict, repr=False)

    def row(self, name: str) -> int:
        if name in self.row_of:  # (a name as the pool spells it, a chosen_color_key)
            return self.row_of[name]
        return self.row_of[self.db.get(name).name]

    def name_of(self, row: int) -> str:
        if row in self.token_names:  # a token described inline, an emblem
            return self.token_names[row]
        for n, r in self.row_of.items():
            if r == row and not n.startswith(("token:", "emblem:")):
                if n.startswith(CHOSEN):
                    return split_chosen_key(n)[1]
                return n[5:] if n.startswith("back:") else n
        return self.token_names.get(row, f"card#{row}")


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # (libyaml's parser: ~10x faster)


def _read(path: Path) -> dict:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise CardError(f"{path}: not a YAML file of card records: {e}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise CardError(f"{path}: expected a mapping of card name to record")
    return data


@lru_cache(maxsize=4)
def _load(paths: tuple[str, ...]) -> CardDB:
    records: dict[str, dict] = {}
    sources: dict[str, str] = {}
    for p in paths:
        for name, rec in _read(Path(p)).items():
            if name in records:
                raise CardError(f"{p}: card {name!r} is also in {sources[name]}")
            records[name] = rec
            sources[name] = p
    return CardDB(records, sources)


def load_pool(extra: list[str | Path] | None = None) -> CardDB:
    """The bundled pool (every ``ecs/data/cards/*.yaml``), plus extra record files."""
    files = sorted(str(p) for p in DATA.glob("*.yaml"))
    files += [str(p) for p in (extra or [])]
    return _load(tuple(files))


def cards_main(names: list[str], all_cards: bool) -> int:
    """``melee cards NAME...`` / ``melee cards --all``: print the rules text the engine
    plays for each card named (any case; a card invented for a rules example or a
    token is shown when asked for by name), or for every real card of the pool.
    Returns the exit status: 2 if a name is unknown (with "did you mean")."""
    import sys

    db = load_pool()
    status = 0
    texts = []
    for name in names:
        try:
            card = db.get(name)
        except CardError as e:
            print(f"melee cards: {e}", file=sys.stderr)
            status = 2
            continue
        texts.append(db.text(card.name))
        why = db.check(card.name)
        if why:
            texts[-1] += f"\n(The engine can't play this card yet: {why})"
    if all_cards:
        texts += [db.text(n) for n in db.names()]
    if texts:
        print("\n\n".join(texts))
    return status
