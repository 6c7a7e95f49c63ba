"""Cards as data: the card record vocabulary, its validation and its compilation.

One readable YAML record per card (``ecs/data/cards.yaml``). Loading checks every
field against the vocabulary below and names the card and field that is wrong.
Compilation turns the records into columns (``CardDB.types``, ``.kw``, ``.power``,
...) that the numba systems gather by card index; the effect lists stay small
Python tuples that ``systems/effects.py`` interprets when a spell or ability
resolves (rare, so not worth compiling further).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from ecs.constants import COLOR_INDEX, KW, SUPERTYPE_BITS, TYPE_BITS

DATA = Path(__file__).parent.parent / "data"


class CardError(ValueError):
    """A card record or card name is wrong; the message says where."""


TARGET_KINDS = {
    "any",  # creature, player or planeswalker (115.4)
    "creature",
    "player",
    "opponent",
    "player_or_planeswalker",
    "land",
    "permanent",
    "teammate",
}

# effect name -> allowed argument keys (None: a scalar/reference argument)
EFFECTS: dict[str, set[str] | None] = {
    "damage": {"amount", "to"},
    "prevent": {"amount", "to", "combat"},
    "draw": {"count", "who"},
    "gain_life": {"amount", "who", "times"},
    "lose_life": {"amount", "who"},
    "destroy": None,
    "pump": {"power", "toughness", "keywords", "to"},
    "gain_control": None,
    "untap": None,
    "tap": None,
    "extra_turn": None,
    "win_game": None,
    "lose_game": None,
    "draw_game": None,
    "create_token": {"for", "types", "subtypes", "colors", "power", "toughness", "keywords"},
    "double_life": None,
    "life_becomes_lowest": None,
    "shuffle_into_library": None,
    "discard_random": None,
    "remove_counter": {"kind", "from"},
    "give_control": {"what", "to"},
    "redirect": {"amount", "from", "to"},
    "mill": {"count", "who"},
    "fact_or_fiction": None,
    "exile": None,  # a reference, or {what, with_source}
    "exile_from_hand": {"who"},
    "unearth": None,
    "restart_game": {"return_exiled"},
    "animate": {"what", "types", "subtypes", "power", "toughness", "keywords"},
    "add_counter": {"kind", "to", "amount"},
    "exchange_life": {"players"},  # two players exchange life totals (810.9e)
    "redistribute_life": None,  # the controller redistributes players' life totals (810.9f)
    "sacrifice_unless_pay_life": {"amount", "what"},  # each controller pays or sacrifices (810.9b)
}

STATICS = {
    "control",  # layer 2: "You control enchanted creature"
    "cant_attack",
    "cant_block",
    "pump",  # layer 7c
    "grant",  # layer 6
    "coat_of_arms",  # layer 7c, counts creatures it can see (801.11)
    "cant_lose",
    "cant_win",
    "no_loss_at_zero_life",
    "prevent_damage_by",  # 615, 801.13b: prevents damage dealt by such sources
    "cant_gain_life",  # "you can't gain life" (810.9g: nobody on your team can)
    "cant_lose_life",  # "you can't lose life" nor pay any but 0 (810.9h: your whole team)
}

TRIGGERS = {
    "your_upkeep",
    "nontoken_creature_enters",
    "deals_damage_to_opponent",
    "you_lose_life",
    "life_at_least",  # state trigger (603.8)
    "another_creature_leaves",  # leaves-the-battlefield: looks back in time (603.10a, 801.7a)
    "enters",  # this permanent enters the battlefield
    "defeated",  # the last defense counter was removed from this battle (310.11)
    "enchanted_becomes_blocked",  # 509.3c
    "any_player_gains_life",
    "any_player_loses_life",
    "enchanted_blocked_by_creature",  # 509.3d: once per blocking creature
    "last_counter_removed",
}
CONDITIONS = {"self_untapped", "life_at_least"}

RECORD_FIELDS = {
    "cost",
    "types",
    "subtypes",
    "supertypes",
    "colors",
    "power",
    "toughness",
    "loyalty",
    "keywords",
    "text",
    "spell",
    "abilities",
    "static",
    "triggers",
    "enchant",
    "equip",
    "enters_with",
    "defense",
    "unearth",
}

_COST_SYM = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True)
class ManaCost:
    generic: int = 0
    colored: tuple[int, ...] = (0, 0, 0, 0, 0, 0)  # W U B R G C
    x: bool = False

    @property
    def mana_value(self) -> int:
        return self.generic + sum(self.colored)

    def is_free(self) -> bool:
        return self.mana_value == 0 and not self.x


def parse_mana(text: str | None, where: str) -> ManaCost:
    if not text:
        return ManaCost()
    if not isinstance(text, str) or _COST_SYM.sub("", text).strip():
        raise CardError(f"{where}: mana cost {text!r} is not of the form '{{2}}{{R}}'")
    generic, colored, x = 0, [0] * 6, False
    for sym in _COST_SYM.findall(text):
        if sym.isdigit():
            generic += int(sym)
        elif sym == "X":
            x = True
        elif sym in COLOR_INDEX:
            colored[COLOR_INDEX[sym]] += 1
        else:
            raise CardError(f"{where}: unknown mana symbol {{{sym}}}")
    return ManaCost(generic, tuple(colored), x)


@dataclass(frozen=True)
class Ability:
    """An activated ability, a triggered ability, or a spell's own text."""

    effects: tuple[tuple[str, Any], ...] = ()
    targets: tuple[str, ...] = ()
    chosen_by: tuple[str | None, ...] = ()  # per target: None (the controller) or "opponent"
    cost: ManaCost = ManaCost()
    tap: bool = False
    loyalty: int | None = None
    sorcery: bool = False
    mana: str | None = None  # mana ability: the colour it adds
    when: str | None = None  # triggers only
    modes: tuple[tuple[tuple[str, Any], ...], ...] = ()  # modal spells (700.2)
    mode_chooser: str | None = None  # None (the controller) or "opponent" (801.5b)
    condition: Any = None  # intervening "if" (603.4)
    amount: int | None = None  # state-trigger threshold
    equip: bool = False
    life_cost: str | int | None = None  # "half" (rounded up) or a number of life (119.4)
    zone: str = "battlefield"  # where the object is when this ability can be activated


