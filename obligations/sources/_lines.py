"""Reading a JSON Lines file one line at a time, never the whole file.

Each physical line comes back numbered (from 1), either as a parsed JSON object or with the
reason it cannot be one. Memory is bounded by the longest line accepted (``MAX_LINE_BYTES``);
a longer line is drained in chunks and reported, not held.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import orjson

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line parsed. Hosts write pasted images as base64 inside a line, so this is generous."""

_DRAIN_CHUNK = 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class Line(NamedTuple):
    """One physical line of the file (a tuple: one is made for every line read, and a tuple is made
    fastest)."""

    number: int
    """Its line number, counting from 1."""
    entry: dict[str, Any] | None
    """The JSON object it holds (``None`` for a blank or unreadable line)."""
    problem: str | None = None
    """Why it is unreadable (``None`` for a good or blank line)."""


def read_lines(path: Path, max_bytes: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """The lines of ``path`` in order. Raises ``OSError`` only when the file cannot be read."""
    for number, raw in raw_lines(path, max_bytes):
        if raw is None:
            yield Line(number, None, too_long(max_bytes))
        else:
            yield parse_line(number, raw)


def too_long(max_bytes: int = MAX_LINE_BYTES) -> str:
    """The problem of a line longer than ``max_bytes``."""
    return f"longer than {max_bytes} bytes; not read"


def raw_lines(path: Path, max_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, bytes | None]]:
    """Each line's bytes, numbered; ``None`` for a line longer than ``max_bytes`` (drained, not kept)."""
    with path.open("rb") as handle:
        number = 0
        while True:
            raw = handle.readline(max_bytes + 1)
            if not raw:
                return
            number += 1
            if len(raw) > max_bytes and not raw.endswith(b"\n"):
                _drain(handle)
                yield number, None
                continue
            if number == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM):]
            yield number, raw


def parse_line(number: int, raw: bytes) -> Line:
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


def _parse_stripped(number: int, raw: bytes) -> Line:
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


def _parse_carefully(number: int, data: bytes, ended: bool) -> Line:
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


def _drain(handle: Any) -> None:
    while True:
        chunk = handle.readline(_DRAIN_CHUNK)
        if not chunk or chunk.endswith(b"\n"):
            return


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool) or value is None:
        return "literal"
    return "number"
