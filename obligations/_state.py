"""A tracker's state, in one record that serialises itself: agents, workspaces, dispatched calls,
items and ended tasks. Only the tracker holds one; everything else asks the tracker.

Dispatched calls are stored with their command, not their arguments, and analysed again on
restore: shellparse's verdict on a command does not change.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from shellparse import CheckKind

from ._calls import Call, interpret
from ._config import TrackerConfig
from ._escalation import Escalation
from ._items import Item
from ._reports import EndedTask
from ._vocabulary import AgentRole
from .errors import SnapshotError, SnapshotVersionError

VERSION = 2
"""The snapshot format this tracker writes and reads."""


class Evidence(NamedTuple):
    """A check a root agent ran in its current task, kept for claims that cite its call."""

    key: str
    cwd: str | None
    check: str
    kind: CheckKind
    family: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Place(NamedTuple):
    """Where a disposed agent stood in the tree, should it act again."""

    parent: str | None
    role: AgentRole
    root: str


@dataclass(slots=True)
class Agent:
    """One agent: its place in the tree, its task, reminders, claim evidence and escalation score."""

    id: str
    parent: str | None
    role: AgentRole
    root: str
    task: int = 0
    escalation: Escalation = field(default_factory=Escalation)
    reminders_used: int = 0
    notice_due: bool = False
    evidence: OrderedDict[str, Evidence] = field(default_factory=OrderedDict)
    life: int = 0
    """Which agent of this name: a disposed agent's name may be used again by a new one."""

    def to_dict(self, reminder_budget: int) -> dict[str, Any]:
        return {"parent": self.parent, "role": self.role, "root": self.root, "task": self.task,
                "reminders_used": self.reminders_used,
                "reminders_left": max(0, reminder_budget - self.reminders_used),
                "notice_due": self.notice_due, "evidence": {call: row.to_dict() for call, row in self.evidence.items()},
                "life": self.life, "escalation": self.escalation.to_dict()}

    @classmethod
    def from_dict(cls, agent_id: str, data: dict[str, Any]) -> Agent:
        evidence = OrderedDict((call, Evidence(**row)) for call, row in data["evidence"].items())
        return cls(agent_id, data["parent"], data["role"], data["root"], data["task"],
                   Escalation.from_dict(data["escalation"]), data["reminders_used"], data["notice_due"], evidence,
                   data["life"])


@dataclass(slots=True)
class Scope:
    """The workspace as one root agent's tree sees it."""

    epoch: int = 0
    structural: int = 0
    inflight: dict[str, int] = field(default_factory=dict)
    """Potential mutations dispatched and not completed, by call id (a host may reuse an id)."""
    recent: list[tuple[int, str]] = field(default_factory=list)
    """The latest two mutation completions of distinct calls, newest first: enough to tell
    whether any call *other than a given one* completed after a given tick."""

    def started(self, call_id: str) -> None:
        self.inflight[call_id] = self.inflight.get(call_id, 0) + 1

    def finished(self, call_id: str, tick: int) -> None:
        left = self.inflight.get(call_id, 0) - 1
        if left > 0:
            self.inflight[call_id] = left
        else:
            self.inflight.pop(call_id, None)
        self.recent = [(tick, call_id), *(entry for entry in self.recent if entry[1] != call_id)][:2]

    def completed_after(self, tick: int, exclude: str) -> str | None:
        """A mutation other than ``exclude`` that completed after ``tick``, if any did."""
        for when, call_id in self.recent:
            if call_id != exclude:
                return call_id if when > tick else None
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"epoch": self.epoch, "structural_epoch": self.structural, "inflight": self.inflight,
                "recent_mutations": [list(entry) for entry in self.recent]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Scope:
        return cls(data["epoch"], data["structural_epoch"], dict(data["inflight"]),
                   [(tick, call) for tick, call in data["recent_mutations"]])


