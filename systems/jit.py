"""How the engine's numba kernels are compiled, cached and loaded.

Every numba function of the engine is declared with one of two decorators::

    from systems.jit import entry, kernel

    @kernel
    def draw(st, cd, p, n): ...          # called from other kernels

    @entry
    def play_batch(objects, ...): ...     # called from Python

Both are ``numba.njit`` with the project's options; with ``NUMBA_DISABLE_JIT=1`` they
return the function itself, so the same source runs as plain Python (the kernels'
twin, also reachable as ``.py_func``).

What they add to numba:

* **One cache key for the whole engine.** numba checks only the file that defines a
  function, so an edited callee in another module left its callers loading stale
  machine code. Here the cache lives in a directory named by a hash of every file
  under ``components/`` and ``systems/``, numba's and llvmlite's versions, the
  optimisation level and the compile levers below; older directories are pruned.
  A kernel defined elsewhere (the legacy engine, tests) is covered by its file's hash
  in the cache stamp of every entry point whose code reaches it. ``NUMBA_CACHE_DIR``,
  when set, is the parent of these directories; otherwise they sit in
  ``systems/__pycache__``.
* **Cheap cold compiles** (``MELEE_JIT`` picks the levers: ``all``, the default;
  ``stock``, numba's own way; or a comma list, for measurements):

  - ``literals``: a constant passed to a kernel is typed as its plain type, not as a
    literal, so ``_add(acts, m, A_PASS, ...)`` and ``_add(acts, m, A_LAND, ...)`` share
    one compiled version instead of one each; and a signed integer is typed int64,
    so an int32 read from a table and an int64 computed share one too (numba's integer
    arithmetic is int64 either way; this halved the functions compiled, 1,126 to 702).
  - ``wrappers``: kernels get no CPython or C wrapper (only entry points are called
    from Python); entry points get no C wrapper.
  - ``link``: stock numba optimises every function's module with all its callees
    linked in and generates its machine code, and every caller does it again for all
    its callees, so a deep call graph is optimised and compiled dozens of times. Here
    a kernel's module gets only numba's per-function passes (one pass manager for
    the module's functions; numba builds one per function); an entry point links
    the modules of every kernel it reaches, runs numba's module optimisation (the
    same O3 pipeline) once on the whole and generates machine code once. Only entry
    points are cached with machine code (a kernel has none of its own); a kernel is
    cached as LLVM bitcode with the names of the kernels it calls (loading it loads or
    compiles them), which twins and the ``helper`` lever load.
  - ``passes``: numba passes the kernels don't need are left out of their pipeline
    (closure inlining, literal propagation, the array-expression rewrites and the
    feature checks: no kernel has a closure, an array expression or an unsupported
    feature; ``MELEE_JIT=stock`` keeps them, and ``bench/compile_time.py`` checks that
    both play the same games). Not the IR legalisation: it places the ``del`` of each
    variable, from which lowering emits the release of an array a kernel made; without
    it every such array leaked (tests/test_batches.py counts allocations and frees).
    And numba's target options compare through a dict built option by option at every
    overload typed: here the same answers from defaults worked out once
    (``_quick_target_options``).
  - ``inline``: ``kernel(inline="always")`` asks LLVM to inline the function
    (``alwaysinline``) instead of numba copying its IR into every caller, where it is
    typed and lowered again at each call site.
  - ``helper`` (with ``link``): the front end (typing and lowering, ~0.25 s a kernel,
    most of a cold compile) on both cores. An entry point's cold compile starts a
    helper process (``python -m systems.jit``) that compiles the kernels of
    ``compile_order.txt`` from its end while this process goes on from the start; a
    kernel is compiled by whichever claims it first and loaded from the cache by the
    other (the engine's functions get mangled names without numba's per-process
    counter, so both processes name a kernel alike). A kernel in a recursive cycle is
    not cached (its callees were not all known when it was lowered).

  The levers use numba internals checked for the versions in ``NUMBA_VERSIONS``
  (pinned in pyproject.toml); another version compiles the stock way, with a warning.
* **Progress while compiling, silence when loading**: the first call of an entry point
  that has to compile shows what it compiles on stderr; a call that loads from the
  cache prints nothing. :func:`startups` returns how long each entry point took.

Calling a ``kernel`` from Python (tests do) compiles an entry point of the same
function (its twin) at the first call.

Rules for kernel authors:

* ``@kernel`` for everything called only from kernels, ``@entry`` for the few
  functions Python calls (a kernel called from Python works, at the cost of its own
  compile); no other numba options.
* Compile-time constants are module globals (``A_PASS``), not arguments: arguments are
  typed by their plain types, so nothing may depend on an argument being a literal
  (``literally``, indexing a heterogeneous tuple with an argument).
* ``inline="always"`` only for helpers of a few lines; LLVM inlines small kernels by
  itself.
* No mutable globals: a kernel sees a global's value at compile time. Globals from
  outside ``systems/`` and ``components/`` are not in the cache key (only the files of
  kernels are): keep the engine's constants in ``components/``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import sys
import threading
import time
import types as types_
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import llvmlite
import llvmlite.binding as ll
import numba
from numba.core import config, event, types
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    NullCache,
    _Cache,
    _CacheLocator,
)
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_lock import require_global_compiler_lock
from numba.core.compiler_machinery import PassManager, register_pass
from numba.core.funcdesc import default_mangler
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import (
    NativeLowering,
    NopythonRewrites,
    NoPythonSupportedFeatureValidation,
)
from numba.core.untyped_passes import InlineClosureLikes, LiteralPropagationSubPipelinePass

F = TypeVar("F", bound=Callable[..., Any])

NUMBA_VERSIONS = ((0, 68), (0, 68))
"""The numba minor versions the compile levers were checked against (inclusive)."""

LEVERS = frozenset({"literals", "wrappers", "link", "inline", "passes", "helper"})
"""Every lever; ``MELEE_JIT`` unset means all of them."""

KEEP_OLD_CACHES = 2
"""Cache directories of other keys kept (other checkouts, a branch switched back)."""

SYSTEMS = Path(__file__).resolve().parent
ROOTS = (SYSTEMS.parent / "components", SYSTEMS)
"""Every file under these is part of the cache key (but ORDER_FILE)."""

ORDER_FILE = Path(os.environ.get("MELEE_JIT_ORDER") or SYSTEMS / "compile_order.txt")
"""The kernels a cold compile of the engine lowers, in order, for the helper process
(``bench/compile_time.py --write-order`` writes it; ``MELEE_JIT_ORDER`` names another
file). Not part of the cache key: a stale list costs speed, not correctness."""


def _numba_supported() -> bool:
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    return NUMBA_VERSIONS[0] <= version <= NUMBA_VERSIONS[1]


def _levers() -> frozenset[str]:
    wanted = os.environ.get("MELEE_JIT", "").strip()
    if wanted == "stock":
        return frozenset()
    chosen = LEVERS if wanted in ("", "all") else frozenset(w.strip() for w in wanted.split(","))
    unknown = chosen - LEVERS
    if unknown:
        raise ValueError(f"MELEE_JIT: unknown levers {sorted(unknown)} (known: {sorted(LEVERS)})")
    if chosen and not _numba_supported():
        lo, hi = NUMBA_VERSIONS
        warnings.warn(
            f"numba {numba.__version__} is outside the versions systems/jit.py was checked "
            f"against ({lo[0]}.{lo[1]} to {hi[0]}.{hi[1]}): kernels compile the stock way",
            stacklevel=2,
        )
        return frozenset()
    return chosen


ACTIVE = _levers()
"""The levers in use in this process."""


STOCK_TARGET_OPTIONS: tuple[Any, Any] | None = None
"""numba's own ``TargetConfig.values`` and ``__hash__`` once replaced (for the tests)."""


