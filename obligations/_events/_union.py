"""All events as one discriminated union, and reading them from JSON.

``Event`` is the plain union (for ``isinstance`` and ``typing.get_args``);
``DiscriminatedEvent`` adds the ``type`` discriminator, so validating a dict or a JSON line
goes straight to the right model instead of trying each one.
"""

from __future__ import annotations

from typing import Annotated, Any, get_args

from pydantic import Field, TypeAdapter

from ._agent_disposed import AgentDisposed
from ._agent_spawned import AgentSpawned
from ._assistant_message import AssistantMessage
from ._compaction import Compaction
from ._host_message import HostMessage
from ._tool_catalogue import ToolCatalogue
from ._tool_completed import ToolCompleted
from ._tool_dispatched import ToolDispatched
from ._user_message import UserMessage

Event = (UserMessage | HostMessage | AssistantMessage | ToolDispatched | ToolCompleted | AgentSpawned | AgentDisposed
         | Compaction | ToolCatalogue)
EVENT_CLASSES: frozenset[type[Event]] = frozenset(get_args(Event))
"""The classes of ``Event``, for telling an event's class apart without ``isinstance``."""
DiscriminatedEvent = Annotated[Event, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Event] = TypeAdapter(DiscriminatedEvent)


def event_from_json(data: str | bytes) -> Event:
    """Read one event from a JSON document (raises ``pydantic.ValidationError`` when it is not one)."""
    return _ADAPTER.validate_json(data)


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read one event from a dictionary (raises ``pydantic.ValidationError`` when it is not one)."""
    return _ADAPTER.validate_python(data)
