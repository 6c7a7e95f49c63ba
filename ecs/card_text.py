"""Rules text rendered from a card record: what the engine will do, in words.

The text is generated from the same record the engine compiles, so it can't say one
thing while the engine does another. It reads like rules text without copying any
card's printed wording: the card refers to itself by name, targets are named where a
step acts on them ("Destroy target creature."), amounts are spelled out ("the number
of Goblins you control"). Every word of the vocabulary renders (``render`` never
fails on a record the compiler accepts; a word it doesn't know shows as itself)."""

from __future__ import annotations

import re
from typing import Any

NUMBERS = {
    0: "zero", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten",
}  # fmt: skip
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
IRREGULAR = {
    "Elf": "Elves", "Wolf": "Wolves", "Dwarf": "Dwarves", "sorcery": "sorceries",
    "Sorcery": "Sorceries", "Ally": "Allies", "Fungus": "Fungi", "Mouse": "Mice",
    "Octopus": "Octopuses", "Homunculus": "Homunculi", "Sphinx": "Sphinxes",
    "Fox": "Foxes", "Phoenix": "Phoenixes", "Werewolf": "Werewolves", "Ox": "Oxen",
}  # fmt: skip
STEPS = {
    "upkeep": "upkeep", "draw": "draw step", "precombat_main": "precombat main phase",
    "combat": "combat", "beginning_of_combat": "combat", "end": "end step",
    "end_step": "end step", "postcombat_main": "postcombat main phase",
}  # fmt: skip


def _list(v: Any) -> list:
    if v is None:
        return []
    return list(v) if isinstance(v, (list, tuple)) else [v]


CURRENT = {"name": ""}  # the card being rendered (its name keeps its capitals)
TOKENS: dict[str, dict] = {}  # token records by name (CardDB.text fills it), to describe them


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def _low(s: str) -> str:
    if not s or (CURRENT["name"] and s.startswith(CURRENT["name"])):
        return s
    return s[:1].lower() + s[1:]


def _num(n: Any) -> str:
    if isinstance(n, bool):
        return str(n)
    return NUMBERS.get(n, str(n)) if isinstance(n, int) else str(n)


def _plural_word(w: str) -> str:
    if w in IRREGULAR:
        return IRREGULAR[w]
    if w.endswith(("s", "x", "ch", "sh")):
        return w + "es"
    if w.endswith("y") and w[-2:-1] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"


def _join(items: list[str], word: str = "and") -> str:
    items = [x for x in items if x]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return f"{items[0]} {word} {items[1]}"
    return ", ".join(items[:-1]) + f", {word} " + items[-1]


def _mana(s: Any) -> str:
    return str(s).upper() if isinstance(s, str) else str(s)


# ----------------------------------------------------------------- the card
def render(name: str, rec: dict, tokens: dict[str, dict] | None = None) -> str:
    """The whole card: type line, cost, numbers and each ability on its own line
    (``tokens``: the token records it may create, by name, to describe them)."""
    if tokens is not None:
        TOKENS.clear()
        TOKENS.update(tokens)
    ctx = Ctx(name)
    saved = CURRENT["name"]
    CURRENT["name"] = name
    try:
        return _render(ctx, name, rec)
    finally:
        CURRENT["name"] = saved


def _render(ctx: Ctx, name: str, rec: dict) -> str:
    if isinstance(rec.get("back"), dict) and rec["back"].get("name"):
        ctx.back = rec["back"]["name"]
    lines = [_header(name, rec)]
    lines += _conspiracy_lines(rec)
    kws = [_keyword(k) for k in _list(rec.get("keywords"))]
    if kws:
        lines.append(_cap(", ".join(kws)))
    if "conspire" in kws:
        lines[-1] += " " + CONSPIRE_REMINDER.format(it="this spell")
    if "enchant" in rec:
        lines.append(f"Enchant {_filter(rec['enchant'])}")
    for item in _list(rec.get("abilities")):
        if not isinstance(item, dict) or len(item) != 1:
            lines.append(str(item))
            continue
        ((kind, body),) = item.items()
        lines.append(_ability(ctx, kind, body).replace("{self}", name))
    if isinstance(rec.get("back"), dict):
        back = rec["back"]
        lines.append("// Back face: " + render(back.get("name", name + " (back)"), back))
    return "\n".join(x for x in lines if x)


class Ctx:
    """What a step's words refer to: the card's name and the current targets."""

    def __init__(self, name: str):
        self.name = name
        self.targets: list[str] = []
        self.specs: list[Any] = []  # the target specs as written
        self.mentioned: set[int] = set()
        self.event_object = "that creature"  # what a trigger's event.object is called
        self.back = "its back face"  # the back face's name (a meld card's melded permanent)


def _header(name: str, rec: dict) -> str:
    types = " ".join(_list(rec.get("supertypes")) + _list(rec.get("types")))
    subs = _list(rec.get("subtypes"))
    line = f"{name} {_mana(rec.get('cost', ''))}".rstrip() + f" — {types or 'Token'}"
    if subs:
        line += " — " + " ".join(str(s) for s in subs)
    if "power" in rec or "toughness" in rec:
        line += f" {rec.get('power', 0)}/{rec.get('toughness', 0)}"
    if "loyalty" in rec:
        line += f" (loyalty {rec['loyalty']})"
    if "defense" in rec:
        line += f" (defense {rec['defense']})"
    if "hand" in rec or "life" in rec:  # 902.4-902.5: a vanguard's modifiers
        line += f" (hand {int(rec.get('hand', 0)):+d}, life {int(rec.get('life', 0)):+d})"
    if "colors" in rec:
        cols = [COLORS.get(c, str(c)) for c in _list(rec["colors"])]
        line += f" [{_join(cols) or 'colourless'}]"
    if rec.get("can_be_commander"):
        line += " (can be your commander)"
    if rec.get("commander_color_choice"):  # 903.4b: chosen before the game
        line += (
            " (if this is your commander, choose a colour before the game begins;"
            " it is the chosen colour)"
        )
    if rec.get("not_real"):
        line += " [not a real card]"
    if rec.get("token"):
        line += " [token]"
    return line


CONSPIRE_REMINDER = (
    "(As you cast {it}, you may tap two untapped creatures you control that share a color "
    "with it. When you do, copy it and you may choose new targets for the copy.)"
)  # 702.78a


def _keyword(k: Any) -> str:
    if isinstance(k, str):
        return k
    if not isinstance(k, dict) or len(k) != 1:
        return str(k)
    ((name, arg),) = k.items()
    if name == "protection":
        return "protection from " + _join([COLORS.get(c, str(c)) for c in _list(arg)])
    if name == "ward" and isinstance(arg, dict):
        return f"ward—pay {arg.get('life')} life"
    if name == "partner_with":
        return f"partner with {arg}"
    if arg == "mana_cost":  # (its cost follows: "equal to the card's mana cost")
        return name
    return f"{name} {_mana(arg)}"


def _ability(ctx: Ctx, kind: str, body: Any) -> str:
    if not isinstance(body, dict):
        return f"{kind}: {body}"
    if kind == "static":
        return _static(ctx, body)
    if kind == "granted" and isinstance(body.get("ability"), dict):  # Conspiracy: "... have '...'"
        ((k, b),) = body["ability"].items()
        to = body.get("to")
        noun = "creature" if isinstance(to, dict) and to.get("type") == "Creature" else "permanent"
        inner = _ability(Ctx(f"this {noun}"), k, b)
        cond = f"As long as {_cond(ctx, body['if'])}, " if "if" in body else ""
        return _cap(f'{cond}{_filter(body["to"], plural=True)} have "{inner}"')
    if kind == "enters" and body.get("day_if_neither"):  # 728 (Sunstreak Phoenix)
        return f"If it's neither day nor night, it becomes day as {ctx.name} enters."
    if kind == "enters":
        return _enters(ctx, body)
    if kind == "activated" and body.get("granted_to"):  # an Aura's: "enchanted creature has"
        inner = _ability(ctx, kind, {k: v for k, v in body.items() if k != "granted_to"})
        return f'{_cap(str(body["granted_to"]))} creature has "{inner}"'
    if kind == "mana":
        return f"{_cost(ctx, body.get('cost'))}: Add {_add(body.get('add'))}."
    if kind == "triggered" and isinstance(body.get("when"), dict):
        ctx.event_object = _event_object(body["when"])
    text = _body(ctx, body)
    if kind == "spell":
        return text
    if kind == "activated":
        t = f"{_cost(ctx, body.get('cost'))}: {text}"
        extra = []
        if body.get("timing") == "sorcery":
            extra.append("Activate only as a sorcery.")
        if body.get("timing") == "your_turn":
            extra.append("Activate only during your turn.")
        if body.get("once_per_turn"):
            extra.append("Activate only once each turn.")
        if "if" in body:
            extra.append(f"Activate only if {_cond(ctx, body['if'])}.")
        if body.get("zone") and body["zone"] != "battlefield":
            extra.append(f"(It works while this card is in your {body['zone']}.)")
        return " ".join([t, *extra])
    if kind == "loyalty":
        n = body.get("amount", 0)
        return f"{'+' if isinstance(n, int) and n > 0 else ''}{n}: {text}"
    if kind == "triggered":
        when = body.get("when") if isinstance(body.get("when"), dict) else {}
        head = _when(ctx, when)
        if "if" in body:
            head += f", if {_cond(ctx, body['if'])}"
        inner = _low(text) if text else ""
        if body.get("optional"):
            m = re.match(re.escape(ctx.name) + r" deals ", text)
            if m:
                inner = f"you may have {ctx.name} deal " + text[m.end() :]
            elif text.startswith("Choose "):
                inner = "you may " + _low(text)
            else:
                inner = "you may " + _low(re.sub(r"^[Yy]ou may ", "", text))
        t = f"{head}, {inner}"
        if body.get("once_per_turn"):
            t += " This ability triggers only once each turn."
        if body.get("zone") == "graveyard":
            t += " (It works while this card is in your graveyard.)"
        if body.get("zone") == "command":
            t += f" (This works while {ctx.name} is in the command zone.)"
        return t
    return text


def _body(ctx: Ctx, body: dict) -> str:
    """A spell's or ability's targets and effects, or its modes."""
    if "modes" in body:
        n = body.get("choose", 1)
        who = "An opponent chooses" if body.get("chosen_by") == "opponent" else "Choose"
        count = "one or more" if n == "one_or_more" else _num(n)
        modes = []
        for m in _list(body["modes"]):
            if isinstance(m, list):
                m = {"effects": m}
            if isinstance(m, dict):
                modes.append(_body(ctx, m).rstrip("."))
        return f"{who} {count} — " + "; or ".join(modes) + "."
    ctx.specs = _list(body.get("targets"))
    ctx.targets = _target_names(ctx.specs)
    ctx.mentioned = set()
    out = [_step(ctx, s) for s in _list(body.get("effects"))]
    text = " ".join(s for s in out if s)
    unmentioned = [t for k, t in enumerate(ctx.targets) if k not in ctx.mentioned]
    if unmentioned:
        text = f"Choose {_join(unmentioned)}. " + text
    if body.get("opponent_chooses") or body.get("chosen_by") == "opponent":
        text = "You name an opponent, who makes its choices. " + text
    return text


