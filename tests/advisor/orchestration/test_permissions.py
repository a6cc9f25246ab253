"""Permissions: defaults plus deltas, a ceiling, reserved tools, versioned policy records."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from advisor.errors import ToolNotPermitted
from advisor.orchestration import (
    DEFAULT_ENABLED_TOOLS,
    PermissionSettings,
    Pin,
    PolicyRecord,
    ceiling,
    check_tool,
    effective_root_policy,
    read_policy,
)

SETTINGS = PermissionSettings()


def test_the_shipped_default_enables_only_the_four_read_tools() -> None:
    """Without a session record the advisor may read, view images, glob and grep — nothing else."""
    assert effective_root_policy(PolicyRecord(), SETTINGS) == {"read", "read_image", "glob", "grep"}
    assert {"read", "read_image", "glob", "grep"} == DEFAULT_ENABLED_TOOLS


def test_effective_policy_is_defaults_plus_allow_minus_deny() -> None:
    """Allowing bash and denying grep gives the defaults with bash, without grep."""
    record = PolicyRecord(allow_tools=("bash",), deny_tools=("grep",))
    assert effective_root_policy(record, SETTINGS) == {"read", "read_image", "glob", "bash"}


def test_a_global_default_change_reaches_tools_a_session_never_touched() -> None:
    """The record stores deltas: a new global default applies to a session that allowed something else."""
    record = PolicyRecord(allow_tools=("bash",))
    wider = PermissionSettings(default_enabled=frozenset({"read", "git_diff"}))
    assert effective_root_policy(record, wider) == {"read", "git_diff", "bash"}


def test_delegation_and_the_consult_tool_are_never_granted() -> None:
    """No policy grants consult_advisor, sub-agent tools or a configured amplifier."""
    record = PolicyRecord(allow_tools=("consult_advisor", "task", "subagent_run", "transfer_to_billing", "mcp_fan"))
    settings = PermissionSettings(amplifiers=frozenset({"mcp_fan"}))
    assert effective_root_policy(record, settings) == DEFAULT_ENABLED_TOOLS
    with pytest.raises(ToolNotPermitted, match="never available"):
        check_tool("consult_advisor", pinned=frozenset({"consult_advisor"}), root_policy=frozenset({"consult_advisor"}),
                   visible=None, settings=settings)


def test_a_worker_cannot_obtain_bash_through_its_advisor() -> None:
    """The root allows bash; a worker that cannot see bash gets an advisor without it."""
    root_policy = effective_root_policy(PolicyRecord(allow_tools=("bash",)), SETTINGS)
    assert "bash" in ceiling(root_policy, None)
    worker = ceiling(root_policy, frozenset({"read", "edit"}))
    assert worker == {"read"}
    with pytest.raises(ToolNotPermitted, match="requesting agent can see"):
        check_tool("bash", pinned=frozenset({"bash", "read"}), root_policy=root_policy,
                   visible=frozenset({"read"}), settings=SETTINGS)


def test_the_verdict_channel_is_always_allowed_and_grants_nothing_else() -> None:
    """advisor_verdict passes any ceiling; it does not make other tools pass."""
    check_tool("advisor_verdict", pinned=frozenset(), root_policy=frozenset(), visible=frozenset(), settings=SETTINGS)
    with pytest.raises(ToolNotPermitted):
        check_tool("read", pinned=frozenset(), root_policy=frozenset(), visible=frozenset(), settings=SETTINGS)


@pytest.mark.parametrize(("stored", "source", "allow", "inherit"), [
    ({"version": 3, "allowTools": ["bash"]}, "current", ("bash",), True),
    ({"version": 2, "allowTools": ["bash"], "denyTools": ["grep"]}, "migrated-v2", ("bash",), True),
    ({"allowTools": ["edit"], "denyTools": []}, "migrated-delta", ("edit",), True),
    ({"preset": "read-only", "tools": ["read"]}, "migrated-preset", ("read",), False),
    ({"version": 7, "allowTools": ["bash"]}, "fallback", (), True),
    ({"version": 3, "allowTools": "bash"}, "fallback", (), True),
    ({"version": 2, "escalationWait": "sometimes"}, "fallback", (), True),
    (["not", "an", "object"], "fallback", (), True),
    (None, "fallback", (), True),
])
def test_stored_records_are_validated_migrated_or_fall_back(stored: object, source: str, allow: tuple[str, ...],
                                                             inherit: bool) -> None:
    """Unversioned deltas migrate to v2 semantics; legacy presets stay absolute; the rest falls back to defaults."""
    record, how = read_policy(stored)
    assert (how, record.allow_tools, record.inherit_default_tools) == (source, allow, inherit)


def test_a_migrated_absolute_preset_does_not_inherit_the_defaults() -> None:
    """A legacy preset listing only read keeps grep off."""
    record, _ = read_policy({"preset": "mine", "tools": ["read"]})
    assert effective_root_policy(record, SETTINGS) == {"read"}


_TOOLS = ["read", "grep", "glob", "bash", "edit", "git_diff", "consult_advisor", "task", "mystery"]


class PermissionMachine(RuleBasedStateMachine):
    """Under any sequence of policy changes, no advisor tool outside pinned ceiling ∩ current root
    policy ∩ requester visibility passes the execution check; reserved tools never pass."""

    def __init__(self) -> None:
        super().__init__()
        self.allow: set[str] = set()
        self.deny: set[str] = set()
        self.visible = frozenset({"read", "grep", "bash", "task"})
        record = PolicyRecord()
        self.pin = Pin.make(profile="p", provider="x", model="m",
                            granted=ceiling(effective_root_policy(record, SETTINGS), self.visible))

    def record(self) -> PolicyRecord:
        return PolicyRecord(allow_tools=tuple(sorted(self.allow)), deny_tools=tuple(sorted(self.deny)))

    @rule(tool=st.sampled_from(_TOOLS))
    def allow_tool(self, tool: str) -> None:
        self.allow.add(tool)
        self.deny.discard(tool)

    @rule(tool=st.sampled_from(_TOOLS))
    def deny_tool(self, tool: str) -> None:
        self.deny.add(tool)
        self.allow.discard(tool)

    @rule(tools=st.frozensets(st.sampled_from(_TOOLS)))
    def change_visibility(self, tools: frozenset[str]) -> None:
        self.visible = tools

    @rule()
    def repin(self) -> None:
        self.pin = Pin.make(profile="p", provider="x", model="m",
                            granted=ceiling(effective_root_policy(self.record(), SETTINGS), self.visible))

    @invariant()
    def nothing_outside_the_ceiling(self) -> None:
        policy = effective_root_policy(self.record(), SETTINGS)
        for tool in _TOOLS:
            allowed = tool in self.pin.granted and tool in policy and tool in self.visible \
                and tool not in ("consult_advisor", "task")
            try:
                check_tool(tool, pinned=self.pin.granted, root_policy=policy, visible=self.visible, settings=SETTINGS)
            except ToolNotPermitted:
                assert not allowed, tool
            else:
                assert allowed, tool


TestPermissionMachine = PermissionMachine.TestCase


@pytest.mark.parametrize("has_workspace", [True, False])
def test_an_advisor_with_no_workspace_is_declared_no_workspace_tools(tmp_path: Path, has_workspace: bool) -> None:
    """Every tool granted: an advisor child with a workspace is declared the read tools, one without none of them
    (they could only refuse), the verdict channel either way."""
    from advisor.consult import ConsultSettings
    from advisor.orchestration._child import GuardedInvestigation

    granted = frozenset({"read", "grep", "glob", "git_diff", "advisor_expand"})  # `glob` grants find and ls
    investigation = GuardedInvestigation(tmp_path if has_workspace else None, settings=ConsultSettings(),
                                         redact=str, submit=lambda _: (True, ""), check=lambda _: None,
                                         granted=granted)
    names = [spec.name for spec in investigation.declarations()]
    assert names[0] == "advisor_verdict"
    assert ({"read", "grep", "find", "ls", "git_diff"} <= set(names)) is has_workspace
    assert not ({"read", "grep", "find", "ls", "git_diff"} & set(names)) or has_workspace
