"""An assistant's message."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ._base import BaseEvent


class Claim(BaseModel):
    """A claim the host recognised in an assistant message ("all tests pass")."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    claim_id: str
    """The host's identifier for the claim."""
    summary: str = ""
    """What was claimed, in a line."""
    validation_call_id: str | None = None
    """The tool call whose check the claim rests on; its validation identity is looked up by the
    tracker, never taken from the claim."""


class AssistantMessage(BaseEvent):
    """The assistant speaks; one message is one turn of its agent."""

    type: Literal["assistant_message"] = "assistant_message"
    text: str = ""
    """The message text (without its reasoning)."""
    reasoning: str = ""
    """The reasoning or thinking the host recorded for this step, when it kept it in clear
    (Claude Code ``thinking`` blocks, Codex reasoning summaries, Pi ``thinking`` parts)."""
    claim: Claim | None = None
    """A claim carried by the message, registered as by `Tracker.register_claim`."""
