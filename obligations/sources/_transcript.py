"""A transcript file of a known format, read as a stream of events — whole, or resumed where an
earlier replay stopped."""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from .._events._union import Event
from .._vocabulary import TranscriptFormat
from ..errors import Rewound, SnapshotError, UnknownFormat
from ._detect import FORMATS, sniff
from ._lines import LineSource
from ._plans import NOTHING, Planned
from ._position import Position, Resume, same_start
from ._replay import Written, read_events
from ._report import TranscriptReport
from ._resume import restore, state_of

Checkpoint = Callable[[Position], None]
"""Called with the replay's position once every whole line has been replayed (see ``events``)."""


class _Format(NamedTuple):
    """How one format is read: its module (imported only for a file of its format: a hook reads one
    file per process), its reader, whether it plans, and the field that names an entry written twice."""

    module: str
    reader: str
    planned: bool
    once: str | None


_FORMATS: dict[str, _Format] = {
    "claude-code": _Format("_claude", "ClaudeReader", True, "uuid"),
    "codex": _Format("_codex", "CodexReader", False, None),
    "copilot": _Format("_copilot", "CopilotReader", True, "id"),
    "gemini": _Format("_gemini", "GeminiReader", True, None),
    "pi": _Format("_pi", "PiReader", True, None),
    "qwen": _Format("_qwen", "QwenReader", True, "uuid"),
    "droid": _Format("_droid", "DroidReader", False, "id"),
}
_PLANS = {"claude-code": "_claude_branch"}
"""A format whose plan lives in a module of its own."""


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
        self.refused: str | None = None
        """Why the last :meth:`resume` would not resume (``None`` once it did)."""

    def events(self, *, start: Resume | None = None, checkpoint: Checkpoint | None = None,
               progress: Callable[[int], None] | None = None) -> Iterator[Event]:
        """The transcript's events in order, read line by line (never the whole file at once), up to
        the end the file has now.

        Each call reads the file afresh and starts a new ``report`` — from the position ``start``
        (:meth:`resume`) on, with what was known there, if given. ``checkpoint`` is called with a
        :class:`Position` once every whole line is replayed, before the reader's last events (not
        when the last line is still being written, nor for a format read whole); ``progress`` with
        the bytes read, now and then. It never raises for the file's content: corrupt lines are
        skipped and counted, and a read failure ends the stream with ``report.error`` set."""
        self.report = report = TranscriptReport(str(self.path), self.format)
        kind = _FORMATS[self.format]
        module = importlib.import_module(f"{__package__}.{kind.module}")
        if self.format == "gemini" and module.one_document(self.path):
            return module.read_document(self.path, report)  # type: ignore[no-any-return]
        if start is not None:
            try:
                self.report = report = TranscriptReport.from_dict(start.position.report, str(self.path))
            except (KeyError, TypeError, ValueError) as error:
                raise SnapshotError(f"a position whose report cannot be restored ({error!r})") from None
        reader = getattr(module, kind.reader)(self.path, report)
        stable = start is not None or checkpoint is not None
        if start is None:
            try:
                end = self.path.stat().st_size
                planned = self._plan(end=end)
            except OSError as error:
                report.error = f"reading stopped: {error.strerror or error}"
                return iter(())
            lines = LineSource(self.path, end=end, digest=hashlib.sha256() if checkpoint is not None else None)
            written = Written(stable=stable)
        else:
            position = start.position
            restore(reader, position.reader)
            lines = LineSource(self.path, start=position.offset, number=position.lines, end=start.end,
                               digest=start.digest, identity=(position.device, position.inode))
            written = Written(position.written, stable=True)
            planned = start.planned
        taken = None if checkpoint is None else self._checkpoint(checkpoint, lines, reader, written, planned)
        return read_events(self.path, report, reader, planned.select, kind.once, lines=lines, written=written,
                           checkpoint=taken, progress=progress)

    def resume(self, position: Position) -> Resume | None:
        """The position to resume a replay of this file from, if ``position`` still holds for it: the
        same file (device and inode), whose first bytes are still those replayed (their SHA-256), and
        whose lines since do not withdraw entries replayed before them (a rewind that reaches back).
        ``None`` otherwise, with the reason in :attr:`refused`: the file is to be replayed whole."""
        self.refused = None
        reason = self._unresumable(position)
        if isinstance(reason, str):
            self.refused = reason
            return None
        digest, end = reason
        try:
            planned = self._plan(start=position.offset, number=position.lines, end=end, prior=position.plan)
        except Rewound as rewound:
            self.refused = f"a rewind reaches back into what was replayed ({rewound})"
            return None
        except OSError as error:
            self.refused = f"it cannot be read ({error.strerror or error})"
            return None
        return Resume(position, digest, end, planned)

    def _unresumable(self, position: Position) -> str | tuple[Any, int]:
        """Why ``position`` does not hold for the file, or the hash of the bytes it covers and the file's size."""
        if position.format != self.format:
            return f"the position is of a {position.format} replay, the file is {self.format}"
        if self.format == "gemini":
            from ._gemini import one_document

            if one_document(self.path):
                return "a one-document session is read whole"
        try:
            with self.path.open("rb") as handle:
                status = os.fstat(handle.fileno())
                if (status.st_dev, status.st_ino) != (position.device, position.inode):
                    return "it is another file now (another device or inode)"
                if status.st_size < position.offset:
                    return "it is shorter than what was replayed (truncated or rewritten)"
                digest = same_start(handle, position)
        except OSError as error:
            return f"it cannot be read ({error.strerror or error})"
        if digest is None:
            return "its first bytes are not those replayed (rewritten)"
        return digest, status.st_size

    def _plan(self, *, start: int = 0, number: int = 0, end: int | None = None, prior: Any = None) -> Planned:
        kind = _FORMATS[self.format]
        if not kind.planned:
            return NOTHING
        module = importlib.import_module(f"{__package__}.{_PLANS.get(self.format, kind.module)}")
        planned: Planned = module.plan(self.path, start=start, number=number, end=end, prior=prior)
        return planned

    def _checkpoint(self, checkpoint: Checkpoint, lines: LineSource, reader: Any, written: Written,
                    planned: Planned) -> Callable[[], None]:
        def taken() -> None:
            digest = lines.digest
            device, inode = lines.identity or (0, 0)
            if digest is None:
                return
            checkpoint(Position(self.format, device, inode, lines.covered, lines.covered_lines, digest.hexdigest(),
                                state_of(reader), self.report.to_dict(), tuple(sorted(written.keys)), planned.state))

        return taken

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
