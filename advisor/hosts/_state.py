"""The folder the Stop hook keeps its state in between calls, and its files' life.

One small JSON file per host, session and kind of record (block counts, reviewed states) under
``$WITNESS_HOME/hooks/``. A hook starts a process per call and never learns that a session has
ended, so nothing else would ever remove a file: a file no hook has changed for
:data:`KEPT_DAYS` is removed when the next session's first file is written (one listing of the
folder per new session, not per call). A session resumed after that starts its counts afresh.
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
    """The file of ``key``'s session in ``folder``: host and session id, made safe as a file name."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{key.host}-{key.session}")[:200]
    return folder / f"{prefix}{safe}{STATE_SUFFIX}"


def write_state(path: Path, state: dict[str, Any], *, kept_days: float = KEPT_DAYS) -> None:
    """Replace ``path`` with ``state`` atomically; a new session's file first removes the stale ones."""
    if not path.exists():
        remove_stale(path.parent, kept_days=kept_days)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=_TEMPORARY_SUFFIX,
                                     encoding="utf-8") as handle:
        json.dump(state, handle)
    try:
        os.replace(handle.name, path)
    except OSError:
        os.unlink(handle.name)
        raise


def remove_stale(folder: Path, *, kept_days: float = KEPT_DAYS) -> list[Path]:
    """Remove the state files in ``folder`` unchanged for ``kept_days``; the removed ones.

    Only regular files named like state files (or their abandoned temporary copies) go; a file
    another hook removes first, or one that cannot be removed, is left to a later call (the caller
    holds its own lock, not every kind's)."""
    cutoff = time.time() - kept_days * 86_400
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        try:
            if (entry.name.endswith((STATE_SUFFIX, _TEMPORARY_SUFFIX)) and entry.is_file(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_mtime < cutoff):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed
