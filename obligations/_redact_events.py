"""Events with every text they carry redacted: what a consumer that shows a session to a model takes
in, so everything it derives — and cuts — is already clean.

=====================  ==============================================================
event                  fields redacted
=====================  ==============================================================
``UserMessage``        ``text``
``AssistantMessage``   ``text``, ``reasoning``, the claim's ``summary``
``ToolDispatched``     every string in ``arguments`` (nested), ``cwd``
``ToolCompleted``      ``output``, ``error_message``
``HostMessage``        ``text``
``Compaction``         ``summary``
``ToolCatalogue``      each tool's ``description``
=====================  ==============================================================

Identifiers (call ids, entry ids, tool names, agents) are kept: they are the host's, and joining
a call to its result needs them whole.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ._events._assistant_message import AssistantMessage
from ._events._base import BaseEvent
from ._events._compaction import Compaction
from ._events._host_message import HostMessage
from ._events._tool_catalogue import ToolCatalogue
from ._events._tool_completed import ToolCompleted
from ._events._tool_dispatched import ToolDispatched
from ._events._user_message import UserMessage
from ._redact import redact, redact_value

_TEXT_FIELDS: dict[type[Any], tuple[str, ...]] = {
    UserMessage: ("text",), AssistantMessage: ("text", "reasoning"), ToolDispatched: ("arguments", "cwd"),
    ToolCompleted: ("output", "error_message"), HostMessage: ("text",), Compaction: ("summary",)}
"""The fields of each event class that carry text."""


E = TypeVar("E", bound=BaseEvent)


def redact_event(event: E) -> E:
    """``event`` with its texts redacted (the same event when none held a secret)."""
    changes: dict[str, Any] = {}
    fields = next((names for kind, names in _TEXT_FIELDS.items() if isinstance(event, kind)), ())
    for name in fields:
        value = getattr(event, name)
        redacted = redact_value(value)
        if redacted is not value and redacted != value:
            changes[name] = redacted
    if isinstance(event, AssistantMessage) and event.claim is not None and event.claim.summary:
        summary = redact(event.claim.summary)
        if summary != event.claim.summary:
            changes["claim"] = event.claim.model_copy(update={"summary": summary})
    if isinstance(event, ToolCatalogue):
        tools = tuple(tool.model_copy(update={"description": redact(tool.description)}) for tool in event.tools)
        if any(new.description != old.description for new, old in zip(tools, event.tools, strict=True)):
            changes["tools"] = tools
    return event.model_copy(update=changes) if changes else event
