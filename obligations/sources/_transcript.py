"""A transcript file of a known format, read as a stream of events."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from .._events._union import Event
from .._vocabulary import TranscriptFormat
from ..errors import UnknownFormat
from ._detect import FORMATS, sniff
from ._report import TranscriptReport


class Transcript:
    """One transcript file. ``events()`` streams it; ``report`` says what the last pass found."""

    def __init__(self, path: str | os.PathLike[str], format: TranscriptFormat) -> None:
        if format not in FORMATS:
            raise UnknownFormat(f"unknown transcript format {format!r}; expected one of {', '.join(FORMATS)}")
        self.path = Path(path)
        """The file."""
        self.format: TranscriptFormat = format
        """The host whose format it is (``TranscriptFormat``)."""
        self.report = TranscriptReport(str(self.path), format)
        """What reading found; complete once ``events()`` has been consumed to its end."""

    def events(self) -> Iterator[Event]:
        """The transcript's events in order, read line by line (never the whole file at once).

        Each call reads the file afresh and starts a new ``report``. It never raises for the
        file's content: corrupt lines are skipped and counted, and a read failure ends the stream
        with ``report.error`` set."""
        self.report = report = TranscriptReport(str(self.path), self.format)
        # Each reader is imported only for a file of its format: a hook reads one file per process.
        if self.format == "claude-code":
            from ._claude import ClaudeReader
            from ._claude_branch import plan
            from ._replay import read_events

            return read_events(self.path, report, ClaudeReader(self.path, report), plan(self.path), once="uuid")
        if self.format == "codex":
            from ._codex import CodexReader
            from ._replay import read_events

            return read_events(self.path, report, CodexReader(self.path, report))
        if self.format == "copilot":
            from . import _copilot
            from ._replay import read_events

            reader = _copilot.CopilotReader(self.path, report)
            return read_events(self.path, report, reader, _copilot.plan(self.path), once="id")
        if self.format == "gemini":
            from . import _gemini

            return _gemini.read(self.path, report)
        if self.format == "qwen":
            from . import _qwen
            from ._replay import read_events

            qwen = _qwen.QwenReader(self.path, report)
            return read_events(self.path, report, qwen, _qwen.plan(self.path), once="uuid")
        if self.format == "droid":
            from ._droid import DroidReader
            from ._replay import read_events

            return read_events(self.path, report, DroidReader(self.path, report), once="id")
        from . import _pi

        return _pi.read(self.path, report)

    def __iter__(self) -> Iterator[Event]:
        return self.events()

    def __repr__(self) -> str:
        return f"Transcript({str(self.path)!r}, format={self.format!r})"


def open_transcript(path: str | os.PathLike[str]) -> Transcript:
    """The transcript at ``path``, its format judged from its first lines (not its name).

    Raises ``NotATranscript`` (an ``ObligationsError`` and a ``ValueError``) with the reason when it
    is not one: a missing, unreadable, empty or binary file, a directory, or JSON of another shape."""
    location = Path(path)
    return Transcript(location, sniff(location))

