"""`git_diff` shows no object of a repository outside the workspace, however the workspace's own `.git`
directory points at one: a `commondir` file, alternates, an objects directory that is a link.

Each repository here is a plain `.git` directory inside the workspace (no gitdir link, no
`GIT_DIR`), so only what that directory names can lead git elsewhere."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from advisor.consult import Investigation
from advisor.models import ToolCall
from tests.advisor.consult.test_git_sealed import git

OUTSIDE = "PRIVATE-PLAN-OUTSIDE-4e1d"


def private_repository(root: Path) -> Path:
    """A repository outside the workspace with one committed file only it holds."""
    root.mkdir(parents=True)
    (root / "plan.txt").write_text(OUTSIDE + "\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-qm", "private")
    return root


def diff(root: Path, **arguments: object) -> tuple[bool, str]:
    """What `git_diff` gives the advisor: whether it is an error, and its text."""
    outcome = Investigation(root).run(ToolCall(id="1", name="git_diff", arguments=arguments))
    return outcome.is_error, outcome.text


def test_a_commondir_file_naming_a_repository_outside_is_refused(tmp_path: Path) -> None:
    """A `.git/commondir` naming another repository makes its objects, refs and configuration git's: refused."""
    private = private_repository(tmp_path / "private")
    root = tmp_path / "ws"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / ".git" / "commondir").write_text(str(private / ".git") + "\n")
    for arguments in ({"patch": True, "staged": True}, {"patch": True}, {"staged": True}):
        failed, text = diff(root, **arguments)
        assert failed and OUTSIDE not in text and "plan.txt" not in text


def test_alternates_outside_the_workspace_are_refused(tmp_path: Path) -> None:
    """Objects borrowed from a repository outside (`objects/info/alternates`) never reach the advisor."""
    private = private_repository(tmp_path / "private")
    blob = git(private, "rev-parse", "HEAD:plan.txt").strip()
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q")
    (root / ".git" / "objects" / "info" / "alternates").write_text(str(private / ".git" / "objects") + "\n")
    git(root, "update-index", "--add", "--cacheinfo", f"100644,{blob},notes.txt")
    failed, text = diff(root, patch=True)
    assert failed and OUTSIDE not in text


def test_an_objects_directory_linked_outside_is_refused(tmp_path: Path) -> None:
    """`.git/objects` as a symlink to another repository's objects is refused."""
    private = private_repository(tmp_path / "private")
    commit = git(private, "rev-parse", "HEAD").strip()
    root = tmp_path / "ws"
    root.mkdir()
    git(root, "init", "-q")
    shutil.rmtree(root / ".git" / "objects")
    os.symlink(private / ".git" / "objects", root / ".git" / "objects")
    (root / ".git" / "HEAD").write_text(commit + "\n")
    failed, text = diff(root, patch=True, staged=True)
    assert failed and OUTSIDE not in text


def test_alternates_inside_the_workspace_still_diff(tmp_path: Path) -> None:
    """A repository borrowing objects from another repository inside the workspace diffs as before."""
    root = tmp_path / "ws"
    store = root / "vendor" / "store"
    store.mkdir(parents=True)
    git(store, "init", "-q")
    (root / "a.py").write_text("x = 1\n")
    git(root, "init", "-q")
    (root / ".git" / "objects" / "info" / "alternates").write_text("../../vendor/store/.git/objects\n")
    git(root, "add", "a.py")
    git(root, "commit", "-qm", "c")
    (root / "a.py").write_text("x = 2\n")
    failed, text = diff(root, patch=True)
    assert not failed and "+x = 2" in text
