"""The advisor inside multi-agent hosts: :class:`AdvisorHost` and the rules it enforces.

Each rule is its own module: the agent tree (``_agents``), the activation gate
(``_activation``), the verdict channel and its budgets (``_verdict_channel``,
``_verdict_budget``), coverage and waits (``_coverage``, ``_wait``, ``_notes``), the task-tree
limiter (``_limiter``), permissions (``_capabilities``, ``_permissions``, ``_policy_records``),
the workspace lease (``_lease``), pinning (``_pinning``), case packets (``_packet``,
``_packet_fit``), coverage watermarks (``_watermarks``) and the ``advisor/run`` records
(``_run_records``). See ``docs/advisor-host.md``.
"""

from advisor.orchestration._activation import Activation, ActivationGate
from advisor.orchestration._agents import AgentTree
from advisor.orchestration._capabilities import TOOL_TABLE, ToolClass, tool_class
from advisor.orchestration._child import HOST_SYSTEM_PROMPT, HostTool
from advisor.orchestration._coverage import (
    COVERAGE_TABLE,
    CoverageOverrides,
    CoverageRow,
    CoverageSettings,
    Mode,
    trigger_covers,
)
from advisor.orchestration._feed import feed_session
from advisor.orchestration._host import AdvisorHost, AgentView, ToolAdmission
from advisor.orchestration._lease import Lease
from advisor.orchestration._limiter import LimiterStats, Reservation, TaskLimiter
from advisor.orchestration._packet import CAPS, PacketInput, PriorAdvice, TriggerInfo, build_packet
from advisor.orchestration._packet_fit import MAX_PACKET_BYTES, FittedPacket, fit_packet, packet_bytes
from advisor.orchestration._permissions import (
    DEFAULT_ENABLED_TOOLS,
    PermissionSettings,
    ceiling,
    check_tool,
    effective_root_policy,
)
from advisor.orchestration._pinning import Pin
from advisor.orchestration._policy_records import PolicyRecord, read_policy
from advisor.orchestration._report import AdvisorReport
from advisor.orchestration._run_records import Continuable, PolicyRow, RunLog, RunRecord
from advisor.orchestration._settings import HostSettings
from advisor.orchestration._steering import Steer, StopDecision
from advisor.orchestration._verdict_budget import TOTAL_BYTES, fit_verdict
from advisor.orchestration._verdict_channel import VERDICT_SPEC, VERDICT_TOOL, AdvisorVerdict, VerdictChannel
from advisor.orchestration._vocabulary import (
    REPORT_OUTCOMES,
    RUN_EVENTS,
    SWITCHES,
    WAITS,
    ReportOutcome,
    RunEvent,
    Switch,
    Wait,
)
from advisor.orchestration._wait import WaitSettings, resolve_wait
from advisor.orchestration._watermarks import covered

__all__ = [
    "CAPS",
    "COVERAGE_TABLE",
    "DEFAULT_ENABLED_TOOLS",
    "HOST_SYSTEM_PROMPT",
    "MAX_PACKET_BYTES",
    "REPORT_OUTCOMES",
    "RUN_EVENTS",
    "SWITCHES",
    "TOOL_TABLE",
    "TOTAL_BYTES",
    "VERDICT_SPEC",
    "VERDICT_TOOL",
    "WAITS",
    "Activation",
    "ActivationGate",
    "AdvisorHost",
    "AdvisorReport",
    "AdvisorVerdict",
    "AgentTree",
    "AgentView",
    "Continuable",
    "CoverageOverrides",
    "CoverageRow",
    "CoverageSettings",
    "FittedPacket",
    "HostSettings",
    "HostTool",
    "Lease",
    "LimiterStats",
    "Mode",
    "PacketInput",
    "PermissionSettings",
    "Pin",
    "PolicyRecord",
    "PolicyRow",
    "PriorAdvice",
    "ReportOutcome",
    "Reservation",
    "RunEvent",
    "RunLog",
    "RunRecord",
    "Steer",
    "StopDecision",
    "Switch",
    "TaskLimiter",
    "ToolAdmission",
    "ToolClass",
    "TriggerInfo",
    "VerdictChannel",
    "Wait",
    "WaitSettings",
    "build_packet",
    "ceiling",
    "check_tool",
    "covered",
    "effective_root_policy",
    "feed_session",
    "fit_packet",
    "fit_verdict",
    "packet_bytes",
    "read_policy",
    "resolve_wait",
    "tool_class",
    "trigger_covers",
]
