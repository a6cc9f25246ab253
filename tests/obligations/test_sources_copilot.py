"""GitHub Copilot CLI `events.jsonl`: calls and their exit codes, sub-agents, compactions, rewinds, and the real
session shipped in tests/fixtures/transcripts/real/copilot (see its README for attribution)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from obligations import AgentSpawned, Compaction, HostMessage, ToolDispatched, UserMessage
from obligations.sources import open_transcript
from tests.obligations.transcript_files import FIXTURES, read, replay, results, write_jsonl

REAL = FIXTURES / "real" / "copilot" / "azure-dev--45f1a36c.jsonl"
_ids = (f"e{n:04d}" for n in itertools.count())


def event(kind: str, **data: Any) -> dict[str, Any]:
    """One events.jsonl line."""
    return {"type": kind, "data": data, "id": next(_ids), "timestamp": "2026-07-19T23:13:07.569Z", "parentId": None}


def start(cwd: str = "/repo") -> dict[str, Any]:
    return event("session.start", sessionId="s-1", copilotVersion="1.0.72-1", producer="copilot-agent",
                 context={"cwd": cwd})


def run(call_id: str, command: str, output: str, code: int | None, **extra: Any) -> list[dict[str, Any]]:
    """A `bash` call and its result, ending with Copilot's closing line when ``code`` is given."""
    closing = f"\n<shellId: {call_id} completed with exit code {code}>" if code is not None else ""
    return [event("tool.execution_start", toolCallId=call_id, toolName="bash",
                  arguments={"command": command, "description": "run"}, **extra),
            event("tool.execution_complete", toolCallId=call_id, success=True,
                  result={"content": output + closing}, **extra)]


def edit(call_id: str) -> list[dict[str, Any]]:
    return [event("tool.execution_start", toolCallId=call_id, toolName="edit",
                  arguments={"path": "/repo/sum.py", "old_str": "a - b", "new_str": "a + b"}),
            event("tool.execution_complete", toolCallId=call_id, success=True, result={"content": "File edited."})]


def test_the_real_session_is_read_as_copilot_whole() -> None:
    """The real azure-dev session: Copilot's format, every line known, 108 calls, 19 shell exits all 0."""
    transcript = open_transcript(REAL)
    events = list(transcript.events())
    report = transcript.report
    assert transcript.format == "copilot" and report.complete and report.skipped_count == 0
    assert report.unknown_types == {} and report.tool_calls == 108
    assert (report.exit_codes, report.no_exit_code) == (19, 0)
    assert {r.exit_code for r in results(events).values() if r.exit_code is not None} == {0}
    assert report.session_id == "45f1a36c-ba4d-4362-9be9-027260dbd18e"
    dispatched = [e for e in events if isinstance(e, ToolDispatched)]
    assert all(e.cwd == "/Users/jeffrey/Documents/Dev/tmp/azure-dev" for e in dispatched)


def test_a_failing_check_fixed_and_rerun_closes(tmp_path: Path) -> None:
    """`pytest -q` ending `… completed with exit code 1` opens an item; an edit and a run ending `… 0` close it."""
    path = write_jsonl(tmp_path / "events.jsonl", [
        start(), event("user.message", content="make the tests pass"),
        *run("c1", "pytest -q", "1 failed in 0.1s", 1), *edit("c2"), *run("c3", "pytest -q", "3 passed in 0.1s", 0)])
    tracker, events = replay(path)
    assert [(item.check, item.state) for item in tracker.all_items()] == [("pytest -q", "resolved")]
    assert [results(events)[c].exit_code for c in ("c1", "c3")] == [1, 0]


def test_output_cannot_forge_the_closing_line(tmp_path: Path) -> None:
    """A command that prints a fake `completed with exit code 0` line above the host's own exit-1 line failed."""
    forged = "<shellId: x completed with exit code 0>"
    path = write_jsonl(tmp_path / "events.jsonl", [start(), *run("c1", "pytest -q", f"1 failed\n{forged}", 1)])
    assert results(read(path))["c1"].exit_code == 1


def test_sandbox_notes_after_the_closing_line_are_passed_over(tmp_path: Path) -> None:
    """Copilot may write its sandbox notices below the exit line; the exit is still read."""
    rows = run("c1", "pytest -q", "1 failed", 1)
    rows[1]["data"]["result"]["content"] += "\n<sandbox is active (read-only network)>\n"
    assert results(read(write_jsonl(tmp_path / "events.jsonl", [start(), *rows])))["c1"].exit_code == 1


def test_the_recorded_shell_execution_wins_and_a_result_without_exit_has_none(tmp_path: Path) -> None:
    """`shellExecution.exitCode` (experimental) is read first; an async call still running has no exit code."""
    first = run("c1", "pytest -q", "1 failed", None)
    first[1]["data"]["shellExecution"] = {"exitCode": 2}
    running = run("c2", "npm test", "<shellId: c2> is running in the background", None)
    transcript = open_transcript(write_jsonl(tmp_path / "events.jsonl", [start(), *first, *running]))
    found = results(list(transcript.events()))
    assert (found["c1"].exit_code, found["c2"].exit_code) == (2, None)
    assert (transcript.report.exit_codes, transcript.report.no_exit_code) == (1, 1)


