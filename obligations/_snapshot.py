"""A tracker's whole state as plain JSON, and back.

Dispatched calls are stored with their command, not their arguments, and analysed again on
restore: shellparse's verdict on a command does not change.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from ._calls import Call, interpret
from ._escalation import Escalation
from ._items import Item

if TYPE_CHECKING:
    from ._tracker import Tracker

VERSION = 2


def dump(tracker: Tracker) -> dict[str, Any]:
    """See ``Tracker.snapshot``."""
    return {
        "version": VERSION,
        "tick": tracker.tick,
        "policy": tracker.config.policy,
        "reminder_budget": tracker.config.reminder_budget,
        "former_agents": {agent: list(place) for agent, place in tracker.former.items()},
        "lives": tracker._lives,
        "lost_results": tracker.lost_results,
        "agents": {
            agent.id: {
                "parent": agent.parent, "role": agent.role, "root": agent.root, "task": agent.task,
                "reminders_used": agent.reminders_used,
                "reminders_left": max(0, tracker.config.reminder_budget - agent.reminders_used),
                "notice_due": agent.notice_due, "evidence": dict(agent.evidence), "life": agent.life,
                "escalation": agent.escalation.to_dict(),
            }
            for agent in tracker.agents.values()
        },
        "scopes": {
            root: {"epoch": scope.epoch, "structural_epoch": scope.structural, "inflight": scope.inflight,
                   "recent_mutations": [list(entry) for entry in scope.recent]}
            for root, scope in tracker.scopes.items()
        },
        "pending": {
            call_id: {"agent_id": p.agent_id, "root": p.root, "life": p.life, "task": p.task, "tick": p.tick,
                      "cwd": p.cwd, "tool": p.call.tool, "kind": p.call.kind, "command": p.call.command,
                      "shell": p.call.analysis.shell if p.call.analysis else None,
                      "mutates": p.call.mutates, "targets": list(p.call.targets)}
            for call_id, p in tracker.pending.items()
        },
        "items": [item.to_dict() for item in tracker.items.values()],
        "ended_tasks": list(tracker.ended),
    }


def load(tracker: Tracker, data: dict[str, Any]) -> Tracker:
    """See ``Tracker.restore``."""
    from ._state import Agent, Pending, Scope

    if data.get("version") != VERSION:
        raise ValueError(f"unsupported snapshot version {data.get('version')!r} (this tracker reads {VERSION})")
    tracker.tick = data["tick"]
    tracker._lives = data.get("lives", 0)
    tracker.former = {agent: (place[0], place[1], place[2]) for agent, place in data.get("former_agents", {}).items()}
    tracker.lost_results = data.get("lost_results", 0)
    for agent_id, a in data["agents"].items():
        tracker.agents[agent_id] = Agent(agent_id, a["parent"], a["role"], a["root"], a["task"],
                                         Escalation.from_dict(a["escalation"]), a["reminders_used"],
                                         a["notice_due"], OrderedDict(a["evidence"]), a["life"])
    for root, s in data["scopes"].items():
        tracker.scopes[root] = Scope(s["epoch"], s["structural_epoch"], dict(s["inflight"]),
                                     [(tick, call) for tick, call in s["recent_mutations"]])
    for call_id, p in data["pending"].items():
        if p["command"] is not None:
            call = interpret(p["tool"], {"command": p["command"]}, p["shell"], tracker.config)
        else:
            call = Call(p["tool"], p["kind"], None, None, p["mutates"], tuple(p["targets"]))
        tracker.pending[call_id] = Pending(call_id, p["agent_id"], p["root"], p["life"], p["task"], p["tick"], call,
                                           p["cwd"])
    for item in data["items"]:
        restored = Item.from_dict(item)
        tracker.items[restored.id] = restored
    tracker.ended.extend(data["ended_tasks"])
    return tracker
