"""The card records' compiled form: the tables of the *cards arena* that every game of
a batch shares (``ecs/cards.py`` compiles the YAML records into them; the vocabulary
is described in ``ecs/data/cards/VOCABULARY.md``).

A card is a row of ``ct``; its abilities are rows of ``ab`` (spell abilities,
activated, mana, loyalty and triggered abilities, in printed order); its static
abilities rows of ``sa``. Abilities point to target specs (``tg``), effect programs
(rows of ``ep``: one step of the vocabulary each), and the shared tables of filters
(``fl``), amounts (``am``) and conditions (``cn``). References (who or what a step
acts on) are small integers (``R_*``) with an argument."""

from __future__ import annotations

from components.rules import N_MANA
from components.schema import Layout, Table

# ----------------------------------------------------------------- cards
CARDS = Table("ct", "one row per card face (and token definition)", rows="cards")
F = CARDS.field
C_TYPES = F("types", "card type bits")
C_SUPER = F("supertypes", "supertype bits")
C_COLORS = F("colors", "colour bits (from the cost, or the record's colours)")
C_IDENTITY = F("identity", "colour identity bits (903.4)")
C_POW = F("power", "printed power")
C_TOU = F("toughness", "printed toughness")
C_LOY = F("loyalty", "printed loyalty")
C_DEF = F("defense", "printed defense")
C_KW = F("keywords", "printed keyword bits")
C_PROT = F("protection", "protection from these colours")
C_WARD = F("ward", "ward cost (generic mana)")
C_COST = F("cost", "mana cost: generic, W, U, B, R, G, C", width=N_MANA + 1)
C_XS = F("x_in_cost", "number of {X} in the cost")
C_MV = F("mana_value", "mana value (202.3)")
NSUB = 6
SUBTYPE_NONCREATURE = 1000  # subtype ids: creature types below, other subtypes from here
C_SUB = F("subtypes", "subtype ids (-1 padding)", width=NSUB)
C_LANDMANA = F("land_mana", "colours its mana abilities can make (bits, C = 32)")
C_AB0 = F("ab0", "first row of its abilities in `ab`")
C_NAB = F("n_abilities", "how many")
C_SA0 = F("sa0", "first row of its static abilities in `sa`")
C_NSA = F("n_statics", "how many")
C_SPELL = F("spell", "its spell ability row (instants, sorceries); -1")
C_TRIGMASK = F("trigger_events", "bits: events its triggered abilities wait for")
C_SAMASK = F("static_kinds", "bits 1 << (kind % 31) of its static abilities' kinds (a quick no)")
C_ENCHANT = F("enchant", "an Aura's enchant filter row (303.4); -1")
C_EQUIP = F("equip", "its equip ability row; -1")
C_ENTERS_TAPPED = F("enters_tapped", "1: enters the battlefield tapped")
C_ENTERS_CTR = F("enters_counters", "counter kind it enters with; -1")
C_ENTERS_N = F("enters_n", "how many (-1: X)")
C_BACK = F("back", "card row of its back face (712); -1")
C_KICKER = F("kicker", "kicker cost: generic, W..C; all -1 if none", width=N_MANA + 1)
C_ALT = F("alternative", "ability row of an alternative cast (overload); -1")
C_MUTATE = F("mutate", "mutate cost row in `ab` (702.140); -1")
C_UNEARTH = F("unearth", "unearth ability row; -1")
C_HAND_MOD = F("hand_modifier", "vanguard hand modifier (902.5)")
C_LIFE_MOD = F("life_modifier", "vanguard life modifier (902.4)")
C_FLAGS = F("flags", "CF_* bits")
NHYB = 4  # hybrid symbols a cost may have ({B/G}: 202.2, 107.4e)
COST_W = N_MANA + 1 + NHYB  # a cost vector: generic, W U B R G C, then hybrid symbols' colours
C_HYB = F("hybrid", "hybrid symbols of the mana cost: colour bits of each; 0 none", width=NHYB)

CF_REAL, CF_TOKEN, CF_CAN_BE_COMMANDER, CF_AURA, CF_EQUIPMENT = 1, 2, 4, 8, 16
CF_MUTATE_FROM_GRAVEYARD = 32  # may be cast from its owner's graveyard for its mutate cost
CF_DAY_AS_ENTERS = 64  # "if it's neither day nor night, it becomes day as this enters"
CF_COST_CHANGE = 512  # a static ability of its changes what spells cost (601.2f; _cost_change)
CF_FROM_GRAVEYARD = 256  # its own words let it be activated or cast from a graveyard (unearth,
# flashback, a mutate cast from the graveyard): counted per graveyard (P_NGRAVE_ACT)
CF_LIVE_STATICS = 2048  # a layer static with a condition or a count that may change without
# a touch (ecs/cards._live_statics): while it is applied, any change dirties the layers
CF_GRANTS = 1024  # it gives other permanents abilities (`granted`): continuous_effects.grant_source
CF_DOUBLE_AGENDA = 4096  # double agenda (702.106): its hidden agenda names two cards
CF_LISTED = 128  # an ability of its own a player may activate (activated, loyalty, equip or a
# mana ability the automatic payment doesn't use, 605.3a): listings skip the cards without

