"""Append-only JSON Lines files that several processes write: whole lines under a lock, and a
reader that hands back each non-blank line with its number (a bad line is the caller's to skip)."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: O_APPEND writes only
    fcntl = None  # type: ignore[assignment]


def append_line(path: Path, record: dict[str, Any]) -> None:
    """Append ``record`` as one compact JSON line, atomically with respect to other writers
    (``flock`` where the platform has it, an ``O_APPEND`` write in any case)."""
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        view = memoryview(line)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


def read_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, raw line)`` for each non-blank line; nothing when the file does not exist or is not
    a regular file (a pipe would wait for a writer, a device never end). Raises ``InputError``
    (``advisor.errors``) when it cannot be read (a directory in its place, a file where a folder on
    its path should be)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return
    except OSError as error:
        raise _unreadable(path, error) from None
    mode = os.fstat(descriptor).st_mode
    if stat.S_ISDIR(mode):  # a folder in its place is said; a pipe or a device is no log, and is not read
        os.close(descriptor)
        raise _unreadable(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    handle = os.fdopen(descriptor, "rb")
    with handle:
        if not stat.S_ISREG(mode):
            return
        os.set_blocking(descriptor, True)
        try:
            for number, raw in enumerate(handle, start=1):
                if raw.strip():
                    yield number, raw
        except OSError as error:
            raise _unreadable(path, error) from None


def _unreadable(path: Path, error: OSError) -> Exception:
    from advisor.errors import InputError

    return InputError(f"cannot read {path} ({error.strerror or error})")
