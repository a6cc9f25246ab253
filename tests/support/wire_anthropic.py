"""Anthropic Messages (``/v1/messages``) as Anthropic sends it — the API Claude Code uses.

Non-streamed: one ``message`` object with ``thinking``, ``text`` and ``tool_use`` blocks.
Streamed: named server-sent events — ``message_start`` (a skeleton message with the input
usage), ``ping``, then per block ``content_block_start`` / ``content_block_delta``
(``thinking_delta`` and ``signature_delta``, ``text_delta``, ``input_json_delta``) /
``content_block_stop``, then ``message_delta`` (stop reason, cumulative output tokens) and
``message_stop``. Usage counts ``input_tokens`` *without* cache reads and writes, which are
reported beside it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

from tests.support.ids import Ids
from tests.support.script import RecordedRequest, Reply, chunks, input_tokens, output_tokens

Event = tuple[str, dict[str, Any]]

_STOP = {"end": "end_turn", "tool_calls": "tool_use", "max_tokens": "max_tokens", "refusal": "refusal"}
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error",
                529: "overloaded_error"}


def usage(reply: Reply, request: RecordedRequest) -> dict[str, Any]:
    """The ``usage`` object: uncached input, cache reads and writes, output."""
    uncached = input_tokens(reply, request) - reply.cached_tokens - reply.cache_write_tokens
    return {"input_tokens": max(0, uncached), "cache_creation_input_tokens": reply.cache_write_tokens,
            "cache_read_input_tokens": reply.cached_tokens, "output_tokens": output_tokens(reply),
            "service_tier": "standard"}


def _blocks(reply: Reply, ids: Ids) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if reply.reasoning:
        signature = base64.b64encode(b"scripted-signature:" + reply.reasoning[:32].encode()).decode()
        blocks.append({"type": "thinking", "thinking": reply.reasoning, "signature": signature})
    if reply.text or not reply.tool_calls:
        blocks.append({"type": "text", "text": reply.text})
    for call in reply.tool_calls:
        arguments = call.arguments if not isinstance(call.arguments, str) else json.loads(call.arguments or "{}")
        blocks.append({"type": "tool_use", "id": call.id or ids.make("toolu_01"), "name": call.name,
                       "input": dict(arguments)})
    return blocks


def message(reply: Reply, request: RecordedRequest, ids: Ids) -> dict[str, Any]:
    """The non-streamed answer."""
    return {"id": ids.make("msg_01"), "type": "message", "role": "assistant", "model": reply.model or request.model,
            "content": _blocks(reply, ids), "stop_reason": _STOP[reply.stop_reason()], "stop_sequence": None,
            "usage": usage(reply, request)}


def stream(reply: Reply, request: RecordedRequest, ids: Ids) -> Iterator[Event]:
    """The streamed answer as ``(event name, data)`` pairs."""
    start_usage = {**usage(reply, request), "output_tokens": 1}
    yield "message_start", {"type": "message_start", "message": {
        "id": ids.make("msg_01"), "type": "message", "role": "assistant", "model": reply.model or request.model,
        "content": [], "stop_reason": None, "stop_sequence": None, "usage": start_usage}}
    yield "ping", {"type": "ping"}
    for index, block in enumerate(_blocks(reply, ids)):
        yield from _block_events(index, block, reply.chunk_size)
    yield "message_delta", {"type": "message_delta",
                            "delta": {"stop_reason": _STOP[reply.stop_reason()], "stop_sequence": None},
                            "usage": {"output_tokens": output_tokens(reply)}}
    yield "message_stop", {"type": "message_stop"}


def _block_events(index: int, block: dict[str, Any], size: int) -> Iterator[Event]:
    kind = block["type"]
    empty = {"thinking": {"type": "thinking", "thinking": "", "signature": ""},
             "text": {"type": "text", "text": ""},
             "tool_use": {**block, "input": {}}}[kind]
    yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": empty}

    def delta(payload: dict[str, Any]) -> Event:
        return "content_block_delta", {"type": "content_block_delta", "index": index, "delta": payload}

    if kind == "thinking":
        for piece in chunks(block["thinking"], size):
            yield delta({"type": "thinking_delta", "thinking": piece})
        yield delta({"type": "signature_delta", "signature": block["signature"]})
    elif kind == "text":
        for piece in chunks(block["text"], size):
            yield delta({"type": "text_delta", "text": piece})
    else:
        for piece in chunks(json.dumps(block["input"], separators=(",", ":")), size):
            yield delta({"type": "input_json_delta", "partial_json": piece})
    yield "content_block_stop", {"type": "content_block_stop", "index": index}


def error(status: int, message: str, error_type: str | None = None, request_id: str | None = None) -> dict[str, Any]:
    """Anthropic's error body."""
    kind = error_type or _ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}, "request_id": request_id}


def problem(body: Any) -> str | None:
    """What Anthropic would refuse in this request body with a 400, if anything."""
    if not isinstance(body, dict) or not isinstance(body.get("model"), str):
        return "model: Field required"
    if not isinstance(body.get("max_tokens"), int):
        return "max_tokens: Field required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    breakpoints = _cache_breakpoints(body)
    if breakpoints > 4:
        return f"A maximum of 4 blocks with cache_control may be provided. Found {breakpoints}."
    return _tool_pairing_problem(messages)


def _content(message: Any) -> list[dict[str, Any]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _cache_breakpoints(body: dict[str, Any]) -> int:
    blocks = [*(body.get("tools") or []), *(body["system"] if isinstance(body.get("system"), list) else [])]
    for message in body["messages"]:
        blocks.extend(_content(message))
    return sum(1 for block in blocks if isinstance(block, dict) and block.get("cache_control"))


def _tool_pairing_problem(messages: list[Any]) -> str | None:
    previous: set[Any] = set()
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ("user", "assistant"):
            return f"messages.{index}.role: Input should be 'user' or 'assistant'"
        blocks = _content(message)
        results = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
        if previous and (role != "user" or not previous <= results):
            missing = ", ".join(sorted(previous - results))
            return (f"messages.{index - 1}: `tool_use` ids were found without `tool_result` blocks immediately "
                    f"after: {missing}. Each `tool_use` block must have a corresponding `tool_result` block in the "
                    "next message.")
        unexpected = results - previous
        if unexpected:
            return (f"messages.{index}.content.0: unexpected `tool_use_id` found in `tool_result` blocks: "
                    f"{', '.join(sorted(str(u) for u in unexpected))}. Each `tool_result` block must have a "
                    "corresponding `tool_use` block in the previous message.")
        previous = {b.get("id") for b in blocks if b.get("type") == "tool_use"} if role == "assistant" else set()
    if previous:
        return (f"messages.{len(messages) - 1}: `tool_use` ids were found without `tool_result` blocks immediately "
                f"after: {', '.join(sorted(previous))}.")
    return None