def _quick_target_options() -> None:
    """numba compares its target options (``Flags``) at every overload it types, through
    a dict of every option built by a property each (~4% of a cold compile). The same
    comparison and hash, from the defaults worked out once per class (the ``passes``
    lever)."""
    from numba.core.targetconfig import TargetConfig

    @functools.cache
    def defaults(cls: type) -> dict[str, Any]:
        return {k: opt.default for k, opt in cls.options.items()}

    @functools.cache
    def names_hash(cls: type) -> int:
        return hash(tuple(sorted(cls.options)))  # numba's hash: of the sorted names

    def values(self: Any) -> dict[str, Any]:
        return {**defaults(type(self)), **self._values}

    def __hash__(self: Any) -> int:
        return names_hash(type(self))

    global STOCK_TARGET_OPTIONS
    STOCK_TARGET_OPTIONS = (TargetConfig.values, TargetConfig.__hash__)
    TargetConfig.values = values
    TargetConfig.__hash__ = __hash__


if "passes" in ACTIVE:
    _quick_target_options()


# ----------------------------------------------------------------- the cache key
class _CacheKey:
    """The engine-wide cache directory: a hash of every file under ``systems/`` and
    ``components/``, the versions and the compile options, computed once."""

    def __init__(self) -> None:
        self._digest: str | None = None
        self._directory: Path | None = None
        self._lock = threading.Lock()

    def digest(self) -> str:
        with self._lock:
            if self._digest is None:
                self._digest = self._compute()
            return self._digest

    def _compute(self) -> str:
        h = hashlib.sha256()
        for part in (
            numba.__version__,
            llvmlite.__version__,
            sys.version,
            str(config.OPT),
            str(config.BOUNDSCHECK),
            str(config.DEBUGINFO_DEFAULT),
            ",".join(sorted(ACTIVE)) or "stock",
        ):
            h.update(part.encode() + b"\0")
        for root in ROOTS:
            if root.is_dir():
                for path in sorted(p for p in root.rglob("*") if _is_source(p, root)):
                    h.update(str(path.relative_to(root.parent)).encode() + b"\0")
                    h.update(_file_hash(path))
        return h.hexdigest()[:20]

    def directory(self) -> Path:
        digest = self.digest()
        with self._lock:
            if self._directory is None:
                self._directory = _open_cache_dir(f"kernels-{digest}")
            return self._directory


def _file_hash(path: Path) -> bytes:
    st = path.stat()
    return _hash_file(str(path), st.st_mtime_ns, st.st_size)


@functools.cache
def _hash_file(path: str, mtime_ns: int, size: int) -> bytes:
    return hashlib.sha256(Path(path).read_bytes()).digest()


def _outside_roots(py_func: Callable[..., Any]) -> list[Path]:
    """The files outside ``ROOTS`` that define ``py_func`` or a kernel it reaches,
    found through the names its code uses (directly, or as attributes of a module)."""
    files: set[Path] = set()
    seen: set[int] = set()
    todo = [py_func]
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        outside, callees = _direct(f)
        if outside is not None:
            files.add(outside)
        todo.extend(callees)
    return sorted(files)


