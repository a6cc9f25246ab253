"""Reading a workspace file so that nothing but its own bytes can come of it.

=========================================  ===================================================
a path that is                             read
=========================================  ===================================================
a regular file with one name               yes, up to a size limit
a FIFO, a socket, a device                 never (opening does not wait: no writer can hang it)
a regular file with several names          only when every other name is in the workspace and
(hard links)                               allowed: else it may be a name for a file outside
                                           it, or for a denied one
=========================================  ===================================================

Files are opened without following a symlink at the last step (the path given is already
resolved: a link put there since is refused, not followed) and checked on the open descriptor,
so what is checked is what is read: the descriptor must be the file at the path given, so a
directory on the way swapped for a link out since the path was checked is refused too
(:func:`opened_at`).
"""

from __future__ import annotations

import os
import stat
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from advisor.errors import ToolFailure

LINK_SCAN_ENTRIES = 200_000
"""Entries the search for a hard-linked file's other names looks at before it gives up (and refuses)."""
LINK_SCAN_SECONDS = 5.0
"""Seconds it may take."""

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIRECTORY_FLAGS = (os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
                    | getattr(os, "O_CLOEXEC", 0))


def kind_of(mode: int) -> str:
    """What a file is, in a word (for a refusal)."""
    for test, word in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symlink")):
        if test(mode):
            return word
    return "not a regular file"


class LinkIndex:
    """The names of the workspace's hard-linked files, found on first need: a file with ``n`` names is
    readable when all ``n`` are found in the workspace and none is denied."""

    def __init__(self, root: Path, denied: Callable[[str], bool]) -> None:
        self._root = root
        self._denied = denied
        self._names: dict[tuple[int, int], list[str]] | None = None
        self._complete = False

    def _scan(self) -> None:
        names: dict[tuple[int, int], list[str]] = defaultdict(list)
        deadline = time.monotonic() + LINK_SCAN_SECONDS
        seen = 0
        self._complete = True
        for folder, dirs, files in os.walk(self._root):
            for name in files:
                seen += 1
                if seen > LINK_SCAN_ENTRIES or (seen % 1024 == 0 and time.monotonic() > deadline):
                    self._complete = False
                    break
                try:
                    info = os.lstat(os.path.join(folder, name))
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                    relative = os.path.relpath(os.path.join(folder, name), self._root).replace(os.sep, "/")
                    names[(info.st_dev, info.st_ino)].append(relative)
            if not self._complete:
                break
            dirs.sort()
        self._names = dict(names)

    def proven(self, info: os.stat_result) -> bool:
        """Whether every name of this file is in the workspace and allowed."""
        if self._names is None:
            self._scan()
        assert self._names is not None
        found = self._names.get((info.st_dev, info.st_ino), [])
        return self._complete and len(found) == info.st_nlink and not any(self._denied(name) for name in found)


def opened_at(descriptor: int, path: str) -> bool:
    """Whether an open descriptor is the file at ``path`` (a real path, without links) as its name is now:
    the kernel's own name for it (``/proc/self/fd``), or without one, the same file found at ``path``
    resolved again."""
    try:
        return os.readlink(f"/proc/self/fd/{descriptor}") == path
    except OSError:
        pass
    try:
        real, info = os.path.realpath(path), os.fstat(descriptor)
        found = os.stat(real)
    except OSError:
        return False
    return real == path and (found.st_dev, found.st_ino) == (info.st_dev, info.st_ino)


def open_directory(path: str) -> int:
    """A descriptor for the directory at ``path`` (a real path), which it must still be: ``OSError`` for
    anything else (a link put at its last step, or on the way, since it was checked)."""
    descriptor = os.open(path, _DIRECTORY_FLAGS)
    if not opened_at(descriptor, path):
        os.close(descriptor)
        raise OSError(f"{path} is no longer the directory that was checked")
    return descriptor


def read_regular(path: Path | str, *, limit: int, links: LinkIndex, shown: str) -> bytes:
    """The bytes of the regular file at ``path`` (resolved already), at most ``limit`` of them;
    :class:`ToolFailure` naming ``shown`` for anything else (see the table above)."""
    try:
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):  # a socket cannot even be opened: say what it is
            raise ToolFailure(f"{shown} is {kind_of(mode)}, not a regular file: it is not read")
        descriptor = os.open(path, _FLAGS)
    except OSError as error:
        raise ToolFailure(f"{shown}: cannot be read ({error.strerror or error})") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise ToolFailure(f"{shown} is {kind_of(info.st_mode)}, not a regular file: it is not read")
        if not opened_at(descriptor, os.fspath(path)):
            raise ToolFailure(f"{shown} changed while it was read (a directory on its way became a link): it is "
                              "not read")
        if info.st_nlink > 1 and not links.proven(info):
            raise ToolFailure(f"{shown} has {info.st_nlink} hard links, not all of them known to be in the "
                              "workspace and allowed: another name may be a file outside it, so it is not read")
        if info.st_size > limit:
            raise ToolFailure(f"{shown} is larger than {limit:,} bytes")
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=True) as handle:
            descriptor = -1
            # As much as it holds and one byte more (it may be growing), never a buffer of ``limit`` bytes.
            return handle.read(min(info.st_size, limit) + 1)[:limit]
    finally:
        if descriptor >= 0:
            os.close(descriptor)


def read_small(path: Path | str, limit: int) -> bytes | None:
    """The bytes of a small regular file, following links (a ``.gitignore``): ``None`` when it is missing,
    larger than ``limit`` or not a regular file — never a wait on a pipe."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(descriptor, "rb", closefd=True) as handle:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        return handle.read(limit)
