"""The agent tree as the host registered it: who is root, who is a worker, who is an advisor.

A role comes from the identity the host registered, never from a label: an agent labelled
"advisor" is whatever it was registered as, and anything registered below an advisor is an
advisor too (its descendants inherit the identity's restrictions). The task root is found by
walking parent links; a disposed agent keeps its place in the tree for the walk, so a worker
whose parent ended still counts against the same task.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from advisor.errors import RegistrationError, UnknownAgent
from obligations import AgentRole


@dataclass(slots=True)
class AgentRecord:
    """One registered agent."""

    id: str
    role: AgentRole
    parent: str | None
    visible_tools: frozenset[str] | None
    """The tools the agent can see (``None``: the host did not say — allowed only for a root)."""
    label: str | None = None
    depth: int = 0
    """Hops below the task root (the root is 0)."""
    alive: bool = True
    consultation: str | None = None
    """For an advisor child: the consultation it serves."""
    children: set[str] = field(default_factory=set)
    root: str = ""
    """The task root (parent links never change, so it is found once)."""
    covered: dict[str, tuple[object, bool]] = field(default_factory=dict)
    """Coverage answers per trigger, with the policy record they were computed under."""


class AgentTree:
    """Registered agents and their links. Not thread-safe by itself: the host locks around it."""

    def __init__(self) -> None:
        self._agents: dict[str, AgentRecord] = {}

    def register(self, agent_id: str, role: AgentRole, *, parent: str | None = None,
                 visible_tools: Iterable[str] | None = None, label: str | None = None,
                 consultation: str | None = None) -> AgentRecord:
        """Add an agent (or re-register a live one with the same role and parent, updating its
        visible tools and label). Raises :class:`RegistrationError` for a tree it cannot hold."""
        if not agent_id:
            raise RegistrationError("an agent needs a non-empty id")
        if role == "root" and parent is not None:
            raise RegistrationError(f"root agent {agent_id!r} cannot have a parent ({parent!r})")
        if role != "root" and parent is None:
            raise RegistrationError(f"a {role} agent ({agent_id!r}) needs the parent that started it")
        upper = self._agents.get(parent) if parent is not None else None
        if parent is not None and upper is None:
            raise RegistrationError(f"agent {agent_id!r} names parent {parent!r}, which was never registered")
        if upper is not None and upper.role == "advisor":
            role = "advisor"  # a descendant of an advisor identity is an advisor, whatever it is called
        existing = self._agents.get(agent_id)
        if existing is not None and existing.alive:
            if existing.role != role or existing.parent != parent:
                raise RegistrationError(f"agent {agent_id!r} is already registered as {existing.role} "
                                        f"under {existing.parent!r}")
            existing.visible_tools = _tools(visible_tools, role)
            existing.label = label if label is not None else existing.label
            existing.covered.clear()
            return existing
        depth = 0 if upper is None else upper.depth + (1 if upper.role != "advisor" else 0)
        record = AgentRecord(agent_id, role, parent, _tools(visible_tools, role), label, depth,
                             consultation=consultation, root=upper.root if upper is not None else agent_id)
        self._agents[agent_id] = record
        if upper is not None:
            upper.children.add(agent_id)
        return record

    def get(self, agent_id: str) -> AgentRecord:
        """The live agent with this id (:class:`UnknownAgent` otherwise)."""
        record = self._agents.get(agent_id)
        if record is None or not record.alive:
            raise UnknownAgent(f"agent {agent_id!r} is not registered with the advisor host")
        return record

    def find(self, agent_id: str) -> AgentRecord | None:
        """The agent with this id, live or disposed, if it was ever registered."""
        return self._agents.get(agent_id)

    def root_of(self, agent_id: str) -> str:
        """The task root: the agent reached by walking parent links up from ``agent_id``."""
        record = self._agents.get(agent_id)
        if record is None:
            raise UnknownAgent(f"agent {agent_id!r} is not registered with the advisor host")
        return record.root  # walked up the parent links once, at registration

    def requester_of(self, agent_id: str) -> str | None:
        """For an advisor (or its descendant): the non-advisor agent that consulted it."""
        record = self._agents.get(agent_id)
        while record is not None and record.role == "advisor" and record.parent is not None:
            record = self._agents.get(record.parent)
        return record.id if record is not None and record.role != "advisor" else None

    def dispose(self, agent_id: str) -> AgentRecord | None:
        """Mark an agent gone (its place in the tree stays for the walk to its root)."""
        record = self._agents.get(agent_id)
        if record is not None:
            record.alive = False
        return record

    def live(self) -> list[AgentRecord]:
        """The live agents, in registration order."""
        return [record for record in self._agents.values() if record.alive]


def _tools(visible: Iterable[str] | None, role: AgentRole) -> frozenset[str] | None:
    """Visible tools in lower case; a worker or advisor the host said nothing about sees nothing."""
    if visible is None:
        return None if role == "root" else frozenset()
    return frozenset(tool.lower() for tool in visible)