@functools.cache
def _direct(f: Callable[..., Any]) -> tuple[Path | None, tuple[Callable[..., Any], ...]]:
    """``f``'s file if it lies outside ``ROOTS``, and the Python functions of the kernels
    its code names; worked out once per function (every kernel's cache stamp walks the
    kernels it reaches: ~650 walks of the engine in a cold compile)."""
    path = _resolved(f.__code__.co_filename)
    outside = None if any(r in path.parents for r in ROOTS) else path
    names = set(_code_names(f.__code__))
    callees = []
    for name in names:
        obj = f.__globals__.get(name)
        if isinstance(obj, types_.ModuleType):
            found = [getattr(obj, n, None) for n in names]
        else:
            found = [obj]
        callees.extend(x.py_func for x in found if isinstance(x, CPUDispatcher))
    return outside, tuple(callees)


@functools.cache
def _resolved(filename: str) -> Path:
    return Path(filename).resolve()


def _code_names(code: types_.CodeType) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types_.CodeType):
            yield from _code_names(const)


def _stamp(py_func: Callable[..., Any]) -> str:
    """What a cached function is valid for: the engine-wide key and the files outside
    ``systems/`` and ``components/`` it was compiled from (the legacy engine, tests)."""
    h = hashlib.sha256(_KEY.digest().encode())
    for path in _outside_roots(py_func):
        if path.is_file():  # not code typed in at a prompt
            h.update(str(path).encode() + b"\0" + _file_hash(path))
    return h.hexdigest()[:20]


def _is_source(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts
    return (
        path.is_file()
        and path != ORDER_FILE
        and "__pycache__" not in parts
        and not any(p.startswith(".") for p in parts)
        and path.suffix not in (".pyc", ".pyo")
    )


def _cache_parents() -> Iterator[Path]:
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        yield Path(user)
        return
    yield SYSTEMS / "__pycache__"
    from numba.misc.appdirs import AppDirs

    yield Path(AppDirs(appname="melee", appauthor=False).user_cache_dir)


def _open_cache_dir(name: str) -> Path:
    """The first writable parent's ``name`` directory; older siblings pruned."""
    for parent in _cache_parents():
        here = parent / name
        try:
            here.mkdir(parents=True, exist_ok=True)
            os.utime(here)
        except OSError:
            continue
        _prune(parent, keep=here)
        return here
    raise OSError("no writable directory for the kernel cache")


def _prune(parent: Path, keep: Path) -> None:
    others = []
    for d in parent.glob("kernels-*"):
        if d != keep and d.is_dir():
            with contextlib.suppress(OSError):
                others.append((d.stat().st_mtime, d))
    others.sort(reverse=True)
    for _, d in others[KEEP_OLD_CACHES:]:
        shutil.rmtree(d, ignore_errors=True)


_KEY = _CacheKey()


def cache_directory() -> Path:
    """The directory this source tree's compiled entry points are cached in."""
    return _KEY.directory()


class _KeyedLocator(_CacheLocator):
    """numba's cache files of one source file, under the engine-wide key directory."""

    def __init__(self, py_func: Callable[..., Any], py_file: str) -> None:
        self._py_func = py_func
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._path = str(_KEY.directory() / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._path

    def get_source_stamp(self) -> str:
        return _stamp(self._py_func)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Callable[..., Any], py_file: str) -> _KeyedLocator | None:
        try:
            self = cls(py_func, py_file)
            self.ensure_cache_path()
        except OSError:
            return None
        return self


class _KeyedCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_KeyedLocator]


class _KeyedCache(FunctionCache):
    _impl_class = _KeyedCacheImpl

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        # (two processes saving versions of one function at once may pair an index key
        # with the other's data: the data names its version)
        cres = super().load_overload(sig, target_context)
        args = sig.args if hasattr(sig, "args") else tuple(sig)
        if cres is not None and tuple(cres.signature.args) != tuple(args):
            return None
        return cres


class _KernelCacheImpl(_KeyedCacheImpl):
    """A kernel's compile result as LLVM bitcode (see "kernels cached" below)."""

    def get_filename_base(self, fullname: str, abiflags: str) -> str:
        # (not the files of the kernel's twin, an entry point of the same function)
        return "kernel-" + super().get_filename_base(fullname, abiflags)

    def reduce(self, cres: Any) -> Any:
        return _kernel_reduce(cres)

    def rebuild(self, target_context: Any, payload: Any) -> Any:
        return _kernel_rebuild(target_context, payload)

    def check_cachable(self, cres: Any) -> bool:
        return _kernel_cachable(cres)


class _KernelCache(_KeyedCache):
    _impl_class = _KernelCacheImpl


class _LazyCache(_Cache):
    """numba's function cache, made at the first load or save: the function's stamp
    covers the kernels it reaches, all defined by then."""

    def __init__(self, py_func: Callable[..., Any], kind: type[FunctionCache]) -> None:
        self._py_func = py_func
        self._kind = kind
        self._cache: _Cache | None = None

    def _real(self) -> _Cache:
        if self._cache is None:
            try:
                self._cache = self._kind(self._py_func)
            except (OSError, RuntimeError) as e:
                warnings.warn(f"kernel cache unavailable ({e}); compiling every run", stacklevel=3)
                self._cache = NullCache()
        return self._cache

    @property
    def cache_path(self) -> str:
        return self._real().cache_path

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        return self._real().load_overload(sig, target_context)

    def save_overload(self, sig: Any, data: Any) -> None:
        self._real().save_overload(sig, data)

    def enable(self) -> None:
        self._real().enable()

    def disable(self) -> None:
        self._real().disable()

    def flush(self) -> None:
        self._real().flush()


