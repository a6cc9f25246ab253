"""Audit one recorded session: replay its transcript through a tracker and report what is left.

The report says, per obligation, which check failed, where (the transcript line), how many
times, the last re-run that reported success and why it did not count, and — for closed ones —
the witness. Items left unresolved when a later task began are reported too: the seed starts
each task afresh, but a check that failed and was never re-verified stays unverified.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ._config import TrackerConfig
from ._reports import ItemReport, SessionAudit, SkippedLine
from ._tracker import Tracker
from .errors import NotATranscript

_EXAMPLES = 20
"""Skipped lines named in a report (all are counted)."""


def audit(path: str | Path, config: TrackerConfig | None = None) -> SessionAudit:
    """Replay the transcript at ``path`` and report its obligations. Never raises for bad input:
    a file that is not a transcript, or cannot be read, comes back with ``error`` set.

    The report holds obligations only, so the replay keeps no escalation score."""
    from .sources import open_transcript

    events = 0
    try:
        transcript = open_transcript(path)
        tracker = Tracker(replace(config or TrackerConfig(), escalation=None))
        for event in transcript.events():
            tracker.handle(event)
            events += 1
    except NotATranscript as error:
        return SessionAudit(path=str(path), error=str(error))
    report = transcript.report
    items = tracker.all_items()
    return SessionAudit(
        path=str(path), format=transcript.format, session_id=report.session_id, events=events,
        tool_calls=report.tool_calls, lines=report.lines, skipped_lines=report.skipped_count,
        skipped_examples=tuple(SkippedLine(line=line, reason=reason) for line, reason in report.skipped[:_EXAMPLES]),
        read_error=report.error, unknown_results=tracker.lost_results,
        open=tuple(ItemReport.of(item) for item in items if item.state == "open"),
        earlier=tuple(ItemReport.of(item) for task in tracker.ended_tasks() for item in task.unresolved),
        resolved=tuple(ItemReport.of(item) for item in items if item.state == "resolved"),
    )
