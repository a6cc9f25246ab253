"""Globs and `.gitignore` lines built to make a regular expression backtrack: the search still ends at
its own time bound, and says so, instead of holding the consultation for hours.

Each call runs in a child process (killed if it does not finish), on a deep directory whose long
names give the backtracking room: the tree, the globs and the tools are real."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pathspec import GitIgnoreSpec

from advisor.consult import Investigation
from advisor.consult._ignore import Ignores, read_rules
from advisor.models import ToolCall

ROOT = Path(__file__).resolve().parents[3]
DEPTH = 30


@pytest.fixture
def deep(tmp_path: Path) -> Path:
    """A workspace holding one file thirty directories down, every name a run of `a`."""
    folder = tmp_path / "ws"
    for _ in range(DEPTH):
        folder /= "a" * 10
    folder.mkdir(parents=True)
    (folder / ("a" * 120)).write_text("needle\n")
    return tmp_path / "ws"


def outcome(root: Path, name: str, arguments: dict[str, object], seconds: float = 60) -> str | None:
    """The tool's text, with the search bounded at one second; ``None`` when it did not return in ``seconds``."""
    code = ("import json, sys\n"
            "from advisor.consult import _tool_search as search\n"
            "from advisor.consult._walk import WalkBounds\n"
            "from advisor.consult import Investigation\n"
            "from advisor.models import ToolCall\n"
            "search.SEARCH_SECONDS = 1.0\n"
            "search.WALK = WalkBounds(seconds=1.0)\n"
            f"call = ToolCall(id='1', name={name!r}, arguments=json.loads(sys.argv[1]))\n"
            f"out = Investigation({str(root)!r}).run(call)\n"
            "print(out.text)\n")
    try:
        done = subprocess.run([sys.executable, "-c", code, json.dumps(arguments)], cwd=ROOT, capture_output=True,
                              text=True, timeout=seconds, check=True)
    except subprocess.TimeoutExpired:
        return None
    return done.stdout


BOMB = "/".join(["a*/**"] * 12) + "/b"


@pytest.mark.parametrize(("name", "arguments"), [("find", {"pattern": BOMB}),
                                                 ("grep", {"pattern": "needle", "glob": BOMB})])
def test_a_glob_built_to_backtrack_ends_at_the_search_bound(deep: Path, name: str,
                                                            arguments: dict[str, object]) -> None:
    """`a*/**/a*/**/…/b` against a deep path once took hours for one path: now the glob's test is bounded by
    the search's time, and the call returns a result."""
    text = outcome(deep, name, arguments)
    assert text is not None and ("nothing matches" in text or "no matches" in text or "stopped after" in text)


def test_a_gitignore_line_built_to_backtrack_ends_at_the_walk_bound(deep: Path) -> None:
    """A `.gitignore` the agent wrote (`*a*a*a*a*a*a*a*a*b`, for minutes per long name on the standard library's
    engine) cannot hold a `find` past the walk's time bound."""
    (deep / ".gitignore").write_text("*a" * 10 + "*b\n")
    text = outcome(deep, "find", {"pattern": "*"})
    assert text is not None and "a" * 120 in text


@settings(max_examples=300)
@given(st.lists(st.text(alphabet="ab*?!/[]. \\", max_size=8), max_size=6),
       st.lists(st.sampled_from(["a", "b", "ab", "a.b", ".a", "ba"]), min_size=1, max_size=4).map("/".join),
       st.booleans())
def test_ignore_lines_decide_as_pathspec_does(lines: list[str], name: str, is_dir: bool) -> None:
    """The walk's own reading of `.gitignore` lines ignores exactly what pathspec's `GitIgnoreSpec` ignores."""
    path = name + ("/" if is_dir else "")
    assume(all(_readable(line) for line in lines))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = GitIgnoreSpec.from_lines(lines).match_file(path)
    assert Ignores.ignored(((read_rules(lines), 0),), name, is_dir) == expected


def _readable(line: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            GitIgnoreSpec.from_lines([line])
    except ValueError:
        return False
    return True


def test_a_gitignore_line_git_cannot_read_is_skipped_not_fatal(tmp_path: Path) -> None:
    """A lone `!` in a `.gitignore` made every `grep` and `find` fail: the line is skipped, as git skips it,
    and the others still apply."""
    (tmp_path / ".gitignore").write_text("!\nbuild/\n\\\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.txt").write_text("needle\n")
    (tmp_path / "app.py").write_text("needle\n")
    investigation = Investigation(tmp_path)
    for name, arguments in (("find", {"pattern": "*"}), ("grep", {"pattern": "needle"})):
        outcome = investigation.run(ToolCall(id="1", name=name, arguments=arguments))
        assert not outcome.is_error and "app.py" in outcome.text and "out.txt" not in outcome.text


def test_a_gitignore_line_with_a_bracket_in_a_set_is_read_without_a_warning() -> None:
    """A `[[]` line (a set holding `[`) is a rule, and reading it warns of nothing a user would see."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rules = read_rules(["[[]"])
    assert Ignores.ignored(((rules, 0),), "[", False)
