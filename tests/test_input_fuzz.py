"""Property-based fuzzing (Hypothesis) of what users type or hand in: scenario files,
decklists and ``melee simulate`` flags. Each input is either accepted or refused with
the project's own error naming the file or flag; nothing else may escape (no
traceback, no other exception), and nothing is allocated from a count before it is
checked. Examples are bounded so the module stays fast."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecs.cards import load_pool as load_cards
from ecs.cli import build_parser
from ecs.decks import MAX_CARDS, DeckError, parse_decklist
from ecs.scenario import Scenario, ScenarioError, load_scenario
from ecs.simulate import UsageError, check_args

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
DB = load_cards()
POOL = sorted(DB.cards)
GOOD = (
    Path(__file__).parent
    / "scenarios"
    / "800-general"
    / "800.4a-mind-control-controller-leaves.yaml"
)

# --- scenario files -------------------------------------------------------------------

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=12), st.sampled_from(POOL[:20] + ["Alex", "Bianca", "hand", "count"]),
)  # fmt: skip
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["card", "count", "name", "life", "x", "id"]), inner,
                        max_size=4),
    ),
    max_leaves=12,
)  # fmt: skip


def _refused_or_loaded(path: Path) -> None:
    try:
        sc = load_scenario(path, DB)
    except ScenarioError as e:
        assert str(e).startswith(str(path)) and "\n" not in str(e), str(e)
        return
    assert isinstance(sc, Scenario)


@SETTINGS
@given(data=st.binary(max_size=400))
def test_scenario_loader_on_arbitrary_bytes(tmp_path: Path, data: bytes) -> None:
    f = tmp_path / "fuzz.yaml"
    f.write_bytes(data)
    _refused_or_loaded(f)


@SETTINGS
@given(
    path=st.lists(st.sampled_from(["players", 0, 1, "hand", "battlefield", "game", "start",
                                   "actions", "count", "life", "seed"]), min_size=1, max_size=4),
    value=values,
)  # fmt: skip
def test_scenario_loader_on_a_real_file_with_one_value_changed(
    tmp_path: Path, path: list, value: object
) -> None:
    data = yaml.safe_load(GOOD.read_text())
    node = data
    for key in path[:-1]:  # walk as far as the path exists, then put the value there
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            break
    last = path[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = value
    f = tmp_path / "changed.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True))
    _refused_or_loaded(f)


# --- decklists ------------------------------------------------------------------------

lines = st.one_of(
    st.builds(lambda c, n: f"{c} {n}", st.integers(-(2**40), 2**40), st.sampled_from(POOL)),
    st.builds(lambda c, n: f"{c}x {n.upper()} (M10) 12", st.integers(0, 2000), st.sampled_from(POOL)),
    st.sampled_from(["", "Deck", "Sideboard:", "Commander", "Companion", "About", "Name x",
                     "// lands", "# note"]),
    st.text(alphabet=string.printable, max_size=30),
)  # fmt: skip


@SETTINGS
@given(st.lists(lines, max_size=12))
def test_decklist_parser_accepts_or_names_the_line(text_lines: list[str]) -> None:
    text = "\n".join(text_lines)
    try:
        deck = parse_decklist(text, "fuzz.txt", DB)
    except DeckError as e:
        assert str(e).startswith("fuzz.txt") and "\n" not in str(e), str(e)
        return
    assert deck.main and len(deck.main) <= MAX_CARDS
    assert all(c in DB for part in (deck.main, deck.sideboard, deck.commander) for c in part)


# --- simulate flags -------------------------------------------------------------------

numbers = st.one_of(
    st.integers(-(2**70), 2**70).map(str), st.sampled_from(["0", "-1", "1e9", "", "x", "4.5"])
)
flag_values = {
    "--players": numbers, "--games": numbers, "--seed": numbers, "--workers": numbers,
    "--max-turns": numbers, "--range": numbers, "--teams": numbers,
    "--variant": st.sampled_from(["two-player", "free-for-all", "grand-melee", "emperor",
                                  "two-headed-giant", "team-vs-team", "alternating-teams",
                                  "planechase", ""]),
    "--attack": st.sampled_from(["multiple", "left", "right", "up"]),
    "--agents": st.sampled_from(["random", "heuristic,random", "genius", "", "random,"]),
    "--decks": st.sampled_from(["burn", "burn,big-green", "Burn", "nope", ",", "/"]),
    "--db": st.sampled_from(["r.duckdb", "no/such/dir/r.duckdb", "/", ""]),
}  # fmt: skip


@SETTINGS
@given(st.dictionaries(st.sampled_from(sorted(flag_values)), st.just(None), max_size=5).flatmap(
    lambda keys: st.fixed_dictionaries({k: flag_values[k] for k in keys})
))  # fmt: skip
def test_simulate_flags_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: dict[str, str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["simulate"] + [x for k, v in flags.items() for x in (k, v)]
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        assert e.code == 2
        return
    try:
        cfg = check_args(args)
    except UsageError as e:
        assert str(e).startswith("--") and "\n" not in str(e), str(e)
        return
    assert 1 <= cfg["games"] < 2**31 and 2 <= cfg["players"] <= 1000 and cfg["seed"] >= 0
    assert list(tmp_path.iterdir()) == []  # checking creates nothing
