"""Rules text rendered from a card record: what the engine will do, in words.

The text is generated from the same record the engine compiles, so it can't say one
thing while the engine does another. It reads like rules text without copying any
card's printed wording."""

from __future__ import annotations

from typing import Any


def _list(v: Any) -> list:
    if v is None:
        return []
    return list(v) if isinstance(v, (list, tuple)) else [v]


ORDINAL = {0: "", 1: "second ", 2: "third ", 3: "fourth "}


def render(name: str, rec: dict) -> str:
    """The whole card: type line, cost, numbers and each ability on its own line."""
    lines = [_header(name, rec)]
    kws = [_keyword(k) for k in _list(rec.get("keywords"))]
    if kws:
        text = ", ".join(kws)
        lines.append(text[0].upper() + text[1:])
    if "enchant" in rec:
        lines.append(f"Enchant {_filter(rec['enchant'])}")
    for item in _list(rec.get("abilities")):
        ((kind, body),) = item.items()
        lines.append(_ability(name, kind, body))
    if "back" in rec:
        back = rec["back"]
        lines.append("// Back face: " + render(back.get("name", name), back))
    return "\n".join(x for x in lines if x)


def _header(name: str, rec: dict) -> str:
    types = " ".join(_list(rec.get("supertypes")) + _list(rec.get("types")))
    subs = _list(rec.get("subtypes"))
    line = f"{name} {rec.get('cost', '')}".rstrip() + f" — {types}"
    if subs:
        line += " — " + " ".join(subs)
    if "power" in rec:
        line += f" {rec['power']}/{rec['toughness']}"
    if "loyalty" in rec:
        line += f" (loyalty {rec['loyalty']})"
    if "defense" in rec:
        line += f" (defense {rec['defense']})"
    if rec.get("real") is False:
        line += " [not a real card]"
    return line


def _keyword(k: Any) -> str:
    if isinstance(k, str):
        return k
    ((name, arg),) = k.items()
    if name == "protection":
        return "protection from " + "/".join(_list(arg))
    return f"{name} {arg}"


def _ability(card: str, kind: str, body: Any) -> str:
    if kind == "static":
        return _static(body)
    if kind == "enters" and body.get("day_if_neither"):
        return f"If it's neither day nor night, it becomes day as {card} enters."
    if kind == "enters":
        parts = []
        if body.get("tapped"):
            parts.append("tapped")
        for k, n in (body.get("counters") or {}).items():
            parts.append(f"with {n} {k} counter{'s' if n != 1 else ''}")
        return f"{card} enters " + " and ".join(parts) + "."
    if kind == "mana":
        return f"{_cost(body.get('cost'))}: Add {_mana(body.get('add'))}."
    text = _effects_text(body, card)
    if kind == "spell":
        return text
    if kind == "activated" and body.get("granted_to"):
        inner = dict(body, granted_to=None)
        return f'{body["granted_to"].capitalize()} creature has "{_ability(card, kind, inner)}"'
    if kind == "activated":
        t = f"{_cost(body.get('cost'))}: {text}"
        if body.get("timing") == "sorcery":
            t += " Activate only as a sorcery."
        if body.get("once_per_turn"):
            t += " Activate only once each turn."
        if body.get("zone") and body["zone"] != "battlefield":
            t += f" (Works from your {body['zone']}.)"
        return t
    if kind == "loyalty":
        n = body.get("amount", 0)
        return f"{'+' if n > 0 else ''}{n}: {text}"
    if kind == "triggered":
        cond = f", if {_cond(body['if'])}," if "if" in body else ","
        may = " you may" if body.get("optional") else ""
        t = f"{_when(body.get('when', {}))}{cond}{may} {text[0].lower() + text[1:] if text else ''}"
        return t.replace(",,", ",")
    return text