@dataclass
class CardDef:
    index: int
    name: str
    cost: ManaCost
    types: int
    supertypes: int
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    power: int
    toughness: int
    loyalty: int
    keywords: int
    defense: int = 0
    text: str = ""
    spell: Ability | None = None
    abilities: tuple[Ability, ...] = ()
    static: tuple[tuple[str, Any], ...] = ()
    triggers: tuple[Ability, ...] = ()
    enchant: str | None = None
    enters_with: dict[str, int] = field(default_factory=dict)
    token: bool = False

    def has_type(self, name: str) -> bool:
        return bool(self.types & TYPE_BITS[name])

    @property
    def is_aura(self) -> bool:
        return "Aura" in self.subtypes

    @property
    def is_equipment(self) -> bool:
        return "Equipment" in self.subtypes


def _check_keys(rec: dict, allowed: set[str], where: str) -> None:
    if not isinstance(rec, dict):
        raise CardError(f"{where}: expected a mapping, got {rec!r}")
    for k in rec:
        if k not in allowed:
            raise CardError(f"{where}: unknown field {k!r} (expected one of {sorted(allowed)})")


def _effects(raw: Any, where: str) -> tuple[tuple[str, Any], ...]:
    if not isinstance(raw, list):
        raise CardError(f"{where}: effects must be a list")
    out = []
    for i, e in enumerate(raw):
        w = f"{where}[{i}]"
        if not isinstance(e, dict) or len(e) != 1:
            raise CardError(f"{w}: each effect is a one-key mapping, got {e!r}")
        ((name, arg),) = e.items()
        if name not in EFFECTS:
            raise CardError(f"{w}: unknown effect {name!r} (known: {sorted(EFFECTS)})")
        allowed = EFFECTS[name]
        if allowed is not None:
            _check_keys(arg, allowed, f"{w}.{name}")
            if "keywords" in arg:
                for k in arg["keywords"]:
                    if k not in KW:
                        raise CardError(f"{w}.{name}: unknown keyword {k!r}")
        out.append((name, arg))
    return tuple(out)


def _targets(raw: Any, where: str) -> tuple[str, ...]:
    return tuple(k for k, _ in _target_specs(raw, where))


