"""Scratch rows: working space of the kernels that run most often, in the arena
instead of a fresh numpy array on every call (an allocation costs about as much as a
whole legality check).

Each row belongs to the functions named beside it, and those never run inside one
another: the engine has no recursion, so a function is never active twice and its
rows are never in use twice (tests/test_systems_structure.py checks both). A row is
``scratch`` cells wide: enough for one entry per object and per player. Nothing in
it outlives the call that wrote it, so clones, saves and fingerprints ignore it."""

from __future__ import annotations

from components.schema import Table

ROWS: dict[str, str] = {}


def _row(name: str, owners: str) -> int:
    ROWS[name] = owners
    return len(ROWS) - 1


# mana payment (mana.py): these three never call each other
SCR_MANA_BITS = _row("mana_bits", "mana.can_pay mana.pay mana.total_available")
SCR_MANA_AMTS = _row("mana_amounts", "mana.can_pay mana.pay mana.total_available")
SCR_MANA_IDS = _row("mana_ids", "mana.can_pay mana.pay mana.total_available")
SCR_MANA_USED = _row("mana_used", "mana.can_pay mana.pay")
SCR_MANA_NEED = _row("mana_need", "mana.can_pay mana.pay")
SCR_MANA_LEFT = _row("mana_left", "mana.pay")
SCR_MANA_TAKEN = _row("mana_taken", "mana.pay")
SCR_MANA_ORDER = _row("mana_order", "mana._by_flexibility")
SCR_MANA_KEY = _row("mana_key", "mana._by_flexibility")
# costs being checked (casting.py)
SCR_CASTABLE_COST = _row("castable_cost", "casting.castable")
SCR_ACTIVATABLE_COST = _row("activatable_cost", "casting.activatable")
# who could act (legal_actions.py, turn_structure.py, stack.py)
SCR_PRIORITY_ORDER = _row("priority_order", "legal_actions._priority_actions")
SCR_HAS_ACTION = _row("has_action", "legal_actions.has_action")
SCR_BEGINNING_ORDER = _row("beginning_order", "turn_structure._beginning_of")
SCR_CLEANUP_ORDER = _row("cleanup_order", "turn_structure.cleanup")
SCR_TRIGGER_ORDER = _row("trigger_order", "stack.put_triggers")
# targets (targets.py)
SCR_COUNT_TARGETS = _row("count_targets", "targets.count_available")
SCR_TARGET_PLAYERS = _row("target_players", "targets.candidates")
# the layers (continuous_effects.py)
SCR_STATIC_SOURCES = _row("static_sources", "continuous_effects._recompute")
# state-based actions (state_based_actions.py): four rows for what goes to the graveyard
SCR_SBA_GRAVEYARD = _row("sba_graveyard", "state_based_actions._check")
for _k in range(3):
    _row(f"sba_graveyard_{_k + 1}", "state_based_actions._check")
SCR_SBA_DOOMED = _row("sba_doomed", "state_based_actions._check")
# a copy's targets (effects.py, 707.10c; Conspiracy Draft: Double Stroke)
SCR_COPY_TARGETS = _row("copy_targets", "effects._copy effects.options")
SCR_SBA_LOSERS = _row("sba_losers", "state_based_actions._check")

# the observation (observation.py): each object's slot in the cards section
SCR_OBS_SLOT = _row("obs_slot", "observation.observe")
SCR_OBS_BUCKET = _row("obs_bucket", "observation.observe")

N_SCRATCH = len(ROWS)

SCRATCH = Table(
    "scr",
    "scratch rows of the busiest kernels (components/scratch.py)",
    shape=(N_SCRATCH, "scratch"),
    volatile=True,
)
