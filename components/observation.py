"""What an agent sees: the observation vector the environments give a player, declared
once here (features by section) and filled by systems/observation.py.

A vector has four sections, each a block of rows of features: ``game`` (one row),
``players`` (``max_players`` rows: row k is the player k seats to the observer's
left, row 0 the observer), ``cards`` (``max_cards`` rows: the objects the observer
can see, in the order below) and ``actions`` (``max_actions`` rows: the options of the
pending decision when the observer decides, zeros otherwise). Values are raw counts
and ids as float32.

"seat" = how many seats to the observer's left (0 = the observer); a player reference
is 1 + seat (0 = none). "slot" = 1 + a row of the cards section (0 = none, or not
visible). "card" = 1 + the card's index in the pool's sorted list of names, the same
in every game (0 = hidden). Visible objects, in order: library cards the options of
the observer's pending decision are about (cards revealed to choose from), the
observer's hand (by id),
the stack (top first, abilities included), the battlefield (by controller seat, then
id), graveyards (by owner seat, then id), exile, the command zone (face-down cards of
others show no card). Other players' hands and every library appear only as counts."""

from __future__ import annotations

GAME_FEATURES = (
    "turn", "step", "decision", "i_decide", "decision_count", "stack_size", "players",
    "players_in_game", "active_seat", "starting_seat", "variant", "attack_option",
    "legal_actions", "over", "day_night", "monarch_seat",
)  # fmt: skip
PLAYER_FEATURES = (
    "present", "in_game", "is_me", "teammate", "is_active", "is_deciding", "life", "poison",
    "hand_size", "library_size", "graveyard_size", "battlefield_size", "lands_played",
    "in_my_range", "won", "lost", "drawn", "mana_W", "mana_U", "mana_B", "mana_R", "mana_G",
    "mana_C", "role", "mulligans",
)  # fmt: skip
CARD_FEATURES = (
    "present", "card", "is_ability", "zone", "owner_seat", "controller_seat", "mine",
    "teammate", "tapped", "sick", "power", "toughness", "damage", "counters_p1p1",
    "counters_m1m1", "loyalty", "attacking_seat", "attacking_slot", "blocking_slot",
    "attached_slot", "token", "types", "keywords", "stack_pos", "face_down", "commander",
)  # fmt: skip
ACTION_FEATURES = (
    "kind", "player_seat", "obj_slot", "obj_card", "arg", "arg_slot", "arg_seat", "arg2",
)  # fmt: skip
"""kind = 1 + components.decisions ACTION_NAMES index; obj = the object the option is
about (a card to play, an attacker, a blocker, a chosen object); arg its argument
(ability index, X, a number...), also shown as arg_slot / arg_seat when it names an
object (the attacker a blocker blocks, a planeswalker attacked) or a player (a
defender, a chosen player)."""

GAME_INDEX = {n: i for i, n in enumerate(GAME_FEATURES)}
PLAYER_INDEX = {n: i for i, n in enumerate(PLAYER_FEATURES)}
CARD_INDEX = {n: i for i, n in enumerate(CARD_FEATURES)}
ACTION_INDEX = {n: i for i, n in enumerate(ACTION_FEATURES)}
NG, NP, NC, NA = len(GAME_FEATURES), len(PLAYER_FEATURES), len(CARD_FEATURES), len(ACTION_FEATURES)

# the dims a kernel receives (ints[0:4]) before the card-id map
OD_PLAYERS, OD_CARDS, OD_ACTIONS, OD_VIEWER, OD_HEADER = 0, 1, 2, 3, 4

# the vectorised environment's per-game row (systems/vector_env.py): the option to take,
# then the next decision's number of options, whether the game just ended, who decides
# next, and (from VR_RESULT, one per player) the results of a game that ended
VR_ACTION, VR_NOPTIONS, VR_DONE, VR_PLAYER, VR_RESULT = range(5)


def offsets(max_players: int, max_cards: int, max_actions: int) -> tuple[int, int, int, int]:
    """Where each section starts, and the vector's size."""
    p0 = NG
    c0 = p0 + max_players * NP
    a0 = c0 + max_cards * NC
    return p0, c0, a0, a0 + max_actions * NA
