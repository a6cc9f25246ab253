"""The pending-note queue: low-severity findings wait for the root's next natural step.

Injecting into a stopping turn would extend it, so a ``none``/``nit`` finding for the root is kept
here and delivered on the root's next step. A note accepted before the user's newest message is
delivered as historical and optional; a result that arrives after new user intent is stale and
never enters the queue.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from advisor.consult import Severity
from advisor.orchestration._steering import Steer


@dataclass(slots=True)
class Note:
    """A finding waiting for its agent's next step."""

    agent_id: str
    text: str
    severity: Severity
    consultation_id: str
    revision: int
    """The agent's user-intent revision when the note was accepted."""


@dataclass(slots=True)
class NoteQueue:
    """Pending notes per agent. The host locks around it."""

    notes: dict[str, deque[Note]] = field(default_factory=dict)
    dropped_stale: int = 0

    def offer(self, note: Note, *, dispatched_revision: int, current_revision: int) -> bool:
        """Queue a note unless the user spoke since its consultation was dispatched (stale)."""
        if dispatched_revision != current_revision:
            self.dropped_stale += 1
            return False
        self.notes.setdefault(note.agent_id, deque()).append(note)
        return True

    def take(self, agent_id: str, current_revision: int) -> list[Steer]:
        """The agent's notes, marked historical when accepted before the newest user message."""
        queue = self.notes.pop(agent_id, None)
        if not queue:
            return []
        return [Steer(agent_id=n.agent_id, kind="note", text=n.text, severity=n.severity,
                      consultation_id=n.consultation_id, historical=n.revision != current_revision)
                for n in queue]

    def drop(self, agent_id: str) -> None:
        """Forget an agent's notes (it was disposed)."""
        self.notes.pop(agent_id, None)
