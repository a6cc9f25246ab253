"""`git_diff` runs no program a repository names, reads no repository outside the workspace, and shows
no change outside it.

Each program-running feature is proven both ways: the repository is set up so that a plain `git diff`
(what a user types, or what an earlier witness ran) runs a marker program, and then `git_diff` is
called on the same repository and the marker never runs."""

from __future__ import annotations

import os
import pty
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from advisor.consult import Investigation
from advisor.models import ToolCall

MARK = "witness-marker"


def git(root: Path, *argv: str, env: dict[str, str] | None = None) -> str:
    """Run git in ``root`` (a plain run, with the repository's own configuration)."""
    done = subprocess.run(["git", *argv], cwd=root, capture_output=True, text=True, check=False,
                          env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", **(env or {})})
    return done.stdout + done.stderr


def repository(root: Path, *, more: dict[str, str] | None = None) -> Path:
    """A repository with committed files: `app.py` changed since, `same.py` only touched (so that a plain
    `git diff` refreshes the index and writes it), and ``more`` changed since too."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("app.py", "same.py", *(more or {})):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-qm", "c")
    for name, text in {"app.py": "x = 2\n", **(more or {})}.items():
        (root / name).write_text(text)
    _reset(root)
    return root


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A program that records that it ran (and passes its input through, as a filter or a pager would)."""
    program, ran = tmp_path / "mark.sh", tmp_path / "ran"
    program.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {ran}\ncat\n")
    program.chmod(0o755)
    yield program, ran


@pytest.fixture
def failing_marker(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A program that records that it ran and fails at once (an ssh that cannot connect)."""
    program, ran = tmp_path / "ssh.sh", tmp_path / "ran"
    program.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {ran}\nexit 255\n")
    program.chmod(0o755)
    yield program, ran


def diff_tool(root: Path, **arguments: object) -> str:
    """What `git_diff` gives the advisor."""
    return Investigation(root).run(ToolCall(id="1", name="git_diff", arguments=arguments)).text


def _attributes(root: Path, line: str) -> None:
    (root / ".git" / "info").mkdir(exist_ok=True)
    (root / ".git" / "info" / "attributes").write_text(line + "\n")


def _filter_clean(root: Path, program: Path) -> None:
    git(root, "config", "filter.evil.clean", str(program))
    _attributes(root, "* filter=evil")


def _filter_process(root: Path, program: Path) -> None:
    git(root, "config", "filter.evil.process", str(program))
    _attributes(root, "* filter=evil")


def _textconv(root: Path, program: Path) -> None:
    git(root, "config", "diff.evil.textconv", str(program))
    _attributes(root, "* diff=evil")


def _diff_driver(root: Path, program: Path) -> None:
    git(root, "config", "diff.evil.command", str(program))
    _attributes(root, "* diff=evil")


def _external_diff(root: Path, program: Path) -> None:
    git(root, "config", "diff.external", str(program))


def _fsmonitor(root: Path, program: Path) -> None:
    git(root, "config", "core.fsmonitor", str(program))


def _index_hook(root: Path, program: Path) -> None:
    hooks = root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "post-index-change").symlink_to(program)


def _included(root: Path, program: Path) -> None:
    included = root.parent / "included.cfg"
    included.write_text(f'[filter "evil"]\n\tclean = {program}\n')
    git(root, "config", "include.path", str(included))
    _attributes(root, "* filter=evil")


FEATURES = {"filter clean": _filter_clean, "filter process": _filter_process, "diff textconv": _textconv,
            "diff driver command": _diff_driver, "diff.external": _external_diff, "core.fsmonitor": _fsmonitor,
            "post-index-change hook": _index_hook, "a filter in an included file": _included}


@pytest.mark.parametrize("feature", FEATURES)
def test_no_repository_setting_runs_a_program(tmp_path: Path, marker: tuple[Path, Path], feature: str) -> None:
    """A plain `git diff` runs the repository's program; `git_diff`, on the same repository, never does."""
    program, ran = marker
    root = repository(tmp_path / "ws")
    FEATURES[feature](root, program)
    git(root, "diff", "-p")
    assert ran.exists(), "the setting must run the program in a plain git diff"
    ran.unlink()
    _reset(root)
    shown = diff_tool(root, patch=True)
    assert not ran.exists() and "x = 2" in shown


def _reset(root: Path) -> None:
    """The files stat-dirty (again): git must read them, and a refresh would write the index."""
    for name in ("app.py", "same.py"):
        os.utime(root / name, (1_000_000_000, 1_000_000_000))


def test_the_external_diff_of_the_environment_is_dropped(tmp_path: Path, marker: tuple[Path, Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """`GIT_EXTERNAL_DIFF` in witness's environment runs in a plain `git diff`, never in `git_diff`."""
    program, ran = marker
    root = repository(tmp_path / "ws")
    git(root, "diff", env={"GIT_EXTERNAL_DIFF": str(program)})
    assert ran.exists()
    ran.unlink()
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(program))
    assert "x = 2" in diff_tool(root, patch=True) and not ran.exists()


def test_no_pager_runs_even_for_a_terminal(tmp_path: Path, marker: tuple[Path, Path]) -> None:
    """The repository's pager runs when a plain `git diff` writes to a terminal; `git_diff` writes to a pipe,
    with `--no-pager`, whatever witness's own output is."""
    program, ran = marker
    root = repository(tmp_path / "ws")
    git(root, "config", "core.pager", str(program))
    leader, follower = pty.openpty()
    subprocess.run(["git", "diff"], cwd=root, stdin=follower, stdout=follower, stderr=follower, check=False,
                   timeout=60)
    os.close(follower)
    os.close(leader)
    assert ran.exists()
    ran.unlink()
    assert "x = 2" in diff_tool(root, patch=True) and not ran.exists()


def test_a_partial_clone_never_fetches(tmp_path: Path, failing_marker: tuple[Path, Path]) -> None:
    """A partial clone's missing object makes a plain `git diff` fetch it through `core.sshCommand`; `git_diff`
    answers with git's error and runs nothing."""
    program, ran = failing_marker
    source = repository(tmp_path / "source")
    git(source, "commit", "-qam", "two")
    git(source, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "ws"
    git(tmp_path, "clone", "-q", "--no-checkout", "--filter=blob:none", f"file://{source}", str(clone))
    git(clone, "read-tree", "HEAD")
    git(clone, "config", "remote.origin.url", "ssh://example.invalid/repo")
    git(clone, "config", "core.sshCommand", str(program))
    git(clone, "diff", "-p")
    assert ran.exists()
    ran.unlink()
    outcome = Investigation(clone).run(ToolCall(id="1", name="git_diff", arguments={"patch": True}))
    assert not ran.exists() and outcome.is_error and "failed" in outcome.text


def test_pathspec_magic_in_a_path_is_a_name(tmp_path: Path) -> None:
    """`:(top)` and `:(glob)` in a path would reach the whole repository from a subdirectory workspace; literal
    pathspecs keep them names of files that do not exist."""
    top = repository(tmp_path / "repo", more={"sub/mine.py": "y = 2\n"})
    assert "app.py" in git(top / "sub", "diff", "--stat", "--", ":(top)")
    workspace = top / "sub"
    for path in (":(top)", ":(top,glob)**", ":(glob)../*"):
        assert "app.py" not in diff_tool(workspace, path=path)
    assert "mine.py" in diff_tool(workspace) and "app.py" not in diff_tool(workspace)


def test_a_subdirectory_workspace_shows_only_its_own_changes(tmp_path: Path) -> None:
    """In a workspace that is a repository's subdirectory, the diff holds its changes only, named from it."""
    top = repository(tmp_path / "repo", more={"sub/mine.py": "y = 2\n"})
    shown = diff_tool(top / "sub", patch=True)
    assert "a/mine.py" in shown and "y = 2" in shown and "x = 2" not in shown and "app.py" not in shown


def test_a_gitdir_link_outside_the_workspace_is_refused(tmp_path: Path) -> None:
    """A `.git` file pointing at another repository's git directory would show that repository's index and
    objects: refused."""
    other = repository(tmp_path / "other")
    git(other, "add", ".")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "app.py").write_text("x = 3\n")
    (workspace / ".git").write_text(f"gitdir: {other / '.git'}\n")
    outcome = Investigation(workspace).run(ToolCall(id="1", name="git_diff", arguments={"staged": True}))
    assert outcome.is_error and "reached through a link outside the workspace" in outcome.text


def test_a_work_tree_configured_elsewhere_is_refused(tmp_path: Path) -> None:
    """`core.worktree` pointing elsewhere would compare the index with files outside the workspace: refused."""
    root = repository(tmp_path / "ws")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "app.py").write_text("outside = True\n")
    git(root, "config", "core.worktree", str(elsewhere))
    outcome = Investigation(root).run(ToolCall(id="1", name="git_diff", arguments={"patch": True}))
    assert outcome.is_error and "outside = True" not in outcome.text


@pytest.mark.parametrize("variable", ["GIT_DIR", "GIT_WORK_TREE"])
def test_git_variables_pointing_outside_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    variable: str) -> None:
    """`GIT_DIR`/`GIT_WORK_TREE` in witness's environment pointing outside the workspace refuse the call."""
    root = repository(tmp_path / "ws")
    other = repository(tmp_path / "other")
    monkeypatch.setenv(variable, str(other / ".git" if variable == "GIT_DIR" else other))
    outcome = Investigation(root).run(ToolCall(id="1", name="git_diff", arguments={}))
    assert outcome.is_error and f"{variable} in witness's environment points outside" in outcome.text


def test_credential_files_and_outside_hard_links_are_left_out_of_the_diff(tmp_path: Path) -> None:
    """A changed `.env`, `.aws/credentials` and a tracked file hard-linked to a file outside are not in the
    diff; the result says how many were withheld."""
    root = repository(tmp_path / "ws", more={".env": "SECRET v2\n", ".aws/credentials": "SECRET v2\n"})
    outside = tmp_path / "outside.txt"
    outside.write_text("outside v1\n")
    os.link(outside, root / "linked.txt")
    git(root, "add", "linked.txt")
    git(root, "commit", "-qm", "linked")
    outside.write_text("outside v2\n")
    shown = diff_tool(root, patch=True)
    assert "x = 2" in shown and "SECRET" not in shown and "outside v2" not in shown
    assert "[3 changed file(s) withheld by policy]" in shown