def _effects_text(body: dict, card: str = "this") -> str:
    out = []
    if "modes" in body:
        n = body.get("choose", 1)
        who = "An opponent chooses" if body.get("chosen_by") == "opponent" else "Choose"
        modes = []
        for m in _list(body["modes"]):
            if isinstance(m, list):
                m = {"effects": m}
            modes.append(_effects_text(m, card).rstrip("."))
        return f"{who} {_num(n)} — " + "; or ".join(modes)
    targets = _list(body.get("targets"))
    names = _target_names(targets)
    for step in _list(body.get("effects")):
        out.append(_step(step, names, card))
    text = " ".join(s for s in out if s)
    if body.get("opponent_chooses"):
        text = "(You name an opponent to make its choices.) " + text
    return text


def _target_names(targets: list) -> list[str]:
    names = []
    for spec in targets:
        extra = ""
        count = 1
        up_to = False
        if isinstance(spec, dict) and ("filter" in spec or "count" in spec or "chosen_by" in spec):
            count = spec.get("count", 1)
            up_to = spec.get("up_to", False)
            if spec.get("chosen_by") == "opponent":
                extra = " of an opponent's choice"
            spec = spec.get("filter", spec.get("kind", "any"))
        f = _filter(spec)
        if f == "any target":
            names.append("any target" + extra)
            continue
        if count > 1:
            names.append(f"{'up to ' if up_to else ''}{_num(count)} target {_plural(f)}{extra}")
        else:
            names.append(f"{'up to one ' if up_to else ''}target {f}{extra}")
    return names


def _plural(f: str) -> str:
    return f if f.endswith("s") else f + "s"


def _num(n: Any) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
    return words.get(n, str(n)) if isinstance(n, int) else str(n)


def _ref(v: Any, names: list[str]) -> str:
    if isinstance(v, str):
        if v == "target":
            return names[0] if names else "the target"
        if v.startswith("target."):
            k = int(v.split(".")[1])
            return names[k] if k < len(names) else v
        simple = {
            "you": "you", "controller": "you", "self": "it", "it": "it", "chosen": "the chosen one",
            "enchanted": "enchanted creature", "equipped": "equipped creature",
            "event.player": "that player", "event.object": "that object",
            "event.controller": "its controller", "defending_player": "the defending player",
            "sacrificed": "the sacrificed permanent", "each_player": "each player",
            "each_opponent": "each opponent", "each_other_player": "each other player",
            "each_teammate": "each teammate", "player_to_your_left": "the player to your left",
            "player_to_your_right": "the player to your right", "active_player": "the active player",
            "creatures_you_control": "each creature you control", "each_creature": "each creature",
            "all_chosen": "each chosen one",
        }  # fmt: skip
        return simple.get(v, v)
    if isinstance(v, dict):
        ((k, arg),) = v.items()
        if k == "each":
            return "each " + _filter(arg)
        if k == "controller_of":
            return f"the controller of {_ref(arg, names)}"
        if k == "owner_of":
            return f"the owner of {_ref(arg, names)}"
    return str(v)


def _amount(v: Any) -> str:
    if isinstance(v, dict):
        v = dict(v)
        times = v.pop("times", 1)
        plus = v.pop("plus", 0)
        on = v.pop("what", None)
        ((k, arg),) = v.items()
        base = {
            "count": lambda: f"the number of {_plural(_filter(arg))}",
            "power": lambda: f"the power of {_ref(arg, [])}",
            "toughness": lambda: f"the toughness of {_ref(arg, [])}",
            "mana_value": lambda: f"the mana value of {_ref(arg, [])}",
            "life": lambda: f"the life total of {_ref(arg, [])}",
            "half_life": lambda: f"half the life total of {_ref(arg, [])}, rounded up",
            "counters": lambda: f"the number of {arg} counters on {_ref(on or 'self', [])}",
            "event_amount": lambda: "that much",
            "mana_spent": lambda: "the mana spent to cast it",
        }.get(k, lambda: str(arg))()
        if times != 1:
            base = f"{times} times {base}"
        if plus:
            base += f" plus {plus}"
        return base
    if v == "event.amount":
        return "that much"
    return str(v)


