"""Reading a JSON Lines file one line at a time, never the whole file.

Each physical line comes back numbered (from 1), either as a parsed JSON object or with the
reason it cannot be one. Memory is bounded by the longest line accepted (``MAX_LINE_BYTES``): a
line is read in pieces of at most :data:`PIECE` bytes, a long one gathered in one buffer (never
copied), and a longer one drained piece by piece and reported, not held. :class:`LineSource`
reads a byte range of the file (a replay that resumes where an earlier one stopped) and keeps a
hash of the whole lines it has read.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple, Protocol

import orjson

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line parsed. Hosts write pasted images as base64 inside a line, so this is generous."""
PIECE = 1024 * 1024
"""Bytes read at a time: nearly every line fits in one piece; a longer one is gathered from several."""

_BOM = b"\xef\xbb\xbf"


class Digest(Protocol):
    """A running hash (``hashlib``'s objects)."""

    def update(self, data: bytes | bytearray | memoryview, /) -> None: ...
    def copy(self) -> Digest: ...
    def hexdigest(self) -> str: ...


class LineSource:
    """The lines of ``path`` from byte ``start`` (where line ``number + 1`` begins) up to byte
    ``end`` (default: the end of the file), as ``(number, raw, ended)``: ``raw`` is the line's bytes
    (``None`` for a line longer than ``max_bytes``, drained, not kept), ``ended`` says whether it
    ends with a newline (only the last line read can be without one: it is still being written,
    or ``end`` cut it).

    Once the lines are read (or the reading stops), :attr:`covered` and :attr:`covered_lines` say how
    far the whole lines read reach (:attr:`covered` also every 1,024 lines meanwhile, for progress),
    and ``digest`` (if given: a hash of the bytes before ``start``) has taken in their bytes: it is
    the hash of the first :attr:`covered` bytes of the file."""

    def __init__(self, path: Path, *, start: int = 0, number: int = 0, end: int | None = None,
                 max_bytes: int = MAX_LINE_BYTES, digest: Digest | None = None,
                 identity: tuple[int, int] | None = None) -> None:
        self.path = path
        self.identity = identity
        """The file's device and inode: those it must have (``OSError`` otherwise), or those it had."""
        self.end = end
        self.max_bytes = max_bytes
        self.covered = start
        """Bytes of the file before the line being read: whole lines only."""
        self.covered_lines = number
        """Lines in them."""
        self.digest = digest
        """The hash of the first :attr:`covered` bytes (``None``: no hash is kept)."""

    def __iter__(self) -> Iterator[tuple[int, bytes | bytearray | None, bool]]:
        # One generator (not one delegating to another), with its counts in locals, stored on the
        # object every 1,024 lines and at the end: this runs once per line of every transcript.
        with self.path.open("rb") as handle:
            status = os.fstat(handle.fileno())
            found = (status.st_dev, status.st_ino)
            if self.identity is not None and found != self.identity:
                raise OSError(errno.ESTALE, "the file was replaced while it was being read")
            self.identity = found
            if self.covered:
                handle.seek(self.covered)
            readline = handle.readline
            end, digest = self.end, self.digest
            offset = covered = self.covered
            number = lines = self.covered_lines
            piece = min(PIECE, self.max_bytes + 1)  # a line longer than that goes the long way, to be drained
            try:
                while True:
                    limit = piece if end is None else min(piece, end - offset)
                    if limit <= 0:
                        return
                    raw: bytes | bytearray | None = readline(limit)
                    if not raw:
                        return
                    number += 1
                    size = len(raw)
                    if raw[-1] == 10:  # b"\n": the common case
                        ended = True
                        if digest is not None:
                            digest.update(raw)
                    elif size == limit and (end is None or offset + size < end):
                        raw, size, ended, line_digest = self._long(handle, raw, offset, digest)
                        digest = line_digest if ended else digest
                    else:
                        ended = False
                    offset += size
                    if ended:
                        covered, lines = offset, number
                        if not number & 1023:
                            self.covered = covered
                    if number == 1 and raw is not None and raw.startswith(_BOM):
                        raw = raw[len(_BOM):]
                    yield number, raw, ended
            finally:
                self.covered, self.covered_lines, self.digest = covered, lines, digest

    def _long(self, handle: IO[bytes], first: bytes | bytearray, offset: int,
              digest: Digest | None) -> tuple[bytearray | None, int, bool, Digest | None]:
        """The rest of a line longer than a piece: gathered up to ``max_bytes``, drained past it.
        Returns its bytes (``None`` when drained), its size, whether it ended, and the hash with its
        bytes added (a copy: the line's bytes count only once it has ended)."""
        digest = digest.copy() if digest is not None else None
        if digest is not None:
            digest.update(first)
        kept: bytearray | None = bytearray(first) if len(first) <= self.max_bytes else None
        size = len(first)
        while True:
            limit = PIECE if self.end is None else min(PIECE, self.end - offset - size)
            piece = handle.readline(limit) if limit > 0 else b""
            if not piece:
                return kept, size, False, digest
            size += len(piece)
            if digest is not None:
                digest.update(piece)
            if kept is not None:
                if len(kept) + len(piece) > self.max_bytes + 1:  # its newline aside, longer than the most
                    kept = None  # too long to parse: drained, never held
                else:
                    kept += piece
            if piece[-1] == 10:
                return kept, size, True, digest