def _chosen_by(raw: Any, where: str) -> tuple[str | None, ...]:
    return tuple(c for _, c in _target_specs(raw, where))


def _target_specs(raw: Any, where: str) -> list[tuple[str, str | None]]:
    """A target is a kind, or {kind: K, chosen_by: opponent} (an opponent picks it, 801.5a)."""
    out = []
    for t in raw or []:
        chooser = None
        if isinstance(t, dict):
            _check_keys(t, {"kind", "chosen_by"}, where)
            chooser = t.get("chosen_by")
            if chooser not in (None, "opponent"):
                raise CardError(f"{where}: chosen_by must be 'opponent', got {chooser!r}")
            t = t.get("kind")
        if t not in TARGET_KINDS:
            raise CardError(f"{where}: unknown target kind {t!r} (known: {sorted(TARGET_KINDS)})")
        out.append((t, chooser))
    return out


def _ability(raw: dict, where: str) -> Ability:
    _check_keys(raw, {"cost", "targets", "effects", "sorcery"}, where)
    cost = raw.get("cost", "")
    tap, loyalty, mana_cost, life_cost = False, None, ManaCost(), None
    if isinstance(cost, dict):
        _check_keys(cost, {"loyalty", "tap", "mana", "life"}, f"{where}.cost")
        loyalty = cost.get("loyalty")
        life_cost = cost.get("life")
        if life_cost is not None and life_cost != "half" and not isinstance(life_cost, int):
            raise CardError(f"{where}.cost.life: expected a number or 'half'")
        tap = bool(cost.get("tap", False))
        mana_cost = parse_mana(cost.get("mana"), f"{where}.cost")
    else:
        if "{T}" in cost:
            tap = True
            cost = cost.replace("{T}", "")
        mana_cost = parse_mana(cost, f"{where}.cost")
    return Ability(
        effects=_effects(raw.get("effects", []), f"{where}.effects"),
        targets=_targets(raw.get("targets"), f"{where}.targets"),
        chosen_by=_chosen_by(raw.get("targets"), f"{where}.targets"),
        cost=mana_cost,
        tap=tap,
        loyalty=loyalty,
        sorcery=bool(raw.get("sorcery", False)) or loyalty is not None,
        life_cost=life_cost,
    )