def _step(step: dict, names: list[str], card: str = "this") -> str:  # noqa: C901 (one branch per word)
    ((verb, a),) = step.items()
    args = a if isinstance(a, dict) else {}
    r = lambda key, default: _ref(args.get(key, default), names)  # noqa: E731
    amt = _amount(args.get("amount", args.get("count", 1))) if isinstance(a, dict) else _amount(a)
    if verb == "damage":
        return f"{card} deals {amt} damage to {r('to', 'target')}."
    if verb in ("gain_life", "lose_life"):
        return f"{r('who', 'you').capitalize()} {'gain' if verb == 'gain_life' else 'lose'}s {amt} life.".replace(
            "You gains", "You gain"
        ).replace("You loses", "You lose")
    if verb == "draw":
        who = r("who", "you")
        return f"{who.capitalize()} draw{'' if who == 'you' else 's'} {amt} card{'s' if amt != '1' else ''}."
    if verb == "discard":
        how = " at random" if args.get("random") else ""
        what = "their hand" if args.get("all") else f"{amt} card{'s' if amt != '1' else ''}"
        return f"{r('who', 'you').capitalize()} discards {what}{how}."
    if verb == "mill":
        return f"{r('who', 'you').capitalize()} mills {amt} cards."
    if verb in ("scry", "surveil"):
        return f"{verb.capitalize()} {_amount(a if not isinstance(a, dict) else a['amount'])}."
    if verb in ("look_at_top", "reveal_top"):
        n = _amount(args.get("amount", a))
        pick = args.get("pick", 0)
        t = f"{'Look at' if verb == 'look_at_top' else 'Reveal'} the top {n} cards of your library."
        if pick:
            t += f" Put up to {_num(pick)} {_filter(args.get('filter', 'card'))} among them into your {args.get('to', 'hand')}"
        t += f"; the rest go {'on the bottom' if args.get('rest', 'bottom') == 'bottom' else 'to ' + args.get('rest', 'bottom')}."
        return t
    if verb == "search":
        to = " and ".join(_list(args.get("to", "hand")))
        tapped = " tapped" if args.get("tapped") else ""
        n = args.get("amount", 1)
        return (f"Search your library for {'up to ' + _num(n) if n != 1 else 'a'} "
                f"{_filter(args.get('filter', a))}, put {'them' if n != 1 else 'it'} "
                f"onto your {to}{tapped}, then shuffle.")  # fmt: skip
    # 726-729 words
    if verb == "exile" and args.get("until") == "leaves":
        return f"Exile {r('what', 'target')} until {card} leaves the battlefield."
    if verb == "add_mana" and "one_of" in args:
        keep = (
            " Until end of turn, you don't lose this mana as steps end." if args.get("keep") else ""
        )
        return f"Add {_mana({'one_of': args['one_of']})}.{keep}"
    if verb == "day_night":
        b = args.get("becomes", a)
        return ("If it's night, it becomes day; otherwise it becomes night." if b == "toggle"
                else f"It becomes {b}.")  # fmt: skip
    if verb == "subgame":
        return "The players play a Magic subgame, using their libraries as their decks."
    if verb == "wish":
        f = _filter(args.get("filter", a))
        return f"You may put a {f} you own from outside the game into your hand."
    if verb == "exile_until":
        to = {"hand": "into your hand", "battlefield": "onto the battlefield",
              "battlefield_or_hand": "onto the battlefield or into your hand"}[args.get("to", "hand")]  # fmt: skip
        return (f"Exile cards from the top of your library until you exile a "
                f"{_filter(args.get('filter', a))} card; put it {to}.")  # fmt: skip
    if verb == "lose_keywords":
        kws = ", ".join(_list(args.get("keywords")))
        return f"{r('what', 'target').capitalize()} loses {kws} until end of turn."
    if verb == "must_attack":
        return f"{r('what', 'target').capitalize()} attacks this turn if able."
    if verb in ("destroy", "exile", "tap", "untap", "regenerate", "transform"):
        return f"{verb.capitalize()} {_ref(args.get('what', a) if args else a, names)}."
    if verb == "bounce":
        return f"Return {_ref(args.get('what', a) if args else a, names)} to its owner's hand."
    if verb == "to_library":
        pos = args.get("position", "top")
        where = (
            "shuffle it into its owner's library"
            if pos == "shuffle"
            else f"put it on the {pos} of its owner's library"
        )
        return f"Take {r('what', 'target')} and {where}."
    if verb == "return":
        return f"Return {r('what', 'target')} to {'the battlefield' if args.get('to') == 'battlefield' else 'its owner’s hand'}."
    if verb == "counter":
        unless = (
            f" unless its controller pays {_amount(args['unless_pays'])}"
            if "unless_pays" in args
            else ""
        )
        return f"Counter {r('what', 'target')}{unless}."
    if verb == "create_token":
        tok = args.get("token", a)
        tok = tok if isinstance(tok, str) else " ".join(_list(tok.get("subtypes")))
        return f"{r('for', 'you').capitalize()} creates {amt} {tok} token{'s' if amt != '1' else ''}.".replace(
            "You creates", "You create"
        )
    if verb == "add_mana":
        return f"Add {args.get('mana', a)}."
    if verb == "counters":
        n = args.get("amount", 1)
        verb_ = "Put" if n >= 0 else "Remove"
        return f"{verb_} {abs(n)} {args.get('kind')} counter{'s' if abs(n) != 1 else ''} {'on' if n >= 0 else 'from'} {r('what', 'self')}."
    if verb == "proliferate":
        return "Proliferate."
    if verb in ("pump", "grant", "set_base_pt", "animate"):
        what = r("what", "target")
        kws = ", ".join(_list(args.get("keywords")))
        until = args.get("until", "end_of_turn").replace("_", " ")
        parts = []
        if verb == "pump" and (args.get("power") or args.get("toughness")):
            parts.append(f"gets {args.get('power', 0):+d}/{args.get('toughness', 0):+d}")
        if verb in ("set_base_pt", "animate"):
            types = " ".join(_list(args.get("types")))
            parts.append(f"becomes a {args.get('power')}/{args.get('toughness')} {types}".rstrip())
        if kws:
            parts.append(f"gains {kws}")
        return f"{what.capitalize()} {' and '.join(parts)} until {until}."
    if verb == "gain_control":
        until = f" until {args['until'].replace('_', ' ')}" if "until" in args else ""
        return f"Gain control of {r('what', 'target')}{until}."
    if verb == "sacrifice":
        return f"{r('who', 'you').capitalize()} sacrifices {amt} {_filter(args.get('filter', 'creature'))}."
    if verb == "fight":
        return f"{r('what', 'target').capitalize()} fights {r('with', 'target')}."
    if verb == "attach":
        return f"Attach {r('what', 'self')} to {r('to', 'target')}."
    if verb in ("extra_turn",):
        return f"{r('who', 'you').capitalize()} takes an extra turn after this one."
    if verb in ("win_game", "lose_game", "win", "lose"):
        return f"{r('who', 'you').capitalize()} {'win' if 'win' in verb else 'lose'}s the game.".replace(
            "You wins", "You win"
        ).replace("You loses", "You lose")
    if verb == "draw_game":
        return "The game is a draw."
    if verb == "double_life":
        return f"Double {r('who', 'target')}'s life total."
    if verb == "life_becomes_lowest":
        return "Each player's life total becomes the lowest life total among all players."
    if verb == "exchange_life":
        return (
            f"{r('who', 'target.0').capitalize()} and {r('with', 'target.1')} exchange life totals."
        )
    if verb == "prevent":
        n = args.get("amount")
        combat = " combat" if args.get("combat") else ""
        to = f" to {r('to', 'target')}" if "to" in args else ""
        return (f"Prevent all{combat} damage that would be dealt{to} this turn." if n == "all"
                else f"Prevent the next {n}{combat} damage that would be dealt{to} this turn.")  # fmt: skip
    if verb == "sacrifice_unless_life":
        return f"For each creature, its controller sacrifices it unless they pay {amt} life."
    if verb in ("fact_or_fiction", "piles"):
        return (f"Reveal the top {_amount(args.get('amount', a))} cards of your library; an opponent "
                "separates them into two piles; put one pile into your hand and the other into your graveyard.")  # fmt: skip
    if verb in ("may", "unless"):
        inner = " ".join(_step(s, names, card) for s in _list(args.get("effects")))
        inner = inner[0].lower() + inner[1:] if inner else inner
        if verb == "may":
            pay = args.get("pay", args.get("pay_life"))
            cost = (
                f"pay {_amount(pay)}{' life' if 'pay_life' in args else ''}. If you do, "
                if pay is not None
                else ""
            )
            if isinstance(pay, str) and pay.startswith("{"):
                cost = f"pay {pay}. If you do, "
            return f"{r('who', 'you').capitalize()} may {cost}{inner}"
        return f"{inner[:-1]} unless {r('who', 'target')} pays {_amount(args.get('pays', args.get('pay')))}."
    if verb == "if":
        then = " ".join(_step(s, names, card) for s in _list(args.get("then")))
        out = f"If {_cond(args.get('cond'))}, {then[0].lower() + then[1:] if then else ''}"
        if args.get("else"):
            out += " Otherwise, " + " ".join(_step(s, names, card) for s in _list(args["else"]))
        return out
    if verb == "for_each":
        inner = " ".join(_step(s, names, card) for s in _list(args.get("effects")))
        return f"For each of {_ref(args.get('in'), names)}: {inner}"
    if verb in ("choose", "put_land", "put_onto_battlefield", "exile_from_hand"):
        f = _filter(args.get("filter", "card"))
        who = r("who", "you")
        return {
            "choose": f"{who.capitalize()} chooses {amt} {f}.",
            "put_land": f"{who.capitalize()} may put a {f} from their hand onto the battlefield.",
            "put_onto_battlefield": f"{who.capitalize()} may put a {f} from their hand onto the battlefield.",
            "exile_from_hand": f"{who.capitalize()} exiles a card from their hand.",
        }[verb]
    if verb == "shuffle":
        return f"{r('who', 'you').capitalize()} shuffles their library."
    return f"{verb.replace('_', ' ').capitalize()}."


