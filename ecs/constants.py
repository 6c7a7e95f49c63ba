"""Enumerations shared by components, systems and the card compiler.

Everything a kernel reads is a small integer or a bit in a mask, so the
numba systems can run over plain columns.
"""

from __future__ import annotations

# --- zones (rule 400.1) ------------------------------------------------------
LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, EXILE, STACK, COMMAND, GONE = range(8)
ZONE_NAMES = ("library", "hand", "battlefield", "graveyard", "exile", "stack", "command", "gone")
ZONE_BY_NAME = {n: i for i, n in enumerate(ZONE_NAMES)}

# --- steps (rules 500-514) -----------------------------------------------------
(
    UNTAP,
    UPKEEP,
    DRAW,
    MAIN1,
    BEGIN_COMBAT,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    FIRST_STRIKE_DAMAGE,
    COMBAT_DAMAGE,
    END_COMBAT,
    MAIN2,
    END,
    CLEANUP,
    PREGAME,
) = range(14)
STEP_NAMES = (
    "untap",
    "upkeep",
    "draw",
    "precombat-main",
    "beginning-of-combat",
    "declare-attackers",
    "declare-blockers",
    "combat-damage",  # first-strike combat damage step (510.4) shares the name
    "combat-damage",
    "end-of-combat",
    "postcombat-main",
    "end",
    "cleanup",
    "pregame",
)
STEP_BY_NAME = {
    "untap": UNTAP,
    "upkeep": UPKEEP,
    "draw": DRAW,
    "precombat-main": MAIN1,
    "beginning-of-combat": BEGIN_COMBAT,
    "declare-attackers": DECLARE_ATTACKERS,
    "declare-blockers": DECLARE_BLOCKERS,
    "combat-damage": COMBAT_DAMAGE,
    "end-of-combat": END_COMBAT,
    "postcombat-main": MAIN2,
    "end": END,
    "cleanup": CLEANUP,
    "pregame": PREGAME,
}

# --- card types (rule 300.1) ---------------------------------------------------
TYPE_BITS = {
    "Land": 1,
    "Creature": 2,
    "Artifact": 4,
    "Enchantment": 8,
    "Planeswalker": 16,
    "Instant": 32,
    "Sorcery": 64,
    "Battle": 128,
}
T_LAND, T_CREATURE, T_ARTIFACT, T_ENCHANTMENT, T_PLANESWALKER, T_INSTANT, T_SORCERY, T_BATTLE = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
    128,
)
T_PERMANENT = T_LAND | T_CREATURE | T_ARTIFACT | T_ENCHANTMENT | T_PLANESWALKER | T_BATTLE

SUPERTYPE_BITS = {"Basic": 1, "Legendary": 2, "World": 4, "Snow": 8}
S_BASIC, S_LEGENDARY, S_WORLD = 1, 2, 4

# --- keywords (rule 702) ----------------------------------------------------------
KEYWORDS = (
    "flying",
    "reach",
    "defender",
    "haste",
    "vigilance",
    "first strike",
    "double strike",
    "trample",
    "deathtouch",
    "lifelink",
    "infect",
    "menace",
    "plainswalk",
    "islandwalk",
    "swampwalk",
    "mountainwalk",
    "forestwalk",
)
KW = {name: 1 << i for i, name in enumerate(KEYWORDS)}
KW_FLYING = KW["flying"]
KW_REACH = KW["reach"]
KW_DEFENDER = KW["defender"]
KW_HASTE = KW["haste"]
KW_VIGILANCE = KW["vigilance"]
KW_FIRST_STRIKE = KW["first strike"]
KW_DOUBLE_STRIKE = KW["double strike"]
KW_TRAMPLE = KW["trample"]
KW_DEATHTOUCH = KW["deathtouch"]
KW_LIFELINK = KW["lifelink"]
KW_INFECT = KW["infect"]
KW_MENACE = KW["menace"]
LANDWALK = {
    "plainswalk": ("Plains", KW["plainswalk"]),
    "islandwalk": ("Island", KW["islandwalk"]),
    "swampwalk": ("Swamp", KW["swampwalk"]),
    "mountainwalk": ("Mountain", KW["mountainwalk"]),
    "forestwalk": ("Forest", KW["forestwalk"]),
}

# --- mana ---------------------------------------------------------------------------
COLORS = "WUBRGC"
COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
BASIC_LAND_COLOR = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

# --- counters (rule 122) --------------------------------------------------------------
COUNTER_KINDS = ("+1/+1", "-1/-1", "loyalty", "intervention", "defense")
C_P1P1, C_M1M1, C_LOYALTY, C_INTERVENTION, C_DEFENSE = range(5)
COUNTER_INDEX = {n: i for i, n in enumerate(COUNTER_KINDS)}

# --- attack options (rules 802, 803) ------------------------------------------------------
ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT = 0, 1, 2
ATTACK_OPTION = {"multiple": ATTACK_MULTIPLE, "left": ATTACK_LEFT, "right": ATTACK_RIGHT}

NO_LIMIT = -1  # range of influence: unlimited
