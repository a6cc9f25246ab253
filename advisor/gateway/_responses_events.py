"""A finished Responses API response as the stream of events a streamed request gets.

The loop runs upstream non-streamed, so a streamed advised request is answered with the events
the response would have been streamed as, in the order the ``openai`` SDK expects:
``response.created``, ``response.in_progress``, then per output item
``response.output_item.added``, its parts and deltas (``response.content_part.added``,
``response.output_text.delta``/``.done``, ``response.content_part.done`` for a message; the
summary's parts and text for reasoning; ``response.function_call_arguments.delta``/``.done`` or
``response.custom_tool_call_input.delta``/``.done`` for a call) and ``response.output_item.done``;
last ``response.completed`` (``response.incomplete`` or ``response.failed`` as the response's
status says). Each event is ``event: <type>`` and ``data: <json>`` with ``type`` and an increasing
``sequence_number``; there is no ``[DONE]``. A failure is an ``error`` event (``code``,
``message``, ``param``, and the ``error`` object the SDK raises as ``APIError``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from advisor.errors import GatewayError

_END = {"completed": "response.completed", "incomplete": "response.incomplete", "failed": "response.failed"}
_ARGUMENTS = {"function_call": ("arguments", "response.function_call_arguments"),
              "custom_tool_call": ("input", "response.custom_tool_call_input")}


def event(name: str, data: dict[str, Any]) -> bytes:
    """One named server-sent event."""
    return b"event: " + name.encode() + b"\ndata: " + orjson.dumps({"type": name, **data}) + b"\n\n"


def response_events(response: dict[str, Any]) -> Iterator[bytes]:
    """The events of ``response``, numbered from 0."""
    start = {**response, "status": "in_progress", "output": [], "usage": None}
    named = [("response.created", {"response": start}), ("response.in_progress", {"response": start})]
    for index, item in enumerate(_listed(response.get("output"))):
        if isinstance(item, dict):
            named.extend(_item_events(item, index))
    named.append((_END.get(str(response.get("status")), "response.completed"), {"response": response}))
    for number, (name, data) in enumerate(named):
        yield event(name, {**data, "sequence_number": number})


def error_events(error: GatewayError) -> Iterator[bytes]:
    """A failure after the stream started."""
    inner = error.body()["error"]
    yield event("error", {"code": error.code, "message": error.message, "param": error.param,
                          "sequence_number": 0, "error": inner})


def _item_events(item: dict[str, Any], index: int) -> list[tuple[str, dict[str, Any]]]:
    at = {"item_id": item.get("id"), "output_index": index}
    kind = item.get("type") if isinstance(item.get("type"), str) else None
    events: list[tuple[str, dict[str, Any]]] = []
    if kind == "message":
        events.append(("response.output_item.added", {"output_index": index, "item": {
            **item, "status": "in_progress", "content": []}}))
        for number, part in enumerate(_listed(item.get("content"))):
            events.extend(_part_events(part, {**at, "content_index": number}))
    elif kind == "reasoning":
        events.append(("response.output_item.added", {"output_index": index, "item": {**item, "summary": []}}))
        for number, part in enumerate(_listed(item.get("summary"))):
            spot = {**at, "summary_index": number}
            text = part.get("text", "") if isinstance(part, dict) else ""
            empty = {"type": "summary_text", "text": ""}
            events += [("response.reasoning_summary_part.added", {**spot, "part": empty}),
                       ("response.reasoning_summary_text.delta", {**spot, "delta": text}),
                       ("response.reasoning_summary_text.done", {**spot, "text": text}),
                       ("response.reasoning_summary_part.done", {**spot, "part": part})]
    elif kind in _ARGUMENTS:
        field, prefix = _ARGUMENTS[kind]
        whole = item.get(field) if isinstance(item.get(field), str) else ""
        events += [("response.output_item.added", {"output_index": index,
                                                   "item": {**item, "status": "in_progress", field: ""}}),
                   (f"{prefix}.delta", {**at, "delta": whole}),
                   (f"{prefix}.done", {**at, field: whole, **({"name": item.get("name")}
                                                                if kind == "function_call" else {})})]
    else:
        events.append(("response.output_item.added", {"output_index": index, "item": item}))
    events.append(("response.output_item.done", {"output_index": index, "item": item}))
    return events


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _part_events(part: Any, spot: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    if not isinstance(part, dict):
        return []
    if part.get("type") == "output_text":
        text = part.get("text", "")
        empty = {**part, "text": "", "annotations": []}
        return [("response.content_part.added", {**spot, "part": empty}),
                ("response.output_text.delta", {**spot, "delta": text, "logprobs": []}),
                ("response.output_text.done", {**spot, "text": text, "logprobs": []}),
                ("response.content_part.done", {**spot, "part": part})]
    if part.get("type") == "refusal":
        refusal = part.get("refusal", "")
        return [("response.content_part.added", {**spot, "part": {**part, "refusal": ""}}),
                ("response.refusal.delta", {**spot, "delta": refusal}),
                ("response.refusal.done", {**spot, "refusal": refusal}),
                ("response.content_part.done", {**spot, "part": part})]
    return [("response.content_part.added", {**spot, "part": part}),
            ("response.content_part.done", {**spot, "part": part})]