def _target_names(targets: list) -> list[str]:
    names = []
    for spec in targets:
        count, up_to, extra = 1, False, ""
        if isinstance(spec, dict) and set(spec) & {"filter", "count", "up_to", "chosen_by",
                                                   "different", "one_per_player",
                                                   "at_random", "divide"}:  # fmt: skip
            count = spec.get("count", 1)
            up_to = bool(spec.get("up_to"))
            if spec.get("chosen_by") == "opponent":
                extra = " of an opponent's choice"
            elif spec.get("chosen_by") == "event.controller":
                extra = " of their choice"
            if spec.get("different"):
                extra += " (another one)"
            if spec.get("at_random"):
                extra += " chosen at random"
            if "divide" in spec:  # (601.2d: the effect says what is divided, and who does)
                noun, _, rest = _filter(spec.get("filter", {})).partition(" ")
                names.append(f"any number of target {_plural_word(noun)} {rest}".rstrip())
                continue
            if spec.get("one_per_player"):  # "for each opponent, up to one target ..."
                fl = spec.get("filter", {})
                own = fl.get("owner", "player") if isinstance(fl, dict) else "player"
                who = {"opponent": "opponent", "not_you": "other player"}.get(own, "player")
                text = _filter({**fl, "owner": "any"} if isinstance(fl, dict) else fl)
                text = text.replace(" in a ", " from that player's ")
                names.append(f"for each {who}, up to one target {text}")
                continue
            spec = spec.get("filter", {k: v for k, v in spec.items() if k not in (
                "count", "up_to", "chosen_by", "different", "at_random")})  # fmt: skip
            if spec == {}:
                spec = "permanent"
        if spec in ("any", "any_target"):
            names.append(("any target" if count == 1 else f"{'up to ' if up_to else ''}"
                          f"{_num(count)} targets") + extra)  # fmt: skip
            continue
        f = _filter(spec, plural=count > 1)
        another = ""
        if f.startswith(("another ", "other ")):
            another, f = "another ", f.split(" ", 1)[1]
        if count > 1 or up_to:
            names.append(f"{'up to ' if up_to else ''}{_num(count)} {'other ' if another else ''}"
                         f"target {f}{extra}")  # fmt: skip
        else:
            names.append(f"{another}target {f}{extra}")
    return names


# ----------------------------------------------------------------- filters
FILTER_WORDS = {
    "creature": {"type": "Creature"}, "player": {"what": "players"},
    "opponent": {"what": "players", "player": "opponent"},
    "teammate": {"what": "players", "player": "teammate"}, "permanent": {},
    "nonland_permanent": {"not_type": "Land"}, "artifact": {"type": "Artifact"},
    "enchantment": {"type": "Enchantment"}, "land": {"type": "Land"},
    "basic_land": {"type": "Land", "supertype": "Basic"},
    "planeswalker": {"type": "Planeswalker"}, "battle": {"type": "Battle"},
    "creature_or_planeswalker": {"type": ["Creature", "Planeswalker"]},
    "artifact_or_enchantment": {"type": ["Artifact", "Enchantment"]},
    "spell": {"zone": "stack"}, "instant_or_sorcery": {"zone": "stack", "type": ["Instant", "Sorcery"]},
    "card": {"zone": "any"}, "creature_you_control": {"type": "Creature", "controller": "you"},
    "creatures_you_control": {"type": "Creature", "controller": "you"},
    "each_creature": {"type": "Creature"},
}  # fmt: skip
SPECIAL_FILTERS = {
    "any": "creature, player, planeswalker or battle",
    "player_or_planeswalker": "player or planeswalker",
}


def _filter(f: Any, plural: bool = False) -> str:
    """A noun phrase for a filter: "nonland permanent an opponent controls", "Goblin
    creature cards in your graveyard" (plural)."""
    if isinstance(f, str):
        if f in SPECIAL_FILTERS:
            return SPECIAL_FILTERS[f] + ("s" if plural and not f == "any" else "")
        if f not in FILTER_WORDS:
            return f.replace("_", " ")
        f = FILTER_WORDS[f]
    if not isinstance(f, dict):
        return str(f)
    if "any_of" in f:
        rest = {k: v for k, v in f.items() if k != "any_of"}
        alts = []
        for alt in _list(f["any_of"]):
            alt = FILTER_WORDS.get(alt, alt) if isinstance(alt, str) else alt
            alts.append(_filter({**rest, **alt} if isinstance(alt, dict) else alt, plural))
        return _join(alts, "or")
    what = f.get("what", "players" if "player" in f else "objects")
    if what == "players":
        rel = f.get("player", "any")
        if rel == "chosen_player":  # (a lasting effect's: the player chosen or targeted)
            return "that player"
        noun = {"opponent": "opponent", "teammate": "teammate", "you": "you"}.get(rel, "player")
        if "not_player" in f:  # "players other than you and the chosen player"
            but = _player_ref(f["not_player"])
            but = f"you and {but}" if rel == "not_you" else but
            return f"{_plural_word(noun) if plural else noun} other than {but}"
        return _plural_word(noun) if plural and noun != "you" else noun
    pre: list[str] = []
    if f.get("another"):
        pre.append("other" if plural else "another")
    if f.get("tapped") is True:
        pre.append("tapped")
    if f.get("tapped") is False:
        pre.append("untapped")
    if f.get("attacking") is True:
        pre.append("attacking")
    if f.get("attacking") == "or_blocking":
        pre.append("attacking or blocking")
    if f.get("attacking") is False:
        pre.append("nonattacking")
    if f.get("token") is False:
        pre.append("nontoken")
    if f.get("face_down") is True:
        pre.append("face-down")
    if f.get("suspended") is True:
        pre.append("suspended")
    if "color" in f:
        pre.append(_join([COLORS.get(c, str(c)) for c in _list(f["color"])], "or"))
    if "not_color" in f:
        pre.append("non" + "/non".join(COLORS.get(c, str(c)) for c in _list(f["not_color"])))
    if f.get("colorless"):
        pre.append("colorless")
    if f.get("multicolored"):
        pre.append("multicolored")
    if "supertype" in f:
        pre.append(" or ".join(str(s) for s in _list(f["supertype"])).lower())
    if "not_supertype" in f:
        pre.append("non" + "/non".join(str(s).lower() for s in _list(f["not_supertype"])))
    if "not_type" in f:
        pre.append("non" + "/non".join(str(t).lower() for t in _list(f["not_type"])))
    if "not_subtype" in f:
        pre.append("non-" + "/".join(str(t) for t in _list(f["not_subtype"])))
    zone = f.get("zone", "battlefield")
    types = [str(t) for t in _list(f.get("type")) + _list(f.get("type_all"))]
    every = [str(t).lower() for t in _list(f.get("type_all"))]  # ("artifact creature")
    subs = [str(s) for s in _list(f.get("subtype"))]
    head = "permanent"
    if zone == "stack":
        head = "spell"
    elif zone != "battlefield":
        head = "card"
    tnames = [str(t).lower() for t in _list(f.get("type"))]
    if set(tnames) == PERMANENT_TYPES:  # every permanent type: a permanent card
        tnames = ["permanent"]
    if every:
        tnames = [" ".join(every + ([" or ".join(tnames)] if tnames else []))]
    if subs:
        if types:
            noun = _join(subs, "or") + " " + " or ".join(tnames)
        else:
            noun = _join(subs, "or")
        if head != "permanent":
            noun += " " + head
    elif types:
        noun = _join(tnames, "or")
        if head != "permanent":
            noun += " " + head
    else:
        noun = head
    if f.get("token") is True:
        noun += " token"
    if plural:
        noun = _pluralize_phrase(noun)
    post: list[str] = []
    kws = [k for k in _list(f.get("keyword")) if isinstance(k, str)]
    if kws:
        post.append("with " + _join(kws))
    if f.get("put_onto_battlefield_by") == "self":
        post.append("put onto the battlefield with {self}")
    nkws = [k for k in _list(f.get("not_keyword")) if isinstance(k, str)]
    if nkws:
        post.append("without " + _join(nkws, "or"))
    if "without_counter" in f:
        post.append(
            f"without {_article(str(f['without_counter']))} counter on {'them' if plural else 'it'}"
        )
    for key, word in (("power", "power"), ("toughness", "toughness"), ("mv", "mana value")):
        if isinstance(f.get(key), dict) and len(f[key]) == 1:
            ((op, n),) = f[key].items()
            n = _amount(n)
            post.append({"le": f"with {word} {n} or less", "ge": f"with {word} {n} or greater",
                         "eq": f"with {word} {n}"}.get(op, f"with {word} {op} {n}"))  # fmt: skip
    if "name" in f:
        post.append(f"named {f['name']}")
    if f.get("attacked_this_turn"):
        post.append("that attacked this turn")
    if f.get("single_target"):
        post.append("with a single target")
    if f.get("enchanted") is False:
        post.append("that isn't enchanted" if not plural else "that aren't enchanted")
    elif f.get("enchanted") is True:
        post.append("that's enchanted" if not plural else "that are enchanted")
    if "shares_type_with" in f:
        post.append("that shares a card type with the first")
    if "same_name_as" in f:
        v = f["same_name_as"]
        post.append("with the same name as " + ("that creature" if str(v).startswith("target")
                                                else _ref_text(v)))  # fmt: skip
    if f.get("commander"):  # ("commander creatures you own": a Background's, 702.124)
        if plural:
            pre.append("commander")
        else:
            post.append("that is a commander")
    if f.get("named") is True:
        post.append("with the chosen name")
    elif f.get("named") == "other":
        post.append("with the other chosen name")
    for key, what in (("noted_name", "a name"), ("noted_type", "a creature type"),
                      ("noted_color", "a colour")):  # fmt: skip
        if key in f:
            post.append(f"with {what} you noted for cards named {f[key]}")
    ctl = f.get("controller")
    own = f.get("owner")
    verb = "control" if plural else "controls"
    if "not_controller" in f:  # "creatures neither you nor the chosen player control"
        who = _player_ref(f["not_controller"])
        post.append(
            f"neither you nor {who} control{'s' if not plural else ''}"
            if ctl == "not_you"
            else f"{who} doesn't control"
        )
    elif ctl == "you":
        post.append("you control")
    elif ctl in ("opponent", "opponents"):
        post.append("your opponents control" if plural else "an opponent controls")
    elif ctl == "not_you":
        post.append("you don't control")
    elif ctl == "teammate":
        post.append("your teammates control" if plural else "a teammate controls")
    elif ctl not in (None, "any", "each"):
        post.append(f"{_player_ref(ctl)} {verb}")
    if zone not in ("battlefield", "stack", "any"):
        whose = {"you": "your", "opponent": "an opponent's", "not_you": "another player's",
                 "teammate": "a teammate's"}.get(own, "a")  # fmt: skip
        if own not in (None, "any", "you", "opponent", "not_you", "teammate"):
            whose = _possessive(_player_ref(own))
        prep = "from" if zone in ("hand",) else "in"
        post.append(f"{prep} {whose} {zone}")
    elif own == "you":
        post.append("you own")
    elif own in ("opponent", "not_you"):
        post.append("an opponent owns")
    if f.get("dealt_combat_damage_to_player"):  # (Glen Elendra)
        post.append("that dealt combat damage to a player this combat")
    return " ".join(pre + [noun] + post)


def _player_ref(v: Any) -> str:
    """A player a filter names by reference ("each creature target player controls")."""
    if isinstance(v, str) and (v == "target" or v.startswith("target.")):
        return "that player"
    if isinstance(v, dict) and "player_damaged_by" in v:  # (Glen Elendra)
        return "that player"
    return _ref_text(v)


PERMANENT_TYPES = {"artifact", "creature", "enchantment", "land", "planeswalker", "battle"}


def _pluralize_phrase(noun: str) -> str:
    """Plural of a noun phrase ("Goblin or Elf creature card" -> "... cards")."""
    words = noun.split(" ")
    if words[-1] in ("token",) and len(words) > 1:
        return noun + "s"
    if len(words) >= 3 and words[-2] == "or":  # "artifact or enchantment" -> "...s"
        return " ".join(words[:-3] + [_plural_word(words[-3]), "or", _plural_word(words[-1])])
    words[-1] = _plural_word(words[-1])
    return " ".join(words)


def _possessive(s: str) -> str:
    if s == "you":
        return "your"
    if s == "it":
        return "its"
    return s + "'s" if not s.endswith("s") else s + "'"


