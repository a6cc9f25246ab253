"""Gemini CLI chat recordings, both eras, written as gemini-cli 0.61.0's chatRecordingService writes them
(a message rewritten whole as it changes, `$set` updates, `$rewindTo`) and as earlier versions did (one JSON
document); `run_shell_command` exit codes in the old and the new result texts."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from obligations import AssistantMessage, Compaction, ToolDispatched, UserMessage
from obligations.sources import open_transcript
from obligations.sources._gemini import shell_exit
from tests.obligations.transcript_files import read, replay, results, write_jsonl

_ids = (f"m{n:04d}" for n in itertools.count())
META = {"sessionId": "9c90babd-0000-4000-8000-000000000001", "projectHash": "ab" * 32,
        "startTime": "2026-04-28T01:00:00.000Z", "lastUpdated": "2026-04-28T01:00:00.000Z", "kind": "main",
        "directories": ["/repo"]}


def user(text: str) -> dict[str, Any]:
    return {"id": next(_ids), "timestamp": "2026-04-28T01:00:01.000Z", "type": "user", "content": [{"text": text}]}


def new_output(output: str, code: int | None) -> str:
    """A `run_shell_command` result as gemini-cli 0.61 gives it (exit code only when non-zero)."""
    parts = [f"Output: {output or '(empty)'}"] + ([f"Exit Code: {code}"] if code else []) + ["Process Group PGID: 4242"]
    return "<untrusted_context>\n" + "\n".join(parts) + "\n</untrusted_context>"


def old_output(command: str, output: str, code: int) -> str:
    """The result text of earlier versions: every section, the exit code always."""
    return "\n".join([f"Command: {command}", "Directory: (root)", f"Output: {output}", "Error: (none)",
                      f"Exit Code: {code}", "Signal: (none)", "Background PIDs: (none)", "Process Group PGID: 77"])


def call(call_id: str, command: str, text: str | None, status: str = "success") -> dict[str, Any]:
    record: dict[str, Any] = {"id": call_id, "name": "run_shell_command", "args": {"command": command},
                              "status": status, "timestamp": "2026-04-28T01:00:02.000Z"}
    if text is not None:
        record["result"] = [{"functionResponse": {"id": call_id, "name": "run_shell_command",
                                                  "response": {"output": text}}}]
    return record


def gemini(*calls: dict[str, Any], text: str = "", ident: str | None = None) -> dict[str, Any]:
    return {"id": ident or next(_ids), "timestamp": "2026-04-28T01:00:02.000Z", "type": "gemini", "content": text,
            "thoughts": [{"subject": "Plan", "description": "Run the tests first."}], "model": "gemini-3-pro",
            "toolCalls": list(calls)}


def edit(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "name": "replace", "status": "success",
            "args": {"file_path": "/repo/sum.py", "old_string": "a - b", "new_string": "a + b"},
            "result": [{"functionResponse": {"id": call_id, "name": "replace",
                                             "response": {"output": "Successfully modified file: /repo/sum.py"}}}]}


def test_a_failure_fixed_and_rerun_closes_in_a_jsonl_session(tmp_path: Path) -> None:
    """`pytest -q` exiting 1 (`Exit Code: 1`), a `replace`, and a re-run without an Exit Code section (0 since
    0.3x) close the item; each message's later copies add only what is new."""
    answer = gemini(call("c1", "pytest -q", new_output("1 failed in 0.1s", 1)), text="Running the tests.")
    second = answer | {"toolCalls": [*answer["toolCalls"], edit("c2")]}
    path = write_jsonl(tmp_path / "session-2026-04-28T01-00-9c90babd.jsonl", [
        META, user("make the tests pass"), {"$set": {"lastUpdated": "2026-04-28T01:00:01.000Z"}},
        answer, second, second | {"tokens": {"total": 20}},
        gemini(call("c3", "pytest -q", new_output("3 passed in 0.1s", 0)))])
    transcript = open_transcript(path)
    tracker, events = replay(path)
    assert transcript.format == "gemini"
    assert [(item.check, item.state) for item in tracker.all_items()] == [("pytest -q", "resolved")]
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c1", "c2", "c3"]
    assert [results(events)[c].exit_code for c in ("c1", "c3")] == [1, 0]
    assert next(e.reasoning for e in events if isinstance(e, AssistantMessage)) == "Run the tests first."


def test_the_one_document_era_is_read_too(tmp_path: Path) -> None:
    """A session of earlier versions — one JSON document, every section in the shell result — reads the same."""
    document = dict(META) | {"messages": [
        user("fix the build"), gemini(call("c1", "npm test", old_output("npm test", "2 failing", 1))),
        gemini(call("c2", "npm test", old_output("npm test", "5 passing", 0)))]}
    path = tmp_path / "session-2026-04-28T01-00-9c90babd.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert transcript.format == "gemini" and transcript.report.complete
    assert transcript.report.session_id == META["sessionId"] and transcript.report.cwd == "/repo"
    assert [results(events)[c].exit_code for c in ("c1", "c2")] == [1, 0]
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["fix the build"]


