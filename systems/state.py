"""The arenas as kernels see them, and the small helpers every rules area uses.

``game_state(arena)`` gives a game's tables as attributes (``st.o``, ``st.pl``,
``st.s``, ...; components/state.py lists them), ``card_tables(arena)`` those of the
cards arena (``cd.ct``, ``cd.ab``, ...). Both follow from the layouts, so the list of
tables is written once. Compiled, ``st`` is a pointer to the arena and each table a
view built from its header, owning no reference; they are valid while the arena is,
which the entry points guarantee.

Helpers: ``touch`` (something changed: the layers and the state-based actions look
again), ``bump`` (a change they don't care about), ``stamp`` (a new timestamp),
``rand_below`` (the game's generator, splitmix64), ``trace`` rows, ``append_row``
for the variable-length tables and ordered id lists."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.core.typing.templates import AttributeTemplate
from numba.extending import infer_getattr, intrinsic, models, register_model
from numba.np.arrayobj import populate_array

from components.cards import CARD_LAYOUT
from components.decisions import TR_ACTION, TR_INDEX, TR_KIND, TR_N, TR_PLAYER
from components.effects import X_CTL, X_KIND, X_OBJ, X_SRC, X_TS, X_UNTIL
from components.game import (
    ERR_FULL,
    S_AGENT_RNG,
    S_ERROR,
    S_LDIRTY,
    S_LIVE_STATICS,
    S_NEFF,
    S_NTR,
    S_OVER,
    S_RNG,
    S_SDIRTY,
    S_TOUCHES,
    S_TSC,
    S_VERSION,
)
from components.rules import N_MANA
from components.schema import HEADER_FIXED, PER_TABLE
from components.state import GAME_LAYOUT
from systems.jit import kernel

GameState = GAME_LAYOUT.tuple_type
CardTables = CARD_LAYOUT.tuple_type


# ----------------------------------------------------------------- the arenas in kernels
# A kernel receives ``st`` (and ``cd``) and reads its tables as ``st.o``, ``st.pl``...
# Compiled, ``st`` is one pointer to the arena: reading ``st.o`` builds the view from
# the arena's header (three loads, no reference counting, nothing left if unused).
# Passing the namedtuple of views instead cost ~230 machine words per call, which
# was most of the engine's time. The twin (NUMBA_DISABLE_JIT=1) gets the namedtuple.


class ArenaRef(types.Type):
    """The compiled type of ``st``/``cd``: a pointer to an arena of ``layout``."""

    def __init__(self, layout):
        self.layout = layout
        super().__init__(name=f"ArenaRef({layout.name})")

    def __reduce__(self):  # cached signatures name the layout, not the object
        return (_arena_ref, (self.layout.name,))


_LAYOUTS = {GAME_LAYOUT.name: GAME_LAYOUT, CARD_LAYOUT.name: CARD_LAYOUT}
_REFS = {name: ArenaRef(layout) for name, layout in _LAYOUTS.items()}


def _arena_ref(name):
    return _REFS[name]


class _RefModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.PointerType(ir.IntType(32)))


register_model(ArenaRef)(_RefModel)


def _array_type(table):
    return types.Array(types.int32, table.ndim, "C")


@infer_getattr
class _ArenaRefAttributes(AttributeTemplate):
    key = ArenaRef

    def generic_resolve(self, typ, attr):
        k = typ.layout.index.get(attr)
        if k is not None:
            return _array_type(typ.layout.tables[k])
        return None


@lower_getattr_generic(ArenaRef)
def _lower_table(context, builder, typ, ptr, attr):
    k = typ.layout.index[attr]
    table = typ.layout.tables[k]
    aryty = _array_type(table)
    h = HEADER_FIXED + PER_TABLE * k
    invariant = builder.module.add_metadata([])
    i32, i64 = ir.IntType(32), ir.IntType(64)

    def cell(j):
        v = builder.load(builder.gep(ptr, [ir.Constant(i32, h + j)]))
        v.set_metadata("invariant.load", invariant)
        return builder.sext(v, i64)

    off = cell(0)
    dims = [cell(1 + j) for j in range(table.ndim)]
    strides = []
    step = ir.Constant(i64, 4)
    for d in reversed(dims):
        strides.insert(0, step)
        step = builder.mul(step, d)
    ary = context.make_array(aryty)(context, builder)
    populate_array(
        ary,
        data=builder.gep(ptr, [off]),
        shape=dims,
        strides=strides,
        itemsize=ir.Constant(i64, 4),
        meminfo=None,
    )
    return impl_ret_borrowed(context, builder, aryty, ary._getvalue())


def _ref_of(layout):
    ref = _REFS[layout.name]

    @intrinsic
    def of(typingctx, arr):
        if not (isinstance(arr, types.Array) and arr.dtype == types.int32 and arr.ndim == 1):
            return None

        def codegen(context, builder, sig, args):
            return context.make_array(arr)(context, builder, value=args[0]).data

        return ref(arr), codegen

    return of


if config.DISABLE_JIT:
    game_state = GAME_LAYOUT.views
    card_tables = CARD_LAYOUT.views
else:
    game_state = _ref_of(GAME_LAYOUT)
    card_tables = _ref_of(CARD_LAYOUT)


# ----------------------------------------------------------------- change tracking
@kernel(inline="always")
def touch(st):
    """Something changed that the layers or the state-based actions may care about."""
    s = st.s
    s[S_VERSION] += 1
    s[S_TOUCHES] += 1
    s[S_LDIRTY] = 1
    s[S_SDIRTY] = 1


@kernel(inline="always")
def touch_sba(st):
    """A change only the state-based actions look at (life, damage), unless a static
    ability the layers last applied has a condition or a count that any change may
    answer differently (S_LIVE_STATICS)."""
    s = st.s
    s[S_VERSION] += 1
    s[S_SDIRTY] = 1
    if s[S_LIVE_STATICS]:
        s[S_LDIRTY] = 1


@kernel(inline="always")
def bump(st):
    """A change the layers and state-based actions don't look at (tapping, whose turn
    it is, a draw): only cached answers are stale, unless a static ability the layers
    last applied has a condition ("as long as it's your turn") or a count ("for each
    card in your hand") that any change may answer differently (S_LIVE_STATICS)."""
    s = st.s
    s[S_VERSION] += 1
    if s[S_LIVE_STATICS]:
        s[S_LDIRTY] = 1


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
    return _splitmix(st.s, S_RNG, n)


@kernel
def agent_rand_below(st, n):
    """A uniform integer in [0, n) from the compiled agents' generator (their picks
    leave the game's generator alone)."""
    return _splitmix(st.s, S_AGENT_RNG, n)


@kernel(inline="always")
def _splitmix(s, cell, n):
    lo = np.uint64(np.uint32(s[cell]))
    hi = np.uint64(np.uint32(s[cell + 1]))
    x = ((hi << np.uint64(32)) | lo) + np.uint64(0x9E3779B97F4A7C15)
    s[cell] = np.int32(np.uint32(x & np.uint64(0xFFFFFFFF)))
    s[cell + 1] = np.int32(np.uint32(x >> np.uint64(32)))
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
def new_effect(st, kind, obj, ctl, src, until):
    """A row of the effects table (611.2: a continuous effect of a resolved spell or
    ability, or what a replacement leaves), timestamped now (613.7); -1 if it is full."""
    k = new_row(st, st.eff, S_NEFF)
    if k >= 0:
        e = st.eff
        e[k, X_KIND] = kind
        e[k, X_OBJ] = obj
        e[k, X_CTL] = ctl
        e[k, X_TS] = stamp(st)
        e[k, X_UNTIL] = until
        e[k, X_SRC] = src
    return k


@kernel(inline="always")
def zeroed(row, n):
    """A scratch row with its first n cells 0: ``np.zeros(n)`` without the allocation."""
    for i in range(n):
        row[i] = 0
    return row


@kernel
def copy_into(dst, src, n):
    """``dst[:n] = src[:n]`` (1-D or rows of 2-D tables). A loop, not numba's slice
    assignment, whose shape check formats its error message: that alone compiled about
    80 functions of string handling into the engine."""
    for i in range(n):
        dst[i] = src[i]


@kernel
def delete_row(tab, k, n):
    """Delete row k of tab[:n] keeping the order; returns the new length."""
    for j in range(k, n - 1):
        copy_into(tab[j], tab[j + 1], tab.shape[1])
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


# ----------------------------------------------------------------- small helpers
@kernel(inline="always")
def popcount(v):
    """How many bits of v are set (colours in a mask)."""
    n = 0
    while v:
        v &= v - 1
        n += 1
    return n


@kernel(inline="always")
def lowest_bit(v):
    """The lowest set bit of a colour mask (W..C: 0..5); the last colour if none."""
    for c in range(N_MANA):
        if (v >> c) & 1:
            return c
    return N_MANA - 1


@kernel
def shuffle_ints(st, arr, n):
    """Shuffle arr[:n] in place from the game's generator (Fisher-Yates)."""
    for k in range(n - 1, 0, -1):
        j = rand_below(st, k + 1)
        t = arr[k]
        arr[k] = arr[j]
        arr[j] = t
