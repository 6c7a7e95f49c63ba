"""The smoke check of one card (tests/test_card_pool.py): a two-player position rich
enough for any card to find what it needs (creatures, artifacts, enchantments,
planeswalkers and lands on both sides, cards in every graveyard, hand and library,
mana of every colour); the card is played or cast with the engine's default choices,
everything resolves, and the game must show an effect: the card on the battlefield,
or for an instant or sorcery a change somewhere in the state (a life total, a card
that moved, counters, power, a continuous effect, a shield, an extra turn, mana).
Counterspells are cast at a spell the opponent casts first. Then each activated
ability of a permanent is activated once if it can be, and resolves without error."""

from __future__ import annotations

from typing import Any

from components import game as G
from components import objects as O
from ecs.cards import CardDB
from ecs.engine import IllegalAction
from ecs.scenario import Scenario, ScenarioFailure, build_game, run_action, validate

LANDS = [{"card": c, "count": 4} for c in ("Plains", "Island", "Swamp", "Mountain", "Forest")]
OWN_PERMANENTS = ["Raging Goblin", "Llanowar Elves", "Vampire Nighthawk", "Grizzly Bears",
                  "Mind Stone", "Glorious Anthem"]  # fmt: skip
THEIR_PERMANENTS = ["Serra Angel", "Runeclaw Bear", "Goblin Raiders", "Sol Ring",
                    "Intangible Virtue", "Garruk Wildspeaker", "Plains", "Island"]  # fmt: skip
LIBRARY = ["Forest", "Grizzly Bears", "Plains", "Island", "Lightning Bolt", "Swamp",
           "Mountain", "Goblin Raiders", "Vampire Nighthawk", "Llanowar Elves", "Forest",
           "Serra Angel", "Divination", "Mind Stone", "Craw Wurm", "Forest", "Island"]  # fmt: skip
GRAVEYARD = ["Craw Wurm", "Lightning Bolt", "Mind Stone", "Forest", "Llanowar Elves"]
THEIR_HAND = ["Lightning Bolt", "Murder", "Forest", "Divination"]
# spells the opponent casts first, for a counterspell to target (the first it can)
BAITS = ["Craw Wurm", "Divination", "Glorious Anthem", "Opt"]


def position(card: str, db: CardDB, bait: str | None = None) -> dict:
    """A scenario (as a mapping) in which Alex holds ``card`` in precombat main."""
    alex_hand = [{"card": card, "id": "smoke-card"}]
    bianca = {
        "name": "Bianca",
        "life": 17,  # (life totals differ: "becomes the lowest" has something to do)
        "hand": list(THEIR_HAND) + ([{"card": bait, "id": "smoke-bait"}] if bait else []),
        "library": list(LIBRARY),
        "graveyard": list(GRAVEYARD),
        "battlefield": list(THEIR_PERMANENTS) + (LANDS if bait else []),
    }
    return {
        "name": f"smoke: {card}",
        "game": {"variant": "two-player", "seed": 1},
        "players": [
            {
                "name": "Alex",
                "hand": alex_hand,
                "library": list(LIBRARY),
                "graveyard": list(GRAVEYARD),
                "battlefield": [*LANDS, *OWN_PERMANENTS],
            },
            bianca,
        ],  # fmt: skip
        "start": {"active": "Bianca" if bait else "Alex", "step": "precombat-main", "turn": 3},
    }


def _signature(sc: Scenario, card: str) -> dict[str, Any]:
    """What counts as an effect: the state view (the card itself and the mana pools
    aside), plus the engine's tables a view doesn't show (continuous effects, shields,
    extra turns, delayed triggers)."""
    g = sc.game
    view = g.view(refs=sc.refs)
    sig: dict[str, Any] = {}
    for name, p in view["players"].items():
        for k, v in p.items():
            if k in ("mana", "range", "attackable", "seat", "hand_size"):
                continue
            if isinstance(v, list):
                v = sorted(str(x) for x in v if x != card)
            sig[f"{name}.{k}"] = repr(v)
    for ref, c in view["cards"].items():
        sig[f"card.{ref}"] = repr({k: v for k, v in c.items() if k != "tapped"})
    s = g.v.s
    for f in (G.S_NEFF, G.S_NSH, G.S_NXT, G.S_NDL, G.S_NCZ, G.S_MONARCH, G.S_DAY_NIGHT):
        sig[f"s{f}"] = int(s[f])
    return sig


def _changed(before: dict, after: dict, card: str) -> list[str]:
    keys = set(before) | set(after)
    return sorted(
        k for k in keys if before.get(k) != after.get(k) and card not in k and "smoke-card" not in k
    )


