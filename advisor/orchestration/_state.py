"""The host's shared state: everything the lifecycle calls and the consultation runner touch,
behind one re-entrant lock (held only between awaits, never across one)."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from advisor.consult import ConsultationLog, ConsultSettings, Trigger
from advisor.models import ModelClient
from advisor.orchestration._activation import ActivationGate
from advisor.orchestration._activity import AgentActivity
from advisor.orchestration._agents import AgentRecord, AgentTree
from advisor.orchestration._child import HostTool
from advisor.orchestration._consultations import Consultations
from advisor.orchestration._coverage import CoverageOverrides, CoverageSettings, trigger_covers
from advisor.orchestration._lease import Lease
from advisor.orchestration._limiter import TaskLimiter
from advisor.orchestration._notes import NoteQueue
from advisor.orchestration._packet import PriorAdvice
from advisor.orchestration._permissions import PermissionSettings
from advisor.orchestration._policy_records import PolicyRecord
from advisor.orchestration._run_records import RunLog
from advisor.orchestration._settings import HostSettings
from advisor.orchestration._steering import Steer
from advisor.orchestration._verdict_channel import VerdictChannel
from advisor.orchestration._wait import WaitSettings
from obligations import CallRecord, Tracker, TrackerConfig

_DEFAULT_POLICY = PolicyRecord()


@dataclass(slots=True)
class Backoff:
    """Automatic consultations held back after pre-dispatch failures."""

    until: float = 0.0
    delay: float = 0.0


@dataclass
class HostState:
    """Everything the host knows, behind :attr:`lock`."""

    settings: HostSettings
    consult_settings: ConsultSettings
    model: ModelClient | None
    workspace: Path | None
    tracker_config: TrackerConfig
    log: ConsultationLog | None
    run_log: RunLog | None
    redact: Callable[[str], str]
    system_prompt: str
    host_tools: tuple[HostTool, ...]
    session: str = ""
    """The host session: run and policy records carry it, and only its own are restored."""
    clock: Callable[[], float] = time.monotonic
    lock: threading.RLock = field(default_factory=threading.RLock)
    tree: AgentTree = field(default_factory=AgentTree)
    consultations: Consultations = field(default_factory=Consultations)
    channel: VerdictChannel = field(default_factory=VerdictChannel)
    notes: NoteQueue = field(default_factory=NoteQueue)
    activity: dict[str, AgentActivity] = field(default_factory=dict)
    revision: dict[str, int] = field(default_factory=dict)
    limiters: dict[str, TaskLimiter] = field(default_factory=dict)
    leases: dict[str, Lease] = field(default_factory=dict)
    policies: dict[str, PolicyRecord] = field(default_factory=dict)
    ready: dict[str, list[Steer]] = field(default_factory=dict)
    inflight: dict[tuple[str, str], str] = field(default_factory=dict)
    backoff: dict[str, Backoff] = field(default_factory=dict)
    reviewed: dict[str, int] = field(default_factory=dict)
    material: dict[str, int] = field(default_factory=dict)
    prior: dict[str, list[PriorAdvice]] = field(default_factory=dict)
    inboxes: dict[str, list[str]] = field(default_factory=dict)
    pending_advisor_mutations: dict[str, list[object]] = field(default_factory=dict)
    coverage_cache: dict[str, tuple[PolicyRecord, CoverageOverrides]] = field(default_factory=dict)
    delegation_tools: set[str] = field(default_factory=set)
    """Host tools that run a sub-agent (their own calls count where they happen)."""
    seq_counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    judged: dict[str, CallRecord] = field(default_factory=dict)
    """The tracker's records of results it has just taken, by call id, until the host files them."""
    tracker: Tracker = field(init=False)
    gate: ActivationGate = field(init=False)

    def __post_init__(self) -> None:
        self.tracker = Tracker(self.tracker_config)
        self.tracker.watch(self.take_record)
        self._coverage_settings = CoverageSettings(mode=self.settings.mode,
                                                   completion_review=self.settings.completion_review)
        self.gate = ActivationGate(ttl=self.settings.activation_ttl, clock=self.clock)

    def take_record(self, record: CallRecord) -> None:
        """The tracker judged a result: keep its record for the call's activity row."""
        self.judged[record.call_id] = record

    def seq(self) -> int:
        """The next number of the host's shared sequence (child session events)."""
        return next(self.seq_counter)

    def limiter(self, root: str) -> TaskLimiter:
        """The root task tree's limiter."""
        found = self.limiters.get(root)
        if found is None:
            s = self.settings
            found = self.limiters[root] = TaskLimiter(max_concurrent=s.max_concurrent_advisor_runs,
                                                      max_consults=s.max_advisor_consults_per_task,
                                                      max_manual_per_agent=s.max_manual_consults_per_session)
        return found

    def lease(self, root: str) -> Lease:
        """The root task tree's workspace lease."""
        return self.leases.setdefault(root, Lease())

    def policy(self, root: str) -> PolicyRecord:
        """The root session's policy record (the defaults when it has none)."""
        return self.policies.get(root) or _DEFAULT_POLICY

    def covers(self, trigger: Trigger, record: AgentRecord) -> bool:
        """Whether ``trigger`` covers the agent, under its root's policy as it is now."""
        policy = self.policy(record.root)
        cached = record.covered.get(trigger)
        if cached is None or cached[0] is not policy:
            cached = record.covered[trigger] = (policy, trigger_covers(trigger, record.role, depth=record.depth,
                                                               label=record.label, settings=self._coverage_settings,
                                                               overrides=self.coverage(record.root)))
        return cached[1]

    def coverage(self, root: str) -> CoverageOverrides:
        """The root session's coverage overrides (kept until its policy record changes)."""
        record = self.policy(root)
        cached = self.coverage_cache.get(root)
        if cached is None or cached[0] is not record:
            cached = self.coverage_cache[root] = (record, record.coverage())
        return cached[1]

    def permission_settings(self) -> PermissionSettings:
        """The global part of the permission model."""
        s = self.settings
        return PermissionSettings(default_enabled=s.default_enabled_tools,
                                  amplifiers=s.capability_amplifier_tools | frozenset(self.delegation_tools),
                                  read_only=s.read_only_tools)

    def coverage_settings(self) -> CoverageSettings:
        """The global coverage settings."""
        return self._coverage_settings

    def wait_settings(self) -> WaitSettings:
        """The global waits."""
        return WaitSettings(escalation=self.settings.escalation_wait, continuous=self.settings.continuous_wait)

    def agent_activity(self, agent_id: str) -> AgentActivity:
        """An agent's current-task activity."""
        found = self.activity.get(agent_id)
        if found is None:
            found = self.activity[agent_id] = AgentActivity()
        return found
