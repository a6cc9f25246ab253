"""Synthetic Claude Code and Codex transcripts: exit codes, user messages, sub-agents, compactions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from obligations import (
    AgentSpawned,
    AssistantMessage,
    Compaction,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
    classify,
)
from obligations.sources import open_transcript
from tests.obligations.transcript_files import (
    codex,
    codex_call,
    codex_exec_end,
    codex_output,
    read,
    replay,
    results,
    write_jsonl,
)

_uuids = (f"u{n:04d}" for n in itertools.count())


# -- Claude Code ------------------------------------------------------------------------------


def claude(kind: str, content: Any, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": kind, "content": content}
    if kind == "assistant":
        message |= {"id": extra.pop("message_id", f"msg_{next(_uuids)}"), "model": "claude-opus-4-7"}
    return {"parentUuid": None, "isSidechain": False, "type": kind, "uuid": next(_uuids), "sessionId": "sess-1",
            "cwd": "/home/dev/app", "timestamp": "2026-05-07T18:25:10.095Z", "message": message, **extra}


def bash(call_id: str, command: str, **extra: Any) -> dict[str, Any]:
    return claude("assistant", [{"type": "tool_use", "id": call_id, "name": "Bash",
                                 "input": {"command": command, "description": "run it"}}], **extra)


def result(call_id: str, text: str, is_error: bool | None = None, detail: Any = None, **extra: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": text}
    if is_error is not None:
        block["is_error"] = is_error
    entry = claude("user", [block], **extra)
    if detail is not None:
        entry["toolUseResult"] = detail
    return entry


def ok(stdout: str, **extra: Any) -> dict[str, Any]:
    return {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False, **extra}


def test_claude_failing_edit_masked_rerun_then_genuine_pass_closes_the_item(tmp_path: Path) -> None:
    """A failing `npm test` ("Exit code 1"), an Edit, a masked `npm test; echo done` and a genuine passing
    `npm test`: the item opens, survives the masked run, and the genuine run closes it."""
    failure = "Exit code 1\n> app@1.0.0 test\nTests:  1 failed, 4 passed, 5 total"
    path = write_jsonl(tmp_path / "session.jsonl", [
        claude("user", "make the tests pass"),
        bash("t1", "npm test"),
        result("t1", failure, True, "Error: " + failure),
        claude("assistant", [{"type": "tool_use", "id": "t2", "name": "Edit", "input": {
            "file_path": "/home/dev/app/src/sum.js", "old_string": "a - b", "new_string": "a + b"}}]),
        result("t2", "The file /home/dev/app/src/sum.js has been updated successfully.", None,
               {"filePath": "/home/dev/app/src/sum.js"}),
        bash("t3", "npm test; echo done"),
        result("t3", "Tests:  5 passed, 5 total\ndone", False, ok("Tests:  5 passed, 5 total\ndone")),
        bash("t4", "npm test"),
        result("t4", "Tests:  5 passed, 5 total", False, ok("Tests:  5 passed, 5 total")),
    ])
    tracker = Tracker()
    states = {}
    for event in open_transcript(path).events():
        tracker.handle(event)
        if isinstance(event, ToolCompleted):
            states[event.call_id] = [(item.check, item.state) for item in tracker.all_items()]
    assert states["t1"] == [("npm test", "open")]
    assert states["t3"] == [("npm test", "open")]
    attempt = tracker.all_items()[0].last_attempt
    assert attempt is not None and "masked" in attempt.reason
    assert states["t4"] == [("npm test", "resolved")]
    item = tracker.all_items()[0]
    assert item.resolution is not None
    assert (item.resolution.witness_call_id, item.cwd) == ("t4", "/home/dev/app")
    assert item.history[0].origin == "session.jsonl:3"


def test_claude_exit_codes_are_read_only_where_the_host_gives_them(tmp_path: Path) -> None:
    """`Exit code N` gives N; an error without it gives none; success is 0; a tolerated grep exit is 1; an
    unknown interpretation, a background run and an interruption give none."""
    path = write_jsonl(tmp_path / "s.jsonl", [
        bash("a", "make"), result("a", "Exit code 2\nmake: *** [all] Error 2", True, "Error: Exit code 2"),
        bash("b", "ls"), result("b", "Command failed with no output", True),
        bash("c", "true"), result("c", "", False, ok("")),
        bash("d", "grep x f"), result("d", "", False, ok("", returnCodeInterpretation="No matches found")),
        bash("e", "odd"), result("e", "", False, ok("", returnCodeInterpretation="Something new")),
        claude("assistant", [{"type": "tool_use", "id": "f", "name": "Bash",
                              "input": {"command": "npm run dev", "run_in_background": True}}]),
        result("f", "Command running in background with ID: b1", False, ok("", backgroundTaskId="b1")),
        bash("g", "sleep 60"),
        result("g", "[Request interrupted by user for tool use]", False, ok("", interrupted=True)),
        bash("h", "npm test"),
        result("h", "Exit code 137\n[Request interrupted by user for tool use]\nkilled", True),
        bash("i", "pytest"), result("i", "Command timed out after 2m 0.0s", True),
    ])
    done = results(read(path))
    assert {call: (event.exit_code, event.error_code) for call, event in done.items()} == {
        "a": (2, None), "b": (None, None), "c": (0, None), "d": (1, None), "e": (None, None), "f": (None, None),
        "g": (None, "interrupted"), "h": (137, "interrupted"), "i": (None, "timeout")}
    assert classify(None, 137, True, "interrupted", done["h"].error_message) == "cancelled"
    assert classify(None, None, True, "timeout", done["i"].error_message) == "timeout"


def test_claude_user_messages_are_only_the_users_words(tmp_path: Path) -> None:
    """Tool results, meta entries, slash commands, echoed command output and interruption markers are not user
    messages; typed text is, and the `!` shell is a Bash call without an exit code."""
    path = write_jsonl(tmp_path / "s.jsonl", [
        claude("user", [{"type": "text", "text": "add a sum function"}]),
        bash("t1", "ls"), result("t1", "a.js", False, ok("a.js")),
        claude("user", "<local-command-caveat>Caveat: generated by local commands</local-command-caveat>",
               isMeta=True),
        claude("user", "<command-name>/compact</command-name>\n<command-message>compact</command-message>"),
        claude("user", "<local-command-stdout>Compacted</local-command-stdout>"),
        claude("user", "[Request interrupted by user]"),
        claude("user", "Stop hook feedback:\nrun the tests", isMeta=True),
        claude("user", "<bash-input>git status</bash-input>"),
        claude("user", "<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>"),
        claude("user", "now run the tests"),
    ])
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [event.text for event in events if isinstance(event, UserMessage)] == [
        "add a sum function", "now run the tests"]
    shell = [event for event in events if isinstance(event, ToolDispatched) and event.call_id.startswith("user-")]
    assert [(event.tool, event.arguments) for event in shell] == [("Bash", {"command": "git status"})]
    assert results(events)[shell[0].call_id].exit_code is None
    assert results(events)[shell[0].call_id].output == "On branch main"
    assert transcript.report.tool_calls == 2


def test_claude_slash_commands_are_the_users_words_unless_they_manage_the_session(tmp_path: Path) -> None:
    """A slash command with its arguments is a user message, as typed (`/x args`), and starts a task; its
    expanded prompt (meta) and its echoed output are not; `/clear`, `/compact`, `/model` manage the session."""
    path = write_jsonl(tmp_path / "s.jsonl", [
        claude("user", "<command-message>init-app</command-message>\n<command-name>/init-app</command-name>\n"
                       "<command-args>create TODO app by Next.js</command-args>"),
        claude("user", [{"type": "text", "text": "# Init app\nScaffold the project the user names."}], isMeta=True),
        bash("t1", "npm test"), result("t1", "Exit code 1\n1 failed", True),
        claude("user", "<command-name>/review</command-name>\n            <command-message>review</command-message>\n"
                       "            <command-args></command-args>"),
        claude("user", "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
                       "<command-args></command-args>"),
        claude("user", "<command-name>/model</command-name>\n<command-args>opus</command-args>"),
        claude("user", "<local-command-stdout>Set model to opus</local-command-stdout>"),
    ])
    events = list(open_transcript(path).events())
    assert [event.text for event in events if isinstance(event, UserMessage)] == [
        "/init-app create TODO app by Next.js", "/review"]


def test_claude_one_api_message_is_one_turn(tmp_path: Path) -> None:
    """Thinking, text and tool_use entries sharing one message id make one AssistantMessage, before the call."""
    path = write_jsonl(tmp_path / "s.jsonl", [
        claude("user", "go"),
        claude("assistant", [{"type": "thinking", "thinking": "hmm", "signature": "x"}], message_id="m1"),
        claude("assistant", [{"type": "text", "text": "Running the tests."}], message_id="m1"),
        bash("t1", "pytest", message_id="m1"),
        result("t1", "1 passed", False, ok("1 passed")),
        claude("assistant", [{"type": "text", "text": "Done."}], message_id="m2"),
        claude("assistant", [{"type": "text", "text": "API Error"}], message_id="m3") | {
            "message": {"role": "assistant", "content": [{"type": "text", "text": "API Error"}], "id": "m3",
                        "model": "<synthetic>"}},
    ])
    events = read(path)
    assert [type(event).__name__ for event in events] == [
        "UserMessage", "AssistantMessage", "ToolDispatched", "ToolCompleted", "AssistantMessage"]
    assert [event.text for event in events if isinstance(event, AssistantMessage)] == ["Running the tests.", "Done."]


def test_claude_compaction_boundary_and_summary_are_one_event(tmp_path: Path) -> None:
    """A compact_boundary followed by its summary is one Compaction with the summary; a boundary whose summary
    never came is still a Compaction."""
    boundary = {"type": "system", "subtype": "compact_boundary", "uuid": "b", "sessionId": "sess-1",
                "isSidechain": False, "timestamp": "2026-05-07T18:30:00Z", "compactMetadata": {"trigger": "auto"}}
    path = write_jsonl(tmp_path / "s.jsonl", [
        claude("user", "go"), boundary,
        claude("user", "This session is being continued from a previous conversation. Summary: …",
               isCompactSummary=True, isVisibleInTranscriptOnly=True),
        claude("user", "next"), boundary | {"uuid": "b2"},
    ])
    events = read(path)
    compactions = [event for event in events if isinstance(event, Compaction)]
    assert [(event.origin, event.summary[:20]) for event in compactions] == [
        ("s.jsonl:2", "This session is bein"), ("s.jsonl:5", "")]
    assert [event.text for event in events if isinstance(event, UserMessage)] == ["go", "next"]


def test_claude_compaction_whose_summary_never_came_comes_before_the_next_prompt(tmp_path: Path) -> None:
    """A boundary with no summary after it is a Compaction in its place: after what came before it, before
    the next prompt."""
    boundary = {"type": "system", "subtype": "compact_boundary", "uuid": "b", "sessionId": "sess-1",
                "isSidechain": False, "timestamp": "2026-05-07T18:30:00Z", "compactMetadata": {"trigger": "auto"}}
    events = read(write_jsonl(tmp_path / "s.jsonl", [claude("user", "go"), boundary, claude("user", "next")]))
    assert [(type(event).__name__, getattr(event, "text", event.origin)) for event in events] == [
        ("UserMessage", "go"), ("Compaction", "s.jsonl:2"), ("UserMessage", "next")]


def test_claude_subagents_are_announced_once_before_their_first_event(tmp_path: Path) -> None:
    """Sidechain entries belong to their agentId, announced as a local sub-agent of root just before its first
    event; a sub-agent's failed check scores for it, and its root inherits the obligation."""
    side = {"isSidechain": True, "agentId": "a8ae77d6"}
    path = write_jsonl(tmp_path / "s.jsonl", [
        claude("user", "fix it"),
        claude("user", "Count the words in notes.md", **side),
        bash("s1", "npm test", **side),
        result("s1", "Exit code 1\n1 failed", True, **side),
        bash("r1", "ls"),
        result("r1", "notes.md", False, ok("notes.md")),
        {"type": "progress", "uuid": "p", "sessionId": "sess-1", "cwd": "/home/dev/app",
         "timestamp": "2026-05-07T18:26:00Z", "parentToolUseID": "task1",
         "data": {"type": "agent_progress", "agentId": "b2", "message": bash("s2", "npm run lint")}},
    ])
    tracker, events = replay(path)
    spawned = [event for event in events if isinstance(event, AgentSpawned)]
    assert [(e.agent_id, e.parent_id, e.role) for e in spawned] == [
        ("a8ae77d6", "root", "local-subagent"), ("b2", "root", "local-subagent")]
    first_of_sub = next(i for i, event in enumerate(events) if event.agent_id == "a8ae77d6")
    assert isinstance(events[first_of_sub], AgentSpawned)
    assert {event.agent_id for event in events if isinstance(event, ToolDispatched)} == {"a8ae77d6", "root", "b2"}
    (inherited,) = tracker.all_items()
    assert (inherited.agent_id, inherited.failed_by, inherited.check) == ("root", "a8ae77d6", "npm test")
    assert tracker.should_escalate("a8ae77d6").score == 2  # its failure (is_error: a tool error) scores for it
    assert tracker.should_escalate("root").score == 0


