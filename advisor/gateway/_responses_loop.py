"""The advisor loop of a Responses API request: the upstream's ``/responses`` is called until it
answers without advisor calls.

As in chat completions (:mod:`._loop`): each round sends the input, the client's tools and the
advisor functions (never streamed); advisor ``function_call`` items run as consultations and
their ``function_call_output`` items are appended; an answer that also calls the client's tools
goes back to the client with only the client's calls; the bounds are ``max_rounds`` and
``max_server_tool_calls``. A round is appended to the input as the items its trace expands to
(:func:`._responses.expand_items`) — the text, the calls without their item ids, the results —
so the next request of the conversation gives the upstream the same items and its prompt cache
holds; reasoning items of advised rounds are not replayed (without stored state the upstream
accepts calls without them, and a later request could not replay them either).

The response is the upstream's last one with the trace in reasoning items of the gateway's
(:func:`._replay.witness_item`): the standalone rounds' at the start of the output, where they
happened (before the last response), a merged round's after the last response's own reasoning,
where its calls were; its ``output_text`` is exactly the model's text. The advisor functions are
taken out of ``tools``, and ``usage`` adds up every round and every consultation
(``input_tokens``, ``output_tokens``, ``total_tokens``, their details, and ``server_tool_use``
as in chat completions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.errors import UpstreamFailed
from advisor.gateway._advise import Advisors
from advisor.gateway._items import chat_tools, to_chat, to_items
from advisor.gateway._replay import witness_item
from advisor.gateway._responses import ResponsesRequest
from advisor.gateway._seal import TraceSeal
from advisor.gateway._settings import GatewaySettings
from advisor.gateway._toolset import ToolSet, follow_up_choice
from advisor.gateway._trace import Trace, TracedCall, TraceRound, round_messages
from advisor.gateway._upstream import Upstream
from advisor.gateway._usage import total_usage

CLIENT_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "shell_call", "computer_call",
                          "apply_patch_call"})
"""Output items the client must answer (hosted tools' calls are the upstream's own)."""


@dataclass
class ResponsesResult:
    """What the loop produced: the response and what the advisors did."""

    response: dict[str, Any]
    """The response object to send the client."""
    advisors: Advisors
    """The advisors' use counts and usage."""


async def run_responses(request: ResponsesRequest, upstream: Upstream, settings: GatewaySettings, *,
                        seal: TraceSeal) -> ResponsesResult:
    """Run the request's loop to its answer, its trace sealed with ``seal``. Raises
    :class:`~advisor.errors.GatewayError`."""
    ledger_tools = ToolSet(client_tools=tuple(chat_tools(request.tools.client_tools)),
                           advisors=request.tools.advisors)
    advisors = Advisors(ledger_tools, outer_model=request.model, upstream=upstream, settings=settings,
                        ledger_cuts=request.ledger_cuts)
    base = request.upstream_body()
    items: list[Any] = list(base.pop("input"))
    instructions = base.get("instructions")
    preamble = [{"role": "system", "content": instructions}] if isinstance(instructions, str) else []
    follow_up = follow_up_choice(base.get("tool_choice"), forced=request.forces_advisor)
    rounds: list[TraceRound] = []
    usages: list[Any] = []
    for number in range(settings.max_rounds + 1):
        body = {**base, "input": items}
        if number and follow_up:
            body["tool_choice"] = follow_up
        response = await upstream.post_json("/responses", body)
        output = response.get("output")
        if not isinstance(output, list):
            raise UpstreamFailed("the upstream answered with no response output", code="upstream_bad_response")
        usages.append(_chat_usage(response.get("usage")))
        ours = [item for item in output if isinstance(item, dict) and item.get("type") == "function_call"
                and request.tools.advisor(str(item.get("name"))) is not None]
        if not ours:
            return ResponsesResult(_finish(response, rounds, usages, advisors, seal), advisors)
        if number == settings.max_rounds:
            raise UpstreamFailed(f"the upstream model kept calling advisors past {settings.max_rounds} follow-up "
                                 "rounds", code="server_tool_rounds_exceeded")
        if advisors.calls + len(ours) > settings.max_server_tool_calls:
            raise UpstreamFailed(f"the upstream model made more than {settings.max_server_tool_calls} advisor calls",
                                 code="server_tool_calls_exceeded")
        calls = [_chat_call(item, number, index) for index, item in enumerate(ours)]
        answers = await advisors.run(calls, [*preamble, *to_chat(items), *to_chat(output)])
        traced = tuple(TracedCall(id=call["id"], name=call["function"]["name"], arguments=call["function"]["arguments"],
                                  result=answer.result, ledger_cut=answer.ledger_cut)
                       for call, answer in zip(calls, answers, strict=True))
        if any(isinstance(item, dict) and _is_client_call(item) and item not in ours for item in output):
            rounds.append(TraceRound(calls=traced, merge=True))
            response["output"] = [item for item in output if item not in ours]
            return ResponsesResult(_finish(response, rounds, usages, advisors, seal), advisors)
        text = "".join(part["text"] for part in _text_parts(output))
        turn = TraceRound(content=text or None, calls=traced)
        rounds.append(turn)
        items.extend(to_items(round_messages(turn)))
    raise AssertionError("unreachable: the last round returns or raises")


