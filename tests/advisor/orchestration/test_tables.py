"""The coverage and wait tables, the agent tree, the lease and pinning."""

from __future__ import annotations

import pytest

from advisor.consult import TRIGGERS, Trigger
from advisor.errors import RegistrationError, UnknownAgent
from advisor.orchestration import (
    COVERAGE_TABLE,
    AgentTree,
    CoverageOverrides,
    CoverageSettings,
    Lease,
    Pin,
    WaitSettings,
    resolve_wait,
    trigger_covers,
)
from advisor.orchestration._pinning import continuation_refusal

DEFAULTS = CoverageSettings(mode="continuous")


@pytest.mark.parametrize(("trigger", "root", "worker"), [
    ("manual", True, True), ("escalation", True, True), ("continuous", True, False), ("completion", False, False)])
def test_default_coverage_table(trigger: Trigger, root: bool, worker: bool) -> None:
    """The seed's table: manual and escalation for both roles, continuous root only, completion off."""
    row = next(r for r in COVERAGE_TABLE if r.trigger == trigger)
    assert (row.root, row.local_subagent) == (root, worker)
    settings = CoverageSettings(mode="escalate" if trigger == "escalation" else "continuous", completion_review=True)
    if trigger != "completion":
        assert trigger_covers(trigger, "root", depth=0, label=None, settings=settings,
                      overrides=CoverageOverrides()) == root
        assert trigger_covers(trigger, "local-subagent", depth=1, label=None, settings=settings,
                      overrides=CoverageOverrides()) == worker


def test_advisors_are_excluded_from_every_path() -> None:
    """No trigger covers an advisor, even forced on."""
    forced = CoverageOverrides(triggers=dict.fromkeys(TRIGGERS, "on"), root={"manual": "on"},
                               local_subagent={"manual": "on"})
    for trigger in TRIGGERS:
        assert not trigger_covers(trigger, "advisor", depth=1, label=None, settings=DEFAULTS, overrides=forced)


def test_modes_are_presets_and_overrides_win() -> None:
    """Manual mode runs no escalation; a session switches it on, and continuous on for workers by depth and label."""
    manual = CoverageSettings(mode="manual")
    assert not trigger_covers("escalation", "root", depth=0, label=None, settings=manual, overrides=CoverageOverrides())
    assert trigger_covers("escalation", "root", depth=0, label=None, settings=manual,
                  overrides=CoverageOverrides(triggers={"escalation": "on"}))
    wide = CoverageOverrides(local_subagent={"continuous": "on"}, max_depth=1, labels=frozenset({"tests"}))
    assert trigger_covers("continuous", "local-subagent", depth=1, label="tests", settings=DEFAULTS, overrides=wide)
    assert not trigger_covers("continuous", "local-subagent", depth=2, label="tests", settings=DEFAULTS, overrides=wide)
    assert not trigger_covers("continuous", "local-subagent", depth=1, label="docs", settings=DEFAULTS, overrides=wide)
    assert not trigger_covers("manual", "root", depth=0, label=None, settings=DEFAULTS,
                      overrides=CoverageOverrides(root={"manual": "off"}))


def test_wait_table() -> None:
    """Manual blocks; root automatic follows its settings; worker automatic and mutating advisors always block."""
    settings = WaitSettings(escalation="background", continuous="background")
    assert resolve_wait("manual", "root", settings=settings) == "block"
    assert resolve_wait("escalation", "root", settings=settings) == "background"
    assert resolve_wait("escalation", "root", settings=settings, escalation="block") == "block"
    assert resolve_wait("continuous", "root", settings=settings) == "background"
    assert resolve_wait("escalation", "local-subagent", settings=settings, escalation="background") == "block"
    assert resolve_wait("continuous", "local-subagent", settings=settings, continuous="background") == "block"
    assert resolve_wait("escalation", "root", settings=settings, mutating=True) == "block"


def test_roles_come_from_registration_and_the_root_from_parent_links() -> None:
    """A label never makes an advisor; below an advisor everything is one; the root is found by walking up."""
    tree = AgentTree()
    tree.register("main", "root")
    tree.register("w1", "local-subagent", parent="main", label="advisor")
    tree.register("w2", "local-subagent", parent="w1")
    tree.register("adv", "advisor", parent="w2")
    helper = tree.register("helper", "local-subagent", parent="adv")
    assert tree.get("w1").role == "local-subagent" and helper.role == "advisor"
    assert tree.root_of("helper") == "main" and tree.get("w2").depth == 2
    assert tree.requester_of("helper") == "w2"
    tree.dispose("w1")
    assert tree.root_of("w2") == "main"  # a disposed parent keeps its place for the walk
    with pytest.raises(UnknownAgent):
        tree.get("w1")
    with pytest.raises(RegistrationError):
        tree.register("x", "local-subagent", parent="nobody")
    with pytest.raises(RegistrationError):
        tree.register("y", "root", parent="main")


def test_an_editing_review_takes_the_workspace_alone() -> None:
    """Exclusive waits for shared holders, refuses new shared ones while pending, and refuses an ancestor's own."""
    lease = Lease()
    assert lease.try_shared("edit-1", "worker") is None
    assert lease.request_exclusive("review", ("root",)) is None
    assert (lease.exclusive, lease.pending) == (None, "review")
    assert lease.try_shared("edit-2", "root") is not None
    lease.release_shared("edit-1")
    assert lease.promote()
    assert (lease.exclusive, lease.pending) == ("review", None)
    lease.release_exclusive("review")
    assert lease.try_shared("edit-3", "worker") is None
    assert "wait for itself" in (lease.request_exclusive("review-2", ("worker", "root")) or "")


def test_a_pin_is_reused_and_a_different_profile_refused() -> None:
    """Continuation keeps the pin; another profile is refused; a record without a pin continues only fresh."""
    pin = Pin.make(profile="careful", provider="openai", model="m", granted=frozenset({"read"}))
    assert continuation_refusal(pin, None) is None and continuation_refusal(pin, "careful") is None
    assert "pinned to profile 'careful'" in (continuation_refusal(pin, "fast") or "")
    assert "predates pinning" in (continuation_refusal(None, None) or "")
    assert pin.ceiling_hash == Pin.make(profile="x", provider="y", model="z", granted=frozenset({"read"})).ceiling_hash