# -- Codex ------------------------------------------------------------------------------------


META = codex("session_meta", {"id": "thread-1", "cwd": "/repo", "originator": "codex_exec", "cli_version": "0.139.0",
                              "source": "exec"})
TURN = codex("turn_context", {"turn_id": "t", "cwd": "/repo", "approval_policy": "never"})


def test_codex_exit_codes_come_from_exec_command_end(tmp_path: Path) -> None:
    """exec_command_end's exit codes are recovered even when the call's output says nothing, and they drive the
    tracker: exit 1 opens the item, exit 0 closes it."""
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        META, TURN,
        codex("event_msg", {"type": "user_message", "message": "fix the tests"}),
        codex_call("c1", "exec_command", {"cmd": "npm test", "workdir": "/repo"}),
        codex_exec_end("c1", 1, "Tests:  1 failed, 4 passed, 5 total"),
        codex_output("c1", "Tests:  1 failed, 4 passed, 5 total"),
        codex_call("c2", "exec_command", {"cmd": "npm test"}),
        codex_exec_end("c2", 0, "Tests:  5 passed, 5 total"),
        codex_output("c2", "Chunk ID: 1\nWall time: 1.2 seconds\nOriginal token count: 9\nOutput:\n"
                     "Tests:  5 passed, 5 total"),
    ])
    tracker, events = replay(path)
    done = results(events)
    assert [(done[c].exit_code, done[c].output) for c in ("c1", "c2")] == [
        (1, "Tests:  1 failed, 4 passed, 5 total"), (0, "Tests:  5 passed, 5 total")]
    assert [(item.check, item.state, item.cwd) for item in tracker.all_items()] == [("npm test", "resolved", "/repo")]


