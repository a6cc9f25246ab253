"""Case packets: sections and caps, structural degradation to 48 KB, always valid JSON, redaction."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.orchestration import MAX_PACKET_BYTES, PacketInput, PriorAdvice, TriggerInfo, build_packet, fit_packet
from advisor.orchestration._activity import Activity, keep_output
from obligations import ToolCompleted, ToolDispatched, call_record, fingerprint
from tests.support.secrets import credentials


def tool(seq: int, command: str, exit_code: int, output: str = "", tool_name: str = "Bash") -> Activity:
    """A completed call as the host keeps it: its text, and the tracker's record of it."""
    call_id, arguments = f"call-{seq}", {"command": command}
    judged = call_record(ToolDispatched(call_id=call_id, tool=tool_name, arguments=arguments),
                         ToolCompleted(call_id=call_id, exit_code=exit_code, output=output))
    row = Activity(seq, "tool", call_id=call_id, tool=tool_name, arguments=arguments,
                   record=judged._replace(dispatched=seq, completed=seq + 1))
    keep_output(row, output)
    return row


def packet(activity: list[Activity], **extra: Any) -> dict[str, Any]:
    data = PacketInput(requester={"agent_id": "root", "role": "root", "label": None, "depth": 0},
                       trigger=extra.pop("trigger", TriggerInfo("manual")), question="What next?",
                       activity=activity, **extra)
    return build_packet(data)


def test_sections_are_capped_and_omissions_counted() -> None:
    """Caps hold — 4 other failures, 3 unrelated validation failures, 1 success — and omissions are counted."""
    activity = [tool(i * 2, f"pytest -q tests/test_{i}.py", 1, f"FAILED test_{i}") for i in range(20)]
    activity += [tool(100 + i * 2, f"ruff check src/m{i}.py", 0) for i in range(5)]
    activity += [tool(200 + i * 2, f"make-thing-{i}", 2, "boom") for i in range(7)]
    built = packet(activity, trigger=TriggerInfo("escalation", fingerprint="nothing-matches"))
    omitted = built["truncation"]["omitted"]
    assert len(built["failures"]) == 4 and omitted["failures"] == 3
    assert sum(1 for r in built["validation"] if r["outcome"] == "validation-failure") == 3
    assert sum(1 for r in built["validation"] if r["outcome"] == "success") == 1
    assert built["validation_summary"] == {"runs": 25, "failed": 20, "passed": 5, "not_witnessing": 0,
                                           "distinct_checks": 25}
    assert len(built["tool_activity"]) == 16 and omitted["tool_activity"] == 16


def test_trigger_related_rows_are_all_kept_and_marked() -> None:
    """Rows of the failure that raised the escalation are kept first and marked trigger_related."""
    failing = [tool(i * 2, "pytest -q", 1, "FAILED test_add - assert 3 == 4") for i in range(3)]
    mark = fingerprint("Bash", "FAILED test_add - assert 3 == 4")
    built = packet([*failing, tool(50, "npm run lint", 1, "1 error")], trigger=TriggerInfo("escalation", mark))
    related = [r for r in built["validation"] if r["trigger_related"]]
    assert len(related) == 3 and all(r["fingerprint"] == mark for r in related)
    assert [a["call_id"] for a in built["failed_attempts"]] == ["call-4", "call-2", "call-0"]


def test_the_consult_transport_is_omitted_and_prior_advice_kept() -> None:
    """consult_advisor calls never appear as evidence; earlier advice has its own field."""
    activity = [tool(1, "pytest -q", 1, "FAILED"),
                tool(3, "", 0, tool_name="consult_advisor")]
    built = packet(activity, prior_advice=[PriorAdvice("c-1", "concern", "Fix add().")])
    text = json.dumps(built)
    assert "call-3" not in text and "consult_advisor" not in text
    assert built["prior_advice"] == [{"consultation_id": "c-1", "severity": "concern", "summary": "Fix add()."}]


def test_a_huge_session_degrades_structurally_and_reports_it() -> None:
    """Past 48 KB the tail goes first, then the activity store; the packet stays parseable and says so."""
    # Control characters cost six bytes each once escaped: the budgets of single strings do not bound them.
    activity = [tool(i * 2, f"pytest -q t{i}.py", 1, "\x01" * 20_000) for i in range(40)]
    activity += [Activity(500 + i, "user", text="\x02" * 4000) for i in range(12)]
    built = packet(activity, requester_evidence=["x" * 5000] * 12, success_criteria=["c" * 600] * 20)
    fitted = fit_packet(built)
    assert fitted.size <= MAX_PACKET_BYTES and json.loads(fitted.text) == fitted.packet
    assert fitted.degraded[:2] == ("drop recent_tail", "drop tool_activity")
    assert fitted.packet["truncation"]["degraded"] == list(fitted.degraded)
    assert fitted.packet["truncation"]["omitted"]["recent_tail"] == 12
    assert fitted.packet["validation_summary"]["runs"] == 40


def test_the_last_resort_is_a_minimal_packet() -> None:
    """A packet that no structural step can fit becomes the minimal one, still valid JSON."""
    built = packet([tool(1, "pytest", 1, "x")])
    built["obligations"] = [{"summary": "y" * 40_000}] * 3
    fitted = fit_packet(built, limit=4096)
    assert fitted.packet["degraded_to"] == "minimal" and fitted.size <= 4096
    assert fitted.packet["truncation"]["degraded"][-1] == "minimal"


def test_activity_before_the_task_floor_or_before_the_review_cursor_is_left_out() -> None:
    """A continuous packet shows only what came after the reviewed sequence."""
    activity = [tool(1, "pytest -q a.py", 1, "old"), tool(10, "pytest -q b.py", 1, "new")]
    built = packet(activity, since=5)
    assert [r["call_id"] for r in built["tool_activity"]] == ["call-10"]


_secret = credentials()
_noise = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=3000)


@settings(max_examples=60, deadline=None)
@given(pieces=st.lists(st.tuples(_noise, _secret, _noise, st.integers(0, 2)), min_size=1, max_size=30),
       question=_noise)
def test_any_evidence_gives_valid_json_within_48_kb_and_no_secret_passes(
        pieces: list[tuple[str, str, str, int]], question: str) -> None:
    """Whatever the session held, the fitted packet parses, fits 48 KB, and holds none of the secrets it saw."""
    activity: list[Activity] = []
    for index, (before, secret, after, where) in enumerate(pieces):
        text = f"{before} {secret} {after}"  # a secret is a token of its own (the redactor's contract)
        if where == 0:
            activity.append(tool(index * 2, f"curl -H 'x: {secret}' https://example.invalid", 1, text))
        elif where == 1:
            activity.append(Activity(index * 2, "user", text=text))
        else:
            activity.append(tool(index * 2, "pytest -q", 1, text * 3))
    data = PacketInput(requester={"agent_id": "root", "role": "root", "label": None, "depth": 0},
                       trigger=TriggerInfo("manual"), question=f"{question} {pieces[0][1]}", activity=activity,
                       requester_evidence=[p[1] for p in pieces])
    fitted = fit_packet(build_packet(data))
    assert json.loads(fitted.text) == fitted.packet
    assert len(fitted.text.encode("utf-8")) == fitted.size <= MAX_PACKET_BYTES
    for _, secret, _, _ in pieces:
        value = secret.split("=", 1)[-1].removeprefix("Bearer ")
        assert value not in fitted.text