# ----------------------------------------------------------------- references
SIMPLE_REFS = {
    "you": "you", "controller": "you", "self": "{self}", "it": "it",
    "chosen": "the chosen one", "enchanted": "enchanted creature",
    "equipped": "equipped creature", "attached": "the permanent it's attached to",
    "event.object": "that creature", "sacrificed": "the sacrificed creature",
    "event.player": "that player", "defending_player": "the defending player",
    "event.controller": "its controller", "event.source": "that source",
    "event.attacked": "the player or planeswalker it's attacking",
    "event.item": "that spell or ability", "active_player": "the active player",
    "player_to_your_left": "the player to your left",
    "player_to_your_right": "the player to your right", "chosen_player": "the chosen player",
    "each_player": "each player", "each_opponent": "each opponent",
    "each_other_player": "each other player", "each_teammate": "each teammate",
    "all_chosen": "the chosen cards", "creatures_you_control": "each creature you control",
    "each_creature": "each creature",
}  # fmt: skip


def _event_object(when: dict) -> str:
    """What a trigger's event.object is called: the card put into a graveyard or drawn,
    the spell cast, else the creature (or permanent) the event is about."""
    ev, what = when.get("event"), when.get("what")
    if ev in ("put_into_graveyard", "draws"):
        return "that card"
    if ev in ("cast", "becomes_target"):
        return "that spell" if ev == "cast" else "that creature"
    types = what.get("type") if isinstance(what, dict) else None
    if what in ("creature", None, "self") or types == "Creature" or types == ["Creature"]:
        return "that creature"
    return "that permanent"


def _ref_text(v: Any, ctx: Ctx | None = None) -> str:
    if isinstance(v, str):
        if v == "event.object" and ctx is not None:
            return ctx.event_object
        if v == "target" or re.fullmatch(r"target\.\d", v):
            k = 0 if v == "target" else int(v[-1])
            if ctx is not None and k < len(ctx.targets):
                if k in ctx.mentioned:
                    return _that(ctx.targets[k])
                ctx.mentioned.add(k)
                return ctx.targets[k]
            return "the target"
        text = SIMPLE_REFS.get(v, v.replace("_", " "))
        if ctx is not None:
            text = text.replace("{self}", ctx.name)
        return text.replace("{self}", "this")
    if isinstance(v, dict) and len(v) == 1:
        ((k, arg),) = v.items()
        if k == "each":
            return _each(arg)
        if k == "controller_of":
            return f"the controller of {_ref_text(arg, ctx)}"
        if k == "owner_of":
            return f"the owner of {_ref_text(arg, ctx)}"
    if isinstance(v, dict) and set(v) == {"each", "of"}:  # "... target player controls"
        who = _ref_text(v["of"], ctx)
        return f"{_each(v['each'])} {who} controls"
    if isinstance(v, dict) and "each" in v:
        return _each(v["each"])
    return str(v)


def _each(f: Any) -> str:
    return "each " + _filter(f).replace("another ", "other ", 1)


def _that(target_name: str) -> str:
    """A target named again: "target creature" -> "that creature"."""
    t = re.sub(r"^(up to \w+ )?(another |other )?target ", "", target_name)
    if target_name.startswith("any target"):
        return "it"
    if t.startswith(("player", "opponent")):
        return "that player"
    if target_name.startswith("for each ") and "up to one target " in target_name:
        return "those " + _pluralize_phrase(t.split("up to one target ")[-1].split(" card")[0])
    return "that " + t.split(" you ")[0].split(" an ")[0] if " " in t else "that " + t


def _who(ctx: Ctx, v: Any, default: str = "you") -> str:
    return _ref_text(v if v is not None else default, ctx)


def _verb(who: str, base: str, third: str | None = None) -> str:
    """ "Draw" (you: imperative) / "Each opponent draws" / "Target player draws"."""
    third = third or (base + "s" if not base.endswith(("s", "sh", "ch")) else base + "es")
    return _cap(base) if who == "you" else f"{_cap(who)} {third}"


def _n(ctx: Ctx, v: Any, noun: str, plural: str | None = None) -> tuple[str, str]:
    """An amount with its noun, and the note that explains X: (3, card) -> ("three cards",
    ""); X -> ("X cards", ""); a count -> ("X cards", ", where X is the number of ...")."""
    plural = plural or noun + "s"
    if isinstance(v, int) and not isinstance(v, bool):
        if v == 1:
            return _article(noun), ""
        return f"{_num(v)} {plural}", ""
    a = _amount(v, ctx)
    if a == "X":
        return f"X {plural}", ""
    if a == "that much":
        return f"that many {plural}", ""
    return f"X {plural}", f", where X is {a}"


def _x(ctx: Ctx, v: Any) -> tuple[str, str]:
    """An amount as a number: (3) -> ("3", ""); a count -> ("X", ", where X is ...")."""
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v), ""
    a = _amount(v, ctx)
    if a in ("X", "that much"):
        return a, ""
    return "X", f", where X is {a}"


# ----------------------------------------------------------------- amounts
def _amount(v: Any, ctx: Ctx | None = None) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if v == "X":
        return "X"
    if v == "event.amount":
        return "that much"
    if not isinstance(v, dict):
        return str(v)
    v = dict(v)
    times = v.pop("times", 1)
    plus = v.pop("plus", 0)
    on = v.pop("what", None)
    if len(v) != 1:
        return str(v)
    ((k, arg),) = v.items()
    if k == "count":
        base = f"the number of {_filter(arg, plural=True)}"
        f = FILTER_WORDS.get(arg, arg) if isinstance(arg, str) else arg
        if (
            isinstance(f, dict)
            and f.get("zone", "battlefield") == "battlefield"
            and not ({"controller", "owner", "what", "player"} & set(f))
        ):
            base += " on the battlefield"
    elif k == "total_power":
        base = f"the total power of {_filter(arg, plural=True)}"
    elif k in ("power", "toughness", "mana_value"):
        base = f"the {k.replace('_', ' ')} of {_ref_text(arg, ctx)}"
    elif k == "life":
        base = f"{_possessive(_ref_text(arg, ctx))} life total"
    elif k == "half_life":
        base = f"half {_possessive(_ref_text(arg, ctx))} life total, rounded up"
    elif k == "counters":
        base = f"the number of {arg} counters on {_ref_text(on or 'self', ctx)}"
    elif k == "cards_in_hand":
        base = f"the number of cards in {_possessive(_ref_text(arg, ctx))} hand"
    elif k == "event_amount":
        base = "that much"
    elif k == "power_exiled_this_way":
        base = "the total power of the creatures exiled this way"
    elif k == "mana_spent":
        base = "the amount of mana spent to cast it"
    elif k == "noted":
        base = f"the highest number you noted for cards named {arg}"
    elif k == "noted_count":
        base = f"the number of cards you removed from the draft with cards named {arg}"
    elif k == "chosen_number":
        base = "the chosen number"
    elif k == "creature_spells_cast":
        base = f"the number of creature spells {_ref_text(arg, ctx)} cast this turn"
    elif k == "mana_in_pool":
        base = f"the amount of {{{arg}}} in your mana pool"
    elif k in ("life_lost_this_way", "last_result", "moved_this_way"):
        base = (
            "the life lost this way" if k == "life_lost_this_way" else "the number moved this way"
        )
    elif k == "opponents_dealt_combat_damage":
        base = "the number of opponents dealt combat damage this turn"
    elif k == "opponent_spells_since_your_last_turn":
        base = "the number of spells your opponents cast since your last turn ended"
    elif k == "cards_put_into_graveyard_this_turn":
        base = (f"the number of cards put into {_possessive(_ref_text(arg, ctx))} graveyard "
                "from anywhere this turn")  # fmt: skip
    elif k == "chosen":
        base = "the number chosen"
    elif k in ("X", "x"):
        base = "X"
    elif k == "number":
        base = str(arg)
    else:
        base = k.replace("_", " ")
    if times == -1:
        base = f"minus {base}"
    elif times != 1:
        base = f"{_num(times)} times {base}"
    if plus:
        base += f" plus {plus}"
    return base


def _pt_amount(ctx: Ctx, v: Any) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}"
    a = _amount(v, ctx)
    if a == "X":
        return "+X"
    if a.startswith("minus "):
        return "-" + ("X" if a == "minus X" else f"({a[6:]})")
    return "+X"