def test_codex_exit_codes_from_headers_and_metadata_never_from_the_commands_output(tmp_path: Path) -> None:
    """`Process exited with code N`, `Exit code: N` and JSON metadata give the exit code; the same words printed by
    the command itself (below `Output:`) do not."""
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        META, TURN,
        codex_call("a", "exec_command", {"cmd": "make"}),
        codex_output("a", "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nError 2"),
        codex_call("b", "shell", {"command": ["bash", "-lc", "npm test"], "workdir": "pkg"}),
        codex_output("b", "Exit code: 3\nWall time: 0.5 seconds\nOutput:\nfailed"),
        codex_call("c", "shell", {"command": ["pytest", "-q"]}),
        codex_output("c", json.dumps({"output": "1 passed", "metadata": {"exit_code": 0, "duration_seconds": 0.4}})),
        codex_call("d", "exec_command", {"cmd": "./fake.sh"}),
        codex_output("d", "Chunk ID: 2\nOutput:\nProcess exited with code 0\n"),
        codex_call("e", "exec_command", {"cmd": "rm -rf /"}),
        codex_output("e", "exec command rejected by user"),
        codex_call("f", "exec_command", {"cmd": "npm test"}),
        codex_exec_end("f", -1, "exec command rejected by user", status="declined"),
        codex_output("f", "exec command rejected by user"),
    ])
    transcript = open_transcript(path)
    events = list(transcript.events())
    done = results(events)
    assert {c: (e.exit_code, e.error_code) for c, e in done.items()} == {
        "a": (2, None), "b": (3, None), "c": (0, None), "d": (None, None), "e": (None, "permission_denied"),
        "f": (None, "permission_denied")}
    assert done["c"].output == "1 passed"
    dispatched = {e.call_id: e for e in events if isinstance(e, ToolDispatched)}
    assert dispatched["b"].arguments["command"] == ["bash", "-lc", "npm test"]
    assert (dispatched["b"].cwd, dispatched["a"].cwd) == ("/repo/pkg", "/repo")
    assert (transcript.report.exit_codes, transcript.report.no_exit_code) == (3, 3)


