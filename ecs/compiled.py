"""The compiled engine from Python: compile cards to opcode tables, export games to
arrays, play batches of games with random agents in ``systems/compiled_game.py``.

    from ecs.compiled import play_compiled
    res = play_compiled(decks, players=4, games=1000, seed=1)   # dict of arrays

Which games run compiled: two-player and free-for-all with no range limit and the
default "attack multiple players" option, random agents, no mulligans, every card
in :func:`compile_cards`'s vocabulary (the whole stock pool). ``supports`` says
whether a configuration qualifies and, if not, why; ``melee simulate`` falls back to
the Python engine then. Each game starts from a Python :class:`Game` built by
``Game.new`` (seating, shuffles, opening hands), so both engines begin alike.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ecs.constants import (
    ATTACK_OPTION,
    C_INTERVENTION,
    C_LOYALTY,
    C_M1M1,
    C_P1P1,
    KW,
    STACK,
    T_CREATURE,
)
from ecs.legacy.cards import CardDB, load_cards
from ecs.legacy.systems import compiled_game as k
from ecs.legacy.systems.variants import VARIANTS, turn_cap

TARGET_KINDS = {
    "any": k.K_ANY,
    "creature": k.K_CREATURE,
    "player": k.K_PLAYER,
    "opponent": k.K_OPPONENT,
    "player_or_planeswalker": k.K_PW_OR_PLAYER,
    "land": k.K_LAND,
    "creature_you_control": k.K_CREATURE_YOURS,
}
REFS = {
    "target.0": k.R_T0,
    "target.1": k.R_T1,
    "controller": k.R_CTL,
    "self": k.R_SELF,
    "event.player": k.R_EVP,
    "event.controller": k.R_EVC,
    "each_creature": k.R_EACH_CREATURE,
    "creatures_you_control": k.R_YOURS,
    "each_player": k.R_EACH_PLAYER,
    "each_opponent": k.R_EACH_OPP,
}
WHEN = {
    "deals_damage_to_opponent": k.W_DMG_OPP,
    "nontoken_creature_enters": k.W_NONTOKEN_ENTERS,
    "your_upkeep": k.W_UPKEEP,
    "last_counter_removed": k.W_LAST_COUNTER,
    "life_at_least": k.W_LIFE_AT_LEAST,
    "you_lose_life": k.W_YOU_LOSE_LIFE,
}
LAND_SUBTYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")


class Unsupported(ValueError):
    """A card or option outside the compiled engine's vocabulary."""


def _ref(v: Any, where: str) -> int:
    if v not in REFS:
        raise Unsupported(f"{where}: reference {v!r}")
    return REFS[v]


def _amount(v: Any, where: str) -> int:
    if isinstance(v, int) and v >= 0:
        return v
    if v == "event.amount":
        return k.AMT_EVENT
    raise Unsupported(f"{where}: amount {v!r}")


def _kw(names, where: str) -> int:
    return sum(KW[n] for n in names)


# effects whose argument is just who or what they apply to: one opcode row each
_REF_ONLY = {
    "destroy": k.OP_DESTROY, "gain_control": k.OP_GAIN_CONTROL, "untap": k.OP_UNTAP,
    "extra_turn": k.OP_EXTRA_TURN, "double_life": k.OP_DOUBLE_LIFE,
    "discard_random": k.OP_DISCARD_RANDOM, "win_game": k.OP_WIN, "lose_game": k.OP_LOSE,
}  # fmt: skip


def _effect_rows(effects, db: CardDB, where: str) -> list[list[int]]:
    rows = []
    for name, a in effects:
        w = f"{where}: {name}"
        if name in _REF_ONLY:
            rows.append([_REF_ONLY[name], _ref(a, w), 0, 0, 0, 0])
        elif name == "damage":
            rows.append([k.OP_DAMAGE, _ref(a["to"], w), _amount(a["amount"], w), 0, 0, 0])
        elif name == "prevent":
            amt = -1 if a.get("amount") == "all" else _amount(a["amount"], w)
            ref = _ref(a["to"], w) if "to" in a else k.R_NONE
            rows.append([k.OP_PREVENT, ref, amt, int(bool(a.get("combat"))), 0, 0])
        elif name == "draw":
            who = _ref(a.get("who", "controller"), w)
            rows.append([k.OP_DRAW, who, _amount(a.get("count", 1), w), 0, 0, 0])
        elif name == "pump":
            kw = _kw(a.get("keywords", []), w)
            rows.append(
                [k.OP_PUMP, _ref(a["to"], w), 0, a.get("power", 0), a.get("toughness", 0), kw]
            )
        elif name == "life_becomes_lowest":
            rows.append([k.OP_LIFE_LOWEST, k.R_NONE, 0, 0, 0, 0])
        elif name == "shuffle_into_library" and a == "self":
            rows.append([k.OP_SHUFFLE_SELF, k.R_SELF, 0, 0, 0, 0])
        elif name == "create_token":
            from ecs.legacy.cards import token_name

            who = a.get("for", "controller")
            rows.append([k.OP_CREATE_TOKEN, _ref(who, w), 0, db.index(token_name(a)), 0, 0])
        elif name == "draw_game":
            rows.append([k.OP_DRAW_GAME, k.R_NONE, 0, 0, 0, 0])
        elif name == "remove_counter" and a.get("kind") == "intervention":
            rows.append([k.OP_REMOVE_COUNTER, _ref(a.get("from", "self"), w), 0, 0, 0, 0])
        elif name in ("gain_life", "lose_life"):
            op = k.OP_GAIN_LIFE if name == "gain_life" else k.OP_LOSE_LIFE
            who = _ref(a.get("who", "controller"), w)
            rows.append([op, who, _amount(a["amount"], w), a.get("times", 1), 0, 0])
        else:
            raise Unsupported(f"{w}")
    return rows


