"""Whether a consultation holds the requester's step.

=============================  ===============================================================
trigger / role                 wait
=============================  ===============================================================
manual (any role)              block: the agent asked and waits for the answer
root escalation                the session's ``escalation_wait`` (inherit: the global setting)
root continuous                the session's ``continuous_wait`` (inherit: the global setting)
local-subagent escalation      block: a one-shot worker may settle before a background review
local-subagent continuous      block (when a session enables it)
completion review              block: it gates the final delivery
mutating advisor tools         block, whatever the row says
=============================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from advisor.consult import Trigger
from advisor.orchestration._vocabulary import Wait
from obligations import AgentRole

Resolved = Literal["block", "background"]


@dataclass(frozen=True, slots=True)
class WaitSettings:
    """The global waits for root automatic consultations."""

    escalation: Resolved = "block"
    continuous: Resolved = "background"


def resolve_wait(trigger: Trigger, role: AgentRole, *, settings: WaitSettings, escalation: Wait = "inherit",
                 continuous: Wait = "inherit", mutating: bool = False) -> Resolved:
    """Block or run in the background, per the table above."""
    if mutating or trigger in ("manual", "completion") or role != "root":
        return "block"
    chosen = escalation if trigger == "escalation" else continuous
    if chosen == "inherit":
        return settings.escalation if trigger == "escalation" else settings.continuous
    return chosen
