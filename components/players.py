"""Players (102): one row each, in the order they were listed (seating order), and
the per-player blocks (libraries, hands, commander damage)."""

from __future__ import annotations

from components.rules import N_COUNTERS, N_MANA
from components.schema import Table

PLAYERS = Table("pl", "one row per player", rows="players")
F = PLAYERS.field

P_LIFE = F("life", "life total (119); in a team sharing life, the team's (P_LIFEPOOL)")
P_LIFEPOOL = F("life_pool", "the player whose row holds this player's life and poison")
P_POISON = F("poison", "poison counters (122.1f); shared like life (810.10)")
P_ALIVE = F("in_game", "1 while in the game (800.4)")
P_LOST = F("lost", "1 if lost the game")
P_WON = F("won", "1 if won the game")
P_DRAWN = F("drawn", "1 if the game was a draw for them")
P_HOW = F("how", "how their game ended (HOW_*): the rule or effect that made them leave")
P_POLICY = F("policy", "the compiled agent deciding for them in batches (systems/policies)")
P_TEAM = F("team", "team index (808, 809, 810, 811); own index when not in a team")
P_ROLE = F("role", "ROLE_* (emperor, general, archenemy)")
P_SEATPOS = F("seat", "position at the table, clockwise (seating order)")
P_REACH = F("reach", "range of influence (801.2a); 0 = unlimited")
P_LANDS = F("lands_played", "lands played this turn (305.2)")
P_LAND_DROPS = F("land_drops", "lands they may play this turn")
P_DREW_EMPTY = F("drew_from_empty", "tried to draw from an empty library (704.5b)")
P_MAXHAND = F("max_hand_size", "maximum hand size (402.2); -1 none")
P_HANDN = F("hand_size", "cards in hand (length of the hand list)")
P_LIBN = F("library_size", "cards in library (length of the library list)")
P_MANA = F("mana", "mana pool: W U B R G C (106.4)", width=N_MANA)
P_CTR = F("counters", "counters on the player (experience, energy...)", width=N_COUNTERS)
P_CMD = F("commanders", "object ids of their commanders (903.3, 702.124); -1 none", width=2)
P_CMDCAST = F("commander_casts", "times each commander was cast from the command zone", width=2)
P_IDENTITY = F("color_identity", "colour bits of their commanders' identity (903.4)")
P_VANGUARD = F("vanguard", "their vanguard card's object id (902); -1 none")
P_START_HAND = F("starting_hand", "cards in an opening hand (103.5; 902.5)")
P_MULLIGANS = F("mulligans", "mulligans taken (103.5)")
P_KEPT = F("kept", "this round of mulligans: 0 to decide, 1 kept, 2 mulligans (103.5)")
P_BOTTOM = F("to_bottom", "cards still to put on the bottom after keeping (103.5)")
P_SPELLS = F("spells_cast", "spells cast this turn (728.2, 'second spell')")
P_SPELLS_LAST = F("spells_cast_last_turn", "spells cast in the previous turn (728.2)")
P_DRAWS = F("cards_drawn", "cards drawn this turn")
P_PLANAR_ROLLS = F("planar_rolls", "planar die rolls as the special action this turn (901.9)")
P_PDECKN = F("planar_deck_size", "cards in their planar deck (901.3)")
P_SDECKN = F("scheme_deck_size", "cards in their scheme deck (904.3)")
P_OPP_DAMAGED = F("opponents_damaged", "opponents their creatures dealt combat damage this turn")
P_DEFERRED = F("deferred_turns", "Grand Melee: delayed extra turns (807.4i-j)")
P_MONARCH = F("monarch", "1 while the monarch")
P_START_LIFE = F("starting_life", "the life total a game begins with (103.4): a restart's (723)")
P_TURNS = F("turns_begun", "turns of theirs begun so far (first-upkeep triggers)")
P_CREATURE_SPELLS = F("creature_spells_cast", "creature spells cast this turn")
P_OUTSIDE = F("pool_outside", "cards of their draft pool left outside the game (Worldknit)")
P_OUTSIDE_BASICS = F("outside_basics", "1: may play basic lands from outside the game this turn")
P_DAMAGE_TURN = F("damage_this_turn", "damage dealt to them this turn (Nothing Can Stop Me Now)")
P_SUB_RESULT = F("subgame_result", "the last subgame: 0 not in it, 1 won it, 2 lost or drew (726)")
P_KEEP_MANA = F("kept_mana", "mana of each colour that doesn't empty this turn (Kessig Naturalist)",
                width=N_MANA)  # fmt: skip