def _targets(kinds, where: str) -> tuple[int, int, int]:
    if len(kinds) > 2:
        raise Unsupported(f"{where}: more than two targets")
    ks = []
    for t in kinds:
        if t not in TARGET_KINDS:
            raise Unsupported(f"{where}: target kind {t!r}")
        ks.append(TARGET_KINDS[t])
    ks += [0, 0]
    return len(kinds), ks[0], ks[1]


STATICS = {
    ("control", "enchanted"): k.ST_CONTROL,
    ("cant_attack", "enchanted"): k.ST_CANT_ATTACK,
    ("cant_block", "enchanted"): k.ST_CANT_BLOCK,
    ("cant_lose", "you"): k.ST_CANT_LOSE,
    ("cant_win", "opponents"): k.ST_CANT_WIN,
    ("no_loss_at_zero_life", "you"): k.ST_NO_LOSS_ZERO,
}


class CompiledCards:
    """The card pool as kernel tables; ``supported[c]`` is False (with ``why[c]``) for
    cards outside the compiled vocabulary."""

    def __init__(self, db: CardDB):
        self.db = db
        n = len(db.defs)
        ct = np.zeros((n, k.CF), dtype=np.int64)
        ab_rows: list[list[int]] = []
        er: list[list[int]] = []
        self.supported = np.ones(n, dtype=np.bool_)
        self.why: dict[int, str] = {}
        sub_bits = {s: 1 << i for i, s in enumerate(LAND_SUBTYPES)}
        for d in db.defs:
            c = d.index
            try:
                row = self._card(d, db, ab_rows, er, sub_bits)
            except (Unsupported, KeyError, TypeError) as e:
                self.supported[c] = False
                self.why[c] = f"{d.name}: {e}"
                continue
            ct[c] = row
        self.ct = ct
        self.ab = np.array(ab_rows or [[0] * k.BF], dtype=np.int64).reshape(-1, k.BF)
        self.er = np.array(er or [[0] * k.EF], dtype=np.int64).reshape(-1, k.EF)
        used = self.supported & (ct[:, k.C_NAB] > 0)
        sorc = self.ab[:, k.B_SORC] if len(ab_rows) else np.ones(0, np.int64)
        self.instant_abilities = bool(
            any(
                not sorc[ct[c, k.C_AB0] + j]
                for c in np.flatnonzero(used)
                for j in range(ct[c, k.C_NAB])
            )
        )

    def tables(self) -> k.CardTables:
        return k.CardTables(self.ct, self.ab, self.er, self.instant_abilities)

    @staticmethod
    def _card(d, db: CardDB, ab_rows, er, sub_bits) -> np.ndarray:
        w = d.name
        row = np.zeros(k.CF, dtype=np.int64)
        row[k.C_TYPES] = d.types
        row[k.C_POW], row[k.C_TOU], row[k.C_KW], row[k.C_LOY] = (
            d.power, d.toughness, d.keywords, d.loyalty,
        )  # fmt: skip
        if d.cost.x:
            raise Unsupported("X costs")
        row[k.C_GENERIC] = d.cost.generic
        row[k.C_W : k.C_C + 1] = d.cost.colored
        row[k.C_MV] = d.cost.mana_value
        row[k.C_MANA] = db.mana_color[d.index]
        row[k.C_SUPER] = d.supertypes
        row[k.C_CSUB] = (
            int(db.subtypes[d.index] & db.creature_type_mask) if d.types & T_CREATURE else 0
        )
        row[k.C_LANDSUB] = sum(sub_bits.get(s, 0) for s in d.subtypes)
        row[k.C_AURA] = int(d.is_aura)
        if d.is_aura:
            if d.enchant != "creature":
                raise Unsupported(f"enchant {d.enchant!r}")
            row[k.C_ENCHANT] = k.K_CREATURE
        row[k.C_EQUIP_PLUS] = int(d.is_equipment)
        stc = 0
        for key, a in d.static:
            if key == "pump" and a.get("to") == "equipped" and not a.get("keywords"):
                stc |= k.ST_PUMP_EQUIPPED
                row[k.C_PUMP_P], row[k.C_PUMP_T] = a.get("power", 0), a.get("toughness", 0)
            elif key == "grant" and a == {"keywords": ["haste"], "to": "all_creatures"}:
                stc |= k.ST_HASTE_ALL
            elif key == "coat_of_arms":
                stc |= k.ST_COAT
            elif (key, a) in STATICS:
                stc |= STATICS[(key, a)]
            else:
                raise Unsupported(f"static {key}: {a!r}")
        row[k.C_STATIC] = stc
        for kind, v in d.enters_with.items():
            if kind != "intervention":
                raise Unsupported(f"enters with {kind} counters")
            row[k.C_ENTERS_INTV] = v
        if d.types & k.T_BATTLE:
            raise Unsupported("battles")
        if d.spell is not None:
            sp = d.spell
            if sp.modes or sp.chosen_by:
                raise Unsupported("modal spells / opponent's choices")
            row[k.C_NT], row[k.C_K0], row[k.C_K1] = _targets(sp.targets, w)
            rows = _effect_rows(sp.effects, db, w)
            row[k.C_E0], row[k.C_EN] = len(er), len(rows)
            er.extend(rows)
        abilities = [a for a in d.abilities if not a.mana]
        for a in d.abilities:
            if a.mana and (a.cost.mana_value or not a.tap):
                raise Unsupported("mana abilities other than {T}: add one mana")
        row[k.C_HASAB] = int(bool(abilities))
        row[k.C_NAB], row[k.C_AB0] = len(abilities), len(ab_rows)
        for a in abilities:
            if a.tap or a.life_cost is not None or a.zone != "battlefield" or any(a.chosen_by):
                raise Unsupported("activated ability with a tap, life or zone cost")
            ab_rows.append(_ability_row(a, db, er, w, trigger=False))
        row[k.C_NTRIG], row[k.C_TR0] = len(d.triggers), len(ab_rows)
        for t in d.triggers:
            ab_rows.append(_ability_row(t, db, er, w, trigger=True))
            row[k.C_TRIGMASK] |= 1 << WHEN[t.when]
        return row


