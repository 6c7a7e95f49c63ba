"""systems/jit.py: the engine-wide cache key, progress, the twin, the compile levers.

Most tests run small kernels in subprocesses (a fresh process is the only way to see
what a later run loads from the cache); the last one plays seeded games in the real
engine compiled with and without the levers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from systems import jit

ROOT = Path(__file__).resolve().parents[1]

CALLEE = """
from systems.jit import kernel

@kernel
def bonus(x):
    return x + {bonus}
"""

CALLER = """
import json, sys
import numpy as np
from systems.jit import entry, kernel, startups
from callee import bonus

@kernel
def step(a, k, v):
    a[k] += bonus(v)

@entry
def run(a):
    for i in range(a.shape[0]):
        step(a, i, 1)
        step(a, i, 2)
    return a.sum()

a = np.zeros(4, np.int64)
total = run(a)
print(json.dumps({{"total": int(total), "functions": startups()[0].functions,
                  "versions": len(step.overloads)}}))
"""


def _play(folder: Path, cache: Path, **env: str) -> tuple[dict, str]:
    out = subprocess.run(
        [sys.executable, str(folder / "caller.py")],
        cwd=folder,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=f"{ROOT}:{folder}", **env),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def _write(folder: Path, bonus: int) -> None:
    (folder / "callee.py").write_text(textwrap.dedent(CALLEE.format(bonus=bonus)))
    (folder / "caller.py").write_text(textwrap.dedent(CALLER.format()))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "kernels"
    folder.mkdir()
    _write(folder, bonus=10)
    return folder


def test_editing_a_callee_module_recompiles_its_callers(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first, _ = _play(project, cache)
    assert first["total"] == 4 * (11 + 12) and first["functions"] > 0
    again, _ = _play(project, cache)
    assert again == {**first, "functions": 0, "versions": 0}  # loaded, nothing compiled
    _write(project, bonus=100)  # only callee.py changes
    edited, _ = _play(project, cache)
    assert edited["total"] == 4 * (101 + 102) and edited["functions"] > 0


def test_cache_directories_sit_under_numba_cache_dir_and_old_ones_are_pruned(
    project: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    for levers in ("stock", "literals", "wrappers", "link", "all"):  # five cache keys
        _play(project, cache, MELEE_JIT=levers)
    kept = sorted(p.name for p in cache.iterdir())
    assert len(kept) == 1 + jit.KEEP_OLD_CACHES
    assert all(name.startswith("kernels-") for name in kept)


def test_progress_shows_while_compiling_and_nothing_when_loading(
    project: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    _, compiling = _play(project, cache)
    assert "compiling run" in compiling
    assert "compiled run" in compiling
    _, loading = _play(project, cache)
    assert loading == ""


def test_a_constant_argument_does_not_make_a_version_per_value(
    project: Path, tmp_path: Path
) -> None:
    with_levers, _ = _play(project, tmp_path / "a")
    stock, _ = _play(project, tmp_path / "b", MELEE_JIT="stock")
    assert with_levers["versions"] == 1  # step(a, i, 1) and step(a, i, 2)
    assert stock["versions"] == 2
    assert with_levers["total"] == stock["total"]


def test_without_the_jit_the_decorators_return_the_function() -> None:
    code = (
        "from systems.jit import entry, kernel\n"
        "def f(x):\n    return x\n"
        "assert kernel(f) is f and entry(f) is f and kernel(inline='always')(f) is f\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


@jit.kernel
def _triple(a, k):
    a[k] *= 3
    return a[k]


def test_a_kernel_called_from_python_runs_like_its_twin() -> None:
    fast, slow = np.arange(4), np.arange(4)
    assert _triple(fast, 2) == _triple.py_func(slow, 2) == 6
    assert (fast == slow).all()


def test_unknown_levers_and_unchecked_numba_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MELEE_JIT", "literals,bogus")
    with pytest.raises(ValueError, match="bogus"):
        jit._levers()
    monkeypatch.setenv("MELEE_JIT", "stock")
    assert jit._levers() == frozenset()
    monkeypatch.delenv("MELEE_JIT")
    assert jit._levers() == jit.LEVERS
    monkeypatch.setattr(jit.numba, "__version__", "0.99.0")
    with pytest.warns(UserWarning, match="stock way"):
        assert jit._levers() == frozenset()


@pytest.mark.skipif(jit.STOCK_TARGET_OPTIONS is None, reason="the passes lever is off")
def test_target_options_compare_and_hash_as_numba_does() -> None:
    from numba.core.compiler import Flags

    stock_values, stock_hash = jit.STOCK_TARGET_OPTIONS
    plain, changed, same = Flags(), Flags(), Flags()
    changed.no_cpython_wrapper = True
    changed.boundscheck = True
    same.no_cpython_wrapper = True
    same.boundscheck = True
    for flags in (plain, changed):
        assert list(flags.values().items()) == list(stock_values(flags).items())
        assert hash(flags) == stock_hash(flags)
    assert changed == same and changed != plain and plain == Flags()
    assert {changed: 1}[same] == 1


def _fingerprint(**env: str) -> str:
    code = "import sys; sys.path.insert(0, 'bench'); from compile_time import fingerprint; "
    code += "print(fingerprint())"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT), **env),
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_the_levers_play_the_same_games_as_stock_numba() -> None:
    """Seeded two-player, free-for-all and Grand Melee games in the engine compiled
    with every lever and the stock way. After a change to the engine both compile
    again (the stock way takes minutes), hence ``-m slow``: run it after changing
    systems/jit.py or numba."""
    assert _fingerprint(MELEE_JIT="all") == _fingerprint(MELEE_JIT="stock")


def test_the_cache_key_covers_every_source_file_under_the_roots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    components, systems = tmp_path / "components", tmp_path / "systems"
    (systems / "deep").mkdir(parents=True)
    components.mkdir()
    (components / "state.py").write_text("LIFE = 20\n")
    (systems / "deep" / "combat.py").write_text("def f(): pass\n")
    monkeypatch.setattr(jit, "ROOTS", (components, systems))
    before = jit._CacheKey().digest()
    (systems / "__pycache__").mkdir()
    (systems / "__pycache__" / "combat.cpython-311.pyc").write_bytes(b"junk")
    assert jit._CacheKey().digest() == before
    (components / "state.py").write_text("LIFE = 30\n")
    assert jit._CacheKey().digest() != before


# ----------------------------------------------------------------- kernels cached, the helper
KERN = """
from systems.jit import kernel

