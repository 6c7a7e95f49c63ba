"""esper world per game: entity lifecycle for rare Python-side objects, and events.

The hot state of a game lives in numpy columns (``components/``). esper keeps
what it is good at: each game owns an esper world in which the rare objects
that do not fit a column live as entities with Python components: continuous
effects with durations, prevention shields, delayed triggers. Game events
(zone changes, damage, life changes, game over) are dispatched through esper's
event system so observers (replay recorder, logging, progress) can subscribe
without the rules knowing about them.

esper's API is module-global with named worlds; :class:`World` wraps one name
and switches to it on each call, so many games can coexist in one process.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from typing import Any

import esper

_ids = itertools.count()


class World:
    __slots__ = ("name", "handlers", "has_effects")

    def __init__(self) -> None:
        self.name = f"melee-{next(_ids)}"
        self.handlers: dict[str, list[Callable[..., None]]] = {}
        self.has_effects = False  # a continuous effect was ever created (skip queries if not)

    def _enter(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def create(self, *components: Any) -> int:
        self._enter()
        return esper.create_entity(*components)

    def delete(self, entity: int) -> None:
        self._enter()
        esper.delete_entity(entity, immediate=True)

    def get(self, component_type: type) -> list[tuple[int, Any]]:
        self._enter()
        return list(esper.get_component(component_type))

    def component(self, entity: int, component_type: type) -> Any:
        self._enter()
        return esper.component_for_entity(entity, component_type)

    def exists(self, entity: int) -> bool:
        self._enter()
        return esper.entity_exists(entity)

    # --- events -------------------------------------------------------------
    def subscribe(self, event: str, fn: Callable[..., None]) -> None:
        """Observers hold a strong reference here; esper's registry keeps a weak one."""
        self._enter()
        self.handlers.setdefault(event, []).append(fn)
        esper.set_handler(event, fn)

    def unsubscribe(self, event: str, fn: Callable[..., None]) -> None:
        self._enter()
        esper.remove_handler(event, fn)
        lst = self.handlers.get(event, [])
        if fn in lst:
            lst.remove(fn)
        if not lst:
            self.handlers.pop(event, None)

    def emit(self, event: str, *args: Any) -> None:
        if self.handlers:
            self._enter()
            esper.dispatch_event(event, *args)

    # --- lifecycle ----------------------------------------------------------
    def clone(self) -> World:
        """A new world holding deep copies of this world's entities (not its observers)."""
        w = World()
        w.has_effects = self.has_effects
        self._enter()
        ents = [
            (e, [copy.copy(c) for c in esper.components_for_entity(e)]) for e in esper._entities
        ]
        esper.switch_world(w.name)
        for e, comps in ents:
            # keep the entity ids: systems refer to them
            while True:
                new = esper.create_entity()
                if new >= e:
                    break
                esper.delete_entity(new, immediate=True)
            for c in comps:
                esper.add_component(new, c)
        return w

    def close(self) -> None:
        if self.name in esper.list_worlds() or esper.current_world == self.name:
            if esper.current_world == self.name:
                esper.switch_world("default")
            esper.delete_world(self.name)
