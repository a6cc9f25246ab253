"""What a Stop hook answers Claude Code and Codex, as typed models with the hosts' field names.

Both hosts read the same JSON on standard output (exit status 0): ``decision: "block"`` with a
``reason`` keeps the agent working with the reason as its instruction; ``systemMessage`` is shown
to the user. An empty answer allows the stop silently.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict


class StopBlock(BaseModel):
    """Hold the agent: it keeps working, with ``reason`` as its instruction."""

    model_config = ConfigDict(frozen=True)

    decision: Literal["block"] = "block"
    """Always ``block``."""
    reason: str
    """What the agent is told: the open checks and what closes each."""

    def to_json(self) -> str:
        """The answer as the hosts read it."""
        return json.dumps(self.model_dump())


class StopRelease(BaseModel):
    """Let the agent stop, with a message for the user."""

    model_config = ConfigDict(frozen=True)

    systemMessage: str  # noqa: N815 (the hosts' field name)
    """Shown to the user: what is still unverified."""

    def to_json(self) -> str:
        """The answer as the hosts read it."""
        return json.dumps(self.model_dump())


StopAnswer = StopBlock | StopRelease
"""A Stop hook's answer, when it has one to give."""
