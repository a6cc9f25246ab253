"""Walking the workspace for ``grep`` and ``find``: top-down and sorted, and bounded.

A walk skips ``.gitignore``-d and credential-shaped paths (``.git`` among them), symlinks that lead
out of the workspace or to a denied file, and everything that is neither a directory nor a regular
file (FIFOs, sockets, devices); it never enters a symlinked directory. It stops after
:attr:`WalkBounds.entries` directory entries looked at (skipped ones count too) or
:attr:`WalkBounds.seconds` of wall time, and says so: a huge tree is a result that says it was cut,
not a consultation that never ends.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from advisor.consult._ignore import Ignores
from advisor.consult._workspace import Workspace


@dataclass(frozen=True, slots=True)
class WalkBounds:
    """How far a walk may go."""

    entries: int = 200_000
    """Directory entries looked at, skipped ones included."""
    seconds: float = 10.0
    """Wall time."""


class Walk:
    """The directories and regular files under ``start``: iterate it for ``(path, is_dir)``; afterwards
    :attr:`stopped` says why it ended early (``None``: it saw everything)."""

    def __init__(self, workspace: Workspace, start: Path, bounds: WalkBounds | None = None) -> None:
        self.workspace = workspace
        self.start = start
        self.bounds = bounds or WalkBounds()
        self.stopped: str | None = None
        """``"N entries"`` or ``"N seconds"`` when a bound ended it."""
        self.looked_at = 0
        """Directory entries looked at."""

    def __iter__(self) -> Iterator[tuple[Path, bool]]:
        ignores = Ignores(self.workspace.root)
        deadline = time.monotonic() + self.bounds.seconds
        stack = [self.start]
        while stack:
            folder = stack.pop()
            ignores.enter(folder)
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError:
                continue
            below: list[Path] = []
            for entry in entries:
                self.looked_at += 1
                if self.looked_at > self.bounds.entries:
                    self.stopped = f"{self.bounds.entries:,} entries"
                    return
                if self.looked_at % 512 == 0 and time.monotonic() > deadline:
                    self.stopped = f"{self.bounds.seconds:g} seconds"
                    return
                kind = self._kind(entry, ignores)
                if kind is None:
                    continue
                path = Path(entry.path)
                yield path, kind == "dir"
                if kind == "dir" and not entry.is_symlink():
                    below.append(path)
            stack.extend(reversed(below))

    def _kind(self, entry: os.DirEntry[str], ignores: Ignores) -> str | None:
        """``dir`` or ``file`` for an entry the walk shows, ``None`` for one it skips."""
        workspace = self.workspace
        path = Path(entry.path)
        try:
            if entry.is_dir(follow_symlinks=True):
                kind = "dir"
            elif entry.is_file(follow_symlinks=True):
                kind = "file"
            else:
                return None  # a FIFO, a socket, a device, a dangling link
        except OSError:
            return None
        if workspace.denied_last(workspace.relative(path)) or ignores.ignored(path, kind == "dir"):
            return None
        if entry.is_symlink() and not workspace.inside(path):
            return None
        return kind
