"""Readers and what they must recover for the verdicts to be right, in the formats the hosts write:
Claude Code rewinds, Codex exit codes without `exec_command_end`, Codex code-mode cells and their
`wait` results, Pi tool calls that never ran, and session commands that are no new task."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from obligations import ToolCompleted, ToolDispatched, UserMessage, audit
from obligations.sources import _claude_branch, open_transcript
from tests.obligations.test_sources_formats import bash, claude, result
from tests.obligations.test_sources_pi import pi, pi_header, pi_result, pi_user
from tests.obligations.transcript_files import (
    codex,
    codex_call,
    codex_output,
    codex_worker_rollout,
    replay,
    results,
    write_jsonl,
)


def chained(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Claude Code entries, each the child of the one before unless it names its parent."""
    previous = None
    for entry in entries:
        if "parentUuid" in entry and entry.get("_parent") is not None:
            entry["parentUuid"] = entry.pop("_parent")
        elif entry.get("parentUuid") is None:
            entry["parentUuid"] = previous
        entry.pop("_parent", None)
        previous = entry["uuid"]
    return entries


# -- Claude Code rewinds -----------------------------------------------------------------------------


def rewound(rewind: bool) -> list[dict[str, Any]]:
    first = claude("user", "make the tests pass")
    tried = claude("user", "run pytest first")
    entries = [first, tried, bash("t1", "pytest -q"), result("t1", "Exit code 1\n1 failed in 0.1s", True)]
    retry = claude("user", "no: run the linter instead")
    if rewind:
        retry["_parent"] = first["uuid"]  # a sibling of the prompt it replaces
    return chained([*entries, retry, bash("t2", "ls"), result("t2", "a.py")])


def test_claude_rewind_replays_only_the_active_branch(tmp_path: Path) -> None:
    """A `/rewind` (or an edited prompt) abandons the replaced prompt's subtree: its failing pytest opens nothing."""
    transcript = open_transcript(write_jsonl(tmp_path / "rewound.jsonl", rewound(rewind=True)))
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["t2"]
    prompts = [e.text for e in events if isinstance(e, UserMessage)]
    assert prompts == ["make the tests pass", "no: run the linter instead"]
    assert transcript.report.abandoned == 3


@pytest.mark.parametrize("chunk", [7, 64, 1 << 22], ids=["tiny", "a line's length", "default"])
def test_claude_rewind_is_found_whatever_the_read_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        chunk: int) -> None:
    """The prompts are looked for in chunks: a prompt line cut across chunks is still found, so the rewind is too."""
    monkeypatch.setattr(_claude_branch, "_CHUNK", chunk)
    transcript = open_transcript(write_jsonl(tmp_path / "rewound.jsonl", rewound(rewind=True)))
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["t2"]
    assert transcript.report.abandoned == 3


def test_claude_without_a_rewind_replays_every_entry(tmp_path: Path) -> None:
    """The same session, the second prompt after the first's answer: the failure stands."""
    tracker, events = replay(write_jsonl(tmp_path / "linear.jsonl", rewound(rewind=False)))
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["t1", "t2"]
    assert tracker.ended_tasks()[0].unresolved[0].check == "pytest -q"


def test_claude_parallel_tool_results_are_no_rewind(tmp_path: Path) -> None:
    """Parallel tool results fork the parent chain on every turn; only sibling *prompts* are a rewind."""
    prompt = claude("user", "check both")
    one, two = bash("p1", "pytest -q"), bash("p2", "ruff check .")
    first, second = result("p1", "Exit code 1\n1 failed in 0.1s", True), result("p2", "All checks passed!")
    entries = chained([prompt, one, two])
    first["parentUuid"], second["parentUuid"] = one["uuid"], two["uuid"]
    tracker, events = replay(write_jsonl(tmp_path / "parallel.jsonl", [*entries, first, second]))
    assert set(results(events)) == {"p1", "p2"}
    assert [item.check for item in tracker.open_items()] == ["pytest -q"]


def test_claude_session_commands_are_no_new_task(tmp_path: Path) -> None:
    """`/compact` typed as a prompt manages the session: the failed check stays the current task's."""
    entries = chained([claude("user", "fix it"), bash("c1", "npm test"), result("c1", "Exit code 1\nfailed", True),
                       claude("user", "/compact"), bash("c2", "npm test"), result("c2", "passed")])
    tracker, _ = replay(write_jsonl(tmp_path / "compact.jsonl", entries))
    assert [(item.check, item.state) for item in tracker.all_items()] == [("npm test", "resolved")]
    assert tracker.ended_tasks() == []