def smoke(card: str, db: CardDB, tmp: str) -> str:
    """Play ``card``; returns "" when it works, else what went wrong."""
    rec = db.get(card).record
    types = rec.get("types") or []
    land = "Land" in types
    counterspell = _is_counterspell(rec)
    for b in BAITS if counterspell else [None]:
        sc = _game(card, db, tmp, b)
        if b is not None:
            try:  # the opponent casts the bait; Alex gets priority with it on the stack
                run_action(sc, {"player": "Bianca", "cast": "smoke-bait"})
                run_action(sc, {"player": "Bianca", "pass": True})
            except (IllegalAction, ScenarioFailure):
                continue
        before = _signature(sc, card)
        err = _play(sc, card, land)
        if err:
            if b is not None:
                continue
            return err
        break
    else:
        return "no spell on the stack it could counter"
    err = _resolve(sc)
    if err:
        return err
    g = sc.game
    i = sc.refs_by_id["smoke-card"]
    zone = int(g.v.o[i, O.F_ZONE])
    permanent = any(t in types for t in ("Creature", "Artifact", "Enchantment", "Planeswalker",
                                         "Land", "Battle"))  # fmt: skip
    if permanent:
        if zone != 2 and not _left_on_purpose(sc, i):
            return f"didn't enter the battlefield (zone {zone})"
    else:
        if not _changed(before, _signature(sc, card), card):
            return "resolved with no visible effect"
    if permanent and zone == 2:
        return _activate_all(sc, i)
    return ""


def _play(sc: Scenario, card: str, land: bool) -> str:
    """Alex plays or casts the card, taking the engine's first option for every choice
    of the cast (modes, X: 2 when it has one, targets)."""
    from components.decisions import A_CAST, A_LAND, AC_ARG, AC_KIND, AC_OBJ

    g = sc.game
    i = sc.refs_by_id["smoke-card"]
    want = A_LAND if land else A_CAST
    rows = g.v.acts[: g.n_actions()]
    k = next((k for k, r in enumerate(rows) if r[AC_KIND] == want and r[AC_OBJ] == i), None)
    if k is None:
        return f"can't be {'played' if land else 'cast'} (not among {len(rows)} options)"
    g.step(k)
    for _ in range(50):
        if g.v.s[G.S_CASTING] < 0:
            break
        if g.pending()[0] == "x":
            opts = g.v.acts[: g.n_actions()]
            j = next((j for j, r in enumerate(opts) if r[AC_ARG] == 2), 0)
            g.step(j)
        else:
            g.step(0)
    return ""


def _is_counterspell(rec: dict) -> bool:
    return "counter:" in str(rec.get("abilities")) or "'counter'" in str(rec.get("abilities"))


def _game(card: str, db: CardDB, tmp: str, bait: str | None) -> Scenario:
    data = position(card, db, bait)
    path = f"{tmp}/{card}.yaml"
    validate(path, data, db)
    sc = Scenario(path, data["name"], data)
    build_game(sc, db)
    return sc


def _resolve(sc: Scenario) -> str:
    try:
        run_action(sc, {"resolve": "all"})
    except (IllegalAction, ScenarioFailure) as e:
        return f"didn't resolve: {e}"
    if sc.game.error:
        return f"engine error {sc.game.error}"
    return ""


def _left_on_purpose(sc: Scenario, i: int | None) -> bool:
    """A permanent may leave at once by its own rules (a 0/0 without counters, an
    unearth-like effect): it was on the battlefield if it isn't in the hand/library."""
    if i is None:
        return False
    return int(sc.game.v.o[i, O.F_ZONE]) in (3, 4, 7)


def _activate_all(sc: Scenario, i: int) -> str:
    """Activate each of the permanent's activated abilities once (when it can be)."""
    g = sc.game
    rows = g.compiled.tables.rows
    c = int(g.v.o[i, O.F_CARD])
    from components import cards as K

    ct = rows["ct"][c]
    n = sum(1 for a in range(ct[K.C_AB0], ct[K.C_AB0] + ct[K.C_NAB])
            if rows["ab"][a][K.B_KIND] in (K.AB_ACTIVATED, K.AB_LOYALTY, K.AB_EQUIP, K.AB_MANA))  # fmt: skip
    name = sc.refs.get(i) or g.card_name(i)
    for k in range(n):
        if int(g.v.o[i, O.F_ZONE]) != 2 or g.over:
            break
        snap = g.arena.copy()
        try:
            run_action(sc, {"player": "Alex", "activate": name, "ability": k})
        except (IllegalAction, ScenarioFailure):
            g.arena[:] = snap
            g.refresh()
            continue
        err = _resolve(sc)
        if err:
            return f"ability {k}: {err}"
    return ""
