"""Which events are the session's own agent's, and a session cut short: "as if it had ended after call N".

The session's own agent is the first agent that no event announced as a sub-agent. Its calls are
the session's calls: ``witness consult --upto N`` and ``witness packet --upto N`` both stop at the
result of its ``N``-th call (its sub-agents' calls are not counted), with every event of any agent
until then.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ._events._agent_spawned import AgentSpawned
from ._events._tool_completed import ToolCompleted
from ._events._tool_dispatched import ToolDispatched
from ._events._union import Event
from .errors import NoSuchCall


class SessionAgent:
    """Follows a session's events and says which belong to its own agent (``agent_id``, or the first agent
    whose events arrive unannounced: a sub-agent is announced by ``AgentSpawned`` with a parent first)."""

    def __init__(self, agent_id: str | None = None) -> None:
        self.agent_id = agent_id
        """The session's own agent (``None`` until its first event)."""
        self._spawned: set[str] = set()

    def owns(self, event: Event) -> bool:
        """Whether ``event`` is the session's own agent's (an announcement never is)."""
        if isinstance(event, AgentSpawned):
            if event.parent_id is not None:
                self._spawned.add(event.agent_id)
            return False
        if self.agent_id is None and event.agent_id not in self._spawned:
            self.agent_id = event.agent_id
        return event.agent_id == self.agent_id


def until_call(events: Iterable[Event], upto: int | None) -> Iterator[Event]:
    """``events`` as if the session had ended after its ``upto``-th tool call: every event up to the
    result of the session's own agent's ``upto``-th call (all of them without ``upto``). Raises
    :class:`~obligations.errors.NoSuchCall` once the events end, when the session has fewer calls."""
    own = SessionAgent()
    count = 0
    target: str | None = None
    for event in events:
        yield event
        if upto is None or not own.owns(event):
            continue
        if isinstance(event, ToolDispatched) and target is None:
            count += 1
            if count == upto:
                target = event.call_id
        elif isinstance(event, ToolCompleted) and event.call_id == target:
            return
    if upto is not None and count < upto:
        raise NoSuchCall(upto, count)