def test_codex_running_command_completes_through_write_stdin_polls(tmp_path: Path) -> None:
    """A unified-exec command still running when its call returns completes when a write_stdin poll reports the
    exit; the polls are not calls of their own."""
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        META, TURN,
        codex_call("c1", "exec_command", {"cmd": "npm test", "yield_time_ms": 1000}),
        codex_output("c1", "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 7\nOutput:\nstarting"),
        codex_call("p1", "write_stdin", {"session_id": 7, "chars": "", "yield_time_ms": 5000}),
        codex_output("p1", "Chunk ID: 2\nWall time: 5.0 seconds\nProcess running with session ID 7\nOutput:\nrunning"),
        codex_call("p2", "write_stdin", {"session_id": 7, "chars": ""}),
        codex_output("p2", "Chunk ID: 3\nWall time: 2.0 seconds\nProcess exited with code 1\nOutput:\n1 failed"),
    ])
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [(e.call_id, e.tool) for e in events if isinstance(e, ToolDispatched)] == [("c1", "exec_command")]
    assert [(e.call_id, e.exit_code, e.output) for e in events if isinstance(e, ToolCompleted)] == [
        ("c1", 1, "1 failed")]
    assert (transcript.report.tool_calls, transcript.report.unfinished_calls) == (1, 0)