def _filter(f: Any) -> str:
    words = {
        "any": "any target", "player_or_planeswalker": "player or planeswalker",
        "nonland_permanent": "nonland permanent", "basic_land": "basic land card",
        "creature_or_planeswalker": "creature or planeswalker",
        "artifact_or_enchantment": "artifact or enchantment", "instant_or_sorcery": "instant or sorcery spell",
        "creature_you_control": "creature you control",
    }  # fmt: skip
    if isinstance(f, str):
        return words.get(f, f)
    if not isinstance(f, dict):
        return str(f)
    parts = []
    if f.get("another"):
        parts.append("other")
    if f.get("tapped") is True:
        parts.append("tapped")
    if f.get("tapped") is False:
        parts.append("untapped")
    if f.get("token") is False:
        parts.append("nontoken")
    if "color" in f:
        parts.append("/".join(_list(f["color"])))
    if "not_color" in f:
        parts.append("non-" + "/".join(_list(f["not_color"])))
    if "supertype" in f:
        parts.append(" or ".join(_list(f["supertype"])).lower())
    if "not_supertype" in f:
        parts.append("non" + "/".join(_list(f["not_supertype"])).lower())
    if "subtype" in f:
        parts.append(" or ".join(_list(f["subtype"])))
    if "not_type" in f:
        parts.append("non" + "/".join(_list(f["not_type"])).lower())
    noun = " or ".join(_list(f.get("type"))).lower() or (
        "player" if f.get("what") == "players" else "permanent"
    )
    if f.get("zone") not in (None, "battlefield", "stack", "any"):
        noun += f" card in a {f['zone']}"
    elif f.get("zone") == "stack":
        noun += " spell"
    parts.append(noun)
    text = " ".join(parts)
    ctl = f.get("controller", f.get("player"))
    if ctl == "you":
        text += " you control" if f.get("what") != "players" else ""
    elif ctl in ("opponent", "opponents"):
        text += " an opponent controls" if f.get("what") != "players" else ""
        if f.get("what") == "players":
            text = "opponent"
    for key in ("power", "toughness", "mv"):
        if key in f:
            ((op, n),) = f[key].items()
            text += f" with {'mana value' if key == 'mv' else key} {({'le': '≤', 'ge': '≥', 'eq': '='})[op]} {_amount(n)}"
    return text


