"""The stack (405) and triggered abilities waiting to be put on it (603.3), delayed
triggered abilities (603.7), extra turns (500.7)."""

from __future__ import annotations

from components.schema import Table

STACK_TABLE = Table("stk", "the loaded stack, bottom first (object ids)", shape=("stack",))

# kinds of stack items (F_IKIND)
I_SPELL, I_ACTIVATED, I_TRIGGERED, I_PLANESWALKING = range(4)

TRIGGERED = Table("trg", "triggered abilities waiting to be put on the stack", rows="triggers")
F = TRIGGERED.field
Q_SRC = F("source", "object whose ability triggered")
Q_AB = F("ability", "row of the ability table")
Q_CTL = F("controller", "who controls the ability (603.3a)")
Q_EVP = F("event_player", "the player the event involves; -1")
Q_EVA = F("event_amount", "the event's amount")
Q_EVO = F("event_object", "the object the event involves; -1")
Q_EVC = F("event_controller", "controller of that object; -1")

DELAYED = Table("dl", "delayed triggered abilities (603.7)", rows="delayed")
F = DELAYED.field
D_AB = F("ability", "row of the ability table (its effects)")
D_CTL = F("controller", "who controls it")
D_SRC = F("source", "the object that created it")
D_OBJ = F("object", "the object it refers to ('exile it'); -1")
D_WHEN = F("when", "DL_* moment it triggers at")
D_TURN = F("turn", "turn it was created in")

# D_WHEN
DL_NEXT_END_STEP, DL_YOUR_NEXT_UPKEEP, DL_END_OF_COMBAT = range(3)

DIVISIONS = Table("dv", "how a stack object's divided amount is distributed among its targets "
                  "(601.2d): one row per target, any number of them", rows="divisions")  # fmt: skip
F = DIVISIONS.field
V_ITEM = F("item", "the spell or ability on the stack")
V_TARGET = F("target", "one of its targets")
V_SPEC = F("spec", "the target spec row it was chosen for")
V_AMOUNT = F("amount", "how much of the divided amount it gets (at least 1)")

EXTRA_TURNS = Table("xt", "extra turns waiting, next first (500.7)", shape=("extra_turns",))
BLOCK_QUEUE = Table("bq", "defending players still to declare blockers (509.1, 802.4)",
                    shape=("players",))  # fmt: skip
CHOSEN = Table("chosen", "objects or player codes a resolving effect chose", shape=("chosen",))
MARKS = Table("marks", "a mark for each entry of `chosen` (where a card looked at goes)",
              shape=("chosen",))  # fmt: skip
LOOP = Table("loop", "what a 'for each' step goes through", shape=("chosen",))
LEFT = Table("left", "objects that left the battlefield in the current simultaneous event, "
              "for the abilities that look back in time (603.10a)", shape=("objects",))  # fmt: skip
