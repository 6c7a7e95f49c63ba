"""The game's scalars: whose turn and step it is, the pending decision, the variant
and its options, counters of the variable-length tables, caches."""

from __future__ import annotations

from components.schema import Table

GAME = Table("s", "the game's scalars (one row)")
F = GAME.field

# the turn (500) and priority (117)
S_TURN = F("turn", "turn number (1 = the first turn of the game)")
S_STEP = F("step", "current step (components.rules UNTAP .. CLEANUP, PREGAME)")
S_TODO = F("todo", "what the loaded turn does next: TODO_BEGIN / TODO_PRIORITY / TODO_END")
S_ACTIVE = F("active", "active player (in team turns: the active team's primary player)")
S_PREV_ACTIVE = F("previous_active", "the previous turn's active player (728.2); -1")
S_PRIO = F("priority", "player with (or next offered) priority")
S_PASSES = F("passes", "players who passed in succession (117.4)")
S_DECLARED = F("attacked", "attackers were declared this combat (508.8)")
S_FSSTEP = F("first_strike_step", "this combat has a first-strike damage step (510.4)")
S_CLEANUP_AGAIN = F("cleanup_again", "another cleanup step follows (514.3a)")
S_STARTING = F("starting_player", "the starting player (103.1)")
S_OVER = F("over", "1 once the game is over (104)")
# the pending decision (components.decisions): who decides what
S_PEND = F("pending", "kind of the pending decision (PEND_*); 0 none")
S_PPLAYER = F("decider", "player who decides")
S_PCOUNT = F("pending_count", "how many more of the same choice (discards...)")
S_PA = F("pending_a", "context of the decision (an object, a step of a resolution...)")
S_PB = F("pending_b", "context of the decision")
S_PC = F("pending_c", "context of the decision")
# a spell or ability being cast/activated (601.2) and the one resolving (608)
S_CASTING = F("casting", "object being cast or activated; -1 none")
S_CAST_STAGE = F("cast_stage", "which of its choices comes next (CAST_*)")
S_CAST_SLOT = F("cast_slot", "the target slot being chosen")
S_CAST_PRIO = F("cast_priority_player", "who had priority when the cast began")
S_CAST_KIND = F("cast_kind", "what is being put on the stack: CK_SPELL, CK_ABILITY, CK_TRIGGER")
S_CAST_N = F("cast_n", "targets chosen so far for the current target spec")
S_CAST_MODE = F("cast_mode", "modes chosen so far")
S_RES = F("resolving", "object resolving (a spell or ability) or -1")
S_RES_PC = F("res_pc", "its next effect row")
S_RES_END = F("res_end", "its last effect row + 1")
S_RES_IT = F("res_it", "the object or player code 'it' refers to")
S_RES_SUB = F("res_sub", "progress inside the current effect row (player k of 'each')")
S_RES_AUX = F("res_aux", "a value the current effect row carries between its decisions")
S_RES_MODE = F("res_mode", "the mode being resolved (its index among the chosen ones)")
S_RES_AB = F("res_ability", "the ability (or mode) row whose effects are running")
S_ANSWER = F("answer", "the answer to the last decision, for the effect that asked")
S_ANSWERED = F("answered", "1 while an answer waits to be read")
S_NCHOSEN = F("n_chosen", "entries in the `chosen` table")
S_NLOOP = F("n_loop", "entries in the `loop` table")
S_LOOPK = F("loop_k", "the entry of `loop` the 'for each' step is at")
# table lengths
S_N = F("n_objects", "object rows in use")
S_NSTK = F("stack_size", "objects on the loaded stack")
S_NEFF = F("n_effects", "continuous effects")
S_NSH = F("n_shields", "prevention and redirection shields")
S_NTRG = F("n_triggered", "triggered abilities waiting to be put on the stack")
S_NDL = F("n_delayed", "delayed triggered abilities")
S_NXT = F("n_extra_turns", "extra turns waiting")
S_NDV = F("n_divisions", "rows of the divisions table (601.2d)")
S_NBQ = F("n_block_queue", "defending players still to declare blockers")
S_NBF = F("n_permanents", "permanents (the `bf` list)")
S_NCZ = F("n_command", "objects in the command zone (the `cz` list)")
S_NLEFT = F("n_left", "objects in the `left` list (the current event)")
S_TRIGMASK = F("trigger_events", "bits: events some card of this game waits for", volatile=True)
S_MANA_SRC = F(
    "mana_sources_listed",
    "while a player's options are listed (nothing changes then): 2 + the player whose mana "
    "sources the scratch rows hold, 1 none yet; 0 outside a listing (found anew each time)",
    volatile=True,
)
S_MANA_SRC_N = F("mana_sources_n", "how many sources the scratch rows hold", volatile=True)
S_GY_TRIGMASK = F(
    "graveyard_trigger_events",
    "bits: events a card with an ability that triggers from a graveyard waits for",
    volatile=True,
)
S_NMARK = F("n_markers", "turn markers (807); 0 when the variant has none")
S_CUR = F("marker", "the turn marker being advanced (loaded)")
S_NTR = F("n_trace", "trace rows written", volatile=True)
# the variant and its options (806-811, 900-905)
S_VARIANT = F("variant", "VARIANT_* (components.variants)")
S_CASUAL = F("casual", "CASUAL_* bits: commander, planechase, archenemy, vanguard...")
S_NPLAYERS = F("n_players", "players at the start")
S_ATTACK_MODE = F("attack_option", "ATTACK_MULTIPLE / LEFT / RIGHT (802, 803)")
S_TEAM_TURNS = F("shared_team_turns", "1 with the shared team turns option (805)")
S_DEPLOY = F("deploy", "1 with the deploy creatures option (804)")
S_POISON_LIMIT = F("poison_limit", "poison counters that make a player lose (10; 15 in 2HG)")
S_SKIP_FIRST_DRAW = F("skip_first_draw", "the starting player skips the first draw (103.8)")
S_FREE_MULLIGAN = F("free_mulligan", "the first mulligan is free (800.6, 903.12g)")
S_COMMANDER_DAMAGE = F("commander_damage_limit", "21 (903.10a); 0 none (Brawl, 903.12h)")
S_MAXTURNS = F("max_turns", "safety cap on turns: the game is then a draw; 0 none")
S_MAXDECISIONS = F("max_decisions", "safety cap on decisions; 0 none")
S_AUTOPASS = F("autopass", "skip priority stops where the player can only pass")
S_MULLIGANS = F("mulligans", "1: opening hands with mulligans (103.5); 0: keep the first seven")
S_DSEQ = F("declaration_seq", "order of attack and block declarations")
S_NBEGAN = F("n_began", "rows of `began` (steps begun since the caller last looked)", volatile=True)
S_NACTS = F("n_actions", "options of the pending decision listed in `acts`", volatile=True)
# facts of the game
S_DAY_NIGHT = F("day_night", "0 neither, 1 day, 2 night (728)")
S_PLANAR_CTL = F("planar_controller", "planar controller (901.6); -1")
S_FORCED = F("forced_resolutions", "objects resolved in a row without a choice (104.4b loops)")
S_MONARCH = F("monarch", "the monarch; -1 none")
S_DECISIONS = F("decisions", "decisions made so far")
S_CAPPED = F("capped", "1 if a safety cap ended the game")
S_ERROR = F("error", "ERR_*: why the engine stopped a game it couldn't go on with")
S_RNG = F("rng", "the game's generator state (splitmix64, two halves)", width=2)
S_AGENT_RNG = F("agent_rng", "the compiled agents' generator state (their picks don't move "
                "the game's, so a game replays from the options taken)", width=2,
                volatile=True)  # fmt: skip
