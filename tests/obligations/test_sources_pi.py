"""Synthetic Pi sessions: the active branch only, exit codes, and corrupt lines inside the tree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from obligations import ToolCompleted, ToolDispatched, Tracker
from obligations.sources import open_transcript
from tests.obligations.transcript_files import read, replay, results, write_jsonl


def pi_header() -> dict[str, Any]:
    return {"type": "session", "version": 3, "id": "sess-pi", "timestamp": "2026-06-10T18:45:48.326Z", "cwd": "/w"}


def pi(ident: str, parent: str | None, message: dict[str, Any] | None = None, **entry: Any) -> dict[str, Any]:
    base = {"type": "message" if message is not None else entry.pop("type"), "id": ident, "parentId": parent,
            "timestamp": "2026-06-10T18:46:00.000Z"}
    return base | ({"message": message} if message is not None else {}) | entry


def pi_user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def pi_call(call_id: str, command: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": "running"}, {
        "type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": command}}], "stopReason": "toolUse"}


def pi_result(call_id: str, text: str, is_error: bool) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "bash",
            "content": [{"type": "text", "text": text}], "isError": is_error, "timestamp": 2}


def test_pi_abandoned_branch_with_a_failing_check_is_not_replayed(tmp_path: Path) -> None:
    """A failing `npm test` on a branch the user left (re-prompting from an earlier entry) is not replayed: no
    obligation opens, and the report counts the abandoned entries."""
    path = write_jsonl(tmp_path / "session.jsonl", [
        pi_header(),
        pi("u1", None, pi_user("fix the tests")),
        pi("a1", "u1", pi_call("c1", "npm test")),
        pi("r1", "a1", pi_result("c1", "1 failed\n\nCommand exited with code 1", True)),
        pi("a2", "r1", {"role": "assistant", "content": [{"type": "text", "text": "one failed"}]}),
        pi("b1", "u1", type="branch_summary", fromId="a2", summary="Tried npm test; it failed."),
        pi("a3", "b1", {"role": "assistant", "content": [{"type": "text", "text": "starting over"}]}),
    ])
    transcript = open_transcript(path)
    events = list(transcript.events())
    tracker = Tracker()
    tracker.handle_many(events)
    assert not any(isinstance(event, (ToolDispatched, ToolCompleted)) for event in events)
    assert tracker.all_items() == []
    assert [type(event).__name__ for event in events] == ["UserMessage", "Compaction", "AssistantMessage"]
    assert transcript.report.abandoned == 3


def test_pi_abandoned_branch_with_a_pass_does_not_close_the_active_failure(tmp_path: Path) -> None:
    """A pass on an abandoned branch is not a witness for the failure on the active one."""
    path = write_jsonl(tmp_path / "session.jsonl", [
        pi_header(),
        pi("u1", None, pi_user("fix the tests")),
        pi("a1", "u1", pi_call("c1", "npm test")),
        pi("r1", "a1", pi_result("c1", "1 failed\n\nCommand exited with code 1", True)),
        pi("a2", "r1", pi_call("c2", "npm test")),
        pi("r2", "a2", pi_result("c2", "5 passed", False)),
        pi("a3", "r1", {"role": "assistant", "content": [{"type": "text", "text": "I will look again"}]}),
    ])
    tracker, events = replay(path)
    assert [(e.call_id, e.exit_code) for e in events if isinstance(e, ToolCompleted)] == [("c1", 1)]
    assert [(item.check, item.state) for item in tracker.all_items()] == [("npm test", "open")]


def test_pi_exit_codes(tmp_path: Path) -> None:
    """Pi's bash tool: success is exit 0, `Command exited with code N` is N, aborted and timed-out runs have no
    exit code; the user's `!` command (bashExecution) keeps its exitCode."""
    entries = [pi_header(), pi("u1", None, pi_user("go"))]
    cases = [("ok", "5 passed", False), ("bad", "FAIL\n\nCommand exited with code 2", True),
             ("stop", "partial\n\nCommand aborted", True), ("slow", "Command timed out after 180 seconds", True)]
    parent = "u1"
    for call_id, text, is_error in cases:
        entries += [pi(f"a{call_id}", parent, pi_call(call_id, "npm test")),
                    pi(f"r{call_id}", f"a{call_id}", pi_result(call_id, text, is_error))]
        parent = f"r{call_id}"
    entries.append(pi("x1", parent, {"role": "bashExecution", "command": "make lint", "output": "3 problems",
                                     "exitCode": 1, "cancelled": False, "truncated": False}))
    events = read(write_jsonl(tmp_path / "session.jsonl", entries))
    done = results(events)
    assert {c: (e.exit_code, e.error_code) for c, e in done.items()} == {
        "ok": (0, None), "bad": (2, None), "stop": (None, "interrupted"), "slow": (None, "timeout"),
        "user-shell:x1": (1, None)}
    assert all(e.cwd == "/w" for e in events if isinstance(e, ToolDispatched))


