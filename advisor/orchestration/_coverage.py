"""Which agents an advisor trigger covers: the default table, the mode presets, and per-session
overrides.

Advisor children are excluded from every path. The defaults are the table below; a session's
policy can switch each trigger and each role's coverage ``follow``/``on``/``off`` and narrow
workers by depth and label. The mode is only a preset of which triggers run.

======================  ====  ==============
capability              root  local-subagent
======================  ====  ==============
manual consultation     on    on
automatic escalation    on    on
continuous review       on    off
completion review       off   off
======================  ====  ==============
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from advisor.consult import Trigger
from advisor.orchestration._vocabulary import Switch
from obligations import AgentRole

Mode = Literal["manual", "escalate", "continuous"]
"""The preset of triggers: manual only; manual + escalation; manual + continuous."""


@dataclass(frozen=True, slots=True)
class CoverageRow:
    """One row of the default coverage table."""

    trigger: Trigger
    root: bool
    local_subagent: bool
    why: str


COVERAGE_TABLE: tuple[CoverageRow, ...] = (
    CoverageRow("manual", True, True, "an agent that asks is always heard, at root or in a worker"),
    CoverageRow("escalation", True, True, "the cheap model gets stuck inside a worker as easily as at root"),
    CoverageRow("continuous", True, False, "reviewing every turn is expensive and would scale with the workers"),
    CoverageRow("completion", False, False, "gates the final delivery at turn-stopping; enable it explicitly"),
)
"""The default coverage, by trigger."""

MODE_TRIGGERS: Mapping[Mode, frozenset[Trigger]] = {
    "manual": frozenset({"manual"}),
    "escalate": frozenset({"manual", "escalation"}),
    "continuous": frozenset({"manual", "continuous"}),
}
"""The triggers each mode runs (completion review is orthogonal to the mode)."""


@dataclass(frozen=True, slots=True)
class CoverageSettings:
    """The global settings: the mode, completion review, and the role table's defaults."""

    mode: Mode = "escalate"
    completion_review: bool = False
    table: tuple[CoverageRow, ...] = COVERAGE_TABLE


@dataclass(frozen=True, slots=True)
class CoverageOverrides:
    """A session's overrides (from its policy record); unset options follow the global settings."""

    triggers: Mapping[Trigger, Switch] = field(default_factory=dict)
    """Per trigger: run it or not, whatever the mode says."""
    root: Mapping[Trigger, Switch] = field(default_factory=dict)
    """Per trigger: whether it covers the root."""
    local_subagent: Mapping[Trigger, Switch] = field(default_factory=dict)
    """Per trigger: whether it covers workers."""
    max_depth: int | None = None
    """Workers deeper than this are not covered (1: the root's direct workers)."""
    labels: frozenset[str] | None = None
    """Only workers with one of these labels are covered."""


def _switch(value: Switch | None, default: bool) -> bool:
    return default if value in (None, "follow") else value == "on"


def trigger_runs(trigger: Trigger, settings: CoverageSettings, overrides: CoverageOverrides) -> bool:
    """Whether a trigger runs at all in this session."""
    default = settings.completion_review if trigger == "completion" else trigger in MODE_TRIGGERS[settings.mode]
    return _switch(overrides.triggers.get(trigger), default)


def trigger_covers(trigger: Trigger, role: AgentRole, *, depth: int, label: str | None, settings: CoverageSettings,
           overrides: CoverageOverrides) -> bool:
    """Whether ``trigger`` covers an agent of this role, depth and label."""
    if role == "advisor":
        return False
    if not trigger_runs(trigger, settings, overrides):
        return False
    row = next(r for r in settings.table if r.trigger == trigger)
    if role == "root":
        return _switch(overrides.root.get(trigger), row.root)
    if not _switch(overrides.local_subagent.get(trigger), row.local_subagent):
        return False
    if overrides.max_depth is not None and depth > overrides.max_depth:
        return False
    return overrides.labels is None or (label is not None and label in overrides.labels)