@kernel
def leaf(x):
    return x + 1

@kernel
def mid(x):
    return leaf(x) * 2

@kernel
def even(n):  # even and odd: a recursive cycle (not cached)
    if n == 0:
        return 1
    return odd(n - 1)

@kernel
def odd(n):
    if n == 0:
        return 0
    return even(n - 1)
"""

MAIN = """
import json, sys
from numba.core import event
from systems import jit
from systems.jit import entry
import kern

compiled = []

class Seen(event.Listener):
    def on_start(self, e):
        compiled.append(e.data["dispatcher"].py_func.__name__)
    def on_end(self, e):
        pass

@entry
def {name}(n):
    return kern.mid(n) + kern.even(n)

if sys.argv[1:] == ["order"]:
    print(json.dumps({{"written": jit.write_order(lambda: {name}(3))}}))
else:
    with event.install_listener("numba:compile", Seen()):
        value = {name}(3)
    print(json.dumps({{"value": int(value), "compiled": sorted(compiled)}}))
"""


def _kernels_project(tmp_path: Path) -> Path:
    folder = tmp_path / "kernels"
    folder.mkdir()
    (folder / "kern.py").write_text(textwrap.dedent(KERN))
    for name in ("run", "again"):
        (folder / f"{name}.py").write_text(textwrap.dedent(MAIN.format(name=name)))
    return folder


def _run_script(folder: Path, script: str, cache: Path, *args: str, **env: str) -> dict:
    out = subprocess.run(
        [sys.executable, str(folder / script), *args],
        cwd=folder,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=f"{ROOT}:{folder}", **env),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_kernels_are_cached_but_not_those_in_a_recursive_cycle(tmp_path: Path) -> None:
    folder, cache = _kernels_project(tmp_path), tmp_path / "cache"
    off = {"MELEE_JIT_HELPER": "off"}
    first = _run_script(folder, "run.py", cache, **off)
    assert first == {"value": 8 + 0, "compiled": ["even", "leaf", "mid", "odd", "run"]}
    # another entry point reaching the same kernels: mid and leaf load from the cache
    other = _run_script(folder, "again.py", cache, **off)
    assert other == {"value": 8, "compiled": ["again", "even", "odd"]}
    assert any(p.name.startswith("kernel-kern.mid") for p in cache.rglob("*.nbi"))


def test_what_the_helper_compiles_loads_in_the_compiling_process(tmp_path: Path) -> None:
    folder, cache = _kernels_project(tmp_path), tmp_path / "cache"
    order = folder / "order.txt"
    written = _run_script(
        folder, "run.py", tmp_path / "scratch", "order", MELEE_JIT_ORDER=str(order)
    )
    assert written["written"] == 4  # leaf, mid, odd, even (not the entry point)
    assert sorted(q for _, q, _ in jit._read_order(order)) == ["even", "leaf", "mid", "odd"]
    claims = tmp_path / "claims"
    claims.mkdir()
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=str(cache),
        PYTHONPATH=f"{ROOT}:{folder}",
        MELEE_JIT_ORDER=str(order),
        MELEE_JIT_HELPER=str(claims),
    )
    helper = subprocess.run(
        [sys.executable, "-m", "systems.jit"], cwd=folder, env=env, capture_output=True, text=True
    )
    assert helper.returncode == 0 and helper.stderr == ""
    assert len(list(claims.glob("*.done"))) == 4  # it compiled the four kernels
    # the compiling process loads mid and leaf (even and odd, a cycle, are not cached)
    after = _run_script(folder, "run.py", cache, MELEE_JIT_ORDER=str(order), MELEE_JIT_HELPER="off")
    assert after == {"value": 8, "compiled": ["even", "odd", "run"]}


def test_the_helper_run_by_hand_says_what_it_is() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MELEE_JIT_HELPER"}
    out = subprocess.run(
        [sys.executable, "-m", "systems.jit"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 2 and "helper of a cold compile" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_cold_compile_with_the_helper_cleans_up(tmp_path: Path) -> None:
    folder, cache = _kernels_project(tmp_path), tmp_path / "cache"
    order = folder / "order.txt"
    _run_script(folder, "run.py", tmp_path / "scratch", "order", MELEE_JIT_ORDER=str(order))
    with_helper = _run_script(folder, "run.py", cache, MELEE_JIT_ORDER=str(order))
    assert with_helper["value"] == 8
    assert not list(cache.rglob("claims-*"))  # the session's claims are removed


def test_the_engines_functions_are_named_alike_in_every_process() -> None:
    args = (jit.types.int64,)
    assert jit._mangler("systems.combat.damage", args, uid=7) == jit._mangler(
        "systems.combat.damage", args, uid=8
    )
    assert jit._mangler("numba.np.arrayobj.empty", args, uid=7) != jit._mangler(
        "numba.np.arrayobj.empty", args, uid=8
    )
    assert jit._mangler("systems.x.f.<locals>.g", args, uid=7) != jit._mangler(
        "systems.x.f.<locals>.g", args, uid=8
    )


def test_the_compile_order_names_kernels_that_exist() -> None:
    """systems/compile_order.txt (the helper's list): regenerate it with
    ``PYTHONPATH=$PWD python bench/compile_time.py --write-order`` when this fails."""
    path = jit.SYSTEMS / "compile_order.txt"
    order = jit._read_order(path)
    lines = [x for x in path.read_text().splitlines() if x.strip() and not x.startswith("#")]
    assert len(order) == len(lines) > 500  # (every line read: no type gone)
    missing = [f"{m}.{q}" for m, q, _ in order if jit._resolve(m, q) is None]
    assert not missing, f"kernels gone or renamed: {missing[:10]}"
