"""Per-root-session ``advisor/policy`` records: the user's deltas over the global defaults.

A record stores only what the user changed — tools allowed and denied on top of the global
defaults, the root's automatic waits, and (version 3) trigger and coverage overrides and a
profile — so changing a global default still reaches every tool a session never touched.
Records are validated when read: an unversioned allow/deny delta migrates to version 2; an
explicit legacy preset keeps its absolute meaning (it does not inherit the defaults); anything
malformed or of an unknown version falls back to the conservative defaults.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from advisor.consult import Trigger
from advisor.orchestration._coverage import CoverageOverrides
from advisor.orchestration._vocabulary import Switch, Wait

_WIRE = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, alias_generator=to_camel,
                   use_attribute_docstrings=True)


class RoleCoverage(BaseModel):
    """Per-trigger coverage switches of one role."""

    model_config = _WIRE

    manual: Switch = "follow"
    escalation: Switch = "follow"
    continuous: Switch = "follow"
    completion: Switch = "follow"

    def as_map(self) -> dict[Trigger, Switch]:
        """The switches that are not ``follow``."""
        values: dict[Trigger, Switch] = {"manual": self.manual, "escalation": self.escalation,
                                         "continuous": self.continuous, "completion": self.completion}
        return {k: v for k, v in values.items() if v != "follow"}


class Subagents(BaseModel):
    """How workers are narrowed."""

    model_config = _WIRE

    max_depth: int | None = Field(default=None, ge=0)
    """Workers deeper than this are not covered."""
    labels: list[str] | None = None
    """Only workers with one of these labels are covered."""


class PolicyRecord(BaseModel):
    """An ``advisor/policy`` record, the current version (3)."""

    model_config = _WIRE

    version: Literal[3] = 3
    allow_tools: tuple[str, ...] = Field(default=())
    """Tools the user enabled on top of the defaults."""
    deny_tools: tuple[str, ...] = Field(default=())
    """Tools the user disabled (defaults included)."""
    inherit_default_tools: bool = Field(default=True)
    """``False`` for a migrated absolute legacy preset: the defaults do not apply."""
    escalation_wait: Wait = Field(default="inherit")
    continuous_wait: Wait = Field(default="inherit")
    triggers: RoleCoverage = Field(default_factory=RoleCoverage)
    """Whether each trigger runs in this session."""
    root: RoleCoverage = Field(default_factory=RoleCoverage)
    """Whether each trigger covers the root."""
    local_subagent: RoleCoverage = Field(default_factory=RoleCoverage)
    """Whether each trigger covers workers."""
    subagents: Subagents = Field(default_factory=Subagents)
    profile: str | None = None
    """The advisor profile the root tree is pinned to route through."""

    def coverage(self) -> CoverageOverrides:
        """The record's coverage overrides."""
        labels = frozenset(self.subagents.labels) if self.subagents.labels is not None else None
        return CoverageOverrides(triggers=self.triggers.as_map(), root=self.root.as_map(),
                                 local_subagent=self.local_subagent.as_map(), max_depth=self.subagents.max_depth,
                                 labels=labels)

    def wire(self) -> dict[str, Any]:
        """The record as stored (camelCase keys)."""
        return self.model_dump(mode="json", by_alias=True)


class _V2(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    version: Literal[2]
    allow_tools: list[str] = Field(default_factory=list, alias="allowTools")
    deny_tools: list[str] = Field(default_factory=list, alias="denyTools")
    inherit_default_tools: bool = Field(default=True, alias="inheritDefaultTools")
    escalation_wait: Wait = Field(default="inherit", alias="escalationWait")
    continuous_wait: Wait = Field(default="inherit", alias="continuousWait")


class _LegacyDelta(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    allow_tools: list[str] = Field(default_factory=list, alias="allowTools")
    deny_tools: list[str] = Field(default_factory=list, alias="denyTools")


class _LegacyPreset(BaseModel):
    model_config = ConfigDict(extra="ignore")

    preset: str
    tools: list[str]


RecordSource = Literal["current", "migrated-v2", "migrated-delta", "migrated-preset", "fallback"]


def read_policy(data: object) -> tuple[PolicyRecord, RecordSource]:
    """A stored record as the current version, and how it was read. Never raises: what cannot
    be read is the conservative default record (source ``fallback``)."""
    if not isinstance(data, dict):
        return PolicyRecord(), "fallback"
    version = data.get("version")
    try:
        if version == 3:
            return PolicyRecord.model_validate(data), "current"
        if version == 2:
            v2 = _V2.model_validate(data)
            return PolicyRecord(allow_tools=tuple(v2.allow_tools), deny_tools=tuple(v2.deny_tools),
                                inherit_default_tools=v2.inherit_default_tools,
                                escalation_wait=v2.escalation_wait, continuous_wait=v2.continuous_wait), "migrated-v2"
        if version is None and "preset" in data:
            preset = _LegacyPreset.model_validate(data)
            return PolicyRecord(allow_tools=tuple(preset.tools), inherit_default_tools=False), "migrated-preset"
        if version is None:
            delta = _LegacyDelta.model_validate(data)
            return PolicyRecord(allow_tools=tuple(delta.allow_tools), deny_tools=tuple(delta.deny_tools)), \
                "migrated-delta"
    except ValidationError:
        return PolicyRecord(), "fallback"
    return PolicyRecord(), "fallback"
