"""The game's own vocabulary as small integers: zones, steps, types, colours,
keywords, counters. Names are written once, beside their values; the ``*_NAMES``
tuples map values back to the names the scenario format and the state view use."""

from __future__ import annotations

# ----------------------------------------------------------------- zones (400.1)
ZONE_NAMES = ("library", "hand", "battlefield", "graveyard", "exile", "stack", "command", "gone")
LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, EXILE, STACK, COMMAND, GONE = range(8)

# ----------------------------------------------------------------- steps (500.1)
STEP_NAMES = (
    "untap", "upkeep", "draw", "precombat-main", "beginning-of-combat",
    "declare-attackers", "declare-blockers", "first-strike-damage", "combat-damage",
    "end-of-combat", "postcombat-main", "end", "cleanup", "pregame",
)  # fmt: skip
(
    UNTAP, UPKEEP, DRAW, MAIN1, BEGIN_COMBAT, DECLARE_ATTACKERS, DECLARE_BLOCKERS,
    FIRST_STRIKE_DAMAGE, COMBAT_DAMAGE, END_COMBAT, MAIN2, END, CLEANUP, PREGAME,
) = range(14)  # fmt: skip

# ----------------------------------------------------------------- card types (300), bits
TYPE_NAMES = (
    "Land",
    "Creature",
    "Artifact",
    "Enchantment",
    "Planeswalker",
    "Instant",
    "Sorcery",
    "Battle",
    "Plane",
    "Phenomenon",
    "Scheme",
    "Vanguard",
    "Conspiracy",
    "Kindred",
)  # fmt: skip  (bit k is TYPE_NAMES[k]; "Tribal" is the old name of Kindred)
T_LAND, T_CREATURE, T_ARTIFACT, T_ENCHANTMENT, T_PLANESWALKER = 1, 2, 4, 8, 16
T_INSTANT, T_SORCERY, T_BATTLE, T_PLANE, T_PHENOMENON = 32, 64, 128, 256, 512
T_SCHEME, T_VANGUARD, T_CONSPIRACY, T_KINDRED = 1024, 2048, 4096, 8192
T_PERMANENT = T_LAND | T_CREATURE | T_ARTIFACT | T_ENCHANTMENT | T_PLANESWALKER | T_BATTLE
T_SPELLISH = T_INSTANT | T_SORCERY
T_NONTRADITIONAL = T_PLANE | T_PHENOMENON | T_SCHEME | T_VANGUARD | T_CONSPIRACY

SUPERTYPE_NAMES = ("Basic", "Legendary", "World", "Snow", "Ongoing")
S_BASIC, S_LEGENDARY, S_WORLD, S_SNOW, S_ONGOING = 1, 2, 4, 8, 16

# ----------------------------------------------------------------- colours (105), bits
COLOR_LETTERS = "WUBRG"
C_WHITE, C_BLUE, C_BLACK, C_RED, C_GREEN = 1, 2, 4, 8, 16
# mana pool slots: W U B R G C
MANA_LETTERS = "WUBRGC"
N_MANA = 6

# ----------------------------------------------------------------- keywords (702), bits
KEYWORD_NAMES = (
    "flying", "reach", "defender", "haste", "vigilance", "first strike", "double strike",
    "trample", "deathtouch", "lifelink", "infect", "menace", "plainswalk", "islandwalk",
    "swampwalk", "mountainwalk", "forestwalk", "hexproof", "shroud", "indestructible",
    "changeling", "can't block", "flash", "partner", "daybound", "nightbound",
    "hidden agenda",
)  # fmt: skip
KW = {name: 1 << k for k, name in enumerate(KEYWORD_NAMES)}
KW_FLYING, KW_REACH, KW_DEFENDER, KW_HASTE, KW_VIGILANCE = 1, 2, 4, 8, 16
KW_FIRST_STRIKE, KW_DOUBLE_STRIKE, KW_TRAMPLE, KW_DEATHTOUCH, KW_LIFELINK = 32, 64, 128, 256, 512
KW_INFECT, KW_MENACE = 1 << 10, 1 << 11
KW_LANDWALK0 = 12  # bits 12-16: plainswalk .. forestwalk (land subtypes in WUBRG order)
KW_HEXPROOF, KW_SHROUD, KW_INDESTRUCTIBLE, KW_CHANGELING = 1 << 17, 1 << 18, 1 << 19, 1 << 20
KW_CANT_BLOCK, KW_FLASH, KW_PARTNER, KW_DAYBOUND = 1 << 21, 1 << 22, 1 << 23, 1 << 24
KW_NIGHTBOUND, KW_HIDDEN_AGENDA = 1 << 25, 1 << 26
# the casual variants' keywords (issue 14: Bant)
KEYWORD_NAMES = KEYWORD_NAMES + ("exalted",)
KW["exalted"] = KW_EXALTED = 1 << 27
# Vanguard's (issue 14: Lyna): shadow (702.28)
KEYWORD_NAMES = KEYWORD_NAMES + ("shadow",)
KW["shadow"] = KW_SHADOW = 1 << 28
# wither (702.80: Raven's Run grants it)
KEYWORD_NAMES = KEYWORD_NAMES + ("wither",)
KW["wither"] = KW_WITHER = 1 << 29
# Planechase 2012's planes (issue 14: Orochi Colony); the last free bit of F_KW (int32)
KEYWORD_NAMES = KEYWORD_NAMES + ("can't be blocked",)
KW["can't be blocked"] = KW_UNBLOCKABLE = 1 << 30
KW_LANDWALKS = 0b11111 << KW_LANDWALK0

# ----------------------------------------------------------------- counters (122)
COUNTER_NAMES = (
    "+1/+1", "-1/-1", "loyalty", "defense", "charge", "intervention", "time", "fade",
    "age", "oil", "shield", "stun", "lore", "experience", "energy", "poison",
)  # fmt: skip
(
    CTR_P1P1, CTR_M1M1, CTR_LOYALTY, CTR_DEFENSE, CTR_CHARGE, CTR_INTERVENTION, CTR_TIME,
    CTR_FADE, CTR_AGE, CTR_OIL, CTR_SHIELD, CTR_STUN, CTR_LORE, CTR_EXPERIENCE, CTR_ENERGY,
    CTR_POISON,
) = range(len(COUNTER_NAMES))  # fmt: skip
# the casual variants' counters (issue 14: planes and schemes)
CASUAL_COUNTERS = ("flame", "divinity", "scroll", "pressure", "fate")
CTR_FLAME, CTR_DIVINITY, CTR_SCROLL, CTR_PRESSURE, CTR_FATE = range(
    len(COUNTER_NAMES), len(COUNTER_NAMES) + len(CASUAL_COUNTERS)
)
COUNTER_NAMES = COUNTER_NAMES + CASUAL_COUNTERS
N_COUNTERS = len(COUNTER_NAMES)

# ----------------------------------------------------------------- players and objects
NO_TARGET = -(10**6)


def player_code(p: int) -> int:
    """Targets, damage recipients and references hold players as -1 - p, objects as ids."""
    return -1 - p
