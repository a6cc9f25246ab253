"""What every event carries."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict


class BaseEvent(BaseModel):
    """Fields shared by every event.

    Events are immutable values: the tracker orders them by its own tick (the number
    ``Tracker.handle`` returns), never by a field of the event, so one event can be handed to
    several consumers. Unknown fields are ignored on input, so events written by a newer host
    (or an older one that stamped a ``tick``) still load.
    """

    # The field docstrings are documentation only: pydantic's use_attribute_docstrings would read
    # every event module's source when the package is imported, and every Stop hook imports it.
    model_config = ConfigDict(extra="ignore", frozen=True)

    agent_id: str = "root"
    """The agent the event belongs to; agents never announced by `AgentSpawned` are root agents."""
    time: datetime | None = None
    """When the host says the event happened (informational only)."""
    origin: str | None = None
    """Where the event was read from, for reports (``session.jsonl:412``)."""
    entry_id: str | None = None
    """The id of the transcript entry it was read from, the same on every read of the file: Pi's
    entry ``id``, Claude Code's ``uuid``, ``L<line>`` for Codex (whose entries have none). The
    advisor's ledger names its cards after it (``#id``)."""