# ----------------------------------------------------------------- linking once
class _KernelLibrary(JITCodeLibrary):
    """A kernel's LLVM code, never optimised or compiled to machine code by itself.

    Finalising it only closes it; the entry points that reach it link its module (not
    its callees': they link every kernel they reach themselves, once each) and optimise
    and compile the whole."""

    def __init__(self, codegen: Any, name: str) -> None:
        super().__init__(codegen, name)
        self._envs: list[tuple[str, Any]] = []
        self.ref: tuple[str, str, tuple[Any, ...]] | None = None  # (see _kernel_ref)

    @property
    def codegen(self) -> Any:
        # numba sets a function's environment pointer as soon as it is lowered; a
        # kernel's is set by the entry points that link it (_EntryLibrary.finalize)
        return _EnvRecorder(self._codegen, self._envs)

    def finalize(self) -> None:
        require_global_compiler_lock()
        self._raise_if_finalized()
        self._final_module.verify()
        self._finalized = True

    def get_pointer_to_function(self, name: str) -> int:
        self._ensure_finalized()
        return 0  # no machine code: calls from Python go through Kernel's twin

    def _optimize_functions(self, ll_module: Any) -> None:
        # numba's per-function passes, with one pass manager for the module's functions
        # (numba builds one per function, declarations included: ~1% of a cold compile)
        ll_module.data_layout = self._codegen._data_layout
        fpm, pb = self._codegen._function_pass_manager()
        for func in ll_module.functions:
            if not func.is_declaration:
                fpm.run(func, pb)

    def exported(self) -> list[str]:
        """The functions this kernel defines for others to call."""
        self._ensure_finalized()
        return [
            fn.name
            for fn in self._final_module.functions
            if not fn.is_declaration and fn.linkage == ll.Linkage.external
        ]

    def _get_module_for_linking(self) -> Any:
        # a library outside this scheme links a kernel: give it every kernel reached
        if self._shared_module is None:
            self._shared_module = _link(self._final_module.clone(), _reached([self])[1:])
        return self._shared_module

    def serialize_using_object_code(self) -> Any:
        raise TypeError("kernels are not cached; the entry points that call them are")


class _EnvRecorder:
    def __init__(self, codegen: Any, envs: list[tuple[str, Any]]) -> None:
        self._codegen = codegen
        self._envs = envs

    def set_env(self, env_name: str, env: Any) -> None:
        self._envs.append((env_name, env))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._codegen, name)


def _reached(libraries: list[Any]) -> list[Any]:
    """Every library reached through kernels, each once, depth first: a kernel's own
    libraries are followed, any other library already holds what it calls."""
    seen: set[int] = set()
    out = []
    stack = list(reversed(libraries))
    while stack:
        lib = stack.pop()
        if id(lib) in seen:
            continue
        seen.add(id(lib))
        out.append(lib)
        if isinstance(lib, _KernelLibrary):
            stack.extend(reversed(lib._linking_libraries))
    return out


def _link(module: Any, libraries: list[Any]) -> Any:
    """``module`` with ``libraries`` linked in; kernels' functions end linkonce_odr.

    The kernels' modules are linked first, with their functions external: LLVM links a
    linkonce definition only if the module it goes into already refers to it, and a
    kernel's callers may not be linked yet (the test of 807.4g in
    tests/test_compiled_game.py crashed on a call to address 0). Made linkonce_odr afterwards, they can be dropped once inlined and are
    shared with other entry points that define them too."""
    kernels = [lib for lib in libraries if isinstance(lib, _KernelLibrary)]
    for lib in kernels:
        module.link_in(lib._final_module, preserve=True)
    for lib in libraries:
        if not isinstance(lib, _KernelLibrary):
            module.link_in(lib._get_module_for_linking(), preserve=True)
    for lib in kernels:
        for name in lib.exported():
            module.get_function(name).linkage = "linkonce_odr"
    return module


UNRESOLVED = ".numba.unresolved$"
"""numba's prefix of a pointer to a function called in a recursive cycle (found by
name when the machine code is loaded)."""


def _keep_called_at_run_time(module: Any) -> None:
    """A function of a recursive cycle is called through a pointer set after loading,
    by its name: it must stay in the machine code even where LLVM inlined every direct
    call (weak_odr: kept, and one copy across entry points; linkonce_odr dropped it)."""
    for gv in module.global_variables:
        if gv.name.startswith(UNRESOLVED):
            with contextlib.suppress(NameError):
                fn = module.get_function(gv.name[len(UNRESOLVED) :])
                if not fn.is_declaration:
                    fn.linkage = "weak_odr"


def _undefined_function(fn: Any) -> bool:
    return fn.is_declaration and fn.name.startswith("_ZN")


class _EntryLibrary(JITCodeLibrary):
    """An entry point's code: it links every kernel it reaches, then numba's usual
    module optimisation and machine-code generation run once on the whole."""

    def finalize(self) -> None:
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        reached = _reached(self._linking_libraries)
        for lib in reached:
            self._reload_init.update(lib._reload_init)
        with event.trigger_event("melee:link", data={"libraries": len(reached) + 1}):
            _link(self._final_module, reached)
            _keep_called_at_run_time(self._final_module)
            self._optimize_final_module()
            missing = [f.name for f in self._final_module.functions if _undefined_function(f)]
            if missing:  # (MCJIT would resolve them to address 0)
                raise AssertionError(f"{self.name}: functions not linked: {missing[:5]}")
            self._final_module.verify()
            self._finalize_final_module()
        defined = self._codegen._engine.is_symbol_defined
        for lib in reached:
            if isinstance(lib, _KernelLibrary):
                for env_name, env in lib._envs:
                    if defined(env_name):
                        self._codegen.set_env(env_name, env)


