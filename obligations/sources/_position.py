"""Where a replay stopped and everything it knew there, so that a later one resumes from it.

A :class:`Position` is taken at a replay's checkpoint (every whole line read, the reader not yet
finished): the file's identity (device and inode), the bytes and lines replayed and a SHA-256 of
those bytes, the reader's state, the report so far, the entries already read (for hosts that
write an entry twice) and the plan's state. :meth:`Transcript.resume` accepts it only for the
same file, still holding the same bytes at its start: one rewritten, truncated or replaced is
replayed from its start.
"""

from __future__ import annotations

import base64
import hashlib
from array import array
from dataclasses import dataclass
from io import BufferedReader
from pathlib import Path
from typing import Any

from .._vocabulary import TRANSCRIPT_FORMATS, TranscriptFormat
from ..errors import SnapshotError, SnapshotVersionError
from ._lines import PIECE, Digest
from ._plans import Planned

VERSION = 1
"""The format of a position's JSON."""


@dataclass(frozen=True)
class Position:
    """A replay's checkpoint (see the module docstring)."""

    format: TranscriptFormat
    """The transcript's format."""
    device: int
    """The file's device."""
    inode: int
    """The file's inode."""
    offset: int
    """Bytes replayed: whole lines only."""
    lines: int
    """Lines in them."""
    digest: str
    """SHA-256 of those bytes, in hex."""
    reader: dict[str, Any]
    """The reader's state (see ``_resume``)."""
    report: dict[str, Any]
    """The report so far (``TranscriptReport.to_dict``)."""
    written: tuple[int, ...]
    """The keys of the entries read, for a host that writes entries twice (see ``Written``)."""
    plan: Any
    """The plan's state (see ``_plans``)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (the keys of the entries read packed, eight bytes each)."""
        packed = base64.b64encode(array("Q", self.written).tobytes()).decode("ascii")
        return {"version": VERSION, "format": self.format, "device": self.device, "inode": self.inode,
                "offset": self.offset, "lines": self.lines, "digest": self.digest, "reader": self.reader,
                "report": self.report, "written": packed, "plan": self.plan}

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        """The position :meth:`to_dict` wrote. Raises ``SnapshotVersionError`` for another version and
        ``SnapshotError`` for anything else it cannot read."""
        if not isinstance(data, dict):
            raise SnapshotError(f"a position is a JSON object, not {type(data).__name__}")
        if data.get("version") != VERSION:
            raise SnapshotVersionError(data.get("version"), VERSION)
        try:
            keys = array("Q")
            keys.frombytes(base64.b64decode(data["written"], validate=True))
            position = cls(data["format"], int(data["device"]), int(data["inode"]), int(data["offset"]),
                           int(data["lines"]), str(data["digest"]), data["reader"], data["report"], tuple(keys),
                           data["plan"])
        except (KeyError, TypeError, ValueError) as error:
            raise SnapshotError(f"a position that cannot be read ({error!r})") from None
        if position.format not in TRANSCRIPT_FORMATS or not isinstance(position.reader, dict) \
                or not isinstance(position.report, dict) or position.offset < 0 or position.lines < 0:
            raise SnapshotError("a position whose values are out of their range")
        return position


@dataclass(frozen=True)
class Resume:
    """A position accepted for the file as it is now: where the resumed replay starts and ends."""

    position: Position
    """The checkpoint resumed from."""
    digest: Digest
    """SHA-256 of the bytes before it, going on over the lines replayed now."""
    end: int
    """The file's size when it was accepted: the resumed replay reads up to there."""
    planned: Planned
    """The plan of the bytes from the position to ``end``."""


def same_start(handle: BufferedReader, position: Position) -> Digest | None:
    """The SHA-256 of the first ``position.offset`` bytes read from ``handle``, if it is the position's
    (else ``None``), going on from there."""
    digest = hashlib.sha256()
    buffer = bytearray(PIECE)
    view = memoryview(buffer)
    left = position.offset
    while left:
        size = handle.readinto(view[:min(PIECE, left)])
        if not size:
            return None
        digest.update(view[:size])
        left -= size
    return digest if digest.hexdigest() == position.digest else None


def identity(path: Path) -> tuple[int, int]:
    """The file's device and inode. Raises ``OSError``."""
    status = path.stat()
    return status.st_dev, status.st_ino
