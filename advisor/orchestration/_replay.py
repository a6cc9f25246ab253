"""Feeding a recorded session into a host, as if its agents were running now."""

from __future__ import annotations

from collections.abc import Iterable

from advisor.orchestration._host import AdvisorHost
from advisor.orchestration._vocabulary import Role
from obligations import (
    AgentDisposed,
    AgentSpawned,
    AssistantMessage,
    Event,
    ToolCompleted,
    ToolDispatched,
    UserMessage,
)


def replay(host: AdvisorHost, events: Iterable[Event], *, upto: int | None = None) -> list[str]:
    """Report ``events`` to ``host`` in order — stopping after the ``upto``-th tool result —
    and return the agents it registered, roots first. An agent never announced is a root."""
    seen: dict[str, Role] = {}
    results = 0

    def known(agent_id: str) -> None:
        if agent_id not in seen:
            host.register_agent(agent_id)
            seen[agent_id] = "root"

    for event in events:
        if isinstance(event, AgentSpawned):
            parent = event.parent_id
            if parent is not None:
                known(parent)
            role: Role = "root" if parent is None else ("advisor" if event.role == "advisor" else "local-subagent")
            if event.agent_id not in seen:
                host.register_agent(event.agent_id, role, parent)
                seen[event.agent_id] = role
            continue
        if isinstance(event, AgentDisposed):
            if event.agent_id in seen:
                host.dispose_agent(event.agent_id)
            continue
        known(event.agent_id)
        if isinstance(event, UserMessage):
            host.on_user_message(event.agent_id, event.text, goal=event.goal)
        elif isinstance(event, AssistantMessage):
            host.on_assistant_message(event.agent_id, event.text)
        elif isinstance(event, ToolDispatched):
            host.on_tool_dispatched(event.agent_id, event.call_id, event.tool, dict(event.arguments),
                                    shell=event.shell, cwd=event.cwd)
        elif isinstance(event, ToolCompleted):
            host.on_tool_result(event.agent_id, event.call_id, exit_code=event.exit_code, is_error=event.is_error,
                                error_code=event.error_code, error_message=event.error_message, output=event.output)
            results += 1
            if upto is not None and results >= upto:
                break
    return sorted(seen, key=lambda agent: (seen[agent] != "root", list(seen).index(agent)))
