"""``grep({pattern, path?, glob?})`` and ``find({pattern, path?})``: search the workspace.

Both skip ``.git``, ``.gitignore``-d and credential-shaped files — also when no path is given
(ripgrep-based tools let a ``grep`` of the whole tree read a ``.env``). ``grep`` patterns are
regular expressions in Python's syntax, run with a time limit so a pathological pattern
cannot stall a consultation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import regex
from pydantic import BaseModel, ConfigDict, Field
from wcmatch import fnmatch, glob

from advisor.consult._workspace import ToolFailure, Workspace, walk
from obligations import redact

MAX_MATCHES = 200
MAX_FOUND = 1000
MAX_WALKED = 100_000
SEARCH_SECONDS = 10.0
_LINE_CHARS = 300
_LARGEST = 5_000_000
_GLOB_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.BRACE
_NAME_FLAGS = fnmatch.DOTMATCH | fnmatch.BRACE


class GrepArgs(BaseModel):
    """``grep`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    pattern: str = Field(min_length=1)
    path: str | None = None
    glob: str | None = None


class FindArgs(BaseModel):
    """``find`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    pattern: str = Field(min_length=1)
    path: str | None = None


def _start(workspace: Workspace, path: str | None) -> Path:
    start = workspace.resolve(path) if path and path.strip() else workspace.root
    if not start.exists():
        raise ToolFailure(f"{path}: no such file or directory")
    return start


def _matches_glob(relative: str, pattern: str) -> bool:
    if "/" in pattern:
        return glob.globmatch(relative, pattern, flags=_GLOB_FLAGS)
    return fnmatch.fnmatch(relative.rsplit("/", 1)[-1], pattern, flags=_NAME_FLAGS)


def _files(workspace: Workspace, start: Path, pattern: str | None) -> list[Path]:
    if start.is_file():
        return [start]
    found = []
    for path, is_dir in walk(workspace, start, MAX_WALKED):
        relative = path.relative_to(start).as_posix()
        if not is_dir and (pattern is None or _matches_glob(relative, pattern)):
            found.append(path)
    return found


def grep(workspace: Workspace, args: GrepArgs, clean: Callable[[str], str] = redact) -> str:
    """``path:line: text`` for each matching line (at most 200), in path order; each line passes
    ``clean`` before it is cut to its width."""
    try:
        compiled = regex.compile(args.pattern)
    except regex.error as error:
        raise ToolFailure(f"invalid pattern {args.pattern!r}: {error}") from None
    start = _start(workspace, args.path)
    deadline = time.monotonic() + SEARCH_SECONDS
    hits: list[str] = []
    for path in _files(workspace, start, args.glob):
        try:
            if path.stat().st_size > _LARGEST:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        if b"\x00" in data[:8192]:
            continue
        name = workspace.relative(path)
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise TimeoutError
                found = compiled.search(line, timeout=remaining) is not None
            except TimeoutError:
                raise ToolFailure(f"the pattern took longer than {SEARCH_SECONDS:.0f}s; narrow it or the path") \
                    from None
            if found:
                line = clean(line)
                text = line if len(line) <= _LINE_CHARS else line[:_LINE_CHARS] + "…"
                hits.append(f"{name}:{number}: {text}")
                if len(hits) >= MAX_MATCHES:
                    return "\n".join(hits) + f"\n[stopped at {MAX_MATCHES} matches; narrow the pattern or the path]"
    return "\n".join(hits) if hits else "(no matches)"


def find(workspace: Workspace, args: FindArgs) -> str:
    """Workspace-relative paths matching a glob (directories end in ``/``), at most 1000."""
    start = _start(workspace, args.path)
    if start.is_file():
        raise ToolFailure(f"{args.path} is a file: find searches a directory")
    found: list[str] = []
    for path, is_dir in walk(workspace, start, MAX_WALKED):
        if _matches_glob(path.relative_to(start).as_posix(), args.pattern):
            found.append(workspace.relative(path) + ("/" if is_dir else ""))
            if len(found) >= MAX_FOUND:
                return "\n".join(found) + f"\n[stopped at {MAX_FOUND} paths; narrow the pattern or the path]"
    return "\n".join(found) if found else "(nothing matches)"
