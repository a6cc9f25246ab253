"""A user's message."""

from __future__ import annotations

from typing import Literal

from ._base import BaseEvent


class UserMessage(BaseEvent):
    """The user speaks: a new task starts for the agent, unless this is a goal continuation."""

    type: Literal["user_message"] = "user_message"
    text: str = ""
    """The user's words."""
    goal: bool = False
    """A continuation of the same goal (an automatic "keep going"): the task does not change."""
    images: int = 0
    """Images the user pasted into the message. They have no path (they were pasted, not read
    from a file), so nothing that reads files can show them."""
