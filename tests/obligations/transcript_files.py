"""Helpers shared by the transcript-reader tests: write a JSONL file, read it back as events, replay it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from obligations import ToolCompleted, Tracker
from obligations.sources import open_transcript

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
"""The real transcripts shipped with the tests (see their README for attribution)."""
ALL = sorted(FIXTURES.glob("*/*.jsonl"))
EACH_FIXTURE = pytest.mark.parametrize("path", ALL, ids=lambda path: f"{path.parent.name}/{path.name}")
"""Run a test once per shipped transcript (its ``path`` argument)."""


def write_jsonl(path: Path, entries: list[dict[str, Any]]) -> Path:
    """Write one JSON document per line and return the path."""
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    return path


def read(path: Path) -> list[Any]:
    """Every event the reader makes of the file, in order."""
    return list(open_transcript(path).events())


def replay(path: Path) -> tuple[Tracker, list[Any]]:
    """A fresh tracker that has handled every event of the file, and those events."""
    tracker = Tracker()
    events = read(path)
    for event in events:
        tracker.handle(event)
    return tracker, events


def results(events: list[Any]) -> dict[str, ToolCompleted]:
    """The completions among the events, by call id."""
    return {event.call_id: event for event in events if isinstance(event, ToolCompleted)}


# -- Codex rollout entries -----------------------------------------------------------------------


def codex(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """One rollout line: ``{timestamp, type, payload}``."""
    return {"timestamp": "2026-06-10T18:43:04.714Z", "type": kind, "payload": payload}


def codex_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A ``function_call`` of tool ``name``."""
    return codex("response_item", {"type": "function_call", "name": name, "arguments": json.dumps(arguments),
                                   "call_id": call_id})


def codex_output(call_id: str, text: Any) -> dict[str, Any]:
    """The ``function_call_output`` the model sees."""
    return codex("response_item", {"type": "function_call_output", "call_id": call_id, "output": text})


def codex_exec_end(call_id: str, exit_code: int, text: str = "", **extra: Any) -> dict[str, Any]:
    """The ``exec_command_end`` event that carries the exit code."""
    return codex("event_msg", {"type": "exec_command_end", "call_id": call_id, "exit_code": exit_code,
                               "aggregated_output": text, "stdout": "", "stderr": "", **extra})


def codex_patch(call_id: str, path: str) -> list[dict[str, Any]]:
    """An ``apply_patch`` call that updates ``path``, and its result."""
    patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-x\n+y\n*** End Patch"
    return [codex("response_item", {"type": "custom_tool_call", "status": "completed", "name": "apply_patch",
                                    "call_id": call_id, "input": patch}),
            codex("response_item", {"type": "custom_tool_call_output", "call_id": call_id,
                                    "output": f"Exit code: 0\nOutput:\nSuccess. Updated:\nM {path}"})]


def codex_run(call_id: str, command: str, exit_code: int, text: str) -> list[dict[str, Any]]:
    """An ``exec_command`` call of ``command``: the call, its end event, and the output the model sees."""
    return [codex_call(call_id, "exec_command", {"cmd": command}), codex_exec_end(call_id, exit_code, text),
            codex_output(call_id, f"Process exited with code {exit_code}\nOutput:\n{text}")]


def codex_worker_rollout(path: Path, command: str, failures: int) -> Path:
    """A sub-agent's own rollout (``source: {subagent: …}``, agent ``worker-1`` in ``/repo``) in which
    ``command`` fails ``failures`` times and is never re-run."""
    runs = [entry for n in range(failures) for entry in codex_run(f"c{n}", command, 1, "npm error code 2")]
    return write_jsonl(path, [
        codex("session_meta", {"id": "worker-1", "cwd": "/repo",
                               "source": {"subagent": {"thread_spawn": {"parent_thread_id": "root-thread"}}}}),
        codex("response_item", {"type": "message", "role": "user",
                                "content": [{"type": "input_text", "text": "fix the build"}]}),
        *runs,
    ])
