"""The arenas as kernels see them, and the small helpers every rules area uses.

``game_state(arena)`` gives the namedtuple of views of a game's tables (``st.o``,
``st.pl``, ``st.s``, ...; components/state.py lists them), ``card_tables(arena)``
those of the cards arena (``cd.ct``, ``cd.ab``, ...). Both are generated from the
layouts, so the list of tables is written once. The views own no reference
(``borrowed``): passing the state to a function costs no reference counting; they
are valid while the arena is, which the entry points guarantee.

Helpers: ``touch`` (something changed: the layers and the state-based actions look
again), ``bump`` (a change they don't care about), ``stamp`` (a new timestamp),
``rand_below`` (the game's generator, splitmix64), ``trace`` rows, ``append_row``
for the variable-length tables and ordered id lists."""

from __future__ import annotations

import numpy as np
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from components.cards import CARD_LAYOUT
from components.decisions import TR_ACTION, TR_INDEX, TR_KIND, TR_N, TR_PLAYER
from components.game import (
    ERR_FULL,
    S_ERROR,
    S_LDIRTY,
    S_NTR,
    S_OVER,
    S_RNG,
    S_SDIRTY,
    S_TSC,
    S_VERSION,
)
from components.state import GAME_LAYOUT
from systems.jit import kernel

GameState = GAME_LAYOUT.tuple_type
CardTables = CARD_LAYOUT.tuple_type


@intrinsic
def borrowed(typingctx, arr):
    """A view of ``arr`` that owns no reference (no meminfo): no atomic reference
    counting when it is passed around. Valid only while the caller keeps ``arr``
    alive (the entry points hold the arena for the whole call)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        for name in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(out, name, getattr(src, name))
        out.meminfo = cgutils.get_null_value(src.meminfo.type)
        out.parent = cgutils.get_null_value(src.parent.type)
        return out._getvalue()

    return arr(arr), codegen


if config.DISABLE_JIT:

    def borrowed(arr):  # noqa: F811  (the twin: the array itself)
        return arr


@kernel(inline="always")
def _view1(a, h):
    off = a[h]
    return borrowed(a[off : off + a[h + 1]])


@kernel(inline="always")
def _view2(a, h):
    off, d0, d1 = a[h], a[h + 1], a[h + 2]
    return borrowed(a[off : off + d0 * d1].reshape((d0, d1)))


@kernel(inline="always")
def _view3(a, h):
    off, d0, d1, d2 = a[h], a[h + 1], a[h + 2], a[h + 3]
    return borrowed(a[off : off + d0 * d1 * d2].reshape((d0, d1, d2)))


def _generate(layout, func):
    namespace = {
        "_view1": _view1,
        "_view2": _view2,
        "_view3": _view3,
        layout.name: layout.tuple_type,
    }
    exec(compile(layout.source(func), __file__, "exec"), namespace)  # noqa: S102
    return kernel(namespace[func])


game_state = _generate(GAME_LAYOUT, "game_state")
card_tables = _generate(CARD_LAYOUT, "card_tables")


# ----------------------------------------------------------------- change tracking
@kernel(inline="always")
def touch(st):
    """Something changed that the layers or the state-based actions may care about."""
    s = st.s
    s[S_VERSION] += 1
    s[S_LDIRTY] = 1
    s[S_SDIRTY] = 1


@kernel(inline="always")
def bump(st):
    """A change the layers and state-based actions don't look at (tapping, whose turn
    it is): only cached answers are stale."""
    st.s[S_VERSION] += 1


@kernel(inline="always")
def stamp(st):
    st.s[S_TSC] += 1
    return st.s[S_TSC]


@kernel
def fail(st, err):
    """The engine can't go on with this game (a table is full...): it ends, with why."""
    st.s[S_ERROR] = err
    st.s[S_OVER] = 1


# ----------------------------------------------------------------- randomness
@kernel
def rand_below(st, n):
    """A uniform integer in [0, n) from the game's own generator (splitmix64; its 64-bit
    state is two int32 cells of the game's scalars)."""
    s = st.s
    lo = np.uint64(np.uint32(s[S_RNG]))
    hi = np.uint64(np.uint32(s[S_RNG + 1]))
    x = ((hi << np.uint64(32)) | lo) + np.uint64(0x9E3779B97F4A7C15)
    s[S_RNG] = np.int32(np.uint32(x & np.uint64(0xFFFFFFFF)))
    s[S_RNG + 1] = np.int32(np.uint32(x >> np.uint64(32)))
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))


@kernel
def trace(st, kind, player, n, index, a0, a1, a2, a3, a4):
    """One trace row, if the arena has room for a trace (replays and tests)."""
    tr, s = st.tr, st.s
    k = s[S_NTR]
    if k < tr.shape[0]:
        tr[k, TR_KIND] = kind
        tr[k, TR_PLAYER] = player
        tr[k, TR_N] = n
        tr[k, TR_INDEX] = index
        tr[k, TR_ACTION] = a0
        tr[k, TR_ACTION + 1] = a1
        tr[k, TR_ACTION + 2] = a2
        tr[k, TR_ACTION + 3] = a3
        tr[k, TR_ACTION + 4] = a4
        s[S_NTR] = k + 1


# ----------------------------------------------------------------- variable-length tables
@kernel
def new_row(st, tab, count):
    """The next free row of ``tab[:s[count]]``, zeroed (-1 if the table is full: the game
    then ends with ERR_FULL, and a batch plays it again with bigger tables)."""
    s = st.s
    k = s[count]
    if k >= tab.shape[0]:
        fail(st, ERR_FULL)
        return -1
    tab[k, :] = 0
    s[count] = k + 1
    return k


@kernel
def delete_row(tab, k, n):
    """Delete row k of tab[:n] keeping the order; returns the new length."""
    for j in range(k, n - 1):
        tab[j, :] = tab[j + 1, :]
    return n - 1


@kernel
def remove_value(arr, n, x):
    """Remove the first x from arr[:n] keeping the order; returns the new length."""
    for k in range(n):
        if arr[k] == x:
            for j in range(k, n - 1):
                arr[j] = arr[j + 1]
            return n - 1
    return n


@kernel
def remove_all(arr, n, x):
    """Remove every x from arr[:n] keeping the order; returns the new length."""
    m = 0
    for k in range(n):
        if arr[k] != x:
            arr[m] = arr[k]
            m += 1
    return m


@kernel
def insert_ordered(arr, n, i):
    """Insert i into the increasing list arr[:n]; returns the new length."""
    k = n
    while k > 0 and arr[k - 1] > i:
        arr[k] = arr[k - 1]
        k -= 1
    arr[k] = i
    return n + 1


@kernel(inline="always")
def contains(arr, n, x):
    for k in range(n):
        if arr[k] == x:
            return True
    return False


@kernel
def push(st, arr, count, x):
    """Append x to arr[:s[count]] (ERR_FULL if it is full)."""
    s = st.s
    n = s[count]
    if n >= arr.shape[0]:
        fail(st, ERR_FULL)
        return
    arr[n] = x
    s[count] = n + 1
