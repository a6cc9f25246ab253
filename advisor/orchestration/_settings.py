"""The host's global settings (a session's policy record overrides some of them)."""

from __future__ import annotations

from pydantic import Field

from advisor._values import Frozen
from advisor.models import Effort
from advisor.orchestration._coverage import Mode
from advisor.orchestration._permissions import DEFAULT_ENABLED_TOOLS
from advisor.orchestration._wait import Resolved


class HostSettings(Frozen):
    """How an :class:`~advisor.AdvisorHost` runs consultations.

    ===================================  =========  ===================================================
    setting                              default    meaning
    ===================================  =========  ===================================================
    ``max_concurrent_advisor_runs``      2          advisor runs at once per task tree (FIFO beyond)
    ``max_advisor_consults_per_task``    -1         consultations per task tree (-1 no limit, 0 off)
    ``max_manual_consults_per_session``  -1         manual consultations per agent (-1 no limit, 0 off)
    ``mode``                             escalate   trigger preset: manual, escalate, continuous
    ``completion_review``                false      review before a turn may end
    ``escalation_wait``                  block      root escalation: block or background
    ``continuous_wait``                  background root continuous review: block or background
    ``default_enabled_tools``            read …     the advisor's default tools
    ===================================  =========  ===================================================
    """

    max_concurrent_advisor_runs: int = Field(default=2, ge=1)
    """Advisor runs at once under one root task; more wait in a FIFO queue."""
    max_advisor_consults_per_task: int = -1
    """Consultations one task tree may start (negative: no limit; 0: disabled)."""
    max_manual_consults_per_session: int = -1
    """Manual consultations one agent may start (negative: no limit; 0: disabled)."""
    mode: Mode = "escalate"
    """Which automatic triggers run (completion review is separate)."""
    completion_review: bool = False
    """Whether turn-stopping runs a completion review."""
    escalation_wait: Resolved = "block"
    """Root escalation's wait unless a session overrides it."""
    continuous_wait: Resolved = "background"
    """Root continuous review's wait unless a session overrides it."""
    default_enabled_tools: frozenset[str] = DEFAULT_ENABLED_TOOLS
    """The advisor's tools unless a session changes them."""
    capability_amplifier_tools: frozenset[str] = frozenset()
    """Custom or MCP tools that delegate (never granted to advisors)."""
    read_only_tools: frozenset[str] = frozenset()
    """Host tools known to be read-only."""
    profile: str = "default"
    """The advisor profile consultations are pinned to."""
    effort: Effort | None = None
    """Reasoning effort for the advisor model."""
    activation_ttl: float = Field(default=600.0, gt=0)
    """Seconds an activation lives (the attempt deadline)."""
    retry_delay: float = Field(default=1.0, ge=0)
    """Seconds before the one retry of an automatic consultation that failed transiently."""
    backoff_base: float = Field(default=1.0, ge=0)
    """First wait after a pre-dispatch failure of an automatic consultation (doubling to ``backoff_max``)."""
    backoff_max: float = Field(default=60.0, ge=0)
    """Longest wait after pre-dispatch failures."""
    low_severities: frozenset[str] = frozenset({"none", "nit"})
    """Findings that wait for the root's next natural step instead of steering."""
