"""The Stop hook's replay of each transcript, kept so that the next Stop replays only what was appended.

A session's transcript grows by a few lines between two stops, and a replay of the whole file at
every stop would cost, over a long session, the square of its length. So each Stop keeps its
replay as it stood once every line had been read — the reader's position
(``obligations.sources.Position``: the file's device and inode, the bytes replayed and their
SHA-256, the reader's state), the tracker's snapshot there, and the shell calls it saw — and the
next Stop resumes from it. The transcript's reader decides whether the position still holds (the
same file, the same first bytes, no rewind reaching back); if not, the file is replayed whole, as
without a kept state. Any reader's replay is kept the same way, whichever host wrote the file.

One file per transcript (and selection: a sub-agent's entries picked from its parent's file are
a replay of their own) under ``$WITNESS_HOME/hooks/replays/``. Each is

- **versioned**: a state records the format version and a fingerprint of the code that wrote it
  (the sources of the readers, the tracker, the shell analysis and the hook: their names, sizes and
  modification times); a state of another version of witness is never read, and is replaced;
- **bounded**: a state larger than :data:`MAX_STATE_BYTES` is not kept (that transcript is
  replayed whole at each Stop); at most :data:`MAX_STATES` files and :data:`MAX_TOTAL_BYTES` in
  all are kept, the least recently written removed first, and none unchanged for ``KEPT_DAYS``;
- **atomic**: written to a temporary file renamed into place, so a hook reads a whole state or
  none; one it cannot read or trust is ignored.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from obligations import SnapshotError
from obligations.sources import Position

from ._state import KEPT_DAYS, state_dir

VERSION = 1
"""The format of a kept replay."""
MAX_STATE_BYTES = 32 * 1024 * 1024
"""The largest replay kept for one transcript."""
MAX_STATES = 100
"""Transcripts whose replay is kept."""
MAX_TOTAL_BYTES = 256 * 1024 * 1024
"""All kept replays together."""
_SUFFIX = ".json"
_TEMPORARY = ".tmp"
_SOURCES = ("obligations", "shellparse", "advisor/hosts")
"""The code that decides a replay: the readers and the tracker, the shell analysis, the hook."""


@dataclass(frozen=True)
class KeptReplay:
    """A replay kept by an earlier Stop."""

    position: Position
    """Where the reader stopped, and what it knew there."""
    tracker: dict[str, Any]
    """The tracker's snapshot at that position."""
    shells: dict[str, str]
    """The shell calls dispatched up to there: call id -> agent."""


class ReplayStates:
    """The kept replays in ``folder`` (default ``$WITNESS_HOME/hooks/replays``)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else state_dir() / "replays"
        """Where the replays are kept."""

    def path(self, transcript: str, select: str | None, policy: str) -> Path:
        """The file that keeps the replay of ``transcript`` (its entries of agent ``select`` only, if
        given) under ``policy``."""
        try:
            where = os.path.realpath(transcript)
        except (OSError, ValueError):
            where = transcript
        key = hashlib.sha256(f"{where}\0{select or ''}\0{policy}".encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / f"{key[:32]}{_SUFFIX}"

    def load(self, transcript: str, select: str | None, policy: str) -> KeptReplay | None:
        """The replay kept for ``transcript``, if there is one this code wrote and can read."""
        try:
            data = orjson.loads(self.path(transcript, select, policy).read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("version") != VERSION or data.get("code") != code_fingerprint():
            return None
        tracker, shells = data.get("tracker"), data.get("shells")
        if not isinstance(tracker, dict) or not isinstance(shells, dict):
            return None
        try:
            position = Position.from_dict(data.get("position"))
        except SnapshotError:
            return None
        return KeptReplay(position, tracker, {str(call): str(agent) for call, agent in shells.items()})

    def save(self, transcript: str, select: str | None, policy: str, replay: KeptReplay) -> bool:
        """Keep ``replay`` for ``transcript``; ``False`` when it is too large to keep (then none is
        kept for it). Raises ``OSError`` when the folder cannot be written."""
        path = self.path(transcript, select, policy)
        data = orjson.dumps({"version": VERSION, "code": code_fingerprint(), "position": replay.position.to_dict(),
                             "tracker": replay.tracker, "shells": replay.shells})
        if len(data) > MAX_STATE_BYTES:
            path.unlink(missing_ok=True)
            return False
        self.folder.mkdir(parents=True, exist_ok=True)
        new = not path.exists()
        with tempfile.NamedTemporaryFile("wb", dir=self.folder, delete=False, suffix=_TEMPORARY) as handle:
            handle.write(data)
        try:
            os.replace(handle.name, path)
        except OSError:
            os.unlink(handle.name)
            raise
        if new:
            self.prune(keep=path)
        return True

    def prune(self, *, keep: Path | None = None) -> None:
        """Remove kept replays past the bounds (the oldest first, never ``keep``), those unchanged for
        ``KEPT_DAYS``, and temporary files as old (left by a hook killed while writing)."""
        cutoff = time.time() - KEPT_DAYS * 86_400
        kept: list[tuple[float, int, Path]] = []
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return
        for entry in entries:
            if not entry.name.endswith((_SUFFIX, _TEMPORARY)) or not entry.is_file(follow_symlinks=False):
                continue
            try:
                status = entry.stat(follow_symlinks=False)
                if status.st_mtime < cutoff:
                    os.unlink(entry.path)
                elif entry.name.endswith(_SUFFIX):
                    kept.append((status.st_mtime, status.st_size, Path(entry.path)))
            except OSError:
                continue
        kept.sort(reverse=True)  # newest first
        total = 0
        for count, (_, size, path) in enumerate(kept, start=1):
            total += size
            if path != keep and (count > MAX_STATES or total > MAX_TOTAL_BYTES):
                path.unlink(missing_ok=True)


_FINGERPRINT: str | None = None


def fingerprinted(root: Path) -> list[str]:
    """The source files under ``root`` (witness's checkout or installed packages) that a kept replay's
    fingerprint covers, relative to it, in order: every module of :data:`_SOURCES`, so every reader
    of every host is covered, whichever was added last."""
    found: list[str] = []
    for package in _SOURCES:
        for folder, folders, files in os.walk(root / package):
            folders[:] = sorted(name for name in folders if name != "__pycache__")
            found.extend(os.path.relpath(os.path.join(folder, name), root) for name in sorted(files)
                         if name.endswith(".py"))
    return found


def code_fingerprint() -> str:
    """A fingerprint of the code that reads transcripts and judges them: the format version, the
    Python version, and the name, size and modification time of every source file of the readers,
    the tracker, the shell analysis and the hook. A replay kept by other code is never trusted."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        digest = hashlib.sha256(f"{VERSION}\0{sys.version}".encode())
        root = Path(__file__).resolve().parents[2]
        for where in fingerprinted(root):
            status = os.stat(root / where)
            digest.update(f"{where}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
        _FINGERPRINT = digest.hexdigest()
    return _FINGERPRINT