def _cond(c: Any) -> str:
    if not isinstance(c, dict):
        return str(c)
    ((k, arg),) = c.items()
    return {
        "life_at_least": f"you have {arg} or more life",
        "self_untapped": "this is untapped",
        "kicked": "it was kicked",
        "day": "it's day",
        "night": "it's night",
        "monarch": "you're the monarch",
    }.get(k, f"{k.replace('_', ' ')} {_filter(arg) if isinstance(arg, (dict, str)) else arg}")


def _when(w: dict) -> str:
    ev = w.get("event")
    what = w.get("what")
    names = {"self": "this", "enchanted": "enchanted creature", "equipped": "equipped creature"}
    if isinstance(what, str) and what in names:
        subject = names[what]
    else:
        subject = ("a " + _filter(what)) if what else "it"
    who = w.get("who", w.get("whose"))
    if ev == "beginning_of":
        owner = {
            None: "your",
            "you": "your",
            "each": "each",
            "any": "each",
            "opponent": "each opponent's",
        }[who]
        return f"At the beginning of {owner} {w.get('step', '').replace('_', ' ')}"
    phrases = {
        "enters": f"Whenever {subject} enters",
        "dies": f"Whenever {subject} dies",
        "leaves": f"Whenever {subject} leaves the battlefield",
        "attacks": f"Whenever {subject} attacks",
        "blocks": f"Whenever {subject} blocks",
        "becomes_blocked": f"Whenever {subject} becomes blocked{' by a creature' if w.get('by_creature') else ''}",
        "deals_damage": f"Whenever {subject} deals {'combat ' if w.get('combat') else ''}damage{' to ' + ('an opponent' if w.get('to') == 'opponent' else 'a ' + w['to']) if w.get('to', 'any') != 'any' else ''}",
        "cast": f"Whenever {'you' if who in (None, 'you') else 'an opponent' if who == 'opponent' else 'a player'} cast{'s' if who not in (None, 'you') else ''} {('a ' + _filter(what)) if what else 'a spell'}",
        "draws": f"Whenever {'you draw' if who in (None, 'you') else 'an opponent draws'} a {ORDINAL.get(max(0, w.get('nth', 0) - 1), '')}card",
        "gains_life": "Whenever you gain life"
        if who in (None, "you")
        else "Whenever a player gains life",
        "loses_life": "Whenever you lose life"
        if who in (None, "you")
        else "Whenever a player loses life",
        "life_at_least": f"When you have {w.get('amount')} or more life",
        "last_counter_removed": f"When the last {w.get('kind')} counter is removed from this",
        "mutates": "Whenever this creature mutates",
        "transforms": f"When this transforms{' into its ' + w['into'] + ' face' if 'into' in w else ''}",
        "day_night": {
            "day": "Whenever night becomes day",
            "night": "Whenever day becomes night",
        }.get(w.get("becomes"), "Whenever day becomes night or night becomes day"),
    }
    return phrases.get(ev, f"Whenever {ev.replace('_', ' ')}")