def _is_client_call(item: Any) -> bool:
    kind = item.get("type") if isinstance(item, dict) else None
    return isinstance(kind, str) and kind in CLIENT_CALLS


def _chat_call(item: dict[str, Any], number: int, index: int) -> dict[str, Any]:
    """A ``function_call`` item as the chat tool call :class:`~._advise.Advisors` reads."""
    call_id = item.get("call_id")
    arguments = item.get("arguments")
    return {"id": call_id if isinstance(call_id, str) and call_id else f"call_witness_{number}_{index}",
            "type": "function", "function": {"name": item["name"],
                                             "arguments": arguments if isinstance(arguments, str) else ""}}


def _text_parts(output: list[Any]) -> list[dict[str, Any]]:
    """The ``output_text`` parts of the output's assistant messages, in order."""
    return [part for item in output if isinstance(item, dict) and item.get("type") == "message"
            for part in item.get("content") or () if isinstance(part, dict) and part.get("type") == "output_text"
            and isinstance(part.get("text"), str)]


def _finish(response: dict[str, Any], rounds: list[TraceRound], usages: list[Any],
            advisors: Advisors, seal: TraceSeal) -> dict[str, Any]:
    _carry(response["output"], rounds, seal)
    names = {entry.function_name for entry in advisors.tools.advisors}
    tools = response.get("tools")
    if isinstance(tools, list):
        response["tools"] = [tool for tool in tools if not (isinstance(tool, dict) and tool.get("name") in names)]
    response["usage"] = _responses_usage(total_usage(usages, advisors))
    return response


def _carry(output: list[Any], rounds: list[TraceRound], seal: TraceSeal) -> None:
    """Put the sealed rounds in the output where they happened: the standalone ones first, a merged
    one after the leading reasoning items (the last response's own, which came before its calls)."""
    standalone = tuple(turn for turn in rounds if not turn.merge)
    if rounds and rounds[-1].merge:
        at = next((index for index, item in enumerate(output)
                   if not (isinstance(item, dict) and item.get("type") == "reasoning")), len(output))
        output.insert(at, witness_item(seal.seal(Trace(rounds=(rounds[-1],)))))
    if standalone:
        output.insert(0, witness_item(seal.seal(Trace(rounds=standalone))))


def _chat_usage(usage: Any) -> Any:
    """A Responses ``usage`` object in chat-completions terms (what :func:`._usage.total_usage` adds up)."""
    if not isinstance(usage, dict):
        return None
    return {"prompt_tokens": usage.get("input_tokens"), "completion_tokens": usage.get("output_tokens"),
            "prompt_tokens_details": usage.get("input_tokens_details"),
            "completion_tokens_details": usage.get("output_tokens_details")}


def _responses_usage(total: dict[str, Any]) -> dict[str, Any]:
    """:func:`._usage.total_usage`'s sums in Responses terms."""
    return {"input_tokens": total["prompt_tokens"], "input_tokens_details": total["prompt_tokens_details"],
            "output_tokens": total["completion_tokens"], "output_tokens_details": total["completion_tokens_details"],
            "total_tokens": total["total_tokens"], "server_tool_use": total["server_tool_use"]}
