"""Objects (109): one row for every card in every zone, token, copy, spell and ability
on the stack, and command-zone card (commanders, planes, schemes, vanguards,
conspiracies). A row is kept when its object changes zones (a new object in the
rules' sense, 400.7: the fields that describe the old object are reset by
``zones.move``); the row id is the object's identity for the engine."""

from __future__ import annotations

from components.rules import N_COUNTERS
from components.schema import Table

OBJECTS = Table("o", "every card, token, spell, ability and command-zone card", rows="objects")
F = OBJECTS.field

# what it is
F_CARD = F("card", "row of the card table (tokens and copies too); -1 for none")
F_ZONE = F("zone", "LIBRARY .. GONE (components.rules)")
F_OWNER = F("owner", "player index (108.3, 111.2)")
F_TOKEN = F("token", "1 for a token (111), 2 for a copy of a spell (707.10)")
F_TS = F("ts", "timestamp: when it entered its zone or last changed (613.7)", volatile=True)
F_FACE_DOWN = F("face_down", "1 while face down (conspiracies, planar and scheme decks)")
F_TRANSFORMED = F("transformed", "1 while its back face is up (712)")
F_COMMANDER = F("commander", "0, or 1 + its owner's commander slot (903.3): a commander card")
F_CMD_MOVED = F(
    "commander_moved",
    "1 while a commander put into a graveyard or exile since state-based actions last looked"
    " (903.9a)",
)
F_CMD_ANSWER = F(
    "command_zone_answer",
    "its owner's answer for the move under way (903.9b): 0 not asked, CMD_YES / CMD_NO",
)
F_NAMED = F("named", "card row a hidden agenda names (702.106); -1 none")
# control (layer 2, 613.1b)
F_BCTL = F("base_controller", "who put it onto the battlefield / cast it (110.2)")
F_CTL = F("controller", "controller after the layers")
F_LCTL = F("last_controller", "controller when last looked (302.6: control changes)")
# characteristics after the layers (613): printed values until recompute looks again
F_TYPES = F("types", "card type bits (components.rules T_*)")
F_COLORS = F("colors", "colour bits")
F_POW = F("power", "power")
F_TOU = F("toughness", "toughness")
F_KW = F("keywords", "keyword bits (components.rules KW_*)")
F_PROT = F("protection", "colours it has protection from (702.16), bits")
F_RESTRICT = F("restrict", "CANT_ATTACK | CANT_BLOCK from static abilities")
F_WARD = F("ward", "ward cost in generic mana (702.21); 0 none")
F_ANIMATED = F("animated", "1 if an effect made it a creature (its subtypes and P/T set)")
# status (110.5)
F_TAPPED = F("tapped", "1 if tapped")
F_SICK = F("sick", "1 until its controller has controlled it since their turn began (302.6)")
F_DMG = F("damage", "damage marked this turn (120.3e)")
F_DTHIT = F("deathtouch_hit", "dealt damage by a source with deathtouch this turn (704.5h)")
F_REGEN = F("regeneration", "regeneration shields this turn (701.19)")
F_CTR = F("counters", "counters by kind (components.rules COUNTER_NAMES)", width=N_COUNTERS)
F_ATT = F("attached_to", "object it is attached to (Aura, Equipment); -1 none")
F_PROTECTOR = F("protector", "a battle's protector (310.8); -1 none")
F_EXILED_BY = F("exiled_by", "object whose effect exiled it ('until ... leaves', Karn); -1")
F_UNEARTHED = F(
    "exile_if_leaves", "1: if it would leave the battlefield, it is exiled instead (702.84)"
)
F_LOYUSED = F("loyalty_used", "1 once a loyalty ability of it was activated this turn (606.3)")
F_ACTUSED = F("activated", "bits: which of its activated abilities were used this turn")
F_MERGED = F("merged_next", "next component under it of a merged permanent (727); -1")
F_MERGED_IN = F("merged_into", "the merged permanent it is a component of (727); -1")
F_TOP = F("top", "1 + a merged permanent's topmost component (727.2a); 0: the permanent itself")
F_COPY = F("copy", "1: a token copy of a permanent (707.2): named as what it copies; 0")
F_DEVOUR = F("devour", "N of a devour N it gained as a spell (Jund), kept as it resolves; 0")
F_DEVOURED = F("devoured", "how many creatures it devoured as it entered (702.82b); 0")
F_SUSPEND = F("suspend", "1: it gained suspend in exile (Talon Gates, 702.62); 0")
F_SUSP_HASTE = F(
    "suspend_haste", "1 + who cast it by suspend: a creature spell's haste while they control "
    "it and the permanent it becomes (702.62a); 0"
)  # fmt: skip
F_MELDED = F(
    "melded", "1: a melded permanent (701.42, 712.4): its back face, its other card merged in"
)
F_LEFT_WITH = F("left_with", "1 + the merged permanent it left the battlefield with (727.3c); 0")
# subgames (726)
F_ORIGIN = F("origin", "1 + the object a subgame's card is in the game above (726); 0: none")
F_OUTSIDE = F("outside", "1: a card outside this game an effect may bring in (726.4, 726.5)")
F_BROUGHT = F("brought_in", "1: brought into this subgame; the game above still has it (726.4a)")
# combat (506-511)
F_ATKP = F("attacking_player", "player it attacks or whose planeswalker/battle it attacks; -1")
F_ATKO = F("attacking_object", "planeswalker or battle it attacks; -1")
F_BLOCKING = F("blocking", "attacker it blocks; -1")
F_BLOCKED = F("blocked", "1 once blocked (509.1h)")
F_FSD = F("first_strike_dealt", "dealt combat damage in the first-strike step (510.4)")
F_ATTACKED = F("attacked_this_turn", "1 once declared as an attacker this turn (508.1)")
F_DECL = F("declared", "attack/block being declared: the defender or attacker chosen")
F_DSEQ = F("declared_seq", "order of declaration (attackers, blockers)")
F_BSEQ = F("block_seq", "blockers' order for damage assignment (510.1c)")
# on the stack (405, 601, 602, 603): spells and abilities
F_IKIND = F("item", "SPELL, ACTIVATED, TRIGGERED, PLANESWALKING (components.stack)")
F_IAB = F("ability", "row of the ability table it is an instance of; -1 none")
F_ICTL = F("item_controller", "its controller (a spell's caster, an ability's controller)")
F_SRC = F("source", "its source object; -1 none (the planeswalking ability, 901.8)")
F_NT = F("n_targets", "targets chosen")
MAX_TARGETS = 8
F_T0 = F("targets", "its targets: object ids, or -1 - player", width=MAX_TARGETS)
F_TSPEC = F("target_specs", "the target spec row each target was chosen for", width=MAX_TARGETS)
F_CHOOSER = F("chooser", "the opponent named to make its choices (801.5a); -1")
F_X = F("x", "the value of X (107.3)")
F_MODES = F("modes", "bits: the modes chosen (700.2)")
F_KICKED = F("kicked", "1 if kicked; 2 if overloaded")
F_FROM = F("cast_from", "zone it was cast from (903.8: command zone)")
F_SPENT = F("mana_spent", "mana spent to cast it")
F_EVP = F("event_player", "a trigger's event: the player involved; -1")
F_EVA = F("event_amount", "a trigger's event: the amount")
F_EVO = F("event_object", "a trigger's event: the object involved; -1")
F_EVC = F("event_controller", "a trigger's event: the controller of the object involved; -1")
F_CASTING = F("casting", "1 while being cast (601.2a-h): its choices still being made")
# last known information (608.2h)
F_LKI_POW = F("lki_power", "power as it last existed on the battlefield")
F_LKI_CTL = F("lki_controller", "controller as it last existed on the battlefield")
F_PAY_FIRST = F("pay_first", "1: a mana source to tap first (a script's `pay:`)", volatile=True)
# the card pool's words (issue 17)
F_LKI_CTR = F("lki_counters", "+1/+1 and -1/-1 counters as it last existed on the battlefield",
              width=2)  # fmt: skip
