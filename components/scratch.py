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
# Coat of Arms (continuous_effects._coat_of_arms): the creatures, their creature types
# (NSUB + 1 cells each), how many, whether each has them all
SCR_COA_SEEN = _row("coat_of_arms_seen", "continuous_effects._coat_of_arms")
SCR_COA_TYPES = _row("coat_of_arms_types", "continuous_effects._coat_of_arms")
SCR_COA_N = _row("coat_of_arms_n", "continuous_effects._coat_of_arms")
SCR_COA_EVERY = _row("coat_of_arms_every", "continuous_effects._coat_of_arms")
# state-based actions (state_based_actions.py): four rows for what goes to the graveyard
SCR_SBA_GRAVEYARD = _row("sba_graveyard", "state_based_actions._check")
for _k in range(3):
    _row(f"sba_graveyard_{_k + 1}", "state_based_actions._check")
SCR_SBA_DOOMED = _row("sba_doomed", "state_based_actions._check")
# a copy's targets (effects.py, 707.10c; Conspiracy Draft: Double Stroke)
SCR_COPY_TARGETS = _row("copy_targets", "effects._copy effects.options")
SCR_SBA_LOSERS = _row("sba_losers", "state_based_actions._check")

# a cost being paid or checked (casting.py, effects.py, planechase.py): the first
# COST_W cells, zeroed by whoever fills it
SCR_COST = _row(
    "cost",
    "casting.x_options casting.kicker_affordable casting._payable_tapped casting.finish"
    " effects._may_pay_x effects._pay_optional effects.can_pay_optional effects._counter"
    " planechase.can_roll planechase.roll_as_special_action",
)
SCR_OPTION_COST = _row("option_cost", "effects.options")  # (it asks can_pay_optional)
# what an effect's reference names (effects.py: selectors.refs)
SCR_REFS = _row(
    "refs",
    "effects._command_zone_question effects._simple effects._copy effects._for_each"
    " effects._discard effects._sacrifice effects._choose effects._counter"
    " effects._sac_unless_life effects._redistribute effects._casual"
    " effects._reveal_until_each effects._choose_mode effects.options effects._merge"
    " effects._cast_free effects._return_at_random",
)
# targets being listed (casting.py, legal_actions.py)
SCR_TARGET_CANDIDATES = _row("target_candidates", "casting.target_options")
SCR_ADVANCE_TARGETS = _row("advance_targets", "casting.advance")
SCR_OPTION_TARGETS = _row("option_targets", "legal_actions._casting_options")
SCR_OPTION_XS = _row("option_xs", "legal_actions._casting_options")
SCR_EFFECT_OBJS = _row("effect_objs", "legal_actions.list_actions")
SCR_EFFECT_ARGS = _row("effect_args", "legal_actions.list_actions")
# turns and steps (turn_structure.py, setup.py, shortcuts.py)
SCR_RING = _row("ring", "turn_structure.begin_turn setup.scenario_start")
SCR_DRAW_ORDER = _row("draw_order", "turn_structure.begin_step")
SCR_DESIGNATED_ORDER = _row("designated_order", "shortcuts._designated")
# combat (combat.py) and damage (damage.py)
SCR_COMBAT_WALLS = _row("combat_walls", "combat.attack_options")
SCR_COMBAT_ORDER = _row(
    "combat_order", "combat.finish_attacks combat.finish_blocks combat.combat_damage"
)
SCR_COMBAT_ATTACKERS = _row(
    "combat_attackers",
    "combat.queue_blockers combat.block_options combat.has_block_option combat.combat_damage",
)
SCR_COMBAT_OPEN = _row("combat_open", "combat.block_options combat.has_block_option")
SCR_COMBAT_NEWLY = _row("combat_newly", "combat.finish_blocks")
SCR_COMBAT_QUEUE = _row("combat_queue", "combat.queue_blockers")
SCR_COMBAT_MINE = _row("combat_mine", "combat.end_combat")
SCR_DAMAGE_WORK = _row("damage_work", "damage.deal_damage_with")  # (recipient, amount) pairs

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