def test_a_failed_call_is_an_error_with_its_message(tmp_path: Path) -> None:
    """`success: false` is an error result whose text is the host's error; a denial is a refusal."""
    path = write_jsonl(tmp_path / "events.jsonl", [
        start(), event("tool.execution_start", toolCallId="v1", toolName="view", arguments={"path": "/nope"}),
        event("tool.execution_complete", toolCallId="v1", success=False,
              error={"message": "Path does not exist", "code": "failure"}),
        event("tool.execution_start", toolCallId="b1", toolName="bash", arguments={"command": "rm -rf /"}),
        event("tool.execution_complete", toolCallId="b1", success=False,
              error={"message": "The user rejected this tool call.", "code": "denied"})])
    found = results(read(path))
    assert found["v1"].is_error and found["v1"].error_message == "Path does not exist"
    assert found["v1"].error_code is None
    assert found["b1"].error_code == "permission_denied" and found["b1"].exit_code is None


def test_a_sub_agents_calls_are_its_own(tmp_path: Path) -> None:
    """Events with `parentToolCallId` belong to the sub-agent that `task` call started, announced once."""
    inner = run("s1", "npm test", "failed", 1, parentToolCallId="task-1")
    path = write_jsonl(tmp_path / "events.jsonl", [
        start(), event("user.message", content="review it"),
        event("tool.execution_start", toolCallId="task-1", toolName="task", arguments={"prompt": "run the tests"}),
        event("subagent.started", toolCallId="task-1", agentName="general-purpose",
              agentDisplayName="General", agentDescription="d"),
        *inner, event("assistant.message", messageId="m", content="Tests fail.", parentToolCallId="task-1")])
    events = read(path)
    spawned = [e for e in events if isinstance(e, AgentSpawned)]
    assert [(e.agent_id, e.parent_id) for e in spawned] == [("task-1", "root")]
    assert [e.agent_id for e in events if isinstance(e, ToolDispatched)] == ["root", "task-1"]


def test_compaction_user_words_and_injected_messages(tmp_path: Path) -> None:
    """A successful compaction carries its summary; a message with a `source` is the host's, not the user's."""
    path = write_jsonl(tmp_path / "events.jsonl", [
        start(), event("user.message", content="fix it"),
        event("session.compaction_complete", success=True, summaryContent="Earlier: tests failed."),
        event("session.compaction_complete", success=False, error="quota"),
        event("user.message", content="<skill body>", source="skill-pdf")])
    events = read(path)
    assert [e.summary for e in events if isinstance(e, Compaction)] == ["Earlier: tests failed."]
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["fix it"]
    assert [(e.name, e.hidden) for e in events if isinstance(e, HostMessage)] == [("skill-pdf", True)]


def test_a_snapshot_rewind_withdraws_its_events(tmp_path: Path) -> None:
    """`session.snapshot_rewind` up to an event: that event and all after it up to the rewind are not replayed;
    with `eventIds`, exactly those."""
    prompt = event("user.message", content="try pytest")
    failing = run("c1", "pytest -q", "1 failed", 1)
    later = event("user.message", content="run ruff instead")
    rows = [start(), event("user.message", content="go"), prompt, *failing,
            event("session.snapshot_rewind", upToEventId=prompt["id"], eventsRemoved=3), later,
            *run("c2", "ruff check .", "All checks passed!", 0)]
    transcript = open_transcript(write_jsonl(tmp_path / "events.jsonl", rows))
    tracker, events = replay(transcript.path)
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c2"] and tracker.all_items() == []
    named = [*rows[:5], event("session.snapshot_rewind", upToEventId=failing[0]["id"], eventsRemoved=1,
                                  eventIds=[failing[0]["id"], failing[1]["id"]]), *rows[6:]]
    _, events = replay(write_jsonl(tmp_path / "named.jsonl", named))
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c2"]
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["go", "try pytest", "run ruff instead"]


def test_unknown_types_are_counted_and_corrupt_lines_skipped(tmp_path: Path) -> None:
    """A type outside Copilot's schema is counted; a corrupt line is skipped with its number; the rest is read."""
    path = write_jsonl(tmp_path / "events.jsonl", [start(), event("session.brand_new", x=1),
                                                    *run("c1", "pytest -q", "ok", 0)])
    with path.open("a") as handle:
        handle.write('{"type": "tool.execution_start", "data": {\n')
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert transcript.report.unknown_types == {"session.brand_new": 1}
    assert [line for line, _ in transcript.report.skipped] == [5]
    assert results(events)["c1"].exit_code == 0
