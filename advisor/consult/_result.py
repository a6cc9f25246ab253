"""A consultation's result envelope: what the advisor said, what it did, and what it cost."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field

from advisor._values import Frozen
from advisor.consult._verdict import Severity
from advisor.models import ChatMessage, ModelResponse, ToolSpec, Usage

StopReason = Literal["answered", "same-model", "too-large", "budget-exceeded", "timeout", "model-unavailable",
                     "model-refused", "empty-answer", "no-answer"]
"""How a consultation ended: ``answered``, or why there is no advice."""

StopClass = Literal["answered", "unreached", "transient", "failed"]
"""What a stop reason means to whoever asked: advice came (``answered``); no model could be asked or
it refused the request (``unreached``); it could not be reached now, and may be later (``transient``:
an automatic consultation retries these once); or it was reached and gave no advice (``failed``)."""

STOP_REASONS: dict[StopReason, StopClass] = {
    "answered": "answered",            # the advisor answered: its advice
    "same-model": "unreached",         # the executor runs the advisor's model: nothing was sent
    "model-refused": "unreached",      # the provider refused the request (authentication, a bad request)
    "model-unavailable": "transient",  # unreachable or failing (5xx, 429) after the loop's one retry
    "timeout": "transient",            # the consultation's time ran out
    "too-large": "failed",             # even trimmed, the ledger exceeds its token budget: nothing was sent
    "budget-exceeded": "failed",       # a token or money budget would be exceeded
    "empty-answer": "failed",          # the advisor answered nothing, twice
    "no-answer": "failed",             # it used every request allowed without answering
}
"""Every stop reason and its class: the one table the command line's exit status, a host's retry and
its report read."""

Trigger = Literal["manual", "escalation", "continuous", "completion"]
"""Why a consultation runs: the agent asked (``manual``), its escalation score called for it,
continuous review of every turn, or a review before the turn is allowed to end (``completion``)."""

TRIGGERS: tuple[Trigger, ...] = get_args(Trigger)


class ModelAttempt(Frozen):
    """One request sent to the model (investigation rounds and retries each count)."""

    messages: int
    """How many transcript messages the request carried (the request is the transcript's system,
    tools and first ``messages`` messages)."""
    request_hash: str
    """SHA-256 of the request's canonical JSON."""
    usage: Usage = Field(default_factory=Usage)
    """What it was billed for (nothing is known for a failed request)."""
    cost_usd: float | None = None
    """Its cost, when prices are configured."""
    stop_reason: str | None = None
    """The answer's stop reason; ``None`` when no answer came."""
    error: str | None = None
    """Why no answer came."""
    request_id: str | None = None
    """The provider's request id."""


class Round(Frozen):
    """One investigation tool call."""

    tool: str
    """The tool called."""
    argument: str
    """Its primary argument (path, pattern or ids)."""
    chars: int
    """The size of the result the advisor read."""
    error: str | None = None
    """The error result's text, when the call failed or was refused."""
    ran: bool = True
    """``False`` for a call refused because the round allowance was spent."""


class ConsultationTranscript(Frozen):
    """Everything the advisor was sent and answered: request *k* is ``system``, ``tools`` and
    ``messages[:attempts[k].messages]``; ``responses[k]`` its answer (``None`` when it failed)."""

    system: str
    """The system prompt."""
    tools: tuple[ToolSpec, ...]
    """The declared tools."""
    messages: tuple[ChatMessage, ...]
    """The prompt's messages followed by the investigation rounds."""
    responses: tuple[ModelResponse | None, ...]
    """Each attempt's answer."""
    routing_key: str | None = None
    """The routing key sent with every request."""


class Lineage(Frozen):
    """Where a consultation run by a host sits: who asked, why, and which advisor child ran it."""

    requester: str
    """The agent that asked (or whose work was reviewed)."""
    root: str
    """Its task root."""
    trigger: Trigger
    """Why it ran: ``manual``, ``escalation``, ``continuous`` or ``completion``."""
    consultation_id: str
    """The host's consultation id; a manual call may continue it by passing it back."""
    child_id: str
    """The advisor child's agent id (one child per consultation, continued across turns)."""
    turn: int
    """The child's turn (1 for the first)."""
    parent_log_id: str | None = None
    """The log record of the consultation's previous turn, for a continuation."""
    outcome: str
    """How it ended for the requester (``delivered``, ``no_verdict``, ``stale`` …)."""
    verdict: dict[str, Any] | None = None
    """The published ``advisor_verdict``, when there is one (prose is never read as one)."""


