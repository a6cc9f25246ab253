"""``git_diff({path?, patch?, staged?})``: the workspace's net uncommitted change.

git runs with a fixed argument vector and no shell, read-only (no optional index writes),
with every way a repository's own configuration could make ``git diff`` run a program
switched off (external diff drivers, textconv filters, fsmonitor hooks), and with
credential-shaped files excluded by pathspec, so their diff is never shown either.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from advisor.consult._clip import clip_middle
from advisor.consult._workspace import ToolFailure, Workspace

GIT_SECONDS = 20


class GitDiffArgs(BaseModel):
    """``git_diff`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    path: str | None = None
    patch: bool = False
    staged: bool = False


def exclusions(deny: Sequence[str]) -> list[str]:
    """Pathspecs that keep denied files out of a diff."""
    specs = []
    for pattern in deny:
        if "/" in pattern:
            specs += [f":(exclude,glob,icase){pattern}", f":(exclude,glob,icase){pattern}/**"]
        else:
            specs += [f":(exclude,glob,icase)**/{pattern}", f":(exclude,glob,icase)**/{pattern}/**"]
    return specs


def git_diff_argv(workspace: Workspace, args: GitDiffArgs) -> list[str]:
    """The argument vector (``git`` first); a refused path raises before git could run."""
    target = workspace.relative(workspace.resolve(args.path)) if args.path and args.path.strip() else "."
    argv = ["git", "-c", "core.fsmonitor=false", "-c", "core.quotepath=off", "diff", "--no-color",
            "--no-ext-diff", "--no-textconv"]
    if args.staged:
        argv.append("--staged")
    if not args.patch:
        argv.append("--stat")
    return [*argv, "--", target, *exclusions(workspace.deny)]


def git_diff(workspace: Workspace, args: GitDiffArgs) -> str:
    """``git diff`` output, ``(no changes)`` when empty; git's complaint as the error when it fails."""
    argv = git_diff_argv(workspace, args)
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0",
           "LC_ALL": "C"}
    try:
        done = subprocess.run(argv, cwd=workspace.root, capture_output=True, timeout=GIT_SECONDS, env=env,
                              check=False, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise ToolFailure("git is not installed here") from None
    except subprocess.TimeoutExpired:
        raise ToolFailure(f"git diff took longer than {GIT_SECONDS}s") from None
    out = done.stdout.decode("utf-8", errors="replace")
    if done.returncode != 0 and not out.strip():
        problem = done.stderr.decode("utf-8", errors="replace").strip() or "no output"
        shown = " ".join(argv[argv.index("diff"):argv.index("--")])
        raise ToolFailure(f"git {shown} failed: {clip_middle(problem, 2000)}")
    return out if out.strip() else "(no changes)"
