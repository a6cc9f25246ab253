"""Notices for the agent: what is open and what would close it. Always a reminder, never a block.

An empty list is reported as "no current-run record", never as an all-clear: the tracker only
knows what this session ran, and a restart keeps nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._items import CLAIM, Item

NO_RECORD = "No current-run obligation record (this is not an all-clear: only checks run in this session count)."


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for an agent: the open items after a change, or a reminder at turn stop."""

    kind: str
    """``obligations`` (the open set changed) or ``reminder`` (the agent is about to stop)."""
    agent_id: str
    """The root agent it is for."""
    text: str
    """The message, ready to show to the agent."""
    items: tuple[str, ...]
    """The ids of the items it lists."""
    final: bool = False
    """For reminders: the last one the task's budget allows."""


def describe(item: Item) -> str:
    """One item in one paragraph: what failed, how often, what was tried, what closes it."""
    if item.kind == CLAIM:
        head = f"{item.id} [claim {item.claim_id!r}, {item.state}]: {item.summary}"
    else:
        where = f" (in {item.cwd})" if item.cwd else ""
        times = f", failed {item.repeat_count}x" if item.repeat_count > 1 else ""
        head = f"{item.id} [{item.check_kind} `{item.check}`{where}, {item.state}{times}]: {item.summary}"
    lines = [head]
    if item.last_attempt is not None:
        lines.append(f"  last re-run ({item.last_attempt.call_id}) did not count: {item.last_attempt.reason}")
    if item.disposition is not None:
        status = "recorded" if item.disposed else "outrun by later evidence, not verified"
        lines.append(f"  disposition {item.disposition['kind']} ({status}): {item.disposition['basis']}")
    lines.append(f"  closes only through: {item.closes_by}")
    return "\n".join(lines)


def open_notice(agent_id: str, items: Sequence[Item]) -> Notice:
    """The notice that follows a change of the open set."""
    if not items:
        return Notice("obligations", agent_id, "Verification obligations: none open. " + NO_RECORD, ())
    body = "\n".join(describe(item) for item in items)
    text = ("Verification obligations — open items. No score reset, cooldown or budget clears these; only a "
            f"genuine re-run does.\n{body}")
    return Notice("obligations", agent_id, text, tuple(item.id for item in items))


def reminder(agent_id: str, items: Sequence[Item], final: bool) -> Notice:
    """A reminder at turn stop. The last one asks the agent to report each item as unresolved."""
    body = "\n".join(describe(item) for item in items)
    if final:
        ask = ("This is the last reminder for this task. If you stop now, report every item below as STILL "
               "UNRESOLVED, with its check, in your answer.")
    else:
        ask = ("Reminder (not a block): these checks failed and have not been genuinely re-run since. Re-run them "
               "so their exit status counts, or say in your answer that they are unresolved.")
    return Notice("reminder", agent_id, f"{ask}\n{body}", tuple(item.id for item in items), final)