# ----------------------------------------------------------------- abilities
ABILITIES = Table("ab", "spell, activated, mana, loyalty and triggered abilities", rows="abilities")
F = ABILITIES.field
B_KIND = F("kind", "AB_*")
B_CARD = F("card", "the card it belongs to")
B_INDEX = F("index", "its index among the card's activated abilities (scenario `ability:`)")
B_COST = F("cost", "mana: generic, W..C", width=N_MANA + 1)
B_XS = F("x_in_cost", "number of {X} in the mana cost")
B_TAP = F("tap", "1: {T} in the cost; 2: {Q}")
B_SAC = F("sacrifice", "sacrifice as a cost: -2 itself, a filter row, or -1 none")
B_LIFE = F("life", "life paid as a cost; -2: half, rounded up (119.4)")
B_DISCARD = F("discard", "cards discarded as a cost")
B_LOY = F("loyalty", "loyalty change (606)")
B_HASLOY = F("is_loyalty", "1 for a loyalty ability")
B_RMCTR = F("remove_counter", "counter kind removed as a cost; -1")
B_RMN = F("remove_n", "how many")
B_SORC = F("sorcery", "1: only as a sorcery")
B_ONCE = F("once", "1: once each turn")
B_ZONE = F("zone", "zone it works from (battlefield, graveyard, hand, command)")
B_TG0 = F("tg0", "first target spec row")
B_NTG = F("n_target_specs", "target spec rows")
B_E0 = F("e0", "first effect row")
B_EN = F("n_effects", "effect rows")
B_MODES0 = F("modes0", "first mode: an ability row of kind AB_MODE")
B_NMODES = F("n_modes", "modes")
B_CHOOSE = F("choose_modes", "how many modes are chosen")
B_CHOOSER = F("mode_chooser", "0: the controller; 1: an opponent (801.5b)")
B_WHEN = F("when", "EV_* event a triggered ability waits for")
B_WHAT = F("what", "filter row of the event's object (-2: the source itself); -1 any")
B_WHO = F("who", "REL_* of the event's player to the controller; -1 any")
B_STEP = F("step", "step of a 'beginning of' trigger")
B_ARG = F("arg", "event detail (an amount, the nth, a zone, combat only...)")
B_IF = F("if", "condition row (an intervening 'if', 603.4); -1")
B_OPTIONAL = F("optional", "1: 'you may' (the controller chooses on resolution)")
B_MANA = F("mana", "mana ability: MANA_* kind")
B_MANA_A = F("mana_arg", "its colours (bits) / the mana it makes", width=N_MANA)
B_MANA_N = F("mana_n", "how much")
B_HYB = F("hybrid", "hybrid symbols of the mana cost: colour bits of each; 0 none", width=NHYB)

AB_SPELL, AB_ACTIVATED, AB_MANA, AB_LOYALTY, AB_TRIGGERED, AB_MODE, AB_EQUIP = range(7)
AB_ALT_SPELL, AB_UNEARTH, AB_MUTATE = 7, 8, 9
AB_COST = 10  # a mana cost an effect asks for ("you may pay {1}{R}"): B_COST / B_HYB only
MANA_FIXED, MANA_ANY, MANA_ONE_OF, MANA_IDENTITY, MANA_LAND_COULD = range(5)
MANA_NOTED = 40  # one mana of a colour the draft noted for cards named like it (Paliano)

# ----------------------------------------------------------------- target specs
TARGETS = Table("tg", "target specs (115)", rows="target_specs")
F = TARGETS.field
G_FILTER = F("filter", "filter row")
G_COUNT = F("count", "how many targets")
G_UP_TO = F("up_to", "1: up to that many")
G_CHOSEN_BY = F("chosen_by", "0: the controller; 1: an opponent (801.5a)")
G_DIFFERENT = F("different", "1: each a different object from earlier specs' targets")
G_TOTAL_POWER = F("total_power", "the targets' power may total at most this (Nethroi); 0 no limit")

# ----------------------------------------------------------------- filters
FILTERS = Table("fl", "filters: what matches a target spec, an 'each', a count", rows="filters")
F = FILTERS.field
L_WHAT = F("what", "W_OBJECTS, W_PLAYERS or W_BOTH")
L_ZONE = F("zone", "zone of the objects (-1 any)")
L_TYPE = F("type", "type bits: has any of them (0: no condition)")
L_TYPE_ALL = F("type_all", "type bits: has all of them")
L_NOT_TYPE = F("not_type", "type bits: has none of them")
NFSUB = 5  # subtypes a filter may list ("a Plains, Island, Swamp, or Mountain card")
L_SUB = F("subtypes", "subtype ids: has any of them (-1 padding)", width=NFSUB)
L_NOT_SUB = F("not_subtype", "subtype id it must not have; -1")
L_SUPER = F("supertype", "supertype bits: has any")
L_NOT_SUPER = F("not_supertype", "supertype bits: has none")
L_CTL = F("controller", "REL_* to the ability's controller")
L_OWNER = F("owner", "REL_* to the ability's controller")
L_COLOR = F("color", "colour bits: has any")
L_NOT_COLOR = F("not_color", "colour bits: has none")
L_COLORLESS = F("colorless", "1: colourless; 2: multicoloured")
L_TOKEN = F("token", "-1 any, 0 nontoken, 1 token")
L_TAPPED = F("tapped", "-1 any, 0 untapped, 1 tapped")
L_ATTACKING = F("attacking", "-1 any, 0 not, 1 attacking (2: attacking or blocking)")
L_ANOTHER = F("another", "1: not the source itself")
L_POW = F("power", "OP_* comparison and an amount row", width=2)
L_TOU = F("toughness", "OP_* comparison and an amount row", width=2)
L_MV = F("mv", "OP_* comparison and an amount row", width=2)
L_PLAYER = F("player", "for players: REL_* to the ability's controller")
L_NAME = F("name", "card row of an exact name; -1")
L_COMMANDER = F("commander", "-1 any, 1: a commander")
L_SUBGAME = F("subgame", "players: -1 any, 1 won the last subgame, 0 didn't (726)")
L_MUTATE = F("mutate", "-1 any, 1: a card with mutate (702.140)")

