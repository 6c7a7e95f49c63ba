"""Agent environments for Melee (PettingZoo).

``from ecs.envs import melee_v0; env = melee_v0.env(variant="free-for-all", players=4)``
"""

from ecs.envs import melee_v0

__all__ = ["melee_v0"]
