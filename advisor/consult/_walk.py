"""Walking the workspace for ``grep`` and ``find``: top-down and sorted, and bounded.

A walk skips ``.gitignore``-d and credential-shaped paths (``.git`` among them), symlinks that lead
out of the workspace or to a denied file, and everything that is neither a directory nor a regular
file (FIFOs, sockets, devices); it never enters a symlinked directory. It stops after
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

from advisor.consult._ignore import Chain, Ignores
from advisor.consult._workspace import Workspace


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
                with os.scandir(os.path.join(root, folder)) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError:
                continue
            below: list[tuple[str, Chain]] = []
            for entry in entries:
                self.looked_at += 1
                if self.looked_at > self.bounds.entries:
                    self.stopped = f"{self.bounds.entries:,} entries"
                    return
                if self.looked_at % 512 == 0 and time.monotonic() > deadline:
                    self.stopped = f"{self.bounds.seconds:g} seconds"
                    return
                relative = f"{folder}/{entry.name}" if folder else entry.name
                kind = self._kind(entry, relative, chain)
                if kind is None:
                    continue
                yield relative, kind == "dir"
                if kind == "dir" and not entry.is_symlink():
                    below.append((relative, chain))
            stack.extend((name, ignores.chain(name, above)) for name, above in reversed(below))

    def _kind(self, entry: os.DirEntry[str], relative: str, chain: Chain) -> str | None:
        """``dir`` or ``file`` for an entry the walk shows, ``None`` for one it skips."""
        workspace = self.workspace
        try:
            if entry.is_dir(follow_symlinks=True):
                kind = "dir"
            elif entry.is_file(follow_symlinks=True):
                kind = "file"
            else:
                return None  # a FIFO, a socket, a device, a dangling link
        except OSError:
            return None
        if workspace.denied_last(relative) or Ignores.ignored(chain, relative, kind == "dir"):
            return None
        if entry.is_symlink() and not workspace.inside(Path(entry.path)):
            return None
        return kind


def _parents(relative: str) -> list[str]:
    """The root-relative directories above ``relative`` and itself, top-down (``a``, ``a/b`` for ``a/b``)."""
    parts = relative.split("/") if relative else []
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]