W_OBJECTS, W_PLAYERS, W_BOTH = 1, 2, 3
REL_ANY, REL_YOU, REL_OPPONENT, REL_NOT_YOU, REL_TEAMMATE, REL_ACTIVE = range(6)
REL_EVENT_PLAYER = 6  # the player of a trigger's event ("defending player controls")
CMP_NONE, CMP_LE, CMP_GE, CMP_EQ = range(4)

# ----------------------------------------------------------------- amounts
AMOUNTS = Table("am", "amounts: a number, X, or counted from the game", rows="amounts")
F = AMOUNTS.field
M_KIND = F("kind", "AM_*")
M_ARG = F("arg", "the number, filter row or reference")
M_ARG2 = F("arg2", "a second argument (counter kind)")
M_TIMES = F("times", "multiplier")
M_PLUS = F("plus", "added after multiplying")

(
    AM_CONST, AM_X, AM_COUNT, AM_POWER, AM_TOUGHNESS, AM_MV, AM_LIFE, AM_HALF_LIFE,
    AM_COUNTERS, AM_HAND, AM_EVENT, AM_MANA_SPENT, AM_CHOSEN, AM_DEVOTION, AM_SUB,
) = range(15)  # fmt: skip

# ----------------------------------------------------------------- conditions
CONDITIONS = Table("cn", "conditions: intervening 'if's and 'if' steps", rows="conditions")
F = CONDITIONS.field
N_KIND = F("kind", "CO_*")
N_A = F("a", "argument (amount row, filter row, sub-condition row)")
N_B = F("b", "argument")
N_C = F("c", "argument")

(
    CO_TRUE, CO_LIFE_AT_LEAST, CO_COUNT_AT_LEAST, CO_SELF_UNTAPPED, CO_SELF_IN_ZONE, CO_DAY,
    CO_NIGHT, CO_MONARCH, CO_KICKED, CO_COMPARE, CO_NOT, CO_ALL, CO_ANY, CO_CHOSEN,
) = range(14)  # fmt: skip

# ----------------------------------------------------------------- effect programs
EFFECT_ROWS = Table("ep", "effect programs: one vocabulary step per row", rows="effect_rows")
F = EFFECT_ROWS.field
E_OP = F("op", "OP_*")
E_REF = F("ref", "R_* reference: who or what it acts on")
E_REFA = F("ref_arg", "the reference's argument (a filter row for R_EACH)")
E_AMT = F("amount", "amount row; -1 none")
E_A = F("a", "op argument")
E_B = F("b", "op argument")
E_C = F("c", "op argument")
E_D = F("d", "op argument")
E_UNTIL = F("until", "UNTIL_* duration")
E_REF2 = F("ref2", "a second reference (fight with, attach to, damage source)")
E_REF2A = F("ref2_arg", "its argument")
E_JUMP = F("jump", "control flow: row to continue at (relative to the program)")

# references
(
    R_YOU, R_SELF, R_IT, R_CHOSEN, R_ATTACHED, R_EVENT_OBJECT, R_EVENT_PLAYER,
    R_EVENT_CONTROLLER, R_ACTIVE, R_LEFT, R_RIGHT, R_CHOSEN_PLAYER, R_EVENT_SOURCE,
) = range(13)  # fmt: skip
R_TARGET = 16  # R_TARGET + k: the k-th target
R_CONTROLLER_OF = 32  # + a simple reference above
R_OWNER_OF = 64  # + a simple reference above
R_EACH = 128  # every object or player matching the filter row in E_REFA
R_EACH_PLAYER, R_EACH_OPPONENT, R_EACH_OTHER, R_EACH_TEAMMATE, R_ALL_CHOSEN = range(129, 134)
R_NONE = 255

