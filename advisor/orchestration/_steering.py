"""What the host hands back to an agent: steering before a step, and the decision at a stop."""

from __future__ import annotations

from typing import Literal

from advisor._values import Frozen
from advisor.consult import Severity

SteerKind = Literal["advice", "note", "obligations", "reminder"]
"""``advice``: a consultation's verdict for its requester; ``note``: a low-severity finding kept
for the root's next step; ``obligations``: the open set changed; ``reminder``: open obligations
before the agent stops (always a reminder, never a block)."""


class Steer(Frozen):
    """A message for one agent's next model step."""

    agent_id: str
    """The agent it is for (advice only ever goes to its requester)."""
    kind: SteerKind
    """What it is."""
    text: str
    """What the agent reads."""
    severity: Severity | None = None
    """For advice and notes: the verdict's level."""
    consultation_id: str | None = None
    """The consultation it comes from."""
    historical: bool = False
    """A note accepted before the user's newest message: optional, about earlier work."""


class StopDecision(Frozen):
    """The answer to "may this agent end its turn now?"."""

    allow: bool
    """``False``: the host should give the agent another step with :attr:`steer`."""
    reason: str | None = None
    """Why not, in a line."""
    steer: tuple[Steer, ...] = ()
    """What the agent should read in that step (advice, a reminder)."""
