"""Declaring the state once: tables of named fields, laid out in one int32 arena.

A game's whole state is one flat ``int32`` array, the *arena*. Its tables (the
objects, the players, the game's scalars, the libraries, the stack, ...) are
declared once, in the modules of ``components/``, as :class:`Table` objects whose
fields are named one line each::

    OBJECTS = Table("o", "every card, token, spell and ability", rows="objects")
    F_ZONE = OBJECTS.field("zone", "the zone it is in (400.1)")

``field`` returns the column index, a plain int that numba kernels use as a
compile-time constant (``st.o[i, F_ZONE]``). A :class:`Layout` lists the tables of
an arena; from it follow everything else: the arena for given capacities (its
header records where each table lives), the named views of it (``Layout.views``),
a clone (``arena.copy()``), save and load (the array itself), the fingerprint
(the arena with the fields marked ``volatile`` masked out) and the state view's
field names. Nothing here imports anything of ours.
"""

from __future__ import annotations

import hashlib
from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np

DTYPE = np.int32
MAGIC = 0x4D454C45  # "MELE"
# header: MAGIC, layout id, number of tables, total size, then per table: offset, d0, d1, d2
HEADER_FIXED = 4
PER_TABLE = 4


@dataclass
class Field:
    name: str
    index: int
    doc: str
    width: int = 1
    volatile: bool = False  # a cache or counter that two equal states may differ in


@dataclass
class Table:
    """A table of the arena: ``rows`` x fields (or a plain block of ``shape``).

    ``rows`` / ``shape`` name capacities ("players", "objects", ...) or give ints;
    ``shape`` is for blocks without named fields (a library: players x cards).
    A table with fields and ``rows=None`` is one row (the game's scalars): 1-D."""

    name: str
    doc: str
    rows: str | int | None = None
    shape: tuple = ()
    fields: list[Field] = field(default_factory=list)
    volatile: bool = False  # the whole table is scratch (not part of the game's state)

    def field(self, name: str, doc: str, width: int = 1, volatile: bool = False) -> int:
        """Declare the next field (``width`` > 1: a block of columns); returns its index."""
        if any(f.name == name for f in self.fields):
            raise ValueError(f"{self.name}: field {name!r} declared twice")
        index = self.width
        self.fields.append(Field(name, index, doc, width, volatile))
        return index

    @property
    def width(self) -> int:
        return sum(f.width for f in self.fields)

    @property
    def ndim(self) -> int:
        if self.shape:
            return len(self.shape)
        return 1 if self.rows is None else 2

    def dims(self, caps: dict[str, int]) -> tuple[int, ...]:
        def cap(x):
            return x if isinstance(x, int) else int(caps[x])

        if self.shape:
            return tuple(cap(x) for x in self.shape)
        if self.rows is None:
            return (self.width,)
        return (cap(self.rows), self.width)

    def names(self) -> dict[str, int]:
        return {f.name: f.index for f in self.fields}

    def volatile_columns(self) -> list[int]:
        out = []
        for f in self.fields:
            if f.volatile:
                out.extend(range(f.index, f.index + f.width))
        return out


class Layout:
    """The tables of one kind of arena, in order; ``tuple_type`` is the namedtuple of
    their views that kernels receive (``st.o``, ``st.pl``, ...)."""

    def __init__(self, name: str, tables: list[Table], layout_id: int):
        self.name = name
        self.tables = tables
        self.layout_id = layout_id
        self.index = {t.name: k for k, t in enumerate(tables)}
        self.tuple_type = namedtuple(name, [t.name for t in tables])
        self.header = HEADER_FIXED + PER_TABLE * len(tables)

    def alloc(self, caps: dict[str, int]) -> np.ndarray:
        """A zeroed arena for these capacities, its header filled in."""
        dims = [t.dims(caps) for t in self.tables]
        sizes = [int(np.prod(d)) for d in dims]
        total = self.header + sum(sizes)
        if total >= 2**31:
            raise ValueError(f"{self.name}: {total} cells is more than an arena can address")
        a = np.zeros(total, DTYPE)
        a[0], a[1], a[2], a[3] = MAGIC, self.layout_id, len(self.tables), total
        off = self.header
        for k, (d, n) in enumerate(zip(dims, sizes)):
            h = HEADER_FIXED + PER_TABLE * k
            a[h] = off
            for j in range(3):
                a[h + 1 + j] = d[j] if j < len(d) else 0
            off += n
        return a

    def check(self, a: np.ndarray) -> None:
        if a.dtype != DTYPE or a.ndim != 1 or a.size < self.header:
            raise ValueError(f"not a {self.name} arena: expected a 1-D int32 array")
        if a[0] != MAGIC or a[1] != self.layout_id or a[2] != len(self.tables) or a[3] != a.size:
            raise ValueError(f"not a {self.name} arena (or one from another version)")

    def dims_of(self, a: np.ndarray, name: str) -> tuple[int, ...]:
        k = self.index[name]
        h = HEADER_FIXED + PER_TABLE * k
        return tuple(int(x) for x in a[h + 1 : h + 1 + self.tables[k].ndim])

    def view(self, a: np.ndarray, name: str) -> np.ndarray:
        k = self.index[name]
        h = HEADER_FIXED + PER_TABLE * k
        return self._view(a, a[h : h + 4].tolist(), self.tables[k].ndim)

    @staticmethod
    def _view(a: np.ndarray, cell: list[int], ndim: int) -> np.ndarray:
        off, d0, d1, d2 = cell
        if ndim == 1:
            return a[off : off + d0]
        if ndim == 2:
            return a[off : off + d0 * d1].reshape(d0, d1)
        return a[off : off + d0 * d1 * d2].reshape(d0, d1, d2)

    def views(self, a: np.ndarray):
        """The tables of arena ``a`` as numpy views, by name (``v.o``, ``v.pl``...)."""
        self.check(a)
        hdr = a[: self.header].tolist()
        return self.tuple_type(*(
            self._view(a, hdr[HEADER_FIXED + PER_TABLE * k : HEADER_FIXED + PER_TABLE * (k + 1)], t.ndim)
            for k, t in enumerate(self.tables)
        ))  # fmt: skip

    def caps_of(self, a: np.ndarray) -> dict[str, int]:
        """The capacities an arena was made with (from its header)."""
        caps: dict[str, int] = {}
        for t in self.tables:
            d = self.dims_of(a, t.name)
            keys = t.shape if t.shape else ((t.rows,) if t.rows is not None else ())
            for key, n in zip(keys, d):
                if isinstance(key, str):
                    caps[key] = n
        return caps

    def regrow(self, a: np.ndarray, caps: dict[str, int]) -> np.ndarray:
        """A copy of arena ``a`` with (at least) these capacities: every table's contents
        copied into the top-left corner of its bigger self."""
        old = self.caps_of(a)
        new_caps = {k: max(v, caps.get(k, 0)) for k, v in old.items()}
        b = self.alloc(new_caps)
        for t in self.tables:
            src = self.view(a, t.name)
            dst = self.view(b, t.name)
            dst[tuple(slice(0, n) for n in src.shape)] = src
        return b

    def fingerprint(self, a: np.ndarray) -> str:
        """A hash of the game's state: every table but scratch ones, volatile fields
        (caches, timestamps) masked out."""
        h = hashlib.blake2b(digest_size=16)
        for t in self.tables:
            if t.volatile:
                continue
            v = self.view(a, t.name)
            cols = t.volatile_columns()
            if cols:
                v = v.copy()
                v[..., cols] = 0
            h.update(np.ascontiguousarray(v).tobytes())
        return h.hexdigest()
