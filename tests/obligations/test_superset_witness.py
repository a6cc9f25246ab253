"""A superset pass witnesses a subset failure; a subset or disjoint pass never does.

Hypothesis draws a failing test run and a later passing one of the same runner (go test, pytest,
cargo test) from a small vocabulary of targets, filters and cosmetic options, and feeds both to a
tracker. Whether the pass must close the failure is decided here, from the vocabulary's own tables
of which target contains which (written by hand, not asked of shellparse): it closes it exactly
when its targets contain the failed run's and its filter is none or the same one (for cargo, a
name filter contained in the failed one's).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obligations import ToolCompleted, ToolDispatched, Tracker, UserMessage


class Runner(NamedTuple):
    program: str
    targets: tuple[str, ...]
    """Targets; the empty string is a run that names none."""
    contains: dict[str, frozenset[str]]
    """For each target, the targets it contains (itself included)."""
    filters: tuple[str, ...]
    """Filters as words; the empty string is none."""
    cosmetic: tuple[str, ...]
    failed: str


GO = Runner(
    "go test", ("", "./...", "./pkg/...", "./pkg/a", "./pkg/b", "./cmd"),
    {"": frozenset({""}), "./...": frozenset({"", "./...", "./pkg/...", "./pkg/a", "./pkg/b", "./cmd"}),
     "./pkg/...": frozenset({"./pkg/...", "./pkg/a", "./pkg/b"}), "./pkg/a": frozenset({"./pkg/a"}),
     "./pkg/b": frozenset({"./pkg/b"}), "./cmd": frozenset({"./cmd"})},
    ("", "-run TestA", "-run TestB"), ("-v", "-count=1", "-json", "-timeout 60s"), "--- FAIL: TestA (0.00s)")
PYTEST = Runner(
    "pytest", ("", "tests", "tests/unit", "tests/unit/test_a.py", "tests/unit/test_a.py::test_x",
               "tests/unit/test_b.py"),
    {"": frozenset({"", "tests", "tests/unit", "tests/unit/test_a.py", "tests/unit/test_a.py::test_x",
                    "tests/unit/test_b.py"}),
     "tests": frozenset({"tests", "tests/unit", "tests/unit/test_a.py", "tests/unit/test_a.py::test_x",
                         "tests/unit/test_b.py"}),
     "tests/unit": frozenset({"tests/unit", "tests/unit/test_a.py", "tests/unit/test_a.py::test_x",
                              "tests/unit/test_b.py"}),
     "tests/unit/test_a.py": frozenset({"tests/unit/test_a.py", "tests/unit/test_a.py::test_x"}),
     "tests/unit/test_a.py::test_x": frozenset({"tests/unit/test_a.py::test_x"}),
     "tests/unit/test_b.py": frozenset({"tests/unit/test_b.py"})},
    ("", "-k fast", "-k slow"), ("-q", "-v", "--tb=short", "-x", "-rA", "--no-header"), "1 failed, 2 passed in 0.1s")
CARGO = Runner(
    "cargo test", ("", "-p core", "--workspace"),
    {"": frozenset({""}), "-p core": frozenset({"-p core"}), "--workspace": frozenset({"", "-p core", "--workspace"})},
    ("", "parser", "parser::lex", "lexer"), ("-q", "--color always"),
    "test result: FAILED. 3 passed; 1 failed; 0 ignored")
RUNNERS = (GO, PYTEST, CARGO)


class Run(NamedTuple):
    runner: Runner
    target: str
    filter: str
    cosmetic: tuple[str, ...]

    @property
    def command(self) -> str:
        words = [self.runner.program, *self.cosmetic[:1], self.target, self.filter, *self.cosmetic[1:]]
        if self.runner is CARGO and self.cosmetic:
            words.append("-- --nocapture")
        return " ".join(word for word in words if word)


@st.composite
def runs(draw: st.DrawFn, runner: Runner) -> Run:
    cosmetic = tuple(draw(st.lists(st.sampled_from(runner.cosmetic), max_size=2, unique=True)))
    return Run(runner, draw(st.sampled_from(runner.targets)), draw(st.sampled_from(runner.filters)), cosmetic)


def covers(passing: Run, failing: Run) -> bool:
    """The vocabulary's own rule (see the module docstring)."""
    if failing.target not in passing.runner.contains[passing.target]:
        return False
    if not passing.filter or passing.filter == failing.filter:
        return True
    return passing.runner is CARGO and bool(failing.filter) and passing.filter in failing.filter


