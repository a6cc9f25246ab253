"""Feeding a recorded session into a host, as if its agents were running now."""

from __future__ import annotations

from collections.abc import Iterable

from advisor.orchestration._host import AdvisorHost
from obligations import AgentRole, AgentSpawned, Event


def feed_session(host: AdvisorHost, events: Iterable[Event]) -> list[str]:
    """Hand ``events`` to ``host`` in order, each as it is (:meth:`AdvisorHost.handle`), and return the
    agents it registered, roots first. An agent no event announced is registered as a root when it
    first acts; an announced one in its role, below its parent. To feed a session cut after its
    ``N``-th call, give it ``obligations.until_call(events, N)``."""
    seen: dict[str, AgentRole] = {}

    def known(agent_id: str) -> None:
        if agent_id not in seen:
            host.register_agent(agent_id)
            seen[agent_id] = "root"

    for event in events:
        if isinstance(event, AgentSpawned):
            if event.parent_id is not None:
                known(event.parent_id)
            if event.agent_id in seen:
                continue
            seen[event.agent_id] = "root" if event.parent_id is None else event.role
        elif event.agent_id not in seen:
            known(event.agent_id)
        host.handle(event)
    return sorted(seen, key=lambda agent: (seen[agent] != "root", list(seen).index(agent)))
