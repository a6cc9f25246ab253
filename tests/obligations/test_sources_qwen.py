"""Qwen Code chat recordings, written as Qwen Code 0.24.4's chatRecordingService writes them (Claude Code's
envelope, Gemini-style parts, `tool_result` records with `toolCallResult`, `chat_compression`, rewinds that
re-root the `parentUuid` chain); `run_shell_command` exit codes. No public Qwen Code session was found to ship
(see docs/hosts.md): these records are built from the program's published source."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from obligations import AssistantMessage, Compaction, HostMessage, ToolDispatched, UserMessage
from obligations.sources import detect_format, open_transcript
from obligations.sources._qwen import shell_exit
from tests.obligations.transcript_files import read, replay, results, write_jsonl

SESSION = "5e0f5a8e-0000-4000-8000-00000000a001"


class Chain:
    """Records as the host appends them: each one's parent is the one before, unless told."""

    def __init__(self) -> None:
        self.ids = (f"u{n:04d}" for n in itertools.count())
        self.last: str | None = None

    def record(self, kind: str, parent: str | bool | None = True, **fields: Any) -> dict[str, Any]:
        ident = next(self.ids)
        record = {"uuid": ident, "parentUuid": self.last if parent is True else parent or None,
                  "sessionId": SESSION, "timestamp": f"2026-11-02T10:00:{len(ident):02d}.000Z", "type": kind,
                  "cwd": "/repo", "version": "0.24.4", "gitBranch": "main", **fields}
        self.last = ident
        return record

    def user(self, text: str, **fields: Any) -> dict[str, Any]:
        return self.record("user", message={"role": "user", "parts": [{"text": text}]},
                           provenance="real_user", **fields)

    def call(self, call_id: str, command: str, thought: str = "") -> dict[str, Any]:
        parts: list[dict[str, Any]] = [{"text": thought, "thought": True}] if thought else []
        parts.append({"functionCall": {"id": call_id, "name": "run_shell_command", "args": {"command": command}}})
        return self.record("assistant", message={"role": "model", "parts": parts}, model="qwen3-coder-plus")

    def result(self, call_id: str, text: str, status: str = "success", name: str = "run_shell_command"
               ) -> dict[str, Any]:
        return self.record("tool_result", provenance="tool_result",
                           message={"role": "user", "parts": [{"functionResponse": {
                               "id": call_id, "name": name, "response": {"output": text}}}]},
                           toolCallResult={"callId": call_id, "status": status, "resultDisplay": text[:40]})

    def run(self, call_id: str, command: str, output: str, code: int) -> list[dict[str, Any]]:
        return [self.call(call_id, command), self.result(call_id, shell(command, output, code))]


def shell(command: str, output: str, code: int | None, *notes: str) -> str:
    """A `run_shell_command` result as Qwen Code 0.24.4 writes it for the model."""
    text = "\n".join([f"Command: {command}", "Directory: (root)", f"Output: {output or '(empty)'}", "Error: (none)",
                      f"Exit Code: {'(none)' if code is None else code}",
                      f"Signal: {'(none)' if code is not None else 'SIGTERM'}", "Process Group PGID: 4242"])
    return "".join([text, *(f"\n\n{note}" for note in notes)])


def test_a_failure_fixed_and_rerun_closes(tmp_path: Path) -> None:
    """`pytest -q` exiting 1, an edit, and a re-run exiting 0 close the item; the file is read as Qwen Code's."""
    chain = Chain()
    edit = [chain.record("assistant", message={"role": "model", "parts": [{"functionCall": {
                "id": "c2", "name": "edit", "args": {"file_path": "/repo/sum.py"}}}]}),
            chain.result("c2", "The file was edited.", name="edit")]
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", [
        chain.user("make the tests pass"), *chain.run("c1", "pytest -q", "1 failed", 1), *edit,
        *chain.run("c3", "pytest -q", "3 passed", 0)])
    transcript = open_transcript(path)
    tracker, events = replay(path)
    assert transcript.format == "qwen"
    assert [(item.check, item.state) for item in tracker.all_items()] == [("pytest -q", "resolved")]
    assert [results(events)[c].exit_code for c in ("c1", "c3")] == [1, 0]
    assert all(e.cwd == "/repo" for e in events if isinstance(e, ToolDispatched))


def test_reasoning_host_text_and_commands(tmp_path: Path) -> None:
    """A thought part is reasoning; a notification is the host's (hidden, no task); a mid-turn message is kept as
    the user's context without starting a task; a `/command` and a hook's prompt context are no prompt."""
    chain = Chain()
    path = write_jsonl(tmp_path / "s.jsonl", [
        chain.user("fix it"), chain.call("c1", "npm test", thought="Run the tests first."),
        chain.result("c1", shell("npm test", "ok", 0)),
        chain.record("user", subtype="notification", provenance="system",
                     message={"role": "user", "parts": [{"text": "Background task finished."}]}),
        chain.record("user", subtype="mid_turn_user_message",
                     message={"role": "user", "parts": [{"text": "also check lint"}]}),
        chain.user("/compress"),
        chain.record("user", message={"role": "user", "parts": [
            {"text": "<qwen:user-prompt-submit-context>cwd</qwen:user-prompt-submit-context>"},
            {"text": "now the docs"}]})])
    events = read(path)
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["fix it", "now the docs"]
    assert [(e.name, e.hidden) for e in events if isinstance(e, HostMessage)] == [
        ("notification", True), ("mid_turn_user_message", False)]
    assert next(e.reasoning for e in events if isinstance(e, AssistantMessage)) == "Run the tests first."


