"""What every event carries."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict


class BaseEvent(BaseModel):
    """Fields shared by every event.

    Unknown fields are ignored on input, so events written by a newer host still load.
    """

    model_config = ConfigDict(extra="ignore", use_attribute_docstrings=True)

    agent_id: str = "root"
    """The agent the event belongs to; agents never announced by `AgentSpawned` are root agents."""
    tick: int | None = None
    """Stamped by the tracker when it handles the event: the order of events, never a wall clock."""
    time: datetime | None = None
    """When the host says the event happened (informational only)."""
    origin: str | None = None
    """Where the event was read from, for reports (``session.jsonl:412``)."""
