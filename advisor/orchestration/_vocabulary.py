"""The words the host answers in, as types; each tuple beside a type holds its values in order."""

from __future__ import annotations

from typing import Literal, get_args

# An agent's role (``obligations.AgentRole``: root, local-subagent, advisor) and why a consultation runs
# (``advisor.consult.Trigger``) are their packages' words; the host decides roles by registration only.

Switch = Literal["follow", "on", "off"]
"""A per-session override: ``follow`` the global default, force it ``on``, or ``off``."""

Wait = Literal["inherit", "block", "background"]
"""Whether an automatic consultation holds the requester's step (``block``) or runs beside it."""

VerdictStatus = Literal["published", "no_verdict"]
"""A consultation turn's verdict: published from a reconciled ``advisor_verdict`` submission, or none."""

ReportOutcome = Literal["delivered", "no_verdict", "stale", "refused", "failed", "queued-aborted"]
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

SWITCHES: tuple[Switch, ...] = get_args(Switch)
WAITS: tuple[Wait, ...] = get_args(Wait)
REPORT_OUTCOMES: tuple[ReportOutcome, ...] = get_args(ReportOutcome)
RUN_EVENTS: tuple[RunEvent, ...] = get_args(RunEvent)