# ----------------------------------------------------------------- steps
def _step(ctx: Ctx, step: Any) -> str:  # noqa: C901 (one branch per word)
    if not isinstance(step, dict) or len(step) != 1:
        return str(step)
    ((verb, a),) = step.items()
    args = a if isinstance(a, dict) else {}
    subj = {
        "damage": "to", "gain_life": "who", "lose_life": "who", "draw": "who", "discard": "who",
        "mill": "who", "destroy": "what", "exile": "what", "bounce": "what", "tap": "what",
        "untap": "what", "regenerate": "what", "transform": "what", "cant_regenerate": "what",
        "remove_from_combat": "what",
        "to_library": "what", "return": "what", "counter": "what", "pump": "what",
        "grant": "what", "set_base_pt": "what", "animate": "what", "gain_control": "what",
        "sacrifice": "who", "extra_turn": "who", "win_game": "who", "lose_game": "who",
        "win": "who", "lose": "who", "shuffle": "who", "double_life": "who",
        "counters": "what", "create_token": "token", "exile_if_leaves": "what",
    }.get(verb)  # fmt: skip
    if subj and not isinstance(a, dict):
        args = {subj: a}
    elif subj and isinstance(a, dict) and "each" in a and set(a) <= {"each", "of"}:
        args = {subj: a}

    def ref(key: str, default: str) -> str:
        return _who(ctx, args.get(key), default)

    amt = _amount(args.get("amount", 1))

    if verb == "damage":
        src = _ref_text(args["source"], ctx) if "source" in args else ctx.name
        dest = ref("to", "target")
        n, note = _x(ctx, args.get("amount", 0))
        t = f"{src} deals {n} damage to {dest}{note}."
        if args.get("unpreventable"):
            t += " That damage can't be prevented."
        return _cap(t)
    if verb in ("gain_life", "lose_life"):
        who = ref("who", "you")
        n, note = _x(ctx, args.get("amount", 1))
        return f"{_verb(who, verb.split('_')[0])} {n} life{note}."
    # 726-729 words
    if verb == "day_night":
        b = args.get("becomes", a)
        return ("If it's night, it becomes day. Otherwise, it becomes night." if b == "toggle"
                else f"It becomes {b}.")  # fmt: skip
    if verb == "subgame":
        return "Players play a Magic subgame, using their libraries as their decks."
    if verb == "meld":  # 701.42a
        return (f"Exile {ctx.name} and {_article(_filter(args.get('with', a)))}, then meld "
                f"them into {ctx.back}.")  # fmt: skip
    if verb == "wish":
        return (f"You may put {_article(_filter(args.get('filter', a)))} you own from "
                "outside the game into your hand.")  # fmt: skip
    if verb == "cast_without_paying":
        frm = args.get("from", a)
        play = "play" if args.get("lands") else "cast"
        if frm in ("event.object", "it", "target"):
            return f"You may {play} that card from exile without paying its mana cost."
        if frm == "library_top":
            return (f"Reveal the top card of your library. You may {play} it without paying "
                    "its mana cost.")  # fmt: skip
        if isinstance(frm, list):
            what = _article(_filter({**_dict(args.get("filter", "card")), "zone": "any"}))
            return (f"You may search your hand and/or library for {what} and {play} it without "
                    "paying its mana cost. If you searched your library, shuffle.")  # fmt: skip
        fl = _dict(frm.get("each", {})) if isinstance(frm, dict) else {}
        if fl.get("zone") == "hand" and fl.get("owner") == "opponent":
            rest = {k: v for k, v in fl.items() if k not in ("zone", "owner")}
            noun = _filter({**rest, "zone": "any"})
            return (f"Each opponent reveals their hand. You may {play} {_article(noun)} from "
                    "among them without paying its mana cost.")  # fmt: skip
        return f"You may {play} {_article(_filter(fl))} without paying its mana cost."
    if verb == "grant_ability":
        inner = args.get("ability", {}).get("activated", {})
        what = _cap(ref("what", "target"))
        text = _ability(Ctx("this creature"), "activated", inner)
        gains = "gain" if what.lower().startswith(("those", "creatures")) else "gains"
        return f'{what} {gains} "{text}" until end of turn.'
    if verb == "return_at_random":
        fl = _dict(args.get("filter", a))
        whose = {"you": "your", "opponent": "an opponent's"}.get(fl.get("owner", "you"), "a")
        zone = fl.get("zone", "graveyard")
        rest = {k: v for k, v in fl.items() if k not in ("zone", "owner")}
        noun = _filter({**rest, "zone": "any"})
        return f"Return {_article(noun)} at random from {whose} {zone} to your hand."
    if verb == "exile_until":
        to = {"hand": "into your hand", "battlefield": "onto the battlefield",
              "battlefield_or_hand": "onto the battlefield or into your hand"}.get(
              args.get("to", "hand"), "into your hand")  # fmt: skip
        return (f"Exile cards from the top of your library until you exile "
                f"{_article(_filter(args.get('filter', a)))}. Put that card {to}.")  # fmt: skip
    if verb == "lose_keywords":
        kws = _join([_keyword(k) for k in _list(args.get("keywords"))])
        return f"{_cap(ref('what', 'target'))} loses {kws} until end of turn."
    if verb == "must_attack":
        whom = ""
        if args.get("player") == "owner":
            whom = " its owner"
        elif "player" in args:
            whom = " " + _ref_text(args["player"], ctx)
        when = "each combat" if args.get("until") == "forever" else "this turn"
        subject = _cap(ref("what", "target"))
        if subject.startswith("Those "):
            return f"Each of {_low(subject)} attacks{whom} {when} if able."
        return f"{subject} attacks{whom} {when} if able."
    if verb == "merge":
        return f"{ctx.name} merges with {ref('what', 'target')}."
    if verb == "become_copy":  # 707.2
        tail = {"end_of_turn": " until end of turn", "forever": ""}.get(
            args.get("until", "end_of_turn"), f" until {args.get('until')}"
        )
        return f"{_cap(ref('what', 'target'))} becomes a copy of {ref('of', 'target')}{tail}."
    if verb == "copy_token":
        of = ref("of", "target") if "of" in args else ref("what", "target")
        tail = " tapped" if args.get("tapped") else ""
        if "attacking" in args:
            tail = (tail + " and" if tail else "") + " attacking that player"
        return f"{_verb(ref('for', 'you'), 'create')} a token that's a copy of {of}{tail}."
    if verb == "distribute_counters":  # 601.2d: as divided among the targets
        spec = next((s for s in ctx.specs if isinstance(s, dict) and "divide" in s), {})
        who = _ref_text(spec.get("chosen_by", "you"), ctx)
        amount = _amount(spec.get("divide"), ctx)
        ctx.mentioned.add(ctx.specs.index(spec) if spec in ctx.specs else 0)
        among = ctx.targets[ctx.specs.index(spec)] if spec in ctx.specs else "its targets"
        kind = a.get("kind") if isinstance(a, dict) else a
        return (f"{_cap(_verb(who, 'distribute'))} {kind} counters, as many as {amount}, "
                f"among {among}.")  # fmt: skip
    if verb == "copy_for_each_other_target":  # Glimmervoid Basin
        return ("That player copies that spell for each other object or player it could "
                "target. Each copy targets a different one of them.")  # fmt: skip
    if verb == "sacrifice_each":
        what = "the chosen ones" if a in ("all_chosen", None) else ref("what", "all_chosen")
        return f"Sacrifice {what}."
    if verb == "draw":
        n, note = _n(ctx, args.get("amount", 1), "card")
        return f"{_verb(ref('who', 'you'), 'draw')} {n}{note}."
    if verb == "discard":
        who = ref("who", "you")
        if args.get("all"):
            return f"{_verb(who, 'discard')} {'your' if who == 'you' else 'their'} hand."
        how = " at random" if args.get("random") else ""
        noun = "card"
        if "filter" in args:
            noun = _filter(args["filter"])
            noun = noun.replace("permanent", "card") if "card" not in noun else noun
        n, note = _n(ctx, args.get("amount", 1), noun)
        if "chosen_by" in args:  # the hand is revealed; another player picks
            chooser = ref("chosen_by", "you")
            theirs = "your" if who == "you" else "their"
            return (f"{_verb(who, 'reveal')} {theirs} hand. {_cap(chooser)} "
                    f"choose{'s' if chooser != 'you' else ''} {n} from each of those hands{note}. "
                    f"Those players discard those cards.")  # fmt: skip
        return f"{_verb(who, 'discard')} {n}{how}{note}."
    if verb == "mill":
        n, note = _n(ctx, args.get("amount", 1), "card")
        return f"{_verb(ref('who', 'you'), 'mill')} {n}{note}."
    if verb in ("scry", "surveil"):
        n = args.get("amount", a) if isinstance(a, dict) else a
        return f"{verb.capitalize()} {_amount(n, ctx)}."
    if verb in ("look_at_top", "reveal_top"):
        return _look(ctx, verb, args, a)
    if verb == "search":
        who = ref("who", "you")
        n = args.get("amount", 1)
        fl = args.get("filter", "card")
        fl = FILTER_WORDS.get(fl, fl) if isinstance(fl, str) else fl
        f = _filter({**fl, "zone": "any"} if isinstance(fl, dict) else fl, plural=n != 1)
        frm = _list(args.get("from", "library"))
        place = "library" if frm == ["library"] else "library and/or graveyard"
        whose = "your" if who == "you" else "their"
        dests = _list(args.get("to", "hand"))
        tapped = " tapped" if args.get("tapped") else ""
        where = {"hand": f"into {whose} hand", "battlefield": f"onto the battlefield{tapped}",
                 "library_top": f"on top of {whose} library", "graveyard": f"into {whose} graveyard"}  # fmt: skip
        if len(dests) > 1:
            put = f"put one {where[dests[0]]} and the other {where.get(dests[1], dests[1])}"
        else:
            put = f"put {'it' if n == 1 else 'them'} {where.get(dests[0], dests[0])}"
        stated = not (isinstance(fl, dict) and set(fl) <= {"zone"})  # (701.19b)
        count = "a" if n == 1 else (f"up to {_num(n)}" if stated else _num(n))
        if n == 1 and f[:1] in "aeiouAEIOU":
            count = "an"
        return (f"{_verb(who, 'search', 'searches')} {whose} {place} for {count} {f}, reveal "
                f"{'it' if n == 1 else 'them'}, {put}, then shuffle.")  # fmt: skip
    if verb == "destroy":
        t = f"Destroy {ref('what', 'target')}."
        if args.get("no_regenerate"):
            t += (
                " It can't be regenerated."
                if "each" not in str(args.get("what"))
                else " They can't be regenerated."
            )
        return t
    if verb == "exile":
        t = f"Exile {ref('what', 'target')}"
        if args.get("until") == "leaves":
            t += f" until {ctx.name} leaves the battlefield"
        return t + "."
    if verb == "cant_regenerate":
        return f"{_cap(ref('what', 'target'))} can't be regenerated this turn."
    if verb in ("tap", "untap", "regenerate", "transform"):
        return f"{verb.capitalize()} {ref('what', 'target')}."
    if verb == "remove_from_combat":
        return f"Remove {ref('what', 'target')} from combat."
    if verb == "bounce":
        return f"Return {ref('what', 'target')} to its owner's hand."
    if verb == "to_library":
        pos = args.get("position", "top")
        what = ref("what", "target")
        owner = (
            "their owners' libraries"
            if what.startswith(("each ", "the chosen"))
            else "its owner's library"
        )
        if pos == "shuffle":
            return f"Shuffle {what} into {owner}."
        return f"Put {what} on the {pos} of {owner}."
    if verb == "return":
        what = ref("what", "target")
        if args.get("to") == "battlefield":
            under = (
                " under its owner's control"
                if args.get("under") == "owner"
                else " under your control"
            )
            return (
                f"Return {what} to the battlefield{' tapped' if args.get('tapped') else ''}{under}."
            )
        return f"Return {what} to its owner's hand."
    if verb == "counter":
        unless = (
            f" unless its controller pays {{{_amount(args['unless_pays'], ctx)}}}"
            if "unless_pays" in args
            else ""
        )
        return f"Counter {ref('what', 'target')}{unless}."
    if verb == "copy_spell":
        who = ref("for", "you")
        new = (f" {'You' if who == 'you' else 'That player'} may choose new targets for the copy."
               if args.get("new_targets") else "")  # fmt: skip
        head = "Copy" if who == "you" else f"{_cap(who)} copies"
        return f"{head} {ref('what', 'target')}.{new}"
    if verb == "create_token":
        tok = args.get("token")
        tname = _token(tok)
        who = ref("for", "you")
        n = args.get("amount", 1)
        tapped = "tapped " if args.get("tapped") else ""
        with_kw = ""
        if " [with " in tname:
            tname, with_kw = tname.split(" [with ")
            with_kw = " with " + with_kw.rstrip("]")
        words, note = _n(ctx, n, f"{tapped}{tname} token", f"{tapped}{tname} tokens")
        if args.get("blocking") == "event.object":  # 509.1h
            with_kw += " that's blocking that creature"
        elif "must_attack" in args:  # 508.1d
            whom = _ref_text(args["must_attack"], ctx)
            whom = "that player" if whom == "it" else whom
            with_kw += f" that attacks {whom} each combat if able"
        return f"{_verb(who, 'create')} {words}{with_kw}{note}."
    if verb == "add_mana":
        who = "" if args.get("who", "you") == "you" else f"{_cap(ref('who', 'you'))} adds "
        if "mana" in args:
            m = _mana(args["mana"])
            n = args.get("amount")
            return (
                f"{who or 'Add '}{m}" + (f" for each of {_amount(n, ctx)}" if n is not None else "")
            ) + "."
        n = args.get("any", args.get("amount", 1))
        kind = (
            "any one colour"
            if "any" in args
            else " or ".join("{" + c + "}" for c in _list(args.get("one_of")))
        )
        return f"{who or 'Add '}{_num(n) if isinstance(n, int) else n} mana of {kind}."
    if verb == "counters":
        n = args.get("amount", 1)
        kind = args.get("kind")
        what = ref("what", "self")
        if isinstance(n, int):
            if n >= 0:
                words = _article(f"{kind} counter") if n == 1 else f"{_num(n)} {kind} counters"
                return f"Put {words} on {what}."
            words = _article(f"{kind} counter") if n == -1 else f"{_num(-n)} {kind} counters"
            return f"Remove {words} from {what}."
        if isinstance(n, dict) and n.get("counters") == kind and n.get("times") == -1:
            return f"Remove all {kind} counters from {what}."  # (as many as it has)
        words, note = _n(ctx, n, f"{kind} counter")
        return f"Put {words} on {what}{note}."
    if verb == "proliferate":
        return "Proliferate."
    if verb in ("pump", "grant", "set_base_pt", "animate", "cant_block"):
        return _pump(ctx, verb, args, ref)
    if verb == "gain_control":
        until = args.get("until")
        tail = {"end_of_turn": " until end of turn", "you_control_source": f" for as long as you control {ctx.name}",
                "leaves": f" for as long as {ctx.name} remains on the battlefield", None: "",
                "forever": ""}.get(until, f" until {str(until).replace('_', ' ')}")  # fmt: skip
        return f"Gain control of {ref('what', 'target')}{tail}."
    if verb == "sacrifice":
        who = ref("who", "you")
        n = args.get("amount", 1)
        f = _filter(args.get("filter", "creature"), plural=n != 1)
        count = "a" if n == 1 else _num(n)
        if n == 1 and f[:1] in "aeiou":
            count = "an"
        return f"{_verb(who, 'sacrifice')} {count} {f}."
    if verb == "sacrifice_unless_life":
        return f"For each creature, its controller sacrifices it unless they pay {amt} life."
    if verb == "fight":
        return f"{_cap(ref('what', 'target'))} fights {ref('with', 'target')}."
    if verb == "attach":
        return f"Attach {ref('what', 'self')} to {ref('to', 'target')}."
    if verb == "planeswalk":  # 701.24
        who = ref("who", "you")
        return "Planeswalk." if who == "you" else f"{_cap(who)} planeswalks."
    if verb == "extra_turn":
        return f"{_verb(ref('who', 'you'), 'take')} an extra turn after this one."
    if verb in ("win_game", "lose_game", "win", "lose"):
        return f"{_verb(ref('who', 'you'), 'win' if 'win' in verb else 'lose')} the game."
    if verb == "draw_game":
        return "The game is a draw."
    if verb == "double_life":
        return f"Double {_possessive(ref('who', 'target'))} life total."
    if verb == "set_life":
        return f"{_possessive(_cap(ref('who', 'you')))} life total becomes {amt}."
    if verb == "life_becomes_lowest":
        if args.get("among") == "each_opponent":
            return "Each opponent's life total becomes the lowest life total among your opponents."
        return "Each player's life total becomes the lowest life total among all players."
    if verb == "exchange_life":
        who = ref("who", "target.0")
        if who == "you":
            return f"Exchange life totals with {ref('with', 'target.1')}."
        return f"{_cap(who)} and {ref('with', 'target.1')} exchange life totals."
    if verb == "additional_combat":  # 500.8 (Sokenzan)
        return ("After this main phase, there is an additional combat phase followed by an "
                "additional main phase.")  # fmt: skip
    if verb == "exchange_control":
        return f"Exchange control of {ref('what', 'target.0')} and {ref('with', 'target.1')}."
    if verb == "redistribute_life":
        return "Redistribute any number of players' life totals. (Each of those players gets one life total back.)"
    if verb == "redirect":
        return (f"The next {amt} damage that would be dealt to {ref('from', 'target.0')} this turn "
                f"is dealt to {ref('to', 'target.1')} instead.")  # fmt: skip
    if verb == "prevent":
        n = args.get("amount")
        combat = " combat" if args.get("combat") else ""
        to = f" to {ref('to', 'target')}" if "to" in args else ""
        if n == "all":
            return f"Prevent all{combat} damage that would be dealt{to} this turn."
        return (
            f"Prevent the next {_amount(n, ctx)}{combat} damage that would be dealt{to} this turn."
        )
    if verb in ("fact_or_fiction", "piles"):
        return (f"Reveal the top {_amount(args.get('amount', a), ctx)} cards of your library. An opponent "
                "separates them into two piles. Put one pile into your hand and the other into your graveyard.")  # fmt: skip
    if verb in ("may", "unless"):
        inner = " ".join(_step(ctx, s) for s in _list(args.get("effects")))
        if verb == "may":
            who = ref("who", "you")
            pay = args.get("pay", args.get("pays"))
            if args.get("pay_x"):
                cost = f"pay {{X}}. If {'you' if who == 'you' else 'they'} do, "
            elif "pay_life" in args:
                n, note = _x(ctx, args["pay_life"])
                cost = f"pay {n} life{note}. If {'you' if who == 'you' else 'they'} do, "
            elif pay is not None:
                cost = f"pay {_mana_price(pay, ctx)}. If {'you' if who == 'you' else 'they'} do, "
            else:
                cost = ""
            if cost:
                return f"{_cap(who)} may {cost}{_low(inner)}"
            m = re.match(r"^(That creature|It) deals ", inner)
            if m:  # "its controller may have it deal ..." (Immersturm)
                return f"{_cap(who)} may have it deal {inner[m.end() :]}"
            if who != "you" and _low(inner).startswith(_low(who) + " "):
                # "that player may draw a card", not "that player may that player draws"
                verb_, _, rest = inner[len(who) + 1 :].partition(" ")
                base = verb_[:-2] if verb_.endswith(("ches", "shes")) else verb_.removesuffix("s")
                return f"{_cap(who)} may {base} {rest}".rstrip()
            return f"{_cap(who)} may {_low(inner)}"
        who = ref("who", "target")
        pay = args.get("pays", args.get("pay"))
        price = f"{_amount(args['life'], ctx)} life" if "life" in args and not isinstance(args["life"], bool) else (
            _mana_price(pay, ctx) + (" in life" if args.get("life") else ""))  # fmt: skip
        return f"{inner.rstrip('.')} unless {who} pays {price}."
    if verb == "if":
        cond = _cond(ctx, args.get("cond"))
        then = " ".join(_step(ctx, s) for s in _list(args.get("then")))
        out = f"If {cond}, {_low(then)}"
        if args.get("else"):
            out += " Otherwise, " + _low(" ".join(_step(ctx, s) for s in _list(args["else"])))
        return out
    if verb == "for_each":
        steps = _list(args.get("effects"))
        one = steps[0] if len(steps) == 1 and isinstance(steps[0], dict) else {}
        c = one.get("counters") if isinstance(one.get("counters"), dict) else {}
        amt = c.get("amount")
        if c.get("what") == "it" and isinstance(amt, dict) and amt.get("times") == -1:
            return f"Remove all {c.get('kind')} counters from {_ref_text(args.get('in'), ctx)}."
        inner = " ".join(_step(ctx, s) for s in steps)
        where = args.get("in") if isinstance(args.get("in"), str) else None
        who = {"each_player": "Each player", "each_opponent": "Each opponent"}.get(where)
        if who and inner.startswith("It ") and "Return the chosen one" in inner:
            # "Each player may choose a blue card in their graveyard. Return ..." (Minamo)
            return (who + inner[2:].replace(" its graveyard", " their graveyard").replace(
                "Return the chosen one", "They return the chosen card"))  # fmt: skip
        if where == "each_player_but_controller_of_target" and len(steps) == 1:
            inner = inner.replace(" it creates", " creates").replace("It creates", "creates")
            return f"Each player other than its controller {_low(inner)}"
        if where == "each_opponent_but_defending":
            return f"For each opponent other than the defending player, {_low(inner)}"
        return f"For each of {_ref_text(args.get('in'), ctx)}: {_low(inner)}"
    if verb in ("choose", "put_land", "put_onto_battlefield", "exile_from_hand"):
        who = ref("who", "you")
        f = _filter(args.get("filter", "card"))
        if verb == "choose":
            n = args.get("amount", 1)
            fl = _filter(args.get("filter", "card"), plural=n != 1)
            what = _article(fl) if n == 1 else _num(n) + " " + fl
            if args.get("up_to") and n >= 64:  # (the size of the chosen table: any number)
                return f"{_cap(who)} may choose any number of {fl}."
            if args.get("up_to"):
                return f"{_cap(who)} may choose {'up to ' + what if n != 1 else what}."
            return f"{_verb(who, 'choose')} {what}."
        if verb == "exile_from_hand":
            return f"{_verb(who, 'exile')} a card from {'your' if who == 'you' else 'their'} hand."
        card = f if "card" in f else f + " card"
        may = "may put" if args.get("up_to") or verb == "put_land" else "puts"
        tail = " tapped" if args.get("tapped") else ""
        if "attacking" in args:
            tail = " tapped and attacking the same player or planeswalker"
        return f"{_cap(who)} {may} a {card} from {'your' if who == 'you' else 'their'} hand onto the battlefield{tail}."
    if verb == "shuffle":
        return f"{_verb(ref('who', 'you'), 'shuffle')} {'your' if ref('who', 'you') == 'you' else 'their'} library."
    if verb == "reveal_until":
        card = _filter(args.get("filter", "card"))
        card = card.replace("permanent", "card") if "card" not in card else card
        card = card if "card" in card else card + " card"
        if "who" in args:  # each of them reveals; you choose one of the matching cards
            return (f"{_verb(ref('who', 'you'), 'reveal')} cards from the top of their library "
                    f"until they reveal {_article(card)}. Choose one of the {card}s revealed "
                    "this way and put it onto the battlefield under your control. Put all other "
                    "cards revealed this way into their owners' graveyards.")  # fmt: skip
        to = "onto the battlefield" if args.get("to") == "battlefield" else "into your hand"
        rest = ("shuffle the rest into your library" if args.get("rest") == "shuffle" else
                "put the rest on the bottom of your library in a random order")  # fmt: skip
        return (f"Reveal cards from the top of your library until you reveal {_article(card)}. "
                f"Put that card {to}, then {rest}.")  # fmt: skip
    if verb == "lasting":  # 611.2a: statics of the resolved ability, until a time
        until = {"your_next_turn": "Until your next turn", "end_of_turn": "This turn",
                 "planeswalk": "Until a player planeswalks", "forever": "For the rest of the game"}.get(
            args.get("until", "end_of_turn"), "Until end of turn")  # fmt: skip
        texts = [_static(ctx, b) for b in _list(args.get("statics")) if isinstance(b, dict)]
        if args.get("until") == "planeswalk" and len(texts) == 1:  # (901.11)
            return texts[0].rstrip(".") + " until a player planeswalks."
        if len(texts) == 1:
            return f"{until}, {_low(texts[0])}"
        return f"{until}: {' '.join(texts)}"
    if verb == "emblem":
        inner = " ".join(_ability(ctx, k, b) for it in _list(args.get("abilities")) if isinstance(it, dict)
                         for k, b in it.items())  # fmt: skip
        return f'You get an emblem with "{inner}"'
    if verb == "restart_game":
        t = "Restart the game"
        if args.get("return_exiled"):
            t += f", then put all cards exiled with {ctx.name} onto the battlefield under your control"
        return t + "."
    if verb == "exile_if_leaves":
        return f"If {ref('what', 'self')} would leave the battlefield, exile it instead."
    if verb == "delayed":
        saved = ctx.event_object
        if args.get("what") == "it":  # (what the step before made: "exile it")
            ctx.event_object = "it"
        inner = " ".join(_step(ctx, s) for s in _list(args.get("effects")))
        ctx.event_object = saved
        if args.get("at") == "end_of_combat":
            return f"At end of combat, {_low(inner)}"
        return f"At the beginning of the next end step, {_low(inner)}"
    if verb == "become_monarch":
        return f"{_verb(ref('who', 'you'), 'become')} the monarch."
    if verb == "day_night":
        return f"It becomes {args.get('becomes', 'day')}."
    tail = " " + _generic(a) if a not in (None, {}, True) else ""
    return f"{verb.replace('_', ' ').capitalize()}{tail}."


