"""An agent ends."""

from __future__ import annotations

from typing import Literal

from ._base import BaseEvent


class AgentDisposed(BaseEvent):
    """The agent is gone: its items, signals and reminders are dropped."""

    type: Literal["agent_disposed"] = "agent_disposed"
