"""OpenAI chat completions (``/v1/chat/completions``) as OpenAI sends it.

Non-streamed: one ``chat.completion`` object. Streamed: ``data: <chunk>`` events, each a
``chat.completion.chunk`` with the same ``id`` and ``created``; the first delta carries the
role, tool-call deltas carry ``id``/``type``/``name`` in their first fragment and argument
fragments after it (joined by ``index``), the last content chunk carries ``finish_reason``,
and with ``stream_options.include_usage`` every chunk has ``"usage": null`` and one extra
final chunk has ``choices: []`` and the usage. The stream ends with ``data: [DONE]``.
Reasoning text is sent as ``reasoning_content``, the extension OpenAI-compatible servers
(DeepSeek, vLLM) use.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from tests.support.ids import Ids
from tests.support.script import RecordedRequest, Reply, chunks, input_tokens, output_tokens, reasoning_tokens

_FINISH = {"end": "stop", "tool_calls": "tool_calls", "max_tokens": "length", "refusal": "content_filter"}
_ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 403: "invalid_request_error",
                404: "invalid_request_error", 429: "requests"}
FINGERPRINT = "fp_scripted"


def usage(reply: Reply, request: RecordedRequest) -> dict[str, Any]:
    """The ``usage`` object of a chat completion."""
    prompt, completion = input_tokens(reply, request), output_tokens(reply)
    return {
        "prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": reply.cached_tokens, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": reasoning_tokens(reply), "audio_tokens": 0,
                                      "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
    }


def _call_ids(reply: Reply, ids: Ids) -> list[str]:
    return [call.id or ids.make("call_") for call in reply.tool_calls]


def completion(reply: Reply, request: RecordedRequest, ids: Ids) -> dict[str, Any]:
    """The non-streamed answer."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None, "refusal": None,
                               "annotations": []}
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": call.name, "arguments": call.arguments_json()}}
            for call, call_id in zip(reply.tool_calls, _call_ids(reply, ids), strict=True)
        ]
    return {
        "id": ids.make("chatcmpl-"), "object": "chat.completion", "created": int(time.time()),
        "model": reply.model or request.model, "system_fingerprint": FINGERPRINT, "service_tier": "default",
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": _FINISH[reply.stop_reason()]}],
        "usage": usage(reply, request),
    }


def stream(reply: Reply, request: RecordedRequest, ids: Ids) -> Iterator[dict[str, Any]]:
    """The streamed answer, chunk by chunk (the caller adds ``data: [DONE]``)."""
    body = request.body if isinstance(request.body, dict) else {}
    include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    head: dict[str, Any] = {"id": ids.make("chatcmpl-"), "object": "chat.completion.chunk",
                            "created": int(time.time()), "model": reply.model or request.model,
                            "system_fingerprint": FINGERPRINT, "service_tier": "default"}
    if include_usage:
        head["usage"] = None

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": "", "refusal": None})
    for piece in chunks(reply.reasoning or "", reply.chunk_size):
        yield chunk({"reasoning_content": piece})
    for piece in chunks(reply.text, reply.chunk_size):
        yield chunk({"content": piece})
    for index, (call, call_id) in enumerate(zip(reply.tool_calls, _call_ids(reply, ids), strict=True)):
        yield chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function",
                                     "function": {"name": call.name, "arguments": ""}}]})
        for piece in chunks(call.arguments_json(), reply.chunk_size):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _FINISH[reply.stop_reason()])
    if include_usage:
        yield {**head, "choices": [], "usage": usage(reply, request)}


def error(status: int, message: str, error_type: str | None = None) -> dict[str, Any]:
    """OpenAI's error body."""
    kind = error_type or _ERROR_TYPES.get(status, "server_error")
    code = "rate_limit_exceeded" if status == 429 else None
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def problem(body: Any) -> str | None:
    """What OpenAI would refuse in this request body with a 400, if anything."""
    if not isinstance(body, dict) or not isinstance(body.get("model"), str):
        return "you must provide a model parameter"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "Invalid 'messages': empty array. Expected an array with minimum length 1."
    pending: list[str] = []
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ("system", "developer", "user", "assistant", "tool", "function"):
            return f"Invalid value for 'messages[{index}].role'."
        if role == "tool":
            if message.get("tool_call_id") not in pending:
                return ("Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                        "message with 'tool_calls'.")
            pending.remove(message["tool_call_id"])
            continue
        if pending:
            return _unanswered(pending)
        if role == "assistant":
            pending = [call.get("id") for call in message.get("tool_calls") or []]
    if pending:
        return _unanswered(pending)
    for index, tool in enumerate(body.get("tools") or []):
        if tool.get("type") == "function" and not (tool.get("function") or {}).get("name"):
            return f"Missing required parameter: 'tools[{index}].function.name'."
    return None


def _unanswered(pending: list[str]) -> str:
    return ("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
            f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(pending)}")