def _generic(a: Any) -> str:
    """Arguments of a word the renderer has no sentence for, in words."""
    if isinstance(a, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_filter(v) if k == 'filter' else _generic(v)}"
                         for k, v in a.items())  # fmt: skip
    if isinstance(a, list):
        return _join([_generic(x) for x in a], "or")
    return str(a)


def _token(tok: Any) -> str:
    """A token as rules text describes it: "1/1 red Goblin creature", "Treasure"."""
    rec = TOKENS.get(tok) if isinstance(tok, str) else tok
    if not isinstance(rec, dict):
        return str(tok)
    types = [str(t) for t in _list(rec.get("types"))]
    subs = " ".join(str(s) for s in _list(rec.get("subtypes")))
    if "Creature" not in types:
        return subs or (tok if isinstance(tok, str) else "")
    cols = _list(rec.get("colors"))
    color = _join([COLORS.get(c, str(c)) for c in cols]) if cols else "colorless"
    kinds = " ".join(t.lower() for t in types)
    t = f"{rec.get('power', 0)}/{rec.get('toughness', 0)} {color} {subs} {kinds}"
    kws = [_keyword(k) for k in _list(rec.get("keywords"))]
    return t + (" [with " + _join(kws) + "]" if kws else "")


def _look(ctx: Ctx, verb: str, args: dict, a: Any) -> str:
    who = _who(ctx, args.get("who"), "you")
    n = _amount(args.get("amount", a), ctx)
    whose = "your" if who == "you" else _possessive(who)
    look = "Look at" if verb == "look_at_top" else "Reveal"
    lead = "" if who == "you" else f"{_cap(who)} reveals the top card of their library."
    t = (
        lead
        or f"{look} the top {'card' if n == '1' else _num(int(n)) + ' cards' if n.isdigit() else n + ' cards'} of {whose} library."
    )
    pick = "all" if args.get("all") else args.get("pick", 0)
    f = args.get("filter", "card")
    to = args.get("to", "hand")
    place = {"hand": f"into {'your' if who == 'you' else 'their'} hand",
             "battlefield": "onto the battlefield" + (" tapped" if args.get("tapped") else ""),
             "graveyard": f"into {'your' if who == 'you' else 'their'} graveyard"}.get(to, to)  # fmt: skip
    one = n == "1"
    if pick == "all":
        noun = _filter(f, plural=not one)
        t += (
            f" Put {'it' if one else 'all ' + noun + ' revealed this way'} {place}"
            + (f" if it's {_article(_filter(f))}" if one else "")
            + "."
        )
    elif pick:
        exact = args.get("exactly") or args.get("up_to") is False
        if one:
            t += f" {'Put' if exact else 'You may put'} it {place}."
        else:
            noun = _filter(f, plural=pick != 1)
            count = _num(pick) if exact else f"up to {_num(pick)}"
            if noun == "card" or noun == "cards":
                t += f" Put {count} of them {place}."
            else:
                t += f" Put {count} {noun} from among them {place}."
    rest = args.get("rest", "bottom")
    if rest == "bottom":
        t += (
            " Put the rest on the bottom of the library in any order."
            if pick or one is False
            else ""
        )
    elif rest == "graveyard":
        t += " Put the rest into the graveyard."
    elif rest == "top_any_order":
        t += (
            " Put them back on top in any order."
            if not pick
            else " Put the rest back on top in any order."
        )
    elif rest == "top" and pick:
        t += " Otherwise, it stays on top." if one else " Put the rest back on top."
    return t