def test_codex_messages_are_deduplicated_and_context_is_not_the_user(tmp_path: Path) -> None:
    """Codex writes each message as a response item and as an event: one UserMessage/AssistantMessage each;
    injected context (environment, AGENTS.md) is not the user's words; apply_patch is an edit that re-opens."""
    patch = "*** Begin Patch\n*** Update File: src/a.js\n@@\n-x\n+y\n*** End Patch\n"
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        META,
        codex("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]}),
        codex("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>be nice"}]}),
        codex("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "fix the tests"}]}),
        codex("event_msg", {"type": "user_message", "message": "fix the tests", "images": []}),
        codex("event_msg", {"type": "agent_message", "message": "Running them.", "phase": "commentary"}),
        codex("response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Running them."}]}),
        codex_call("c1", "exec_command", {"cmd": "npm test"}),
        codex_output("c1", "Process exited with code 0\nOutput:\nTests: 5 passed"),
        codex_call("c0", "exec_command", {"cmd": "npm test"}),
        codex_output("c0", "Process exited with code 1\nOutput:\nTests: 1 failed"),
        codex_call("c2", "exec_command", {"cmd": "npm test"}),
        codex_output("c2", "Process exited with code 0\nOutput:\nTests: 5 passed"),
        codex("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": "c3",
                                "name": "apply_patch", "input": patch}),
        codex("response_item", {"type": "custom_tool_call_output", "call_id": "c3",
                                "output": "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess."}),
        codex("compacted", {"message": "summary of earlier work", "replacement_history": []}),
    ])
    tracker, events = replay(path)
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["fix the tests"]
    assert [e.text for e in events if isinstance(e, AssistantMessage)] == ["Running them."]
    assert [(item.check, item.state) for item in tracker.all_items()] == [("npm test", "open")]
    assert tracker.all_items()[0].history[-1].change == "reopened"
    assert [e.summary for e in events if isinstance(e, Compaction)] == ["summary of earlier work"]


def test_codex_users_own_shell_command_is_replayed_with_its_exit_code(tmp_path: Path) -> None:
    """An exec_command_end no tool call dispatched (the user's `!` command) is a call of its own with its exit."""
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        META,
        codex_exec_end("u1", 1, "1 failed", command=["bash", "-lc", "npm test"], source="user_shell", cwd="/repo"),
    ])
    events = read(path)
    assert [(e.tool, e.arguments, e.cwd) for e in events if isinstance(e, ToolDispatched)] == [
        ("local_shell", {"command": ["bash", "-lc", "npm test"]}, "/repo")]
    assert [e.exit_code for e in events if isinstance(e, ToolCompleted)] == [1]


def test_claude_sibling_cancelled_calls_never_ran_and_open_nothing(tmp_path: Path) -> None:
    """Claude Code runs a turn's calls in parallel and cancels the rest when one errors: the cancelled
    `pytest` ("Sibling tool call errored") is `cancelled`, opens no item, and the erroring call still counts."""
    sibling = "<tool_use_error>Sibling tool call errored</tool_use_error>"
    path = write_jsonl(tmp_path / "s.jsonl", [
        claude("user", "run the checks"),
        claude("assistant", [{"type": "tool_use", "id": "a", "name": "Bash", "input": {"command": "ruff check ."}},
                             {"type": "tool_use", "id": "b", "name": "Bash", "input": {"command": "pytest -q"}}],
               message_id="msg_parallel"),
        result("a", "Exit code 1\nFound 2 errors.", True, "Error: Exit code 1\nFound 2 errors."),
        result("b", sibling, True, "Error: Sibling tool call errored"),
    ])
    done = results(read(path))
    assert (done["b"].exit_code, done["b"].error_code) == (None, "cancelled")
    assert classify(None, None, True, "cancelled", done["b"].error_message) == "cancelled"
    tracker = Tracker()
    tracker.handle_many(read(path))
    assert [item.check for item in tracker.open_items()] == ["ruff check ."]