# -- Codex --------------------------------------------------------------------------------------------


def test_codex_exit_code_without_exec_command_end_comes_from_the_output_header(tmp_path: Path) -> None:
    """Rollouts without `exec_command_end` carry the exit only as `Process exited with code N`."""
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        codex("session_meta", {"id": "s", "cwd": "/repo"}),
        codex_call("c1", "exec_command", {"cmd": "cargo test -q monorepo"}),
        codex_output("c1", "Chunk ID: 1\nWall time: 2.1 seconds\nProcess exited with code 101\nOutput:\n"
                           "test result: FAILED. 5 passed; 1 failed"),
        codex_call("c2", "exec_command", {"cmd": "cargo test -q monorepo"}),
        codex_output("c2", "Process exited with code 0\nOutput:\ntest result: ok. 6 passed"),
    ])
    tracker, events = replay(path)
    assert [results(events)[call].exit_code for call in ("c1", "c2")] == [101, 0]
    assert [(item.check, item.state) for item in tracker.all_items()] == [("cargo test -q monorepo", "resolved")]


def test_auditing_a_codex_sub_agents_own_rollout_judges_its_checks(tmp_path: Path) -> None:
    """A sub-agent's rollout (`source: {subagent: …}`) whose `npm run build` failed four times reports
    that failure, under the worker, instead of "no checks failed"."""
    path = codex_worker_rollout(tmp_path / "rollout-worker.jsonl", "npm run build", 4)
    report = audit(path)
    (row,) = report.open
    assert (row.check, row.failed_by, row.failures) == ("npm run build", "worker-1", 4)


def cell(call_id: str, source: str) -> dict[str, Any]:
    return codex("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": call_id,
                                   "name": "exec", "input": source})


def cell_output(call_id: str, *parts: str, running: str | None = None) -> dict[str, Any]:
    if running is not None:
        return codex("response_item", {"type": "custom_tool_call_output", "call_id": call_id,
                                       "output": f"Script running with cell ID {running}\nWall time 10.0 seconds\n"
                                                 "Output:\n"})
    items = [{"type": "input_text", "text": "Script completed\nWall time 0.2 seconds\nOutput:\n"},
             *({"type": "input_text", "text": part} for part in parts)]
    return codex("response_item", {"type": "custom_tool_call_output", "call_id": call_id, "output": items})


def exec_cell(command: str, *, exit_code: bool = False, session: bool = False) -> str:
    source = (f"const r = await tools.exec_command({{cmd:{json.dumps(command)},\"workdir\":\"/repo\","
              "\"yield_time_ms\":1000}); text(r.output);")
    if exit_code:
        source += " text(`exit:${r.exit_code}`);"
    if session:
        source += " if(r.session_id) text(`SESSION_ID=${r.session_id}`);"
    return source


def test_codex_code_mode_cells_are_calls_with_the_commands_they_run(tmp_path: Path) -> None:
    """Each tool a JavaScript cell calls is a call; an exit code the cell prints itself is the exit code."""
    patch = "*** Begin Patch\n*** Update File: /repo/src/a.rs\n@@\n-x\n+y\n*** End Patch"
    path = write_jsonl(tmp_path / "cells.jsonl", [
        codex("session_meta", {"id": "s", "cwd": "/repo"}),
        cell("k1", exec_cell("cargo fmt --all -- --check", exit_code=True)),
        cell_output("k1", "Diff in /repo/src/a.rs:3:\n-x\n+y\n", "exit:1"),
        cell("k2", f"const patch = {json.dumps(patch)};\ntext(await tools.apply_patch(patch));\n"),
        cell_output("k2", "{}"),
        cell("k3", exec_cell("cargo fmt --all -- --check", exit_code=True)),
        cell_output("k3", "", "exit:0"),
    ])
    tracker, events = replay(path)
    dispatched = [(e.tool, e.arguments.get("cmd") or e.arguments.get("input", "")[:16]) for e in events
                  if isinstance(e, ToolDispatched)]
    assert dispatched == [("exec_command", "cargo fmt --all -- --check"), ("apply_patch", "*** Begin Patch\n"),
                          ("exec_command", "cargo fmt --all -- --check")]
    assert [results(events)[call].exit_code for call in ("k1", "k3")] == [1, 0]
    assert [(item.check, item.state) for item in tracker.all_items()] == [("cargo fmt --all -- --check", "resolved")]


