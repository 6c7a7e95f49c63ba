"""Every command the README shows runs and finishes with exit 0 (marked ``readme``:
``python -m pytest -m readme``).

Commands are taken from the README's ``bash`` blocks and its inline code spans that
start with ``melee``, ``python`` or ``pytest`` (globs expanded as a shell would),
and run in README order in one
scratch folder (so ``melee replay replays/...`` finds the replays an earlier
command wrote, ``melee report`` the store), with ``examples/``, ``tests/`` and
``bench/`` and ``pyproject.toml`` linked in. To keep it quick, ``--games N`` becomes at most
``--games 4`` (a ``simulate`` without ``--games`` gets ``--games 2``, the Monte
Carlo example ``--games 2``), and benchmarks run once each without timing
(``--benchmark-disable`` for ``--benchmark-only``). ``my-position.yaml`` (the
README's stand-in for a user's scenario) is a copy of a real scenario.

Not run, on purpose (listed in ``NOT_RUN`` with the reason): ``pip install``
(it would change the environment the tests run in), the whole test suite
(``python -m pytest`` from inside itself), and ``--backend ray --address auto``,
which needs a Ray cluster started with ``ray start --head`` beforehand.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from glob import glob
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
MAX_GAMES = 4
NOT_RUN = {
    "pip install": "installs into the environment the tests run in",
    "python -m pytest": "the whole test suite, run from inside the test suite",
    "--address auto": "needs a running Ray cluster (`ray start --head` first)",
}


def readme_commands(text: str) -> list[str]:
    """Shell commands in README order: lines of ``bash`` blocks (comments dropped, ``&&``
    split) and inline code spans that start with melee/python/pytest."""
    out: list[str] = []
    pos = 0
    for m in re.finditer(r"```bash\n(.*?)```", text, re.S):
        out += _inline(text[pos : m.start()])
        for line in m.group(1).splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            out += [part.strip() for part in line.split("&&") if part.strip()]
        pos = m.end()
    out += _inline(text[pos:])
    seen: set[str] = set()
    return [c for c in out if not (c in seen or seen.add(c))]


def _inline(text: str) -> list[str]:
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # other code blocks (python) are code
    spans = re.findall(r"`((?:melee|python|pytest) [^`]+)`", text)
    return [s for s in spans if s.split()[1:] and not s.split()[1].isupper()]


def skipped_reason(cmd: str) -> str | None:
    if cmd == "python -m pytest":
        return NOT_RUN["python -m pytest"]
    for key, why in NOT_RUN.items():
        if key != "python -m pytest" and key in cmd:
            return why
    return None


def runnable(cmd: str) -> list[str]:
    """The command as run here: melee -> python -m ecs, fewer games, benchmarks untimed."""
    argv = shlex.split(cmd)
    if argv[0] == "melee":
        argv = [sys.executable, "-m", "ecs", *argv[1:]]
    elif argv[0] == "python":
        argv = [sys.executable, *argv[1:]]
    elif argv[0] == "pytest":
        argv = [sys.executable, "-m", "pytest", *argv[1:]]
    if "--games" in argv:
        k = argv.index("--games") + 1
        argv[k] = str(min(int(argv[k]), MAX_GAMES))
    elif "simulate" in argv or "montecarlo_vs_random.py" in " ".join(argv):
        argv += ["--games", "2"]
    return ["--benchmark-disable" if a == "--benchmark-only" else a for a in argv]


COMMANDS = readme_commands(README)
RUN = [c for c in COMMANDS if skipped_reason(c) is None]


def test_the_readme_shows_commands_and_only_known_ones_are_left_out() -> None:
    assert len(RUN) >= 30
    left_out = [c for c in COMMANDS if skipped_reason(c)]
    assert sorted(left_out) == sorted(
        ['pip install -e .', 'pip install -e ".[test]"', "python -m pytest",
         "melee simulate --backend ray --address auto"]
    )  # fmt: skip


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("readme")
    for name in ("examples", "tests", "bench", "pyproject.toml"):
        (d / name).symlink_to(ROOT / name)
    src = (
        ROOT / "tests" / "scenarios" / "800-general" / "800.4a-mind-control-controller-leaves.yaml"
    )
    shutil.copy(src, d / "my-position.yaml")
    return d


@pytest.mark.readme
@pytest.mark.parametrize("cmd", RUN)
def test_readme_command_finishes(scratch: Path, cmd: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [x for a in runnable(cmd) for x in (sorted(glob(a, root_dir=scratch)) or [a])]
    r = subprocess.run(
        argv, cwd=scratch, env=env, capture_output=True, text=True, timeout=900,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert r.returncode == 0, f"{cmd}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
