"""The records a tracker keeps: agents, workspaces, dispatched calls, and answers it gives."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ._calls import Call
from ._escalation import Escalation


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The answer to a claim registration, correction or disposition."""

    accepted: bool
    """Whether it was recorded."""
    message: str
    """What happened, or why it was refused."""
    item_id: str | None = None
    """The item concerned."""


@dataclass(frozen=True, slots=True)
class ReviewTicket:
    """Taken when a review starts; a review that raced a workspace change is stale."""

    agent_id: str
    """The agent the review is for."""
    root: str
    """Its root agent, whose workspace the review looked at."""
    epoch: int
    """The workspace epoch when the review began."""
    tick: int
    """The tracker's tick when the review began."""


@dataclass(slots=True)
class Agent:
    id: str
    parent: str | None
    role: str
    root: str
    task: int = 0
    escalation: Escalation = field(default_factory=Escalation)
    reminders_used: int = 0
    notice_due: bool = False
    evidence: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    life: int = 0
    """Which agent of this name: a disposed agent's name may be used again by a new one."""


@dataclass(slots=True)
class Scope:
    """The workspace as one root agent's tree sees it."""

    epoch: int = 0
    structural: int = 0
    inflight: dict[str, int] = field(default_factory=dict)
    """Potential mutations dispatched and not completed, by call id (a host may reuse an id)."""
    recent: list[tuple[int, str]] = field(default_factory=list)
    """The latest two mutation completions of distinct calls, newest first: enough to tell
    whether any call *other than a given one* completed after a given tick."""

    def started(self, call_id: str) -> None:
        self.inflight[call_id] = self.inflight.get(call_id, 0) + 1

    def finished(self, call_id: str, tick: int) -> None:
        left = self.inflight.get(call_id, 0) - 1
        if left > 0:
            self.inflight[call_id] = left
        else:
            self.inflight.pop(call_id, None)
        self.recent = [(tick, call_id), *(entry for entry in self.recent if entry[1] != call_id)][:2]

    def completed_after(self, tick: int, exclude: str) -> str | None:
        """A mutation other than ``exclude`` that completed after ``tick``, if any did."""
        for when, call_id in self.recent:
            if call_id != exclude:
                return call_id if when > tick else None
        return None


@dataclass(slots=True)
class Pending:
    """A dispatched call awaiting its result."""

    call_id: str
    agent_id: str
    root: str
    life: int
    """The root agent's ``life`` at dispatch."""
    task: int
    tick: int
    call: Call
    cwd: str | None