class Consultation(Frozen):
    """The result of one consultation (JSON-serialisable; the transcript is kept apart, in the log)."""

    version: Literal[1] = 1
    """The record format."""
    id: str
    """A sortable id: the start time and a random suffix."""
    session_id: str | None = None
    """The executor session consulted about."""
    started_at: str
    """When it started (ISO 8601, UTC)."""
    finished_at: str
    """When it ended."""
    advisor: str
    """``provider:model`` of the advisor."""
    advice: str | None = None
    """The advisor's final answer, verbatim (the only part later ledgers replay)."""
    severity: Severity | None = None
    """The verdict line's level; ``None`` when there is no advice or it has no verdict line."""
    stop_reason: StopReason
    """How it ended."""
    error: str | None = None
    """Why there is no advice."""
    skipped: bool = False
    """Whether no request was sent at all (same model, budget)."""
    attempts: tuple[ModelAttempt, ...] = ()
    """Every request sent, billed or not."""
    usage: Usage = Field(default_factory=Usage)
    """All attempts' usage together."""
    cost_usd: float | None = None
    """All attempts' cost, when prices are configured."""
    rounds: tuple[Round, ...] = ()
    """The investigation calls."""
    budget_exhausted: bool = False
    """Whether the advisor asked for more investigation than ``max_rounds`` allowed."""
    request_hash: str
    """SHA-256 of the first request (system, tools, messages)."""
    stable_prefix_hash: str
    """SHA-256 of the first request's cache-stable part (system, tools, stable prefix)."""
    stable_prefix_messages: int
    """How many messages that stable prefix holds."""
    estimated_tokens: int
    """The first request's size, characters / 4."""
    request_chars: int
    """The first request's size in characters of JSON."""
    trimmed: bool = False
    """Whether the ledger was trimmed to fit its token budget."""
    lineage: Lineage | None = None
    """For a consultation a host ran: requester, trigger, child and outcome (``None`` otherwise)."""
    log_error: str | None = None
    """Why the consultation could not be written to the log (a full disk, a read-only home): the advice
    stands all the same, unlogged."""
    transcript: ConsultationTranscript | None = Field(default=None, exclude=True)
    """The full exchange (kept out of the envelope's JSON; the log stores it beside)."""

    def asked_by(self, requester: str, trigger: Trigger, consultation_id: str | None = None) -> Consultation:
        """This consultation with the lineage of one asked outside a host's agent tree (witness's MCP tool, a
        Stop hook's review): ``requester`` is its own root, there is no child, and ``consultation_id``
        defaults to the consultation's id."""
        lineage = Lineage(requester=requester, root=requester, trigger=trigger,
                          consultation_id=consultation_id or self.id, child_id="-", turn=1,
                          outcome="delivered" if self.advice is not None else "failed")
        return self.model_copy(update={"lineage": lineage})

    @property
    def stop_class(self) -> StopClass:
        """What its stop reason means (:data:`STOP_REASONS`)."""
        return STOP_REASONS[self.stop_reason]

    @property
    def has_verdict(self) -> bool:
        """Whether the advice opens with a verdict line."""
        return self.severity is not None

    def notice(self) -> str:
        """What the executor should read: the advice, or why there is none and what to do."""
        if self.advice is not None:
            return self.advice
        why = self.error or "no answer"
        if self.stop_reason == "same-model":
            return "Advisor skipped: the executor already uses the same model. Continue without advisor."
        if self.stop_reason in ("budget-exceeded", "too-large"):
            return f"Advisor skipped: {why}. Continue without advisor; do not retry this consultation."
        if self.stop_reason == "timeout":
            return f"{why.capitalize()}. Continue without advisor; do not retry this consultation."
        if self.stop_reason == "empty-answer":
            return "Advisor returned no text content."
        return f"Advisor call failed: {why}"

    def record(self) -> dict[str, Any]:
        """The log record: the envelope with its transcript (images the advisor read are named by their
        path, size and SHA-256, without their bytes)."""
        data = self.model_dump(mode="json")
        transcript = self.transcript.model_dump(mode="json") if self.transcript is not None else None
        for message in (transcript or {}).get("messages", ()):
            for part in message.get("content", ()):
                if isinstance(part, dict) and part.get("type") == "image":
                    part["data"] = ""
        data["transcript"] = transcript
        return data
