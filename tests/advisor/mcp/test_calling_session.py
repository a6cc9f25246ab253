"""Which session an MCP tool call is answered from: the one whose transcript holds the call, also with
two sessions in one directory; and no session's at all when that cannot be told."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from advisor.errors import SessionNotFound
from advisor.hosts import calling_session
from advisor.mcp import Caller, obligations_answer
from tests.advisor.mcp.homes import CLEAN, FAILING, Home


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path)


def test_claude_call_is_answered_from_the_transcript_holding_it(home: Home) -> None:
    """Two Claude Code sessions in one project: each call is read from the session that made it."""
    failing, failing_calls = home.claude_session("aaaaaaaa-1", FAILING)
    clean, clean_calls = home.claude_session("bbbbbbbb-2", CLEAN)
    for path, calls, session in ((failing, failing_calls, "aaaaaaaa-1"), (clean, clean_calls, "bbbbbbbb-2")):
        found = calling_session({"claudecode/toolUseId": calls[-1]}, env=home.claude_env(session),
                                cwd=str(home.project), wait=0)
        assert (found.host, found.transcript, found.session_id, found.cwd) == \
            ("claude-code", path, session, str(home.project))


def test_claude_call_after_clear_finds_the_new_session(home: Home) -> None:
    """A server started for one session (`/clear` keeps the process) finds a call of the project's newer session."""
    home.claude_session("aaaaaaaa-1", CLEAN)
    newer, calls = home.claude_session("cccccccc-3", FAILING)
    found = calling_session({"claudecode/toolUseId": calls[0]}, env=home.claude_env("aaaaaaaa-1"),
                            cwd=str(home.project), wait=0)
    assert found.transcript == newer and found.session_id == "cccccccc-3"


def test_obligations_come_from_the_calling_session_only(home: Home) -> None:
    """`obligations` lists the failing session's open check to it, and nothing to the clean session beside it."""
    _, failing_calls = home.claude_session("aaaaaaaa-1", FAILING)
    _, clean_calls = home.claude_session("bbbbbbbb-2", CLEAN)
    failing = obligations_answer(Caller({"claudecode/toolUseId": failing_calls[0]},
                                        home.claude_env("aaaaaaaa-1"), str(home.project), wait=0))
    clean = obligations_answer(Caller({"claudecode/toolUseId": clean_calls[0]},
                                      home.claude_env("bbbbbbbb-2"), str(home.project), wait=0))
    assert not failing.is_error and "`pytest -q` (test)" in failing.text and "closes only through" in failing.text
    assert not clean.is_error and "none open" in clean.text and "pytest" not in clean.text


def test_codex_call_is_found_by_thread_and_call_id(home: Home) -> None:
    """A Codex call is answered from its thread's rollout, which holds its call id; the model Codex names is kept."""
    path, calls = home.codex_session("019a0000-aaaa", FAILING)
    home.codex_session("019a0000-bbbb", CLEAN)
    meta = {"threadId": "019a0000-aaaa", "callId": calls[0], "x-codex-turn-metadata": {"model": "gpt-test"}}
    found = calling_session(meta, env=home.codex_env(), cwd="/", wait=0)
    assert (found.host, found.transcript, found.session_id, found.executor_model, found.cwd) == \
        ("codex", path, "019a0000-aaaa", "gpt-test", str(home.project))
    answer = obligations_answer(Caller(meta, home.codex_env(), "/", wait=0))
    assert "`pytest -q` (test)" in answer.text


@pytest.mark.parametrize("meta", [{}, {"claudecode/toolUseId": "toolu_nowhere"}, {"threadId": "t-1"},
                                  {"threadId": "019a0000-aaaa", "callId": "call_nowhere"},
                                  {"claudecode/toolUseId": "../../etc/passwd"}],
                         ids=["no ids", "unknown Claude call", "thread without call", "unknown Codex call",
                              "not an id"])