# effect ops (the vocabulary's verbs; see VOCABULARY.md)
OP_NAMES = (
    "damage", "gain_life", "lose_life", "draw", "discard", "mill", "scry", "surveil",
    "look_at_top", "search", "destroy", "exile", "bounce", "to_library", "return",
    "counter", "copy_spell", "create_token", "add_mana", "counters", "proliferate",
    "pump", "grant", "set_base_pt", "animate", "gain_control", "sacrifice", "fight",
    "regenerate", "tap", "untap", "attach", "extra_turn", "win_game", "lose_game",
    "draw_game", "may", "unless", "if", "choose", "for_each", "next", "shuffle",
    "transform", "planeswalk", "roll_planar_die", "set_in_motion", "abandon_this_scheme",
    "become_monarch", "day_night", "subgame", "prevent", "redirect", "double_life",
    "life_becomes_lowest", "exchange_life", "redistribute_life", "sacrifice_unless_life",
    "fact_or_fiction", "restart_game", "exile_from_hand", "cant_block", "jump",
    "reveal_top", "put_land", "delayed", "exile_top", "set_life", "reveal_hand",
    "exile_if_leaves",
    "basics_from_outside",  # Conspiracy Draft: Sovereign's Realm
    # 726-729
    "merge", "wish", "exile_until", "lose_keywords", "must_attack", "copy_token",
)  # fmt: skip
OP = {name: k for k, name in enumerate(OP_NAMES)}
(
    OP_DAMAGE, OP_GAIN_LIFE, OP_LOSE_LIFE, OP_DRAW, OP_DISCARD, OP_MILL, OP_SCRY,
    OP_SURVEIL, OP_LOOK_AT_TOP, OP_SEARCH, OP_DESTROY, OP_EXILE, OP_BOUNCE, OP_TO_LIBRARY,
    OP_RETURN, OP_COUNTER, OP_COPY_SPELL, OP_CREATE_TOKEN, OP_ADD_MANA, OP_COUNTERS,
    OP_PROLIFERATE, OP_PUMP, OP_GRANT, OP_SET_BASE_PT, OP_ANIMATE, OP_GAIN_CONTROL,
    OP_SACRIFICE, OP_FIGHT, OP_REGENERATE, OP_TAP, OP_UNTAP, OP_ATTACH, OP_EXTRA_TURN,
    OP_WIN, OP_LOSE, OP_DRAW_GAME, OP_MAY, OP_UNLESS, OP_IF, OP_CHOOSE, OP_FOR_EACH,
    OP_NEXT, OP_SHUFFLE, OP_TRANSFORM, OP_PLANESWALK, OP_ROLL_PLANAR_DIE, OP_SET_IN_MOTION,
    OP_ABANDON, OP_MONARCH, OP_DAY_NIGHT, OP_SUBGAME, OP_PREVENT, OP_REDIRECT,
    OP_DOUBLE_LIFE, OP_LIFE_LOWEST, OP_EXCHANGE_LIFE, OP_REDISTRIBUTE_LIFE,
    OP_SAC_UNLESS_LIFE, OP_FACT_OR_FICTION, OP_RESTART, OP_EXILE_FROM_HAND, OP_CANT_BLOCK,
    OP_JUMP, OP_REVEAL_TOP, OP_PUT_LAND, OP_DELAYED, OP_EXILE_TOP, OP_SET_LIFE,
    OP_REVEAL_HAND, OP_EXILE_IF_LEAVES, OP_BASICS_FROM_OUTSIDE, OP_MERGE, OP_WISH,
    OP_EXILE_UNTIL, OP_LOSE_KEYWORDS, OP_MUST_ATTACK, OP_COPY_TOKEN,
) = range(len(OP_NAMES))  # fmt: skip

# ----------------------------------------------------------------- static abilities
STATICS = Table(
    "sa", "static abilities (604): continuous effects while they function", rows="statics"
)
F = STATICS.field
A_KIND = F("kind", "ST_*")
A_CARD = F("card", "the card it belongs to")
A_REF = F("ref", "R_* reference or R_EACH: what it affects")
A_REFA = F("ref_arg", "the filter row for R_EACH")
A_P = F("power", "power change")
A_T = F("toughness", "toughness change")
A_KW = F("keywords", "keyword bits granted")
A_AMT = F("amount", "amount row (pt_per, cost changes); -1")
A_ARG = F("arg", "argument (a filter row of spells for cost changes, a colour...)")
A_IF = F("if", "condition row; -1")
A_ZONE = F("zone", "zone it works from")

(
    ST_PUMP, ST_GRANT, ST_PT_PER, ST_COST_LESS, ST_COST_MORE, ST_CONTROL, ST_CANT_ATTACK,
    ST_CANT_BLOCK, ST_CANT_LOSE, ST_CANT_WIN, ST_CANT_GAIN_LIFE, ST_CANT_LOSE_LIFE,
    ST_NO_LOSS_ZERO, ST_PREVENT_BY, ST_NO_MAX_HAND, ST_MAX_HAND_PLUS, ST_MANA_KEEP,
    ST_EXTRA_LAND, ST_ENTERS_TAPPED, ST_COAT_OF_ARMS, ST_HASTE_ALL,
) = range(21)  # fmt: skip
ST_DOESNT_UNTAP = 80  # "creatures don't untap during their controllers' untap steps"

# events triggered abilities wait for (B_WHEN; C_TRIGMASK bits)
EV_NAMES = (
    "enters", "leaves", "dies", "attacks", "blocks", "becomes_blocked", "deals_damage",
    "dealt_damage", "cast", "beginning_of", "draws", "discards", "gains_life",
    "loses_life", "life_at_least", "last_counter_removed", "becomes_target",
    "planeswalk_to", "planeswalk_from", "chaos", "set_in_motion", "day_night",
    "counter_placed", "sacrificed", "mutates", "transforms",
)  # fmt: skip
EV = {name: k for k, name in enumerate(EV_NAMES)}
(
    EV_ENTERS, EV_LEAVES, EV_DIES, EV_ATTACKS, EV_BLOCKS, EV_BECOMES_BLOCKED,
    EV_DEALS_DAMAGE, EV_DEALT_DAMAGE, EV_CAST, EV_BEGINNING_OF, EV_DRAWS, EV_DISCARDS,
    EV_GAINS_LIFE, EV_LOSES_LIFE, EV_LIFE_AT_LEAST, EV_LAST_COUNTER, EV_BECOMES_TARGET,
    EV_PLANESWALK_TO, EV_PLANESWALK_FROM, EV_CHAOS, EV_SET_IN_MOTION, EV_DAY_NIGHT,
    EV_COUNTER_PLACED, EV_SACRIFICED, EV_MUTATES, EV_TRANSFORMS,
) = range(len(EV_NAMES))  # fmt: skip

# ----------------------------------------------------------------- the card pool's words (issue 17)
# Added after the first vocabulary: each is documented in ecs/data/cards/VOCABULARY.md.
F = CARDS.field
C_SELF_COST = F("self_cost", "static row of its 'this spell costs less' ability (601.2f); -1")
F = ABILITIES.field
B_MANA_AMT = F("mana_amount", "amount row of a mana ability adding a counted amount; -1")
B_TRIG_INDEX = F("trigger_index", "bit of a once-each-turn trigger in F_ACTUSED; -1")
B_GROUP = F("group", "1: 'whenever one or more ... attack' (once per declaration)")
B_DISCARD_SELF = F("discard_self", "1: discarding this card is part of the cost (cycling)")
B_DECK_ZONE = F("search_zones", "unused")
B_FREE = F("free", "1: an activated ability without any cost or limit ({0}: Eladamri), which "
           "random agents don't repeat while one of its activations waits (policies)")  # fmt: skip
