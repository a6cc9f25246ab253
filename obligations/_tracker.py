"""The tracker: tool-call events in, verification obligations out.

A failed check opens an obligation for the root agent's current task. It closes only through a
*witness*: a later run of the same check (same validation key, same working directory) in the
same task, dispatched and completed after the latest failure, exiting 0, with an exit status that
is the check's own under the policy, whose output does not show a failure, and with nothing that
could have edited the workspace in flight or completed since it was dispatched. Any later
potential mutation re-opens a closed item. Dispositions and corrections are recorded and shown,
and never close anything. Order comes from the tracker's own tick, never from clocks.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

import shellparse

from ._answers import AgentInfo, ClaimResult, ReviewTicket, Task
from ._calls import Call, Interpreter
from ._config import REMINDER_BUDGET, EscalationConfig, TrackerConfig
from ._escalation import Decision, Escalation
from ._events._agent_disposed import AgentDisposed
from ._events._agent_spawned import AgentSpawned
from ._events._assistant_message import AssistantMessage
from ._events._tool_completed import ToolCompleted
from ._events._tool_dispatched import ToolDispatched
from ._events._union import EVENT_CLASSES, Event
from ._events._user_message import UserMessage
from ._fingerprints import target_fingerprint
from ._items import Attempt, Correction, Disposition, Item, Resolution, Transition, item_id
from ._judgements import Judgement
from ._location import location
from ._notices import Notice, open_notice, reminder
from ._outcomes import EXCLUDED
from ._records import FAILED, CallRecord, completed_record, dispatched_record, failure_print, judged
from ._redact import redact_line as redact
from ._reports import EndedTask, ObligationsReport
from ._state import Agent, Evidence, Pending, Place, Scope, TrackerState
from ._summary import judged_summary, shown
from ._vocabulary import ROOT_AGENT, AgentRole, DispositionKind, Outcome, ResolutionKind, ReviewOutcome, check_kind
from ._witness import candidates, why_not
from .errors import NotAnEvent


def _event_class(event: object) -> type[Any]:
    """The class ``event`` is handled as: the first of ``_ACTIONS`` (then of ``Event``) it is an
    instance of; ``NotAnEvent`` for anything else. Only for a class outside ``Event`` (a caller's
    subclass): ``handle`` looks its exact class up first, as ``isinstance`` against a model class that
    is not the event's own goes through ``ABCMeta.__instancecheck__``, a call in Python."""
    for kind in (*_ACTIONS, *EVENT_CLASSES):
        if isinstance(event, kind):
            return kind
    hint = " (read a dict with obligations.event_from_dict first)" if isinstance(event, dict) else ""
    raise NotAnEvent(f"Tracker.handle takes an event, not a {type(event).__name__}{hint}")