S_LOOP = F("loop_count", "pass-only priority stops since the last choice (104.4b)")
S_LAST = F("last_result", "what the last effect step really did (life lost, cards moved)")
S_LAST_POWER = F("last_power", "the total power of the permanents the last exile step exiled "
                 "(Grand Ossuary: 'the creatures they exiled this way')")  # fmt: skip
S_RESTARTED = F(
    "restarted", "1: the resolving effect restarted the game (723): its first turn is begun"
)
# caches (derived; never part of the game's state)
S_TSC = F("timestamp", "the last timestamp given", volatile=True)
S_VERSION = F("version", "bumped by every change: cached answers compare it", volatile=True)
S_LDIRTY = F("layers_dirty", "the layers must look again", volatile=True)
S_SDIRTY = F("sba_dirty", "state-based actions must look again", volatile=True)
S_STVER = F("state_trigger_version", "version state triggers last found nothing", volatile=True)
S_BLOCK_LAST = F(
    "block_last", "1 + the blocker just declared while the block listing before it stands "
    "(at version S_BLOCK_VER); 0", volatile=True
)  # fmt: skip
S_BLOCK_VER = F("block_version", "the version right after that declaration", volatile=True)
S_STCUR = F("state_trigger_marker", "marker they last looked with", volatile=True)
S_WASPLAIN = F("layers_plain", "the last recompute found nothing modifying", volatile=True)
S_TOKENS = F("token_left", "a token left the battlefield (704.5d)", volatile=True)
S_NEEDS = F("needs", "NEED_* bits: kinds of rules the cards of this game use", volatile=True)
S_KINDS = F("static_kinds", "C_SAMASK bits of the static abilities of the permanents and face-up "
            "command-zone cards (selectors.static_kinds)", volatile=True)  # fmt: skip