F = FILTERS.field
L_KW = F("keywords", "keyword bits: has all of them")
L_OR = F("or", "a second filter row: matches if either does (one level); -1")
L_CTL_REF = F("controller_ref", "R_* reference naming the controller it must have; R_NONE")
L_OWNER_REF = F("owner_ref", "R_* reference naming the owner it must have; R_NONE")
F = EFFECT_ROWS.field
E_AMT2 = F("amount2", "a second amount row (pump's toughness); -1 none")
E_SUB = F("subtype", "a subtype an animation adds; -1 none")
E_COLORS = F("colors", "colours an animation adds (bits)")
E_SETS_PT = F("sets_pt", "1: an animation sets power and toughness (layer 7b)")
E_MUST_FIND = F("must_find", "1: a search for cards of no stated quality: the player finds as "
                "many as it says if the zone has them (701.19b); 0: they may find fewer")  # fmt: skip
F = STATICS.field
A_WHO = F("who", "cost changes: REL_* of the casting player to the controller")
A_PROT = F("protection", "colours of protection granted (702.16)")
A_AMT2 = F("amount2", "a second amount row (characteristic toughness); -1")

# added references, amounts, conditions, events, ops, statics
R_EVENT_ATTACKED = 13  # the player, planeswalker or battle the event's attacker attacks
R_EVENT_ITEM = 14  # the spell or ability the event is about (ward: what targeted)
(
    AM_TOTAL_POWER, AM_MANA_POOL, AM_LAST, AM_OPP_DAMAGED,
) = range(15, 19)  # fmt: skip
CO_IS, CO_IN_ZONE = 14, 15
EV_PUT_INTO_GRAVEYARD = len(EV_NAMES)
EV_NAMES = EV_NAMES + ("put_into_graveyard",)
EV["put_into_graveyard"] = EV_PUT_INTO_GRAVEYARD
OP_CANT_REGENERATE, OP_EMBLEM, OP_PUT_ATTACKING = range(len(OP_NAMES), len(OP_NAMES) + 3)
OP_NAMES = OP_NAMES + ("cant_regenerate", "emblem", "put_attacking")
OP.update({name: k for k, name in enumerate(OP_NAMES)})
(
    ST_CANT_BE_COUNTERED, ST_SELF_COST, ST_CHAR_PT, ST_LOYALTY_INSTANT,
) = range(21, 25)  # fmt: skip
# ----------------------------------------------------------------- Conspiracy Draft (905)
# (systems/conspiracy.py; fields appended to their tables, numbers kept apart from the
# others' so that vocabularies growing at the same time don't collide)
B_GRANT = ABILITIES.field(
    "granted_to",
    "filter row of the permanents a command-zone card grants this ability to "
    "(Secrets of Paradise: 'creatures you control with the chosen name have ...'); -1: its own",
)
L_NAMED = FILTERS.field(
    "named",
    "1: has a name the source's hidden agenda names (702.106); 2: the chosen name "
    "other than the event object's (Summoner's Bond); 0: any",
)
L_NOTED = FILTERS.field("noted", "1 + NOTE_* of a note its name, type or colour must be in; 0")
L_NOTED_CARD = FILTERS.field("noted_card", "card row of the cards the note was made for")
AM_NOTED = 40  # M_ARG: card row; M_ARG2: 0 the highest number noted, 1 how many notes
AM_CHOSEN_NUMBER = 41  # the number chosen for the source before the game (Emissary's Ploy)
AM_CREATURE_SPELLS = 42  # M_ARG: a player reference; creature spells they cast this turn
CO_FIRST_TURN, CO_NOTED = 40, 41  # N_A: 0 the active player's first turn, 1 the game's
CO_WHOLE_POOL = 42  # every card of your draft pool started the game in the game (Worldknit)
(
    ST_ENTERS_COUNTERS, ST_CANT_CAST, ST_ANY_COLOR, ST_STARTING_PLAYER, ST_TOUGHNESS_DAMAGE,
    ST_START_HAND, ST_MUST_ATTACK, ST_EXTRA_HAND, ST_CHOOSE_NUMBER,
) = range(40, 49)  # fmt: skip
# ----------------------------------------------------------------- the casual variants' words
# (issue 14: planes, phenomena, schemes, vanguards; documented in VOCABULARY.md)
EV_ROLLS_DIE = len(EV_NAMES)  # "whenever you roll one or more dice" (706, 901.9d)
EV_NAMES = EV_NAMES + ("rolls_die",)
EV["rolls_die"] = EV_ROLLS_DIE
(
    OP_CHAOTIC_AETHER, OP_REVERSE_TURN_ORDER, OP_REVEAL_PLANES, OP_NO_SCHEMES,
    OP_CHAOS_OF_TOP_PLANES, OP_NO_MAX_HAND, OP_CHOOSE_MODE, OP_RESHUFFLE_PERMANENTS,
    OP_REVEAL_UNTIL,
) = range(len(OP_NAMES), len(OP_NAMES) + 9)  # fmt: skip
OP_NAMES = OP_NAMES + (
    "chaotic_aether", "reverse_turn_order", "reveal_planes", "no_schemes_this_turn",
    "chaos_of_top_planes", "no_max_hand_size", "choose_mode", "reshuffle_permanents",
    "reveal_until",
)  # fmt: skip
OP.update({name: k for k, name in enumerate(OP_NAMES)})
ST_DAMAGE_BY_TOUGHNESS = 60  # "each creature assigns combat damage equal to its toughness"
ST_PREVENT_ONE = 61  # "if a source an opponent controls would deal damage to you, prevent 1"
R_EACH_OPPONENT_BUT_TARGET = 140  # each of your opponents other than the (first) target
R_EACH_OF_TARGET = 141  # each permanent matching the filter that the (first) target controls
R_EACH_OPPONENT_BUT_DEFENDING = 142  # each opponent but the player the event's attacker attacks
R_EACH_PLAYER_BUT_TARGET_CONTROLLER = 143  # each player but the (first) target's controller
ST_DOUBLE_DAMAGE = 62  # "if a creature you control (a source) would deal damage, double it"
CO_DAMAGE_TAKEN = 60  # "if you've been dealt N or more damage this turn"
CO_SELF_ATTACKED = 61  # "if ~ attacked this turn" (declared as an attacker, 508.1; not 508.4)
ST_LAND_MANA_PLUS = 63  # "whenever you tap a land for mana, add one more of a type it made"
ST_HANDS_REVEALED = 64  # "your opponents play with their hands revealed"
ST_ARTIFACT_CREATURES = 65  # noncreature artifacts are creatures with P/T = mana value
ST_SKIP_UNTAP = 66  # "players skip their untap steps" (The Eon Fog)
ST_SET_COLOR = 67  # "all creatures are black" (layer 5; A_ARG: the colour bits)
# the Vanguard cards' words (issue 14: the 1997-1999 avatars; numbers kept apart)
ST_FLASH_FOR = 90  # "you may cast [these] spells as though they had flash" (A_ARG: filter)
ST_BASIC_ANY_COLOR = 91  # "a basic land you control tapped for mana makes any colour instead"
OP_REMOVE_FROM_COMBAT = len(OP_NAMES)  # 506.4
OP_NAMES = OP_NAMES + ("remove_from_combat",)
OP.update({name: k for k, name in enumerate(OP_NAMES)})
X_NO_MAX_HAND = 16  # effects table kind: "you have no maximum hand size" (until ...)
# the synthetic ability rows at the end of every cards arena: exalted (702.83), then deploy
AB_FROM_END_EXALTED = 2
# reveal_planes (E_A): what happens to the planes revealed
REVEAL_PLANES_TOP, REVEAL_PLANES_PLANESWALK = 0, 1
# ----------------------------------------------------------------- Planechase (2009) planes
# (numbers kept apart from the other vocabularies growing at the same time)
ST_REVEAL_DRAWS = 120  # "players reveal each card they draw" (Sea of Sand): information only
ST_LIBRARY_TOPS_REVEALED = 121  # "players play with the top card of their libraries revealed"
ST_CANT_CAST_LIBRARY_TOP_TYPES = (
    122  # spells sharing a card type with a library's top card (Skybreen)
)
C_NAME_ID = CARDS.field("name_id", "a number per name in the compiled batch (201.2: same name)")
CHOOSER_EVENT_CONTROLLER = 3  # B_CHOOSER: the trigger's event object's controller (Immersturm)
L_SHARES_TYPE = FILTERS.field(
    "shares_type_with",
    "1 + N: shares a card type with the ability's target.N (Cliffside Market); 0",
)
OP_EXCHANGE_CONTROL = len(OP_NAMES)  # 701.10: two permanents' controllers swap
OP_ADDITIONAL_COMBAT = OP_EXCHANGE_CONTROL + 1  # 500.8: a combat and a main phase after this one
OP_NAMES = OP_NAMES + ("exchange_control", "additional_combat")
OP["exchange_control"] = OP_EXCHANGE_CONTROL
OP["additional_combat"] = OP_ADDITIONAL_COMBAT
L_ATTACKED = FILTERS.field("attacked_this_turn", "1: it was declared as an attacker this turn; 0")
L_SAME_NAME = FILTERS.field(
    "same_name_as", "1 + R_* reference: has the name of the object it names (Isle of Vesuva); 0"
)

