"""``git_diff({path?, patch?, staged?})``: the workspace's net uncommitted change.

git runs with a fixed argument vector and no shell, in a clean environment, with nothing of the
repository able to make it run a program, read outside the workspace, or write:

==================================  ==============================================================
what a repository could set         how it is kept off
==================================  ==============================================================
``filter.<d>.clean``/``process``    every filter the repository's configuration names is emptied
(run on a changed file)             (``-c filter.<d>.clean=`` …), as ``-c`` overrides outrank it
``diff.<d>.textconv``/``command``,  ``--no-textconv``, ``--no-ext-diff``, and the drivers emptied
``diff.external``                   too
``core.fsmonitor``                  ``core.fsmonitor=false``
hooks (``post-index-change``)       ``core.hooksPath`` to an empty place, ``GIT_OPTIONAL_LOCKS=0``
                                    (the index is never written)
pagers (``core.pager``,             ``--no-pager``, output to a pipe
``pager.diff``)
``core.sshCommand``, remote         ``protocol.allow=never`` and ``GIT_NO_LAZY_FETCH``: a partial
helpers (a lazy fetch)              clone's missing object is an error, never a fetch
submodules' own configuration      ``--ignore-submodules=all``
the user's and the system's         ``GIT_CONFIG_GLOBAL`` empty, ``GIT_CONFIG_NOSYSTEM``
configuration
``GIT_*`` in witness's environment  dropped (``GIT_DIR``/``GIT_WORK_TREE`` outside the workspace
                                    refuse the call)
pathspec magic in a path given      ``GIT_LITERAL_PATHSPECS``: ``:(top)``, ``:(glob)../…`` are names
==================================  ==============================================================

The repository must be the workspace's own or one the workspace is a subdirectory of, reached the
plain way: a ``.git`` *file* (a worktree's or a submodule's gitdir link) or a work tree configured
elsewhere is refused, since its index and objects are outside the workspace; so is a git directory whose
objects are read from elsewhere (a ``commondir`` file, an ``objects`` link, alternates outside the workspace),
since a diff of its index or its ``HEAD`` would show another repository's files. ``--relative`` keeps
a subdirectory's diff to the subdirectory. The changed files are listed first and credential-shaped
ones, and ones ``read`` would not read (hard links to files elsewhere), are left out of the diff by
name.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from advisor.consult._files import read_small
from advisor.consult._workspace import Workspace
from advisor.errors import ToolFailure
from advisor.prompt import clip_middle
from obligations import redact

GIT_SECONDS = 20
MAX_FILES = 2000
"""Changed files shown at most (past them, the call says so and asks for a path)."""
_FIXED = (("core.fsmonitor", "false"), ("core.hooksPath", os.devnull), ("core.pager", ""), ("diff.external", ""),
          ("core.sshCommand", ""), ("core.askPass", ""), ("credential.helper", ""), ("protocol.allow", "never"),
          ("diff.submodule", "short"), ("core.quotePath", "false"), ("core.untrackedCache", "false"),
          ("color.ui", "never"))
"""Configuration every call sets, over the repository's."""
_PROGRAMS = {"filter": ("clean", "smudge", "process"), "diff": ("textconv", "command")}
"""The per-driver settings that name a program, emptied for every driver the repository configures."""
_REFUSED_ENVIRONMENT = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                        "GIT_ALTERNATE_OBJECT_DIRECTORIES")
"""Variables that move the repository: the call is refused when one points outside the workspace."""
_ALTERNATE_DEPTH = 5
"""How deep git follows alternates of alternates (its own limit)."""


class GitDiffArgs(BaseModel):
    """``git_diff`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    path: str | None = None
    patch: bool = False
    staged: bool = False


def _environment(workspace: Workspace, overrides: Sequence[tuple[str, str]]) -> dict[str, str]:
    """witness's environment without ``GIT_*``, the configuration cut off and ``overrides`` set."""
    for name in _REFUSED_ENVIRONMENT:
        value = os.environ.get(name)
        if value and not Path(os.path.realpath(value)).is_relative_to(workspace.root):
            raise ToolFailure(f"git_diff is refused: {name} in witness's environment points outside the workspace "
                              f"({value})")
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ATTR_NOSYSTEM": "1",
                "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_LITERAL_PATHSPECS": "1",
                "GIT_NO_LAZY_FETCH": "1", "GIT_NO_REPLACE_OBJECTS": "1", "LC_ALL": "C",
                "GIT_CONFIG_COUNT": str(len(overrides))})
    for number, (key, value) in enumerate(overrides):
        env[f"GIT_CONFIG_KEY_{number}"], env[f"GIT_CONFIG_VALUE_{number}"] = key, value
    return env


def _run(workspace: Workspace, argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "--no-pager", *argv], cwd=workspace.root, capture_output=True,
                              timeout=GIT_SECONDS, env=env, check=False, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise ToolFailure("git is not installed here") from None
    except subprocess.TimeoutExpired:
        raise ToolFailure(f"git took longer than {GIT_SECONDS}s") from None