S_TRIGS = F("trigger_events_now", "C_TRIGMASK bits of the same objects (selectors.trigger_events)",
            volatile=True)  # fmt: skip
S_KINDS_AT = F("static_kinds_at", "1 + the S_TOUCHES S_KINDS and S_TRIGS were worked out at; 0",
               volatile=True)  # fmt: skip
S_TOUCHES = F("touches", "bumped by every touch (a change the layers look at: permanents and "
              "command-zone cards come and go, turn over, merge)", volatile=True)  # fmt: skip
S_LIVE_STATICS = F("live_statics", "1: a source the layers last applied has a static with a "
                   "condition or a count a change without a touch may answer differently "
                   "(CF_LIVE_STATICS): every change makes the layers look again", volatile=True)  # fmt: skip
S_NNOTES = F("n_notes", "rows of the draft notes table `nt` (905.2b)")
S_MONARCH_OBJ = F("monarch_designation", "1 + object id of the monarch designation card (724); 0")
# the casual variants (issue 14: Planechase 901, Archenemy 904)
S_CHAOS_BLANKS = F("chaos_blanks", "1: blank planar die rolls are chaos rolls (Chaotic Aether)")
S_DIE_FORCE = F("die_force", "a script's forced planar die face + 1 (0: the generator decides)")
S_NCOMMUNAL = F("communal_deck_size", "cards in the single planar deck (901.15)")
S_NO_SCHEMES = F("no_schemes_turn", "turn in which schemes can't be set in motion; 0 none")
S_PW_EVENTS = F("planeswalks", "times a player planeswalked this game (901.11)")
S_REVERSED = F("turn_order_reversed", "1: the game's turn order is reversed (Time Distortion)")
# 726-729: subgames, shortcuts, loops (systems/subgames.py, systems/shortcuts.py)
S_DEPTH = F("depth", "0: the main game; 1: a subgame of it; 2: a subgame of that (726.6)")
S_SUBGAME = F("subgame", "SUB_*: a subgame this game's resolving effect waits for (726.1)")
S_SUB_BASE = F("subgame_base", "objects a subgame began with (its cards); later: created in it")
S_START_LIFE = F("starting_life", "life each player starts with (103.4): a subgame's too")
S_NBROUGHT = F("brought_in", "cards brought into this subgame the game above hasn't moved (726.4a)")
S_SC_PROPOSER = F("shortcut_proposer", "player proposing the shortcut being answered (729.2a)")
S_SC_TIMES = F("shortcut_times", "repetitions proposed (729.2a)")
S_SC_STOP = F("shortcut_stop", "repetitions after the answers so far: the earliest ending (729.2b)")
S_NLOOPKEY = F("n_loop_keys", "rows of `lk`: states the loop detector recorded (729.3, 729.4)")
S_LOOP_STEP = F("loop_step", "turn * 16 + step the fragmented-loop records belong to (729.3)")
# Planechase (2009) planes: additional combat phases (500.8; Sokenzan)
S_XCOMBATS = F("additional_combats", "additional combat phases, each with a main phase after it, "
               "to come after this main phase (500.8)")  # fmt: skip
