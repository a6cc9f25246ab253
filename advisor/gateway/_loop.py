"""The server-side loop: the upstream is called until it answers without advisor calls.

Each round sends the conversation, the client's tools and the advisor functions to the
upstream (never streamed). When the answer calls advisors only, they run (concurrently), their
results are appended and the upstream is called again — with ``tool_choice: "auto"`` when the
client had forced the advisor or required a tool call, so it is not forced into the advisor
again. When the answer also calls the client's tools, the advisors run and the turn goes back
to the client with only the client's calls, the advisor calls and results carried in the
message's ``witness_trace`` field, sealed (:mod:`._replay`), so the next request replays rather
than repeats them. When it calls no advisor, that answer is the response; its content is the
model's text exactly (unless ``chat_trace = "content"`` puts the trace in front of it, for a
request without ``response_format``).

Bounds: at most ``max_rounds`` follow-up calls (default 8) and ``max_server_tool_calls`` advisor
calls (default 30) per request; past either the request fails with 502
``server_tool_rounds_exceeded`` / ``server_tool_calls_exceeded`` (the upstream model kept calling
advisors), never silently.
"""

from __future__ import annotations

from typing import Any

from advisor.errors import UpstreamFailed
from advisor.gateway._advise import Advisors
from advisor.gateway._chat import ChatRequest
from advisor.gateway._replay import FIELD, marked
from advisor.gateway._seal import TraceSeal
from advisor.gateway._settings import GatewaySettings
from advisor.gateway._toolset import follow_up_choice
from advisor.gateway._trace import Trace, TracedCall, TraceRound, round_messages
from advisor.gateway._upstream import Upstream
from advisor.gateway._usage import total_usage


class LoopResult:
    """What the loop produced: the response and what the advisors did."""

    def __init__(self, completion: dict[str, Any], advisors: Advisors) -> None:
        self.completion = completion
        """The chat completion to send the client."""
        self.advisors = advisors
        """The advisors' use counts and usage."""


async def run_loop(request: ChatRequest, upstream: Upstream, settings: GatewaySettings, *,
                   seal: TraceSeal) -> LoopResult:
    """Run the request's loop to its answer, its trace sealed with ``seal``. Raises
    :class:`~advisor.errors.GatewayError`."""
    in_content = settings.chat_trace == "content" and request.body.get("response_format") is None
    advisors = Advisors(request.tools, outer_model=request.model, upstream=upstream, settings=settings,
                        ledger_cuts=request.ledger_cuts)
    base = request.upstream_body()
    messages: list[Any] = list(base.pop("messages"))
    rounds: list[TraceRound] = []
    usages: list[Any] = []
    follow_up = follow_up_choice(base.get("tool_choice"), forced=request.forces_advisor)
    for number in range(settings.max_rounds + 1):
        body = {**base, "messages": messages}
        if number and follow_up:
            body["tool_choice"] = follow_up
        completion = await upstream.chat(body)
        usages.append(completion.get("usage"))
        message = completion["choices"][0]["message"]
        calls = [call for call in message.get("tool_calls") or () if isinstance(call, dict)]
        ours = [call for call in calls if request.tools.advisor(_name(call)) is not None]
        if not ours:
            _carry(message, rounds, seal=seal, in_content=in_content)
            return LoopResult(_finish(completion, usages, advisors), advisors)
        if number == settings.max_rounds:
            raise UpstreamFailed(f"the upstream model kept calling advisors past {settings.max_rounds} follow-up "
                                 "rounds", code="server_tool_rounds_exceeded")
        if advisors.calls + len(ours) > settings.max_server_tool_calls:
            raise UpstreamFailed(f"the upstream model made more than {settings.max_server_tool_calls} advisor calls",
                                 code="server_tool_calls_exceeded")
        answers = await advisors.run(ours, [*messages, message])
        traced = tuple(TracedCall(id=_id(call, number, index), name=_name(call), arguments=_arguments(call),
                                  result=answer.result, ledger_cut=answer.ledger_cut)
                       for index, (call, answer) in enumerate(zip(ours, answers, strict=True)))
        theirs = [call for call in calls if request.tools.advisor(_name(call)) is None]
        if theirs:
            rounds.append(TraceRound(calls=traced, merge=True))
            message["tool_calls"] = theirs
            _carry(message, rounds, seal=seal, in_content=in_content)
            return LoopResult(_finish(completion, usages, advisors), advisors)
        content = message.get("content")
        turn = TraceRound(content=content if isinstance(content, str) else None, calls=traced)
        rounds.append(turn)
        messages.extend(round_messages(turn))
    raise AssertionError("unreachable: the last round returns or raises")


def _carry(message: dict[str, Any], rounds: list[TraceRound], *, seal: TraceSeal, in_content: bool) -> None:
    """Put the sealed trace of ``rounds`` (if any) in the answer's ``witness_trace`` field, or in
    front of its content."""
    if not rounds:
        return
    token = seal.seal(Trace(rounds=tuple(rounds)))
    if in_content:
        content = message.get("content")
        message["content"] = marked(content if isinstance(content, str) else None, token)
    else:
        message[FIELD] = token


def _finish(completion: dict[str, Any], usages: list[Any], advisors: Advisors) -> dict[str, Any]:
    choice = completion["choices"][0]
    message = choice["message"]
    if message.get("tool_calls"):
        choice["finish_reason"] = "tool_calls"
    else:
        message.pop("tool_calls", None)
        if choice.get("finish_reason") == "tool_calls":
            choice["finish_reason"] = "stop"
    completion["usage"] = total_usage(usages, advisors)
    return completion


def _name(call: dict[str, Any]) -> str:
    function = call.get("function")
    name = function.get("name") if isinstance(function, dict) else None
    return name if isinstance(name, str) else ""


def _arguments(call: dict[str, Any]) -> str:
    arguments = (call.get("function") or {}).get("arguments")
    return arguments if isinstance(arguments, str) else ""


def _id(call: dict[str, Any], number: int, index: int) -> str:
    value = call.get("id")
    return value if isinstance(value, str) and value else f"call_witness_{number}_{index}"