def compile_card(index: int, name: str, rec: dict, token: bool = False) -> CardDef:
    where = f"card {name!r}"
    _check_keys(rec, RECORD_FIELDS, where)
    types = 0
    for t in rec.get("types", []):
        if t not in TYPE_BITS:
            raise CardError(f"{where}.types: unknown card type {t!r}")
        types |= TYPE_BITS[t]
    if not types:
        raise CardError(f"{where}.types: a card needs at least one card type")
    supertypes = 0
    for t in rec.get("supertypes", []):
        if t not in SUPERTYPE_BITS:
            raise CardError(f"{where}.supertypes: unknown supertype {t!r}")
        supertypes |= SUPERTYPE_BITS[t]
    kw = 0
    for k in rec.get("keywords", []):
        if k not in KW:
            raise CardError(f"{where}.keywords: unknown keyword {k!r}")
        kw |= KW[k]
    cost = parse_mana(rec.get("cost"), f"{where}.cost")
    colors = tuple(rec.get("colors") or [c for c in "WUBRG" if cost.colored[COLOR_INDEX[c]]])
    spell = None
    if "spell" in rec:
        sp = rec["spell"]
        _check_keys(sp, {"targets", "effects", "modes", "modes_chosen_by"}, f"{where}.spell")
        modes = tuple(
            _effects(m, f"{where}.spell.modes[{k}]") for k, m in enumerate(sp.get("modes") or [])
        )
        chooser = sp.get("modes_chosen_by")
        if chooser not in (None, "opponent"):
            raise CardError(f"{where}.spell.modes_chosen_by: expected 'opponent', got {chooser!r}")
        spell = Ability(
            effects=_effects(sp.get("effects", []), f"{where}.spell.effects"),
            targets=_targets(sp.get("targets"), f"{where}.spell.targets"),
            modes=modes,
            mode_chooser=chooser,
        )
    abilities = []
    subtypes = tuple(rec.get("subtypes", []))
    if types & TYPE_BITS["Land"]:
        from ecs.constants import BASIC_LAND_COLOR

        for st in subtypes:
            if st in BASIC_LAND_COLOR:  # 305.6: basic land types have intrinsic mana abilities
                abilities.append(Ability(tap=True, mana=BASIC_LAND_COLOR[st]))
    for i, a in enumerate(rec.get("abilities", []) or []):
        abilities.append(_ability(a, f"{where}.abilities[{i}]"))
    if "unearth" in rec:  # 702.84a: activated from the graveyard, sorcery speed
        abilities.append(
            Ability(
                cost=parse_mana(rec["unearth"], f"{where}.unearth"),
                effects=(("unearth", None),),
                sorcery=True,
                zone="graveyard",
            )
        )
    if "equip" in rec:  # 702.6a: Equip is an activated ability, sorcery speed
        abilities.append(
            Ability(
                cost=parse_mana(rec["equip"], f"{where}.equip"),
                targets=("creature_you_control",),
                sorcery=True,
                equip=True,
            )
        )
    static = []
    for i, s in enumerate(rec.get("static", []) or []):
        w = f"{where}.static[{i}]"
        if not isinstance(s, dict) or len(s) != 1 or next(iter(s)) not in STATICS:
            raise CardError(f"{w}: expected one of {sorted(STATICS)}, got {s!r}")
        static.append(next(iter(s.items())))
    triggers = []
    for i, t in enumerate(rec.get("triggers", []) or []):
        w = f"{where}.triggers[{i}]"
        _check_keys(t, {"when", "if", "targets", "effects", "amount"}, w)
        if t.get("when") not in TRIGGERS:
            raise CardError(f"{w}.when: unknown trigger event {t.get('when')!r}")
        cond = t.get("if")
        if cond is not None:
            ckey = cond if isinstance(cond, str) else next(iter(cond), None)
            if ckey not in CONDITIONS:
                raise CardError(f"{w}.if: unknown condition {cond!r}")
        triggers.append(
            Ability(
                effects=_effects(t.get("effects", []), f"{w}.effects"),
                targets=_targets(t.get("targets"), f"{w}.targets"),
                when=t["when"],
                condition=cond,
                amount=t.get("amount"),
            )
        )
    enchant = rec.get("enchant")
    if enchant is not None and enchant not in ("creature", "permanent", "land", "player"):
        raise CardError(f"{where}.enchant: unknown enchant restriction {enchant!r}")
    if enchant is not None and spell is None:  # 303.4a: an Aura spell targets what it can enchant
        spell = Ability(targets=(enchant,))
    ew = rec.get("enters_with") or {}
    for k in ew:
        from ecs.constants import COUNTER_INDEX

        if k not in COUNTER_INDEX:
            raise CardError(f"{where}.enters_with: unknown counter kind {k!r}")
    return CardDef(
        index=index,
        name=name,
        cost=cost,
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        colors=colors,
        power=int(rec.get("power", 0) or 0),
        toughness=int(rec.get("toughness", 0) or 0),
        loyalty=int(rec.get("loyalty", 0) or 0),
        defense=int(rec.get("defense", 0) or 0),
        keywords=kw,
        text=rec.get("text", ""),
        spell=spell,
        abilities=tuple(abilities),
        static=tuple(static),
        triggers=tuple(triggers),
        enchant=enchant,
        enters_with=dict(ew),
        token=token,
    )


# 804.2: with the deploy creatures option, each creature has
# "{T}: Target teammate gains control of this creature. Activate only as a sorcery."
DEPLOY = Ability(
    effects=(("give_control", {"what": "self", "to": "target.0"}),),
    targets=("teammate",),
    tap=True,
    sorcery=True,
)


def token_name(spec: dict) -> str:
    """Rule 111.4: a token's name is its subtypes followed by the word Token."""
    return " ".join(list(spec.get("subtypes", [])) + ["Token"])


