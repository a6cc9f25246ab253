"""Globs and `.gitignore` lines built to make a regular expression backtrack: the search still ends at
its own time bound, and says so, instead of holding the consultation for hours.

Each call runs in a child process (killed if it does not finish), on a deep directory whose long
names give the backtracking room: the tree, the globs and the tools are real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.xfail(strict=True, reason="`.gitignore` lines are matched by pathspec's regular expressions "
                   "on Python's backtracking engine, and a walk checks its clock only between entries: "
                   "`*a*a*a*a*a*a*a*a*b` takes minutes for one long name. pathspec's RE2 backend (google-re2) "
                   "would bound it")
def test_a_gitignore_line_built_to_backtrack_ends_at_the_walk_bound(deep: Path) -> None:
    """A `.gitignore` the agent wrote (`*a*a*a*a*a*a*a*a*b`) cannot hold a `find` past the walk's time bound."""
    (deep / ".gitignore").write_text("*a" * 10 + "*b\n")
    assert outcome(deep, "find", {"pattern": "*"}, seconds=30) is not None
