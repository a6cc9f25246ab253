"""A check's statement is shell-quoted so that reading it back gives the check's argv, and the
work of an analysis grows linearly with the length of a list."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shellparse import analyze

# Any character a shell can receive (no NUL, no lone surrogate), newlines, tabs, quotes, `$`,
# backslashes and characters outside ASCII included.
ARGUMENT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\0"), max_size=12)
AWKWARD = st.text(st.sampled_from(["\n", "\t", "\r", " ", "'", '"', "$", "\\", "`", "é", "日", "😀", "-", "a"]),
                  max_size=8)
ARGUMENTS = st.lists(st.one_of(ARGUMENT, AWKWARD), max_size=5)


def _statement(arguments: list[str]) -> str:
    command = " ".join(["pytest", *map(shlex.quote, arguments)])
    validation = analyze(command, cache=False).validation
    assert validation is not None, command
    return validation.statement


def test_a_trailing_newline_is_quoted() -> None:
    """`pytest 'x\\n'` reports the statement `pytest 'x\\n'`, not the unquoted `pytest x\\n`."""
    assert _statement(["x\n"]) == "pytest 'x\n'"
    assert _statement(["a\tb", "é"]) == "pytest 'a\tb' 'é'"


@settings(max_examples=300)
@given(ARGUMENTS)
def test_statement_reads_back_as_the_argv_with_shlex(arguments: list[str]) -> None:
    """`shlex.split` of a check's statement gives back its argv, whatever characters it holds."""
    assert shlex.split(_statement(arguments)) == ["pytest", *arguments]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(ARGUMENTS)
def test_statement_reads_back_as_the_argv_in_bash(arguments: list[str]) -> None:
    """Real bash reads a check's statement as the same words (`set --` takes them as arguments,
    so nothing runs)."""
    script = f"set -- {_statement(arguments)}; printf '%s\\0' \"$@\""
    done = subprocess.run(["bash", "-c", script], capture_output=True, timeout=10, check=True,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8"})
    assert done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1] == ["pytest", *arguments]


@contextmanager
def _lines_run() -> Iterator[list[int]]:
    """Count the lines of Python run inside the block (loops included, not only calls)."""
    count = [0]

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            count[0] += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        yield count
    finally:
        sys.settrace(previous)


def _work(length: int, op: str) -> int:
    command = f" {op} ".join([*(f"echo step{number}" for number in range(length - 1)), "npm test"])
    with _lines_run() as count:
        analyze(command, cache=False)
    return count[0]


@pytest.mark.parametrize("op", ["&&", "||", ";", "\n", "|"])
def test_work_grows_linearly_with_a_list(op: str) -> None:
    """Twice the commands in one list cost about twice the lines of Python, not four times: no
    step walks the rest of the list again for every statement."""
    small, large = _work(300, op), _work(600, op)
    assert large / small < 2.2, (small, large)