def test_an_unknown_caller_reads_no_transcript(home: Home, meta: dict[str, str]) -> None:
    """A call no transcript is known to hold is answered from no session: an error naming why, no obligations."""
    home.claude_session("aaaaaaaa-1", FAILING)
    home.codex_session("019a0000-aaaa", FAILING)
    with pytest.raises(SessionNotFound):
        calling_session(meta, env=home.claude_env("aaaaaaaa-1"), cwd=str(home.project), wait=0)
    answer = obligations_answer(Caller(meta, home.claude_env("aaaaaaaa-1"), str(home.project), wait=0))
    assert answer.is_error and "could not tell which session" in answer.text and "pytest -q" not in answer.text


def test_a_call_written_late_is_waited_for(home: Home) -> None:
    """Claude Code may write the `tool_use` just after it sends the call: the search waits for it, briefly."""
    import threading

    path, calls = home.claude_session("aaaaaaaa-1", FAILING)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = next(index for index, line in enumerate(lines) if calls[0] in line)
    path.write_text("".join(lines[:cut]), encoding="utf-8")

    def append() -> None:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("".join(lines[cut:]))

    timer = threading.Timer(0.3, append)
    timer.start()
    try:
        found = calling_session({"claudecode/toolUseId": calls[0]}, env=home.claude_env("aaaaaaaa-1"),
                                cwd=str(home.project), wait=10)
    finally:
        timer.cancel()
    assert found.transcript == path


def test_claude_call_names_the_executors_model_from_its_transcript(home: Home) -> None:
    """Claude Code's MCP call names no model: the transcript's newest answer does, so the same model is refused."""
    _, calls = home.claude_session("aaaaaaaa-1", FAILING)
    found = calling_session({"claudecode/toolUseId": calls[0]}, env=home.claude_env("aaaaaaaa-1"),
                            cwd=str(home.project), wait=0)
    assert found.executor_model == "claude-test"


def test_a_fifo_named_like_a_transcript_does_not_block_the_lookup(home: Home) -> None:
    """A FIFO among the project's transcripts is skipped: the call is still found in the session holding it."""
    path, calls = home.claude_session("aaaaaaaa-1", FAILING)
    os.mkfifo(path.parent / "ffffffff-9.jsonl")
    found = calling_session({"claudecode/toolUseId": calls[0]}, env=home.claude_env("bbbbbbbb-2"),
                            cwd=str(home.project), wait=0)
    assert found.transcript == path


def test_a_session_that_only_quotes_the_call_id_is_not_the_caller(home: Home) -> None:
    """A newer session of the project whose tool output quotes the calling transcript (the call's id inside a
    JSON string) is passed over: the call is answered from the session whose `tool_use` block has that id."""
    failing, calls = home.claude_session("aaaaaaaa-1", FAILING)
    quoter, _ = home.claude_session("bbbbbbbb-2", CLEAN)
    with quoter.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_x", "content": failing.read_text()}]}}) + "\n")
    a_minute_ago = time.time() - 60
    os.utime(failing, (a_minute_ago, a_minute_ago))  # older than the quoting session, so searched after it
    found = calling_session({"claudecode/toolUseId": calls[0]}, env=home.claude_env(None), cwd=str(home.project),
                            wait=0)
    assert found.transcript == failing and found.session_id == "aaaaaaaa-1"


def _compact(entry: Mapping[str, object]) -> str:
    """A JSON line as the hosts write it (no spaces)."""
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n"


def _claude_use(session: str, use_id: str, name: str, tool_input: dict[str, object]) -> dict[str, object]:
    """A Claude Code assistant entry with one `tool_use` block, shaped as Claude Code 2.1 writes it."""
    return {"parentUuid": "28053e90-6092-492c-b9c9-246a77741021", "isSidechain": False,
            "message": {"model": "claude-test", "id": "msg_011Ce9J6yo9YUbv3utsAo9nx", "type": "message",
                        "role": "assistant", "content": [{"type": "tool_use", "id": use_id, "name": name,
                                                          "input": tool_input, "caller": {"type": "direct"}}],
                        "stop_reason": "tool_use", "stop_sequence": None,
                        "usage": {"input_tokens": 2, "output_tokens": 214}},
            "requestId": "req_011Ce9J6xchoF5VqtbEsHHas", "type": "assistant",
            "uuid": "b5b5bf09-ca41-49fd-ba25-5a6acccc96e4", "timestamp": "2026-12-01T10:00:00.000Z",
            "sessionId": session, "version": "2.1.332", "cwd": "/project"}


