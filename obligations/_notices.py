"""Notices for the agent: what is open and what would close it. Always a reminder, never a block.

An empty list is reported as "no current-run record", never as an all-clear: the tracker only
knows what this session ran, and a restart keeps nothing. The words are in ``_wording``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import _wording
from ._items import Item
from ._vocabulary import NoticeKind


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for an agent: the open items after a change, or a reminder at turn stop."""

    kind: NoticeKind
    """``obligations`` (the open set changed) or ``reminder`` (the agent is about to stop)."""
    agent_id: str
    """The root agent it is for."""
    text: str
    """The message, ready to show to the agent."""
    items: tuple[str, ...]
    """The ids of the items it lists."""
    final: bool = False
    """For reminders: the last one the task's budget allows."""


def open_notice(agent_id: str, items: Sequence[Item]) -> Notice:
    """The notice that follows a change of the open set."""
    return Notice("obligations", agent_id, _wording.open_set(items), tuple(item.id for item in items))


def reminder(agent_id: str, items: Sequence[Item], final: bool) -> Notice:
    """A reminder at turn stop. The last one asks the agent to report each item as unresolved."""
    return Notice("reminder", agent_id, _wording.reminder(items, final), tuple(item.id for item in items), final)