# ----------------------------------------------------------------- the schemes' words (904)
# (Archenemy (2010); documented in VOCABULARY.md)
L_PUT_BY = FILTERS.field(
    "put_by", "1: put onto the battlefield by the resolution of an ability of the source (self)"
)
L_NOT_KW = FILTERS.field("not_keywords", "keyword bits: has none of them")
L_NOT_REF = FILTERS.field(
    "not_ref", "R_* reference naming a player: a player, or an object's controller, other than it"
)
G_ONE_PER_PLAYER = TARGETS.field(
    "one_per_player",
    "1: no two of its targets have the same owner ('for each opponent, up to "
    "one target ... from that player's graveyard')",
)
EV_UNBLOCKED = len(EV_NAMES)  # "whenever a creature attacks and isn't blocked" (509.1h)
EV_NAMES = EV_NAMES + ("attacks_unblocked",)
EV["attacks_unblocked"] = EV_UNBLOCKED
OP_LASTING = len(OP_NAMES)  # statics of a resolved ability, lasting until a time (611.2a)
OP_NAMES = OP_NAMES + ("lasting",)
OP.update({name: k for k, name in enumerate(OP_NAMES)})
MAY_PAY_X = 3  # E_A of a `may` step: "you may pay {X}" (X chosen as it resolves, 107.3)
MUST_ATTACK_OWNER = 1  # E_A of must_attack: each one attacks its own owner if able
EACH_PLAYER_STATIC = 1  # A_ARG of a player static counted by command_static: every player's
AM_OPP_SPELLS_SINCE = 90  # M_ARG: a player; spells their opponents cast since their turn ended
AM_GRAVEYARD_TURN = 91  # M_ARG: a player; cards put into their graveyard this turn
AM_POWER_EXILED = 92  # the total power of the permanents the last exile step exiled
ST_UNTAP_IN_OPP_UNTAP = 100  # "untap all permanents you control during each opponent's untap step"

