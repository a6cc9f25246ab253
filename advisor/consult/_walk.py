"""Walking the workspace for ``grep`` and ``find``: top-down and sorted, and bounded.

A walk skips ``.gitignore``-d and credential-shaped paths (``.git`` among them), symlinks that lead
out of the workspace or to a denied file, and everything that is neither a directory nor a regular
file (FIFOs, sockets, devices); it never enters a symlinked directory, nor one a link was put on the way
to since it was seen. It stops after
:attr:`WalkBounds.entries` directory entries looked at (skipped ones count too) or
:attr:`WalkBounds.seconds` of wall time, and says so: a huge tree is a result that says it was cut,
not a consultation that never ends. Paths are handled as strings: a walk of a hundred thousand
entries builds no ``Path`` for them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from advisor.consult._files import open_directory
from advisor.consult._ignore import Chain, Ignores
from advisor.consult._workspace import Workspace

Kind = Literal["dir", "file"] | None
"""What a directory entry is, links followed: a directory, a regular file, or something a walk skips."""


@dataclass(frozen=True, slots=True)
class WalkBounds:
    """How far a walk may go."""

    entries: int = 200_000
    """Directory entries looked at, skipped ones included."""
    seconds: float = 10.0
    """Wall time."""


class Walk:
    """The directories and regular files under ``start`` (a directory of the workspace): iterate it for
    ``(relative, is_dir)``, ``relative`` the path from the workspace root, POSIX style; afterwards
    :attr:`stopped` says why it ended early (``None``: it saw everything)."""

    def __init__(self, workspace: Workspace, start: Path, bounds: WalkBounds | None = None) -> None:
        self.workspace = workspace
        self.start = workspace.relative(start) if start != workspace.root else ""
        """Where it starts, relative to the root (``""``: the root)."""
        self.bounds = bounds or WalkBounds()
        self.stopped: str | None = None
        """``"N entries"`` or ``"N seconds"`` when a bound ended it."""
        self.looked_at = 0
        """Directory entries looked at."""

    def below_start(self, relative: str) -> str:
        """A root-relative path the walk gave, relative to where it started."""
        return relative[len(self.start) + 1:] if self.start else relative

    def __iter__(self) -> Iterator[tuple[str, bool]]:
        root = str(self.workspace.root)
        ignores = Ignores(root)
        deadline = time.monotonic() + self.bounds.seconds
        first = ignores.chain("", ())
        for folder in _parents(self.start):
            first = ignores.chain(folder, first)
        stack: list[tuple[str, Chain]] = [(self.start, first)]
        while stack:
            folder, chain = stack.pop()
            try:
                entries = _listing(os.path.join(root, folder) if folder else root)
            except OSError:
                continue
            below: list[tuple[str, Chain]] = []
            for name, found, link in entries:
                self.looked_at += 1
                if self.looked_at > self.bounds.entries:
                    self.stopped = f"{self.bounds.entries:,} entries"
                    return
                if self.looked_at % 512 == 0 and time.monotonic() > deadline:
                    self.stopped = f"{self.bounds.seconds:g} seconds"
                    return
                relative = f"{folder}/{name}" if folder else name
                kind = self._kind(found, link, relative, chain)
                if kind is None:
                    continue
                yield relative, kind == "dir"
                if kind == "dir" and not link:
                    below.append((relative, chain))
            stack.extend((name, ignores.chain(name, above)) for name, above in reversed(below))

    def _kind(self, found: Kind, link: bool, relative: str, chain: Chain) -> Kind:
        """``dir`` or ``file`` for an entry the walk shows, ``None`` for one it skips."""
        workspace = self.workspace
        if found is None:
            return None  # a FIFO, a socket, a device, a dangling link
        if workspace.denied_last(relative) or Ignores.ignored(chain, relative, found == "dir"):
            return None
        if link and not workspace.inside(Path(workspace.root, relative)):
            return None
        return found


def _listing(path: str) -> list[tuple[str, Kind, bool]]:
    """``(name, kind, is a symlink)`` for each entry of the directory at ``path``, by name, read from a
    descriptor that is that directory (not one a link put on the way since the walk saw it leads to)."""
    descriptor = open_directory(path)
    try:
        with os.scandir(descriptor) as listing:
            return sorted(((entry.name, _entry_kind(entry), entry.is_symlink()) for entry in listing),
                          key=lambda row: row[0])
    finally:
        os.close(descriptor)


def _entry_kind(entry: os.DirEntry[str]) -> Kind:
    try:
        if entry.is_dir(follow_symlinks=True):
            return "dir"
        return "file" if entry.is_file(follow_symlinks=True) else None
    except OSError:
        return None


def _parents(relative: str) -> list[str]:
    """The root-relative directories above ``relative`` and itself, top-down (``a``, ``a/b`` for ``a/b``)."""
    parts = relative.split("/") if relative else []
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]