class Line(NamedTuple):
    """One physical line of the file (a tuple: one is made for every line read, and a tuple is made
    fastest)."""

    number: int
    """Its line number, counting from 1."""
    entry: dict[str, Any] | None
    """The JSON object it holds (``None`` for a blank or unreadable line)."""
    problem: str | None = None
    """Why it is unreadable (``None`` for a good or blank line)."""


def read_lines(path: Path, max_bytes: int = MAX_LINE_BYTES, *, end: int | None = None,
               start: int = 0, number: int = 0) -> Iterator[Line]:
    """The lines of ``path`` in order (a byte range, as for :class:`LineSource`). Raises ``OSError``
    only when the file cannot be read."""
    for found, raw in raw_lines(path, max_bytes, end=end, start=start, number=number):
        if raw is None:
            yield Line(found, None, too_long(max_bytes))
        else:
            yield parse_line(found, raw)


def too_long(max_bytes: int = MAX_LINE_BYTES) -> str:
    """The problem of a line longer than ``max_bytes``."""
    return f"longer than {max_bytes} bytes; not read"


def raw_lines(path: Path, max_bytes: int = MAX_LINE_BYTES, *, end: int | None = None,
              start: int = 0, number: int = 0) -> Iterator[tuple[int, bytes | bytearray | None]]:
    """Each line's bytes, numbered; ``None`` for a line longer than ``max_bytes`` (drained, not kept).
    ``start``, ``number`` and ``end`` as for :class:`LineSource`."""
    for found, raw, _ in LineSource(path, start=start, number=number, end=end, max_bytes=max_bytes):
        yield found, raw


def parse_line(number: int, raw: bytes | bytearray) -> Line:
    """Parse one line's bytes (with or without its newline)."""
    # orjson decodes a line about three times faster than the standard library: for large
    # transcripts decoding is most of the work. It skips the whitespace JSON allows around a
    # value, so a good line is decoded as read, without a stripped copy; what it refuses (a blank
    # line, other whitespace, what hosts may write and orjson does not) goes the careful way.
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _parse_stripped(number, raw)
    if not isinstance(value, dict):
        return Line(number, None, f"not a JSON object (a JSON {_kind(value)})")
    return Line(number, value)


def _parse_stripped(number: int, raw: bytes | bytearray) -> Line:
    """A line orjson refused as read: blank, or with other whitespace around it, or for the careful way."""
    data = raw.strip()
    if not data:
        return Line(number, None)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        # The standard library accepts what orjson does not (escaped lone surrogates).
        return _parse_carefully(number, data, raw.endswith(b"\n"))
    if not isinstance(value, dict):
        return Line(number, None, f"not a JSON object (a JSON {_kind(value)})")
    return Line(number, value)


def _parse_carefully(number: int, data: bytes | bytearray, ended: bool) -> Line:
    """The standard library's reading of a line, with a precise reason when it fails."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        # The hosts write UTF-8 only, so a bad byte means the line itself is damaged.
        return Line(number, None, f"not valid UTF-8 (byte {error.start + 1})")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        if not ended:
            return Line(number, None, "truncated: the last line ends without a newline and its JSON is incomplete")
        return Line(number, None, f"not valid JSON ({error.msg} at column {error.colno})")
    except RecursionError:
        return Line(number, None, "JSON nested too deeply")
    if not isinstance(value, dict):
        return Line(number, None, f"not a JSON object (a JSON {_kind(value)})")
    return Line(number, value)


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool) or value is None:
        return "literal"
    return "number"
