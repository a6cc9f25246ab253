"""Which events are the session's own agent's: the first agent that no event announced as a sub-agent."""

from __future__ import annotations

from obligations import AgentSpawned, Event


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
