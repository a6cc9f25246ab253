"""The advisor calls a response carries, so the next request of the conversation replays them.

The gateway is stateless: whatever the executor learnt from an advisor must come back with the
client's next request. So every response that follows advisor calls carries them — the calls,
their arguments and results, byte for byte — as a :class:`Trace`, sealed (:mod:`._seal`) and put
where the client keeps it without touching the model's text (:mod:`._replay`): a chat message's
``witness_trace`` field, a Responses ``reasoning`` item. The next request's trace is expanded
back into what the upstream saw: an assistant turn per advisor round with its calls, and a result
per call. A round marked ``merge`` is the turn that also called the client's own tools: its
advisor calls join that turn's calls and their results come right after it, before the client's
results. The expansion is deterministic, so consecutive requests of a conversation give the
upstream a byte-identical prefix (provider prompt caching).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from advisor._values import Frozen


class TracedCall(Frozen):
    """One advisor call and its result."""

    id: str
    """The call's id, as the upstream made it."""
    name: str
    """The advisor's function name."""
    arguments: str
    """The arguments, the JSON text the upstream sent."""
    result: str
    """The tool result the upstream was given."""
    ledger_cut: int | None = Field(default=None, ge=0)
    """For an advisor shown the conversation (``forward_transcript``): the leading ledger blocks its
    request left out to fit the budget; that advisor's next request leaves out at least as many.
    Left out of the trace when there is none."""


class TraceRound(Frozen):
    """One assistant turn's advisor calls."""

    content: str | None = None
    """The turn's own text (``None`` for a merged round: it is the carrying message's)."""
    calls: tuple[TracedCall, ...] = Field(min_length=1)
    """The advisor calls, in the order the upstream made them."""
    merge: bool = False
    """Whether the calls belong to the carrying message itself (a turn that also called client tools)."""


class Trace(Frozen):
    """Everything one response carries."""

    v: int = 1
    """The format's version."""
    rounds: tuple[TraceRound, ...] = Field(min_length=1)
    """The rounds, oldest first; only the last may be merged."""


def trace_json(trace: Trace) -> bytes:
    """The trace as compact JSON (a call's ``ledger_cut`` only when it has one)."""
    data = trace.model_dump(mode="json")
    for turn in data["rounds"]:
        for call in turn["calls"]:
            if call["ledger_cut"] is None:
                del call["ledger_cut"]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def round_messages(turn: TraceRound) -> list[dict[str, Any]]:
    """A standalone round as the upstream saw it: the assistant turn, then its results."""
    return [{"role": "assistant", "content": turn.content, "tool_calls": [call_dict(c) for c in turn.calls]},
            *result_messages(turn)]


def call_dict(call: TracedCall) -> dict[str, Any]:
    """A traced call as a chat-completions tool call."""
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}


def result_messages(turn: TraceRound) -> list[dict[str, Any]]:
    """A round's results as ``tool`` messages."""
    return [{"role": "tool", "tool_call_id": call.id, "content": call.result} for call in turn.calls]
