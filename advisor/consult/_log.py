"""The consultation log: one JSON line per consultation, transcript included, under
``$WITNESS_HOME/log/consultations.jsonl``.

Appends are whole lines written under an exclusive lock (``flock`` where the platform has
it, an ``O_APPEND`` write in any case), so concurrent consultations never interleave; a line
that cannot be read (a crash mid-write, a hand edit) is skipped and counted, never fatal.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor._home import witness_home
from advisor._jsonl import append_line, read_lines
from advisor._values import Frozen
from advisor.consult._budget import Spend
from advisor.consult._result import Consultation, Lineage, StopReason
from advisor.consult._verdict import Severity
from advisor.errors import ConsultationNotFound
from advisor.models import Usage
from obligations import redact_value

LOG_NAME = "consultations.jsonl"


class ConsultationSummary(Frozen):
    """One line of ``witness log``: what was asked, what the advisor did, what came of it."""

    id: str
    """The consultation's id."""
    started_at: str
    """When it started."""
    session_id: str | None
    """The executor session."""
    advisor: str
    """``provider:model``."""
    stop_reason: StopReason
    """How it ended."""
    severity: Severity | None
    """The verdict, if any."""
    estimated_tokens: int
    """The first request's size (characters / 4)."""
    requests: int
    """Requests sent."""
    tool_calls: int
    """Investigation calls made."""
    usage: Usage
    """Tokens billed in all."""
    cost_usd: float | None
    """Cost, when prices were configured."""
    requester: str | None = None
    """For a host's consultation: the agent that asked."""
    trigger: str | None = None
    """For a host's consultation: why it ran."""
    consultation_id: str | None = None
    """For a host's consultation: its continuable id."""
    child_id: str | None = None
    """For a host's consultation: the advisor child."""
    turn: int | None = None
    """For a host's consultation: the child's turn."""
    outcome: str | None = None
    """For a host's consultation: how it ended for the requester."""


class ConsultationLog:
    """The log of consultations in one directory (default ``$WITNESS_HOME/log``)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or witness_home() / "log"
        self.path = self.directory / LOG_NAME
        self.skipped_lines: list[int] = []
        """Line numbers the last read could not use."""

    def append(self, consultation: Consultation) -> None:
        """Add a consultation's record (one line, atomically with respect to other writers), every
        string in it redacted (the advice, errors, tool arguments: what the model wrote is redacted too)."""
        append_line(self.path, redact_value(consultation.record()))

    def keep(self, consultation: Consultation) -> Consultation:
        """:meth:`append` it, and return it — with :attr:`~Consultation.log_error` saying why, when the log
        could not be written: a consultation already paid for is never lost to a full disk."""
        try:
            self.append(consultation)
        except OSError as error:
            return consultation.model_copy(update={"log_error": f"{self.path}: {error.strerror or error}"})
        return consultation

    def _records(self) -> Iterator[Consultation]:
        self.skipped_lines = []
        for number, raw in read_lines(self.path):
            try:
                yield Consultation.model_validate_json(raw)
            except ValidationError:
                self.skipped_lines.append(number)

    def consultations(self) -> list[Consultation]:
        """Every consultation recorded, oldest first, with its transcript."""
        return list(self._records())

    def summaries(self, session_id: str | None = None) -> list[ConsultationSummary]:
        """One summary per consultation (of one session, if given), oldest first."""
        return [_summary(c) for c in self._records() if session_id is None or c.session_id == session_id]

    def load(self, wanted: str) -> Consultation:
        """The consultation with this id or unique id prefix, transcript included."""
        found = [c for c in self._records() if c.id == wanted or c.id.startswith(wanted)]
        exact = [c for c in found if c.id == wanted]
        if exact or len(found) == 1:
            return (exact or found)[0]
        if not found:
            raise ConsultationNotFound(f"no consultation {wanted!r} in {self.path}")
        raise ConsultationNotFound(f"{wanted!r} names {len(found)} consultations in {self.path}; give more of the id")

    def session_spend(self, session_id: str | None) -> Spend:
        """What one session's recorded consultations spent together (nothing for no session)."""
        spent = Spend()
        if session_id is None:
            return spent
        for c in self._records():
            if c.session_id == session_id:
                spent = spent + Spend(tokens=c.usage.total_tokens, usd=c.cost_usd or 0.0)
        return spent


def _summary(c: Consultation) -> ConsultationSummary:
    return ConsultationSummary(id=c.id, started_at=c.started_at, session_id=c.session_id, advisor=c.advisor,
                               stop_reason=c.stop_reason, severity=c.severity, estimated_tokens=c.estimated_tokens,
                               requests=len(c.attempts), tool_calls=sum(1 for r in c.rounds if r.ran),
                               usage=c.usage, cost_usd=c.cost_usd,
                               **(_lineage(c.lineage) if c.lineage is not None else {}))


def _lineage(lineage: Lineage) -> dict[str, Any]:
    return {"requester": lineage.requester, "trigger": lineage.trigger,
            "consultation_id": lineage.consultation_id, "child_id": lineage.child_id, "turn": lineage.turn,
            "outcome": lineage.outcome}