def replay(failing: Run, passing: Run) -> str:
    tracker = Tracker()
    tracker.handle(UserMessage(text="fix it"))
    for call, run, exit_code, output in (("f", failing, 1, failing.runner.failed), ("p", passing, 0, "ok")):
        tracker.handle(ToolDispatched(call_id=call, tool="Bash", arguments={"command": run.command}, cwd="/repo"))
        tracker.handle(ToolCompleted(call_id=call, exit_code=exit_code, is_error=exit_code != 0, output=output))
    (item,) = tracker.all_items()
    return item.state


@settings(max_examples=300, deadline=None)
@given(data=st.data(), runner=st.sampled_from(RUNNERS))
def test_a_pass_closes_a_failure_exactly_when_its_selection_covers_it(data: st.DataObject, runner: Runner) -> None:
    """Superset passes witness; subset, disjoint and other-filter passes never do."""
    failing, passing = data.draw(runs(runner)), data.draw(runs(runner))
    expected = "resolved" if covers(passing, failing) else "open"
    assert replay(failing, passing) == expected, (failing.command, passing.command)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), runner=st.sampled_from(RUNNERS))
def test_never_the_other_way_round(data: st.DataObject, runner: Runner) -> None:
    """When a pass of the wider run witnesses the narrower failure, a pass of the narrower never witnesses
    the wider failure (unless the two select the same tests)."""
    wide, narrow = data.draw(runs(runner)), data.draw(runs(runner))
    if covers(wide, narrow) and not covers(narrow, wide):
        assert replay(narrow, wide) == "resolved", (narrow.command, wide.command)
        assert replay(wide, narrow) == "open", (wide.command, narrow.command)


def test_the_report_says_which_pass_closed_which_failure() -> None:
    """The resolution names the wider run and says it covered the failed one."""
    tracker = Tracker()
    tracker.handle(UserMessage(text="fix it"))
    tracker.handle(ToolDispatched(call_id="f", tool="Bash", arguments={"command": "pytest tests/a.py::t -x"}))
    tracker.handle(ToolCompleted(call_id="f", exit_code=1, is_error=True, output="1 failed in 0.1s"))
    tracker.handle(ToolDispatched(call_id="p", tool="Bash", arguments={"command": "pytest -q"}))
    tracker.handle(ToolCompleted(call_id="p", exit_code=0, output="9 passed in 0.3s"))
    (item,) = tracker.all_items()
    assert item.resolution is not None
    assert (item.check, item.resolution.check, item.resolution.covering) == ("pytest tests/a.py::t -x", "pytest -q",
                                                                           True)


@pytest.mark.parametrize(("failing", "passing"), [
    ("pytest -m live tests/test_api.py", "pytest"),
    ('export API_TOKEN="$(cat .token)" && pytest -m live', "pytest -m live"),
    ('API_TOKEN="$(cat .token)" pytest -m live', 'export API_TOKEN="$(cat .other)"; pytest -m live'),
])
def test_a_marker_expression_or_a_run_time_export_is_another_check(failing: str, passing: str) -> None:
    """A plain `pytest` never witnesses `pytest -m live` (another suite), nor a run without the exported token
    (or with another) one that had it, however it was exported."""
    tracker = Tracker()
    tracker.handle(UserMessage(text="fix it"))
    tracker.handle(ToolDispatched(call_id="f", tool="Bash", arguments={"command": failing}))
    tracker.handle(ToolCompleted(call_id="f", exit_code=1, is_error=True, output="1 failed, 2 passed in 0.1s"))
    tracker.handle(ToolDispatched(call_id="p", tool="Bash", arguments={"command": passing}))
    tracker.handle(ToolCompleted(call_id="p", exit_code=0, output="9 passed in 0.3s"))
    assert [item.state for item in tracker.all_items()] == ["open"]