def _ability_row(a, db: CardDB, er, where: str, trigger: bool) -> list[int]:
    row = [0] * k.BF
    row[k.B_GENERIC] = a.cost.generic
    row[k.B_W : k.B_C + 1] = list(a.cost.colored)
    row[k.B_MV] = a.cost.mana_value
    if a.cost.x:
        raise Unsupported(f"{where}: X costs")
    if a.loyalty is not None:
        row[k.B_LOY], row[k.B_HASLOY] = a.loyalty, 1
    row[k.B_SORC] = int(a.sorcery)
    row[k.B_EQUIP] = int(a.equip)
    row[k.B_NT], row[k.B_K0], row[k.B_K1] = _targets(a.targets, where)
    if trigger:
        if a.targets:
            raise Unsupported(f"{where}: triggered ability with targets")
        if a.when not in WHEN:
            raise Unsupported(f"{where}: trigger {a.when!r}")
        row[k.B_WHEN] = WHEN[a.when]
        cond = a.condition
        if a.when == "life_at_least":
            row[k.B_COND], row[k.B_CONDARG] = k.COND_NONE, int(a.amount)
        elif cond is None:
            row[k.B_COND] = k.COND_NONE
        elif cond == "self_untapped":
            row[k.B_COND] = k.COND_SELF_UNTAPPED
        elif isinstance(cond, dict) and set(cond) == {"life_at_least"}:
            row[k.B_COND], row[k.B_CONDARG] = k.COND_LIFE_AT_LEAST, int(cond["life_at_least"])
        else:
            raise Unsupported(f"{where}: condition {cond!r}")
    if not a.equip:
        rows = _effect_rows(a.effects, db, where)
        row[k.B_E0], row[k.B_EN] = len(er), len(rows)
        er.extend(rows)
    return row


_COMPILED: dict[int, CompiledCards] = {}


def compiled_cards(db: CardDB | None = None) -> CompiledCards:
    db = db or load_cards()
    hit = _COMPILED.get(id(db))
    if hit is None or hit.db is not db:
        hit = _COMPILED[id(db)] = CompiledCards(db)
    return hit


# ----------------------------------------------------------------- which games qualify
def supports(
    variant: str,
    decks: list[list[str]],
    db: CardDB | None = None,
    range_of_influence: int | None = None,
    attack: str | None = None,
    mulligans: bool = False,
) -> str | None:
    """None if these games can run compiled, else the reason they can't."""
    if variant not in ("two-player", "free-for-all", "grand-melee"):
        return f"variant {variant} (compiled: two-player, free-for-all, grand-melee)"
    if range_of_influence is not None and range_of_influence < 1:
        return f"range of influence {range_of_influence}"
    if attack not in (None, *ATTACK_OPTION):
        return f"attack {attack}"
    if mulligans:
        return "mulligans"
    cc = compiled_cards(db)
    for deck in decks:
        for name in set(deck):
            c = cc.db.index(name)
            if not cc.supported[c]:
                return f"card {cc.why[c]}"
    return None


# ----------------------------------------------------------------- state export
DECL_PEND = {"priority": k.PEND_PRIORITY, "attack": k.PEND_ATTACK, "block": k.PEND_BLOCK}
DECL_PEND["discard"] = k.PEND_DISCARD
STEP_TODO = {"begin": k.TODO_BEGIN, "priority": k.TODO_PRIORITY, "end": k.TODO_END}