class CardDB:
    """All card definitions, with their hot fields compiled to columns."""

    def __init__(self, records: dict[str, dict]):
        if not isinstance(records, dict):
            raise CardError("card file: expected a mapping of card name -> record")
        self.defs: list[CardDef] = []
        self.by_name: dict[str, int] = {}
        for name, rec in records.items():
            self._add(name, rec or {})
        # tokens named by create_token effects become definitions too
        for d in list(self.defs):
            for ab in (d.spell, *d.abilities, *d.triggers):
                for eff, arg in ab.effects if ab else ():
                    if eff == "create_token":
                        tname = token_name(arg)
                        if tname not in self.by_name:
                            rec = {k: v for k, v in arg.items() if k != "for"}
                            self._add(tname, rec, token=True)
        self._compile_columns()

    def _add(self, name: str, rec: dict, token: bool = False) -> None:
        d = compile_card(len(self.defs), name, rec, token=token)
        self.defs.append(d)
        self.by_name[name] = d.index

    def _compile_columns(self) -> None:
        n = len(self.defs)
        self.types = np.array([d.types for d in self.defs], dtype=np.int64)
        self.supertypes = np.array([d.supertypes for d in self.defs], dtype=np.int64)
        self.power = np.array([d.power for d in self.defs], dtype=np.int64)
        self.toughness = np.array([d.toughness for d in self.defs], dtype=np.int64)
        self.loyalty = np.array([d.loyalty for d in self.defs], dtype=np.int64)
        self.kw = np.array([d.keywords for d in self.defs], dtype=np.int64)
        self.mana_value = np.array([d.cost.mana_value for d in self.defs], dtype=np.int64)
        subtypes = sorted({s for d in self.defs for s in d.subtypes})
        self.subtype_bit = {s: 1 << i for i, s in enumerate(subtypes[:63])}
        self.subtypes = np.zeros(n, dtype=np.int64)
        for d in self.defs:
            for s in d.subtypes:
                self.subtypes[d.index] |= self.subtype_bit.get(s, 0)
        creature_types = {
            s
            for d in self.defs
            if d.types & TYPE_BITS["Creature"]
            for s in d.subtypes
            if s in self.subtype_bit
        }
        from ecs.constants import S_LEGENDARY, S_WORLD

        # cards the Python part of the state-based actions must look at (704.5j-n)
        self.special_sba = np.array(
            [
                d.is_aura
                or d.is_equipment
                or bool(d.supertypes & (S_LEGENDARY | S_WORLD))
                or bool(d.types & TYPE_BITS["Battle"])
                for d in self.defs
            ],
            dtype=np.bool_,
        )
        self.mana_color = np.array(
            [next((COLOR_INDEX[a.mana] for a in d.abilities if a.mana), -1) for d in self.defs],
            dtype=np.int64,
        )
        # mana value, then coloured symbols W U B R G C (for the priority pre-check kernel)
        self.cost_table = np.array(
            [(d.cost.mana_value, *d.cost.colored) for d in self.defs], dtype=np.int64
        ).reshape(n, 7)
        self.is_instant = (self.types & TYPE_BITS["Instant"]) != 0
        self.has_ability = np.array(
            [any(not a.mana for a in d.abilities) for d in self.defs], dtype=np.bool_
        )
        self.graveyard_ability = np.array(
            [any(a.zone == "graveyard" for a in d.abilities) for d in self.defs], dtype=np.bool_
        )
        self.has_instant_ability = np.array(
            [any(not a.mana and not a.sorcery for a in d.abilities) for d in self.defs],
            dtype=np.bool_,
        )
        self.creature_type_mask = sum(self.subtype_bit[s] for s in creature_types)

    def index(self, name: str, where: str = "") -> int:
        try:
            return self.by_name[name]
        except KeyError:
            raise CardError(f"{where}unknown card {name!r}") from None

    def __getitem__(self, i: int) -> CardDef:
        return self.defs[i]

    def __contains__(self, name: str) -> bool:
        return name in self.by_name


_DEFAULT: CardDB | None = None


def load_cards(path: str | Path | None = None) -> CardDB:
    """Load a card file (default: the bundled pool). The bundled pool is cached."""
    global _DEFAULT
    if path is None and _DEFAULT is not None:
        return _DEFAULT
    p = Path(path) if path else DATA / "cards.yaml"
    try:
        records = yaml.safe_load(p.read_text())
    except yaml.YAMLError as e:
        raise CardError(f"{p}: malformed YAML: {e}") from None
    db = CardDB(records)
    if path is None:
        _DEFAULT = db
    return db