class Tracker:
    """Turns a stream of events into obligations, notices, reminders and escalation decisions.

    Drive it with :meth:`handle`; read it with :meth:`open_items`, :meth:`notices`,
    :meth:`stop`, :meth:`should_escalate`, :meth:`root_agents`, :meth:`current_task` and
    :meth:`snapshot`. Its state is its own: every answer is a copy.
    """

    def __init__(self, config: TrackerConfig | None = None):
        self.config = config or TrackerConfig()
        """The settings it was made with."""
        self._state = TrackerState(self.config.ended_tasks)
        self._interpret = Interpreter(self.config)
        self._ids: dict[tuple[str, int, str, str | None], str] = {}
        """Item ids already made (a hash each): a failing check fails again and again."""
        self._listeners: list[Callable[[CallRecord], None]] = []
        self._read: tuple[ToolDispatched, Call] | None = None
        """The call :meth:`interpret` read last: a host asks before it hands the same event on, and the
        dispatch takes that reading instead of making it again."""

    @property
    def tick(self) -> int:
        """The tick of the last event handled (0 before any): the order of events, never a clock."""
        return self._state.tick

    @property
    def lost_results(self) -> int:
        """Results received whose dispatch was never seen (they count as potential mutations)."""
        return self._state.lost_results

    def interpret(self, event: ToolDispatched) -> CallRecord:
        """What this tracker reads a dispatched call as — its kind, command, whether it may change the
        workspace, its targets and checks — without taking it (nothing changes)."""
        call = self._interpret(event.tool, event.arguments, event.shell)
        self._read = (event, call)
        return dispatched_record(call, call_id=event.call_id, agent_id=event.agent_id, cwd=event.cwd)

    def mutates(self, event: ToolDispatched) -> bool:
        """Whether this tracker reads a dispatched call as one that may change the workspace — the
        ``mutates`` of its :meth:`interpret` record — without taking it or building the record: a host
        asks before every dispatch it may hold back (its workspace lease), and the dispatch then takes
        this reading instead of making it again."""
        call = self._interpret(event.tool, event.arguments, event.shell)
        self._read = (event, call)
        return call.mutates

    def watch(self, listener: Callable[[CallRecord], None]) -> None:
        """Call ``listener`` with the record of every completed call whose dispatch this tracker took,
        once the tracker has taken the result (its obligations are already up to date)."""
        self._listeners.append(listener)

    # -- events -----------------------------------------------------------------------------

    def handle(self, event: Event) -> int:
        """Take one event; return the tick it was given (the event itself is not changed). Raises
        ``NotAnEvent`` for anything that is not an event (a dict: read it with ``event_from_dict``)."""
        kind = type(event)
        if kind not in EVENT_CLASSES:
            kind = _event_class(event)
        self._state.tick += 1
        action = _ACTIONS.get(kind)  # none for a HostMessage: a hook's feedback is the host's context,
        if action is not None:  # not the user's intent, and the task goes on
            action(self, event)
        return self._state.tick

    def _user_message(self, event: UserMessage) -> None:
        if not event.goal:
            self._new_task(self._agent(event.agent_id))

    def _assistant_message(self, event: AssistantMessage) -> None:
        agent = self._agent(event.agent_id)
        agent.escalation.turn += 1
        claim = event.claim
        if claim is not None:
            self.register_claim(claim.claim_id, claim.summary, claim.validation_call_id, agent.id)

    def _agent_spawned(self, event: AgentSpawned) -> None:
        self._spawned(event.agent_id, event.parent_id, event.role)

    def _agent_disposed(self, event: AgentDisposed) -> None:
        self._disposed(event.agent_id)

    def handle_many(self, events: Iterable[Event]) -> None:
        """Take events in order (the same as calling :meth:`handle` on each)."""
        for event in events:
            self.handle(event)

    def _agent(self, agent_id: str) -> Agent:
        """The agent with this id; one never announced is a root agent. An agent that was disposed
        comes back where it was in the tree, in a task of its own (its old results stay stale)."""
        state = self._state
        found = state.agents.get(agent_id)
        if found is None:
            parent, role, root = state.former.get(agent_id, Place(None, "root", agent_id))
            if root != agent_id and root in state.agents:
                found = Agent(agent_id, parent, role, root, state.agents[root].task)
            else:
                found = Agent(agent_id, None, "root", agent_id)
            found.life = state.lives = state.lives + 1
            state.agents[agent_id] = found
        return found

    def _spawned(self, agent_id: str, parent_id: str | None, role: AgentRole) -> None:
        state = self._state
        parent = self._agent(parent_id) if parent_id is not None else None
        root = agent_id if parent is None or role == "root" else parent.root
        existing = state.agents.get(agent_id)
        if existing is not None and existing.root == root:
            existing.parent, existing.role = parent_id, role
            return
        if existing is not None and existing.root == agent_id:
            self._archive(existing)  # it acted as a root; now it is someone's worker
        task = self._agent(root).task if root != agent_id else 0
        agent = Agent(agent_id, parent_id, "root" if root == agent_id else role, root, task)
        agent.life = state.lives = state.lives + 1
        state.agents[agent_id] = agent

    def _disposed(self, agent_id: str) -> None:
        state = self._state
        agent = state.agents.pop(agent_id, None)
        if agent is None:
            return
        state.former[agent_id] = Place(agent.parent, agent.role, agent.root)
        if agent.root == agent_id:
            for key in [k for k, item in state.items.items() if item.agent_id == agent_id]:
                del state.items[key]

    def _new_task(self, agent: Agent) -> None:
        if agent.root == agent.id:
            agent.notice_due = self._archive(agent)
            agent.reminders_used = 0
            agent.evidence.clear()
        agent.task = self._state.tick
        agent.escalation = Escalation()

    def _archive(self, agent: Agent) -> bool:
        """End a root agent's task: keep its items for reports (the unresolved ones stay witnessable
        by a later task's genuine pass), and start the next task empty."""
        state = self._state
        mine = [key for key, item in state.items.items() if item.agent_id == agent.id]
        unresolved = tuple(state.items[key] for key in mine if state.items[key].state == "open")
        resolved = tuple(state.items[key] for key in mine if state.items[key].state == "resolved")
        if unresolved or resolved:
            state.ended.append(EndedTask(agent_id=agent.id, task=agent.task, ended_tick=state.tick,
                                         unresolved=unresolved, resolved=resolved))
        for key in mine:
            del state.items[key]
        return bool(unresolved)

    # -- dispatch and completion ---------------------------------------------------------------

    def _dispatched(self, event: ToolDispatched) -> None:
        state = self._state
        agent = self._agent(event.agent_id)
        read, self._read = self._read, None
        call = read[1] if read is not None and read[0] is event else self._interpret(event.tool, event.arguments,
                                                                                     event.shell)
        root = self._agent(agent.root)
        state.pending[event.call_id] = Pending(event.call_id, agent.id, root.id, root.life, root.task, state.tick,
                                               call, event.cwd)
        if call.mutates:
            scope = self._scope(root.id)
            scope.started(event.call_id)
            scope.epoch += 1
            if call.validation is None:
                scope.structural += 1  # a check re-run is evidence, not a structural change
            self._reopen(root, event.call_id, call, event.origin)

    def _completed(self, event: ToolCompleted) -> None:
        state = self._state
        pending = state.pending.pop(event.call_id, None)
        if pending is None:
            # The dispatch is unknown: nothing task-specific can be said, but the call may still
            # have written, so it counts as a mutation of the agent's workspace.
            state.lost_results += 1
            owner = self._agent(self._agent(event.agent_id).root)
            scope = self._scope(owner.id)
            scope.epoch += 1
            scope.finished(event.call_id, state.tick)
            self._reopen(owner, event.call_id, None, event.origin)
            return
        call = pending.call
        agent = state.agents.get(pending.agent_id)
        root = state.agents.get(pending.root)
        if call.mutates:
            self._scope(pending.root).finished(pending.call_id, state.tick)
        current = not (agent is None or root is None or pending.task != root.task or pending.life != root.life)
        if not current and not self._listeners:
            return  # the agent is gone or a new task began: effects counted, nothing else
        outcome, judgements = judged(call, event)
        failed = outcome in FAILED
        # Only failures are fingerprinted: normalising every output is the costliest step of a replay.
        mark = failure_print(call, event) if failed and (self._listeners or self.config.escalation) else None
        if current and agent is not None and root is not None:
            self._take(agent, root, pending, event, outcome, judgements, mark)
        if self._listeners:
            done = completed_record(call, event, agent_id=pending.agent_id, cwd=pending.cwd, dispatched=pending.tick,
                                    outcome=outcome, judgements=judgements, fingerprint=mark, tick=state.tick,
                                    current=current)
            for listener in self._listeners:
                listener(done)

    def _take(self, agent: Agent, root: Agent, pending: Pending, event: ToolCompleted, outcome: Outcome,
              judgements: list[Judgement], mark: str | None) -> None:
        """A completion in its agent's current task: its score, its obligations and witnesses."""
        call = pending.call
        if self.config.escalation is not None:
            self._score(agent, pending, event, outcome, mark, self.config.escalation)
        if outcome in EXCLUDED and outcome != "tool-infrastructure-error":
            return
        rewrote = shellparse.rewrite_evidence(event.output or "") if call.kind == "shell" else None
        if rewrote is not None:
            self._rewrote(root, pending, event, rewrote)
        if call.validation is not None and agent.id == root.id:
            self._remember(root, pending, call.validation)
        for judgement in judgements:
            if judgement.verdict == "failed":
                self._failed(root, agent, pending, judgement, event)
            elif judgement.verdict == "passed":
                self._passed(root, agent, pending, judgement.check, event)

    def _score(self, agent: Agent, pending: Pending, event: ToolCompleted, outcome: Outcome, mark: str | None,
               config: EscalationConfig) -> None:
        """The completion's evidence and signals for the agent's escalation score."""
        call, tick = pending.call, self._state.tick
        agent.escalation.observe({"tick": tick, "call_id": pending.call_id, "tool": call.tool, "outcome": outcome,
                                  "exit_code": event.exit_code, "fingerprint": mark}, config)
        if call.kind in ("edit", "other") and call.targets:
            agent.escalation.edit(tick, call.targets, target_fingerprint(call.tool, call.targets), config)
        if mark is not None:
            key = call.validation.key if call.validation is not None else None
            agent.escalation.failure(tick, mark, key, event.is_error, config)

    def _remember(self, root: Agent, pending: Pending, validation: shellparse.Validation) -> None:
        """Keep the call's check for claims that cite it (the newest ones only)."""
        root.evidence[pending.call_id] = Evidence(validation.check_key, location(pending.cwd, validation.directory),
                                                  shown(validation),
                                                  check_kind(validation.kind), validation.family)
        while len(root.evidence) > self.config.claim_evidence:
            root.evidence.popitem(last=False)

    def _failed(self, root: Agent, agent: Agent, pending: Pending, judgement: Judgement,
                event: ToolCompleted) -> None:
        """A check failed: open its item, or record the failure again. A worker's failure is its
        root's obligation too (``failed_by`` says whose run it was)."""
        tick = self._state.tick
        validation = judgement.check.validation
        summary = judged_summary(judgement, event)
        place = location(pending.cwd, validation.directory)
        ident = self._item_id(root.id, root.task, validation.check_key, place)
        item = self._state.items.get(ident)
        limit = self.config.history
        worker = agent.id if agent.id != root.id else None
        ran = validation.kind == "test" and shellparse.ran_evidence(validation, event.output or "") is not None
        if item is None:
            item = Item(id=ident, kind="validation-failure", agent_id=root.id, task=root.task,
                        key=validation.check_key, cwd=place, check=shown(validation),
                        check_kind=check_kind(validation.kind),
                        family=validation.family, selection=validation.selection, failed_by=worker, claim_id=None,
                        summary=summary, created_tick=tick, latest_failure_tick=tick,
                        latest_failure_call=pending.call_id, tests_ran=ran)
            item.note(Transition(tick=tick, change="opened", detail=summary, call_id=pending.call_id,
                                 origin=event.origin), limit)
            self._state.items[ident] = item
        else:
            _change(item, state="open", resolution=None, summary=summary, failed_by=worker, latest_failure_tick=tick,
                    latest_failure_call=pending.call_id, tests_ran=ran, repeat_count=item.repeat_count + 1,
                    revision=item.revision + 1)
            item.note(Transition(tick=tick, change="failed-again", detail=summary, call_id=pending.call_id,
                                 origin=event.origin), limit)
        for claim in self._claims(root, validation.check_key, place):
            claim.latest_failure_tick, claim.latest_failure_call = tick, pending.call_id
            claim.revision += 1
            claim.state, claim.resolution = "open", None
        root.notice_due = True

    def _passed(self, root: Agent, agent: Agent, pending: Pending, check: shellparse.Check,
                event: ToolCompleted) -> None:
        """A check may have passed: it witnesses every candidate item the witness rule lets it."""
        tick = self._state.tick
        validation = check.validation
        if event.exit_code == 0 and check.witness_eligible:
            agent.escalation.passed(validation.key, pending.call.command or "")
        scope = self._scope(root.id)
        for item, earlier in list(candidates(self._state.items.values(), self._state.ended, root.id, pending,
                                             validation)):
            reason = why_not(item, pending, event, check, scope)
            if reason is not None:
                item.last_attempt = Attempt(call_id=pending.call_id, tick=tick, reason=reason,
                                            command=pending.call.command, origin=event.origin)
                continue
            item.state, item.undone = "resolved", None
            kind: ResolutionKind = "reverified-later" if earlier else (
                "reverified-and-corrected" if item.correction else "reverified")
            item.resolution = Resolution(witness_call_id=pending.call_id, tick=tick, kind=kind,
                                         check=shown(validation), covering=item.key != validation.check_key,
                                         command=pending.call.command)
            item.revision += 1
            item.note(Transition(tick=tick, change="resolved", detail=f"witnessed by `{pending.call.command}`",
                                 call_id=pending.call_id, origin=event.origin), self.config.history)
            root.notice_due = True

    def _rewrote(self, root: Agent, pending: Pending, event: ToolCompleted, evidence: str) -> None:
        """The command's output shows it rewrote files: a mutation as well as evidence."""
        scope = self._scope(root.id)
        scope.epoch += 1
        scope.structural += 1
        scope.finished(pending.call_id, self._state.tick)
        detail = f"`{pending.call.command}` rewrote files ({evidence})"
        self._reopen(root, pending.call_id, pending.call, event.origin, detail)

    def _reopen(self, root: Agent, call_id: str, call: Call | None, origin: str | None,
                detail: str | None = None) -> None:
        what = f"`{call.command}`" if call is not None and call.command else (call.tool if call else "a call")
        detail = detail or f"{what} may have edited the workspace after the witness"
        tick = self._state.tick
        # An earlier task's item a pass of this task resolved is re-opened like this task's own; one
        # resolved in a task that has ended since stays as that task left it.
        later = (item for task in self._state.ended if task.agent_id == root.id for item in task.unresolved
                 if item.resolution is not None and item.resolution.tick >= root.task)
        for item in itertools.chain(self._state.items.values(), later):
            if item.agent_id == root.id and item.state == "resolved":
                item.state, item.undone, item.resolution = "open", item.resolution, None
                item.revision += 1
                item.note(Transition(tick=tick, change="reopened", detail=detail, call_id=call_id, origin=origin),
                          self.config.history)
                root.notice_due = True

    def _item_id(self, root: str, task: int, key: str, place: str | None) -> str:
        """The id of the validation-failure item of ``key`` in ``place`` (``item_id``, remembered)."""
        parts = (root, task, key, place)
        ident = self._ids.get(parts)
        if ident is None:
            if len(self._ids) >= 4096:
                self._ids.clear()
            ident = self._ids[parts] = item_id(root, task, "validation-failure", key, place)
        return ident

    def _scope(self, root_id: str) -> Scope:
        scope = self._state.scopes.get(root_id)
        if scope is None:
            scope = self._state.scopes[root_id] = Scope()
        return scope

    def _claims(self, root: Agent, key: str, cwd: str | None) -> list[Item]:
        return [item for item in self._state.items.values() if item.agent_id == root.id
                and item.kind == "claim-contradicted" and item.key == key and item.cwd == cwd]

    # -- reading ------------------------------------------------------------------------------

    def open_items(self, agent_id: str | None = None) -> list[Item]:
        """Copies of the open items (of one root agent, or all), oldest first. An empty list means
        "no current-run record", never "all clear"."""
        return [item.model_copy(deep=True) for item in self._state.items.values()
                if item.state == "open" and (agent_id is None or item.agent_id == agent_id)]

    def all_items(self, agent_id: str | None = None) -> list[Item]:
        """Copies of every item of the current tasks, open and resolved."""
        return [item.model_copy(deep=True) for item in self._state.items.values()
                if agent_id is None or item.agent_id == agent_id]

    def ended_tasks(self) -> list[EndedTask]:
        """The tasks that ended with items, oldest first (the newest ``TrackerConfig.ended_tasks``
        of them), with copies of their items: those still unresolved, those resolved in the task,
        and those a genuine pass in a later task resolved."""
        views = []
        for task in self._state.ended:
            copied = task.model_copy(deep=True)
            views.append(copied.model_copy(update={
                "unresolved": tuple(item for item in copied.unresolved if item.state == "open"),
                "resolved_later": tuple(item for item in copied.unresolved if item.state == "resolved")}))
        return views

    def report(self, agent_id: str | None = None) -> ObligationsReport:
        """Every obligation as a report row (of one root agent, or all): open in the current task,
        left unresolved by an earlier task, resolved — what ``witness audit`` prints, and what the
        advisor is shown."""
        return ObligationsReport.of(self._state.items.values(), self.ended_tasks(), agent_id)

    def agent_info(self, agent_id: str) -> AgentInfo | None:
        """The agent with this id, if the tracker has seen it (asking never creates one)."""
        agent = self._state.agents.get(agent_id)
        if agent is None:
            return None
        root = self._state.agents.get(agent.root)
        return AgentInfo(agent.id, agent.parent, agent.role, agent.root, root.task if root is not None else agent.task)

    def root_agents(self) -> list[AgentInfo]:
        """The root agents the tracker knows, in the order they first appeared."""
        return [AgentInfo(agent.id, agent.parent, agent.role, agent.root, agent.task)
                for agent in self._state.agents.values() if agent.root == agent.id]

    def current_task(self, agent_id: str = ROOT_AGENT) -> Task | None:
        """The current task of the agent's root (a worker works in its root's task); ``None`` for an
        agent the tracker has not seen."""
        agent = self._state.agents.get(agent_id)
        root = self._state.agents.get(agent.root) if agent is not None else None
        if root is None:
            return None
        left = max(0, self.config.reminder_budget - root.reminders_used)
        return Task(root.id, root.task, root.reminders_used, left)

    def notices(self) -> list[Notice]:
        """The notices due since the last call: for each root agent whose open set changed, the
        open items and what closes each (an empty open set says "no current-run record")."""
        state = self._state
        due = [agent for agent in state.agents.values() if agent.notice_due and agent.root == agent.id]
        notices = []
        for agent in due:
            agent.notice_due = False
            notices.append(open_notice(agent.id, [i for i in state.items.values()
                                                  if i.agent_id == agent.id and i.state == "open"]))
        return notices

    def stop(self, agent_id: str = ROOT_AGENT) -> Notice | None:
        """The agent is about to end its turn: a reminder, if one is due and the budget allows.

        At most one reminder per item revision, and at most ``reminder_budget`` per task."""
        agent = self._agent(agent_id)
        root = self._agent(agent.root)
        due = [item for item in self._state.items.values()
               if item.agent_id == root.id and item.state == "open" and item.revision > item.reminded_revision
               and not item.disposed]
        if not due or root.reminders_used >= self.config.reminder_budget:
            return None
        root.reminders_used += 1
        for item in due:
            item.reminded_revision = item.revision
        final = root.reminders_used >= self.config.reminder_budget
        return reminder(root.id, due, final)

    def reminders_left(self, agent_id: str = ROOT_AGENT) -> int:
        """How many reminders the agent's task can still give."""
        return max(0, self.config.reminder_budget - self._agent(self._agent(agent_id).root).reminders_used)

    # -- claims, corrections, dispositions --------------------------------------------------------

    def register_claim(self, claim_id: str, summary: str, validation_call_id: str | None = None,
                       agent_id: str = ROOT_AGENT) -> ClaimResult:
        """Register a contradicted claim, bound to the check of ``validation_call_id``.

        The key comes from the tracker's own record of that call, never from the caller. An
        unknown call, or a call that ran no check, is refused; without a call id the claim is
        keyless and can never close until registered again with one. A claim keeps its first key.
        """
        root = self._agent(self._agent(agent_id).root)
        if agent_id != root.id:
            return ClaimResult(False, "claims are registered for root agents only")
        evidence = None
        if validation_call_id is not None:
            evidence = root.evidence.get(validation_call_id)
            if evidence is None:
                return ClaimResult(False, f"unknown validation_call_id {validation_call_id!r}: no check by that call "
                                          "was observed in this task")
        ident = item_id(root.id, root.task, "claim-contradicted", claim_id)
        item = self._state.items.get(ident)
        if item is not None:
            return self._rebind(item, claim_id, evidence, validation_call_id)
        tick = self._state.tick
        item = Item(id=ident, kind="claim-contradicted", agent_id=root.id, task=root.task,
                    key=evidence.key if evidence else None, cwd=evidence.cwd if evidence else None,
                    check=evidence.check if evidence else None, check_kind=evidence.kind if evidence else None,
                    family=evidence.family if evidence else None, claim_id=claim_id, summary=redact(summary),
                    created_tick=tick, latest_failure_tick=tick, latest_failure_call=validation_call_id)
        item.note(Transition(tick=tick, change="opened", detail=redact(summary), call_id=validation_call_id),
                  self.config.history)
        self._state.items[ident] = item
        root.notice_due = True
        return ClaimResult(True, "claim registered", ident)

    def _rebind(self, item: Item, claim_id: str, evidence: Evidence | None,
                validation_call_id: str | None) -> ClaimResult:
        """A claim registered again: bound to its check if it had none, refused for another check."""
        if evidence is None:
            return ClaimResult(True, "claim already registered", item.id)
        if item.key is not None and (item.key != evidence.key or item.cwd != evidence.cwd):
            return ClaimResult(False, f"claim {claim_id!r} is already bound to `{item.check}`; it keeps its "
                                      "first check", item.id)
        if item.key is None:
            item.key, item.cwd, item.check = evidence.key, evidence.cwd, evidence.check
            item.check_kind, item.family = evidence.kind, evidence.family
            item.revision += 1
            item.note(Transition(tick=self._state.tick, change="claim-bound", detail=f"bound to `{item.check}`",
                                 call_id=validation_call_id), self.config.history)
        return ClaimResult(True, "claim bound to its check", item.id)

    def correct(self, claim_id: str, document: str, change: str, evidence: str, item: str | None = None,
                agent_id: str = ROOT_AGENT) -> ClaimResult:
        """Record a correction of a claim. It never closes anything by itself; a later witness does."""
        root = self._agent(self._agent(agent_id).root)
        if not (document and change and evidence):
            return ClaimResult(False, "a correction needs the document, the change and the evidence")
        matches = [i for i in self._state.items.values() if i.agent_id == root.id and i.kind == "claim-contradicted"
                   and i.claim_id == claim_id and i.state == "open" and (item is None or i.id == item)]
        if len(matches) != 1:
            found = "no open item" if not matches else f"{len(matches)} open items"
            return ClaimResult(False, f"{found} for claim {claim_id!r}; name the item")
        target = matches[0]
        tick = self._state.tick
        target.correction = Correction(document=redact(document, 200), change=redact(change),
                                       evidence=redact(evidence), tick=tick)
        target.revision += 1
        target.note(Transition(tick=tick, change="correction", detail=redact(change)), self.config.history)
        return ClaimResult(True, "correction recorded; a later genuine run of the check closes the item", target.id)

    def dispose(self, item: str, kind: DispositionKind, basis: str) -> ClaimResult:
        """Record a disposition (``not-applicable`` or ``accept-risk``). It never closes the item."""
        if kind not in ("not-applicable", "accept-risk"):
            return ClaimResult(False, "a disposition is `not-applicable` or `accept-risk`")
        if not basis.strip():
            return ClaimResult(False, "a disposition needs a basis")
        target = self._state.items.get(item)
        if target is None:
            return ClaimResult(False, f"no item {item!r} in the current task")
        tick = self._state.tick
        target.revision += 1
        target.disposition = Disposition(kind=kind, basis=redact(basis), revision=target.revision, tick=tick)
        target.note(Transition(tick=tick, change="disposition", detail=f"{kind}: {redact(basis)}"),
                    self.config.history)
        return ClaimResult(True, "disposition recorded; the item stays open", target.id)

    # -- escalation and reviews -------------------------------------------------------------------

    def should_escalate(self, agent_id: str = ROOT_AGENT) -> Decision:
        """Whether the agent's score calls for an automatic consultation now."""
        agent = self._agent(agent_id)
        if self.config.escalation is None:
            return Decision(False, 0, 0, None, "escalation scoring is off (TrackerConfig.escalation is None)")
        return agent.escalation.decide(self.config.escalation, self._scope(agent.root).structural)

    def begin_review(self, agent_id: str = ROOT_AGENT) -> ReviewTicket:
        """Note the workspace epoch as a review starts."""
        agent = self._agent(agent_id)
        return ReviewTicket(agent.id, agent.root, self._scope(agent.root).epoch, self._state.tick)

    def finish_review(self, ticket: ReviewTicket, examined: list[str] | None = None,
                      automatic: bool = False) -> ReviewOutcome:
        """A review ends: ``stale`` when the workspace changed (or may be changing) since it
        began — recorded, not to be shown — else ``delivered``, and the problems it examined
        (default: the current problem) stay quiet until they recur after a structural change."""
        scope = self._scope(ticket.root)
        if scope.epoch != ticket.epoch or scope.inflight:
            return "stale"
        agent = self._state.agents.get(ticket.agent_id)
        if agent is None:
            return "stale"
        problem = agent.escalation.problem()
        covered = examined if examined is not None else ([problem] if problem else [])
        agent.escalation.consulted(covered, scope.structural, automatic, problem)
        return "delivered"

    # -- state ----------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain JSON (see :meth:`restore`)."""
        return self._state.to_dict(self.config)

    @classmethod
    def restore(cls, data: dict[str, Any], config: TrackerConfig | None = None) -> Tracker:
        """A tracker in the state a :meth:`snapshot` recorded (with its policy and reminder budget,
        unless ``config`` says otherwise). Raises ``SnapshotError`` (a ``ValueError``) for a
        snapshot it cannot read, ``SnapshotVersionError`` for one of another format version."""
        if config is None and isinstance(data, dict):
            config = TrackerConfig(policy=data.get("policy", "seed"),
                                   reminder_budget=data.get("reminder_budget", REMINDER_BUDGET))
        tracker = cls(config)
        tracker._state = TrackerState.from_dict(data, tracker.config)
        return tracker


def _change(item: Item, **fields: Any) -> None:
    """Set fields of ``item`` as assigning each would (no model of the tracker's validates
    assignments), without pydantic's ``__setattr__`` for each: a failure sets nine of them."""
    item.__dict__.update(fields)
    item.__pydantic_fields_set__.update(fields)


_ACTIONS: dict[type[Any], Callable[[Tracker, Any], None]] = {
    ToolDispatched: Tracker._dispatched, ToolCompleted: Tracker._completed, UserMessage: Tracker._user_message,
    AssistantMessage: Tracker._assistant_message, AgentSpawned: Tracker._agent_spawned,
    AgentDisposed: Tracker._agent_disposed,
}
"""What ``Tracker.handle`` does with each class of event (the others it only ticks)."""
