"""What reading a transcript found: lines, skips, unknown entries, calls, and the session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._vocabulary import TranscriptFormat

MAX_EXAMPLES = 100
"""Skipped lines kept as examples; all of them are counted."""
MAX_UNKNOWN_KINDS = 100
"""Distinct unknown entry types named; further ones are counted under ``OTHER``."""
OTHER = "(other)"


@dataclass
class TranscriptReport:
    """Filled in while ``Transcript.events()`` is consumed; complete once it is exhausted."""

    path: str
    """The file read."""
    format: TranscriptFormat
    """The host whose format it is (``TranscriptFormat``)."""
    lines: int = 0
    """Physical lines read (blank ones included)."""
    events: int = 0
    """Events produced."""
    tool_calls: int = 0
    """Tool calls dispatched (``ToolDispatched`` events)."""
    entries: int = 0
    """Entries handed to the reader (not skipped, duplicate or abandoned)."""
    duplicates: int = 0
    """Entries written again by the host (the same id and time), read once."""
    skipped_count: int = 0
    """Lines skipped as corrupt, truncated or malformed."""
    skipped: list[tuple[int, str]] = field(default_factory=list)
    """Examples of them, in order: (line number, reason); at most ``MAX_EXAMPLES``."""
    unknown_types: dict[str, int] = field(default_factory=dict)
    """Entries of types this reader does not know, by type: ignored, and counted here."""
    exit_codes: int = 0
    """Shell results whose exit code was recovered."""
    no_exit_code: int = 0
    """Shell results without a recoverable exit code (never a pass)."""
    unfinished_calls: int = 0
    """Calls dispatched whose result never arrived (or is still running) when the file ended."""
    unanswered_calls: int = 0
    """Of those, the calls the file holds no result of at all (not a command reported as still
    running): a file that lags its host ends this way, before the host has written the results."""
    unanswered_ids: list[str] = field(default_factory=list)
    """Their call ids (the first ``MAX_EXAMPLES``)."""
    abandoned: int = 0
    """Entries off the active branch (a Pi tree's, or a rewound Claude Code session's), not replayed."""
    never_ran: int = 0
    """Tool calls that never ran (in a Pi message that ended ``aborted`` or ``error``), not replayed."""
    subagents: int = 0
    """Sub-agents announced."""
    session_id: str | None = None
    """The host's session id, when the transcript has one."""
    cwd: str | None = None
    """The session's working directory, when the transcript has one."""
    complete: bool = False
    """The file was read to its end."""
    error: str | None = None
    """Why reading stopped early, if it did (an I/O error)."""

    @property
    def unknown_count(self) -> int:
        """Entries of unknown types, in all."""
        return sum(self.unknown_types.values())

    @property
    def understood(self) -> int:
        """Entries the reader knew (those of known types)."""
        return max(self.entries - self.unknown_count, 0)

    def nothing_understood(self) -> str:
        """Why a file none of whose entries the reader knew is no transcript of its format."""
        kinds = sorted(self.unknown_types, key=lambda kind: -self.unknown_types[kind])
        shown = ", ".join(kinds[:5]) + (", …" if len(kinds) > 5 else "")
        return (f"none of its {self.entries} entries is of a kind the {self.format} reader knows "
                f"(their types: {shown})")

    def unanswered(self, call_ids: list[str]) -> None:
        """Record the calls left without any result when the file ends."""
        self.unanswered_calls = len(call_ids)
        self.unanswered_ids = call_ids[:MAX_EXAMPLES]

    def skip(self, line: int, reason: str) -> None:
        """Count a skipped line, keeping the first ``MAX_EXAMPLES`` as examples."""
        self.skipped_count += 1
        if len(self.skipped) < MAX_EXAMPLES:
            self.skipped.append((line, reason))

    def unknown(self, kind: str) -> None:
        """Count an entry of an unknown type."""
        if kind not in self.unknown_types and len(self.unknown_types) >= MAX_UNKNOWN_KINDS:
            kind = OTHER
        self.unknown_types[kind] = self.unknown_types.get(kind, 0) + 1

    def summary(self) -> str:
        """One line for people."""
        parts = [f"{self.format}: {self.lines} lines, {self.events} events, {self.tool_calls} tool calls"]
        if self.skipped_count:
            where = ", ".join(str(line) for line, _ in self.skipped[:5])
            more = "…" if self.skipped_count > 5 else ""
            parts.append(f"{self.skipped_count} skipped (line {where}{more})")
        if self.unknown_types:
            parts.append(f"{self.unknown_count} entries of unknown types ignored")
        if self.duplicates:
            parts.append(f"{self.duplicates} entries written twice, read once")
        if self.abandoned:
            parts.append(f"{self.abandoned} entries on abandoned branches")
        if self.never_ran:
            parts.append(f"{self.never_ran} tool calls that never ran")
        if self.no_exit_code:
            parts.append(f"{self.no_exit_code} shell results without an exit code")
        if self.error:
            parts.append(f"stopped early: {self.error}")
        return "; ".join(parts)

    @classmethod
    def from_dict(cls, data: dict[str, Any], path: str | None = None) -> TranscriptReport:
        """The report :meth:`to_dict` wrote (of the file now at ``path``, if given). Raises
        ``KeyError``, ``TypeError`` or ``ValueError`` for data it did not write."""
        fields = {name: data[name] for name in cls.__dataclass_fields__ if name != "skipped"}
        fields["skipped"] = [(int(row["line"]), str(row["reason"])) for row in data["skipped"]]
        fields["unknown_types"] = {str(kind): int(count) for kind, count in data["unknown_types"].items()}
        fields["unanswered_ids"] = list(data["unanswered_ids"])
        if path is not None:
            fields["path"] = path
        return cls(**fields)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "path": self.path, "format": self.format, "lines": self.lines, "events": self.events,
            "tool_calls": self.tool_calls, "entries": self.entries,
            "duplicates": self.duplicates, "skipped_count": self.skipped_count,
            "skipped": [{"line": line, "reason": reason} for line, reason in self.skipped],
            "unknown_types": dict(self.unknown_types), "exit_codes": self.exit_codes,
            "no_exit_code": self.no_exit_code, "unfinished_calls": self.unfinished_calls,
            "unanswered_calls": self.unanswered_calls, "unanswered_ids": list(self.unanswered_ids),
            "abandoned": self.abandoned, "never_ran": self.never_ran, "subagents": self.subagents,
            "session_id": self.session_id,
            "cwd": self.cwd, "complete": self.complete, "error": self.error,
        }