def test_pi_corrupt_line_inside_the_chain_is_bridged(tmp_path: Path) -> None:
    """A corrupt line in the middle of the active chain is skipped, and what came before it is still replayed."""
    path = tmp_path / "session.jsonl"
    lines = [json.dumps(entry) for entry in (
        pi_header(), pi("u1", None, pi_user("go")), pi("a1", "u1", pi_call("c1", "npm test")))]
    lines.append('{"type":"message","id":"r1","parentId":"a1","message":{"role":"toolResult"')
    lines.append(json.dumps(pi("a2", "r1", {"role": "assistant", "content": [{"type": "text", "text": "next"}]})))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [type(event).__name__ for event in events] == [
        "UserMessage", "AssistantMessage", "ToolDispatched", "AssistantMessage"]
    assert transcript.report.skipped == [(4, "not valid JSON (Expecting ',' delimiter at column 75)")]
    assert transcript.report.unfinished_calls == 1


def test_pi_three_branches_replay_only_the_chain_to_the_last_entry(tmp_path: Path) -> None:
    """With three branches, only the chain from the last entry back to the root is replayed: the branch it jumps
    over and the one it left are not, and a pass on a left branch does not witness the active failure."""
    path = write_jsonl(tmp_path / "session.jsonl", [
        pi_header(),
        pi("u1", None, pi_user("fix the tests")),
        pi("a1", "u1", pi_call("c1", "npm test")),
        pi("r1", "a1", pi_result("c1", "1 failed\n\nCommand exited with code 1", True)),
        pi("a2", "r1", pi_call("c2", "npm test")),
        pi("r2", "a2", pi_result("c2", "5 passed", False)),
        pi("a3", "u1", pi_call("c3", "rm -rf node_modules")),
        pi("r3", "a3", pi_result("c3", "", False)),
        pi("a4", "r1", pi_call("c4", "npm run lint")),
        pi("r4", "a4", pi_result("c4", "clean", False)),
    ])
    transcript = open_transcript(path)
    tracker = Tracker()
    events = list(transcript.events())
    tracker.handle_many(events)
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c1", "c4"]
    assert [(item.check, item.state) for item in tracker.all_items()] == [("npm test", "open")]
    assert transcript.report.abandoned == 4


def test_pi_branch_from_a_corrupt_entry_keeps_the_chain_before_it(tmp_path: Path) -> None:
    """A later branch whose parent is the corrupt line still leads back through the entries before it; the
    branch it left is not replayed."""
    path = tmp_path / "session.jsonl"
    lines = [json.dumps(entry) for entry in (
        pi_header(), pi("u1", None, pi_user("go")), pi("a1", "u1", pi_call("c1", "npm test")))]
    lines.append('{"type":"message","id":"r1","parentId":"a1","message":{"role":"toolResult"')
    lines += [json.dumps(entry) for entry in (
        pi("a2", "r1", pi_call("c2", "npm test")),
        pi("b1", "r1", {"role": "assistant", "content": [{"type": "text", "text": "retrying"}]}),
        pi("b2", "b1", pi_call("c3", "npm run lint")))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c1", "c3"]
    assert (transcript.report.abandoned, transcript.report.skipped_count) == (1, 1)