def test_codex_code_mode_results_arriving_through_wait_and_polls(tmp_path: Path) -> None:
    """A cell still running answers through `wait`; a command still running completes through its session's polls."""
    path = write_jsonl(tmp_path / "waits.jsonl", [
        codex("session_meta", {"id": "s", "cwd": "/repo"}),
        cell("k1", exec_cell("cargo test structured_argv", session=True)),
        cell_output("k1", running="21"),
        codex_call("w1", "wait", {"cell_id": "21", "yield_time_ms": 1000}),
        cell_output("w1", running="21"),
        codex_call("w2", "wait", {"cell_id": "21", "yield_time_ms": 1000}),
        codex_output("w2", [{"type": "input_text", "text": "Script completed\nWall time 0.1 seconds\nOutput:\n"},
                            {"type": "input_text", "text": "   Compiling hk v1.50.0\n"},
                            {"type": "input_text", "text": "SESSION_ID=69860"}]),
        cell("k2", "const r = await tools.write_stdin({session_id:69860,chars:\"\",yield_time_ms:1000}); "
                   "text(r.output); if(r.session_id) text(`SESSION_ID=${r.session_id}`); "
                   "else text(`EXIT_CODE=${r.exit_code}`);"),
        cell_output("k2", "error[E0432]: unresolved import `crate::step::RenderedCommand`\n", "EXIT_CODE=101"),
    ])
    tracker, events = replay(path)
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["k1"]  # neither wait nor poll is a call
    (done,) = [e for e in events if isinstance(e, ToolCompleted)]
    assert done.call_id == "k1" and done.exit_code == 101 and "E0432" in (done.output or "")
    assert [(item.check, item.state) for item in tracker.all_items()] == [("cargo test structured_argv", "open")]


def test_codex_code_mode_without_an_exit_code_is_never_a_pass(tmp_path: Path) -> None:
    """Code mode records no exit codes: a failure shows in the output, a pass without one never counts."""
    path = write_jsonl(tmp_path / "exitless.jsonl", [
        codex("session_meta", {"id": "s", "cwd": "/repo"}),
        cell("k1", exec_cell("cargo test -q parser")), cell_output("k1", "test result: FAILED. 1 passed; 1 failed"),
        cell("k2", exec_cell("cargo test -q parser")), cell_output("k2", "test result: ok. 2 passed"),
    ])
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [results(events)[call].exit_code for call in ("k1", "k2")] == [None, None]
    assert transcript.report.no_exit_code == 2
    tracker, _ = replay(path)
    (item,) = tracker.all_items()
    assert item.state == "open" and item.last_attempt is not None and "no exit code" in item.last_attempt.reason


# -- Pi -----------------------------------------------------------------------------------------------


def test_pi_tool_calls_in_an_aborted_or_failed_message_never_ran(tmp_path: Path) -> None:
    """Pi returns before running the tool calls of an `aborted` or `error` message: they are not in flight
    forever, so a later genuine pass witnesses."""
    call = {"type": "toolCall", "id": "x1", "name": "bash", "arguments": {"command": "touch src/a.py"}}
    path = write_jsonl(tmp_path / "pi.jsonl", [
        pi_header(),
        pi("u1", None, pi_user("fix the tests")),
        pi("a1", "u1", {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "bash",
                                                         "arguments": {"command": "npm test"}}],
                        "stopReason": "toolUse"}),
        pi("r1", "a1", pi_result("c1", "1 failed\n\nCommand exited with code 1", True)),
        pi("a2", "r1", {"role": "assistant", "content": [call], "stopReason": "aborted"}),
        pi("a3", "a2", {"role": "assistant", "content": [{**call, "id": "x2"}], "stopReason": "error",
                        "errorMessage": "500: Internal server error"}),
        pi("a4", "a3", {"role": "assistant", "content": [{"type": "toolCall", "id": "c2", "name": "bash",
                                                         "arguments": {"command": "npm test"}}],
                        "stopReason": "toolUse"}),
        pi("r2", "a4", pi_result("c2", "5 passed", False)),
    ])
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["c1", "c2"]
    assert transcript.report.never_ran == 2
    tracker, _ = replay(path)
    assert [(item.check, item.state) for item in tracker.all_items()] == [("npm test", "resolved")]