def test_a_compression_is_a_compaction(tmp_path: Path) -> None:
    """`system`/`chat_compression` is a Compaction carrying the compressed history's summary."""
    chain = Chain()
    events = read(write_jsonl(tmp_path / "s.jsonl", [
        chain.user("fix it"), chain.record("system", subtype="chat_compression", systemPayload={
            "info": {"originalTokenCount": 9000, "newTokenCount": 900, "compressionStatus": 1},
            "compressedHistory": [{"role": "user", "parts": [{"text": "<state_snapshot>tests fail</state_snapshot>"}]},
                                  {"role": "model", "parts": [{"text": "Got it."}]}]})]))
    assert [e.summary for e in events if isinstance(e, Compaction)] == ["<state_snapshot>tests fail</state_snapshot>"]


def test_a_rewind_leaves_the_old_branch_out(tmp_path: Path) -> None:
    """A rewind re-roots the chain at an earlier turn: the failing run on the branch left behind opens nothing."""
    chain = Chain()
    first = chain.user("make the tests pass")
    old = [chain.user("run pytest"), *chain.run("c1", "pytest -q", "1 failed", 1)]
    rewind = chain.record("system", parent=first["uuid"], subtype="rewind", systemPayload={"targetTurnIndex": 1})
    new = [chain.user("run the linter instead"), *chain.run("c2", "ruff check .", "All checks passed!", 0)]
    path = write_jsonl(tmp_path / "s.jsonl", [first, *old, rewind, *new])
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c2"]
    assert transcript.report.abandoned == 3


def test_an_exact_copy_is_read_once(tmp_path: Path) -> None:
    """The same record written twice (same uuid and time) makes its events once."""
    chain = Chain()
    rows = [chain.user("go"), *chain.run("c1", "pytest -q", "1 failed", 1)]
    transcript = open_transcript(write_jsonl(tmp_path / "s.jsonl", rows + rows))
    events = list(transcript.events())
    assert len([e for e in events if isinstance(e, ToolDispatched)]) == 1
    assert transcript.report.duplicates == 3


@pytest.mark.parametrize(("text", "expected"), [
    (shell("ls", "x", 0), (0, None)),
    (shell("pytest", "1 failed", 1), (1, None)),
    (shell("sleep 9", "", None), (None, None)),
    (shell("pytest", "1 failed", 2, "Note: this foreground command ran for 130s. Next time …"), (2, None)),
    # output that prints the closing sections itself cannot hide the host's
    (shell("pytest", "Exit Code: 0\nSignal: (none)\nProcess Group PGID: 1\nboom", 1), (1, None)),
    ("Command timed out after 120000ms before it could complete. There was no output before it timed out.",
     (None, "timeout")),
    ("Command was cancelled by user before it could complete. There was no output before it was cancelled.",
     (None, "interrupted")),
    ("All tests passed.", (None, None)),
], ids=["0", "1", "signal", "note after", "forged", "timeout", "cancelled", "summary"])
def test_shell_exit_codes(text: str, expected: tuple[int | None, str | None]) -> None:
    """The exit code comes only from the host's closing sections, two lines above the last PGID line."""
    assert shell_exit(text) == expected


def test_unknown_records_are_counted_and_corrupt_lines_skipped(tmp_path: Path) -> None:
    """A record of an unknown type is counted; a corrupt line is skipped with its number; the rest is read."""
    chain = Chain()
    path = write_jsonl(tmp_path / "s.jsonl", [chain.user("go"), chain.record("brand_new"),
                                              *chain.run("c1", "npm test", "ok", 0)])
    with path.open("a") as handle:
        handle.write('{"uuid": "x", "type": "assistant", "message": \n')
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert transcript.report.unknown_types == {"brand_new": 1}
    assert [line for line, _ in transcript.report.skipped] == [5]
    assert results(events)["c1"].exit_code == 0


def test_a_claude_code_session_is_not_taken_for_qwen(tmp_path: Path) -> None:
    """The shared envelope alone decides nothing: `message.content` stays Claude Code's, `parts` Qwen Code's."""
    claude = {"uuid": "a", "parentUuid": None, "sessionId": "s", "type": "user", "timestamp": "t",
              "message": {"role": "user", "content": "fix it"}}
    assert detect_format(write_jsonl(tmp_path / "c.jsonl", [claude])) == "claude-code"
    assert detect_format(write_jsonl(tmp_path / "q.jsonl", [Chain().user("fix it")])) == "qwen"
    generic = claude | {"type": "system", "subtype": "notification", "message": None}
    assert detect_format(write_jsonl(tmp_path / "g.jsonl", [generic, claude])) == "claude-code"
    telemetry = Chain().record("system", subtype="ui_telemetry", systemPayload={"uiEvent": {}})
    assert detect_format(write_jsonl(tmp_path / "t.jsonl", [telemetry])) == "qwen"
