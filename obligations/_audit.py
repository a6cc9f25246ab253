"""Audit one recorded session: replay its transcript through a tracker and report what is left.

The report says, per obligation, which check failed, where (the transcript line), how many
times, the last re-run that reported success and why it did not count, and — for closed ones —
the witness. Items left unresolved when a later task began are reported too: the seed starts
each task afresh, but a check that failed and was never re-verified stays unverified.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ._config import TrackerConfig
from ._items import CLAIM, OPEN, RESOLVED, Item
from ._tracker import Tracker


@dataclass
class SessionAudit:
    """What an audit found in one transcript."""

    path: str
    """The transcript audited."""
    format: str | None = None
    """``claude-code``, ``codex`` or ``pi``; ``None`` when the file could not be read as one."""
    error: str | None = None
    """Why the file could not be audited, if it could not."""
    session_id: str | None = None
    """The host's session id, when the transcript has one."""
    events: int = 0
    """Events replayed."""
    tool_calls: int = 0
    """Tool calls dispatched."""
    lines: int = 0
    """Lines read."""
    skipped_lines: int = 0
    """Corrupt or truncated lines skipped."""
    skipped_examples: list[tuple[int, str]] = field(default_factory=list)
    """Some of them: (line number, reason)."""
    read_error: str | None = None
    """Why reading stopped before the end of the file, if it did: the report covers only the
    lines read, and an obligation it shows open may have been closed further on."""
    open: list[dict[str, Any]] = field(default_factory=list)
    """Obligations open when the session ended."""
    earlier: list[dict[str, Any]] = field(default_factory=list)
    """Obligations left unresolved when a later task began."""
    resolved: list[dict[str, Any]] = field(default_factory=list)
    """Obligations closed by a witness."""

    @property
    def unresolved(self) -> int:
        """How many obligations were never re-verified."""
        return len(self.open) + len(self.earlier)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        data = asdict(self)
        data["skipped_examples"] = [{"line": line, "reason": reason} for line, reason in self.skipped_examples]
        data["unresolved"] = self.unresolved
        return data


def audit(path: str | Path, config: TrackerConfig | None = None) -> SessionAudit:
    """Replay the transcript at ``path`` and report its obligations. Never raises for bad input:
    a file that is not a transcript, or cannot be read, comes back with ``error`` set."""
    from .sources import NotATranscript, open_transcript

    result = SessionAudit(str(path))
    try:
        transcript = open_transcript(path)
        result.format = transcript.format
        tracker = Tracker(config)
        for event in transcript.events():
            tracker.handle(event)
            result.events += 1
    except NotATranscript as error:
        result.error = str(error)
        return result
    report = transcript.report
    result.session_id = report.session_id
    result.tool_calls = report.tool_calls
    result.lines = report.lines
    result.skipped_lines = report.skipped_count
    result.read_error = report.error
    result.skipped_examples = [(line, reason) for line, reason in report.skipped][:20]
    for item in tracker.all_items():
        (result.open if item.state == OPEN else result.resolved).append(_describe(item))
    for task in tracker.ended:
        for data in task["unresolved"]:
            result.earlier.append(_describe(Item.from_dict(data)))
    return result


def _describe(item: Item) -> dict[str, Any]:
    """An item as a report row: the facts a person needs, with transcript locations."""
    failures = [t for t in item.history if t.change in ("opened", "failed-again")]
    first = item.history[0] if item.history and item.history[0].change == "opened" else None
    witness = next((t for t in reversed(item.history) if t.change == "resolved"), None)
    last = item.history[-1] if item.history else None
    reopened = last if last is not None and last.change == "reopened" and item.state == OPEN else None
    return {
        "id": item.id,
        "kind": item.kind,
        "check": item.check,
        "check_kind": item.check_kind,
        "claim_id": item.claim_id if item.kind == CLAIM else None,
        "cwd": item.cwd,
        "state": item.state,
        "summary": item.summary,
        "failures": item.repeat_count,
        "first_failed_at": first.origin if first else None,
        "last_failed_at": failures[-1].origin if failures else None,
        "last_attempt": asdict(item.last_attempt) if item.last_attempt is not None else None,
        "witness": {"call_id": witness.call_id, "at": witness.origin} if witness and item.state == RESOLVED
        else None,
        "reopened": {"call_id": reopened.call_id, "at": reopened.origin, "detail": reopened.detail}
        if reopened is not None else None,
        "disposition": item.disposition,
        "correction": item.correction,
        "closes_by": item.closes_by,
    }