def _output(workspace: Workspace, argv: list[str], env: dict[str, str]) -> str:
    done = _run(workspace, argv, env)
    if done.returncode != 0:
        problem = done.stderr.decode("utf-8", errors="replace").strip() or "no output"
        raise ToolFailure(f"git {' '.join(argv[:2])} failed: {clip_middle(redact(problem), 2000)}")
    return done.stdout.decode("utf-8", errors="replace")


def _overrides(workspace: Workspace) -> list[tuple[str, str]]:
    """The fixed settings, and every program-naming setting of the drivers the repository configures emptied."""
    listed = _output(workspace, ["config", "--list", "-z", "--name-only"], _environment(workspace, _FIXED))
    drivers: set[tuple[str, str]] = set()
    for key in listed.split("\0"):
        section, _, rest = key.partition(".")
        driver, _, _ = rest.rpartition(".")
        if section.lower() in _PROGRAMS and driver:
            drivers.add((section.lower(), driver))
    emptied = [(f"{section}.{driver}.{name}", "") for section, driver in sorted(drivers) for name in _PROGRAMS[section]]
    required = [(f"filter.{driver}.required", "false") for section, driver in sorted(drivers) if section == "filter"]
    return [*_FIXED, *emptied, *required]


def _check_repository(workspace: Workspace, env: dict[str, str]) -> None:
    """Refuse a repository reached through a gitdir link, whose work tree does not hold the workspace, or
    whose objects are elsewhere (a ``commondir`` file, an objects directory that is a link, alternates)."""
    found = _output(workspace, ["rev-parse", "--path-format=absolute", "--absolute-git-dir", "--show-toplevel",
                                "--git-common-dir", "--git-path", "objects"], env).splitlines()
    if len(found) < 4:
        raise ToolFailure("git_diff: the workspace is not in a git work tree")
    git_dir, top, common, objects = (Path(os.path.realpath(line)) for line in found[:4])
    if not workspace.root.is_relative_to(top):
        raise ToolFailure(f"git_diff is refused: the repository's work tree ({top}) does not hold the workspace")
    plain = top / ".git"
    own = plain.is_dir() and not plain.is_symlink() and git_dir == plain
    if not (git_dir.is_relative_to(workspace.root) or own):
        raise ToolFailure(f"git_diff is refused: the repository's git directory ({git_dir}) is reached through a "
                          "link outside the workspace (a worktree's or a submodule's .git file)")
    homes = (workspace.root, git_dir)
    for place in (common, objects, *_alternates(objects)):
        if not any(place.is_relative_to(home) for home in homes):
            raise ToolFailure(f"git_diff is refused: the repository's objects are read from {place}, outside the "
                              "workspace (a commondir file, a linked objects directory or alternates)")


def _alternates(objects: Path, depth: int = 0) -> list[Path]:
    """The object directories ``objects`` borrows from (``info/alternates``, followed as git follows them)."""
    data = read_small(objects / "info" / "alternates", 1_000_000) if depth < _ALTERNATE_DEPTH else None
    found: list[Path] = []
    for line in (data or b"").decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            place = Path(os.path.realpath(objects / line.strip('"')))
            found += [place, *_alternates(place, depth + 1)]
    return found


def _shown(workspace: Workspace, name: str) -> bool:
    """Whether a changed file may be in the diff: not credential-shaped, and in the work tree a regular
    file whose every name is in the workspace and allowed (``read``'s rule), or a link (its diff is the
    name it points to), or gone (its diff is the repository's own copy)."""
    if workspace.denied(name):
        return False
    try:
        info = (workspace.root / name).lstat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if stat.S_ISLNK(info.st_mode):
        return True
    return stat.S_ISREG(info.st_mode) and workspace.every_name_allowed(info)


def git_diff_argv(workspace: Workspace, args: GitDiffArgs, names: Sequence[str] = ()) -> list[str]:
    """The ``git diff`` argument vector for ``names`` (the changed files shown); a refused path raises."""
    argv = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "--no-renames",
            "--ignore-submodules=all"]
    if args.staged:
        argv.append("--staged")
    if not args.patch:
        argv.append("--stat")
    return [*argv, "--", *names]


def git_diff(workspace: Workspace, args: GitDiffArgs) -> str:
    """``git diff`` output, ``(no changes)`` when empty; git's complaint as the error when it fails."""
    target = workspace.relative(workspace.resolve(args.path)) if args.path and args.path.strip() else "."
    env = _environment(workspace, _overrides(workspace))
    _check_repository(workspace, env)
    listing = ["diff", "--name-only", "-z", "--relative", "--no-renames", "--ignore-submodules=all",
               *(["--staged"] if args.staged else []), "--", target]
    changed = [name for name in _output(workspace, listing, env).split("\0") if name]
    shown = [name for name in changed if _shown(workspace, name)]
    notes = []
    if len(shown) < len(changed):
        notes.append(f"[{len(changed) - len(shown)} changed file(s) withheld by policy]")
    if len(shown) > MAX_FILES:
        notes.append(f"[{len(shown) - MAX_FILES} more changed files not shown; give git_diff a path to narrow it]")
        shown = shown[:MAX_FILES]
    out = _output(workspace, git_diff_argv(workspace, args, shown), env) if shown else ""
    return "\n".join([out.rstrip("\n") if out.strip() else "(no changes)", *notes])
