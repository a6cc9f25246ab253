"""The seed's numbers, written here as the seed writes them — never read from the module under test, so that
changing a budget in the code without changing the seed fails a test: packet caps (8 evidence items, 8 failed
attempts, 12 success criteria, 12 recent-tail entries) and the 48 KB fit; the verdict's field budgets (summary
1 KB, diagnosis 6 KB, recommended action 2 KB, 512 B per evidence reference, 1 KB per action, 4 KB of validation
plan, 16 KB in all); a negative budget is unlimited and 0 disables; an unknown tool is mutating."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.errors import BudgetRefused
from advisor.orchestration import (
    PacketInput,
    TaskLimiter,
    TriggerInfo,
    build_packet,
    fit_packet,
    fit_verdict,
    packet_bytes,
)
from advisor.orchestration._activity import Activity, keep_output
from obligations import ToolCompleted, ToolDispatched, call_record
from tests.advisor.orchestration.helpers import GatedModel, make_host, tree, verdict
from tests.support.seed_mutations import MUTATIONS, ROOT, Mutation

KB = 1024


def _failed(seq: int) -> Activity:
    call_id, arguments = f"call-{seq}", {"command": f"pytest -q tests/test_{seq}.py"}
    judged = call_record(ToolDispatched(call_id=call_id, tool="Bash", arguments=arguments),
                         ToolCompleted(call_id=call_id, exit_code=1, output=f"FAILED test_{seq}"))
    row = Activity(seq, "tool", call_id=call_id, tool="Bash", arguments=arguments,
                   record=judged._replace(dispatched=seq, completed=seq + 1))
    keep_output(row, f"FAILED test_{seq}")
    return row


def test_a_packet_keeps_8_evidence_items_8_failed_attempts_12_criteria_and_12_tail_entries() -> None:
    """Twenty of each go in; the seed's caps come out, and what was left out is counted."""
    activity = [_failed(i * 2) for i in range(20)]
    activity += [Activity(100 + i, "user" if i % 2 else "assistant", text=f"message {i}") for i in range(20)]
    packet = build_packet(PacketInput(
        requester={"agent_id": "root", "role": "root", "label": None, "depth": 0}, trigger=TriggerInfo("manual"),
        question="What next?", activity=activity, requester_evidence=[f"evidence {i}" for i in range(20)],
        success_criteria=[f"criterion {i}" for i in range(20)]))
    counts = {name: len(packet[name]) for name in ("requester_evidence", "failed_attempts", "success_criteria",
                                                   "recent_tail")}
    assert counts == {"requester_evidence": 8, "failed_attempts": 8, "success_criteria": 12, "recent_tail": 12}
    assert {name: packet["truncation"]["omitted"][name] for name in counts} == \
        {"requester_evidence": 12, "failed_attempts": 12, "success_criteria": 8, "recent_tail": 8}


def _packet_of(failures: int) -> dict[str, object]:
    activity = [_failed(i * 2) for i in range(failures)]
    for row in activity:
        keep_output(row, "\x01" * 9000)  # six bytes each once escaped: the string budgets do not bound them
    return build_packet(PacketInput(requester={"agent_id": "root", "role": "root", "label": None, "depth": 0},
                                    trigger=TriggerInfo("manual"), question="q", activity=activity))


def _sized(packet: dict[str, object], size: int) -> dict[str, object]:
    """``packet`` with its question padded so that its compact UTF-8 JSON is exactly ``size`` bytes."""
    padded = dict(packet)
    padded["question"] = str(packet["question"]) + "q" * (size - packet_bytes(packet))
    assert packet_bytes(padded) == size
    return padded


def test_a_packet_is_fitted_to_48_kb() -> None:
    """A packet of exactly 48 × 1024 bytes goes as built; one byte more is degraded to fit, and a packet of
    8 failures with long outputs (well over the budget) comes out within it."""
    under = _packet_of(6)
    assert 44 * KB < packet_bytes(under) <= 48 * KB
    assert fit_packet(_sized(under, 48 * KB)).degraded == ()
    assert fit_packet(_sized(under, 48 * KB + 1)).degraded != ()
    over = _packet_of(8)
    assert 48 * KB < packet_bytes(over) < 64 * KB
    fitted = fit_packet(over)
    assert fitted.degraded and fitted.size <= 48 * KB


