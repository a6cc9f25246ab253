"""The verdict channel: ``advisor_verdict`` is the only authoritative source of a verdict.

A submission is a *candidate*, recorded against the consultation the host created (the calling
child is the live agent the host runs, never a name the model supplies) and against the turn's
own collector — every turn gets a fresh one. It is published only when the run completed, the
child recorded a closing turn boundary at or after the submission, that turn is the one that
submitted it, and, when the delivered message is known, the closed turn claimed exactly it.
Anything else is ``no_verdict``: prose is never promoted, and no approval-shaped verdict is
made up. A conflicting second submission is refused (the first stands), an identical one is a
duplicate, and a submission after the collector closed is refused.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from advisor._values import Frozen
from advisor.consult import Severity
from advisor.models import ToolSpec
from advisor.orchestration._verdict_budget import fit_verdict
from advisor.orchestration._vocabulary import Submission

VERDICT_TOOL = "advisor_verdict"

VERDICT_SPEC = ToolSpec(
    name=VERDICT_TOOL,
    description=("Submit your review. This is the only way your verdict reaches the agent: prose is not read as "
                 "a verdict. Call it once, then end your turn with a short closing message."),
    parameters={
        "type": "object",
        "properties": {
            "severity": {"type": "string", "enum": ["none", "nit", "concern", "blocker"],
                         "description": "none: on track; nit: optional; concern: likely wrong or missing something "
                                        "material; blocker: continuing would ship broken or unverified work."},
            "summary": {"type": "string", "description": "The verdict in a few sentences (1 KB)."},
            "diagnosis": {"type": "string", "description": "What is wrong and why (6 KB)."},
            "recommended_action": {"type": "string", "description": "What the agent should do next (2 KB)."},
            "evidence": {"type": "array", "items": {"type": "string"},
                         "description": "References to the evidence you relied on: call ids or quotes (512 B each)."},
            "actions": {"type": "array", "items": {"type": "string"}, "description": "Concrete steps (1 KB each)."},
            "validation_plan": {"type": "array", "items": {"type": "string"},
                                "description": "The checks that would prove the fix (4 KB in all)."},
            "examined_calls": {"type": "array", "items": {"type": "string"},
                               "description": "call_id of each tool call in the case packet you actually examined."},
            "examined_fingerprints": {"type": "array", "items": {"type": "string"},
                                      "description": "Failure fingerprints of the packet you actually examined."},
        },
        "required": ["severity", "summary"],
    },
)
"""The tool declared to every advisor child, whatever its tool policy."""


class AdvisorVerdict(Frozen):
    """A verdict submitted through ``advisor_verdict``, fitted to its budgets."""

    severity: Severity
    """How much it matters."""
    summary: str = Field(min_length=1)
    """The verdict in brief."""
    diagnosis: str = ""
    """What is wrong and why."""
    recommended_action: str = ""
    """What the agent should do next."""
    evidence: tuple[str, ...] = ()
    """Evidence references."""
    actions: tuple[str, ...] = ()
    """Concrete steps."""
    validation_plan: tuple[str, ...] = ()
    """Checks that would prove the fix."""
    examined_calls: tuple[str, ...] = ()
    """Call ids of the packet the advisor says it examined (verified against the packet)."""
    examined_fingerprints: tuple[str, ...] = ()
    """Fingerprints the advisor says it examined (verified against the packet)."""

    @field_validator("summary")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the summary is empty")
        return value

    def as_text(self) -> str:
        """The verdict as the requester reads it (verdict line first)."""
        parts = [f"Severity: {self.severity}", self.summary]
        if self.diagnosis:
            parts.append(f"Diagnosis: {self.diagnosis}")
        if self.recommended_action:
            parts.append(f"Recommended action: {self.recommended_action}")
        parts += [f"- {action}" for action in self.actions]
        if self.validation_plan:
            parts.append("Validation plan:")
            parts += [f"- {step}" for step in self.validation_plan]
        return "\n".join(parts)


@dataclass(slots=True)
class Candidate:
    """A submission waiting for its turn to close."""

    verdict: AdvisorVerdict
    turn: int
    seq: int
    canonical: str


@dataclass(slots=True)
class Collector:
    """One turn's verdict collector."""

    id: str
    consultation_id: str
    child_id: str
    turn: int
    candidate: Candidate | None = None
    closed: bool = False


Reason = Literal["published", "not-completed", "no-candidate", "wrong-turn", "before-submission",
                 "wrong-delivery", "closed"]


class VerdictChannel:
    """Collectors by child; candidates; reconciliation. The host locks around it."""

    def __init__(self) -> None:
        self._open: dict[str, Collector] = {}
        self.closed: list[Collector] = []

    def open(self, consultation_id: str, child_id: str, turn: int) -> Collector:
        """A fresh collector for a child's new turn (an open one left over is closed first)."""
        self.close(child_id)
        collector = Collector(secrets.token_hex(8), consultation_id, child_id, turn)
        self._open[child_id] = collector
        return collector

    def submit(self, child_id: str, arguments: dict[str, Any], *, turn: int, seq: int) -> tuple[Submission, str]:
        """An ``advisor_verdict`` call by the live child ``child_id`` in ``turn`` at ``seq``."""
        collector = self._open.get(child_id)
        if collector is None:
            return "refused", "No consultation is open for this verdict: it is refused."
        if turn != collector.turn:
            return "refused", f"This verdict was submitted in turn {turn}, not the consultation's turn: it is refused."
        try:
            verdict = AdvisorVerdict.model_validate(fit_verdict(arguments))
        except ValidationError as error:
            problem = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'verdict'}: {e['msg']}" for e in error.errors())
            return "refused", f"The verdict is not valid ({problem}). Submit it again with the fields fixed."
        canonical = json.dumps(verdict.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        if collector.candidate is not None:
            if collector.candidate.canonical == canonical:
                return "duplicate", "This verdict was already recorded."
            return "refused", "A different verdict was already submitted for this consultation; the first stands."
        collector.candidate = Candidate(verdict, turn, seq, canonical)
        return "accepted", "Verdict recorded. End your turn now with a one-line closing message."

    def reconcile(self, child_id: str, *, completed: bool, closing_turn: int | None, closing_seq: int | None,
                  claimed: str | None = None, delivery: str | None = None) -> tuple[AdvisorVerdict | None, Reason]:
        """Close the child's collector and say whether its candidate is published."""
        collector = self._open.pop(child_id, None)
        if collector is None:
            return None, "closed"
        collector.closed = True
        self.closed.append(collector)
        del self.closed[:-64]
        candidate = collector.candidate
        if not completed:
            return None, "not-completed"
        if candidate is None:
            return None, "no-candidate"
        if closing_turn != candidate.turn:
            return None, "wrong-turn"
        if closing_seq is None or closing_seq < candidate.seq:
            return None, "before-submission"
        if delivery is not None and claimed != delivery:
            return None, "wrong-delivery"
        return candidate.verdict, "published"

    def close(self, child_id: str) -> None:
        """Close a child's collector without publishing (a consultation that did not publish)."""
        collector = self._open.pop(child_id, None)
        if collector is not None:
            collector.closed = True
            self.closed.append(collector)
            del self.closed[:-64]
