"""``grep({pattern, path?, glob?})`` and ``find({pattern, path?})``: search the workspace.

Both walk the workspace as :class:`~advisor.consult._walk.Walk` does — ``.git``, ``.gitignore``-d and
credential-shaped paths skipped, also when no path is given (ripgrep-based tools let a ``grep`` of
the whole tree read a ``.env``), special files never opened, the walk bounded — and say when a
bound cut it. ``grep`` patterns are regular expressions in Python's syntax, run with a time limit
so a pathological pattern cannot stall a consultation; a glob or a pattern that expands or
compiles past its limits (``{1..100000}``) is an error result, and a glob's expressions run on the
same time limit (a glob built to backtrack, ``a*/**/a*/**/…``, ends the search where the time is up).
``grep`` reads only the files ``read`` would read (hard-linked ones whose other names are not all
known, too large ones are skipped and counted).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import regex
from pydantic import BaseModel, ConfigDict, Field
from wcmatch import fnmatch, glob

from advisor.consult._walk import Walk, WalkBounds
from advisor.consult._workspace import Workspace
from advisor.errors import ToolFailure
from obligations import redact, redact_line

MAX_MATCHES = 200
MAX_FOUND = 1000
SEARCH_SECONDS = 10.0
PATTERN_CHARS = 2000
"""The longest pattern or glob taken."""
GLOB_EXPANSIONS = 256
"""The most patterns a glob's braces may expand to."""
WALK = WalkBounds(seconds=SEARCH_SECONDS)
"""How far ``grep`` and ``find`` walk."""
_LINE_CHARS = 300
_MATCHES_CUT = f"\n[stopped at {MAX_MATCHES} matches; narrow the pattern or path]"
_LARGEST = 5_000_000
_GLOB_FLAGS = glob.GLOBSTAR | glob.DOTGLOB | glob.BRACE
_NAME_FLAGS = fnmatch.DOTMATCH | fnmatch.BRACE