@pytest.mark.parametrize("tool_input", [
    {"path": "/tmp/call.json", "record": {"id": "CALL", "status": "open"}},  # an MCP call's object argument
    {"items": [{"id": "CALL"}]},
    {"id": "CALL"},
], ids=["nested object", "in a list", "the input itself"])
def test_a_session_whose_tool_input_holds_the_call_id_is_not_the_caller(home: Home,
                                                                       tool_input: dict[str, object]) -> None:
    """Two sessions in one folder: the server's own session has a `tool_use` whose input holds an object
    `{"id": <the caller's id>}` (searched first, a byte-level hit); the call is answered from the session
    whose `tool_use` block has that id."""
    caller, calls = home.claude_session("aaaaaaaa-1", FAILING)
    decoy, _ = home.claude_session("bbbbbbbb-2", CLEAN)
    forged = json.loads(json.dumps(tool_input).replace("CALL", calls[0]))
    with decoy.open("a", encoding="utf-8") as handle:
        handle.write(_compact(_claude_use("bbbbbbbb-2", "toolu_01DecoyDecoyDecoyDecoy", "mcp__tracker__save", forged)))
    assert f'"id":"{calls[0]}"' in decoy.read_text(encoding="utf-8")
    found = calling_session({"claudecode/toolUseId": calls[0]}, env=home.claude_env("bbbbbbbb-2"),
                            cwd=str(home.project), wait=0)
    assert found.transcript == caller and found.session_id == "aaaaaaaa-1"