def _lowering(library_class: type) -> type:
    class Lowering(NativeLowering):
        _name = f"melee_{library_class.__name__.strip('_').lower()}_lowering"

        def run_pass(self, state: Any) -> bool:
            if state.library is None:
                state.library = library_class(
                    state.targetctx.codegen(), state.func_id.func_qualname
                )
                state.library.enable_object_caching()
            if "helper" in ACTIVE:
                state.targetctx.mangler = _mangler
            out = super().run_pass(state)
            if library_class is _KernelLibrary:
                state.library.ref = _kernel_ref(state.func_id.func, tuple(state.args))
                if state.library.ref is not None:
                    _COMPILED.append(state.library.ref)
            return out

    Lowering.__name__ = Lowering.__qualname__ = f"{library_class.__name__}Lowering"
    return register_pass(mutates_CFG=True, analysis_only=False)(Lowering)


_SKIPPED = (
    InlineClosureLikes,
    LiteralPropagationSubPipelinePass,
    NopythonRewrites,
    NoPythonSupportedFeatureValidation,
)
"""numba passes the engine's kernels don't need (the ``passes`` lever)."""


def _pipeline(lowering: type) -> type:
    class Pipeline(CompilerBase):
        def define_pipelines(self) -> list[PassManager]:
            stock = DefaultPassBuilder.define_nopython_pipeline(self.state)
            pm = PassManager("melee")
            for pass_class, description in stock.passes:
                if "passes" in ACTIVE and pass_class in _SKIPPED:
                    continue
                pm.add_pass(lowering if pass_class is NativeLowering else pass_class, description)
            pm.finalize()
            return [pm]

    return Pipeline


_KernelPipeline = _pipeline(_lowering(_KernelLibrary))
_EntryPipeline = _pipeline(_lowering(_EntryLibrary))


# ----------------------------------------------------------------- kernels cached
# A cold compile is mostly numba's front end (typing and lowering each kernel, ~0.25 s
# a function), one process, one core. Kernels are cached as LLVM bitcode, and while an
# entry point compiles, a helper process compiles the kernels of ``compile_order.txt``
# from its end (the parent goes from its start): each process loads from the cache
# what the other already compiled, so the two cores share the front end. The entry
# point links and optimises the whole once, as before.

_COMPILED: list[tuple[str, str, tuple[Any, ...]]] = []
"""The kernels lowered in this process, in order (module, qualname, argument types)."""


