"""A tool call is dispatched."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shellparse import Shell

from ._base import BaseEvent


class ToolDispatched(BaseEvent):
    """The agent calls a tool. The call's effects are counted from here."""

    type: Literal["tool_dispatched"] = "tool_dispatched"
    call_id: str
    """The host's identifier of the call, shared with its `ToolCompleted`."""
    tool: str
    """The tool's name (`Bash`, `exec_command`, `Edit` …)."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    """The call's arguments; for shell tools the command is `command` or `cmd`."""
    shell: Shell | None = None
    """The dialect of a shell tool's command, when the host knows it (else from the tool's name)."""
    cwd: str | None = None
    """The working directory the host runs the call in, when it reports one."""
    user_shell: bool = False
    """The user ran this command themselves (``!`` in Claude Code, Codex and Pi), not the agent."""
    excluded: bool = False
    """The host keeps the call and its output out of the agent's context (Pi's ``!!`` runs). It
    still ran, and counts for obligations; the advisor is not shown it either."""