def _pump(ctx: Ctx, verb: str, args: dict, ref) -> str:
    what = ref("what", "target")
    raw = args.get("what", "target")
    plural = what.startswith("each ")
    if isinstance(raw, dict) and "each" in raw:
        plural_subject = _filter(raw["each"], plural=True)
    elif raw in ("creatures_you_control", "each_creature"):
        plural_subject = _filter(raw, plural=True)
    else:
        plural_subject = None
    until = args.get("until", "end_of_turn")
    tail = {"end_of_turn": " until end of turn", "forever": "", "leaves": f" for as long as {ctx.name} remains on the battlefield",
            "your_next_turn": " until your next turn"}.get(until, f" until {str(until).replace('_', ' ')}")  # fmt: skip
    kws = _join([_keyword(k) for k in _list(args.get("keywords"))])
    parts = []
    subject = what
    if plural:
        subject = plural_subject or _plural_subject(what)
    if verb == "pump" and ("power" in args or "toughness" in args):
        p, t = _pt_amount(ctx, args.get("power", 0)), _pt_amount(ctx, args.get("toughness", 0))
        parts.append(f"{'get' if plural else 'gets'} {p}/{t}")
        xs = [args[k] for k in ("power", "toughness") if k in args and not isinstance(args[k], int)]
        xa = _amount(xs[0], ctx).replace("minus ", "") if xs else "X"
        note = f", where X is {xa}" if xa != "X" else ""
    else:
        note = ""
    if verb == "set_base_pt":
        parts.append(
            f"{'have' if plural else 'has'} base power and toughness {args.get('power')}/{args.get('toughness')}"
        )
    if verb == "animate":
        bits = []
        if "colors" in args:
            bits.append(_join([COLORS.get(c, str(c)) for c in _list(args["colors"])]))
        if "power" in args:
            bits.append(f"{args.get('power')}/{args.get('toughness')}")
        bits += [str(s) for s in _list(args.get("subtypes"))]
        bits += [str(t).lower() for t in _list(args.get("types"))]
        extra = (
            " in addition to its other colors and types"
            if "colors" in args or "subtypes" in args
            else ""
        )
        parts.append(
            f"{'become' if plural else 'becomes'} a {' '.join(bits)}{extra}".replace(
                " a a", " an a"
            )
        )
    if verb == "cant_block":
        parts.append("can't block")
    if verb == "grant" and "can't be blocked" in _list(args.get("keywords")):  # (an ability)
        kws = _join([_keyword(k) for k in _list(args.get("keywords")) if k != "can't be blocked"])
        parts.append("can't be blocked")
        tail = " this turn" if until == "end_of_turn" else tail
    if kws:
        parts.append(f"{'gain' if plural else 'gains'} {kws}")
    if not parts:
        parts.append("is affected")
    return f"{_cap(subject)} {' and '.join(parts)}{tail}{note}."


def _plural_subject(each_phrase: str) -> str:
    """ "each creature you control" -> "Creatures you control"."""
    rest = each_phrase[5:]
    m = re.match(
        r"^((?:other |another |tapped |untapped |attacking |nontoken |non\S+ )*)(\S+)(.*)$", rest
    )
    if not m:
        return rest
    pre, noun, post = m.groups()
    pre = pre.replace("another ", "other ")
    return f"{pre}{_plural_word(noun)}{post}"


def _cond(ctx: Ctx, c: Any) -> str:
    if not isinstance(c, dict) or len(c) != 1:
        return str(c)
    ((k, arg),) = c.items()
    if k == "life_at_least":
        return f"you have {arg} or more life"
    if k in ("controls", "count"):
        if isinstance(arg, dict):
            n = arg.get("at_least", 1)
            f = {kk: vv for kk, vv in arg.items() if kk != "at_least"}
            f = f.get("filter", f)
        else:
            n, f = 1, arg
        if k == "controls":
            noun = _filter(f, plural=n != 1)
            return f"you control {_article(noun) if n == 1 else _num(n) + ' or more ' + noun}"
        return f"there are {_num(n)} or more {_filter(f, plural=True)}"
    if k == "compare" and isinstance(arg, list) and len(arg) == 3:
        a0 = arg[0] if isinstance(arg[0], dict) else {}
        if "opponent_spells_since_your_last_turn" in a0 and arg[1:] == ["eq", 0]:
            return "no opponents cast spells since your last turn ended"
        if "cards_put_into_graveyard_this_turn" in a0 and arg[1] == "ge":
            whose = _possessive(_ref_text(a0["cards_put_into_graveyard_this_turn"], ctx))
            return (f"{_num(arg[2])} or more cards were put into {whose} graveyard from "
                    "anywhere this turn")  # fmt: skip
        op = {
            "le": "is less than or equal to",
            "ge": "is greater than or equal to",
            "eq": "is equal to",
        }.get(arg[1], arg[1])
        return f"{_amount(arg[0], ctx)} {op} {_amount(arg[2], ctx)}"
    if k == "is" and isinstance(arg, dict):
        return f"{_ref_text(arg.get('what'), ctx)} is a {_filter(arg.get('filter'))}"
    if k == "in_zone" and isinstance(arg, dict):
        return f"{_ref_text(arg.get('what'), ctx)} is in a {arg.get('zone')}"
    if k == "moved":
        return "a card was put there this way" if arg else "no card was put there this way"
    if k == "self_untapped" and arg is True:
        return f"{ctx.name} is untapped"
    if k == "not":
        if isinstance(arg, dict) and "moved" in arg:
            return _cond(ctx, {"moved": not arg["moved"]})
        if arg == {"self_attacked_this_turn": True}:
            return f"{ctx.name} didn't attack this turn"
        return "it's not so that " + _cond(ctx, arg)
    if k in ("all", "any"):
        return (" and " if k == "all" else " or ").join(_cond(ctx, x) for x in _list(arg))
    return {
        "self_untapped": f"{ctx.name} is untapped", "kicked": "it was kicked", "day": "it's day",
        "night": "it's night",
        "monarch": "an opponent is the monarch" if arg == "opponent" else "you're the monarch",
        "first_turn": "it's the game's first turn" if arg == "game" else "it's that player's first turn",
        "noted_correct": f"you guessed right for a card named {arg}",
        "self_in_zone": f"{ctx.name} is in the {arg} zone",
        "self_attacked_this_turn": f"{ctx.name} attacked this turn",
        "cast_spell_this_turn": "you've cast a spell this turn",
        "attacked_with_creatures_this_turn": "you've attacked with creatures this turn",
        "your_turn": "it's your turn",
    }.get(k, f"{k.replace('_', ' ')} {arg}")  # fmt: skip


def _mana_price(pay: Any, ctx: Ctx) -> str:
    """A price in mana: a cost as written ("{1}{W}"), or an amount in braces ("{X}", "{3}")."""
    if isinstance(pay, str) and pay.startswith("{"):
        return pay
    return f"{{{_amount(pay, ctx)}}}"


