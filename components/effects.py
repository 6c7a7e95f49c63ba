"""Continuous effects of resolved spells and abilities (611) and prevention and
redirection shields (615, 614.9)."""

from __future__ import annotations

from components.schema import Table

EFFECTS = Table("eff", "continuous effects from resolved spells and abilities", rows="effects")
F = EFFECTS.field
X_KIND = F("kind", "X_* (what it does)")
X_OBJ = F("object", "the object it affects")
X_CTL = F("controller", "controller of the spell or ability that made it")
X_TS = F("ts", "timestamp (613.7)", volatile=True)
X_P = F("power", "power change (or value set)")
X_T = F("toughness", "toughness change (or value set)")
X_KW = F("keywords", "keyword bits granted")
X_NEWCTL = F("new_controller", "layer 2: the new controller")
X_TYPES = F("types", "types an animation adds")
X_UNTIL = F("until", "UNTIL_* duration")
X_SRC = F("source", "the source, for UNTIL_LEAVES")
X_SUB = F("subtypes", "a subtype an animation adds; -1")
X_COLORS = F("colors", "colours an animation adds (bits)")

X_PUMP, X_SET_PT, X_CONTROL, X_ANIMATE, X_CANT_BLOCK, X_CANT_ATTACK = range(6)
X_RETYPE = 6  # an animation that adds types, a subtype or colours but sets no P/T
X_LOSE_KW = 7  # layer 6: it loses the keywords X_KW (after the grants before it)
X_MUST_ATTACK = 8  # "attacks this turn if able" (508.1d: a requirement)
X_LASTING = 9  # statics of a resolved ability (X_SRC: the object holding them) until X_UNTIL
UNTIL_END_OF_TURN, UNTIL_LEAVES, UNTIL_YOUR_NEXT_TURN, UNTIL_FOREVER = range(4)
UNTIL_WHILE_CONTROLLED = 4  # while its controller controls the source (Olivia Voldaren)
UNTIL_PLANESWALK = 8  # until a player planeswalks (901.11; issue 14)
X_GRANT_ABILITY = 17  # an activated ability (its row in X_P) granted to X_OBJ (Stensia)
X_COPY = 18  # layer 1 (613.2a, 707.2): X_OBJ has the copiable values of card row X_P

SHIELDS = Table("sh", "prevention and redirection shields (615, 614.9)", rows="shields")
F = SHIELDS.field
H_CTL = F("controller", "controller of the effect that made it")
H_RECIP = F("recipient", "what it protects: object id or -1 - player")
H_HASRECIP = F("has_recipient", "0: any recipient (within range, 801.13b)")
H_AMT = F("amount", "damage it still prevents; -1 all")
H_COMBAT = F("combat_only", "1: combat damage only")
H_REDIRECT = F("redirect_to", "redirection (614.9): where the damage goes instead; NO")
H_BY = F("by_filter", "prevent damage dealt by sources matching this filter row; -1")
