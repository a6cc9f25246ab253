"""The loop every reader shares: lines in, events out, every problem counted in the report.

A reader turns one parsed entry into events. An entry of the wrong shape — the reader says so
with ``MalformedEntry``, or pydantic refuses a value — skips that line with a reason; it never
stops the stream. Anything else a reader raises is a bug in it, and is not hidden as a skipped
line. An I/O error ends the stream and is recorded in the report.

A replay can take a *checkpoint*: once every line has been read and its events taken, before the
reader's ``finish``, the caller is called back, and may record everything the replay knows there
to resume from it later. A file whose last line is still being written (no newline yet) gives
none: what its next replay must know is only what comes before that line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from orjson import JSONDecodeError, loads
from pydantic import ValidationError

from .._events._agent_spawned import AgentSpawned
from .._events._tool_dispatched import ToolDispatched
from .._events._union import EVENT_CLASSES, Event
from ..errors import MalformedEntry, NotATranscript
from ._lines import Line, LineSource, parse_line, too_long
from ._report import TranscriptReport

MALFORMED = (MalformedEntry, ValidationError)
"""What a malformed entry raises: the reader's own verdict, or pydantic refusing an event's value."""


class Reader(Protocol):
    """Turns one format's entries into events."""

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        """The events for one entry (raises one of ``MALFORMED`` for an entry of the wrong shape)."""

    def gap(self, line: int) -> None:
        """A line was skipped as unreadable."""

    def finish(self) -> list[Event]:
        """The events still due when the file ends."""


Select = Callable[[int, dict[str, Any]], bool]
PROGRESS_STEP = 4 * 1024 * 1024
"""Bytes read between two calls of a replay's ``progress``."""


class Written:
    """The entries already read, for ``once``: a 64-bit key of each entry's id and time, never the
    entry. ``stable`` keys are the same in every process (a hash of the bytes), so that a replay
    resumed in another process knows them; otherwise Python's own hash is used, which is faster."""

    def __init__(self, keys: Iterable[int] = (), *, stable: bool = False) -> None:
        self.keys: set[int] = set(keys)
        """The keys of the entries read."""
        self.stable = stable
        """Whether the keys are the same in every process."""


def read_events(path: Path, report: TranscriptReport, reader: Reader, select: Select | None = None,
                once: str | None = None, *, lines: LineSource | None = None, written: Written | None = None,
                checkpoint: Callable[[], None] | None = None,
                progress: Callable[[int], None] | None = None) -> Iterator[Event]:
    """Stream ``path`` through ``reader``. ``select`` says which entries to replay (the others are
    counted as abandoned). With ``once`` (the name of the entries' id field), an entry written again
    is read once (see :func:`written_before`; ``written`` holds the entries read before). ``lines``
    says which lines (default: all of them); ``checkpoint`` is called once every line has been
    replayed, if they all end with a newline (see the module docstring); ``progress`` is called
    with the bytes read, every :data:`PROGRESS_STEP` or so."""
    # One loop over the raw lines, not a generator of parsed ones: a transcript has tens of
    # thousands of lines, most making no event, and each layer of generator costs on every one.
    read = reader.entry
    written = written if written is not None else Written()
    seen, stable = written.keys, written.stable
    source = lines if lines is not None else LineSource(path)
    step = source.covered + PROGRESS_STEP
    try:
        for number, raw, ended in source:
            if not ended:
                checkpoint = None  # the last line, still being written: no position covers it
            if progress is not None and source.covered >= step:
                progress(source.covered)
                step = source.covered + PROGRESS_STEP
            report.lines = number
            # parse_line's common case inlined (a good line decoded as read); anything else, a line
            # orjson refuses or one that is no object, goes to parse_line for its entry or problem.
            try:
                entry = loads(raw) if raw is not None else None
            except JSONDecodeError:
                entry = None
            if type(entry) is not dict:
                line = parse_line(number, raw) if raw is not None else Line(number, None, too_long())
                entry = line.entry
                if entry is None:
                    if line.problem is not None:
                        report.skip(number, line.problem)
                        reader.gap(number)
                    continue
            if once is not None and written_before(entry, once, seen, stable=stable):
                report.duplicates += 1
                continue
            if select is not None and not select(number, entry):
                report.abandoned += 1
                continue
            report.entries += 1
            try:
                events = read(number, entry)
            except MALFORMED as error:
                report.skip(number, f"malformed {describe(entry)} entry: {_why(error)}")
                reader.gap(number)
                continue
            for event in events:  # most entries make none
                report.events += 1
                kind = type(event)
                if kind is ToolDispatched or kind is AgentSpawned or kind not in EVENT_CLASSES:
                    _count(event, report)
                yield event
        if checkpoint is not None:
            checkpoint()
        yield from counted(reader.finish(), report)
        report.complete = True
    except OSError as error:
        report.error = f"reading stopped after line {report.lines}: {error.strerror or error}"
        return
    if report.entries and not report.understood:
        raise NotATranscript(path, report.nothing_understood())


def written_before(entry: dict[str, Any], field: str, seen: set[int], *, stable: bool = False) -> bool:
    """Whether ``entry`` is one already read: the same id and the same time. Hosts write an entry
    again when a session is reopened or fed back to them, unchanged but for ambient fields (its
    ``cwd``, ``gitBranch``, ``version``, even its ``parentUuid``); a new entry always has a new
    id. Only a hash of the id and time of each entry is kept, never the entry (see :class:`Written`)."""
    ident = entry.get(field)
    if type(ident) is not str:
        return False
    time = entry.get("timestamp")
    time = time if type(time) is str else None
    key = _stable_key(ident, time) if stable else hash((ident, time))
    if key in seen:
        return True
    seen.add(key)
    return False


def _stable_key(ident: str, time: str | None) -> int:
    text = f"{ident}\x00{time}" if time is not None else f"{ident}\x01"
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def counted(events: Iterable[Event], report: TranscriptReport) -> Iterator[Event]:
    """Count ``events`` in ``report`` as they pass."""
    for event in events:
        report.events += 1
        _count(event, report)
        yield event


def _count(event: Event, report: TranscriptReport) -> None:
    """Count a tool call or a sub-agent in ``report``. (:func:`counted` calls this for every event;
    the replay's loop only for an event of one of those classes or of a class outside ``Event``:
    ``isinstance`` against a model class that is not the event's own is a call in Python,
    ``ABCMeta.__instancecheck__``.)"""
    if isinstance(event, ToolDispatched):
        report.tool_calls += 1
    elif isinstance(event, AgentSpawned):
        report.subagents += 1


def _why(error: MalformedEntry | ValidationError) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "a value"
        return f"{field}: {first['msg'].lower()}"
    return str(error)


def describe(entry: dict[str, Any]) -> str:
    """A short name for an entry's type, for reasons and counts."""
    kind = entry.get("type")
    if not isinstance(kind, str):
        return "(untyped)"
    return kind[:40]
