"""Where a check runs: the host's working directory, joined with the directory the command moves
into before the check (``cd api && npm test`` in ``/repo`` runs in ``/repo/api``).

The same check in the same place is one obligation however it got there: ``cd /repo && npm
test`` in ``/repo`` is ``npm test`` there, and Git Bash's ``cd /c/work`` is ``C:\\work``. Places
are written with ``/`` (``C:/work``), normalised, a drive letter in upper case. A directory only
known at run time (``cd "$DIR"``, ``<maybe api>``) is kept as written, after the working
directory: it is a place of its own, never confused with a known one.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

_DRIVE = re.compile(r"^([A-Za-z]):(?:/|$)")
_MSYS_DRIVE = re.compile(r"^/([A-Za-z])(?:/|$)")
_DYNAMIC = ("$", "<", "~", "`")


@lru_cache(maxsize=1024)
def location(cwd: str | None, directory: str | None) -> str | None:
    """The place a check runs in (see the module docstring). A session has few places and asks
    for them on every check it runs: they are remembered (it is a function of its arguments)."""
    base = _normal(cwd) if cwd else None
    if directory is None:
        return base
    if directory.startswith(_DYNAMIC) or any(mark in directory for mark in ("$", "<", "`")):
        return f"{base}/{directory}" if base else directory
    if _absolute(directory) or base is None:
        return _normal(directory)
    return posixpath.normpath(posixpath.join(base, directory.replace("\\", "/")))


def _absolute(path: str) -> bool:
    return path.startswith(("/", "\\")) or _DRIVE.match(path.replace("\\", "/")) is not None


def _normal(path: str) -> str:
    """A path with ``/`` separators, and Git Bash's ``/c/…`` as ``C:/…``."""
    slashed = path.replace("\\", "/")
    msys = _MSYS_DRIVE.match(slashed)
    if msys is not None:
        slashed = f"{msys.group(1).upper()}:" + (slashed[2:] or "/")
    drive = _DRIVE.match(slashed)
    if drive is not None:
        slashed = drive.group(1).upper() + slashed[1:]
    return posixpath.normpath(slashed) if slashed else slashed