def _static(body: dict) -> str:
    body = dict(body)
    zone = body.pop("zone", None)
    cond = body.pop("if", None)
    ((k, arg),) = body.items()
    fixed = {
        "cant_lose": "You can't lose the game.",
        "cant_win": "Your opponents can't win the game.",
        "cant_gain_life": "You can't gain life.",
        "cant_lose_life": "You can't lose life.",
        "no_loss_at_zero_life": "You don't lose the game for having 0 or less life.",
        "no_max_hand_size": "You have no maximum hand size.",
        "coat_of_arms": "Each creature gets +1/+1 for each other creature on the battlefield that shares a creature type with it.",
        "control": "You control enchanted creature.",
    }
    text = fixed.get(k)
    if k == "mana_doesnt_empty":
        text = f"{arg} mana doesn't empty from your mana pool as steps and phases end."
    elif k in ("cant_attack", "cant_block"):
        text = f"{_ref(arg, []).capitalize()} can't {k[5:]}."
    elif k == "doesnt_untap":
        text = f"{_plural(_filter(arg)).capitalize()} don't untap during their controllers' untap steps."
    elif k == "prevent_damage_by":
        text = f"Prevent all damage that would be dealt by {_plural(_filter(arg))}."
    if text is None and k in ("pump", "grant"):
        what = arg.get("what")
        who = (
            _ref(what, []) if what in ("self", "enchanted", "equipped") else _plural(_filter(what))
        )
        parts = []
        if arg.get("power") or arg.get("toughness"):
            parts.append(
                f"get{'s' if what in ('self', 'enchanted', 'equipped') else ''} {arg.get('power', 0):+d}/{arg.get('toughness', 0):+d}"
            )
        if arg.get("keywords"):
            parts.append(
                f"{'has' if what in ('self', 'enchanted', 'equipped') else 'have'} {', '.join(_list(arg['keywords']))}"
            )
        text = f"{who.capitalize()} {' and '.join(parts)}."
    if text is None and k == "cost":
        n = arg.get("less", arg.get("more"))
        text = f"{_filter(arg.get('spells')).capitalize()} spells you cast cost {{{_amount(n)}}} {'less' if 'less' in arg else 'more'} to cast."
    text = text or f"{k.replace('_', ' ').capitalize()}."
    if cond is not None:
        text = f"As long as {_cond(cond)}, {text[0].lower() + text[1:]}"
    if zone and zone != "battlefield":
        text += f" (Works from the {zone} zone.)"
    return text


def _cost(c: Any) -> str:
    if isinstance(c, dict):
        parts = []
        if c.get("mana"):
            parts.append(c["mana"])
        if c.get("tap"):
            parts.append("{T}")
        if c.get("sacrifice"):
            parts.append(
                "Sacrifice "
                + ("this" if c["sacrifice"] == "self" else "a " + _filter(c["sacrifice"]))
            )
        if "life" in c:
            parts.append(
                "Pay half your life, rounded up" if c["life"] == "half" else f"Pay {c['life']} life"
            )
        if "remove_counters" in c:
            ((kind, n),) = c["remove_counters"].items()
            parts.append(f"Remove {n} {kind} counter{'s' if n != 1 else ''}")
        return ", ".join(parts)
    return str(c or "")


def _mana(add: Any) -> str:
    if isinstance(add, str):
        return add
    ((k, v),) = add.items()
    if k == "one_of":
        return f"one mana of {' or '.join('{' + str(c) + '}' for c in _list(v))}"
    return {
        "any": f"{_num(v)} mana of any one colour",
        "commander_identity": "one mana of any colour in your commander's colour identity",
        "land_could_produce": "one mana of any type that a land an opponent controls could produce",
    }.get(k, str(add))
