"""Responses API input items and chat-completions messages, each as the other.

The advisor's side of the gateway (the ledger an advisor with ``forward_transcript`` reads, the
trace a response carries) is written over chat messages; a Responses request's items are
translated here, and traced rounds come back as items the same way.

=======================================  ==========================================================
item                                     chat message
=======================================  ==========================================================
``message`` (user, system, developer)    the same role; a string stays a string, parts become
                                         chat parts (``input_text`` → ``text``, ``input_image`` →
                                         ``image_url``, ``input_file`` → ``file``)
``message`` (assistant)                  ``assistant`` content: its ``output_text`` (and
                                         ``refusal``) parts' text joined
``reasoning``                            ``reasoning_content`` of an assistant message (the
                                         summary's text joined)
``function_call``                        a ``function`` entry of the assistant's ``tool_calls``
``custom_tool_call``                     a ``custom`` entry of the assistant's ``tool_calls``
``function_call_output``,                a ``tool`` message (``custom_tool_call_output`` when
``custom_tool_call_output``              it answers a custom call)
=======================================  ==========================================================

Consecutive reasoning, assistant text and calls make one assistant message, in that order, as a
chat model's turn holds them; an item that cannot extend the turn (a second text, text after a
call) starts the next one, so every item is kept, in its order. Item ids and statuses are the
provider's bookkeeping and are not carried; item types this table does not name (hosted tool
calls such as ``web_search_call``) have no chat form and are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

_CALLS = {"function_call": "function", "custom_tool_call": "custom"}
_PARTS_IN = {"input_text": "text", "input_image": "image_url", "input_file": "file"}


def to_chat(items: Sequence[Any]) -> list[dict[str, Any]]:
    """Chat messages for Responses input items (a string input is one user message)."""
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    messages: list[dict[str, Any]] = []
    turn: dict[str, Any] | None = None
    for item in items:
        if not isinstance(item, dict):
            continue
        kind = item.get("type", "message")
        if not isinstance(kind, str):
            continue
        if kind == "message" and item.get("role") == "assistant":
            if turn is None or turn.get("content") is not None or turn.get("tool_calls"):
                turn = _turn(messages)
            turn["content"] = _output_text(item.get("content"))
        elif kind == "reasoning":
            turn = _turn(messages)
            summary = item.get("summary")
            turn["reasoning_content"] = "".join(
                part["text"] for part in (summary if isinstance(summary, list) else ())
                if isinstance(part, dict) and isinstance(part.get("text"), str))
        elif kind in _CALLS:
            if turn is None:
                turn = _turn(messages)
            turn.setdefault("tool_calls", []).append(_call(item))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            turn = None
            messages.append({"role": "tool", "tool_call_id": item.get("call_id"),
                             "content": _tool_output(item.get("output"))})
        elif kind == "message":
            turn = None
            messages.append({"role": item.get("role"), "content": _input_content(item.get("content"))})
    return messages


def _turn(messages: list[dict[str, Any]]) -> dict[str, Any]:
    turn: dict[str, Any] = {"role": "assistant", "content": None}
    messages.append(turn)
    return turn


def _call(item: dict[str, Any]) -> dict[str, Any]:
    if item["type"] == "custom_tool_call":
        return {"id": item.get("call_id"), "type": "custom",
                "custom": {"name": item.get("name"), "input": item.get("input")}}
    return {"id": item.get("call_id"), "type": "function",
            "function": {"name": item.get("name"), "arguments": item.get("arguments")}}


def _output_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(part.get("text", part.get("refusal", ""))) for part in content or ()
                   if isinstance(part, dict))


def _input_content(content: Any) -> Any:
    if not isinstance(content, list):
        return content
    return [_chat_part(part) for part in content if isinstance(part, dict)]


def _chat_part(part: dict[str, Any]) -> dict[str, Any]:
    kind = part.get("type")
    if kind == "input_image":
        image = {"url": part.get("image_url") or part.get("file_id")}
        if part.get("detail") is not None:
            image["detail"] = part["detail"]
        return {"type": "image_url", "image_url": image}
    if kind == "input_file":
        return {"type": "file", "file": {key: value for key, value in part.items() if key != "type"}}
    return {"type": "text", "text": part.get("text", "")}


def _tool_output(output: Any) -> Any:
    return _input_content(output) if isinstance(output, list) else output


def to_items(messages: Iterable[Any]) -> list[dict[str, Any]]:
    """Responses input items for chat messages: the inverse of :func:`to_chat`."""
    items: list[dict[str, Any]] = []
    custom: set[str] = set()
    for message in messages:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "assistant":
            items.extend(_assistant_items(message, custom))
        elif role == "tool":
            call_id = message.get("tool_call_id")
            kind = "custom_tool_call_output" if isinstance(call_id, str) and call_id in custom \
                else "function_call_output"
            output = message.get("content")
            items.append({"type": kind, "call_id": call_id,
                          "output": [_item_part(p) for p in output if isinstance(p, dict)]
                          if isinstance(output, list) else output})
        else:
            content = message.get("content")
            items.append({"type": "message", "role": role,
                          "content": [_item_part(p) for p in content if isinstance(p, dict)]
                          if isinstance(content, list) else content})
    return items


def _assistant_items(message: dict[str, Any], custom: set[str]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    reasoning = message.get("reasoning_content")
    if isinstance(reasoning, str):
        items.append({"type": "reasoning", "summary": [{"type": "summary_text", "text": reasoning}]})
    content = message.get("content")
    if content is not None:
        items.append({"type": "message", "role": "assistant",
                      "content": [{"type": "output_text", "text": _output_text(content)}]})
    for call in message.get("tool_calls") or ():
        if not isinstance(call, dict):
            continue
        if call.get("type") == "custom":
            spec = call.get("custom") or {}
            custom.add(str(call.get("id")))
            items.append({"type": "custom_tool_call", "call_id": call.get("id"), "name": spec.get("name"),
                          "input": spec.get("input")})
        else:
            spec = call.get("function") or {}
            items.append({"type": "function_call", "call_id": call.get("id"), "name": spec.get("name"),
                          "arguments": spec.get("arguments")})
    return items


def _item_part(part: dict[str, Any]) -> dict[str, Any]:
    kind = part.get("type")
    if kind == "image_url":
        image = part.get("image_url") or {}
        made = {"type": "input_image", "image_url": image.get("url")}
        if "detail" in image:
            made["detail"] = image["detail"]
        return made
    if kind == "file":
        return {"type": "input_file", **(part.get("file") or {})}
    return {"type": "input_text", "text": part.get("text", "")}


def chat_tools(tools: Iterable[Any]) -> list[dict[str, Any]]:
    """A Responses request's function and custom tools in the chat shape (``{"type", "function": {...}}``),
    for the ledger's catalogue; hosted tools have no chat form and are left out."""
    found: list[dict[str, Any]] = []
    for tool in tools:
        if isinstance(tool, dict) and tool.get("type") in ("function", "custom"):
            spec = {key: value for key, value in tool.items() if key != "type"}
            found.append({"type": tool["type"], tool["type"]: spec})
    return found
