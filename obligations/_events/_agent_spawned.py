"""An agent starts."""

from __future__ import annotations

from typing import Literal

from .._vocabulary import AgentRole
from ._base import BaseEvent


class AgentSpawned(BaseEvent):
    """A new agent joins the tree: a worker below an agent, or an advisor consulted by one."""

    type: Literal["agent_spawned"] = "agent_spawned"
    parent_id: str | None = None
    """The agent that started it (`None` for a root agent)."""
    role: AgentRole = "local-subagent"
    """What it is: obligations belong to root agents; workers' and advisors' edits count against them."""