def _kernel_ref(func: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """(module, qualname, argument types) naming a kernel's version, or None if the
    kernel can't be found again by name (defined in a function or at a prompt)."""
    module, qualname = func.__module__, func.__qualname__
    if "<" in qualname or module == "__main__" or _resolve(module, qualname) is None:
        return None
    return module, qualname, args


def _resolve(module: str, qualname: str) -> Any:
    import importlib

    try:
        obj: Any = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    return obj if isinstance(obj, Kernel) else None


class _BitcodeLibrary:
    """A library of numba's own (an overload's implementation) that a cached kernel
    links, read back as bitcode: it is only ever linked into an entry point."""

    def __init__(self, name: str, bitcode: bytes) -> None:
        self.name = name
        self._module = ll.parse_bitcode(bitcode)
        self._reload_init: set[Any] = set()

    def _get_module_for_linking(self) -> Any:
        return self._module


_BITCODE_LIBRARIES: dict[tuple[str, bytes], _BitcodeLibrary] = {}


def _bitcode_library(name: str, bitcode: bytes) -> _BitcodeLibrary:
    key = (name, hashlib.sha256(bitcode).digest())
    lib = _BITCODE_LIBRARIES.get(key)
    if lib is None:
        lib = _BITCODE_LIBRARIES[key] = _BitcodeLibrary(name, bitcode)
    return lib


def _mangler(name: str, argtypes: Any, *, abi_tags: Any = (), uid: Any = None) -> str:
    """numba's mangled names without the process's counter for the engine's functions
    (a module-level function of systems/ or components/ is one function): a kernel
    compiled by the helper declares its callees by the names this process gives them."""
    if name.startswith(("systems.", "components.")) and "<" not in name:
        uid = None
    return default_mangler(name, argtypes, abi_tags=abi_tags, uid=uid)


def _symbols(lib: Any) -> tuple[frozenset[str], frozenset[str]]:
    """The numba functions a library's module defines and those it only declares or
    calls through a pointer found by name (numba's calls back into a recursive cycle)."""
    cached = getattr(lib, "_melee_symbols", None)
    if cached is None:
        module = (
            lib._final_module if isinstance(lib, _KernelLibrary) else lib._get_module_for_linking()
        )
        defined, declared = set(), set()
        for fn in module.functions:
            if fn.is_declaration:
                if fn.name.startswith("_ZN"):
                    declared.add(fn.name)
            else:
                defined.add(fn.name)
        for gv in module.global_variables:  # (a call back into a cycle: by name)
            if gv.name.startswith(UNRESOLVED):
                declared.add(gv.name[len(UNRESOLVED) :])
        cached = (frozenset(defined), frozenset(declared))
        with contextlib.suppress(AttributeError):
            lib._melee_symbols = cached
    return cached


def _kernel_cachable(cres: Any) -> bool:
    """A kernel is cached if it can be found by name, and neither it nor any kernel it
    reaches is in a recursive cycle: its callees were known when it was lowered (a
    call back to a function still being compiled is not among them). In a cycle, a
    module of the kernels reached declares a function none of them defines, or one
    other than the kernel's own declares the kernel's function."""
    lib = cres.library
    if not isinstance(lib, _KernelLibrary) or lib.ref is None or cres.reload_init:
        return False
    if any(
        gv.name.startswith("numba.dynamic.globals") for gv in lib._final_module.global_variables
    ):
        return False  # (an address of this process: a large global array, a pointer)
    if not all(env.can_cache() for _, env in lib._envs):
        return False
    reached = _reached([lib])
    defined: set[str] = set()
    declared: set[str] = set()
    for x in reached:
        if isinstance(x, _KernelLibrary) and x.ref is None:
            return False
        d, u = _symbols(x)
        defined |= d
        if x is not lib:
            declared |= u
    own_defined, own_declared = _symbols(lib)
    return not (declared | own_declared) - defined and not declared & own_defined


def _kernel_reduce(cres: Any) -> tuple[Any, ...]:
    import copy

    lib = cres.library
    callees = []
    for x in lib._linking_libraries:
        if isinstance(x, _KernelLibrary):
            callees.append((True, x.ref))
        else:  # (numba's own library, or one read back as bitcode)
            callees.append((False, (x.name, x._get_module_for_linking().as_bitcode())))
    fndesc = copy.copy(cres.fndesc)
    fndesc.typemap = fndesc.calltypes = None
    return (
        lib.ref,
        lib.name,
        lib._final_module.as_bitcode(),
        tuple(callees),
        fndesc,
        cres.environment,
        cres.signature,
        tuple(lib._envs),
    )


_LOADING: set[Any] = set()
"""The kernels being read from the cache in this process (a guard against cycles)."""


def _kernel_rebuild(target_context: Any, payload: tuple[Any, ...]) -> Any:
    from numba.core.compiler import CompileResult

    ref, name, bitcode, callees, fndesc, env, signature, envs = payload
    if ref in _LOADING:
        return None
    _LOADING.add(ref)
    try:
        linking = []
        for is_kernel, callee in callees:
            if is_kernel:
                module, qualname, args = callee
                disp = _resolve(module, qualname)
                if disp is None:
                    return None
                linking.append(_callee_library(disp, args))
            else:
                linking.append(_bitcode_library(*callee))
    finally:
        _LOADING.discard(ref)
    lib = _KernelLibrary(target_context.codegen(), name)
    lib._final_module = ll.parse_bitcode(bitcode)
    defined, declared = _symbols(lib)
    for x in linking:
        defined = defined | _symbols(x)[0]
    if declared - defined:  # (a callee this process compiled under another name)
        return None
    lib._linking_libraries = linking
    lib._finalized = True
    lib._envs = list(envs)
    lib.ref = ref
    return CompileResult(
        target_context=target_context,
        typing_context=target_context.typing_context,
        library=lib,
        environment=env,
        entry_point=target_context.get_executable(lib, fndesc, env),
        fndesc=fndesc,
        type_annotation="(cached kernel)",
        signature=signature,
        objectmode=False,
        lifted=(),
        typing_error=None,
        call_helper=None,
        metadata=None,
        reload_init=[],
        referenced_envs=None,
    )


def _callee_library(disp: Any, args: tuple[Any, ...]) -> Any:
    disp.compile(args)
    return disp.overloads[tuple(args)].library


def write_order(compile_engine: Callable[[], Any], path: Path = ORDER_FILE) -> int:
    """Compile the engine (``compile_engine``) in an empty cache directory and write the
    kernels it lowers, in order, to ``path``; returns how many."""
    import base64
    import pickle
    import tempfile

    saved = {k: os.environ.get(k) for k in ("NUMBA_CACHE_DIR", "MELEE_JIT_HELPER")}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["NUMBA_CACHE_DIR"] = tmp
            os.environ["MELEE_JIT_HELPER"] = "off"  # (no helper: the order is this process's)
            _KEY._directory = None
            del _COMPILED[:]
            compile_engine()
    finally:
        _KEY._directory = None
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    lines = [
        f"{module} {qualname} {base64.b64encode(pickle.dumps(args)).decode()}"
        for module, qualname, args in _COMPILED
    ]
    path.write_text(
        "# the kernels a cold compile lowers, in order (bench/compile_time.py --write-order)\n"
        + "\n".join(lines)
        + "\n"
    )
    return len(lines)


def _read_order(path: Path = ORDER_FILE) -> list[tuple[str, str, tuple[Any, ...]]]:
    import base64
    import pickle

    out = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        try:
            module, qualname, args = line.split(" ")
            out.append((module, qualname, pickle.loads(base64.b64decode(args))))
        except Exception:  # (a stale line: a type renamed)
            continue
    return out


class _Abandon(BaseException):
    """The helper gives up the kernel it is compiling: it needs one the parent is
    compiling (the helper never waits, so neither process waits for the other forever)."""


class _Claims:
    """Who compiles what during a cold compile with a helper: a kernel is compiled by
    the process that first claims it (a file made in a directory of the session); the
    other loads it from the cache once it is done. The helper abandons what needs a
    kernel the parent is compiling and goes on with the next of its list; the parent
    never waits (it compiles a kernel the helper is still compiling, and claims its
    callees, so the helper soon abandons it)."""

    def __init__(self, directory: Path, helper: Any = None) -> None:
        self.dir = directory
        self.helper = helper  # (the helper's process, in the parent; None in the helper)
        self.parent = os.getppid()

    def compile(
        self, func: Callable[..., Any], args: tuple[Any, ...], do: Callable[[], Any]
    ) -> Any:
        key = hashlib.sha256(
            f"{func.__module__}.{func.__qualname__}{tuple(str(a) for a in args)}".encode()
        ).hexdigest()[:32]
        claim, done = self.dir / key, self.dir / (key + ".done")
        if self.helper is None and (_STOPPING or os.getppid() != self.parent):
            raise _Abandon  # (the helper was told to stop, or its parent is gone)
        if done.exists():
            return do()  # (loaded from the cache; compiled, if it could not be cached)
        try:
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            if self.helper is None:
                raise _Abandon from None
            return do()  # (the parent doesn't wait: it compiles what it needs)
        except OSError:
            return do()
        try:
            out = do()
        except BaseException:
            with contextlib.suppress(OSError):
                claim.unlink()
            raise
        with contextlib.suppress(OSError):
            done.touch()
        return out


HELPER_AFTER = 3
"""An entry point's compile starts the helper once it has compiled this many functions
(a test's twin of a kernel, whose callees load from the cache, needs none)."""

_SESSION: _Claims | None = None
"""The claims of the cold compile with a helper under way in this process, if any."""

_STOPPING = False
"""In the helper: its parent asked it to stop (SIGTERM)."""

STALE_CLAIMS_S = 3600
"""Claims directories older than this are left from a killed compile: removed."""


class _Helper:
    """The helper process of a cold compile: it compiles the kernels of ORDER_FILE from
    the end while this process compiles an entry point (lever ``helper``)."""

    def __init__(self) -> None:
        self.proc: Any = None
        self.claims: Path | None = None

    def start(self) -> None:
        import subprocess
        import tempfile

        global _SESSION
        if (
            self.proc is not None
            or _SESSION is not None
            or not {"link", "helper"} <= ACTIVE
            or os.environ.get("MELEE_JIT_HELPER")
            or (os.cpu_count() or 1) < 2
            or not ORDER_FILE.is_file()
        ):
            return
        paths = [str(SYSTEMS.parent), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
        try:
            here = _KEY.directory()
            for old in here.glob("claims-*"):
                if time.time() - old.stat().st_mtime > STALE_CLAIMS_S:
                    shutil.rmtree(old, ignore_errors=True)
            self.claims = Path(tempfile.mkdtemp(prefix="claims-", dir=here))
            env = dict(
                os.environ,
                MELEE_JIT_HELPER=str(self.claims),
                MELEE_JIT_DIGEST=_KEY.digest(),
                PYTHONPATH=os.pathsep.join(p for p in paths if p),
            )
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "systems.jit"],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            self.stop()
            return
        _SESSION = _Claims(self.claims, self.proc)

    def stop(self) -> None:
        import subprocess

        global _SESSION
        if _SESSION is not None and _SESSION.dir == self.claims:
            _SESSION = None
        proc, self.proc = self.proc, None
        try:
            if proc is not None:
                proc.terminate()  # (it stops at its next kernel)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        finally:
            if self.claims is not None:
                shutil.rmtree(self.claims, ignore_errors=True)
                self.claims = None


def _help() -> None:
    """The helper's work (``python -m systems.jit``, started by an entry point's cold
    compile): compile the kernels of ORDER_FILE from its end, each saved to the cache;
    stop when the parent is gone."""
    import signal

    global _SESSION

    def stopping(signum: int, frame: Any) -> None:
        global _STOPPING
        _STOPPING = True

    signal.signal(signal.SIGTERM, stopping)
    if os.environ.get("MELEE_JIT_DIGEST") not in (None, _KEY.digest()):
        return  # (a source file changed since the parent hashed them: not the same engine)
    _SESSION = _Claims(Path(os.environ["MELEE_JIT_HELPER"]))
    for module, qualname, args in reversed(_read_order()):
        if _STOPPING or os.getppid() != _SESSION.parent or not _SESSION.dir.is_dir():
            return
        disp = _resolve(module, qualname)
        if disp is not None:
            with contextlib.suppress(Exception, _Abandon):
                disp.compile(args)


# ----------------------------------------------------------------- progress and timing
@dataclass(frozen=True)
class Startup:
    """An entry point compiled (``functions`` > 0: the numba functions compiled on the
    way) or loaded from the cache for new argument types, usually at its first call."""

    entry: str
    seconds: float
    functions: int

    @property
    def compiled(self) -> bool:
        return self.functions > 0


_STARTUPS: list[Startup] = []


def startups() -> list[Startup]:
    """The entry points compiled or loaded in this process so far, in order."""
    return list(_STARTUPS)


class _Progress(event.Listener):
    """Shows on stderr what an entry point's first call compiles (nothing if it loads)."""

    def __init__(self, entry: str) -> None:
        self.entry = entry
        self.functions = 0
        self.t0 = time.perf_counter()
        self._status: Any = None
        self._tty = sys.stderr.isatty()
        self.helper = _Helper()

    def on_start(self, event: event.Event) -> None:
        if event.kind == "melee:link":  # the entry point's one optimisation
            self._show(
                f"optimising and generating machine code for {event.data['libraries']} parts"
            )
            return
        self.functions += 1
        if self.functions == 1:
            self._open()
        if self.functions == HELPER_AFTER:
            self.helper.start()
        f = event.data["dispatcher"].py_func
        self._show(f"{f.__module__.rsplit('.', 1)[-1]}.{f.__qualname__}")

    def on_end(self, event: event.Event) -> None:
        pass

    def _show(self, doing: str) -> None:
        if self._status is not None:
            seconds = time.perf_counter() - self.t0
            self._status.update(f"{self.functions} functions, {seconds:.0f} s: {doing}"[:76])

    def _open(self) -> None:
        line = f"compiling {self.entry} (the first run after a change; later runs load it)"
        if self._tty:
            from rich.console import Console

            console = Console(stderr=True)
            console.print(line, highlight=False)
            self._status = console.status("", refresh_per_second=4)
            self._status.start()
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self, seconds: float, ok: bool) -> None:
        self.helper.stop()
        if self._status is not None:
            self._status.stop()
        if self.functions and ok:
            print(
                f"compiled {self.entry} ({self.functions} functions) in {seconds:.1f} s",
                file=sys.stderr,
                flush=True,
            )


