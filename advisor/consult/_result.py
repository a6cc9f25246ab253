"""A consultation's result envelope: what the advisor said, what it did, and what it cost."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from advisor._values import Frozen
from advisor.consult._verdict import Severity
from advisor.models import Message, ModelResponse, ToolSpec, Usage

StopReason = Literal["answered", "same-model", "budget-exceeded", "timeout", "model-unavailable", "model-refused",
                     "empty-answer", "no-answer"]
"""How a consultation ended: ``answered``, or why there is no advice."""

STOP_REASONS: tuple[StopReason, ...] = ("answered", "same-model", "budget-exceeded", "timeout",
                                        "model-unavailable", "model-refused", "empty-answer", "no-answer")


class Attempt(Frozen):
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


class Transcript(Frozen):
    """Everything the advisor was sent and answered: request *k* is ``system``, ``tools`` and
    ``messages[:attempts[k].messages]``; ``responses[k]`` its answer (``None`` when it failed)."""

    system: str
    """The system prompt."""
    tools: tuple[ToolSpec, ...]
    """The declared tools."""
    messages: tuple[Message, ...]
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
    trigger: str
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
    attempts: tuple[Attempt, ...] = ()
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
    transcript: Transcript | None = Field(default=None, exclude=True)
    """The full exchange (kept out of the envelope's JSON; the log stores it beside)."""

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
        if self.stop_reason == "budget-exceeded":
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
