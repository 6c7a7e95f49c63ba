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
    a kernel's module gets only numba's per-function passes; an entry point links
    the modules of every kernel it reaches, runs numba's module optimisation (the
    same O3 pipeline) once on the whole and generates machine code once. Only entry
    points are cached (a kernel has no machine code of its own).
  - ``passes``: numba passes the kernels don't need are left out of their pipeline
    (closure inlining, literal propagation, the array-expression rewrites and the
    feature checks: no kernel has a closure, an array expression or an unsupported
    feature; ``MELEE_JIT=stock`` keeps them, and ``bench/compile_time.py`` checks that
    both play the same games). Not the IR legalisation: it places the ``del`` of each
    variable, from which lowering emits the release of an array a kernel made; without
    it every such array leaked (tests/test_batches.py counts allocations and frees).
  - ``inline``: ``kernel(inline="always")`` asks LLVM to inline the function
    (``alwaysinline``) instead of numba copying its IR into every caller, where it is
    typed and lowered again at each call site.

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

LEVERS = frozenset({"literals", "wrappers", "link", "inline", "passes"})
"""Every lever; ``MELEE_JIT`` unset means all of them."""

KEEP_OLD_CACHES = 2
"""Cache directories of other keys kept (other checkouts, a branch switched back)."""

SYSTEMS = Path(__file__).resolve().parent
ROOTS = (SYSTEMS.parent / "components", SYSTEMS)
"""Every file under these is part of the cache key."""


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
        path = Path(f.__code__.co_filename).resolve()
        if not any(r in path.parents for r in ROOTS):
            files.add(path)
        names = set(_code_names(f.__code__))
        for name in names:
            obj = f.__globals__.get(name)
            if isinstance(obj, types_.ModuleType):
                found = [getattr(obj, n, None) for n in names]
            else:
                found = [obj]
            todo.extend(x.py_func for x in found if isinstance(x, CPUDispatcher))
    return sorted(files)


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


class _LazyCache(_Cache):
    """numba's function cache, made at the first load or save: the function's stamp
    covers the kernels it reaches, all defined by then."""

    def __init__(self, py_func: Callable[..., Any]) -> None:
        self._py_func = py_func
        self._cache: _Cache | None = None

    def _real(self) -> _Cache:
        if self._cache is None:
            try:
                self._cache = _KeyedCache(self._py_func)
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
            return super().run_pass(state)

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

    def on_start(self, event: event.Event) -> None:
        if event.kind == "melee:link":  # the entry point's one optimisation
            self._show(
                f"optimising and generating machine code for {event.data['libraries']} parts"
            )
            return
        self.functions += 1
        if self.functions == 1:
            self._open()
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
        self._cache = _LazyCache(self.py_func)


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
    if cls is Entry or not linking:
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