@dataclass(slots=True)
class Pending:
    """A dispatched call awaiting its result."""

    call_id: str
    agent_id: str
    root: str
    life: int
    """The root agent's ``life`` at dispatch."""
    task: int
    tick: int
    call: Call
    cwd: str | None

    def to_dict(self) -> dict[str, Any]:
        shell = self.call.analysis.shell if self.call.analysis else None
        return {"agent_id": self.agent_id, "root": self.root, "life": self.life, "task": self.task, "tick": self.tick,
                "cwd": self.cwd, "tool": self.call.tool, "kind": self.call.kind, "command": self.call.command,
                "shell": shell, "mutates": self.call.mutates, "targets": list(self.call.targets)}

    @classmethod
    def from_dict(cls, call_id: str, data: dict[str, Any], config: TrackerConfig) -> Pending:
        if data["command"] is not None:
            call = interpret(data["tool"], {"command": data["command"]}, data["shell"], config)
        else:
            call = Call(data["tool"], data["kind"], None, None, data["mutates"], tuple(data["targets"]))
        return cls(call_id, data["agent_id"], data["root"], data["life"], data["task"], data["tick"], call,
                   data["cwd"])


@dataclass(slots=True)
class TrackerState:
    """Everything a tracker knows. Its JSON form (``to_dict``) is the tracker's snapshot."""

    ended_tasks: int = 50
    """How many ended tasks' unresolved items are kept (``TrackerConfig.ended_tasks``)."""
    tick: int = 0
    """The order of events: one per event handled."""
    agents: dict[str, Agent] = field(default_factory=dict)
    scopes: dict[str, Scope] = field(default_factory=dict)
    """Each root agent's workspace epochs and mutations in flight."""
    pending: dict[str, Pending] = field(default_factory=dict)
    items: dict[str, Item] = field(default_factory=dict)
    """The current tasks' items, by id, oldest first."""
    ended: deque[EndedTask] = field(init=False)
    lost_results: int = 0
    """Results whose dispatch was never seen."""
    former: dict[str, Place] = field(default_factory=dict)
    """Disposed agents' place in the tree, should they act again."""
    lives: int = 0
    """Agents created so far (each gets the next number as its ``life``)."""

    def __post_init__(self) -> None:
        self.ended = deque(maxlen=self.ended_tasks)

    def to_dict(self, config: TrackerConfig) -> dict[str, Any]:
        """The state as plain JSON, with the settings a restore needs (policy, reminder budget)."""
        return {
            "version": VERSION,
            "tick": self.tick,
            "policy": config.policy,
            "reminder_budget": config.reminder_budget,
            "former_agents": {agent: list(place) for agent, place in self.former.items()},
            "lives": self.lives,
            "lost_results": self.lost_results,
            "agents": {agent.id: agent.to_dict(config.reminder_budget) for agent in self.agents.values()},
            "scopes": {root: scope.to_dict() for root, scope in self.scopes.items()},
            "pending": {call_id: pending.to_dict() for call_id, pending in self.pending.items()},
            "items": [item.to_dict() for item in self.items.values()],
            "ended_tasks": [task.to_dict() for task in self.ended],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], config: TrackerConfig) -> TrackerState:
        """The state a :meth:`to_dict` recorded. Raises ``SnapshotVersionError`` for another format
        version and ``SnapshotError`` for a snapshot without the fields it needs."""
        if not isinstance(data, dict):
            raise SnapshotError(f"a snapshot is a JSON object, not {type(data).__name__}")
        if data.get("version") != VERSION:
            raise SnapshotVersionError(data.get("version"), VERSION)
        try:
            return cls._read(data, config)
        except KeyError as error:
            raise SnapshotError(f"the snapshot has no {error.args[0]!r} field where one is needed") from None

    @classmethod
    def _read(cls, data: dict[str, Any], config: TrackerConfig) -> TrackerState:
        state = cls(config.ended_tasks, tick=data["tick"], lives=data.get("lives", 0),
                    lost_results=data.get("lost_results", 0))
        state.former = {agent: Place(*place) for agent, place in data.get("former_agents", {}).items()}
        state.agents = {agent_id: Agent.from_dict(agent_id, agent) for agent_id, agent in data["agents"].items()}
        state.scopes = {root: Scope.from_dict(scope) for root, scope in data["scopes"].items()}
        state.pending = {call_id: Pending.from_dict(call_id, pending, config)
                         for call_id, pending in data["pending"].items()}
        for raw in data["items"]:
            item = Item.from_dict(raw)
            state.items[item.id] = item
        state.ended.extend(EndedTask.from_dict(task) for task in data["ended_tasks"])
        return state
