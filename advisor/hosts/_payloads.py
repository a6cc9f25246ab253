"""What Claude Code and Codex send a Stop hook, as typed models with the hosts' own field names.

Both hosts send the same fields for ``Stop`` and ``SubagentStop`` (Claude Code's ``BaseHookInput``
and its Stop fields; Codex adds ``turn_id`` and ``model``, and may send ``transcript_path: null``).
A hook must answer whatever it is sent, so reading never fails: a field of the wrong type is read
as absent (an ``agent_id`` given as a number too: the hosts send strings, and a number is not the
id of any agent they name), and fields not listed here are ignored.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


Text = Annotated[str | None, BeforeValidator(_text)]
"""A string field; anything else is read as absent."""
Flag = Annotated[bool, BeforeValidator(bool)]
"""A flag: any truthy JSON value is set."""


class HookInput(BaseModel):
    """The fields every hook call carries."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    hook_event_name: Text = None
    """``Stop``, ``SubagentStop``, ``PostToolUse`` …"""
    session_id: Text = None
    """The host's session id."""
    transcript_path: Text = None
    """The session's transcript file (Codex may send ``null``)."""
    cwd: Text = None
    """The session's working directory."""
    permission_mode: Text = None
    """``default``, ``acceptEdits``, ``plan``, ``bypassPermissions`` …"""


class StopInput(HookInput):
    """A ``Stop`` or ``SubagentStop`` call: the agent is about to end its turn."""

    stop_hook_active: Flag = False
    """The host says this stop already follows a block by a Stop hook."""
    last_assistant_message: Text = None
    """The agent's last message (the transcript may not hold it yet)."""
    agent_id: Text = None
    """For ``SubagentStop``: the sub-agent's id."""
    agent_type: Text = None
    """For ``SubagentStop``: the sub-agent's type (``general-purpose`` …)."""
    agent_transcript_path: Text = None
    """For ``SubagentStop``: the sub-agent's own transcript, when the host writes one."""
    turn_id: Text = None
    """Codex: the turn that is ending."""
    model: Text = None
    """Codex: the model of the turn."""

    @property
    def subagent(self) -> bool:
        """A sub-agent is stopping, not the session's agent."""
        return self.hook_event_name == "SubagentStop"

    @property
    def transcript(self) -> str | None:
        """The transcript that records the stopping agent's work: a sub-agent's own, when given."""
        own = self.agent_transcript_path if self.subagent else None
        return own or self.transcript_path or None
