"""A directory swapped for a symlink to somewhere else while a tool is at work (the agent, or any program
of the user's, runs beside a background review): what the tool shows is still the workspace's.

A tool checks a path, then opens it: in between, a directory on the way can become a link out. Each
test makes the swap land in that gap, at a fixed point of the call (the only stand-in here is the
moment: the files, the links and the tools are real)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from advisor.consult import Investigation, ToolOutcome
from advisor.consult._ignore import Ignores
from advisor.consult._workspace import Workspace
from advisor.models import ToolCall

OUTSIDE = "OUTSIDE-PLAN-0d5e"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace with `a.txt` and `sub/notes.txt`, beside a directory outside holding a file of its own."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text(f"needle {OUTSIDE}\n")
    (outside / "private-name.txt").write_text("x\n")
    workspace = tmp_path / "ws"
    (workspace / "sub").mkdir(parents=True)
    (workspace / "a.txt").write_text("needle here\n")
    (workspace / "sub" / "notes.txt").write_text("needle inside\n")
    return workspace


def swap(root: Path) -> None:
    """`sub` becomes a symlink to the directory outside (once)."""
    sub = root / "sub"
    if sub.is_dir() and not sub.is_symlink():
        shutil.rmtree(sub)
        os.symlink(root.parent / "outside", sub)


def run(root: Path, name: str, **arguments: Any) -> ToolOutcome:
    return Investigation(root).run(ToolCall(id="1", name=name, arguments=arguments))


def after(monkeypatch: pytest.MonkeyPatch, owner: type, method: str, root: Path,
          when: Callable[[tuple[Any, ...]], bool] = lambda _: True) -> None:
    """Swap `sub` right after ``owner.method`` returns (when ``when`` holds for its arguments)."""
    original = getattr(owner, method)

    def swapped(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        if when(args):
            swap(root)
        return found

    monkeypatch.setattr(owner, method, swapped)


def test_read_never_shows_a_file_a_swapped_directory_leads_to(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`read` of `sub/notes.txt`: `sub` becomes a link out after the path was checked, before it is opened."""
    after(monkeypatch, Workspace, "resolve", root)
    outcome = run(root, "read", path="sub/notes.txt")
    assert outcome.is_error and OUTSIDE not in outcome.text


def test_grep_never_reads_through_a_directory_swapped_mid_walk(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`grep` reads `a.txt`, then `sub` becomes a link out before the walk goes into it."""
    after(monkeypatch, Workspace, "read", root, when=lambda args: str(args[1]).endswith("a.txt"))
    outcome = run(root, "grep", pattern="needle")
    assert "a.txt:1: needle here" in outcome.text and OUTSIDE not in outcome.text


def test_find_never_lists_a_directory_swapped_mid_walk(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`find` lists the root, then `sub` becomes a link out before the walk lists it."""
    after(monkeypatch, Ignores, "chain", root, when=lambda args: args[1] == "sub")
    outcome = run(root, "find", pattern="*.txt")
    assert "a.txt" in outcome.text and "private-name.txt" not in outcome.text


def test_ls_never_lists_a_directory_swapped_after_its_check(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ls sub`: `sub` becomes a link out after the path was checked, before it is listed."""
    after(monkeypatch, Workspace, "resolve", root)
    outcome = run(root, "ls", path="sub")
    assert "private-name.txt" not in outcome.text