# ----------------------------------------------------------------- Planechase 2012's planes
# (issue 14; documented in VOCABULARY.md)
F = FILTERS.field
L_NO_COUNTER = F("without_counter", "1 + a counter kind it has none of; 0 any (Norn's Dominion)")
EV_COUNTERS_AT_LEAST = len(EV_NAMES)  # a state trigger: "when ~ has N or more K counters"
EV_NAMES = EV_NAMES + ("counters_at_least",)
EV["counters_at_least"] = EV_COUNTERS_AT_LEAST
COUNTERS_AT_LEAST_SHIFT = 8  # its B_ARG: amount << 8 | counter kind
ST_ONE_ATTACKER = 130  # "no more than one creature can attack each combat" (Astral Arena)
ST_ONE_BLOCKER = 131  # "no more than one creature can block each combat"

# ----------------------------------------------------------------- planes' lasting words
# (issue 14: Agyrem, Eloren Wilds, Selesnya Loft Gardens, Prahv, Akoum; VOCABULARY.md)
ST_CANT_ATTACK_PLAYER = 140  # "[these creatures] can't attack you" (the player; Agyrem)
ST_PERM_MANA_PLUS = 141  # "whenever a player taps a permanent for mana, one more" (Eloren Wilds)
ST_DOUBLE_TOKENS = 142  # 614.1a: an effect would create tokens: twice that many (Loft Gardens)
ST_DOUBLE_COUNTERS = 143  # 614.1a, 122.6: an effect would put counters on a permanent: twice
CO_CAST_THIS_TURN = 70  # "if you cast a spell this turn" (Prahv)
CO_ATTACKED_THIS_TURN = 71  # "if you attacked with creatures this turn" (Prahv)
CO_YOUR_TURN = 72  # "as long as it's your turn" (your team's turn in shared team turns, 805)
L_PLAYER_REF = FILTERS.field(
    "player_ref", "1 + R_* reference: a player filter matching only the player it names; 0"
)
L_ENCHANTED = FILTERS.field("enchanted", "1: an Aura is attached to it; 2: none is; 0 either")
A_TO = STATICS.field("to", "1 + filter row of what a prevention static protects; 0 anything")
R_PLAYER_DAMAGED_BY = 96  # + a simple reference: the player it dealt combat damage to this combat
L_COMBAT_DAMAGED = FILTERS.field(
    "combat_damaged", "1: it dealt combat damage to a player this combat"
)
ST_UNTAP_TO_COUNTERS = 144  # 614.1a: "would untap during your untap step: counters instead"

# ----------------------------------------------------------------- casting without paying,
# choices at random (issue 14: My Wish Is Your Command, Quicksilver Sea, Furnace Layer,
# Nephalia; Conspiracy: Aether Searcher; documented in VOCABULARY.md)
OP_CAST_FREE = len(OP_NAMES)  # 601.2, 118.9: cast a card without paying as this resolves
OP_RETURN_AT_RANDOM = OP_CAST_FREE + 1  # a card chosen at random goes to its owner's hand
OP_NAMES = OP_NAMES + ("cast_without_paying", "return_at_random")
OP["cast_without_paying"] = OP_CAST_FREE
OP["return_at_random"] = OP_RETURN_AT_RANDOM
# E_A of cast_without_paying: where the cards are
FREE_FROM_SET, FREE_FROM_TOP, FREE_FROM_SEARCH = range(3)
FREE_FROM_REF = 3  # E_A of cast_without_paying: the card E_REF names (rebound: "this card")
ST_REBOUND = 150  # "[these] spells have rebound" (702.88; A_ARG: the spells' filter)
AB_FROM_END_REBOUND = 3  # the synthetic rebound ability row: before exalted's and deploy's
OP_GRANT_ABILITY = len(OP_NAMES)  # an activated ability granted until a time (Stensia)
OP_NAMES = OP_NAMES + ("grant_ability",)
OP["grant_ability"] = OP_GRANT_ABILITY
AB_GRANTED_BY_EFFECT = 2  # B_ARG of an activated ability a resolved effect grants (not its card's)
G_AT_RANDOM = TARGETS.field(
    "at_random", "1: its targets are chosen at random among the legal ones (Furnace Layer)"
)

