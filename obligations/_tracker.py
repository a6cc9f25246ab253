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

import copy
from collections import deque
from collections.abc import Iterable
from typing import Any

import shellparse

from ._calls import Call, interpret
from ._config import TrackerConfig
from ._escalation import Decision, Escalation
from ._events._agent_disposed import AgentDisposed
from ._events._agent_spawned import AgentSpawned
from ._events._assistant_message import AssistantMessage
from ._events._tool_completed import ToolCompleted
from ._events._tool_dispatched import ToolDispatched
from ._events._union import Event
from ._events._user_message import UserMessage
from ._fingerprints import fingerprint, target_fingerprint
from ._items import CLAIM, OPEN, RESOLVED, VALIDATION_FAILURE, Attempt, Item, Transition, item_id
from ._notices import Notice, open_notice, reminder
from ._outcomes import EXCLUDED, SUCCESS, UNKNOWN_FAILURE, classify
from ._outcomes import VALIDATION_FAILURE as FAILED_CHECK
from ._redact import redact
from ._state import Agent, ClaimResult, Pending, ReviewTicket, Scope


class Tracker:
    """Turns a stream of events into obligations, notices, reminders and escalation decisions.

    Drive it with :meth:`handle`; read it with :meth:`open_items`, :meth:`notices`,
    :meth:`stop`, :meth:`should_escalate` and :meth:`snapshot`.
    """

    def __init__(self, config: TrackerConfig | None = None):
        self.config = config or TrackerConfig()
        self.tick = 0
        self.agents: dict[str, Agent] = {}
        self.scopes: dict[str, Scope] = {}
        self.pending: dict[str, Pending] = {}
        self.items: dict[str, Item] = {}
        self.ended: deque[dict[str, Any]] = deque(maxlen=self.config.ended_tasks)
        self.lost_results = 0
        self.former: dict[str, tuple[str | None, str, str]] = {}
        """Disposed agents' place in the tree (parent, role, root), should they act again."""
        self._lives = 0

    # -- events -----------------------------------------------------------------------------

    def handle(self, event: Event) -> int:
        """Take one event; stamp it with the next tick and return that tick."""
        self.tick += 1
        # Stamped straight into the model's fields: pydantic's attribute hook costs more than the
        # rest of handling most events.
        event.__dict__["tick"] = self.tick
        if isinstance(event, ToolDispatched):
            self._dispatched(event)
        elif isinstance(event, ToolCompleted):
            self._completed(event)
        elif isinstance(event, UserMessage):
            if not event.goal:
                self._new_task(self.agent(event.agent_id))
        elif isinstance(event, AssistantMessage):
            agent = self.agent(event.agent_id)
            agent.escalation.turn += 1
            if event.claim is not None:
                claim = event.claim
                self.register_claim(claim.claim_id, claim.summary, claim.validation_call_id, agent.id)
        elif isinstance(event, AgentSpawned):
            self._spawned(event.agent_id, event.parent_id, event.role)
        elif isinstance(event, AgentDisposed):
            self._disposed(event.agent_id)
        return self.tick

    def handle_many(self, events: Iterable[Event]) -> None:
        """Take events in order (the same as calling :meth:`handle` on each)."""
        for event in events:
            self.handle(event)

    def agent(self, agent_id: str) -> Agent:
        """The agent with this id; one never announced is a root agent. An agent that was disposed
        comes back where it was in the tree, in a task of its own (its old results stay stale)."""
        found = self.agents.get(agent_id)
        if found is None:
            parent, role, root = self.former.get(agent_id, (None, "root", agent_id))
            if root != agent_id and root in self.agents:
                found = Agent(agent_id, parent, role, root, self.agents[root].task)
            else:
                found = Agent(agent_id, None, "root", agent_id)
            found.life = self._lives = self._lives + 1
            self.agents[agent_id] = found
        return found

    def _spawned(self, agent_id: str, parent_id: str | None, role: str) -> None:
        parent = self.agent(parent_id) if parent_id is not None else None
        root = agent_id if parent is None or role == "root" else parent.root
        existing = self.agents.get(agent_id)
        if existing is not None and existing.root == root:
            existing.parent, existing.role = parent_id, role
            return
        if existing is not None and existing.root == agent_id:
            self._archive(existing)  # it acted as a root; now it is someone's worker
        task = self.agent(root).task if root != agent_id else 0
        agent = Agent(agent_id, parent_id, "root" if root == agent_id else role, root, task)
        agent.life = self._lives = self._lives + 1
        self.agents[agent_id] = agent

    def _disposed(self, agent_id: str) -> None:
        agent = self.agents.pop(agent_id, None)
        if agent is None:
            return
        self.former[agent_id] = (agent.parent, agent.role, agent.root)
        if agent.root == agent_id:
            for key in [k for k, item in self.items.items() if item.agent_id == agent_id]:
                del self.items[key]

    def _new_task(self, agent: Agent) -> None:
        if agent.root == agent.id:
            agent.notice_due = self._archive(agent)
            agent.reminders_used = 0
            agent.evidence.clear()
        agent.task = self.tick
        agent.escalation = Escalation()

    def _archive(self, agent: Agent) -> bool:
        """End a root agent's task: keep its unresolved items for reports, drop the rest."""
        unresolved = [item.to_dict() for item in self.items.values()
                      if item.agent_id == agent.id and item.state == OPEN]
        if unresolved:
            self.ended.append({"agent_id": agent.id, "task": agent.task, "ended_tick": self.tick,
                               "unresolved": unresolved})
        for key in [k for k, item in self.items.items() if item.agent_id == agent.id]:
            del self.items[key]
        return bool(unresolved)

    # -- dispatch and completion ---------------------------------------------------------------

    def _dispatched(self, event: ToolDispatched) -> None:
        agent = self.agent(event.agent_id)
        call = interpret(event.tool, event.arguments, event.shell, self.config)
        root = self.agent(agent.root)
        self.pending[event.call_id] = Pending(event.call_id, agent.id, root.id, root.life, root.task, self.tick, call,
                                              event.cwd)
        if call.mutates:
            scope = self._scope(root.id)
            scope.started(event.call_id)
            scope.epoch += 1
            if call.validation is None:
                scope.structural += 1  # a check re-run is evidence, not a structural change
            self._reopen(root, event.call_id, call, event.origin)

    def _completed(self, event: ToolCompleted) -> None:
        pending = self.pending.pop(event.call_id, None)
        if pending is None:
            # The dispatch is unknown: nothing task-specific can be said, but the call may still
            # have written, so it counts as a mutation of the agent's workspace.
            self.lost_results += 1
            owner = self.agent(self.agent(event.agent_id).root)
            scope = self._scope(owner.id)
            scope.epoch += 1
            scope.finished(event.call_id, self.tick)
            self._reopen(owner, event.call_id, None, event.origin)
            return
        call = pending.call
        agent = self.agents.get(pending.agent_id)
        root = self.agents.get(pending.root)
        if call.mutates:
            self._scope(pending.root).finished(pending.call_id, self.tick)
        if agent is None or root is None or pending.task != root.task or pending.life != root.life:
            return  # the agent is gone or a new task began: effects counted, nothing else
        outcome = classify(call, event.exit_code, event.is_error, event.error_code, event.error_message)
        validation = call.validation
        output = event.output or ""
        refuted = None
        if outcome == SUCCESS and validation is not None and event.exit_code == 0 and output:
            refuted = shellparse.failure_evidence(validation.family, output)
            if refuted is not None:
                outcome = FAILED_CHECK
        failed = outcome in (FAILED_CHECK, UNKNOWN_FAILURE)
        # Only failures are fingerprinted: normalising every output is the costliest step of a replay.
        failure_print = fingerprint(call.tool, event.error_message or output or f"exit {event.exit_code}") \
            if failed else None
        agent.escalation.observe({"tick": self.tick, "call_id": pending.call_id, "tool": call.tool,
                                  "outcome": outcome, "exit_code": event.exit_code, "fingerprint": failure_print},
                                 self.config.escalation)
        if call.kind in ("edit", "other") and call.targets:
            agent.escalation.edit(self.tick, call.targets, target_fingerprint(call.tool, call.targets),
                                  self.config.escalation)
        if failed:
            assert failure_print is not None
            key = validation.key if validation is not None else None
            agent.escalation.failure(self.tick, failure_print, key, event.is_error, self.config.escalation)
        if agent.id != root.id or validation is None or outcome in EXCLUDED:
            return
        self._remember(root, pending, validation)
        if outcome == FAILED_CHECK:
            self._failed(root, pending, validation, event, refuted)
        elif outcome == SUCCESS:
            self._passed(root, pending, validation, event)

    def _remember(self, root: Agent, pending: Pending, validation: shellparse.Validation) -> None:
        """Keep the call's check for claims that cite it (the newest ones only)."""
        root.evidence[pending.call_id] = {"key": validation.key, "cwd": pending.cwd, "check": validation.statement,
                                          "kind": validation.kind, "family": validation.family}
        while len(root.evidence) > self.config.claim_evidence:
            root.evidence.popitem(last=False)

    def _failed(self, root: Agent, pending: Pending, validation: shellparse.Validation, event: ToolCompleted,
                refuted: str | None) -> None:
        if refuted is not None:
            summary = f"reported exit 0, but its output shows a failure: {refuted}"
        else:
            evidence = shellparse.failure_evidence(validation.family, event.output or "")
            detail = evidence or _last_line(event.error_message or event.output or "")
            status = f"exited {event.exit_code}" if event.exit_code is not None else "failed"
            summary = f"{status}: {detail}" if detail else status
        summary = redact(summary)
        ident = item_id(root.id, root.task, VALIDATION_FAILURE, validation.key, pending.cwd)
        item = self.items.get(ident)
        limit = self.config.history
        if item is None:
            item = Item(ident, VALIDATION_FAILURE, root.id, root.task, validation.key, pending.cwd,
                        validation.statement, validation.kind, validation.family, None, summary, self.tick,
                        self.tick, pending.call_id)
            item.note(Transition(self.tick, "opened", summary, pending.call_id, event.origin), limit)
            self.items[ident] = item
        else:
            item.state, item.resolution, item.summary = OPEN, None, summary
            item.latest_failure_tick, item.latest_failure_call = self.tick, pending.call_id
            item.repeat_count += 1
            item.revision += 1
            item.note(Transition(self.tick, "failed-again", summary, pending.call_id, event.origin), limit)
        for claim in self._claims(root, validation.key, pending.cwd):
            claim.latest_failure_tick, claim.latest_failure_call = self.tick, pending.call_id
            claim.revision += 1
            claim.state, claim.resolution = OPEN, None
        root.notice_due = True

    def _passed(self, root: Agent, pending: Pending, validation: shellparse.Validation,
                event: ToolCompleted) -> None:
        analysis = pending.call.analysis
        assert analysis is not None
        genuine = event.exit_code == 0 and analysis.witness_eligible
        if genuine:
            root.escalation.passed(validation.key, pending.call.command or "")
        candidates = [item for item in self.items.values()
                      if item.agent_id == root.id and item.key == validation.key and item.cwd == pending.cwd
                      and item.state == OPEN]
        for item in candidates:
            reason = self._why_not(item, pending, event, analysis)
            if reason is not None:
                item.last_attempt = Attempt(pending.call_id, self.tick, reason, pending.call.command, event.origin)
                continue
            item.state = RESOLVED
            item.resolution = {"witness_call_id": pending.call_id, "tick": self.tick,
                               "kind": "reverified-and-corrected" if item.correction else "reverified"}
            item.revision += 1
            item.note(Transition(self.tick, "resolved", f"witnessed by `{pending.call.command}`", pending.call_id,
                                 event.origin), self.config.history)
            root.notice_due = True

    def _why_not(self, item: Item, pending: Pending, event: ToolCompleted,
                 analysis: shellparse.Analysis) -> str | None:
        """Why this run does not witness ``item`` (``None`` when it does)."""
        if event.exit_code is None:
            return "no exit code was reported, and no exit code is never a pass"
        if not analysis.witness_eligible:
            masks = [r for r in analysis.reasons if r.level == "masks"]
            if masks:
                return f"{analysis.exit_source}: {masks[0].message}"
            return f"{analysis.exit_source}: the exit status is not the check's own under policy {analysis.policy}"
        if pending.tick <= item.latest_failure_tick:
            return "it was dispatched before the latest failure completed"
        scope = self._scope(item.agent_id)
        others = sorted(call for call in scope.inflight if call != pending.call_id)
        if others:
            return f"a potential edit ({others[0]}) was still running when it completed"
        later = scope.completed_after(pending.tick, pending.call_id)
        if later is not None:
            return f"a potential edit ({later}) completed while it ran"
        if item.kind == CLAIM and (item.correction is None or pending.tick <= item.correction["tick"]):
            return "a claim closes only by a run after its correction"
        return None

    def _reopen(self, root: Agent, call_id: str, call: Call | None, origin: str | None) -> None:
        what = f"`{call.command}`" if call is not None and call.command else (call.tool if call else "a call")
        for item in self.items.values():
            if item.agent_id == root.id and item.state == RESOLVED:
                item.state, item.resolution = OPEN, None
                item.revision += 1
                item.note(Transition(self.tick, "reopened", f"{what} may have edited the workspace after the "
                                     "witness", call_id, origin), self.config.history)
                root.notice_due = True

    def _scope(self, root_id: str) -> Scope:
        scope = self.scopes.get(root_id)
        if scope is None:
            scope = self.scopes[root_id] = Scope()
        return scope

    def _claims(self, root: Agent, key: str, cwd: str | None) -> list[Item]:
        return [item for item in self.items.values()
                if item.agent_id == root.id and item.kind == CLAIM and item.key == key and item.cwd == cwd]

    # -- reading ------------------------------------------------------------------------------

    def open_items(self, agent_id: str | None = None) -> list[Item]:
        """Copies of the open items (of one root agent, or all), oldest first. An empty list means
        "no current-run record", never "all clear"."""
        return [copy.deepcopy(item) for item in self.items.values()
                if item.state == OPEN and (agent_id is None or item.agent_id == agent_id)]

    def all_items(self, agent_id: str | None = None) -> list[Item]:
        """Copies of every item of the current tasks, open and resolved."""
        return [copy.deepcopy(item) for item in self.items.values() if agent_id is None or item.agent_id == agent_id]

    def notices(self) -> list[Notice]:
        """The notices due since the last call: for each root agent whose open set changed, the
        open items and what closes each (an empty open set says "no current-run record")."""
        due = [agent for agent in self.agents.values() if agent.notice_due and agent.root == agent.id]
        notices = []
        for agent in due:
            agent.notice_due = False
            notices.append(open_notice(agent.id, [i for i in self.items.values()
                                                  if i.agent_id == agent.id and i.state == OPEN]))
        return notices

    def stop(self, agent_id: str = "root") -> Notice | None:
        """The agent is about to end its turn: a reminder, if one is due and the budget allows.

        At most one reminder per item revision, and at most ``reminder_budget`` per task."""
        agent = self.agent(agent_id)
        root = self.agent(agent.root)
        due = [item for item in self.items.values()
               if item.agent_id == root.id and item.state == OPEN and item.revision > item.reminded_revision
               and not item.disposed]
        if not due or root.reminders_used >= self.config.reminder_budget:
            return None
        root.reminders_used += 1
        for item in due:
            item.reminded_revision = item.revision
        final = root.reminders_used >= self.config.reminder_budget
        return reminder(root.id, due, final)

    def reminders_left(self, agent_id: str = "root") -> int:
        """How many reminders the agent's task can still give."""
        return max(0, self.config.reminder_budget - self.agent(self.agent(agent_id).root).reminders_used)

    # -- claims, corrections, dispositions --------------------------------------------------------

    def register_claim(self, claim_id: str, summary: str, validation_call_id: str | None = None,
                       agent_id: str = "root") -> ClaimResult:
        """Register a contradicted claim, bound to the check of ``validation_call_id``.

        The key comes from the tracker's own record of that call, never from the caller. An
        unknown call, or a call that ran no check, is refused; without a call id the claim is
        keyless and can never close until registered again with one. A claim keeps its first key.
        """
        root = self.agent(self.agent(agent_id).root)
        if agent_id != root.id:
            return ClaimResult(False, "claims are registered for root agents only")
        evidence = None
        if validation_call_id is not None:
            evidence = root.evidence.get(validation_call_id)
            if evidence is None:
                return ClaimResult(False, f"unknown validation_call_id {validation_call_id!r}: no check by that call "
                                          "was observed in this task")
        ident = item_id(root.id, root.task, CLAIM, claim_id)
        item = self.items.get(ident)
        if item is not None:
            if evidence is None:
                return ClaimResult(True, "claim already registered", ident)
            if item.key is not None and (item.key != evidence["key"] or item.cwd != evidence["cwd"]):
                return ClaimResult(False, f"claim {claim_id!r} is already bound to `{item.check}`; it keeps its "
                                          "first check", ident)
            if item.key is None:
                item.key, item.cwd, item.check = evidence["key"], evidence["cwd"], evidence["check"]
                item.check_kind, item.family = evidence["kind"], evidence["family"]
                item.revision += 1
                item.note(Transition(self.tick, "claim-bound", f"bound to `{item.check}`", validation_call_id),
                          self.config.history)
            return ClaimResult(True, "claim bound to its check", ident)
        item = Item(ident, CLAIM, root.id, root.task, evidence["key"] if evidence else None,
                    evidence["cwd"] if evidence else None, evidence["check"] if evidence else None,
                    evidence["kind"] if evidence else None, evidence["family"] if evidence else None, claim_id,
                    redact(summary), self.tick, self.tick, validation_call_id)
        item.note(Transition(self.tick, "opened", redact(summary), validation_call_id), self.config.history)
        self.items[ident] = item
        root.notice_due = True
        return ClaimResult(True, "claim registered", ident)

    def correct(self, claim_id: str, document: str, change: str, evidence: str, item: str | None = None,
                agent_id: str = "root") -> ClaimResult:
        """Record a correction of a claim. It never closes anything by itself; a later witness does."""
        root = self.agent(self.agent(agent_id).root)
        if not (document and change and evidence):
            return ClaimResult(False, "a correction needs the document, the change and the evidence")
        matches = [i for i in self.items.values() if i.agent_id == root.id and i.kind == CLAIM
                   and i.claim_id == claim_id and i.state == OPEN and (item is None or i.id == item)]
        if len(matches) != 1:
            found = "no open item" if not matches else f"{len(matches)} open items"
            return ClaimResult(False, f"{found} for claim {claim_id!r}; name the item")
        target = matches[0]
        target.correction = {"document": redact(document, 200), "change": redact(change), "evidence": redact(evidence),
                             "tick": self.tick}
        target.revision += 1
        target.note(Transition(self.tick, "correction", redact(change)), self.config.history)
        return ClaimResult(True, "correction recorded; a later genuine run of the check closes the item", target.id)

    def dispose(self, item: str, kind: str, basis: str) -> ClaimResult:
        """Record a disposition (``not-applicable`` or ``accept-risk``). It never closes the item."""
        if kind not in ("not-applicable", "accept-risk"):
            return ClaimResult(False, "a disposition is `not-applicable` or `accept-risk`")
        if not basis.strip():
            return ClaimResult(False, "a disposition needs a basis")
        target = self.items.get(item)
        if target is None:
            return ClaimResult(False, f"no item {item!r} in the current task")
        target.revision += 1
        target.disposition = {"kind": kind, "basis": redact(basis), "revision": target.revision, "tick": self.tick}
        target.note(Transition(self.tick, "disposition", f"{kind}: {redact(basis)}"), self.config.history)
        return ClaimResult(True, "disposition recorded; the item stays open", target.id)

    # -- escalation and reviews -------------------------------------------------------------------

    def should_escalate(self, agent_id: str = "root") -> Decision:
        """Whether the agent's score calls for an automatic consultation now."""
        agent = self.agent(agent_id)
        return agent.escalation.decide(self.config.escalation, self._scope(agent.root).structural)

    def begin_review(self, agent_id: str = "root") -> ReviewTicket:
        """Note the workspace epoch as a review starts."""
        agent = self.agent(agent_id)
        return ReviewTicket(agent.id, agent.root, self._scope(agent.root).epoch, self.tick)

    def finish_review(self, ticket: ReviewTicket, examined: list[str] | None = None, automatic: bool = False) -> str:
        """A review ends: ``stale`` when the workspace changed (or may be changing) since it
        began — recorded, not to be shown — else ``delivered``, and the problems it examined
        (default: the current problem) stay quiet until they recur after a structural change."""
        scope = self._scope(ticket.root)
        if scope.epoch != ticket.epoch or scope.inflight:
            return "stale"
        agent = self.agents.get(ticket.agent_id)
        if agent is None:
            return "stale"
        problem = agent.escalation.problem()
        covered = examined if examined is not None else ([problem] if problem else [])
        agent.escalation.consulted(covered, scope.structural, automatic, problem)
        return "delivered"

    # -- state ----------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain JSON (see ``Tracker.restore``)."""
        from ._snapshot import dump

        return dump(self)

    @classmethod
    def restore(cls, data: dict[str, Any], config: TrackerConfig | None = None) -> Tracker:
        """A tracker in the state a :meth:`snapshot` recorded (with its policy and reminder budget,
        unless ``config`` says otherwise)."""
        from ._snapshot import load

        if config is None:
            config = TrackerConfig(policy=data.get("policy", "seed"), reminder_budget=data.get("reminder_budget", 3))
        return load(cls(config), data)


def _last_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""
