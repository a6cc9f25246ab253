"""A tool call completes."""

from __future__ import annotations

from typing import Literal

from ._base import BaseEvent


class ToolCompleted(BaseEvent):
    """A tool call's result. Without an exit code it is never a pass."""

    type: Literal["tool_completed"] = "tool_completed"
    call_id: str
    """The identifier of the dispatched call this completes."""
    exit_code: int | None = None
    """The command's exit status, when the host reports one."""
    is_error: bool = False
    """The host marked the result as an error."""
    error_code: str | None = None
    """A structured error code (`EACCES`, `permission_denied`, `timeout`, `cancelled` …)."""
    error_message: str | None = None
    """The host's error message."""
    output: str | None = None
    """The output the agent saw (possibly cut by the host), without the images it held."""
    images: int = 0
    """Images in the result (a screenshot the tool read): viewable again at the call's path."""