# ----------------------------------------------------------------- face-down permanents and
# copy effects (708, 707; 903.3's example: Ixidron, Cytoshape, Body Double)
OP_BECOME_COPY = len(OP_NAMES)  # 707.2: X_OBJ becomes a copy of an object (E_REF2) until ...
OP_NAMES = OP_NAMES + ("become_copy",)
OP["become_copy"] = OP_BECOME_COPY
OP_ENTER_AS_COPY = len(OP_NAMES)  # 614.1c, 707.2: the resolving permanent spell enters as a copy
OP_NAMES = OP_NAMES + ("enter_as_copy",)
OP["enter_as_copy"] = OP_ENTER_AS_COPY
C_ENTERS_AS_COPY = CARDS.field(
    "enters_as_copy", "1 + ability row: the program its spell resolves with, choosing what it "
    "enters as a copy of (Body Double); 0"
)  # fmt: skip
OP_MELD = len(OP_NAMES)  # 701.42a: exile self and E_REFA's permanent, meld them (self's back)
OP_NAMES = OP_NAMES + ("meld",)
OP["meld"] = OP_MELD
# ----------------------------------------------------------------- devour (702.82; Jund)
C_DEVOUR = CARDS.field("devour", "N of its devour N (702.82a); 0")
AB_FROM_END_DEVOUR = 6  # the synthetic devour program row: before the granted unearth's
OP_DEVOUR = len(OP_NAMES)  # 702.82a: sacrifice the chosen creatures; it enters with counters
OP_NAMES = OP_NAMES + ("devour",)
OP["devour"] = OP_DEVOUR
OP_GAIN_DEVOUR = len(OP_NAMES)  # "[that spell] gains devour N" (Jund): F_DEVOUR
OP_NAMES = OP_NAMES + ("gain_devour",)
OP["gain_devour"] = OP_GAIN_DEVOUR
OP_SACRIFICE_EACH = len(OP_NAMES)  # 701.17: sacrifice these (the ones you control); S_LAST
OP_NAMES = OP_NAMES + ("sacrifice_each",)
OP["sacrifice_each"] = OP_SACRIFICE_EACH
OP_COPY_FOR_EACH_TARGET = len(OP_NAMES)  # Glimmervoid Basin: a copy for each other target
OP_NAMES = OP_NAMES + ("copy_for_each_other_target",)
OP["copy_for_each_other_target"] = OP_COPY_FOR_EACH_TARGET
L_SINGLE_TARGET = FILTERS.field("single_target", "1: a spell with a single target; 0 any")
# ----------------------------------------------------------------- suspend (702.62; Talon Gates)
ST_SUSPEND_ANY = 154  # "any time you could cast an instant, you may exile a nonland card ..."
AB_FROM_END_SUSPEND_TICK = 8  # the synthetic upkeep trigger of suspend: "remove a time counter"
AB_FROM_END_SUSPEND_CAST = 7  # ... and its "when the last is removed, you may cast it"
OP_SUSPEND_TICK = len(OP_NAMES)  # remove a time counter from a suspended card
OP_NAMES = OP_NAMES + ("suspend_tick",)
OP["suspend_tick"] = OP_SUSPEND_TICK
OP_SUSPEND_HASTE = len(OP_NAMES)  # the creature spell cast by suspend gains haste
OP_NAMES = OP_NAMES + ("suspend_haste",)
OP["suspend_haste"] = OP_SUSPEND_HASTE
L_SUSPENDED = FILTERS.field("suspended", "1: a suspended card (702.62b); 0 any")
L_FACE_DOWN = FILTERS.field("face_down", "1: a face-down permanent (708); 0 either")
C_ENTERS_FACE_DOWN = CARDS.field(
    "enters_face_down", "1 + filter row: as it enters, the other permanents matching are "
    "turned face down (Ixidron); 0"
)  # fmt: skip

# ----------------------------------------------------------------- flashback (702.34; Otaria)
AB_FLASHBACK = 11  # its flashback cast: its cost, the spell's targets and effects (702.34a)
C_FLASHBACK = CARDS.field("flashback", "1 + ability row of its flashback cast (702.34); 0")
ST_GRANT_FLASHBACK = 151  # "[these cards in graveyards] have flashback: their mana cost" (Otaria)
ST_GRANT_UNEARTH = 152  # "[these cards in graveyards] have unearth: their mana cost" (Grixis)
ST_PLAY_FROM_TOP = 153  # "players may play the top card of their libraries" (Windriddle Palace)
AB_FROM_END_UNEARTH = 5  # the synthetic row of a granted unearth: before its delayed trigger's

# ----------------------------------------------------------------- division (601.2d; Grand Ossuary)
G_DIVIDE = TARGETS.field(
    "divide", "1 + amount row: that amount is distributed among its targets, any number of "
    "them, each getting at least one (601.2d); 0 none"
)  # fmt: skip
CHOOSER_EVENT_OWNER = 4  # B_CHOOSER: the owner of the trigger's event object (Grand Ossuary)
OP_DISTRIBUTE_COUNTERS = len(OP_NAMES)  # the divided counters onto the legal targets
OP_NAMES = OP_NAMES + ("distribute_counters",)
OP["distribute_counters"] = OP_DISTRIBUTE_COUNTERS

# ----------------------------------------------------------------- conspire (702.78; Wort)
C_CONSPIRE = CARDS.field("conspire", "instances of conspire printed on it (702.78); 0 none")
ST_GRANT_CONSPIRE = 156  # "[these] spells you cast have conspire" (702.78; A_REFA: the spells)
AB_FROM_END_CONSPIRE = 9  # the synthetic conspire trigger ("copy it"): before suspend's rows

CARD_LAYOUT = Layout(
    "CardTables",
    [CARDS, ABILITIES, TARGETS, FILTERS, AMOUNTS, CONDITIONS, EFFECT_ROWS, STATICS],
    layout_id=2,
)


ST_CANT_BE_BLOCKED = 155  # "[these creatures] can't be blocked" (509.1b; Tetsuko): the final P/T

LAYER_STATICS = (
    ST_CONTROL, ST_ARTIFACT_CREATURES, ST_SET_COLOR, ST_GRANT, ST_CHAR_PT, ST_PUMP, ST_PT_PER,
    ST_COAT_OF_ARMS, ST_CANT_ATTACK, ST_CANT_BLOCK, ST_CANT_BE_BLOCKED,
)  # fmt: skip
"""The statics the layers apply (systems/continuous_effects._recompute, in layer order);
while one with a condition, a count or a set of objects that a change without a touch
may answer differently is applied (CF_LIVE_STATICS, S_LIVE_STATICS), the layers look
again after any change; the others are asked when they matter."""