def test_a_rewind_withdraws_the_messages_from_its_target_on(tmp_path: Path) -> None:
    """`{"$rewindTo": id}` withdraws that message and every later one: their failing check opens nothing."""
    first, tried = user("make the tests pass"), user("run pytest")
    path = write_jsonl(tmp_path / "s.jsonl", [
        META, first, tried, gemini(call("c1", "pytest -q", new_output("1 failed", 1))), {"$rewindTo": tried["id"]},
        user("run the linter instead"), gemini(call("c2", "ruff check .", new_output("All checks passed!", 0)))])
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c2"]
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["make the tests pass", "run the linter instead"]
    assert transcript.report.abandoned == 2


def test_a_history_rewrite_adds_only_a_compactions_summary(tmp_path: Path) -> None:
    """`$set.messages` rewrites the history (resume, an aborted turn, a compression): messages already read make
    nothing again, and a new one there is the compression's summary."""
    prompt, answer = user("fix it"), gemini(call("c1", "pytest -q", new_output("1 failed", 1)))
    summary = user("<state_snapshot>tests fail in sum.py</state_snapshot>")
    events = read(write_jsonl(tmp_path / "s.jsonl", [META, prompt, answer,
                                                      {"$set": {"messages": [summary, prompt, answer]}}]))
    assert [type(e).__name__ for e in events] == ["UserMessage", "AssistantMessage", "ToolDispatched",
                                                  "ToolCompleted", "Compaction"]
    assert [e.summary for e in events if isinstance(e, Compaction)] == ["<state_snapshot>tests fail in sum.py"
                                                                        "</state_snapshot>"]


def test_commands_and_host_context_are_no_prompts(tmp_path: Path) -> None:
    """`/compress`, `?` and `<session_context>` texts start no task; notices (`info`) make no event."""
    events = read(write_jsonl(tmp_path / "s.jsonl", [
        META, user("fix it"), user("/compress"), user("<session_context>cwd: /repo</session_context>"),
        {"id": "i1", "timestamp": "t", "type": "info", "content": "Compressed."}]))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["fix it"]


def test_a_call_without_a_final_status_waits_for_the_copy_that_has_one(tmp_path: Path) -> None:
    """A tool call recorded before it finished is dispatched at once and completed when a copy says it is."""
    answer = gemini(call("c1", "npm test", None, status="executing"))
    done = answer | {"toolCalls": [call("c1", "npm test", new_output("1 failing", 1), status="success")]}
    transcript = open_transcript(write_jsonl(tmp_path / "s.jsonl", [META, user("go"), answer]))
    list(transcript.events())
    assert transcript.report.unanswered_ids == ["c1"]
    events = read(write_jsonl(tmp_path / "t.jsonl", [META, user("go"), answer, done]))
    assert results(events)["c1"].exit_code == 1


@pytest.mark.parametrize(("text", "success", "expected"), [
    (new_output("ok", 0), True, (0, None)),
    (new_output("boom", 2), True, (2, None)),
    (old_output("ls", "x", 0), True, (0, None)),
    (old_output("ls", "x", 127), True, (127, None)),
    # output that prints a section of its own cannot hide the host's
    (new_output("1 failed\nExit Code: 0\nProcess Group PGID: 1", 1), True, (1, None)),
    ("Output: (empty)\nSignal: 9\nProcess Group PGID: 5", True, (None, None)),
    ("Output: (empty)\nError: spawn bash ENOENT", True, (None, None)),
    ("Command was cancelled by user before it could complete. There was no output before it was cancelled.",
     True, (None, "interrupted")),
    ("Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output.",
     True, (None, "timeout")),
    ("Command moved to background (PID: 12). Output hidden. Press Ctrl+B to view.", True, (None, None)),
    ("The tests mostly passed.", True, (None, None)),  # a summarised output proves nothing
    (new_output("ok", 0), False, (None, None)),
], ids=["new 0", "new 2", "old 0", "old 127", "forged", "signal", "spawn error", "cancelled", "timeout",
        "background", "summary", "error status"])
def test_shell_exit_codes(text: str, success: bool, expected: tuple[int | None, str | None]) -> None:
    """The exit code comes only from the sections the host appends after the output."""
    assert shell_exit(text, success) == expected


def test_unknown_records_are_counted_and_corrupt_lines_skipped(tmp_path: Path) -> None:
    """A message of an unknown type is counted; a corrupt line is skipped with its number; the rest is read."""
    path = write_jsonl(tmp_path / "s.jsonl", [META, {"id": "x", "type": "brand_new", "content": "?"},
                                              user("go"), gemini(call("c1", "npm test", new_output("ok", 0)))])
    with path.open("a") as handle:
        handle.write('{"id": "m", "type": "gemini", "content": \n')
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert transcript.report.unknown_types == {"brand_new": 1}
    assert [line for line, _ in transcript.report.skipped] == [5]
    assert results(events)["c1"].exit_code == 0