def test_a_tool_input_holding_the_call_id_alone_names_no_session(home: Home) -> None:
    """When the only line with the call's id is another call's input (or an id of some other kind of line),
    no session is taken for the caller's."""
    decoy, _ = home.claude_session("bbbbbbbb-2", CLEAN)
    call = "toolu_01AFGSjvwG5rkRDVMV5Fk86F"
    with decoy.open("a", encoding="utf-8") as handle:
        handle.write(_compact(_claude_use("bbbbbbbb-2", "toolu_01DecoyDecoyDecoyDecoy", "mcp__tracker__save",
                                          {"record": {"id": call}})))
        handle.write(_compact({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_use", "id": call, "name": "Bash", "input": {}}]}}))  # a block, but not the assistant's
        handle.write(_compact({"type": "attachment", "attachment": {"type": "tool_use", "id": call}}))
    with pytest.raises(SessionNotFound):
        calling_session({"claudecode/toolUseId": call}, env=home.claude_env("bbbbbbbb-2"), cwd=str(home.project),
                        wait=0)


def test_a_false_hit_across_a_reads_boundary_is_passed_over(home: Home) -> None:
    """A false hit in the server's own session, searched first — in a line longer than a read, the id
    across the reads' boundary — is passed over, and the caller's `tool_use` in the next file is found."""
    own, _ = home.claude_session("aaaaaaaa-1", FAILING)
    caller, _ = home.claude_session("bbbbbbbb-2", CLEAN)
    call = "toolu_01AFGSjvwG5rkRDVMV5Fk86F"

    def decoy(padding: str) -> str:
        return _compact(_claude_use("aaaaaaaa-1", "toolu_01DecoyDecoyDecoyDecoy", "mcp__notes__save",
                                    {"text": padding, "record": {"id": call}}))

    hit = own.stat().st_size + decoy("").index(f'"id":"{call}"')
    with own.open("a", encoding="utf-8") as handle:
        handle.write(decoy("x" * ((1 << 20) - 5 - hit)))  # the id's field starts 5 bytes before the first read ends
    assert own.read_bytes().index(f'"id":"{call}"'.encode()) == (1 << 20) - 5
    with caller.open("a", encoding="utf-8") as handle:
        handle.write(_compact(_claude_use("bbbbbbbb-2", call, "mcp__witness__obligations", {})))
    found = calling_session({"claudecode/toolUseId": call}, env=home.claude_env("aaaaaaaa-1"),
                            cwd=str(home.project), wait=0)
    assert found.transcript == caller and found.session_id == "bbbbbbbb-2"


def test_a_line_cut_off_mid_write_is_not_taken_on_its_first_half(home: Home) -> None:
    """A decoy line the host has written only half of, whose id field shows before the cut, is not
    taken for the call: the caller's `tool_use` in the next file is found."""
    own, _ = home.claude_session("aaaaaaaa-1", FAILING)
    caller, _ = home.claude_session("bbbbbbbb-2", CLEAN)
    call = "toolu_01QhalfHalfHalfHalfHalf"
    decoy = _compact(_claude_use("aaaaaaaa-1", "toolu_01DecoyDecoyDecoyDecoy", "mcp__notes__save",
                                 {"record": {"id": call}, "text": "more to come"}))
    with own.open("a", encoding="utf-8") as handle:
        handle.write(decoy[:decoy.index(call) + len(call) + 2])
    with caller.open("a", encoding="utf-8") as handle:
        handle.write(_compact(_claude_use("bbbbbbbb-2", call, "mcp__witness__obligations", {})))
    found = calling_session({"claudecode/toolUseId": call}, env=home.claude_env("aaaaaaaa-1"),
                            cwd=str(home.project), wait=0)
    assert found.transcript == caller


def test_a_call_line_read_while_half_written_is_found_once_whole(home: Home) -> None:
    """A `tool_use` line read before the host finished writing it is found on a later look, once whole."""
    import threading

    path, _ = home.claude_session("aaaaaaaa-1", CLEAN)
    call = "toolu_01VhWCNNQYW9GcW1VBVFUGJv"
    line = _compact(_claude_use("aaaaaaaa-1", call, "mcp__witness__obligations", {"question": "done?"}))
    half = line.index(call) + len(call) + 2
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line[:half])

    def finish() -> None:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(line[half:])

    timer = threading.Timer(0.3, finish)
    timer.start()
    try:
        found = calling_session({"claudecode/toolUseId": call}, env=home.claude_env("aaaaaaaa-1"),
                                cwd=str(home.project), wait=10)
    finally:
        timer.cancel()
    assert found.transcript == path


def test_a_codex_rollout_counts_only_a_function_call_with_the_call_id(home: Home) -> None:
    """Two rollouts named for the thread: one holds the call id only inside other objects (an event's item,
    a function call's output), so the search goes on to the one whose `function_call` has it."""
    path, calls = home.codex_session("019a0000-aaaa", FAILING)
    other = path.parents[2] / "11" / "30" / path.name.replace("2026-12-01", "2026-11-30")
    other.parent.mkdir(parents=True)
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    other.write_text(first_line + "\n" + "".join(_compact(entry) for entry in (
        {"timestamp": "2026-11-30T10:00:01.000Z", "type": "event_msg",
         "payload": {"type": "item_completed", "item": {"type": "McpToolCall", "call_id": calls[0]}}},
        {"timestamp": "2026-11-30T10:00:02.000Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": calls[0], "output": "ok"}},
        {"timestamp": "2026-11-30T10:00:03.000Z", "type": "response_item",
         "payload": {"type": "custom_tool_call", "call_id": calls[0], "name": "apply_patch", "input": ""}})),
        encoding="utf-8")
    assert sorted((home.home / ".codex" / "sessions").glob("*/*/*/rollout-*-019a0000-aaaa.jsonl"))[0] == other
    found = calling_session({"threadId": "019a0000-aaaa", "callId": calls[0]}, env=home.codex_env(), cwd="/",
                            wait=0)
    assert found.transcript == path
    path.unlink()
    with pytest.raises(SessionNotFound):
        calling_session({"threadId": "019a0000-aaaa", "callId": calls[0]}, env=home.codex_env(), cwd="/", wait=0)
