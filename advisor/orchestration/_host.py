"""``AdvisorHost``: the advisor for hosts with sub-agents, called at the host's lifecycle points.

A host registers its agents (roles come from the registration, never from labels), reports
user and assistant messages and tool calls, asks before each model step (``on_pre_step``) and
before an agent ends its turn (``on_turn_stopping``), and offers its agents a manual
``consult``. Inside are the obligation tracker, the coverage and wait tables, the activation
gate, the verdict channel, the task-tree limiter, the permission ceiling, pinning, case packets
and the run records. The API is synchronous over an asynchronous core: the event methods are
cheap and thread-safe; the methods that may consult have ``a…`` twins to await from a host's
own event loop.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

import shellparse
from advisor._values import Frozen
from advisor.consult import ConsultationLog, ConsultSettings, Trigger
from advisor.errors import ConsultationNotFound, ToolNotPermitted
from advisor.models import ModelClient
from advisor.orchestration._activity import Activity, keep_output
from advisor.orchestration._agents import AgentRecord
from advisor.orchestration._child import HOST_SYSTEM_PROMPT, HostTool
from advisor.orchestration._consultations import ConsultationRecord, Exchange
from advisor.orchestration._packet import shared_redactor
from advisor.orchestration._packet_fit import FittedPacket
from advisor.orchestration._permissions import check_tool, effective_root_policy
from advisor.orchestration._pinning import Pin
from advisor.orchestration._policy_records import PolicyRecord, read_policy
from advisor.orchestration._portal import Portal
from advisor.orchestration._report import AdvisorReport
from advisor.orchestration._run_records import PolicyRow, RunLog
from advisor.orchestration._runner import Runner, TurnPlan, TurnRequest, steer_of
from advisor.orchestration._settings import HostSettings
from advisor.orchestration._state import HostState
from advisor.orchestration._steering import Steer, StopDecision
from advisor.orchestration._verdict_channel import AdvisorVerdict
from obligations import (
    AgentDisposed,
    AgentRole,
    AgentSpawned,
    AssistantMessage,
    Event,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    TrackerConfig,
    UserMessage,
    redact_value,
)

Planned = TurnPlan | AdvisorReport | None
"""A turn admitted for dispatch, a refusal, or nothing to do."""
SNAPSHOT_VERSION = 1
DELEGATION = "agent"
"""The tracker's name for a delegation call (one of its delegation tools)."""
_MATERIAL_WORDS = ("root cause", "fixed", "validated", "because", "verified", "done", "complete")


class AgentView(Frozen):
    """A registered agent, as the host sees it (a copy)."""

    id: str
    """Its id."""
    role: AgentRole
    """Its role (from the registration; below an advisor, always ``advisor``)."""
    parent: str | None
    """The agent that started it."""
    root: str
    """The task root, found by walking parent links."""
    depth: int
    """Hops below the root."""
    label: str | None
    """Presentation only."""
    visible_tools: tuple[str, ...] | None
    """The tools it can see (``None``: not listed)."""


class ToolAdmission(Frozen):
    """Whether a dispatched tool may run."""

    allowed: bool
    """``False``: the host should not run it, and answer the agent with :attr:`reason`."""
    reason: str | None = None
    """Why not."""


