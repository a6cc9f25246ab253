"""The loop every reader shares: lines in, events out, every problem counted in the report.

A reader turns one parsed entry into events. An entry of the wrong shape — the reader says so
with ``MalformedEntry``, or pydantic refuses a value — skips that line with a reason; it never
stops the stream. Anything else a reader raises is a bug in it, and is not hidden as a skipped
line. An I/O error ends the stream and is recorded in the report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError

from .._events._agent_spawned import AgentSpawned
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from ..errors import MalformedEntry
from ._lines import read_lines
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


def replay(path: Path, report: TranscriptReport, reader: Reader, select: Select | None = None,
           last_line: int | None = None) -> Iterator[Event]:
    """Stream ``path`` through ``reader``. ``select`` says which entries to replay (the others are
    counted as abandoned); lines after ``last_line`` are not read."""
    try:
        for line in read_lines(path):
            if last_line is not None and line.number > last_line:
                break  # appended after the file was planned; the plan does not cover it
            report.lines = line.number
            if line.problem is not None:
                report.skip(line.number, line.problem)
                reader.gap(line.number)
                continue
            if line.entry is None:
                continue
            if select is not None and not select(line.number, line.entry):
                report.abandoned += 1
                continue
            try:
                events = reader.entry(line.number, line.entry)
            except MALFORMED as error:
                report.skip(line.number, f"malformed {describe(line.entry)} entry: {_why(error)}")
                reader.gap(line.number)
                continue
            if events:  # most entries make none
                yield from counted(events, report)
        yield from counted(reader.finish(), report)
        report.complete = True
    except OSError as error:
        report.error = f"reading stopped after line {report.lines}: {error.strerror or error}"


def counted(events: Iterable[Event], report: TranscriptReport) -> Iterator[Event]:
    """Count ``events`` in ``report`` as they pass."""
    for event in events:
        report.events += 1
        if isinstance(event, ToolDispatched):
            report.tool_calls += 1
        elif isinstance(event, AgentSpawned):
            report.subagents += 1
        yield event


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
