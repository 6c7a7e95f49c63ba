"""Variants and options (806-811, 900-905) as small integers."""

from __future__ import annotations

VARIANT_NAMES = (
    "two-player", "free-for-all", "grand-melee", "team-vs-team", "emperor",
    "two-headed-giant", "alternating-teams",
)  # fmt: skip
(
    TWO_PLAYER, FREE_FOR_ALL, GRAND_MELEE, TEAM_VS_TEAM, EMPEROR, TWO_HEADED_GIANT,
    ALTERNATING_TEAMS,
) = range(len(VARIANT_NAMES))  # fmt: skip

ATTACK_NAMES = ("multiple", "left", "right")
ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT = range(3)

CASUAL_NAMES = (
    "commander", "brawl", "planechase", "vanguard", "archenemy", "supervillain-rumble",
    "conspiracy",
)  # fmt: skip
CASUAL_COMMANDER, CASUAL_BRAWL, CASUAL_PLANECHASE, CASUAL_VANGUARD = 1, 2, 4, 8
CASUAL_ARCHENEMY, CASUAL_RUMBLE, CASUAL_CONSPIRACY = 16, 32, 64
CASUAL_SINGLE_PLANAR_DECK = 128
COMMANDER_RULES = CASUAL_COMMANDER | CASUAL_BRAWL  # 903: Brawl is a Commander option (903.12a)
