"""Factory Droid session files, written as Factory Droid 0.225's session writer writes them (`session_start`,
`message` lines with Claude-style blocks, `compaction_state`, `todo_state`, `agent_turn_outcome`); `Execute`
exit codes from the closing `[Process exited with code N]` line. No public Droid session was found to ship (see
docs/hosts.md): these lines are built from the program's published bundle."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from obligations import AssistantMessage, Compaction, HostMessage, ToolDispatched, UserMessage
from obligations.sources import NotATranscript, detect_format, open_transcript
from obligations.sources._droid import shell_exit
from tests.obligations.transcript_files import read, replay, results, write_jsonl

_ids = (f"m{n:04d}" for n in itertools.count())
START = {"type": "session_start", "id": "7d1c0e9a-0000-4000-8000-00000000d001", "title": "Fix the sum",
         "owner": "dev", "version": 2, "cwd": "/repo"}


def message(role: str, content: Any, **fields: Any) -> dict[str, Any]:
    return {"type": "message", "id": next(_ids), "timestamp": "2026-11-02T10:00:00.000Z",
            "message": {"role": role, "content": content, **fields}}


def user(text: str, **fields: Any) -> dict[str, Any]:
    return message("user", [{"type": "text", "text": text}], **fields)


def execute(call_id: str, command: str, output: str, code: int | None) -> list[dict[str, Any]]:
    """An `Execute` call and its result, as Droid writes it (non-zero exits lead with its own line)."""
    text = output if code == 0 else f"Command failed (exit code: {code})\n{output}"
    if code is not None:
        text += f"\n[Process exited with code {code}]"
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    if code:
        result["is_error"] = True
    return [message("assistant", [{"type": "thinking", "thinking": "Run it."},
                                  {"type": "tool_use", "id": call_id, "name": "Execute",
                                   "input": {"command": command, "riskLevel": "low"}}]),
            message("user", [result])]


def edit(call_id: str) -> list[dict[str, Any]]:
    return [message("assistant", [{"type": "tool_use", "id": call_id, "name": "Edit",
                                   "input": {"file_path": "/repo/sum.py", "old_str": "-", "new_str": "+"}}]),
            message("user", [{"type": "tool_result", "tool_use_id": call_id, "content": "File edited."}])]


def test_a_failure_fixed_and_rerun_closes(tmp_path: Path) -> None:
    """`pytest -q` exiting 1, an Edit, and a re-run exiting 0 close the item, in the session's directory."""
    path = write_jsonl(tmp_path / "s.jsonl", [
        START, user("make the tests pass"), *execute("c1", "pytest -q", "1 failed", 1), *edit("c2"),
        *execute("c3", "pytest -q", "3 passed", 0), {"type": "agent_turn_outcome", "turnId": "t1",
                                                     "reason": "completed", "resultKind": "null"}])
    transcript = open_transcript(path)
    tracker, events = replay(path)
    assert transcript.format == "droid"
    assert [(item.check, item.state) for item in tracker.all_items()] == [("pytest -q", "resolved")]
    assert [results(events)[c].exit_code for c in ("c1", "c3")] == [1, 0]
    assert all(e.cwd == "/repo" for e in events if isinstance(e, ToolDispatched))
    assert next(e.reasoning for e in events if isinstance(e, AssistantMessage)) == "Run it."
    list(transcript.events())
    assert transcript.report.unknown_types == {} and transcript.report.session_id == START["id"]


def test_host_text_is_not_the_users(tmp_path: Path) -> None:
    """`llm_only` context, a hook's message and `<system-reminder>` blocks start no task; the user's words do."""
    events = read(write_jsonl(tmp_path / "s.jsonl", [
        START, user("<system-reminder>house rules</system-reminder>"), user("fix it"),
        user("Today is Monday.", visibility="llm_only"), user("checks failed", hookEventName="Stop")]))
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["fix it"]
    assert [(e.kind, e.name) for e in events if isinstance(e, HostMessage)] == [
        ("extension", "context"), ("hook-feedback", "Stop")]


def test_a_compaction_carries_its_summary(tmp_path: Path) -> None:
    """`compaction_state` is a Compaction with `summaryText`."""
    events = read(write_jsonl(tmp_path / "s.jsonl", [
        START, user("fix it"), {"type": "compaction_state", "id": "k1", "timestamp": "2026-11-02T10:05:00.000Z",
                                "summaryText": "Tests fail in sum.py.", "summaryTokens": 12,
                                "summaryKind": "llm_summary", "removedCount": 3},
        {"type": "todo_state", "id": "t1", "timestamp": "2026-11-02T10:05:01.000Z", "todos": []}]))
    assert [e.summary for e in events if isinstance(e, Compaction)] == ["Tests fail in sum.py."]


@pytest.mark.parametrize(("text", "expected"), [
    ("3 passed\n[Process exited with code 0]", 0),
    ("Command failed (exit code: 2)\nboom\n[Process exited with code 2]", 2),
    ("ok\nFull command output saved to: /tmp/o.txt (2 MB)\n[Process exited with code 0]", 0),
    ("[Process exited with code 0]\n1 failed", None),  # output cannot end with the host's line above it
    ("Command timed out after 60 seconds. Consider increasing the timeout.", None),
    ("Command terminated by signal: SIGKILL", None),
], ids=["0", "2", "saved output", "forged", "timeout", "signal"])
def test_shell_exit_codes(text: str, expected: int | None) -> None:
    """The exit code is the closing line's, and only when it is the last line."""
    assert shell_exit(text) == expected


def test_unknown_lines_are_counted_and_corrupt_lines_skipped(tmp_path: Path) -> None:
    """A line of an unknown type is counted; a corrupt line is skipped with its number; the rest is read."""
    path = write_jsonl(tmp_path / "s.jsonl", [START, {"type": "brand_new", "id": "x"}, user("go"),
                                              *execute("c1", "npm test", "ok", 0)])
    with path.open("a") as handle:
        handle.write('{"type": "message", "id": \n')
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert transcript.report.unknown_types == {"brand_new": 1}
    assert [line for line, _ in transcript.report.skipped] == [6]
    assert results(events)["c1"].exit_code == 0


def test_only_droid_lines_are_read_as_droid(tmp_path: Path) -> None:
    """A Droid message with tool blocks says Droid even without its header; a header-less text message could be
    Pi's or Droid's and is refused, never guessed."""
    assert detect_format(write_jsonl(tmp_path / "a.jsonl", execute("c1", "ls", "", 0))) == "droid"
    plain = user("hi") | {"parentId": None}
    with pytest.raises(NotATranscript, match="could be pi or droid"):
        open_transcript(write_jsonl(tmp_path / "b.jsonl", [plain]))
