"""How kernels are compiled: one decorator for every rule (``kernel``), so the compile
options and the cache live in one place. With NUMBA_DISABLE_JIT=1 the same source runs
as plain Python (the kernels' twin, for debugging and coverage)."""

from __future__ import annotations

from numba import njit


def kernel(fn=None, **options):
    """``@kernel`` or ``@kernel(inline="always")``: a cached numba kernel."""
    opts = {"cache": True, **options}
    if fn is None:
        return lambda f: njit(**opts)(f)
    return njit(**opts)(fn)