def test_a_verdict_keeps_the_seeds_field_budgets() -> None:
    """Every field over its budget comes out at the seed's budget: summary 1 KB, diagnosis 6 KB, recommended action
    2 KB, 512 B per evidence reference, 1 KB per action, 4 KB of validation plan together, 16 KB in all."""
    fitted = fit_verdict({"severity": "blocker", "summary": "s" * 5000, "diagnosis": "d" * 9000,
                          "recommended_action": "r" * 5000, "evidence": ["e" * 900] * 3, "actions": ["a" * 2000] * 2,
                          "validation_plan": ["p" * 900] * 8})
    sizes = {name: len(fitted[name].encode()) for name in ("summary", "diagnosis", "recommended_action")}
    assert 1000 < sizes["summary"] <= 1 * KB and 6000 < sizes["diagnosis"] <= 6 * KB
    assert 2000 < sizes["recommended_action"] <= 2 * KB
    assert all(500 < len(item.encode()) <= 512 for item in fitted["evidence"])
    assert all(1000 < len(item.encode()) <= 1 * KB for item in fitted["actions"])
    assert 3 * KB < sum(len(item.encode()) for item in fitted["validation_plan"]) <= 4 * KB
    within_each = fit_verdict({"severity": "blocker", "summary": "s" * 1000, "diagnosis": "d" * 6000,
                               "recommended_action": "r" * 2000, "evidence": ["e" * 500] * 16,
                               "actions": ["a" * 1000] * 8, "validation_plan": ["p" * 500] * 8})
    size = len(json.dumps(within_each, ensure_ascii=False, separators=(",", ":")).encode())
    assert 15 * KB < size <= 16 * KB  # fields within their budgets, 29 KB together: cut to the whole's 16 KB
    huge = fit_verdict({"severity": "blocker", "summary": "s" * 5000, "diagnosis": "\x01" * 9000,
                        "recommended_action": "\x02" * 5000, "evidence": ["\x03" * 900] * 16,
                        "actions": ["\x04" * 2000] * 8, "validation_plan": ["\x05" * 900] * 12})
    assert 8 * KB < len(json.dumps(huge, ensure_ascii=False, separators=(",", ":")).encode()) <= 16 * KB


@pytest.mark.parametrize("limit", [-1, -2, -1000])
def test_any_negative_budget_is_unlimited(limit: int) -> None:
    """-1 is not the only "no limit": a negative value is never exhausted, for the task and per agent."""
    limiter = TaskLimiter(max_consults=limit, max_manual_per_agent=limit)
    assert all(limiter.reserve("a", manual=True) for _ in range(50))


def test_a_budget_of_0_disables_and_1_allows_one() -> None:
    """0 means no consultation at all; a positive number bounds how many start."""
    with pytest.raises(BudgetRefused):
        TaskLimiter(max_consults=0).reserve("a", manual=False)
    one = TaskLimiter(max_consults=1)
    one.reserve("a", manual=False)
    with pytest.raises(BudgetRefused):
        one.reserve("b", manual=False)


def test_an_unknown_tool_makes_the_advisor_an_editing_one(tmp_path: Path) -> None:
    """A tool the table does not know (an MCP tool, a plugin's) is treated as mutating: an advisor granted one blocks
    and holds the workspace alone, so a worker's edit is refused while it runs."""
    import threading

    from advisor.models import ToolSpec
    from advisor.orchestration import HostTool

    model = GatedModel(verdict())
    unknown = HostTool(ToolSpec(name="jira_update", description="Update a ticket.", parameters={"type": "object"}),
                       run=lambda arguments: "updated")
    host = make_host(tmp_path, model, host_tools=[unknown])
    tree(host, tools=("read", "jira_update"))
    host.set_policy("root", {"version": 3, "allowTools": ["jira_update"]})
    thread = threading.Thread(target=lambda: host.consult("root", "Update the ticket when done."))
    thread.start()
    while not model.arrived.wait(0.01):
        pass
    refused = host.on_tool_dispatched("w1", "edit-1", "edit", {"path": "calc.py"})
    model.release.set()
    thread.join(30)
    host.close()
    assert not refused.allowed and "editing advisor review" in (refused.reason or "")


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.ident for m in MUTATIONS])
def test_every_seed_mutation_still_applies_and_names_a_test(mutation: Mutation) -> None:
    """Each row of the seed's mutation table still finds the code that holds its rule (once) and names a test
    that exists, so the table cannot drift from the code it breaks or the test that catches it."""
    assert (ROOT / mutation.path).read_text(encoding="utf-8").count(mutation.old) == 1
    path, name = mutation.test.split("::")
    assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8")
