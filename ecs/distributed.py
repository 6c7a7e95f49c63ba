"""Running batches on a Ray cluster (``melee simulate --backend ray``).

Ray is an optional extra (``pip install -e ".[ray]"``). With no address a
local Ray instance is started; ``--address ray://host:10001`` (or ``auto``)
joins an existing cluster. Games are independent tasks; results stream back
in completion order, and because each game's seed derives from the batch seed,
the results are the same as on one core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def ray_map(fn: Callable[[Any], Any], jobs: list[Any], address: str | None = None) -> Iterator[Any]:
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "the ray backend needs Ray: pip install -e '.[ray]' (or pip install ray)"
        ) from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(fn)
        pending = [remote.remote(j) for j in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
