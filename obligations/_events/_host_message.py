"""The host speaks to the agent on its own behalf."""

from __future__ import annotations

from typing import Literal

from .._vocabulary import HostMessageKind
from ._base import BaseEvent


class HostMessage(BaseEvent):
    """Text the host puts in the conversation itself — a hook's feedback — recorded in the user's
    place but not the user's words. It is context, not intent: it starts no task, so a reminder the
    agent ignores stays due and a block budget keeps counting."""

    type: Literal["host_message"] = "host_message"
    kind: HostMessageKind = "hook-feedback"
    """What the host says: ``hook-feedback`` is a hook's answer (a Stop hook's block reason) handed
    to the agent; ``extension`` a message one of its extensions added."""
    text: str = ""
    """The text, without the host's wrapping (``Stop hook feedback:``, ``<hook_prompt …>``)."""
    hidden: bool = False
    """The host marks it as not shown to the user (Claude Code's ``isMeta``, Pi's ``display: false``)."""
    name: str | None = None
    """For an extension's message, the extension's name for its kind (Pi's ``customType``:
    ``advisor-review`` is a completion review's answer)."""