def _when(ctx: Ctx, w: dict) -> str:
    ev = w.get("event", "")
    what = w.get("what")
    special = {"self": ctx.name, "enchanted": "enchanted creature", "equipped": "equipped creature",
               "attached": "the permanent it's attached to"}  # fmt: skip
    group = bool(w.get("one_or_more"))
    if isinstance(what, str) and what in special:
        subject = special[what]
    elif what is not None:
        subject = (
            ("one or more " + _filter(what, plural=True)) if group else _article(_filter(what))
        )
    else:
        subject = (
            "a creature"
            if ev in ("attacks", "blocks", "dies", "attacks_unblocked")
            else "a permanent"
        )
    by = w.get("by") if ev != "dealt_damage" else None  # (dealt_damage: a filter)
    who = w.get("who", w.get("whose", by if by is not None else w.get("defender")))
    player = {None: "you", "you": "you", "opponent": "an opponent", "opponents": "an opponent",
              "any": "a player", "each": "a player", "teammate": "a teammate",
              "not_you": "another player"}.get(who, str(who))  # fmt: skip
    verb = lambda base, third: base if group else third  # noqa: E731
    if ev == "beginning_of":
        whose = {None: "your", "you": "your", "each": "each", "any": "each",
                 "opponent": "each opponent's", "teammate": "each teammate's"}.get(who, "your")  # fmt: skip
        step = STEPS.get(str(w.get("step")), str(w.get("step", "")).replace("_", " "))
        if w.get("step") == "end_of_combat" and whose == "each":  # (Glen Elendra)
            return "At end of combat"
        return f"At the beginning of {whose} {step}"
    if ev == "enters":
        t = f"Whenever {subject} {verb('enter', 'enters')}"
        if what == "self":
            t = f"When {subject} enters"
        return t
    if ev == "dies":
        return f"{'When' if what == 'self' else 'Whenever'} {subject} dies"
    if ev == "leaves":
        to = w.get("to")
        tail = f" and is put into a {to}" if to else ""
        if to == "graveyard":
            tail = " and is put into a graveyard"
        return f"{'When' if what == 'self' else 'Whenever'} {subject} leaves the battlefield{tail}"
    if ev == "attacks":
        if group and "at_least" in w:  # "when N or more creatures attack you"
            noun = _filter({k: v for k, v in (what or {}).items() if k != "attacking"}, True)
            whom = " you" if isinstance(what, dict) and what.get("attacking") == "you" else ""
            return f"Whenever {_num(w['at_least'])} or more {noun} attack{whom}"
        t = f"Whenever {subject} {verb('attack', 'attacks')}"
        if who in ("opponent", "opponents"):
            t += " an opponent"
        return t
    if ev == "attacks_unblocked":  # 509.1h
        t = f"Whenever {subject} attacks and isn't blocked"
        if who == "you":
            t += ", if you're the defending player"
        return t
    if ev == "blocks":
        return f"Whenever {subject} blocks"
    if ev == "becomes_blocked":
        return (
            f"Whenever {subject} becomes blocked{' by a creature' if w.get('by_creature') else ''}"
        )
    if ev == "deals_damage":
        to = w.get("to", "any")
        dmg = "combat damage" if w.get("combat") else "damage"
        rec = {"any": "", "player": " to a player", "opponent": " to an opponent",
               "creature": " to a creature", "player_or_planeswalker": " to a player or planeswalker"}.get(to, f" to {to}")  # fmt: skip
        if to == "player" and who is not None:
            rec = f" to {player}"
        if w.get("first_each_turn"):
            return f"Whenever {subject} deals {dmg} to one or more players for the first time each turn"
        return f"Whenever {subject} deals {dmg}{rec}"
    if ev == "dealt_damage":
        by = f" by {_article(_filter(w['by']))}" if "by" in w else ""
        return f"Whenever {subject} is dealt damage{by}"
    if ev == "chaos":  # 901.9c, 311.7
        return "Whenever you roll {CHAOS}"
    if ev == "planeswalk_to":  # 901.11
        return f"When you planeswalk to {ctx.name}"
    if ev == "planeswalk_from":
        return f"When you planeswalk away from {ctx.name}"
    if ev == "counters_at_least":  # a state trigger (603.8)
        return f"When {ctx.name} has {_num(w.get('amount'))} or more {w.get('kind')} counters on it"
    if ev == "set_in_motion":  # 701.25
        return "When you set this scheme in motion"
    if ev == "rolls_die":  # 706
        return "Whenever you roll one or more dice"
    if ev == "mutates":  # 702.140d
        return f"Whenever {ctx.name} mutates"
    if ev == "transforms":  # 712
        into = f" into its {w['into']} face" if "into" in w else ""
        return f"When {ctx.name} transforms{into}"
    if ev == "day_night":  # 728
        return {"day": "Whenever night becomes day", "night": "Whenever day becomes night"}.get(
            w.get("becomes"), "Whenever day becomes night or night becomes day"
        )
    if ev == "cast":
        if what == "self":
            return f"When you cast {ctx.name}"
        if isinstance(what, str):
            what = FILTER_WORDS.get(what, what)
        spell = (
            _filter({**what, "zone": "stack"} if isinstance(what, dict) else what)
            if what is not None
            else "spell"
        )
        if "spell" not in spell:
            spell += " spell"
        return f"Whenever {player} {'cast' if player == 'you' else 'casts'} {_article(spell)}"
    if ev == "draws":
        nth = w.get("nth", 0)
        which = f"your {ORDINAL.get(nth, str(nth))} card each turn" if nth else "a card"
        if isinstance(what, dict):  # the card drawn (Sea of Sand)
            card = _filter({k: v for k, v in what.items() if k != "zone"}).replace(
                "permanent", "card"
            )
            which = _article(card if "card" in card else card + " card")
        if player != "you" and nth:
            which = f"their {ORDINAL.get(nth, str(nth))} card each turn"
        return f"Whenever {player} {'draw' if player == 'you' else 'draws'} {which}"
    if ev == "discards":
        return f"Whenever {player} {'discard' if player == 'you' else 'discards'} a card"
    if ev in ("gains_life", "loses_life"):
        v = "gain" if ev == "gains_life" else "lose"
        return f"Whenever {player} {v if player == 'you' else v + 's'} life"
    if ev == "life_at_least":
        return f"When you have {w.get('amount')} or more life"
    if ev == "last_counter_removed":
        return f"When the last {w.get('kind')} counter is removed from {subject}"
    if ev == "becomes_target":
        by = {"opponent": " an opponent controls", None: "", "you": " you control"}.get(who, "")
        return f"Whenever {subject} becomes the target of a spell or ability{by}"
    if ev == "put_into_graveyard":
        if what not in (None, "self"):  # any card (The Dark Barony)
            card = _filter({k: v for k, v in what.items() if k != "zone"}).replace(
                "permanent", "card"
            )
            if "card" not in card:
                card += " card"
            return f"Whenever {_article(card)} is put into a graveyard from anywhere"
        return f"When {ctx.name} is put into a graveyard from anywhere"
    if ev == "day_night":
        b = w.get("becomes")
        return (
            f"Whenever it becomes {b}" if b else "Whenever day becomes night or night becomes day"
        )
    return f"Whenever {ev.replace('_', ' ')}"


def _dict(f: Any) -> dict:
    """A filter as a mapping (a filter word's meaning)."""
    if isinstance(f, str):
        return dict(FILTER_WORDS.get(f, {}))
    return dict(f) if isinstance(f, dict) else {}


def _article(s: str) -> str:
    if s.startswith(("another ", "each ", "one or more ", "an ", "a ", "other ")):
        return s
    return ("an " if s[:1].lower() in "aeiou" else "a ") + s


def _enters(ctx: Ctx, body: dict) -> str:
    parts = []
    if body.get("tapped"):
        parts.append("tapped")
    for k, n in (body.get("counters") or {}).items():
        parts.append(f"with {'a' if n == 1 else _num(n)} {k} counter{'s' if n != 1 else ''} on it")
    if body.get("with_x_counters"):
        parts.append(f"with X {body['with_x_counters']} counters on it")
    if "as_copy_of" in body:  # 707.2 (Body Double)
        f = body["as_copy_of"]
        return f"You may have {ctx.name} enter as a copy of any {_filter(f)}."
    if "turn_face_down" in body:  # 708 (Ixidron)
        f = body["turn_face_down"]
        return (f"As {ctx.name} enters, turn all other {_filter(f, plural=True)} on the "
                "battlefield face down. (They're 2/2 creatures.)")  # fmt: skip
    for k in body:
        if k not in ("tapped", "counters", "with_x_counters"):
            parts.append(f"({k.replace('_', ' ')})")
    return f"{ctx.name} enters " + " and ".join(parts) + "."


def _static(ctx: Ctx, body: dict) -> str:
    body = dict(body)
    zone = body.pop("zone", None)
    cond = body.pop("if", None)
    if len(body) != 1:
        return str(body)
    ((k, arg),) = body.items()
    fixed = {
        "cant_lose": "You can't lose the game.",
        "play_from_library_top": "Players may play the top card of their libraries.",
        "suspend_any_nonland_card": (
            "Any time you could cast an instant, you may exile a nonland card from your hand "
            "with X time counters on it, where X is its mana value. If the exiled card "
            "doesn't have suspend, it gains suspend."
        ),
        "cant_win": "Your opponents can't win the game.",
        "cant_gain_life": "You can't gain life.",
        "cant_lose_life": "You can't lose life.",
        "no_loss_at_zero_life": "You don't lose the game for having 0 or less life.",
        "no_max_hand_size": "You have no maximum hand size.",
        "coat_of_arms": "Each creature gets +1/+1 for each other creature on the battlefield that shares a creature type with it.",
        "control": "You control enchanted creature.",
        "loyalty_abilities_at_instant_speed": "You may activate loyalty abilities of planeswalkers you control on any player's turn any time you could cast an instant.",
        "cant_be_countered": f"{ctx.name} can't be countered.",
        "reveal_draws": "Players reveal each card they draw.",
        "library_tops_revealed": "Players play with the top card of their libraries revealed.",
        "cant_cast_sharing_type_with_library_tops": "Spells that share a card type with the top card of a library can't be cast.",
        "max_attackers": "No more than one creature can attack each combat.",
        "max_blockers": "No more than one creature can block each combat.",
    }  # fmt: skip
    text = fixed.get(k)
    if k == "mana_doesnt_empty":
        text = f"You don't lose unspent {COLORS.get(arg, arg)} mana as steps and phases end."
    elif k == "cant_attack" and isinstance(arg, dict) and "defender" in arg:  # (Agyrem)
        text = f"{_cap(_filter(arg.get('what'), plural=True))} can't attack you."
    elif k in ("double_tokens", "double_counters"):  # 614.1a (Selesnya Loft Gardens)
        text = ("If an effect would create one or more tokens, it creates twice that many of "
                "those tokens instead." if k == "double_tokens" else "If an effect would put "
                "one or more counters on a permanent, it puts twice that many of those "
                "counters on that permanent instead.")  # fmt: skip
    elif k == "counters_instead_of_untap":  # (Edge of Malacol)
        text = (f"If a creature you control would untap during your untap step, put "
                f"{_num(arg)} +1/+1 counters on it instead.")  # fmt: skip
    elif k == "extra_mana_from_permanents":  # (Eloren Wilds)
        text = ("Whenever a player taps a permanent for mana, that player adds one additional "
                "mana of any type that permanent produced.")  # fmt: skip
    elif k in ("cant_attack", "cant_block", "cant_be_blocked"):
        what = _ref_text(arg, ctx) if isinstance(arg, str) else _filter(arg, plural=True)
        text = f"{_cap(what)} can't {k[5:].replace('_', ' ')}."
    elif k == "untap_during_opponents_untap_steps":
        text = "Untap all permanents you control during each opponent's untap step."
    elif k == "double_damage":
        who = "a creature you control" if arg == "your_creatures" else "a source"
        text = f"If {who} would deal damage, it deals double that damage instead."
    elif k == "extra_mana_from_lands":
        text = ("Whenever a player taps a land for mana, that player adds one more mana of any "
                "type that land produced." if arg == "each_player" else "Whenever you tap a land "
                "for mana, add one more mana of any type that land produced.")  # fmt: skip
    elif k == "prevent_damage_by":
        combat = isinstance(arg, dict) and arg.get("combat") is True
        by = _filter(arg["what"] if isinstance(arg, dict) and "what" in arg else arg, plural=True)
        to = (
            (" to " + _filter(arg["to"], plural=True))
            if isinstance(arg, dict) and "to" in arg
            else ""
        )
        text = f"Prevent all {'combat ' if combat else ''}damage that would be dealt by {by}{to}."
    elif k == "extra_land_drops":
        text = f"You may play {'an additional land' if arg == 1 else _num(arg) + ' additional lands'} on each of your turns."
    elif k == "self_cost" and isinstance(arg, dict):
        less = arg.get("less")
        if isinstance(less, dict) and set(less) == {"count"}:
            text = f"This spell costs {{1}} less to cast for each {_filter(less['count'])} on the battlefield."
        elif isinstance(less, int):
            text = f"This spell costs {{{less}}} less to cast."
        else:
            text = f"This spell costs {{X}} less to cast, where X is {_amount(less, ctx)}."
    elif k == "characteristic_pt" and isinstance(arg, dict):
        text = (f"{ctx.name}'s power is equal to {_amount(arg.get('power'), ctx)} and its "
                f"toughness is equal to {_amount(arg.get('toughness'), ctx)}.")  # fmt: skip
        if arg.get("power") == arg.get("toughness"):
            text = f"{ctx.name}'s power and toughness are each equal to {_amount(arg.get('power'), ctx)}."
    elif k == "pt_per" and isinstance(arg, dict):
        what = arg.get("what", "self")
        who = ctx.name if what == "self" else _static_subject(ctx, what)
        p, t = arg.get("power", 1), arg.get("toughness", 1)
        if what != "self" and (p, t) == (1, 0):  # "get +X/+0, where X is ..."
            text = f"{who} get +X/+0, where X is {_amount(arg.get('amount'), ctx)}."
        elif what != "self" and (p, t) == (0, 1):
            text = f"{who} get +0/+X, where X is {_amount(arg.get('amount'), ctx)}."
        else:
            text = f"{who} gets {p:+d}/{t:+d} for each {_amount(arg.get('amount'), ctx).replace('the amount of ', '').replace('the number of ', '')}."
    elif k == "grant" and isinstance(arg, dict) and _list(arg.get("keywords")) == ["conspire"]:
        spell = _filter(arg.get("what")).replace(" you control", " you cast")  # (Wort)
        text = f"Each {spell} has conspire. " + CONSPIRE_REMINDER.format(it="the spell")
    elif k in ("pump", "grant") and isinstance(arg, dict):
        what = arg.get("what")
        single = what in ("self", "enchanted", "equipped", "attached")
        who = _static_subject(ctx, what)
        parts = []
        if arg.get("power") or arg.get("toughness"):
            pw, tg = arg.get("power", 0), arg.get("toughness", 0)
            tt = "-0" if pw < 0 and tg == 0 else f"{tg:+d}"  # (printed "-2/-0")
            parts.append(f"get{'s' if single else ''} {pw:+d}/{tt}")
        if arg.get("keywords"):
            parts.append(
                f"{'has' if single else 'have'} {', '.join(_keyword(x) for x in _list(arg['keywords']))}"
            )
        text = f"{who} {' and '.join(parts) or 'are affected'}."
        for x in _list(arg.get("keywords")):
            if isinstance(x, dict) and list(x.values()) == ["mana_cost"]:  # (Otaria, Grixis)
                text += f" The {next(iter(x))} cost is equal to the card's mana cost."
    elif k == "cost" and isinstance(arg, dict):
        n = arg.get("less", arg.get("more"))
        sp = arg.get("spells")
        sp = FILTER_WORDS.get(sp, sp) if isinstance(sp, str) else sp
        spells = _filter({**sp, "zone": "stack"} if isinstance(sp, dict) else sp, plural=True)
        if "spell" not in spells:
            spells += " spells"
        who = {"you": "you cast", "any": "", "opponent": "your opponents cast"}.get(
            arg.get("who", "you"), "you cast"
        )
        text = f"{_cap(spells)}{' ' + who if who else ''} cost {{{_amount(n, ctx)}}} {'less' if 'less' in arg else 'more'} to cast."
    elif k == "set_color" and isinstance(arg, dict):  # layer 5 (Onakke Catacomb)
        cols = _join([COLORS.get(c, str(c)).lower() for c in _list(arg.get("color"))])
        text = f"{_cap(_filter(arg.get('what'), plural=True))} are {cols}."
    elif k == "animate_artifacts":  # Karn's avatar (902.7)
        text = ("Each noncreature artifact you control is an artifact creature with power and "
                "toughness each equal to its mana value.")  # fmt: skip
    elif k == "doesnt_untap":
        text = (
            f"{_cap(_filter(arg, plural=True))} don't untap during their controllers' untap steps."
        )
    elif k == "may_cast_from":
        text = f"You may cast {ctx.name} from your graveyard."
    elif k == "rebound" and isinstance(arg, dict):  # (Trail of the Mage-Rings, 702.88)
        sp = arg.get("spells")
        sp = FILTER_WORDS.get(sp, sp) if isinstance(sp, str) else sp
        spells = _filter({**sp, "zone": "stack"} if isinstance(sp, dict) else sp, plural=True)
        if "spell" not in spells:
            spells += " spells"
        text = (f"{_cap(spells)} have rebound. (If such a spell was cast from its controller's "
                "hand, it is exiled as it resolves; at the beginning of that player's next "
                "upkeep, they may cast it from exile without paying its mana cost.)")  # fmt: skip
    elif k == "flash_for" and isinstance(arg, dict):  # (Tawnos)
        sp = arg.get("spells")
        sp = FILTER_WORDS.get(sp, sp) if isinstance(sp, str) else sp
        spells = _filter({**sp, "zone": "stack"} if isinstance(sp, dict) else sp, plural=True)
        if "spell" not in spells:
            spells += " spells"
        who = "Players" if arg.get("who") == "each_player" else "You"  # (Akoum)
        text = f"{who} may cast {spells} as though they had flash."
    elif k == "basic_lands_any_color":  # (Mirri)
        text = ("If a basic land you control is tapped for mana, it produces mana of a color "
                "of your choice instead of any other type.")  # fmt: skip
    elif k == "extra_mana_from_lands":  # (Sisay)
        text = ("Whenever you tap a land for mana, add one additional mana of any type that "
                "land produced.")  # fmt: skip
    elif k == "opponents_play_with_hands_revealed":  # (Squee)
        text = "Your opponents play with their hands revealed."
    elif k in ("enters_with_counters", "must_attack", "toughness_damage", "cant_cast",
               "mana_any_color", "starting_player", "starting_hand", "extra_opening_hand",
               "choose_number"):  # fmt: skip
        text = _conspiracy_static(ctx, k, arg)
    text = text or f"{k.replace('_', ' ').capitalize()}: {arg}."
    if cond is not None:
        text = f"As long as {_cond(ctx, cond)}, {_low(text)}"
    if zone == "command":
        text += f" (This works while {ctx.name} is in the command zone.)"
    elif zone == "stack":
        text = text.replace("can't be countered.", "can't be countered.")
    elif zone and zone != "battlefield":
        text += f" (This works while {ctx.name} is in your {zone}.)"
    return text


