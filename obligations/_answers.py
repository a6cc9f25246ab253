"""The tracker's answers to questions about its state: agents, tasks, claims and reviews.

They are values: a copy of what the tracker knew when it answered, never a view of its state.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._vocabulary import AgentRole


@dataclass(frozen=True, slots=True)
class AgentInfo:
    """An agent the tracker knows, and where it stands in the agent tree."""

    id: str
    """The agent's id."""
    parent: str | None
    """The agent that started it (``None`` for a root agent)."""
    role: AgentRole
    """``root``, ``local-subagent`` or ``advisor``."""
    root: str
    """Its root agent: the one whose obligations its work counts for."""
    task: int
    """The tick at which its root's current task began (0: before any user message)."""


@dataclass(frozen=True, slots=True)
class Task:
    """A root agent's current task: everything between one user message and the next."""

    agent_id: str
    """The root agent whose task it is."""
    started: int
    """The tick of the user message that began it (0: the session's start, before any)."""
    reminders_used: int
    """Reminders given in it."""
    reminders_left: int
    """Reminders it can still give (see ``TrackerConfig.reminder_budget``)."""


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The answer to a claim registration, correction or disposition."""

    accepted: bool
    """Whether it was recorded."""
    message: str
    """What happened, or why it was refused."""
    item_id: str | None = None
    """The item concerned."""


@dataclass(frozen=True, slots=True)
class ReviewTicket:
    """Taken when a review starts; a review that raced a workspace change is stale."""

    agent_id: str
    """The agent the review is for."""
    root: str
    """Its root agent, whose workspace the review looked at."""
    epoch: int
    """The workspace epoch when the review began."""
    tick: int
    """The tracker's tick when the review began."""
