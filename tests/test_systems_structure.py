"""The shape of the engine's source: the floors (components/ imports nothing of ours,
systems/ only components/ and itself), no recursion among the kernels (numba compiles
none, and the scratch rows rely on it), and every scratch row used only by the
functions components/scratch.py names, none of which runs inside another."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from components import scratch

ROOT = Path(__file__).resolve().parent.parent


def _modules(folder: str) -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text()) for p in sorted((ROOT / folder).glob("*.py"))}


def _our_imports(tree: ast.Module) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
    return out & {"components", "systems", "ecs", "bench", "tests"}


@pytest.mark.parametrize(
    ("folder", "allowed"), [("components", {"components"}), ("systems", {"components", "systems"})]
)
def test_floors(folder: str, allowed: set[str]) -> None:
    for name, tree in _modules(folder).items():
        assert _our_imports(tree) <= allowed, (
            f"{folder}/{name}.py imports {_our_imports(tree) - allowed}"
        )


def _call_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Every function of systems/ (``module.name``): what it calls, and which scratch
    rows (SCR_* names) it mentions."""
    calls: dict[str, set[str]] = {}
    rows: dict[str, set[str]] = {}
    for mod, tree in _modules("systems").items():
        if mod == "jit":  # the compiler's plumbing, not kernels
            continue
        imported: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module == "systems":
                for a in node.names:
                    imported[a.asname or a.name] = a.name + "."
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("systems.")
            ):
                for a in node.names:
                    imported[a.asname or a.name] = f"{node.module.split('.')[1]}.{a.name}"
        local = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            q = f"{mod}.{node.name}"
            calls[q], rows[q] = set(), set()
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and sub.id.startswith("SCR_"):
                    rows[q].add(sub.id)
                if not isinstance(sub, ast.Call):
                    continue
                fn = sub.func
                if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name):
                    prefix = imported.get(fn.value.id, "")
                    if prefix.endswith("."):
                        calls[q].add(prefix + fn.attr)
                elif isinstance(fn, ast.Name):
                    if fn.id in local:
                        calls[q].add(f"{mod}.{fn.id}")
                    elif not imported.get(fn.id, ".").endswith("."):
                        calls[q].add(imported[fn.id])
    return calls, rows


def _reach(calls: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(calls.get(start, ()))
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(calls.get(f, ()))
    return seen


def test_no_recursion() -> None:
    calls, _ = _call_graph()
    assert calls, "no kernels found"
    recursive = sorted(f for f in calls if f in _reach(calls, f))
    assert not recursive, f"kernels that can call themselves: {recursive}"


def test_scratch_rows_have_one_owner_at_a_time() -> None:
    calls, rows = _call_graph()
    names = {name: row for name, row in vars(scratch).items() if name.startswith("SCR_")}
    by_row: dict[str, set[str]] = {}
    for f, used in rows.items():
        for r in used:
            assert r in names, f"{f} uses {r}, which components/scratch.py doesn't declare"
            by_row.setdefault(r, set()).add(f)
    for r, users in by_row.items():
        owners = set(scratch.ROWS[list(scratch.ROWS)[names[r]]].split())
        assert users <= owners, f"{r} is used by {sorted(users - owners)}, not among its owners"
        for f in users:
            inside = _reach(calls, f) & users
            assert not inside, f"{r}: {f} calls {sorted(inside)}, which use the same row"


def test_the_layer_statics_are_declared_once_and_are_the_ones_recompute_applies() -> None:
    """components.cards.LAYER_STATICS (read by ecs.engine.needs) names exactly the static
    kinds systems/continuous_effects._recompute applies."""
    import re

    from components import cards as K

    src = (Path(__file__).resolve().parents[1] / "systems" / "continuous_effects.py").read_text()
    applied = re.findall(r"_statics\(st, cd, srcs\[q\], (ST_\w+)\)", src)
    assert applied and [getattr(K, n) for n in applied] == list(K.LAYER_STATICS)
