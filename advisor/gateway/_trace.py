"""The advisor calls a response carries, so the next request of the conversation replays them.

The gateway is stateless: whatever the executor learnt from an advisor must come back with the
client's next request. So every response that follows advisor calls carries them — the calls,
their arguments and results, byte for byte — in one marker at the start of the assistant
message's ``content``::

    <witness:advisor-trace>{"v":1,"rounds":[...]}</witness:advisor-trace>
    …the model's own text…

Clients keep an assistant message's content when they replay a conversation, streamed or not.
When a request's history holds such a message, the gateway expands it back into the messages
the upstream saw: an assistant turn per advisor round with its ``tool_calls``, and a ``tool``
message per result. A round marked ``merge`` is the turn that also called the client's own
tools: its advisor calls join that message's ``tool_calls`` and their results come right after
it, before the client's results. The expansion is deterministic, so consecutive requests of a
conversation give the upstream a byte-identical prefix (provider prompt caching).

A marker that does not parse is left as text: nothing is lost.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, ValidationError

from advisor._values import Frozen

OPEN = "<witness:advisor-trace>"
CLOSE = "</witness:advisor-trace>"


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
    Left out of the marker when there is none."""


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


def encode(trace: Trace) -> str:
    """The marker for ``trace`` (it ends in a newline, before the model's own text)."""
    data = trace.model_dump(mode="json", exclude_defaults=False)
    for turn in data["rounds"]:
        for call in turn["calls"]:
            if call["ledger_cut"] is None:
                del call["ledger_cut"]
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{OPEN}{payload}{CLOSE}\n"


def carried(content: str | None, trace: Trace | None) -> str | None:
    """An assistant message's content with ``trace`` put in front."""
    if trace is None:
        return content
    return encode(trace) + (content or "")


def split_trace(content: Any) -> tuple[Trace | None, Any]:
    """``(trace, content without it)`` for a message's content (a string or text parts)."""
    if isinstance(content, list):
        first = content[0] if content else None
        if isinstance(first, dict) and first.get("type") == "text" and isinstance(first.get("text"), str):
            trace, rest = split_trace(first["text"])
            if trace is not None:
                tail = content[1:] if rest is None else [{**first, "text": rest}, *content[1:]]
                return trace, tail or None
        return None, content
    if not isinstance(content, str) or not content.startswith(OPEN):
        return None, content
    end = content.find(CLOSE)
    if end < 0:
        return None, content
    try:
        trace = Trace.model_validate_json(content[len(OPEN):end])
    except ValidationError:
        return None, content
    if any(r.merge for r in trace.rounds[:-1]):
        return None, content
    rest = content[end + len(CLOSE):].removeprefix("\n")
    return trace, rest or None


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


def expand(messages: list[Any]) -> list[Any]:
    """A request's messages with every carried trace expanded into the messages it stands for."""
    out: list[Any] = []
    for message in messages:
        if not (isinstance(message, dict) and message.get("role") == "assistant"):
            out.append(message)
            continue
        trace, rest = split_trace(message.get("content"))
        if trace is None:
            out.append(message)
            continue
        for turn in trace.rounds:
            if not turn.merge:
                out.extend(round_messages(turn))
        last = trace.rounds[-1]
        own = dict(message, content=rest)
        if last.merge:
            own["tool_calls"] = [*(call_dict(c) for c in last.calls), *(message.get("tool_calls") or [])]
            out.append(own)
            out.extend(result_messages(last))
        else:
            # An assistant turn needs content when it has no tool calls: keep the turn, even empty.
            own["content"] = rest if rest is not None or message.get("tool_calls") else ""
            out.append(own)
    return out


def ledger_cuts(messages: list[Any]) -> dict[str, int]:
    """The ``ledger_cut`` of each advisor function's latest traced call that has one."""
    cuts: dict[str, int] = {}
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant":
            trace, _ = split_trace(message.get("content"))
            for turn in trace.rounds if trace is not None else ():
                cuts.update({call.name: call.ledger_cut for call in turn.calls if call.ledger_cut is not None})
    return cuts


def has_trace(raw: bytes) -> bool:
    """Whether a request body may carry a trace (a cheap test before parsing anything)."""
    return b"witness:advisor-trace" in raw
