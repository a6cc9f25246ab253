"""A client's chat-completions conversation as ``obligations`` events, and its open obligations.

=======================================  ==================================================
chat message                             events
=======================================  ==================================================
``user`` (text parts joined)             ``UserMessage``
``assistant`` text                       ``AssistantMessage``
``assistant`` ``tool_calls``             ``ToolDispatched`` per call (arguments parsed; a
                                         call whose arguments are not a JSON object keeps
                                         them as ``{"raw": text}``)
``tool`` result                          ``ToolCompleted`` with the exit status where the
                                         host writes one (:mod:`._exit_codes`), else none
``system`` / ``developer``               nothing (instructions, not activity)
advisor calls carried in a trace         expanded first; they are dispatched and completed
                                         like any call (no exit status: never a check's)
=======================================  ==================================================

Shell tools are recognised by the tracker from the tool's name and its ``command``/``cmd``
argument, as for the hosts' own transcripts; a failed check stays open until a genuine later
pass, exactly as there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from advisor.gateway._exit_codes import exit_code
from advisor.gateway._trace import expand
from obligations import (
    AssistantMessage,
    Event,
    Item,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
)


def text_of(content: Any) -> str:
    """The text of a message's content: a string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part["text"] for part in content
                         if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str))
    return ""


def chat_events(messages: Sequence[Any]) -> list[Event]:
    """The events of a conversation (its carried advisor traces expanded)."""
    return list(_events(expand(list(messages))))


def _events(messages: list[Any]) -> Iterator[Event]:
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        origin = f"messages[{index}]"
        if role == "user":
            yield UserMessage(text=text_of(message.get("content")), origin=origin)
        elif role == "assistant":
            text = text_of(message.get("content"))
            if text:
                yield AssistantMessage(text=text, origin=origin)
            for call in message.get("tool_calls") or ():
                dispatched = _dispatched(call, origin)
                if dispatched is not None:
                    yield dispatched
        elif role == "tool" and isinstance(message.get("tool_call_id"), str):
            output = text_of(message.get("content"))
            yield ToolCompleted(call_id=message["tool_call_id"], exit_code=exit_code(output), output=output,
                                origin=origin)


def _dispatched(call: Any, origin: str) -> ToolDispatched | None:
    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
        return None
    function = call.get("function") if isinstance(call.get("function"), dict) else call.get("custom")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    raw = function.get("arguments", function.get("input"))
    arguments: dict[str, Any]
    try:
        parsed = json.loads(raw) if isinstance(raw, str) and raw.strip() else {}
    except ValueError:
        parsed = None
    arguments = parsed if isinstance(parsed, dict) else {"raw": raw}
    return ToolDispatched(call_id=call["id"], tool=function["name"], arguments=arguments, origin=origin)


def open_obligations(events: Sequence[Event]) -> list[Item]:
    """The obligations a conversation leaves open: its failed checks not genuinely re-run since."""
    tracker = Tracker()
    for event in events:
        tracker.handle(event)
    return list(tracker.open_items())
