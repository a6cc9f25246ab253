"""A client's chat conversation as obligations events: its shell calls open and close obligations as a host's do."""

from __future__ import annotations

import json
from typing import Any

import pytest

from advisor.gateway import (
    FIELD,
    Trace,
    TracedCall,
    TraceRound,
    TraceSeal,
    chat_events,
    exit_code,
    expand_messages,
    open_obligations,
)
from obligations import AssistantMessage, ToolCompleted, ToolDispatched, UserMessage


def run(call_id: str, command: str, result: str) -> list[dict[str, Any]]:
    """An exec_command call and its result, as a client sends them."""
    return [{"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "exec_command",
                                                         "arguments": json.dumps({"cmd": command})}}]},
            {"role": "tool", "tool_call_id": call_id, "content": result}]


def test_messages_become_events_in_order() -> None:
    """User and assistant text, tool calls dispatched with parsed arguments, results completed; system is skipped."""
    events = chat_events([{"role": "system", "content": "be brief"},
                          {"role": "user", "content": [{"type": "text", "text": "fix it"}]},
                          {"role": "assistant", "content": "Running the tests."},
                          *run("c1", "pytest -q", "Process exited with code 1\nOutput:\n1 failed")])
    assert [type(e) for e in events] == [UserMessage, AssistantMessage, ToolDispatched, ToolCompleted]
    dispatched, completed = events[2], events[3]
    assert isinstance(dispatched, ToolDispatched) and dispatched.arguments == {"cmd": "pytest -q"}
    assert isinstance(completed, ToolCompleted) and completed.exit_code == 1
    assert events[0].origin == "messages[1]"


def test_a_failed_check_stays_open_until_a_genuine_pass() -> None:
    """A failing pytest opens an obligation; a masked re-run leaves it open; a genuine pass closes it."""
    failed = [{"role": "user", "content": "make the tests pass"},
              *run("c1", "pytest -q", "Process exited with code 1\nOutput:\n1 failed, 3 passed")]
    assert [item.check for item in open_obligations(chat_events(failed))] == ["pytest -q"]
    masked = [*failed, *run("c2", "pytest -q | tail -3; echo done", "Process exited with code 0\nOutput:\ndone")]
    assert [item.check for item in open_obligations(chat_events(masked))] == ["pytest -q"]
    genuine = [*masked, *run("c3", "pytest -q", "Process exited with code 0\nOutput:\n4 passed")]
    assert open_obligations(chat_events(genuine)) == []


def test_a_result_without_an_exit_status_never_witnesses() -> None:
    """A pass the host did not report an exit status for closes nothing."""
    messages = [{"role": "user", "content": "go"}, *run("c1", "pytest", "Exit code: 1\n2 failed"),
                *run("c2", "pytest", "all 4 tests passed!")]
    assert [item.check for item in open_obligations(chat_events(messages))] == ["pytest"]


def test_advisor_calls_carried_in_a_trace_are_part_of_the_events() -> None:
    """A replayed trace, once expanded, is events: its advisor call is dispatched and completed like any call."""
    trace = Trace(rounds=(TraceRound(content=None, calls=(
        TracedCall(id="a1", name="witness_advisor", arguments='{"prompt": "?"}', result='{"status":"ok"}'),)),))
    seal = TraceSeal(b"a-test-key-of-32-bytes-0123456789")
    replayed = expand_messages([{"role": "user", "content": "go"},
                                {"role": "assistant", "content": "ok", FIELD: seal.seal(trace)}], seal)
    events = chat_events(replayed.history)
    assert [type(e).__name__ for e in events] == ["UserMessage", "ToolDispatched", "ToolCompleted",
                                                  "AssistantMessage"]


@pytest.mark.parametrize(("text", "code"), [
    ("Process exited with code 2\nOutput:\nboom", 2),
    ("Chunk ID: 1\nWall time: 0.5 seconds\nProcess exited with code 0\nOutput:\nok", 0),
    ("Exit code: 1\nWall time: 1 s\nOutput:\nfail", 1),
    ("error: tests failed\nCommand exited with code 3", 3),
    ('{"output": "ok", "metadata": {"exit_code": 0, "duration_seconds": 1}}', 0),
    ('{"exit_code": 5}', 5),
    ("all good", None),
    ("Output:\nProcess exited with code 0", None),
    ("some log\nExit code: 0\nmore", None),
    ('{"exit_code": true}', None),
])
def test_exit_statuses_are_read_only_where_hosts_write_them(text: str, code: int | None) -> None:
    """Headers, first and last lines and JSON fields by host convention; the same words in the output count not."""
    assert exit_code(text) == code


def test_deeply_nested_json_in_a_conversation_is_read_as_text() -> None:
    """A tool result or call arguments nested deeper than the JSON parser recurses (a dumped document) are kept as
    text, not a failed request: no exit status is read from the result, the arguments stay raw."""
    deep = "[" * 100_000 + "]" * 100_000
    nested = '{"a":' * 100_000 + "1" + "}" * 100_000
    messages = [{"role": "user", "content": "go"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "exec_command", "arguments": deep}}]},
                {"role": "tool", "tool_call_id": "c1", "content": nested}]
    _, dispatched, completed = chat_events(messages)
    assert isinstance(dispatched, ToolDispatched) and dispatched.arguments == {"raw": deep}
    assert isinstance(completed, ToolCompleted) and completed.exit_code is None and completed.output == nested


@pytest.mark.parametrize("calls", [5, True, "c1", {"id": "c1"}])
def test_tool_calls_that_are_not_a_list_are_no_calls(calls: Any) -> None:
    """An assistant message whose `tool_calls` is not an array (a lenient upstream let it through) dispatches
    nothing, rather than failing the advisor's consultation."""
    events = chat_events([{"role": "user", "content": "go"},
                          {"role": "assistant", "content": "ok", "tool_calls": calls}])
    assert [type(e) for e in events] == [UserMessage, AssistantMessage]
