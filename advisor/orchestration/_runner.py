"""Running one consultation turn: admission, the child, the limiter, the loop, reconciliation.

Everything that can refuse — coverage, the model's configuration, continuation scope, pinning,
duplicates in flight, the budgets, the lease, an overlapping activation — is decided before a
slot is taken or a request sent, and refunds what it reserved. The budget is consumed when the
first model request of the turn is actually dispatched. A turn's verdict is published only by
the channel's reconciliation, and delivered only when neither the workspace nor the user's
intent moved on since dispatch.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

from advisor.consult import Consultation, Lineage, Spend, Trigger, consult
from advisor.errors import BudgetRefused, StepRefused, ToolNotPermitted, TurnRefused
from advisor.models import ChatAssistant, ChatUser
from advisor.orchestration._activation import Activation
from advisor.orchestration._agents import AgentRecord
from advisor.orchestration._child import GatedModel, GuardedInvestigation
from advisor.orchestration._consultations import ConsultationRecord, Exchange, new_ids
from advisor.orchestration._limiter import Reservation, TaskLimiter
from advisor.orchestration._notes import Note
from advisor.orchestration._packet import PacketInput, PriorAdvice, TriggerInfo, build_packet
from advisor.orchestration._packet_fit import FittedPacket, fit_packet
from advisor.orchestration._permissions import ceiling, check_tool, effective_root_policy, mutating
from advisor.orchestration._pinning import Pin, continuation_refusal
from advisor.orchestration._report import AdvisorReport
from advisor.orchestration._run_records import RunRecord
from advisor.orchestration._state import Backoff, HostState
from advisor.orchestration._steering import Steer
from advisor.orchestration._verdict_budget import truncate_utf8
from advisor.orchestration._verdict_channel import AdvisorVerdict
from advisor.orchestration._vocabulary import ReportOutcome, RunEvent
from advisor.orchestration._wait import resolve_wait
from advisor.orchestration._watermarks import covered
from advisor.prompt import AdvisorPrompt
from obligations import ReviewTicket, UserMessage


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """What a caller asks for."""

    requester: str
    trigger: Trigger
    question: str
    consultation_id: str | None = None
    evidence: tuple[str, ...] = ()
    criteria: tuple[str, ...] = ()
    profile: str | None = None
    fingerprint: str | None = None
    validation_key: str | None = None
    reason: str | None = None
    since: int | None = None


@dataclass(slots=True)
class TurnPlan:
    """A turn admitted for dispatch."""

    request: TurnRequest
    agent: AgentRecord
    root: str
    record: ConsultationRecord
    turn: int
    nonce: str
    reservation: Reservation
    limiter: TaskLimiter
    activation: Activation
    pin: Pin
    packet: FittedPacket
    ticket: ReviewTicket
    revision: int
    blocking: bool
    delivery: str = ""
    dispatched: bool = False
    attempts: int = 0
    investigation: GuardedInvestigation | None = field(default=None, repr=False)


class Runner:
    """Runs turns against the host's state."""

    def __init__(self, state: HostState) -> None:
        self.state = state

    # -- admission ---------------------------------------------------------------------------

    def refused(self, request: TurnRequest, reason: str, *, backoff: bool = False) -> AdvisorReport:
        """A refusal report (and, for an automatic trigger failing before dispatch, a backoff)."""
        if backoff and request.trigger != "manual":
            with self.state.lock:
                held = self.state.backoff.setdefault(request.requester, Backoff())
                s = self.state.settings
                held.delay = min(s.backoff_max, max(s.backoff_base, held.delay * 2))
                held.until = self.state.clock() + held.delay
        return AdvisorReport(requester=request.requester, trigger=request.trigger, outcome="refused", reason=reason,
                             consultation_id=request.consultation_id)

    def plan(self, request: TurnRequest) -> TurnPlan | AdvisorReport:
        """Decide, under the lock, whether the turn may run; reserve what it needs."""
        state = self.state
        with state.lock:
            try:
                return self._plan(request)
            except TurnRefused as refusal:
                return self.refused(request, str(refusal), backoff=refusal.backoff)

    def _plan(self, request: TurnRequest) -> TurnPlan:
        state = self.state
        agent = state.tree.get(request.requester)
        if agent.role == "advisor":
            raise TurnRefused("an advisor cannot consult an advisor")
        root = state.tree.root_of(agent.id)
        policy = state.policy(root)
        if not state.covers(request.trigger, agent):
            raise TurnRefused(f"{request.trigger} consultation does not cover this {agent.role} agent")
        if state.model is None:
            raise TurnRefused("no advisor model is configured", backoff=True)
        key = (agent.id, "manual" if request.trigger == "manual" else "automatic")
        if request.trigger != "manual" and key in state.inflight:
            raise TurnRefused("an automatic consultation for this agent is already in flight")
        record, fresh = self._record(request, agent, root)
        limiter = state.limiter(root)
        try:
            reservation = limiter.reserve(agent.id, manual=request.trigger == "manual")
        except BudgetRefused as refusal:
            raise TurnRefused(str(refusal)) from None
        nonce = secrets.token_hex(6)
        try:
            pin = self._pin(record, agent, root, request.profile)
            activation = self._activate(record, fresh, nonce, pin, agent)
        except TurnRefused:
            limiter.release(reservation)
            raise
        if fresh:
            state.consultations.add(record)
        record.turns += 1
        state.inflight[key] = nonce
        wait = resolve_wait(request.trigger, agent.role, settings=state.wait_settings(),
                            escalation=policy.escalation_wait, continuous=policy.continuous_wait,
                            mutating=pin.mutating)
        plan = TurnPlan(request, agent, root, record, record.turns, nonce, reservation, limiter, activation, pin,
                        self._packet(request, agent), state.tracker.begin_review(agent.id),
                        state.revision.get(agent.id, 0), wait == "block")
        self.write(plan, "reserved")
        return plan

    def _record(self, request: TurnRequest, agent: AgentRecord, root: str) -> tuple[ConsultationRecord, bool]:
        """The consultation this turn belongs to: a continued one, or a fresh one."""
        state = self.state
        if request.consultation_id is None or request.trigger != "manual":
            consultation_id, child_id = new_ids()
            return ConsultationRecord(consultation_id, agent.id, root, child_id, request.trigger), True
        refusal = state.consultations.continuation_refusal(request.consultation_id, agent.id, root)
        record = state.consultations.get(request.consultation_id)
        if refusal is None and record is not None:
            refusal = continuation_refusal(record.pin, request.profile)
        if refusal is not None or record is None:
            raise TurnRefused(refusal or "not continuable")
        return record, False

    def _pin(self, record: ConsultationRecord, agent: AgentRecord, root: str, request_profile: str | None) -> Pin:
        state = self.state
        if record.pin is not None:
            return record.pin
        settings = state.permission_settings()
        granted = ceiling(effective_root_policy(state.policy(root), settings), agent.visible_tools)
        assert state.model is not None
        # A profile the request names is the one it asked for; else the root's, else the host's default.
        profile = request_profile or state.policy(root).profile or state.settings.profile
        pin = Pin.make(profile=profile, provider=state.model.provider,
                       model=state.model.model, granted=granted, effort=state.settings.effort,
                       mutating=mutating(granted, settings))
        record.pin = pin
        return pin

    def _activate(self, record: ConsultationRecord, fresh: bool, nonce: str, pin: Pin,
                  agent: AgentRecord) -> Activation:
        state = self.state
        lease = state.lease(record.root)
        why = lease.request_exclusive(nonce, tuple(self._line(agent.id))) if pin.mutating else \
            lease.try_shared(nonce, record.child_id)
        if why is not None:
            raise TurnRefused(why)
        try:
            activation = state.gate.mint(agent.id, record.id, child_id=None if fresh else record.child_id)
            child = state.tree.find(record.child_id)
            if child is None or not child.alive:
                state.tree.register(record.child_id, "advisor", parent=agent.id, consultation=record.id)
            if fresh:
                state.gate.publish_child(activation.nonce, record.child_id)
        except StepRefused as refusal:
            lease.release_exclusive(nonce)
            lease.release_shared(nonce)
            raise TurnRefused(str(refusal)) from None
        return activation

    def _line(self, agent_id: str) -> list[str]:
        """The agent and its ancestors."""
        line, current = [], self.state.tree.find(agent_id)
        while current is not None:
            line.append(current.id)
            current = self.state.tree.find(current.parent) if current.parent else None
        return line

    def _packet(self, request: TurnRequest, agent: AgentRecord) -> FittedPacket:
        state = self.state
        activity = state.agent_activity(agent.id)
        obligations = state.tracker.report(agent.id) if agent.role == "root" else None
        criteria = list(request.criteria) + [f"`{row.check}` passes on a genuine re-run (obligation {row.id})"
                                             for row in (obligations.open if obligations else ()) if row.check]
        objective = next((a.text for a in reversed(activity.entries) if a.kind == "user"), None)
        data = PacketInput(
            requester={"agent_id": agent.id, "role": agent.role, "label": agent.label, "depth": agent.depth},
            trigger=TriggerInfo(request.trigger, request.fingerprint, request.validation_key, request.reason),
            question=request.question, activity=list(activity.entries), objective=objective,
            success_criteria=criteria, requester_evidence=request.evidence, obligations=obligations,
            prior_advice=list(state.prior.get(agent.id, ())), since=request.since)
        return fit_packet(build_packet(data, state.redact))

    # -- records -----------------------------------------------------------------------------

    def write(self, plan: TurnPlan, event: RunEvent, **extra: Any) -> None:
        """Append an ``advisor/run`` row for the plan's turn."""
        run_log = self.state.run_log
        if run_log is None:
            return
        row = RunRecord(consultation_id=plan.record.id, session=self.state.session, turn=plan.turn, nonce=plan.nonce,
                        event=event,
                        requester=plan.agent.id, root=plan.root, trigger=plan.request.trigger,
                        child_id=plan.record.child_id, attempt=plan.attempts, tick=self.state.tracker.tick,
                        pin=plan.pin if event in ("dispatched", "delivered") else None, **extra)
        run_log.append(row)

    # -- dispatch ----------------------------------------------------------------------------

    async def run(self, request: TurnRequest) -> AdvisorReport:
        """Plan, dispatch and finish one turn."""
        planned = self.plan(request)
        if isinstance(planned, AdvisorReport):
            return planned
        return await self.execute(planned)

    async def execute(self, plan: TurnPlan) -> AdvisorReport:
        """Take a slot, run the loop (an automatic trigger's transient failure is retried once, here: the loop
        itself then retries nothing, so an outage costs two requests), and finish — whatever happens, the turn
        is finished and everything it held released (its slot, the lease, the in-flight key, the activation
        and the verdict collector)."""
        consultation: Consultation | None = None
        refusal: str | None = None
        broken: str | None = None
        try:
            await plan.limiter.acquire(plan.reservation, on_queued=lambda: self.write(plan, "queued"))
            await self._exclusive(plan)
            self._deliver(plan)
            consultation = await self._attempt(plan)
            if (plan.request.trigger != "manual" and consultation is not None
                    and consultation.stop_class == "transient"):
                self.write(plan, "retry", reason=consultation.error)
                await asyncio.sleep(self.state.settings.retry_delay)
                consultation = await self._attempt(plan)
        except StepRefused as error:
            refusal = str(error)
        except asyncio.CancelledError:
            with self.state.lock:
                self._cleanup(plan)
            self.write(plan, "released", reason="aborted before it finished")
            raise
        except Exception as error:  # a bug or a broken client must not keep the turn's holds forever
            broken = f"the consultation broke off ({type(error).__name__}: {error})"
        with self.state.lock:
            return self.finish(plan, consultation, refusal, broken)

    async def _exclusive(self, plan: TurnPlan) -> None:
        """An editing advisor waits until nothing else shares the workspace."""
        if not plan.pin.mutating:
            return
        lease = self.state.lease(plan.root)
        while True:
            with self.state.lock:
                lease.promote()
                if lease.exclusive == plan.nonce:
                    return
            await asyncio.sleep(0.01)

    def _deliver(self, plan: TurnPlan) -> None:
        """The delivery: a pre-allocated message id, bound before the first step."""
        state = self.state
        with state.lock:
            plan.delivery = f"{plan.record.id}:{plan.turn}:{plan.nonce}"
            state.inboxes.setdefault(plan.record.child_id, []).append(plan.delivery)
            state.gate.bind_delivery(plan.activation.nonce, plan.delivery)
            state.channel.open(plan.record.id, plan.record.child_id, plan.turn)

    async def _attempt(self, plan: TurnPlan) -> Consultation:
        state = self.state
        plan.attempts += 1
        assert state.model is not None
        investigation = plan.investigation or self._investigation(plan)
        plan.investigation = investigation
        gated = GatedModel(state.model, admit=lambda batch: self._admit(plan, batch),
                           dispatched=lambda: self._dispatched(plan), delivery=plan.delivery)
        messages: list[ChatUser | ChatAssistant] = []
        for exchange in plan.record.history:
            messages += [ChatUser(exchange.question), ChatAssistant(exchange.answer)]
        messages.append(ChatUser(plan.packet.text))
        prompt = AdvisorPrompt(system=state.system_prompt, messages=tuple(messages),
                               stable_prefix_messages=len(messages) - 1, tools=investigation.declarations(),
                               session_id=plan.root)
        settings = state.consult_settings
        if plan.request.trigger != "manual":
            settings = settings.model_copy(update={"transient_retries": 0})  # execute() retries it once
        return await consult(prompt, gated, investigation=investigation, settings=settings, spent=Spend())

    def _investigation(self, plan: TurnPlan) -> GuardedInvestigation:
        state = self.state
        child = plan.record.child_id

        def submit(arguments: dict[str, Any]) -> tuple[bool, str]:
            with state.lock:
                status, text = state.channel.submit(child, arguments, turn=plan.turn, seq=state.seq())
            return status != "refused", text

        def check(tool: str) -> None:
            with state.lock:
                agent = state.tree.find(plan.agent.id)
                if agent is None or not agent.alive:
                    raise ToolNotPermitted("the agent that asked is gone: this advisor's tools no longer run")
                settings = state.permission_settings()
                check_tool(tool, pinned=plan.pin.granted, root_policy=effective_root_policy(
                    state.policy(plan.root), settings), visible=agent.visible_tools, settings=settings)

        with state.lock:
            # The tools this turn may declare: the pin ∩ the root's policy and the requester's sight *now*.
            settings = state.permission_settings()
            agent = state.tree.get(plan.agent.id)
            granted = ceiling(plan.pin.granted & effective_root_policy(state.policy(plan.root), settings),
                              agent.visible_tools)
        return GuardedInvestigation(state.workspace, settings=state.consult_settings,
                                    redact=state.redact, submit=submit, check=check,
                                    granted=granted, host_tools=state.host_tools)

    def _admit(self, plan: TurnPlan, batch: list[str]) -> None:
        state = self.state
        child = plan.record.child_id
        with state.lock:
            inbox = state.inboxes.pop(child, [])
            claimed = [*inbox, *(m for m in batch if m not in inbox)]
            for message in claimed:
                state.gate.claim(child, message, plan.turn)
            state.gate.admit(child, claimed, turn=plan.turn)

    def _dispatched(self, plan: TurnPlan) -> None:
        with self.state.lock:
            if not plan.dispatched:
                plan.dispatched = True
                plan.limiter.start(plan.reservation)
        self.write(plan, "dispatched")

    # -- finishing ---------------------------------------------------------------------------

    def _cleanup(self, plan: TurnPlan) -> None:
        state = self.state
        state.gate.revoke(plan.activation.nonce)
        state.channel.close(plan.record.child_id)
        plan.limiter.release(plan.reservation)
        state.lease(plan.root).release_exclusive(plan.nonce)
        state.lease(plan.root).release_shared(plan.nonce)
        key = (plan.agent.id, "manual" if plan.request.trigger == "manual" else "automatic")
        if state.inflight.get(key) == plan.nonce:
            del state.inflight[key]
        if not plan.dispatched and plan.record.turns == plan.turn:
            plan.record.turns -= 1  # nothing was sent: the turn number is free again

    def finish(self, plan: TurnPlan, consultation: Consultation | None, refusal: str | None,
               broken: str | None = None) -> AdvisorReport:
        """Close the turn, reconcile the verdict, judge freshness, record and route the result."""
        state = self.state
        closing = state.seq()
        activation = state.gate.close_turn(plan.record.child_id)
        completed = consultation is not None and consultation.stop_reason == "answered"
        claimed = plan.delivery if activation is not None and activation.turn == plan.turn else None
        verdict, why = state.channel.reconcile(
            plan.record.child_id, completed=completed, closing_turn=activation.turn if activation else None,
            closing_seq=closing, claimed=claimed, delivery=plan.delivery or None)
        outcome, reason = self._judge(plan, consultation, refusal, verdict, why, broken)
        self._cleanup(plan)
        self._apply_advisor_mutations(plan)
        if outcome == "delivered" and verdict is not None:
            self._delivered(plan, verdict)
        report = AdvisorReport(requester=plan.agent.id, trigger=plan.request.trigger, outcome=outcome,
                               consultation_id=plan.record.id, child_id=plan.record.child_id, turn=plan.turn,
                               verdict=verdict if outcome == "delivered" else None, reason=reason,
                               packet_bytes=plan.packet.size, consultation=self._logged(plan, consultation,
                                                                                        outcome, verdict))
        usage = consultation.usage if consultation is not None and consultation.attempts else None
        event: RunEvent = {"delivered": "delivered", "no_verdict": "no_verdict", "stale": "stale",
                           "refused": "refused"}.get(outcome, "failed")  # type: ignore[assignment]
        self.write(plan, event, reason=reason, usage=usage, severity=verdict.severity if verdict else None,
                   log_id=report.consultation.id if report.consultation else None,
                   digest=truncate_utf8(verdict.as_text(), 4096) if verdict and outcome == "delivered" else None)
        if not plan.blocking:
            self._route_background(plan, report)
        return report

    def _judge(self, plan: TurnPlan, consultation: Consultation | None, refusal: str | None,
               verdict: AdvisorVerdict | None, why: str, broken: str | None) -> tuple[ReportOutcome, str | None]:
        state = self.state
        automatic = plan.request.trigger != "manual"
        if refusal is not None:
            return "refused", refusal
        if broken is not None or (consultation is not None and consultation.stop_class != "answered"):
            if automatic:
                state.tracker.finish_review(plan.ticket, examined=[], automatic=True)
            failure = broken or (consultation.error or consultation.stop_reason if consultation else None)
            return "failed", failure
        if state.revision.get(plan.agent.id, 0) != plan.revision:
            return "stale", "the user spoke again while the advisor worked"
        if verdict is None:
            if automatic:
                state.tracker.finish_review(plan.ticket, examined=[], automatic=True)
            return "no_verdict", f"no reconciled advisor_verdict ({why})"
        fresh = state.tracker.finish_review(plan.ticket, examined=covered(plan.packet.packet, verdict),
                                            automatic=automatic)
        if fresh == "stale" and not plan.blocking:
            return "stale", "the workspace changed while the advisor reviewed it"
        return "delivered", None

    def _apply_advisor_mutations(self, plan: TurnPlan) -> None:
        """The advisor's own edits count for older proofs, but after its review was judged."""
        for event in self.state.pending_advisor_mutations.pop(plan.record.child_id, []):
            self.state.tracker.handle(event)  # type: ignore[arg-type]
            self.state.judged.pop(getattr(event, "call_id", ""), None)  # no activity row files it

    def _delivered(self, plan: TurnPlan, verdict: AdvisorVerdict) -> None:
        state = self.state
        plan.record.delivered = plan.turn
        plan.record.history.append(Exchange(plan.packet.text, verdict.as_text()))
        state.backoff.pop(plan.agent.id, None)
        state.prior.setdefault(plan.agent.id, []).append(PriorAdvice(plan.record.id, verdict.severity,
                                                                     verdict.summary))
        if plan.request.trigger == "continuous":
            state.reviewed[plan.agent.id] = plan.ticket.tick

    def _logged(self, plan: TurnPlan, consultation: Consultation | None, outcome: ReportOutcome,
                verdict: AdvisorVerdict | None) -> Consultation | None:
        """The envelope with its lineage, appended to the consultation log."""
        if consultation is None:
            return None
        previous = plan.record.log_ids[-1] if plan.record.log_ids else None
        lineage = Lineage(requester=plan.agent.id, root=plan.root, trigger=plan.request.trigger,
                          consultation_id=plan.record.id, child_id=plan.record.child_id, turn=plan.turn,
                          parent_log_id=previous, outcome=outcome,
                          verdict=verdict.model_dump(mode="json") if verdict is not None else None)
        logged = consultation.model_copy(update={"lineage": lineage,
                                                 "severity": verdict.severity if verdict is not None else None})
        plan.record.log_ids.append(logged.id)
        return self.state.log.keep(logged) if self.state.log is not None else logged

    def _route_background(self, plan: TurnPlan, report: AdvisorReport) -> None:
        """A background result goes to its requester's next step (or the note queue)."""
        state = self.state
        verdict = report.verdict
        if report.outcome != "delivered" or verdict is None:
            return
        if verdict.severity in state.settings.low_severities and plan.agent.role == "root":
            state.notes.offer(Note(plan.agent.id, report.notice(), verdict.severity, plan.record.id, plan.revision),
                              dispatched_revision=plan.revision, current_revision=state.revision.get(plan.agent.id, 0))
            return
        state.ready.setdefault(plan.agent.id, []).append(steer_of(report))


def steer_of(report: AdvisorReport) -> Steer:
    """A delivered report as advice for its requester."""
    verdict = report.verdict
    return Steer(agent_id=report.requester, kind="advice", text=report.notice(),
                 severity=verdict.severity if verdict is not None else None, consultation_id=report.consultation_id)


def user_event(agent_id: str, text: str, goal: bool) -> UserMessage:
    """The tracker's event for a user message."""
    return UserMessage(agent_id=agent_id, text=text, goal=goal)
