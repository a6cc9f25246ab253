"""What the host keeps of each agent's current task, for its case packets.

Recording is cheap (the host runs it on every event): the event's text, redacted, with outputs
kept as their head and tail only, and — for a completed tool call — the tracker's own record of
it (outcome class, checks and their verdicts, failure fingerprint, what it may change). Nothing
here judges a call: the packet reads the tracker's judgement.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from obligations import CallRecord

KEEP_CHARS = 4096
"""Characters kept of an output's head and of its tail."""

Kind = Literal["user", "assistant", "tool"]


@dataclass(slots=True)
class Activity:
    """One entry of an agent's task: a message, or a tool call with its result."""

    seq: int
    """The host's tick when it was recorded (dispatch, for a tool call)."""
    kind: Kind
    text: str = ""
    call_id: str | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    """The call's arguments, redacted."""
    record: CallRecord | None = None
    """The tracker's record of the completed call (``None`` while it runs)."""
    error_message: str | None = None
    head: str = ""
    tail: str = ""
    clipped: bool = False

    @property
    def completed(self) -> int | None:
        """The tick of its result (``None`` while it runs)."""
        return self.record.completed if self.record is not None else None


@dataclass(slots=True)
class AgentActivity:
    """One agent's current task."""

    floor: int = 0
    """The tick its current task began (nothing before it enters a packet)."""
    entries: deque[Activity] = field(default_factory=deque)
    calls: dict[str, Activity] = field(default_factory=dict)

    def new_task(self, tick: int) -> None:
        """A new user task: older activity no longer counts."""
        self.floor = tick
        self.entries.clear()
        self.calls.clear()


def keep_output(row: Activity, output: str | None) -> None:
    """Keep an output's head and tail."""
    text = output or ""
    if len(text) <= 2 * KEEP_CHARS:
        row.head, row.tail = text, ""
        return
    row.head, row.tail, row.clipped = text[:KEEP_CHARS], text[-KEEP_CHARS:], True