F_XSUB = F("extra_subtype", "a subtype an effect gave it (layer 4); -1 none")
F_NOREGEN = F("no_regeneration", "1: it can't be regenerated this turn (701.19c)")
# Conspiracy Draft (905, 702.106; systems/conspiracy.py)
F_NAMED2 = F("named_2", "1 + card row of the second name a double agenda names; 0 none")
F_NUMBER = F("chosen_number", "a number chosen for it before the game (Emissary's Ploy); 0")
# the casual variants (issue 14)
F_MARKER = F("plane_marker", "Grand Melee Planechase: number of the turn marker whose holder "
             "controls this face-up plane (901.14); 0 none")  # fmt: skip
# the schemes (904)
F_LASTING_PLAYER = F("lasting_player", "1 + the player chosen when a lasting effect began (the "
                     "chosen_player of its statics); 0 none")  # fmt: skip
F_MUST_ATTACK_P = F("must_attack_player", "1 + the player it attacks if able (508.1d: an effect "
                    "says so); 0 none")  # fmt: skip
F_PUT_BY = F("put_onto_battlefield_by", "1 + the source whose resolving spell or ability put it "
             "onto the battlefield (kept after it leaves: 'a creature put onto the battlefield "
             "with ~ dies'); 0")  # fmt: skip
# planes' words (Glen Elendra)
F_COMBAT_DAMAGED = F("combat_damaged_player", "1 + the player it dealt combat damage to this "
                     "combat (cleared as combat ends, 511.3); 0 none")  # fmt: skip
TOKEN_LASTING = 4  # F_TOKEN of the object holding a lasting effect's statics: not a card, unseen

# F_RESTRICT bits
CANT_ATTACK, CANT_BLOCK = 1, 2
# F_CMD_ANSWER values (903.9b): the command zone instead, or where it was going
CMD_YES, CMD_NO = 1, 2
MUST_ATTACK = 4  # "attacks this turn if able" (508.1d)
# casting without paying (601.2, 118.9; Archenemy, Conspiracy, Planechase)
F_FREE = F("without_paying", "1 while it is being cast without paying its mana cost (118.9)")
F_HIT_PLAYER = F("hit_player_turn", "1 + the turn in which it last dealt damage to a player "
                 "('for the first time each turn': Stensia); 0 never")  # fmt: skip
# 707.2, 613.2a: a copy effect (903.3's example: Cytoshape)
F_COPY_OF = F("copy_of", "1 + the card row whose copiable values a copy effect gives it "
              "(layer 1; set by the layers from the effects); 0 none")  # fmt: skip
F_FLASHBACK = F("flashback", "1 while a spell cast by flashback is on the stack (702.34a: exiled "
                "as it leaves the stack)")  # fmt: skip
# conspire (702.78)
F_CONSPIRED = F("conspired", "how many of its conspire costs were paid as it was cast (702.78b: "
                "each triggers); 0")  # fmt: skip
