"""What a consultation returns to its requester."""

from __future__ import annotations

from advisor._values import Frozen
from advisor.consult import Consultation, Trigger
from advisor.orchestration._verdict_channel import AdvisorVerdict
from advisor.orchestration._vocabulary import ReportOutcome


class AdvisorReport(Frozen):
    """One consultation turn's result for the agent that asked (or was reviewed)."""

    requester: str
    """The agent it is for."""
    trigger: Trigger
    """Why it ran."""
    outcome: ReportOutcome
    """How it ended."""
    consultation_id: str | None = None
    """Pass it back to a manual ``consult`` to continue this conversation."""
    child_id: str | None = None
    """The advisor child that ran it."""
    turn: int = 0
    """The child's turn."""
    verdict: AdvisorVerdict | None = None
    """The published verdict (only when ``outcome`` is ``delivered``)."""
    reason: str | None = None
    """Why there is no verdict, or why it was refused, stale or failed."""
    packet_bytes: int = 0
    """The case packet's size as sent."""
    consultation: Consultation | None = None
    """The consultation loop's envelope (usage, rounds, log id)."""

    def notice(self) -> str:
        """What the requester reads."""
        if self.outcome == "delivered" and self.verdict is not None:
            return f"[advisor {self.consultation_id}] {self.verdict.as_text()}"
        why = self.reason or self.outcome
        if self.outcome == "no_verdict":
            return f"Advisor returned no verdict ({why}). Continue without advisor; do not treat this as approval."
        if self.outcome == "refused":
            return f"Advisor not consulted: {why}."
        if self.outcome == "stale":
            return f"Advisor review is stale ({why}) and was not delivered."
        return f"Advisor call failed: {why}. Continue without advisor."
