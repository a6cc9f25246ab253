"""What the advisor tests share: the installed `witness` as a real process, example sessions, and a disk fault."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from obligations.sources._lines import LineSource
from tests.obligations.transcript_files import codex, codex_patch, codex_run, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
WITNESS = str(Path(sys.executable).with_name("witness"))
EXAMPLE = ROOT / "examples" / "session.jsonl"
"""The README's session: `npm test` fails, a masked re-run; `npm run lint` fails, a genuine re-run."""
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"


def witness(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
            cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    """The installed `witness` script, run as a process."""
    return subprocess.run([WITNESS, *args], input=stdin, capture_output=True, timeout=120, cwd=cwd,
                          env={**os.environ, **(env or {})})


def codex_rollout(path: Path, passes: bool) -> Path:
    """A Codex rollout: `npm test` fails, the agent edits, then re-runs it (passing or masked)."""
    return write_jsonl(path, [
        codex("session_meta", {"id": "thread-7", "cwd": "/repo", "originator": "codex_cli_rs",
                               "cli_version": "0.139.0", "source": "cli"}),
        codex("turn_context", {"turn_id": "t1", "cwd": "/repo", "approval_policy": "on-request"}),
        codex("event_msg", {"type": "user_message", "message": "make the tests pass"}),
        *codex_run("c1", "npm test", 1, "Tests:  1 failed, 2 passed, 3 total"),
        *codex_patch("c2", "src/a.ts"),
        *codex_run("c3", "npm test" if passes else "npm test || true", 0, "Tests:  3 passed, 3 total"),
    ])


def append_jsonl(path: Path, entries: list[dict[str, Any]]) -> None:
    """Add entries to a JSONL file, one per line."""
    path.write_text(path.read_text() + "".join(json.dumps(entry) + "\n" for entry in entries))


def disk_fault_after(monkeypatch: pytest.MonkeyPatch, lines: int) -> None:
    """Make every transcript read fail with EIO after ``lines`` lines: a disk fault cannot be produced here."""
    real = LineSource.__iter__

    def failing(source: LineSource) -> Any:
        for number, raw, ended in real(source):
            if number > lines:
                raise OSError(5, "Input/output error")
            yield number, raw, ended

    monkeypatch.setattr(LineSource, "__iter__", failing)
