"""The host records which tools the agent may call."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ._base import BaseEvent


class ToolInfo(BaseModel):
    """One tool of a catalogue: its name and what it is for."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    name: str
    """The name the agent calls it by."""
    description: str = ""
    """What it does, as the host describes it (its first sentence is what the advisor is shown)."""


class ToolCatalogue(BaseEvent):
    """The tools the host declared to the agent, where a session records them (a Codex session's
    dynamic tools, a Pi system snapshot). Hosts' built-in tools are in
    ``obligations.sources.host_tools``. Obligations are unaffected."""

    type: Literal["tool_catalogue"] = "tool_catalogue"
    tools: tuple[ToolInfo, ...] = ()
    """The tools, in the host's order."""