def _plain(t: Any) -> Any:
    """The type a kernel is compiled for, given an argument's: its plain type, any
    signed integer widened to int64 (numba computes in int64 anyway), so that int32
    and int64 values passed share one version."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


class _Dispatcher(CPUDispatcher):
    def get_call_template(self, args: Any, kws: Any) -> Any:
        if "literals" in ACTIVE:  # one version for every constant passed
            args = tuple(_plain(a) for a in args)
            kws = {k: _plain(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def enable_caching(self) -> None:
        kind = _KernelCache if isinstance(self, Kernel) and "link" in ACTIVE else _KeyedCache
        self._cache = _LazyCache(self.py_func, kind)


class Entry(_Dispatcher):
    """An entry point: called from Python, cached, compiled with every kernel it reaches."""

    def _compile_for_args(self, *args: Any, **kws: Any) -> Any:
        name = self.py_func.__qualname__
        progress = _Progress(name)
        t0 = time.perf_counter()
        ok = False
        try:
            with (
                event.install_listener("numba:compile", progress),
                event.install_listener("melee:link", progress),
            ):
                out = super()._compile_for_args(*args, **kws)
            ok = True
            return out
        finally:
            seconds = time.perf_counter() - t0
            progress.close(seconds, ok)
            if ok:
                _STARTUPS.append(Startup(name, seconds, progress.functions))


class Kernel(_Dispatcher):
    """A kernel: called from other kernels. Called from Python, it compiles an entry
    point of the same function (its twin) at the first call."""

    _twin: Entry | None = None

    def compile(self, sig: Any) -> Any:
        claims = _SESSION
        if claims is None:
            return super().compile(sig)
        args = tuple(sig.args if hasattr(sig, "args") else sig)
        if args in self.overloads:
            return super().compile(sig)
        return claims.compile(self.py_func, args, lambda: super(Kernel, self).compile(sig))

    def __call__(self, *args: Any, **kws: Any) -> Any:
        if not ({"wrappers", "link"} & ACTIVE):
            return super().__call__(*args, **kws)
        if self._twin is None:
            options = _entry_options(self.targetoptions)
            self._twin = _make(Entry, self.py_func, options, self.locals)
        return self._twin(*args, **kws)


def _kernel_options(options: dict[str, Any]) -> dict[str, Any]:
    out = {"nopython": True, **options}
    if "inline" in ACTIVE:  # LLVM inlines it (numba would inline its IR at every call)
        # set on every kernel: numba gives a callee compiled while its caller compiles
        # the caller's forceinline unless the callee's is set
        out["forceinline"] = out.pop("inline") == "always"
    if "wrappers" in ACTIVE:
        out.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
    return out


def _entry_options(options: dict[str, Any]) -> dict[str, Any]:
    dropped = ("no_cpython_wrapper", "no_cfunc_wrapper", "forceinline")
    out = {k: v for k, v in options.items() if k not in dropped}
    out["nopython"] = True
    if "wrappers" in ACTIVE:
        out["no_cfunc_wrapper"] = True
    return out


def _make(
    cls: type[_Dispatcher],
    func: Callable[..., Any],
    options: dict[str, Any],
    local_types: dict[str, Any] | None,
) -> Any:
    linking = "link" in ACTIVE
    if cls is Entry:
        pipeline = _EntryPipeline if linking else None
    else:
        pipeline = _KernelPipeline if linking else None
    kwargs = {"pipeline_class": pipeline} if pipeline is not None else {}
    disp = cls(py_func=func, locals=dict(local_types or {}), targetoptions=options, **kwargs)
    disp.enable_caching()
    return disp


# ----------------------------------------------------------------- the decorators
def kernel(
    func: F | None = None, *, inline: str = "never", locals: dict[str, Any] | None = None
) -> Any:
    """Declare a kernel: a numba function called from other kernels.

    ``inline="always"`` inlines it into every caller (for helpers of a few lines; LLVM
    inlines small kernels by itself); ``locals`` fixes the numba types of local
    variables. Nothing else is configurable: every kernel compiles with the same
    options."""

    def wrap(f: F) -> F:
        if config.DISABLE_JIT:
            return f
        return _make(Kernel, f, _kernel_options({"inline": inline}), locals)

    return wrap(func) if func is not None else wrap


def entry(func: F | None = None, *, locals: dict[str, Any] | None = None) -> Any:
    """Declare an entry point: a numba function called from Python (cached; its first
    call in a fresh cache compiles it with every kernel it reaches)."""

    def wrap(f: F) -> F:
        if config.DISABLE_JIT:
            return f
        return _make(Entry, f, _entry_options({}), locals)

    return wrap(func) if func is not None else wrap


__all__ = ["kernel", "entry", "Kernel", "Entry", "Startup", "startups", "cache_directory"]


if __name__ == "__main__":  # (this file run as a script: the module's own copy does it)
    claims = os.environ.get("MELEE_JIT_HELPER", "")
    if not claims or not Path(claims).is_dir():
        print(
            "python -m systems.jit is the helper of a cold compile, started by the engine "
            "with MELEE_JIT_HELPER naming its claims directory; nothing to do",
            file=sys.stderr,
        )
        sys.exit(2)
    from systems.jit import _help as help_compile

    help_compile()
