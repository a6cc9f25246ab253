"""The folder the Stop hook keeps its state in between calls, and its files' life.

One small JSON file per host, session and kind of record (block counts, reviewed states) under
``$WITNESS_HOME/hooks/``. A hook starts a process per call and never learns that a session has
ended, so nothing else would ever remove a file: when a kind's first file for a new session is
written, that kind's files unchanged for :data:`KEPT_DAYS` are removed (one listing of the folder
per new session, not per call; each kind under its own lock, so no removal races a write of the
same kind). A session resumed after that starts its counts afresh.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

from advisor._home import witness_home

KEPT_DAYS = 30
"""Days a session's state file is kept after its last change."""
STATE_SUFFIX = ".json"
"""What every state file's name ends with (locks end otherwise)."""
KINDS = ("", "reviewed-")
"""The prefixes of the kinds of state file: block counts, reviewed states."""
_TEMPORARY_SUFFIX = ".tmp"
"""A state file being written; one this old was left by a hook killed while writing it."""


class SessionKey(Protocol):
    """What names a session's state file."""

    @property
    def host(self) -> str: ...
    @property
    def session(self) -> str: ...


def state_dir() -> Path:
    """Where the hook's state is kept (see :func:`advisor._home.witness_home`)."""
    return witness_home() / "hooks"


def session_file(folder: Path, key: SessionKey, *, prefix: str = "") -> Path:
    """The file of ``key``'s session in ``folder``: the host and the start of the session id made safe as
    a file name (to be recognised), then a hash of the exact pair — so that ids that differ only in
    characters a file name cannot hold (``x/y``, ``x_y``, ``x:y``) or past the part shown never share
    a file, and so a budget."""
    import hashlib

    exact = hashlib.sha256(f"{key.host}\0{key.session}".encode("utf-8", "surrogatepass")).hexdigest()[:24]
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in f"{key.host}-{key.session}")
    return folder / f"{prefix}{safe[:80]}-{exact}{STATE_SUFFIX}"


def write_state(path: Path, state: dict[str, Any], *, prefix: str = "") -> None:
    """Replace ``path`` (a file of the kind named by ``prefix``) with ``state`` atomically; a new
    session's file first removes its kind's stale ones."""
    if not path.exists():
        remove_stale(path.parent, prefix=prefix)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=_TEMPORARY_SUFFIX,
                                     encoding="utf-8") as handle:
        json.dump(state, handle)
    try:
        os.replace(handle.name, path)
    except OSError:
        os.unlink(handle.name)
        raise


def remove_stale(folder: Path, *, prefix: str, kept_days: float = KEPT_DAYS) -> None:
    """Remove the state files of the kind named by ``prefix`` (one of :data:`KINDS`) in ``folder``
    unchanged for ``kept_days``, and abandoned temporary copies as old (no writer is that slow).

    Only regular files go. The caller holds its kind's lock, so no hook writes a file of that kind
    meanwhile; a file that cannot be removed, or that another hook removed first, is skipped."""
    cutoff = time.time() - kept_days * 86_400
    others = tuple(kind for kind in KINDS if len(kind) > len(prefix) and kind.startswith(prefix))
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        mine = name.endswith(STATE_SUFFIX) and name.startswith(prefix) and not name.startswith(others)
        try:
            if ((mine or name.endswith(_TEMPORARY_SUFFIX)) and entry.is_file(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_mtime < cutoff):
                os.unlink(entry.path)
        except OSError:
            continue
