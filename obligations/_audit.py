"""Audit one recorded session: replay its transcript through a tracker and report what is left.

The report says, per obligation, which check failed, where (the transcript line), how many
times, by whom (a worker's failure is its root's obligation), the last re-run that reported
success and why it did not count, and — for closed ones — the witness, which may be a wider run
covering the failed one. Items left unresolved when a later task began are reported too: the
seed starts each task afresh, but a check that failed and was never re-verified stays unverified
— unless a genuine pass in a later task verified it ("resolved later"). A check left unresolved
by several tasks is one row (its latest item, with every failure counted); one still open in the
current task is reported there only. Items resolved in tasks that have ended are reported with
the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ._config import TrackerConfig
from ._reports import SessionAudit, SkippedLine
from ._tracker import Tracker
from .errors import NotATranscript

_EXAMPLES = 20
"""Skipped lines named in a report (all are counted)."""


def audit(path: str | Path, config: TrackerConfig | None = None, *,
          progress: Callable[[int], None] | None = None) -> SessionAudit:
    """Replay the transcript at ``path`` and report its obligations. Never raises for bad input:
    a file that is not a transcript, or cannot be read, comes back with ``error`` set.
    ``progress``, if given, is called with the bytes read so far, every few megabytes.

    The report holds obligations only, so the replay keeps no escalation score."""
    from .sources import open_transcript

    events = 0
    try:
        transcript = open_transcript(path)
        tracker = Tracker(replace(config or TrackerConfig(), escalation=None))
        for event in transcript.events(progress=progress):
            tracker.handle(event)
            events += 1
    except NotATranscript as error:
        return SessionAudit(path=str(path), error=f"{error.WHAT}: {error.reason}")
    report = transcript.report
    rows = tracker.report()
    return SessionAudit(
        path=str(path), format=transcript.format, session_id=report.session_id, events=events,
        tool_calls=report.tool_calls, lines=report.lines, skipped_lines=report.skipped_count,
        skipped_examples=tuple(SkippedLine(line=line, reason=reason) for line, reason in report.skipped[:_EXAMPLES]),
        read_error=report.error, unknown_results=tracker.lost_results, without_exit_code=report.no_exit_code,
        abandoned=report.abandoned, duplicates=report.duplicates, open=rows.open, earlier=rows.earlier,
        resolved=rows.resolved,
    )