class Batch:
    """The arrays of G games (leading axis), sized for ``players`` seats."""

    def __init__(self, G: int, players: int, objects: int, trace: int = 0, scale: int = 1):
        P = players
        self.O = np.zeros((G, objects, k.OF), dtype=np.int64)
        self.PL = np.zeros((G, P, k.PF), dtype=np.int64)
        self.S = np.zeros((G, k.SF), dtype=np.int64)
        self.LIB = np.zeros((G, P, 128 * scale), dtype=np.int64)
        self.STK = np.zeros((G, 64 * scale), dtype=np.int64)
        self.TRG = np.zeros((G, 64 * scale, k.QF), dtype=np.int64)
        self.EFF = np.zeros((G, 128 * scale, k.XF), dtype=np.int64)
        self.SH = np.zeros((G, 32 * scale, k.HF), dtype=np.int64)
        self.XT = np.zeros((G, 32 * scale), dtype=np.int64)
        self.BQ = np.zeros((G, max(P, 1)), dtype=np.int64)
        self.SEAT = np.zeros((G, P), dtype=np.int64)
        self.RNG = np.zeros((G, 1), dtype=np.uint64)
        self.TR = np.zeros((G, trace, 9), dtype=np.int64)
        self.ACTS = np.zeros((k.MAX_ACTIONS + 1, 6), dtype=np.int64)  # scratch, one game at a time
        self.HAND = np.zeros((G, P, 128 * scale), dtype=np.int64)  # each hand, in id order
        self.RM = np.ones((G, 2, P, P), dtype=np.int64)  # range (801.2), attack targets
        self.MK = np.zeros((G, max(1, P // 4), k.KF + 64 * scale), dtype=np.int64)  # 807.4
        self.BF = np.zeros((G, objects), dtype=np.int64)  # the permanents, in id order
        self.HELD = np.zeros((G, objects), dtype=np.int64)  # the same by controller (layers)

    def head(self, G: int) -> Batch:
        """The first G slots, as a batch (views: the same memory)."""
        b = object.__new__(Batch)
        for name, a in vars(self).items():
            setattr(b, name, a if name == "ACTS" else a[:G])
        return b

    def clear(self, gi: int, rows: int) -> None:
        """Slot gi as a new batch has it, its object table up to ``rows`` (the rows
        the kernel can have written: up to the last game's object count; the rest are
        still zero), its trace left as it is (read up to the count in ``S`` only)."""
        for name, a in vars(self).items():
            if name == "O":
                _blank_objects(a[gi, :rows])
            elif name == "RM":
                a[gi] = 1
            elif name not in ("ACTS", "TR"):
                a[gi] = 0

    def arrays(self) -> tuple:
        return (
            self.O, self.PL, self.S, self.LIB, self.STK, self.TRG, self.EFF, self.SH,
            self.XT, self.BQ, self.SEAT, self.RNG, self.TR, self.ACTS, self.HAND, self.RM,
            self.MK, self.BF, self.HELD,
        )  # fmt: skip

    def load(self, gi: int, game, seed: int) -> None:
        """Copy a Python game (at a decision, with nothing on the stack and no effects
        yet: how ``Game.new`` leaves it) into slot ``gi``."""
        g = game
        if g.markers:
            raise Unsupported("export: Grand Melee turn markers (deal it with _setup)")
        if g.stack or g.triggers or g.world.has_effects or g.extra_turns:
            raise Unsupported("export: the game must be at its start (empty stack, no effects)")
        if g.pending is None or g.pending.kind not in DECL_PEND or g.attack_decl or g.block_decl:
            raise Unsupported(f"export: pending decision {g.pending!r}")
        o = g.obj
        n = o.n
        OB = self.O[gi]
        if n + 64 > OB.shape[0]:
            raise Unsupported("export: too many objects for the batch")
        _blank_objects(OB)
        OB[:n, k.F_CARD] = o.card[:n]
        OB[:n, k.F_ZONE] = o.zone[:n]
        OB[:n, k.F_OWNER] = o.owner[:n]
        OB[:n, k.F_BCTL] = o.base_controller[:n]
        OB[:n, k.F_CTL] = o.controller[:n]
        OB[:n, k.F_LCTL] = o.last_controller[:n]
        OB[:n, k.F_TAPPED] = o.tapped[:n]
        OB[:n, k.F_SICK] = o.sick[:n]
        OB[:n, k.F_DMG] = o.damage[:n]
        OB[:n, k.F_DTHIT] = o.deathtouch_hit[:n]
        OB[:n, k.F_CP1] = o.counters[:n, C_P1P1]
        OB[:n, k.F_CM1] = o.counters[:n, C_M1M1]
        OB[:n, k.F_LOY] = o.counters[:n, C_LOYALTY]
        OB[:n, k.F_INTV] = o.counters[:n, C_INTERVENTION]
        OB[:n, k.F_ATT] = o.attached_to[:n]
        OB[:n, k.F_ATKP] = o.attacking_player[:n]
        OB[:n, k.F_ATKO] = o.attacking_object[:n]
        OB[:n, k.F_BLOCKING] = o.blocking[:n]
        OB[:n, k.F_BLOCKED] = o.blocked[:n]
        OB[:n, k.F_FSD] = o.dealt_first_strike[:n]
        OB[:n, k.F_TS] = o.timestamp[:n]
        OB[:n, k.F_TOKEN] = o.token[:n]
        OB[:n, k.F_LOYUSED] = o.loyalty_used[:n]
        OB[:n, k.F_TYPES] = o.types[:n]
        if (o.zone[:n] == STACK).any():
            raise Unsupported("export: objects on the stack")
        for bs in g.block_order.values():
            for j, b in enumerate(bs):
                OB[b, k.F_BSEQ] = j + 1
        pl = g.pl
        P = pl.n
        PL = self.PL[gi]
        PL[:] = 0
        PL[:P, k.P_LIFE] = pl.life
        PL[:P, k.P_POISON] = pl.poison
        PL[:P, k.P_ALIVE] = pl.alive
        PL[:P, k.P_LOST] = pl.lost
        PL[:P, k.P_WON] = pl.won
        PL[:P, k.P_DRAWN] = pl.drawn
        PL[:P, k.P_LANDS] = pl.lands_played
        PL[:P, k.P_DREW_EMPTY] = pl.drew_from_empty
        inst = (o.zone[:n] == 1) & (o.card[:n] >= 0)
        inst &= (g.db.types[np.maximum(o.card[:n], 0)] & k.T_INSTANT) != 0
        PL[:P, k.P_NINSTANT] = np.bincount(o.owner[:n][inst], minlength=P)[:P]
        for p in range(P):
            lib = g.library[p]
            PL[p, k.P_LIBN] = len(lib)
            self.LIB[gi, p, : len(lib)] = lib
        self.SEAT[gi] = np.argsort(pl.seat, kind="stable")
        PL[:P, k.P_SEATPOS] = pl.seat
        PL[:P, k.P_REACH] = pl.reach
        self.RM[gi, 0] = g.range_mask
        self.RM[gi, 1] = g.attack_mask
        S = self.S[gi]
        S[:] = 0
        S[k.S_TURN] = g.turn
        S[k.S_STEP] = g.step_no
        S[k.S_TODO] = STEP_TODO[g.todo]
        S[k.S_ACTIVE] = g.active
        S[k.S_PRIO] = g.priority_to
        S[k.S_PASSES] = g.passes
        S[k.S_N] = n
        S[k.S_TSC] = g.ts
        S[k.S_OVER] = int(g.over)
        S[k.S_DECLARED] = int(g.declared_attackers)
        S[k.S_FSSTEP] = int(g.first_strike_step)
        S[k.S_CLEANUP_AGAIN] = int(g.cleanup_again)
        S[k.S_PEND] = DECL_PEND[g.pending.kind]
        S[k.S_PPLAYER] = g.pending.player
        S[k.S_PCOUNT] = getattr(g.pending, "count", 0) or 0
        S[k.S_MAXTURNS] = g.turn_cap()
        S[k.S_STARTING] = g.starting_player
        S[k.S_POISON_LIMIT] = int(np.asarray(g.poison_limit).ravel()[0])
        S[k.S_NPLAYERS] = P
        S[k.S_ATTACK_MODE] = g.attack_mode
        S[k.S_NBQ] = len(g.blockers_to_declare)
        S[k.S_VERSION], S[k.S_LDIRTY], S[k.S_SDIRTY] = 1, 1, 1
        for p in range(P):
            hand = np.flatnonzero((o.zone[:n] == k.HAND) & (o.owner[:n] == p))
            self.HAND[gi, p, : len(hand)] = hand
            PL[p, k.P_HANDN] = len(hand)
        S[k.S_TOKENS] = int(o.token[:n].any())
        ct = compiled_cards(g.db).ct
        bf = o.zone[:n] == 2
        self.BF[gi, : int(bf.sum())] = np.flatnonzero(bf)
        S[k.S_NBF] = int(bf.sum())
        cards = np.maximum(o.card[:n], 0)
        S[k.S_NSTATBF] = int((bf & (o.card[:n] >= 0) & (ct[cards, k.C_STATIC] != 0)).sum())
        state_trig = (ct[cards, k.C_TRIGMASK] >> k.W_LIFE_AT_LEAST) & 1
        S[k.S_NSTATETRIG] = int((bf & (o.card[:n] >= 0) & (state_trig != 0)).sum())
        S[k.S_COUNTERS] = int(o.counters[:n, :2].any())
        cards = np.unique(o.card[:n][o.card[:n] >= 0])  # trigger events and statics it can meet
        S[k.S_TRIGKINDS] = np.bitwise_or.reduce(ct[cards, k.C_TRIGMASK]) if len(cards) else 0
        S[k.S_STATICS] = np.bitwise_or.reduce(ct[cards, k.C_STATIC]) if len(cards) else 0
        self.PL[gi, :, k.P_HA_VER] = -1
        self.BQ[gi, : len(g.blockers_to_declare)] = g.blockers_to_declare
        self.RNG[gi, 0] = np.uint64(seed)


def _collect_python(out: dict, j: int, g) -> None:
    """Game j's row of ``play_compiled``'s results from a finished Python game."""
    n = g.n_players
    out["turns"][j] = g.turn
    out["won"][j] = g.pl.won
    out["lost"][j] = g.pl.lost
    out["drawn"][j] = g.pl.drawn
    out["life"][j] = g.pl.life
    out["starting"][j] = g.starting_player
    out["seat"][j] = g.pl.seat
    out["decisions"][j] = len(g.history)
    out["errors"][j] = 0
    won = np.flatnonzero(g.pl.won)
    out["winner"][j] = int(won[0]) if len(won) == 1 else -1
    out["python_finished_mask"][j] = True
    assert n == len(out["won"][j])


def _setup(
    batch: Batch,
    gi: int,
    cards: np.ndarray,
    owners: np.ndarray,
    variant: str,
    n: int,
    seed: int,
    max_turns: int,
    ct: np.ndarray,
    rng_seed: int,
    reach: int | None = None,
    attack: str | None = None,
) -> None:
    """What ``Game.new`` does before the first turn, without building a Python game:
    the same generator calls in the same order (seats, then each library's shuffle, then
    the starting player; systems/variants.py), so slot ``gi`` holds the same game. The
    kernel deals the opening hands and begins the first turn (``start_game``)."""
    rng = np.random.default_rng(seed)
    rules = VARIANTS[variant]
    reach = rules.default_range if reach is None else reach  # (as Options defaults them)
    attack = attack or rules.default_attack
    gm = variant == "grand-melee"
    seat = rng.permutation(n) if variant != "two-player" else np.arange(n)
    N = len(cards)
    OB = batch.O[gi]
    batch.clear(gi, max(N, int(batch.S[gi, k.S_N])))  # (a slot used before: as new)
    OB[:N, k.F_CARD] = cards
    OB[:N, k.F_TYPES] = ct[cards, k.C_TYPES]
    OB[:N, k.F_ZONE] = 0  # library
    OB[:N, k.F_OWNER] = owners
    OB[:N, k.F_BCTL] = owners
    OB[:N, k.F_CTL] = owners
    OB[:N, k.F_LCTL] = owners
    OB[:N, k.F_TS] = np.arange(1, N + 1)
    OB[:N, k.F_KW] = ct[cards, k.C_KW]
    OB[:N, k.F_POW] = ct[cards, k.C_POW]
    OB[:N, k.F_TOU] = ct[cards, k.C_TOU]
    PL = batch.PL[gi]
    PL[:] = 0
    PL[:n, k.P_LIFE] = 20
    PL[:n, k.P_ALIVE] = 1
    PL[:, k.P_HA_VER] = -1
    PL[:n, k.P_SEATPOS] = seat
    PL[:n, k.P_REACH] = -1 if reach is None else reach
    for p in range(n):
        lib = np.flatnonzero(owners == p).tolist()
        rng.shuffle(lib)
        PL[p, k.P_LIBN] = len(lib)
        batch.LIB[gi, p, : len(lib)] = lib
    starting = int(rng.integers(n))
    batch.SEAT[gi] = np.argsort(seat, kind="stable")
    S = batch.S[gi]
    S[:] = 0
    S[k.S_STEP] = k.PREGAME
    S[k.S_N] = N
    S[k.S_TSC] = N
    S[k.S_MAXTURNS] = turn_cap(variant, n, max_turns)
    S[k.S_GM] = gm
    S[k.S_STARTING] = starting
    S[k.S_ACTIVE] = starting
    S[k.S_POISON_LIMIT] = 10
    S[k.S_NPLAYERS] = n
    S[k.S_ATTACK_MODE] = ATTACK_OPTION[attack]
    S[k.S_VERSION], S[k.S_LDIRTY], S[k.S_SDIRTY] = 1, 1, 1
    used = np.unique(cards)
    S[k.S_TRIGKINDS] = np.bitwise_or.reduce(ct[used, k.C_TRIGMASK])
    S[k.S_STATICS] = np.bitwise_or.reduce(ct[used, k.C_STATIC])
    batch.RNG[gi, 0] = np.uint64(rng_seed)  # (nothing is on the battlefield yet)


def _blank_objects(OB: np.ndarray) -> None:
    """Empty object rows: no attachment, combat, declaration or source (as new_object)."""
    OB[:] = 0
    for f in (k.F_ATT, k.F_ATKP, k.F_ATKO, k.F_BLOCKING, k.F_SRC):
        OB[:, f] = -1
    OB[:, k.F_DECL] = k.NO_TARGET


_SPARE: dict[tuple[int, int], Batch] = {}


def _reused_batch(G: int, players: int, objects: int) -> Batch:
    """A batch of G slots kept from the last call with these table sizes (``_setup``
    clears each slot it deals). Memory touched for the first time costs more than the
    dealing itself (page faults: 0.2 s for 100 16-player games on the machine of the
    README's figures), so the batch, one chunk of games, is kept for the next call."""
    b = _SPARE.get((players, objects))
    if b is None or b.O.shape[0] < G:
        _SPARE.clear()
        b = _SPARE[(players, objects)] = Batch(G, players, objects)
    return b.head(G)


def deal_columns(id_lists: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The card index and owner of every object, player 0's deck first (the ids
    ``Game.new`` gives them), from each player's list of card indexes."""
    cards = np.concatenate(id_lists).astype(np.int64)
    owners = np.concatenate([np.full(len(d), i, np.int64) for i, d in enumerate(id_lists)])
    return cards, owners


def run_batch(batch: Batch, cards: CompiledCards, max_decisions: int = 1_000_000) -> int:
    """Play every game in the batch to its end; returns the decisions made."""
    ct = cards.tables()
    return int(
        k.play_batch(*batch.arrays(), ct.ct, ct.ab, ct.er, ct.instant_abilities, max_decisions)
    )


def play_compiled(
    decks: list[list[str]],
    players: int,
    games: int,
    seed: int = 0,
    max_turns: int = 200,
    variant: str | None = None,
    db: CardDB | None = None,
    chunk: int = 32,
    progress=None,
    seeds: list[int] | None = None,
    first: int = 0,
    range_of_influence: int | None = None,
    attack: str | None = None,
    objects: int | None = None,
) -> dict[str, np.ndarray]:
    """Play ``games`` games with random agents in the compiled engine. Game k (counted
    from ``first``) uses ``decks[(k + i) % len(decks)]`` for player i and seed
    ``seeds[k]`` (default ``seed + k``), dealt as ``Game.new(..., seed=...)`` deals it.
    Returns per-game arrays: ``winner`` (-1: a draw or no single winner), ``turns``,
    ``won`` / ``lost`` / ``drawn`` / ``life`` / ``seat`` (G, P), ``starting`` (the
    player who took the first turn), ``decisions``, ``errors`` (0 = none), and the
    seconds spent dealing (``setup_s``) and playing (``play_s``). ``objects`` sizes the
    object table (a game that outgrows a table is played again with bigger ones)."""

    variant = variant or ("two-player" if players == 2 else "free-for-all")
    cards = compiled_cards(db)
    why = supports(variant, decks, cards.db, range_of_influence, attack)
    if why:
        raise Unsupported(why)
    out = {
        "turns": np.zeros(games, np.int64),
        "winner": np.full(games, -1, np.int64),
        "won": np.zeros((games, players), np.bool_),
        "drawn": np.zeros((games, players), np.bool_),
        "life": np.zeros((games, players), np.int64),
        "decisions": np.zeros(games, np.int64),
        "errors": np.zeros(games, np.int64),
        "lost": np.zeros((games, players), np.bool_),
        "seat": np.zeros((games, players), np.int64),
        "starting": np.zeros(games, np.int64),
        "python_finished_mask": np.zeros(games, np.bool_),
    }
    if seeds is None:
        seeds = [seed + first + j for j in range(games)]
    setup_s = play_s = 0.0
    ids = [np.array([cards.db.index(c) for c in d], dtype=np.int64) for d in decks]
    n_cards = max(
        sum(len(ids[(first + j + i) % len(ids)]) for i in range(players)) for j in range(len(ids))
    )

    def deal(batch: Batch, j: int, gk: int) -> None:
        cols = deal_columns([ids[(first + gk + i) % len(ids)] for i in range(players)])
        _setup(
            batch, j, *cols, variant, players, seeds[gk], max_turns,
            cards.ct, agent_seed(seeds[gk]), range_of_influence, attack,
        )  # fmt: skip

    def collect(batch: Batch, sl) -> None:
        out["turns"][sl] = batch.S[:, k.S_TURN]
        out["decisions"][sl] = batch.S[:, k.S_DECISIONS]
        out["errors"][sl] = batch.S[:, k.S_ERROR]
        won = batch.PL[:, :, k.P_WON].astype(bool)
        out["won"][sl] = won
        out["drawn"][sl] = batch.PL[:, :, k.P_DRAWN].astype(bool)
        out["life"][sl] = batch.PL[:, :, k.P_LIFE]
        out["lost"][sl] = batch.PL[:, :, k.P_LOST].astype(bool)
        out["starting"][sl] = batch.S[:, k.S_STARTING]
        out["seat"][sl] = np.argsort(batch.SEAT, axis=1)  # SEAT lists players by seat
        out["winner"][sl] = np.where(won.sum(1) == 1, won.argmax(1), -1)

    for start in range(0, games, chunk):
        G = min(chunk, games - start)
        t0 = time.perf_counter()
        batch = _reused_batch(G, players, objects or n_cards + 64 * players + 256)
        for j in range(G):
            deal(batch, j, start + j)
        t1 = time.perf_counter()
        run_batch(batch, cards)
        collect(batch, slice(start, start + G))
        for j in np.flatnonzero(batch.S[:, k.S_ERROR]):  # a table filled up: play that
            for scale in (4, 16):  # game again (the same game: same deal, same draws)
                big = Batch(1, players, n_cards + scale * (64 * players + 256), scale=scale)
                deal(big, 0, start + j)
                run_batch(big, cards)
                collect(big, slice(start + j, start + j + 1))
                if not big.S[0, k.S_ERROR]:
                    break
            else:  # still full: a mandatory loop; the Python engine finishes the game
                gk = start + j
                ds = [decks[(first + gk + i) % len(decks)] for i in range(players)]
                g = finish_in_python(
                    ds, variant, seeds[gk], max_turns, range_of_influence, attack, cards.db
                )
                _collect_python(out, gk, g)
        t2 = time.perf_counter()
        setup_s += t1 - t0
        play_s += t2 - t1
        if progress is not None:
            progress(G)
    out["python_finished"] = np.int64(out["python_finished_mask"].sum())
    out["setup_s"] = np.float64(setup_s)
    out["play_s"] = np.float64(play_s)
    return out


_MASK = (1 << 64) - 1


def _rand_below(state: list[int], n: int) -> int:
    """The kernel's splitmix64 step (``compiled_game.rand_below``) in plain Python."""
    x = (state[0] + 0x9E3779B97F4A7C15) & _MASK
    state[0] = x
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z % n


class TraceRng:
    """Stands in for a Python game's generator: the random events a compiled game
    recorded (a shuffle replays the kernel's Fisher-Yates from the state it recorded),
    then, once they run out, an ordinary generator."""

    def __init__(self, events, then: np.random.Generator | None = None):
        self.events = list(events)
        self.then = then

    def _next(self, kind: int) -> np.ndarray | None:
        if not self.events:
            if self.then is None:
                raise AssertionError(
                    "the Python engine drew a random number the compiled one didn't"
                )
            return None
        row = self.events.pop(0)
        if row[0] != kind:
            raise AssertionError(f"random event mismatch: {row[0]} vs {kind}")
        return row

    def shuffle(self, lst: list[int]) -> None:
        row = self._next(k.T_SHUFFLE)
        if row is None:
            self.then.shuffle(lst)
            return
        assert row[2] == len(lst)
        state = [int(row[3]) & _MASK]
        for j in range(len(lst) - 1, 0, -1):
            r = _rand_below(state, j + 1)
            lst[j], lst[r] = lst[r], lst[j]

    def integers(self, n: int) -> int:
        row = self._next(k.T_RANDOM)
        if row is None:
            return int(self.then.integers(n))
        assert row[2] == n
        return int(row[3])


def finish_in_python(
    decks: list[list[str]],
    variant: str,
    seed: int,
    max_turns: int,
    reach: int | None = None,
    attack: str | None = None,
    db: CardDB | None = None,
):
    """Play game ``seed`` in the compiled engine with a trace, then make the same
    decisions (and random draws) in the Python engine and let random agents finish it
    there. For the games the kernel can't finish: the mandatory loops of 104.4b / 801.16
    (the Python engine detects them, the kernel doesn't). Returns the Python game."""
    from ecs.agents import RandomAgent, play_game
    from ecs.game import Game, Options

    cards = compiled_cards(db)
    P = len(decks)
    cols = deal_columns([np.array([cards.db.index(c) for c in d]) for d in decks])
    batch = Batch(1, P, len(cols[0]) + 16 * (64 * P + 256), trace=200_000, scale=16)
    _setup(batch, 0, *cols, variant, P, seed, max_turns, cards.ct, agent_seed(seed), reach,
           attack)  # fmt: skip
    run_batch(batch, cards)
    tr = batch.TR[0, : min(int(batch.S[0, k.S_NTR]), batch.TR.shape[1])]
    g = Game.new(
        decks, variant=variant, seed=seed, max_turns=max_turns, auto_pass=True, db=cards.db,
        options=Options(range_of_influence=reach, attack=attack),
    )  # fmt: skip
    g.rng = TraceRng(
        [r for r in tr if r[0] in (k.T_SHUFFLE, k.T_RANDOM)], np.random.default_rng(seed)
    )
    for r in tr:
        if r[0] in (k.T_SHUFFLE, k.T_RANDOM) or g.over:
            continue
        g.step(g.legal_actions()[int(r[8])])
    play_game(g, [RandomAgent(agent_seed(seed) + p) for p in range(P)])
    return g


def agent_seed(game_seed: int) -> int:
    """The random agents' generator state for a game (one stream per game)."""
    return (game_seed * 0x9E3779B9 + 1) & 0xFFFFFFFFFFFFFFFF


def warm() -> float:
    """Compile (or load from the cache) the kernel; returns the seconds it took."""
    t = time.perf_counter()
    from ecs.decks import load_deck, stock_decks

    decks = [load_deck(d).main for d in stock_decks()][:2]
    play_compiled(decks, 2, 1, seed=0)
    return time.perf_counter() - t


__all__ = [
    "CompiledCards", "compiled_cards", "supports", "play_compiled", "Batch", "run_batch",
    "Unsupported", "TraceRng", "finish_in_python", "deal_columns",
]  # fmt: skip
