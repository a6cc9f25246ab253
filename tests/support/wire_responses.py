"""OpenAI Responses (``/v1/responses``) as OpenAI sends it — the API the Codex CLI and the
OpenAI Agents SDK use.

Non-streamed: one ``response`` object whose ``output`` holds a ``reasoning`` item (summary
text, and ``encrypted_content`` when the request includes ``reasoning.encrypted_content``), a
``message`` item with one ``output_text`` part, and one ``function_call`` item per call (a
``custom_tool_call`` when the request declares that tool with ``type: "custom"``). Streamed:
named server-sent events (``event: <type>`` then ``data: <json>``), each carrying ``type`` and
an increasing ``sequence_number``: ``response.created``, ``response.in_progress``, then per item
``response.output_item.added`` … deltas … ``response.output_item.done``, and last
``response.completed`` (``response.incomplete`` when the answer hit its token limit). The
Responses API sends no ``[DONE]``.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from typing import Any

from tests.support.ids import Ids
from tests.support.script import (
    RecordedRequest,
    Reply,
    ToolCall,
    chunks,
    input_tokens,
    output_tokens,
    reasoning_tokens,
)

Event = tuple[str, dict[str, Any]]


def usage(reply: Reply, request: RecordedRequest) -> dict[str, Any]:
    """The ``usage`` object of a response."""
    prompt, completion = input_tokens(reply, request), output_tokens(reply)
    return {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": reply.cached_tokens},
            "output_tokens": completion, "output_tokens_details": {"reasoning_tokens": reasoning_tokens(reply)},
            "total_tokens": prompt + completion}


def _body(request: RecordedRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def _custom_tools(request: RecordedRequest) -> set[str]:
    return {tool.get("name") for tool in _body(request).get("tools") or [] if tool.get("type") == "custom"}


def _items(reply: Reply, request: RecordedRequest, ids: Ids) -> list[dict[str, Any]]:
    """The finished output items of a reply."""
    items: list[dict[str, Any]] = []
    if reply.reasoning:
        item: dict[str, Any] = {"id": ids.make("rs_", 48), "type": "reasoning",
                                "summary": [{"type": "summary_text", "text": reply.reasoning}]}
        if "reasoning.encrypted_content" in (_body(request).get("include") or []):
            item["encrypted_content"] = base64.b64encode(b"scripted:" + reply.reasoning.encode()).decode()
        items.append(item)
    if reply.text or not reply.tool_calls:
        items.append({"id": ids.make("msg_", 48), "type": "message", "status": "completed", "role": "assistant",
                      "content": [{"type": "output_text", "text": reply.text, "annotations": [], "logprobs": []}]})
    custom = _custom_tools(request)
    for call in reply.tool_calls:
        items.append(_call_item(call, ids, custom=call.name in custom))
    return items


def _call_item(call: ToolCall, ids: Ids, *, custom: bool) -> dict[str, Any]:
    call_id = call.id or ids.make("call_")
    if custom:
        return {"id": ids.make("ctc_", 48), "type": "custom_tool_call", "status": "completed", "call_id": call_id,
                "name": call.name, "input": call.arguments_json()}
    item = {"id": ids.make("fc_", 48), "type": "function_call", "status": "completed", "call_id": call_id,
            "name": call.name, "arguments": call.arguments_json()}
    return {**item, "namespace": call.namespace} if call.namespace else item


def _response(reply: Reply, request: RecordedRequest, ids: Ids, response_id: str,
              output: list[dict[str, Any]] | None) -> dict[str, Any]:
    body = _body(request)
    finished = output is not None
    incomplete = finished and reply.stop_reason() == "max_tokens"
    return {
        "id": response_id, "object": "response", "created_at": int(time.time()),
        "status": ("incomplete" if incomplete else "completed") if finished else "in_progress",
        "background": False, "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
        "instructions": body.get("instructions"), "max_output_tokens": body.get("max_output_tokens"),
        "model": reply.model or request.model, "output": output or [],
        "parallel_tool_calls": body.get("parallel_tool_calls", True), "previous_response_id": None,
        "prompt_cache_key": body.get("prompt_cache_key"),
        "reasoning": {"effort": (body.get("reasoning") or {}).get("effort"), "summary": None},
        "store": body.get("store", True), "temperature": body.get("temperature", 1.0),
        "text": {"format": {"type": "text"}}, "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools") or [], "top_p": 1.0, "truncation": "disabled",
        "usage": usage(reply, request) if finished else None, "user": None, "metadata": {},
    }


def response(reply: Reply, request: RecordedRequest, ids: Ids) -> dict[str, Any]:
    """The non-streamed answer."""
    return _response(reply, request, ids, ids.make("resp_", 48), _items(reply, request, ids))


def stream(reply: Reply, request: RecordedRequest, ids: Ids) -> Iterator[Event]:
    """The streamed answer as ``(event name, data)`` pairs."""
    response_id = ids.make("resp_", 48)
    items = _items(reply, request, ids)
    events: list[tuple[str, dict[str, Any]]] = [
        ("response.created", {"response": _response(reply, request, ids, response_id, None)}),
        ("response.in_progress", {"response": _response(reply, request, ids, response_id, None)}),
    ]
    for index, item in enumerate(items):
        events.extend(_item_events(item, index, reply.chunk_size))
    final = _response(reply, request, ids, response_id, items)
    events.append(("response.incomplete" if final["status"] == "incomplete" else "response.completed",
                   {"response": final}))
    for number, (name, data) in enumerate(events):
        yield name, {"type": name, "sequence_number": number, **data}


def _item_events(item: dict[str, Any], index: int, size: int) -> Iterator[tuple[str, dict[str, Any]]]:
    at = {"item_id": item["id"], "output_index": index}
    kind = item["type"]
    if kind == "reasoning":
        text = item["summary"][0]["text"]
        yield "response.output_item.added", {"output_index": index, "item": {**item, "summary": []}}
        part = {**at, "summary_index": 0}
        yield "response.reasoning_summary_part.added", {**part, "part": {"type": "summary_text", "text": ""}}
        for piece in chunks(text, size):
            yield "response.reasoning_summary_text.delta", {**part, "delta": piece}
        yield "response.reasoning_summary_text.done", {**part, "text": text}
        yield "response.reasoning_summary_part.done", {**part, "part": {"type": "summary_text", "text": text}}
    elif kind == "message":
        text = item["content"][0]["text"]
        yield "response.output_item.added", {"output_index": index,
                                             "item": {**item, "status": "in_progress", "content": []}}
        part = {**at, "content_index": 0}
        empty = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        yield "response.content_part.added", {**part, "part": empty}
        for piece in chunks(text, size):
            yield "response.output_text.delta", {**part, "delta": piece, "logprobs": []}
        yield "response.output_text.done", {**part, "text": text, "logprobs": []}
        yield "response.content_part.done", {**part, "part": item["content"][0]}
    else:
        field, prefix = ("arguments", "function_call_arguments") if kind == "function_call" \
            else ("input", "custom_tool_call_input")
        yield "response.output_item.added", {"output_index": index,
                                             "item": {**item, "status": "in_progress", field: ""}}
        for piece in chunks(item[field], size):
            yield f"response.{prefix}.delta", {**at, "delta": piece}
        yield f"response.{prefix}.done", {**at, field: item[field], **({"name": item["name"]}
                                                                       if kind == "function_call" else {})}
    yield "response.output_item.done", {"output_index": index, "item": item}


def _ours(content: Any) -> bool:
    """Whether a reasoning item's ``encrypted_content`` is absent or one this server made (OpenAI
    refuses encrypted content it cannot decrypt)."""
    if content is None:
        return True
    try:
        return isinstance(content, str) and base64.b64decode(content, validate=True).startswith(b"scripted:")
    except ValueError:
        return False


def problem(body: Any) -> str | None:
    """What OpenAI would refuse in this request body with a 400, if anything."""
    if not isinstance(body, dict) or not isinstance(body.get("model"), str):
        return "Missing required parameter: 'model'."
    items = body.get("input")
    if isinstance(items, str):
        return None
    if not isinstance(items, list):
        return "Missing required parameter: 'input'."
    calls: set[str] = set()
    answered: set[str] = set()
    for item in items:
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "reasoning" and not _ours(item.get("encrypted_content")):
            return f"The encrypted content for item {item.get('id')} could not be verified."
        if kind in ("function_call", "custom_tool_call"):
            calls.add(item.get("call_id"))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            if item.get("call_id") not in calls:
                return f"No tool call found for function call output with call_id {item.get('call_id')}."
            answered.add(item["call_id"])
    missing = sorted(calls - answered)
    return f"No tool output found for function call {missing[0]}." if missing else None
