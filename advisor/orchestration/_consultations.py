"""Consultations and their children: one fresh child per consultation, continued only on request.

Every consultation is a child under the exact requesting agent. Omitting the id starts a new,
independent conversation; a manual call may continue a delivered one by passing back the
``consultation_id`` it was issued, and only the same live requester in the same root task may.
Automatic escalation and continuous review never pick an earlier conversation.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from advisor.consult import Trigger
from advisor.orchestration._pinning import Pin


@dataclass(slots=True)
class Exchange:
    """One delivered turn, as a continuation replays it."""

    question: str
    answer: str


@dataclass(slots=True)
class ConsultationRecord:
    """A consultation: its child, its pin, its delivered turns."""

    id: str
    requester: str
    root: str
    child_id: str
    trigger: Trigger
    pin: Pin | None = None
    turns: int = 0
    """Turns started (the next turn is ``turns + 1``)."""
    delivered: int = 0
    """The latest delivered turn."""
    history: list[Exchange] = field(default_factory=list)
    log_ids: list[str] = field(default_factory=list)
    restored: bool = False
    """Re-registered from the run log after a restart (its history comes from the consultation log)."""


def new_ids() -> tuple[str, str]:
    """A fresh consultation id and its child's agent id."""
    token = secrets.token_hex(6)
    return f"c-{token}", f"advisor-{token}"


class Consultations:
    """The host's consultations. The host locks around it."""

    def __init__(self) -> None:
        self._by_id: dict[str, ConsultationRecord] = {}

    def add(self, record: ConsultationRecord) -> None:
        """Register a consultation."""
        self._by_id[record.id] = record

    def get(self, consultation_id: str) -> ConsultationRecord | None:
        """The consultation, if the host knows it."""
        return self._by_id.get(consultation_id)

    def continuation_refusal(self, consultation_id: str, requester: str, root: str) -> str | None:
        """Why ``requester`` may not continue ``consultation_id`` (``None``: it may)."""
        record = self._by_id.get(consultation_id)
        if record is None:
            return f"no consultation {consultation_id!r} is continuable here; omit the id to start a new one"
        if record.requester != requester or record.root != root:
            return f"consultation {consultation_id!r} belongs to another agent or task; omit the id to start a new one"
        if record.delivered == 0:
            return f"consultation {consultation_id!r} has no delivered turn to continue"
        return None

    def of(self, requester: str) -> list[ConsultationRecord]:
        """The requester's consultations, oldest first."""
        return [r for r in self._by_id.values() if r.requester == requester]

    def drop_requester(self, requester: str) -> list[ConsultationRecord]:
        """Forget a disposed requester's consultations (continuation is scoped to a live requester)."""
        gone = [r for r in self._by_id.values() if r.requester == requester]
        for record in gone:
            del self._by_id[record.id]
        return gone

    def all(self) -> list[ConsultationRecord]:
        """Every consultation."""
        return list(self._by_id.values())
