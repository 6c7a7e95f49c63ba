"""Decisions are data: the pending decision (S_PEND, S_PPLAYER and its context in the
game's scalars) and its options, listed as rows of the ``acts`` table by
``systems/legal_actions.py``. Any option listed is accepted by ``apply_action``, and
nothing else is: an agent, a compiled policy, the scenario runner and the
environments all answer by choosing a row."""

from __future__ import annotations

from components.schema import Table

# kinds of pending decision (S_PEND)
PEND_NAMES = (
    "none", "priority", "attack", "block", "discard", "mode", "x", "target", "kicker",
    "choose_object", "choose_player", "yes_no", "pile_split", "pile", "scry", "number",
    "color", "name_card", "mulligan", "bottom", "trigger_target", "command_zone",
    "shortcut", "order", "subgame", "position",
)  # fmt: skip
(
    PEND_NONE, PEND_PRIORITY, PEND_ATTACK, PEND_BLOCK, PEND_DISCARD, PEND_MODE, PEND_X,
    PEND_TARGET, PEND_KICKER, PEND_CHOOSE_OBJECT, PEND_CHOOSE_PLAYER, PEND_YES_NO,
    PEND_PILE_SPLIT, PEND_PILE, PEND_SCRY, PEND_NUMBER, PEND_COLOR, PEND_NAME_CARD,
    PEND_MULLIGAN, PEND_BOTTOM, PEND_TRIGGER_TARGET, PEND_COMMAND_ZONE, PEND_SHORTCUT,
    PEND_ORDER, PEND_SUBGAME, PEND_POSITION,
) = range(len(PEND_NAMES))  # fmt: skip

# kinds of action (an option of a decision)
ACTION_NAMES = (
    "pass", "play_land", "cast", "activate", "attack", "attack_done", "block",
    "block_done", "block_reset", "discard", "choose", "mulligan", "keep", "special",
)  # fmt: skip
(
    A_PASS, A_LAND, A_CAST, A_ACTIVATE, A_ATTACK, A_ATTACK_DONE, A_BLOCK, A_BLOCK_DONE,
    A_BLOCK_RESET, A_DISCARD, A_CHOOSE, A_MULLIGAN, A_KEEP, A_SPECIAL,
) = range(len(ACTION_NAMES))  # fmt: skip
# special actions (116.2): A_SPECIAL's arg
SP_ROLL_PLANAR_DIE, SP_TURN_FACE_UP, SP_SUSPEND = range(3)

ACTIONS = Table("acts", "the options of the pending decision", rows="actions", volatile=True)
F = ACTIONS.field
AC_KIND = F("kind", "A_*")
AC_PLAYER = F("player", "who takes it")
AC_OBJ = F("object", "the object it is about (a card to play, an attacker, a choice); -1")
AC_ARG = F("arg", "ability index, defender, attacker, number, yes/no...")
AC_ARG2 = F("arg2", "a second argument")

TRACE = Table("tr", "what happened, for replays and tests (decisions and random draws)",
              rows="trace", volatile=True)  # fmt: skip
F = TRACE.field
TR_KIND = F("kind", "PEND_* of a decision, or T_* for a random event")
TR_PLAYER = F("player", "who decided")
TR_N = F("n_options", "how many options there were")
TR_INDEX = F("index", "which option was taken")
TR_ACTION = F("action", "the action row taken", width=5)
T_SHUFFLE, T_RANDOM = 100, 101  # random events in the trace
