"""Factory Droid and Qwen Code speak Claude Code's hook protocol (their hooks references; Droid 0.225.2 and Qwen
Code 0.24.4 take `decision: block` with a `reason` at Stop), so `witness install droid|qwen` writes `witness hook
claude-code`: that hook, given their Stop payload, reads their own session files and holds a stop after a failed
check. (The payloads are built from the documented schema: neither host can be pointed at a local model server
here.)"""

from __future__ import annotations

import io
import json
from pathlib import Path

from advisor.hosts import answer_hook
from tests.obligations.transcript_files import write_jsonl


def _session(path: Path, *, fixed: bool) -> Path:
    def message(ident: str, role: str, content: list[dict[str, object]]) -> dict[str, object]:
        return {"type": "message", "id": ident, "timestamp": f"2026-11-02T10:00:0{ident[1]}.000Z",
                "message": {"role": role, "content": content}}

    def run(ident: str, code: int) -> list[dict[str, object]]:
        text = ("3 passed" if code == 0 else "Command failed (exit code: 1)\n1 failed") + \
            f"\n[Process exited with code {code}]"
        return [message(f"a{ident}", "assistant", [{"type": "tool_use", "id": f"c{ident}", "name": "Execute",
                                                    "input": {"command": "pytest -q"}}]),
                message(f"u{ident}", "user", [{"type": "tool_result", "tool_use_id": f"c{ident}", "content": text,
                                               "is_error": code != 0}])]

    start: dict[str, object] = {"type": "session_start", "id": "d-1", "title": "t", "owner": "dev", "cwd": "/repo"}
    lines: list[dict[str, object]] = [start, message("p0", "user", [{"type": "text", "text": "make the tests pass"}]),
                                      *run("1", 1)]
    return write_jsonl(path, lines + (run("2", 0) if fixed else []))


def _stop(transcript: Path) -> str:
    payload = {"session_id": "d-1", "transcript_path": str(transcript), "cwd": "/repo", "permission_mode": "auto",
               "hook_event_name": "Stop", "stop_hook_active": False}
    return answer_hook("claude-code", json.dumps(payload).encode(), io.StringIO())


def test_a_droid_stop_after_a_failed_check_is_held(tmp_path: Path) -> None:
    """A Droid session whose `pytest -q` exited 1 and was never re-run is blocked with the check named."""
    answer = json.loads(_stop(_session(tmp_path / "s.jsonl", fixed=False)))
    assert answer["decision"] == "block" and "`pytest -q`" in answer["reason"]


def test_a_droid_stop_after_a_genuine_rerun_is_let_go(tmp_path: Path) -> None:
    """The same session with a passing re-run is let stop (no answer)."""
    assert _stop(_session(tmp_path / "s.jsonl", fixed=True)) == ""


def test_a_qwen_code_stop_after_a_failed_check_is_held(tmp_path: Path) -> None:
    """Qwen Code's Stop payload is Claude Code's too (`witness install qwen` writes the same hook): a Qwen Code
    recording whose `pytest -q` exited 1 is held."""
    from tests.obligations.test_sources_qwen import Chain

    chain = Chain()
    path = write_jsonl(tmp_path / "q.jsonl", [chain.user("fix it"), *chain.run("c1", "pytest -q", "1 failed", 1)])
    answer = json.loads(_stop(path))
    assert answer["decision"] == "block" and "`pytest -q`" in answer["reason"]
