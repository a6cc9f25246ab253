"""The words the host answers in, as types; each tuple beside a type holds its values in order."""

from __future__ import annotations

from typing import Literal, get_args

Role = Literal["root", "local-subagent", "advisor"]
"""An agent's role, decided by the identity the host registered, never by its label: ``root``
(the task's main agent), ``local-subagent`` (a worker in the normal tool lifecycle), ``advisor``
(a consultation child, or a descendant of one)."""

Trigger = Literal["manual", "escalation", "continuous", "completion"]
"""Why a consultation runs: the agent asked (``manual``), its escalation score called for it,
continuous review of every turn, or a review before the turn is allowed to end."""

Switch = Literal["follow", "on", "off"]
"""A per-session override: ``follow`` the global default, force it ``on``, or ``off``."""

Wait = Literal["inherit", "block", "background"]
"""Whether an automatic consultation holds the requester's step (``block``) or runs beside it."""

VerdictStatus = Literal["published", "no_verdict"]
"""A consultation turn's verdict: published from a reconciled ``advisor_verdict`` submission, or none."""

Outcome = Literal["delivered", "no_verdict", "stale", "refused", "failed", "queued-aborted"]
"""How a consultation ended for its requester: advice delivered; the run ended without a
reconciled verdict; the workspace or the user's intent moved on (recorded, never delivered);
refused before dispatch (coverage, budget, continuation, pinning); the model failed; or
aborted while it waited for a slot."""

Submission = Literal["accepted", "duplicate", "refused"]
"""What the verdict channel said to an ``advisor_verdict`` call."""

RunEvent = Literal["reserved", "queued", "dispatched", "retry", "failed", "delivered", "no_verdict", "stale",
                   "refused", "released"]
"""The kinds of ``advisor/run`` rows, in the order a turn can go through them."""

Effect = Literal["read-only", "mutating", "delegation", "internal", "unknown"]
"""What a tool can do, for the advisor's permissions: only ``read-only`` tools are candidates by
default; ``delegation`` and the consult tool are never granted; ``internal`` is the verdict
channel; ``unknown`` is treated as mutating."""

ROLES: tuple[Role, ...] = get_args(Role)
TRIGGERS: tuple[Trigger, ...] = get_args(Trigger)
SWITCHES: tuple[Switch, ...] = get_args(Switch)
WAITS: tuple[Wait, ...] = get_args(Wait)
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
RUN_EVENTS: tuple[RunEvent, ...] = get_args(RunEvent)
