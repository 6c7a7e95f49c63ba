"""Vanguard (902): each player's vanguard card sits face up in the command zone (902.3),
controlled by its owner (902.6); its abilities work from there (902.7: triggers and
activated abilities through systems/triggers.py and systems/legal_actions.py, static
abilities through the layers and ``command_zone.command_static``). Its life and hand
modifiers set the starting life total, the opening hand and the maximum hand size
(902.4-902.5b): the game's setup applies them (ecs/engine.py, ecs/casual.py), the
mulligans draw the modified hand (systems/mulligan.py, 902.5a)."""

from __future__ import annotations

from components.cards import C_HAND_MOD, C_LIFE_MOD
from components.objects import F_CARD
from components.players import P_LIFE, P_MAXHAND, P_START_HAND, P_VANGUARD
from systems.jit import kernel


@kernel
def apply_modifiers(st, cd, p, base_life):
    """902.4-902.5b: p's starting life, opening hand and maximum hand size from the
    modifiers of their vanguard card (none: unchanged)."""
    i = st.pl[p, P_VANGUARD]
    if i < 0:
        return
    c = st.o[i, F_CARD]
    st.pl[p, P_LIFE] = base_life + cd.ct[c, C_LIFE_MOD]
    st.pl[p, P_START_HAND] = max(0, 7 + cd.ct[c, C_HAND_MOD])
    st.pl[p, P_MAXHAND] = max(0, 7 + cd.ct[c, C_HAND_MOD])