def _static_subject(ctx: Ctx, what: Any) -> str:
    if what == "self":
        return ctx.name
    if what in ("enchanted", "equipped", "attached"):
        return _cap(SIMPLE_REFS[what])
    return _cap(_filter(what, plural=True))


def _cost(ctx: Ctx, c: Any) -> str:
    if isinstance(c, dict):
        parts = []
        if c.get("mana"):
            parts.append(_mana(c["mana"]))
        if c.get("tap"):
            parts.append("{T}")
        if c.get("untap"):
            parts.append("{Q}")
        if "discard" in c:
            parts.append(
                "Discard this card" if c["discard"] == "self" else f"Discard {c['discard']}"
            )
        if c.get("sacrifice"):
            sac = c["sacrifice"]
            parts.append("Sacrifice " + (ctx.name if sac == "self" else _article(_filter(sac))))
        if "life" in c:
            parts.append(
                "Pay half your life, rounded up" if c["life"] == "half" else f"Pay {c['life']} life"
            )
        if "remove_counters" in c and isinstance(c["remove_counters"], dict):
            for kind, n in c["remove_counters"].items():
                parts.append(
                    f"Remove {'a' if n == 1 else _num(n)} {kind} counter{'s' if n != 1 else ''} from {ctx.name}"
                )
        return ", ".join(parts)
    return _mana(c or "")


def _add(add: Any) -> str:
    if isinstance(add, str):
        return _mana(add)
    if not isinstance(add, dict):
        return str(add)
    if "mana" in add:
        amt = add.get("amount")
        if isinstance(amt, dict) and set(amt) == {"count"}:
            return f"{_mana(add['mana'])} for each {_filter(amt['count'])}"
        return f"X {_mana(add['mana'])}, where X is {_amount(amt)}"
    if len(add) != 1:
        return str(add)
    ((k, v),) = add.items()
    if k == "any":
        return f"{_num(v) if isinstance(v, int) else v} mana of any one colour"
    if k == "one_of":
        return " or ".join("{" + str(c) + "}" for c in _list(v))
    if k == "commander_identity":
        return "one mana of any colour in your commander's colour identity"
    if k == "land_could_produce":
        return "one mana of any colour that a land an opponent controls could produce"
    return f"{k} {v}"


# ----------------------------------------------------------------- Conspiracy Draft (905)
def _conspiracy_lines(rec: dict) -> list[str]:
    """A card's draft ability (905.2; ecs/draft.py DRAFT_ABILITIES) and deck rules."""
    out = []
    d = rec.get("draft")
    if isinstance(d, dict):
        from ecs.draft import DRAFT_ABILITIES

        how = "Draft this card face up." if d.get("face_up") else (
            "Reveal this card as you draft it." if d.get("reveal") else "")  # fmt: skip
        what = DRAFT_ABILITIES.get(d.get("ability"), "")
        what = what.rsplit(" (", 1)[0] if what.endswith(")") else what
        out.append(f"{how} During the draft: {what}.".strip())
    deck = rec.get("deck")
    if isinstance(deck, dict):
        if deck.get("min_size_less"):
            out.append(f"Your minimum deck size is reduced by {deck['min_size_less']}.")
        if deck.get("no_basic_lands"):
            out.append("Your deck can't have basic land cards.")
    if "Conspiracy" in _list(rec.get("types")):
        kws = _list(rec.get("keywords"))
        if "hidden agenda" in kws or "double agenda" in kws:
            n = "two card names" if "double agenda" in kws else "a card name"
            out.append(f"(Start the game with this face down in the command zone and secretly "
                       f"choose {n}; you may turn it face up any time you have priority.)")  # fmt: skip
        else:
            out.append("(Start the game with this face up in the command zone.)")
    return out


def _conspiracy_static(ctx: Ctx, k: str, arg: Any) -> str:
    """Static abilities of conspiracies and draft-matters cards (905)."""

    def spells(f: Any) -> str:
        f = FILTER_WORDS.get(f, f) if isinstance(f, str) else f
        t = _filter({**f, "zone": "stack"} if isinstance(f, dict) else f, plural=True)
        if isinstance(f, dict) and isinstance(f.get("mv"), dict) and "chosen_number" in str(f):
            t = t.split(" with mana value")[0] + " with mana value equal to the chosen number"
        return t if "spell" in t else t + " spells"

    if k == "enters_with_counters" and isinstance(arg, dict):
        what = arg.get("what")
        who = ctx.name if what == "self" else _filter(what, plural=True)
        n, note = _n(ctx, arg.get("amount", 1), f"{arg.get('kind', '+1/+1')} counter")
        verb = "enters" if what == "self" else "enter"
        return _cap(f"{who} {verb} with {n} on {'it' if what == 'self' else 'them'}{note}.")
    if k == "must_attack" and isinstance(arg, dict):
        if "noted" in arg:
            return (f"{ctx.name} attacks each combat if able, and attacks a player you noted "
                    f"for cards named {arg['noted']} if able.")  # fmt: skip
        return f"{ctx.name} attacks each combat if able."
    if k == "toughness_damage":
        who = ctx.name if arg == "self" else _filter(arg, plural=True)
        return (f"{_cap(who)} assign combat damage equal to their toughness rather than "
                "their power.")  # fmt: skip
    if k == "cant_cast" and isinstance(arg, dict):
        w = arg.get("who")
        w = FILTER_WORDS.get(w, w) if isinstance(w, str) else w
        who = "You"
        if isinstance(w, dict):
            who = _cap(_filter({"what": "players", **w}, plural=True))
        if "more_than" in arg:  # "can't cast more than one spell each turn"
            if isinstance(w, dict) and w.get("player") in ("opponent", "opponents"):
                who = "Each opponent"
            n = arg["more_than"]
            sp = spells(arg.get("spells"))
            sp = sp if n != 1 else sp.replace("spells", "spell")
            return f"{who} can't cast more than {_num(n)} {sp} each turn."
        return f"{who} can't cast {spells(arg.get('spells'))}."
    if k == "mana_any_color" and isinstance(arg, dict):
        return (f"You may spend mana as though it were mana of any colour to cast "
                f"{spells(arg.get('spells'))}.")  # fmt: skip
    if k == "starting_player":
        return "You start the game (you are the starting player)."
    if k == "starting_hand":
        return f"Your starting hand size is {_num(arg)}."
    if k == "extra_opening_hand":
        return (f"As the game starts, draw an additional opening hand of {_num(arg)} cards; "
                "keep one hand and shuffle the other into your library.")  # fmt: skip
    return f"As the game starts, choose a number from 1 to {arg}."