S_XRESUME = F("resume_step", "1 + the step the turn goes on with after the additional phases; 0")

# S_SUBGAME
SUB_NONE, SUB_REQUESTED, SUB_PLAYING, SUB_DONE = range(4)
NEED_GRAVEYARD_CASTS = 1024  # S_NEEDS: a card may be cast from a graveyard (Brokkos, 702.140)
NEED_DOESNT_UNTAP = 2048  # S_NEEDS: a static ability stops untapping (Intruder Alarm)
NEED_GRANTED_ABILITIES = 4096  # S_NEEDS: an Aura gives the enchanted permanent an ability
NEED_GRAVEYARD_TRIGGERS = 8192  # S_NEEDS: a triggered ability works from a graveyard
NEED_GRANTED_BY_PERMANENTS = 1 << 14  # S_NEEDS: a permanent's card grants abilities (`granted`)
NEED_FREE_ABILITIES = 1 << 15  # S_NEEDS: an activated ability has no cost at all (B_FREE)
NEED_FLASH_FOR = 1 << 20  # S_NEEDS: spells may be cast as though they had flash (Tawnos)
NEED_GRANTED_UNEARTH = 1 << 23  # S_NEEDS: a plane gives graveyard cards unearth (Grixis)
NEED_SUSPEND = 1 << 27  # S_NEEDS: a card may be suspended (702.62; Talon Gates)
NEED_GRANT_ABILITY_EFFECTS = 1 << 26  # S_NEEDS: an effect may give an ability (Stensia)
NEED_PLAY_FROM_TOP = 1 << 25  # S_NEEDS: players may play their libraries' top cards
NEED_GRANTED_FLASHBACK = 1 << 24  # S_NEEDS: a plane gives graveyard cards flashback (Otaria)
NEED_FLASHBACK = 1 << 22  # S_NEEDS: a card may be cast by flashback (702.34; Otaria)
NEED_COPY_EFFECTS = 1 << 21  # S_NEEDS: a permanent may become a copy (707.2: Body Double)
NEED_CONSPIRE = 1 << 16  # S_NEEDS: a spell may have conspire (702.78; Wort)

# S_NEEDS bits (set at setup from the cards arena: work some checks can skip)
NEED_GRAVEYARD_ABILITIES, NEED_COST_CHANGES, NEED_CONDITIONAL_STATICS = 1, 2, 4
# (NEED_CONDITIONAL_STATICS: a card of the game is CF_LIVE_STATICS; the layers watch for it)
# (the card pool's words, issue 17)
NEED_HAND_ABILITIES, NEED_EXILE_UNTIL, NEED_COSTED_MANA, NEED_LAND_DROPS = 8, 16, 32, 64
NEED_SELF_TRIGGERS = 128  # "when you cast this spell", "put into a graveyard from anywhere"
NEED_GRANTED = 256  # abilities granted by command-zone cards (Conspiracy: Secrets of Paradise)
NEED_CONSPIRACY = 512  # conspiracies' static abilities (enters with counters, any colour...)

# S_TODO
TODO_BEGIN, TODO_PRIORITY, TODO_END = range(3)
# S_CAST_KIND
CK_SPELL, CK_ABILITY, CK_TRIGGER = range(3)
# S_CAST_STAGE
CAST_CHOOSER, CAST_MODES, CAST_KICKER, CAST_X, CAST_TARGETS, CAST_SAC, CAST_CONSPIRE, CAST_PAY = (
    range(8)
)
# S_ERROR
ERR_NONE, ERR_FULL, ERR_STALL, ERR_BAD_ACTION = range(4)
ERROR_NAMES = ("", "a table of the state is full", "no progress", "an illegal action")