class GrepArgs(BaseModel):
    """``grep`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    pattern: str = Field(min_length=1, max_length=PATTERN_CHARS)
    path: str | None = None
    glob: str | None = Field(default=None, max_length=PATTERN_CHARS)


class FindArgs(BaseModel):
    """``find`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    pattern: str = Field(min_length=1, max_length=PATTERN_CHARS)
    path: str | None = None


def _start(workspace: Workspace, path: str | None) -> Path:
    start = workspace.resolve(path) if path and path.strip() else workspace.root
    if not start.exists():
        raise ToolFailure(f"{path}: no such file or directory")
    return start


def glob_matcher(pattern: str, deadline: float | None = None) -> Callable[[str], bool]:
    """A test of a start-relative path against a glob (``*.py`` by name, ``src/**/*.ts`` by path);
    :class:`ToolFailure` for a glob that cannot be read or expands past :data:`GLOB_EXPANSIONS`. The glob's
    expressions run with a time limit (``deadline``, on :func:`time.monotonic`'s clock: past it a test
    raises :class:`TimeoutError`), so one built to backtrack (``a*/**/a*/**/…``) cannot outlast the search."""
    try:
        if "/" in pattern:
            included, _ = glob.translate(pattern, flags=_GLOB_FLAGS, limit=GLOB_EXPANSIONS)
        else:
            included, _ = fnmatch.translate(pattern, flags=_NAME_FLAGS, limit=GLOB_EXPANSIONS)
        compiled = [regex.compile(expression) for expression in included]
    except Exception as error:
        raise ToolFailure(f"the glob {redact_line(pattern, 200)!r} cannot be used: {error}") from None
    by_name = "/" not in pattern

    def matches(relative: str) -> bool:
        target = relative.rsplit("/", 1)[-1] if by_name else relative
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise TimeoutError
        return any(expression.fullmatch(target, timeout=remaining) is not None for expression in compiled)

    return matches


def _cut(walk: Walk) -> str:
    return f"\n[stopped after {walk.stopped}; narrow the path]" if walk.stopped else ""


def grep(workspace: Workspace, args: GrepArgs, clean: Callable[[str], str] = redact) -> str:
    """``path:line: text`` for each matching line (at most 200), in path order; each line passes
    ``clean`` before it is cut to its width."""
    try:
        compiled = regex.compile(args.pattern)
    except (regex.error, OverflowError, RecursionError, MemoryError) as error:
        raise ToolFailure(f"invalid pattern {redact_line(args.pattern, 200, redactor=clean)!r}: {error}") from None
    deadline = time.monotonic() + SEARCH_SECONDS
    wanted = glob_matcher(args.glob, deadline) if args.glob else None
    start = _start(workspace, args.path)
    walk = Walk(workspace, start, WALK)
    names = [workspace.relative(start)] if start.is_file() else (
        relative for relative, is_dir in walk if not is_dir and (wanted is None or wanted(walk.below_start(relative))))
    hits: list[str] = []
    skipped = 0
    root = str(workspace.root)
    try:
        for name in names:
            target = os.path.join(root, name)
            try:
                # A walked name is a path without links but, perhaps, its last step (a link the walk let in).
                data = workspace.read(os.path.realpath(target) if os.path.islink(target) else target, limit=_LARGEST,
                                      shown=name)
            except (ToolFailure, OSError):
                skipped += 1
                continue
            found = _hits(compiled, name, data, deadline, clean)
            if found is None and not hits:
                raise ToolFailure(f"the search took longer than {SEARCH_SECONDS:g}s (the pattern, or the files it ran "
                                  "on); narrow it or the path")
            if found is None:
                walk.stopped = f"{SEARCH_SECONDS:g} seconds"
                break
            hits += found
            if len(hits) >= MAX_MATCHES:
                return "\n".join(hits[:MAX_MATCHES]) + _MATCHES_CUT
    except TimeoutError:  # the glob's test ran out of the search's time
        walk.stopped = f"{SEARCH_SECONDS:g} seconds"
    note = f"\n[{skipped} file(s) not read: too large, hard-linked or not regular files]" if skipped else ""
    return ("\n".join(hits) if hits else "(no matches)") + note + _cut(walk)


def _hits(compiled: regex.Pattern[str], name: str, data: bytes, deadline: float,
          clean: Callable[[str], str]) -> list[str] | None:
    """``name:line: text`` for each matching line of a file (none for a binary one), at most
    :data:`MAX_MATCHES`; ``None`` when the search's time ran out."""
    if b"\x00" in data[:8192]:
        return []
    hits: list[str] = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
        found = _search(compiled, line, deadline)
        if found is None:
            return None
        if found:
            shown = clean(line)
            hits.append(f"{name}:{number}: {shown if len(shown) <= _LINE_CHARS else shown[:_LINE_CHARS] + '…'}")
            if len(hits) >= MAX_MATCHES:
                break
    return hits


def _search(compiled: regex.Pattern[str], line: str, deadline: float) -> bool | None:
    """Whether the line matches (``None``: the search's time is up, on this line or before it)."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    try:
        return compiled.search(line, timeout=remaining) is not None
    except TimeoutError:
        return None


def find(workspace: Workspace, args: FindArgs) -> str:
    """Workspace-relative paths matching a glob (directories end in ``/``), at most 1000."""
    wanted = glob_matcher(args.pattern, time.monotonic() + SEARCH_SECONDS)
    start = _start(workspace, args.path)
    if start.is_file():
        raise ToolFailure(f"{args.path} is a file: find searches a directory")
    walk = Walk(workspace, start, WALK)
    found: list[str] = []
    try:
        for relative, is_dir in walk:
            if wanted(walk.below_start(relative)):
                found.append(relative + ("/" if is_dir else ""))
                if len(found) >= MAX_FOUND:
                    return "\n".join(found) + f"\n[stopped at {MAX_FOUND} paths; narrow the pattern or the path]"
    except TimeoutError:  # the glob's test ran out of the search's time
        walk.stopped = f"{SEARCH_SECONDS:g} seconds"
    return ("\n".join(found) if found else "(nothing matches)") + _cut(walk)