class AdvisorHost:
    """The advisor inside a multi-agent host. See the module docstring and ``docs/advisor-host.md``."""

    def __init__(self, model: ModelClient | None = None, *, settings: HostSettings | None = None,
                 consult_settings: ConsultSettings | None = None, workspace: Path | str | None = None,
                 tracker_config: TrackerConfig | None = None,
                 log: ConsultationLog | Literal[False] | None = None, run_log: RunLog | Literal[False] | None = None,
                 redactor: Callable[[str], str] | None = None, system_prompt: str = HOST_SYSTEM_PROMPT,
                 host_tools: Sequence[HostTool] = (), clock: Callable[[], float] = time.monotonic,
                 session_id: str | None = None) -> None:
        """``model``: the advisor model (``None``: consultations are refused, nothing spent);
        ``log``/``run_log``: where consultations and ``advisor/run`` rows go (default: under
        ``$WITNESS_HOME``; ``False``: nowhere); ``redactor``: the shared redactor (``obligations``');
        ``host_tools``: extra advisor tools, off unless a session's policy allows them; ``session_id``: the
        host session its run and policy records belong to — a host given the id of an earlier one gets that
        session's policies and continuable consultations back; by default a new session (nothing is
        inherited from another host that shares ``$WITNESS_HOME``, whatever its agents are called)."""
        self._state = HostState(
            settings=settings or HostSettings(), consult_settings=consult_settings or ConsultSettings(),
            model=model, workspace=Path(workspace) if workspace is not None else None,
            tracker_config=tracker_config or TrackerConfig(),
            log=ConsultationLog() if log is None else (log or None),
            run_log=RunLog() if run_log is None else (run_log or None),
            redact=redactor or shared_redactor(), system_prompt=system_prompt, host_tools=tuple(host_tools),
            session=session_id or uuid.uuid4().hex, clock=clock)
        self._runner = Runner(self._state)
        self._portal = Portal()
        self._notices: dict[str, list[Steer]] = {}
        self._restored_from_log: set[str] = set()

    # -- agents ------------------------------------------------------------------------------

    def register_agent(self, agent_id: str, role: AgentRole = "root", parent: str | None = None, *,
                       visible_tools: Iterable[str] | None = None, label: str | None = None) -> AgentView:
        """Register an agent. A root (re)created here gets its delivered consultations back from
        the run log, continuable again (never their activations)."""
        state = self._state
        with state.lock:
            record = state.tree.register(agent_id, role, parent=parent, visible_tools=visible_tools, label=label)
            if record.role != "root":
                state.tracker.handle(AgentSpawned(agent_id=agent_id, parent_id=parent, role=record.role))
            else:
                self._restore_from_run_log(agent_id)
            return self._view(record)

    def declare_delegation_tool(self, tool: str) -> None:
        """Name a host tool that runs a sub-agent (an agent-as-tool, a handoff): it is reported
        to the tracker as delegation — neither evidence nor a mutation, since the sub-agent's own
        calls count where they happen — and it is never granted to an advisor."""
        with self._state.lock:
            self._state.delegation_tools.add(tool.lower())

    def agent(self, agent_id: str) -> AgentView:
        """A registered agent (:class:`~advisor.errors.UnknownAgent` otherwise)."""
        with self._state.lock:
            return self._view(self._state.tree.get(agent_id))

    def _view(self, record: AgentRecord) -> AgentView:
        tools = tuple(sorted(record.visible_tools)) if record.visible_tools is not None else None
        return AgentView(id=record.id, role=record.role, parent=record.parent,
                         root=self._state.tree.root_of(record.id), depth=record.depth, label=record.label,
                         visible_tools=tools)

    def dispose_agent(self, agent_id: str) -> None:
        """The agent is gone: its evidence, notes and continuable consultations are dropped."""
        state = self._state
        with state.lock:
            record = state.tree.dispose(agent_id)
            if record is None:
                return
            state.tracker.handle(AgentDisposed(agent_id=agent_id))
            state.activity.pop(agent_id, None)
            state.notes.drop(agent_id)
            state.ready.pop(agent_id, None)
            for gone in state.consultations.drop_requester(agent_id):
                state.gate.close_turn(gone.child_id)
                state.tree.dispose(gone.child_id)

    # -- events ------------------------------------------------------------------------------

    def handle(self, event: Event) -> ToolAdmission:
        """Take one ``obligations`` event as the host reported it — the event itself reaches the tracker,
        every field kept. A dispatched tool may be refused (``allowed=False``: the host should not run
        it, and answer the agent with the reason); every other event is admitted. An announced agent is
        registered, a disposed one disposed; the ``on_…`` methods build their event and come here."""
        if isinstance(event, ToolDispatched):
            return self._dispatched(event)
        if isinstance(event, ToolCompleted):
            self._completed(event)
        elif isinstance(event, UserMessage):
            self._user_message(event, None)
        elif isinstance(event, AssistantMessage):
            self._assistant_message(event)
        elif isinstance(event, AgentSpawned):
            role: AgentRole = "root" if event.parent_id is None else (
                "advisor" if event.role == "advisor" else "local-subagent")
            self.register_agent(event.agent_id, role, event.parent_id)
        elif isinstance(event, AgentDisposed):
            self.dispose_agent(event.agent_id)
        else:
            with self._state.lock:
                self._state.tracker.handle(event)  # a host's message, a compaction, a catalogue: the tracker's
        return ToolAdmission(allowed=True)

    def on_user_message(self, agent_id: str, text: str = "", *, message_id: str | None = None,
                        goal: bool = False) -> None:
        """A user (or parent) message enters the agent's inbox. For an agent it starts a new task
        (unless ``goal``) and moves the intent revision first, so a review still running is stale.
        Into an advisor child it is a foreign message: the step that takes it in is refused."""
        self._user_message(UserMessage(agent_id=agent_id, text=text, goal=goal), message_id)

    def _user_message(self, event: UserMessage, message_id: str | None) -> None:
        state = self._state
        agent_id = event.agent_id
        with state.lock:
            record = state.tree.get(agent_id)
            if record.role == "advisor":
                state.inboxes.setdefault(agent_id, []).append(message_id or f"external:{state.seq()}")
                return
            state.revision[agent_id] = state.revision.get(agent_id, 0) + 1
            tick = state.tracker.handle(event)
            activity = state.agent_activity(agent_id)
            if not event.goal:
                activity.new_task(tick)
                state.reviewed.pop(agent_id, None)
            activity.entries.append(Activity(tick, "user", text=state.redact(event.text)))

    def on_assistant_message(self, agent_id: str, text: str = "") -> None:
        """The agent spoke (one message is one of its turns)."""
        self._assistant_message(AssistantMessage(agent_id=agent_id, text=text))

    def _assistant_message(self, event: AssistantMessage) -> None:
        state = self._state
        agent_id, text = event.agent_id, event.text
        with state.lock:
            record = state.tree.get(agent_id)
            if record.role == "advisor":
                return
            tick = state.tracker.handle(event)
            state.agent_activity(agent_id).entries.append(Activity(tick, "assistant", text=state.redact(text)))
            if len(text) >= 80 or any(word in text.lower() for word in _MATERIAL_WORDS):
                state.material[agent_id] = tick

    def on_tool_dispatched(self, agent_id: str, call_id: str, tool: str, arguments: dict[str, Any] | None = None,
                           *, shell: shellparse.Shell | None = None, cwd: str | None = None) -> ToolAdmission:
        """The agent is about to run a tool. Refused when an advisor may not use it, or when an
        editing advisor review holds the workspace and the tool could edit (as the tracker reads it)."""
        return self._dispatched(ToolDispatched(agent_id=agent_id, call_id=call_id, tool=tool,
                                               arguments=arguments or {}, shell=shell, cwd=cwd))

    def _dispatched(self, event: ToolDispatched) -> ToolAdmission:
        state = self._state
        agent_id, call_id = event.agent_id, event.call_id
        with state.lock:
            record = state.tree.get(agent_id)
            if record.role == "advisor":
                return self._advisor_tool(record, event)
            if event.tool.lower() in state.delegation_tools:
                event = event.model_copy(update={"tool": DELEGATION})
            elif state.tracker.mutates(event):
                refusal = state.lease(state.tree.root_of(agent_id)).try_shared(call_id, agent_id)
                if refusal is not None:
                    return ToolAdmission(allowed=False, reason=refusal)
            tick = state.tracker.handle(event)
            activity = state.agent_activity(agent_id)
            row = Activity(tick, "tool", call_id=call_id, tool=event.tool,
                           arguments=redact_value(dict(event.arguments), state.redact))
            activity.entries.append(row)
            activity.calls[call_id] = row
        return ToolAdmission(allowed=True)

    def on_tool_result(self, agent_id: str, call_id: str, *, exit_code: int | None = None, is_error: bool = False,
                       error_code: str | None = None, error_message: str | None = None,
                       output: str | None = None) -> None:
        """A tool call's result: structured evidence for the tracker and the agent's packets."""
        self._completed(ToolCompleted(agent_id=agent_id, call_id=call_id, exit_code=exit_code, is_error=is_error,
                                      error_code=error_code, error_message=error_message, output=output))

    def _completed(self, event: ToolCompleted) -> None:
        state = self._state
        agent_id, call_id = event.agent_id, event.call_id
        with state.lock:
            record = state.tree.get(agent_id)
            if record.role == "advisor" and record.consultation is not None and \
                    state.gate.live_for(agent_id) is not None:
                state.pending_advisor_mutations.setdefault(agent_id, []).append(event)
                return
            state.tracker.handle(event)
            judged = state.judged.pop(call_id, None)
            state.lease(state.tree.root_of(agent_id)).release_shared(call_id)
            row = state.agent_activity(agent_id).calls.pop(call_id, None)
            if row is None:
                return
            row.record = judged
            message = event.error_message
            row.error_message = state.redact(message) if message else message
            keep_output(row, state.redact(event.output) if event.output else event.output)

    def _advisor_tool(self, record: AgentRecord, event: ToolDispatched) -> ToolAdmission:
        """An advisor child's tool call, run by the host: the guard at execution."""
        state = self._state
        tool = event.tool
        consultation = state.consultations.get(record.consultation or "")
        requester = state.tree.find(consultation.requester) if consultation is not None else None
        if consultation is None or consultation.pin is None or requester is None or not requester.alive:
            return ToolAdmission(allowed=False, reason="this advisor has no live consultation")
        if state.gate.live_for(record.id) is None:
            return ToolAdmission(allowed=False, reason="this advisor has no live turn: its tools run only inside one")
        settings = state.permission_settings()
        try:
            check_tool(tool, pinned=consultation.pin.granted,
                       root_policy=effective_root_policy(state.policy(consultation.root), settings),
                       visible=requester.visible_tools, settings=settings)
        except ToolNotPermitted as refusal:
            return ToolAdmission(allowed=False, reason=str(refusal))
        state.pending_advisor_mutations.setdefault(record.id, []).append(event)  # counted once its review is judged
        return ToolAdmission(allowed=True)

    # -- steps -------------------------------------------------------------------------------

    def on_pre_step(self, agent_id: str, *, message_ids: Sequence[str] = (), turn: int | None = None) -> list[Steer]:
        """Before the agent's next model request: what it should read first (advice that came
        back, notes, obligation notices, and — when its score calls for it — an escalation, which
        blocks per the wait table). For an advisor child, the activation gate:
        :class:`~advisor.errors.StepRefused` without a live one. Cheap unless it consults."""
        steers, planned = self._pre_step(agent_id, message_ids, turn)
        return steers if planned is None else self._with_advice(steers, self._dispatch(planned))

    async def aon_pre_step(self, agent_id: str, *, message_ids: Sequence[str] = (),
                           turn: int | None = None) -> list[Steer]:
        """:meth:`on_pre_step`, awaitable from the host's event loop."""
        steers, planned = self._pre_step(agent_id, message_ids, turn)
        return steers if planned is None else self._with_advice(steers, await self._adispatch(planned))

    def _pre_step(self, agent_id: str, message_ids: Sequence[str], turn: int | None) -> tuple[list[Steer], Planned]:
        """Under the lock: the gate for an advisor child; for an agent, the messages waiting for
        its step and the escalation it needs, if any."""
        state = self._state
        with state.lock:
            record = state.tree.get(agent_id)
            if record.role == "advisor":
                batch = [*state.inboxes.pop(agent_id, []), *message_ids]
                if turn is not None:
                    for message in batch:
                        state.gate.claim(agent_id, message, turn)
                state.gate.admit(agent_id, batch, turn=turn)
                return [], None
            steers = state.ready.pop(agent_id, []) if state.ready else []
            if record.role == "root":
                if state.notes.notes:
                    steers += state.notes.take(agent_id, state.revision.get(agent_id, 0))
                steers += self._obligation_notices(agent_id)
            return steers, self._escalation(record, "pre-step")

    @staticmethod
    def _with_advice(steers: list[Steer], report: AdvisorReport | None) -> list[Steer]:
        if report is not None and report.outcome == "delivered":
            steers.append(steer_of(report))
        return steers

    def _obligation_notices(self, root: str) -> list[Steer]:
        state = self._state
        notices = state.tracker.notices()
        if not notices and not self._notices:
            return []
        for notice in notices:
            self._notices.setdefault(notice.agent_id, []).append(
                Steer(agent_id=notice.agent_id, kind="obligations", text=notice.text))
        return self._notices.pop(root, [])

    def _escalation(self, record: AgentRecord, where: str) -> Planned:
        """Automatic escalation, planned, if the agent's own score calls for it (under the lock)."""
        state = self._state
        held = state.backoff.get(record.id) if state.backoff else None
        if held is not None and state.clock() < held.until:
            return None
        if not state.covers("escalation", record):
            return None
        decision = state.tracker.should_escalate(record.id)
        if not decision.escalate:
            return None
        return self._runner.plan(TurnRequest(
            record.id, "escalation", f"Automatic escalation at {where}: {decision.reason}. Review the failing work "
            "and say what the agent should do next.", fingerprint=decision.fingerprint, reason=decision.reason))

    def _dispatch(self, planned: Planned) -> AdvisorReport | None:
        """Run a planned turn from synchronous code: now when it blocks, in the background if not."""
        if planned is None or isinstance(planned, AdvisorReport):
            return planned
        if planned.blocking:
            return self._portal.call(self._runner.execute(planned))
        self._portal.spawn(self._runner.execute(planned))
        return None

    async def _adispatch(self, planned: Planned) -> AdvisorReport | None:
        """:meth:`_dispatch` from a host's event loop."""
        if planned is None or isinstance(planned, AdvisorReport):
            return planned
        if planned.blocking:
            return await self._portal.run(self._runner.execute(planned))
        self._portal.spawn(self._runner.execute(planned))
        return None

    def on_turn_stopping(self, agent_id: str) -> StopDecision:
        """The agent is about to end its turn: allow it, or give it another step with advice or
        an obligations reminder (escalation fallback, completion review, continuous review)."""
        steer: list[Steer] = []
        for plan in self._stop_plans(agent_id):
            self._stop_advice(agent_id, self._dispatch(plan()), steer)
        return self._stop_decision(agent_id, steer)

    async def aon_turn_stopping(self, agent_id: str) -> StopDecision:
        """:meth:`on_turn_stopping`, awaitable from the host's event loop."""
        steer: list[Steer] = []
        for plan in self._stop_plans(agent_id):
            self._stop_advice(agent_id, await self._adispatch(plan()), steer)
        return self._stop_decision(agent_id, steer)

    def _stop_plans(self, agent_id: str) -> list[Callable[[], Planned]]:
        """The reviews a stop may run, each planned only once the one before it has finished."""
        with self._state.lock:
            if self._state.tree.get(agent_id).role == "advisor":
                return []

        def locked(make: Callable[[], Planned]) -> Callable[[], Planned]:
            def plan() -> Planned:
                with self._state.lock:
                    return make()
            return plan

        return [locked(lambda: self._escalation(self._state.tree.get(agent_id), "turn-stopping")),
                locked(lambda: self._review(agent_id, "completion")),
                locked(lambda: self._review(agent_id, "continuous"))]

    def _stop_advice(self, agent_id: str, report: AdvisorReport | None, steer: list[Steer]) -> None:
        """Material findings hold the stop; a root's low-severity ones wait for its next step."""
        if report is None or report.outcome != "delivered" or report.verdict is None:
            return
        if report.verdict.severity in ("concern", "blocker"):
            steer.append(steer_of(report))
            return
        with self._state.lock:
            if self._state.tree.get(agent_id).role == "root":
                self._state.ready.setdefault(agent_id, []).append(steer_of(report).model_copy(update={"kind": "note"}))

    def _stop_decision(self, agent_id: str, steer: list[Steer]) -> StopDecision:
        state = self._state
        with state.lock:
            if state.tree.get(agent_id).role == "advisor":
                return StopDecision(allow=True)
            notice = state.tracker.stop(agent_id)
        if notice is not None:
            steer.append(Steer(agent_id=agent_id, kind="reminder", text=notice.text))
        if not steer:
            return StopDecision(allow=True)
        reason = "advisor review" if any(s.kind == "advice" for s in steer) else "obligations reminder"
        return StopDecision(allow=False, reason=reason, steer=tuple(steer))

    def _review(self, agent_id: str, trigger: Trigger) -> Planned:
        """Completion or continuous review, planned when it covers the agent (and, for
        continuous, when new evidence or a material conclusion re-armed it); under the lock."""
        state = self._state
        record = state.tree.get(agent_id)
        if not state.covers(trigger, record):
            return None
        since = state.reviewed.get(agent_id)
        if trigger == "continuous":
            entries = state.agent_activity(agent_id).entries
            fresh_tool = any(a.kind == "tool" and (since is None or a.seq > since) for a in entries)
            material = state.material.get(agent_id, -1) > (since if since is not None else -1)
            if not (fresh_tool or material):
                return None
        question = ("Completion review: the agent is about to end its turn. Is the work done and verified?"
                    if trigger == "completion" else "Continuous review of the agent's latest turn.")
        return self._runner.plan(TurnRequest(agent_id, trigger, question,
                                             since=since if trigger == "continuous" else None))

    # -- manual consultation -----------------------------------------------------------------

    def consult(self, agent_id: str, question: str, consultation_id: str | None = None, *,
                evidence: Sequence[str] = (), criteria: Sequence[str] = (),
                profile: str | None = None) -> AdvisorReport:
        """The agent asks the advisor (blocking). Omit ``consultation_id`` for a new conversation;
        pass one issued to this agent to continue it."""
        return self._portal.call(self.aconsult_core(agent_id, question, consultation_id, evidence=evidence,
                                                    criteria=criteria, profile=profile))

    async def aconsult(self, agent_id: str, question: str, consultation_id: str | None = None, *,
                       evidence: Sequence[str] = (), criteria: Sequence[str] = (),
                       profile: str | None = None) -> AdvisorReport:
        """:meth:`consult`, awaitable from the host's event loop."""
        return await self._portal.run(self.aconsult_core(agent_id, question, consultation_id, evidence=evidence,
                                                         criteria=criteria, profile=profile))

    async def aconsult_core(self, agent_id: str, question: str, consultation_id: str | None, *,
                            evidence: Sequence[str], criteria: Sequence[str], profile: str | None) -> AdvisorReport:
        """The manual consultation on the core loop."""
        request = TurnRequest(agent_id, "manual", question, consultation_id=consultation_id,
                              evidence=tuple(evidence), criteria=tuple(criteria), profile=profile)
        return await self._runner.run(request)

    # -- policy ------------------------------------------------------------------------------

    def set_policy(self, root_id: str, record: PolicyRecord | dict[str, Any]) -> PolicyRecord:
        """Store a root session's policy record (validated; an unreadable one becomes the
        conservative defaults) and append it to the run log."""
        state = self._state
        policy = record if isinstance(record, PolicyRecord) else read_policy(record)[0]
        with state.lock:
            if state.tree.get(root_id).role != "root":
                raise ToolNotPermitted(f"{root_id!r} is not a root session: only a root holds an advisor policy")
            state.policies[root_id] = policy
        if state.run_log is not None:
            state.run_log.append(PolicyRow(root=root_id, session=state.session, record=policy.wire()))
        return policy

    def policy(self, root_id: str) -> PolicyRecord:
        """A root session's policy record."""
        with self._state.lock:
            return self._state.policy(root_id)

    # -- inspection --------------------------------------------------------------------------

    @property
    def session_id(self) -> str:
        """The host session its run and policy records belong to (pass it to a new host to restore them)."""
        return self._state.session

    @property
    def tracker(self) -> Tracker:
        """The obligation tracker inside (read it; feed it only through the host)."""
        return self._state.tracker

    def limiter_stats(self, agent_id: str) -> dict[str, int]:
        """The agent's task-tree limiter counters."""
        with self._state.lock:
            stats = self._state.limiter(self._state.tree.root_of(agent_id)).stats()
        return {"running": stats.running, "queued": stats.queued, "peak_running": stats.peak_running,
                "consumed": stats.consumed, "reserved": stats.reserved, "refused": stats.refused}

    def packet(self, agent_id: str, question: str = "What should the agent do next?",
               trigger: Trigger = "manual") -> FittedPacket:
        """The case packet a consultation by ``agent_id`` would send now (nothing is sent)."""
        with self._state.lock:
            return self._runner._packet(TurnRequest(agent_id, trigger, question), self._state.tree.get(agent_id))

    def continuable(self, agent_id: str) -> list[str]:
        """The consultation ids this agent may continue."""
        with self._state.lock:
            return [r.id for r in self._state.consultations.of(agent_id) if r.delivered]

    # -- state -------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The host's state as plain JSON: agents, policies, the tracker, budgets used and the
        continuable consultations — never activations, reservations or leases."""
        state = self._state
        with state.lock:
            return {
                "version": SNAPSHOT_VERSION,
                "session": state.session,
                "agents": [{"id": r.id, "role": r.role, "parent": r.parent, "label": r.label,
                            "visible_tools": sorted(r.visible_tools) if r.visible_tools is not None else None}
                           for r in state.tree.live() if r.role != "advisor"],
                "policies": {root: p.wire() for root, p in state.policies.items()},
                "revision": dict(state.revision),
                "budgets": {root: {"consumed": lim.consumed, "manual": dict(lim.manual_consumed)}
                            for root, lim in state.limiters.items()},
                "consultations": [_consultation_json(r) for r in state.consultations.all() if r.delivered],
                "tracker": state.tracker.snapshot(),
            }

    def restore(self, data: dict[str, Any]) -> None:
        """Take the state a :meth:`snapshot` recorded (into a host with no agents yet)."""
        state = self._state
        with state.lock:
            state.session = str(data.get("session") or state.session)
            state.tracker = Tracker.restore(data["tracker"], state.tracker_config)
            state.tracker.watch(state.take_record)
            for agent in data["agents"]:
                state.tree.register(agent["id"], agent["role"], parent=agent["parent"],
                                    visible_tools=agent["visible_tools"], label=agent["label"])
            state.policies = {root: read_policy(p)[0] for root, p in data["policies"].items()}
            state.revision = {k: int(v) for k, v in data["revision"].items()}
            for root, used in data["budgets"].items():
                limiter = state.limiter(root)
                limiter.consumed, limiter.manual_consumed = int(used["consumed"]), dict(used["manual"])
            for item in data["consultations"]:
                record = _consultation_from(item)
                state.consultations.add(record)
                state.tree.register(record.child_id, "advisor", parent=record.requester, consultation=record.id)

    def _restore_from_run_log(self, root_id: str) -> None:
        state = self._state
        if state.run_log is None or root_id in self._restored_from_log:
            return
        self._restored_from_log.add(root_id)
        stored = state.run_log.policies(state.session).get(root_id)
        if stored is not None and root_id not in state.policies:
            state.policies[root_id] = read_policy(stored)[0]
        for found in state.run_log.continuable(state.session):
            if found.root != root_id or state.consultations.get(found.consultation_id) is not None:
                continue
            record = ConsultationRecord(found.consultation_id, found.requester, found.root, found.child_id,
                                        "manual", pin=found.pin, turns=found.turns, delivered=found.delivered,
                                        log_ids=list(found.log_ids), restored=True)
            record.history = self._history(found.log_ids)
            if record.pin is None or not found.log_ids or len(record.history) != len(found.log_ids):
                continue  # pre-pinning records, or transcripts not kept: only a fresh consultation
            state.consultations.add(record)

    def _history(self, log_ids: Sequence[str]) -> list[Exchange]:
        """The delivered turns' exchanges, from their log records: each turn's request carried the exchanges
        delivered before it, then its own packet (a turn without a verdict added none)."""
        log = self._state.log
        history: list[Exchange] = []
        for log_id in log_ids:
            try:
                found = log.load(log_id) if log is not None else None
            except ConsultationNotFound:
                found = None
            lineage = found.lineage if found is not None else None
            if found is None or found.transcript is None or lineage is None or lineage.verdict is None:
                return []
            messages = found.transcript.messages
            if len(messages) <= 2 * len(history):
                return []
            text = getattr(messages[2 * len(history)], "text", "")
            history.append(Exchange(text, AdvisorVerdict.model_validate(lineage.verdict).as_text()))
        return history

    # -- lifetime ----------------------------------------------------------------------------

    def drain(self, timeout: float | None = None) -> None:
        """Wait for background consultations started so far."""
        self._portal.drain(timeout)

    def close(self) -> None:
        """Stop the core loop: background consultations are cancelled (their reservations
        refunded) and the advisor model's client, whose connections belong to that loop, closed."""
        model = self._state.model
        self._portal.close(model.aclose if model is not None else None)

    def __enter__(self) -> AdvisorHost:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _consultation_json(record: ConsultationRecord) -> dict[str, Any]:
    return {"id": record.id, "requester": record.requester, "root": record.root, "child_id": record.child_id,
            "trigger": record.trigger, "pin": record.pin.model_dump(mode="json") if record.pin else None,
            "turns": record.turns, "delivered": record.delivered, "log_ids": record.log_ids,
            "history": [{"question": e.question, "answer": e.answer} for e in record.history]}


def _consultation_from(data: dict[str, Any]) -> ConsultationRecord:
    return ConsultationRecord(data["id"], data["requester"], data["root"], data["child_id"], data["trigger"],
                              pin=Pin.model_validate(data["pin"]) if data.get("pin") else None,
                              turns=int(data["turns"]), delivered=int(data["delivered"]),
                              history=[Exchange(e["question"], e["answer"]) for e in data["history"]],
                              log_ids=list(data["log_ids"]), restored=True)

