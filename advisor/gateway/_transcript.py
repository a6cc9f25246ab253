"""A client's chat-completions conversation as ``obligations`` events, and its open obligations.

=======================================  ==================================================
chat message                             events
=======================================  ==================================================
``user`` (text parts joined)             ``UserMessage`` (its image parts counted)
``assistant`` text                       ``AssistantMessage`` (with the ``reasoning_content``
                                         or ``reasoning`` an OpenAI-compatible server adds)
``assistant`` ``tool_calls``             ``ToolDispatched`` per call (arguments parsed; a
                                         call whose arguments are not a JSON object keeps
                                         them as ``{"raw": text}``)
``tool`` result                          ``ToolCompleted`` with the exit status where the
                                         host writes one (:mod:`._exit_codes`), else none
``system`` / ``developer``               nothing (instructions, not activity)
a call of ``witness_advisor`` or         a consultation: dispatched as ``witness_advisor``
``witness_advisor_<name>`` and its       (which the tracker and the ledger know as an
result                                   advisor's), its result the advice alone, or an
                                         error (``is_error``, the result's code) — never
                                         the executor's own work, never a check
=======================================  ==================================================

The messages are read as the gateway holds them, their traces already expanded
(:mod:`._replay`). Every event's ``entry_id`` is ``m<index>``, the message's position in that
conversation: the same message has the same id in every request of the conversation, so the
ledger's cards are ``#m12`` in all of them. Shell tools are recognised by the tracker from the
tool's name and its ``command``/``cmd`` argument, as for the hosts' own transcripts; a failed
check stays open until a genuine later pass, exactly as there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, TypedDict

from advisor.gateway._entries import FUNCTION_PREFIX
from advisor.gateway._exit_codes import exit_code
from obligations import (
    AssistantMessage,
    Event,
    Item,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
)

_IMAGE_PARTS = frozenset({"image_url", "input_image", "image"})


class _Place(TypedDict):
    """Where an event was read from: every event of one message shares it."""

    origin: str
    entry_id: str


def text_of(content: Any) -> str:
    """The text of a message's content: a string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part["text"] for part in content
                         if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str))
    return ""


def is_gateway_advisor(function: str) -> bool:
    """Whether ``function`` is one of this gateway's advisor functions (``witness_advisor``,
    ``witness_advisor_<name>``): the prefix is the gateway's."""
    return function == FUNCTION_PREFIX or function.startswith(FUNCTION_PREFIX + "_")


def chat_events(messages: Sequence[Any]) -> list[Event]:
    """The events of a conversation (its advisor traces already expanded, as the gateway holds it)."""
    return list(_events(list(messages)))


def _events(messages: list[Any]) -> Iterator[Event]:
    consultations: set[str] = set()
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        place = _Place(origin=f"messages[{index}]", entry_id=f"m{index}")
        if role == "user":
            content = message.get("content")
            yield UserMessage(text=text_of(content), images=_images(content), **place)
        elif role == "assistant":
            text, reasoning = text_of(message.get("content")), _reasoning(message)
            if text or reasoning:
                yield AssistantMessage(text=text, reasoning=reasoning, **place)
            calls = message.get("tool_calls")
            for call in calls if isinstance(calls, list) else ():
                dispatched = _dispatched(call, place)
                if dispatched is not None:
                    if dispatched.tool == FUNCTION_PREFIX:
                        consultations.add(dispatched.call_id)
                    yield dispatched
        elif role == "tool" and isinstance(message.get("tool_call_id"), str):
            output = text_of(message.get("content"))
            call_id = message["tool_call_id"]
            if call_id in consultations:
                yield _consulted(call_id, output, place)
            else:
                yield ToolCompleted(call_id=call_id, exit_code=exit_code(output), output=output, **place)


def _images(content: Any) -> int:
    if not isinstance(content, list):
        return 0
    return sum(1 for part in content if isinstance(part, dict) and isinstance(part.get("type"), str)
               and part["type"] in _IMAGE_PARTS)


def _reasoning(message: dict[str, Any]) -> str:
    value = message.get("reasoning_content", message.get("reasoning"))
    return value if isinstance(value, str) else ""


def _dispatched(call: Any, place: _Place) -> ToolDispatched | None:
    if not isinstance(call, dict) or not isinstance(call.get("id"), str):
        return None
    function = call.get("function") if isinstance(call.get("function"), dict) else call.get("custom")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    raw = function.get("arguments", function.get("input"))
    arguments: dict[str, Any]
    try:
        parsed = json.loads(raw) if isinstance(raw, str) and raw.strip() else {}
    except (ValueError, RecursionError):  # nested deeper than the parser recurses: kept as text
        parsed = None
    arguments = parsed if isinstance(parsed, dict) else {"raw": raw}
    # Every advisor of the gateway is dispatched under the one name the tracker and the ledger know
    # as a consultation: a named one would otherwise count as an unknown, possibly mutating, tool.
    tool = FUNCTION_PREFIX if is_gateway_advisor(function["name"]) else function["name"]
    return ToolDispatched(call_id=call["id"], tool=tool, arguments=arguments, **place)


def _consulted(call_id: str, output: str, place: _Place) -> ToolCompleted:
    """An advisor call's result: the advice it carried, or the error it reported."""
    try:
        value = json.loads(output)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, dict) and isinstance(value.get("advice"), str) and value.get("status") == "ok":
        return ToolCompleted(call_id=call_id, output=value["advice"], **place)
    if isinstance(value, dict) and isinstance(value.get("error"), str):
        message = value.get("message") if isinstance(value.get("message"), str) else value["error"]
        return ToolCompleted(call_id=call_id, is_error=True, error_code=value["error"], error_message=message,
                             output=message, **place)
    return ToolCompleted(call_id=call_id, output=output, **place)


def open_obligations(events: Sequence[Event]) -> list[Item]:
    """The obligations a conversation leaves open: its failed checks not genuinely re-run since."""
    tracker = Tracker()
    for event in events:
        tracker.handle(event)
    return list(tracker.open_items())