# caches and indexes (derived, kept for speed; never part of the game's state)
P_OPP_SPELLS_SINCE = F(
    "opponent_spells_since_turn",
    "spells their opponents cast since their last turn ended (904: schemes)",
)
P_GRAVEYARD_TURN = F(
    "cards_to_graveyard", "cards put into their graveyard this turn (904: schemes)"
)
P_ATTACKED_TURN = F(
    "attacked_turn", "the turn they last declared an attacking creature (508.1; Prahv); 0"
)
P_HA_VER = F("has_action_version", "state version has_action was answered for", volatile=True)
P_HA_SORC = F("has_action_sorcery", "timing it was answered for", volatile=True)
P_HA_VAL = F("has_action_value", "the cached answer", volatile=True)
P_NINSTANT = F("instants_in_hand", "cards in hand castable at instant speed", volatile=True)
P_NGRAVE_ACT = F("graveyard_actions", "cards in the graveyard whose own words let them be "
                 "activated or cast from there (CF_FROM_GRAVEYARD)", volatile=True)  # fmt: skip
P_HELD0 = F("held_start", "start of their permanents in the `held` list", volatile=True)
P_NHELD = F("held_count", "how many permanents they control", volatile=True)
P_ELIG = F("eligible", "807.5a: gets priority for the loaded stack", volatile=True)

"""life: 0 or less life (704.5a); combat: the same, checked in a combat damage step;
decking: drew from an empty library (704.5b); poison (704.5c); commander damage
(903.10a); effect: a spell or ability said so, or an opponent won (104.3e, 104.3h);
concession (104.3a); team: lost with their team or emperor (809.5b, 810.8a)."""

# roles
ROLE_NONE, ROLE_EMPEROR, ROLE_GENERAL, ROLE_ARCHENEMY = range(4)
ROLE_NAMES = ("", "emperor", "general", "archenemy")

LIBRARIES = Table("lib", "each player's library, bottom first (the top is the last)",
                  shape=("players", "library"))  # fmt: skip
HANDS = Table("hand", "each player's hand, in object-id order", shape=("players", "hand"))
PLANAR_DECKS = Table("pdeck", "planar decks, bottom first (901.3)", shape=("players", "deck"))
SCHEME_DECKS = Table("sdeck", "scheme decks, bottom first (904.3)", shape=("players", "deck"))
COMMUNAL_DECK = Table("cdeck", "the single planar deck, bottom first (901.15)", shape=("deck",))
COMMANDER_DAMAGE = Table(
    "cdmg",
    "combat damage dealt to each player by each commander (903.10a): [victim, 2*owner+slot]",
    shape=("players", "commander_slots"),
)
SEATS = Table("seat", "player index by seat position, clockwise", shape=("players",))
RANGES = Table(
    "rm",
    "[0]: q within p's range of influence (801.2); [1]: p may attack q (801.3, 802, 803);"
    " [2]: p's creatures dealt combat damage to q this turn",
    shape=(3, "players", "players"),
)

# how a player's game ended (P_HOW; "combat": life to 0 in a combat damage step)
HOW_NAMES = (
    "playing", "life", "poison", "decking", "commander-damage", "conceded", "effect",
    "draw", "won", "team", "combat",
)  # fmt: skip
(
    HOW_PLAYING, HOW_LIFE, HOW_POISON, HOW_DECKING, HOW_COMMANDER, HOW_CONCEDED, HOW_EFFECT,
    HOW_DRAW, HOW_WON, HOW_TEAM, HOW_COMBAT,
) = range(len(HOW_NAMES))  # fmt: skip
# What a draft noted (905.2b; Conspiracy Draft, systems/conspiracy.py): one row per
# note, read by the cards that refer to notes ("the highest number you noted for cards
# named Lurking Automaton").
NOTES = Table("nt", "what the draft noted (905.2b), one row per note", rows="notes")
F = NOTES.field
NT_PLAYER = F("player", "who noted it")
NT_CARD = F("card", "card row of the card it was noted for")
NT_KIND = F("kind", "NOTE_*")
NT_VALUE = F("value", "a number, a player, colour bits, a card row, a subtype id")

# NT_KIND: a number (Lurking Automaton, Garbage Fire), a card removed from the draft
# (Cogwork Grinder), the player who passed the card (Cogwork Tracker), colours
# (Paliano, Regicide), a right guess (Spire Phantasm), a card name (Noble Banneret,
# Smuggler Captain, Aether Searcher), a creature type (Paliano Vanguard)
NOTE_NUMBER, NOTE_REMOVED, NOTE_PLAYER, NOTE_COLORS, NOTE_CORRECT, NOTE_NAME, NOTE_TYPE = range(7)
NOTE_KINDS = ("number", "removed", "player", "colors", "correct", "name", "type")
