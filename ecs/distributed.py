"""Running batches on a Ray cluster (``melee simulate --backend ray``).

Ray is an optional extra (``pip install -e ".[ray]"``). With no address a
local Ray instance is started; ``--address ray://host:10001`` (or ``auto``, the
cluster ``ray start --head`` runs on this machine) joins an existing cluster.
:func:`connect` is called before anything is written, so a missing Ray or an
unreachable cluster is a one-line error. Runs of games are independent tasks
(a bounded number in flight); results stream back in completion order, and
because each game's seed derives from the batch seed, the results are the same
as on one core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

_STARTED = False


class RayError(Exception):
    """Ray is missing or the cluster can't be reached; the message says which."""


def connect(address: str | None = None) -> None:
    """Start a local Ray instance (no address) or join the cluster at ``address``."""
    global _STARTED
    try:
        import ray
    except ImportError:
        raise RayError(
            "--backend ray: Ray is not installed (pip install -e '.[ray]', or pip install ray)"
        ) from None
    if ray.is_initialized():
        return
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if address == "auto":
            raise RayError(
                "--address auto: no running Ray cluster found on this machine (start one "
                "with `ray start --head`, or leave out --address for a local instance)"
            ) from None
        raise RayError(f"--address {address}: cannot join the Ray cluster ({first})") from None
    _STARTED = True


def disconnect() -> None:
    """Shut down the Ray instance :func:`connect` started or joined."""
    global _STARTED
    if _STARTED:
        import ray

        ray.shutdown()
        _STARTED = False


def ray_map(
    fn: Callable[[Any], Any],
    jobs: Iterable[Any],
    address: str | None = None,
    in_flight: int | None = None,
) -> Iterator[Any]:
    """``fn(job)`` for each job as Ray tasks, results in completion order; at most
    ``in_flight`` tasks (default: twice the cluster's CPUs) are submitted at a time."""
    import ray

    own = not ray.is_initialized()
    if own:
        connect(address)
    try:
        remote = ray.remote(fn)
        limit = in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        it = iter(jobs)
        pending = []
        while True:
            for job in it:
                pending.append(remote.remote(job))
                if len(pending) >= limit:
                    break
            if not pending:
                return
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if own:
            disconnect()
