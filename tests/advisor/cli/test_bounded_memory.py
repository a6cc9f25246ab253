"""Memory is bounded by design: no path holds more than one line (capped) and bounded state. A transcript with
a 1 GiB line (a pasted image's base64, say) is audited and judged at Stop by processes whose address space is
limited to 256 MB — the line skipped and counted, the rest read as without it."""

from __future__ import annotations

import json
import os
import resource
import subprocess
from pathlib import Path

import pytest

from tests.advisor.sessions import EXAMPLE, WITNESS

LIMIT = 256 * 1024 * 1024
"""The address space each process may use."""
HUGE = 1024**3
"""The length of the one huge line."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def huge_session(path: Path) -> Path:
    """The example session (its `npm test` failed and is open), then a prompt of 1 GiB, written sparse: the file
    takes a few kilobytes of disk. The prompt is a user entry without a tool result, the kind the rewind scan
    reads."""
    lines = EXAMPLE.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    prompt = {key: value for key, value in last.items() if key != "toolUseResult"}
    prompt |= {"type": "user", "parentUuid": last["uuid"], "uuid": "huge-prompt",
               "message": {"role": "user", "content": "@"}}
    before, after = json.dumps(prompt).split('"@"')
    with path.open("wb") as out:
        out.writelines(lines)
        out.write(f'{before}"'.encode())
        out.seek(out.tell() + HUGE)
        out.write(f'"{after}\n'.encode())
    return path


def run(args: list[str], home: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WITNESS, *args], input=stdin.decode() if stdin else None, capture_output=True, text=True,
                          timeout=600, preexec_fn=_limited, env={**os.environ, "WITNESS_HOME": str(home)})


@pytest.mark.slow
def test_audit_and_the_stop_hook_read_a_1_gib_line_in_256_mb(tmp_path: Path) -> None:
    """`witness audit` and `witness hook claude-code` (Stop) on a session with a 1 GiB line, each limited to 256 MB
    of address space: the audit reports the open `npm test` and the line skipped as too long; the hook blocks on
    the same check — no MemoryError, no traceback."""
    path = huge_session(tmp_path / "huge.jsonl")
    audited = run(["audit", str(path)], tmp_path / "home")
    assert audited.returncode == 1, audited.stderr
    assert "OPEN: `npm test`" in audited.stdout and "Traceback" not in audited.stderr
    assert "skipped 1 unreadable line(s) — line 16: longer than 67108864 bytes; not read" in audited.stdout
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "huge", "transcript_path": str(path)}).encode()
    stopped = run(["hook", "claude-code"], tmp_path / "home", payload)
    assert stopped.returncode == 0 and stopped.stderr == ""
    assert json.loads(stopped.stdout)["decision"] == "block" and "`npm test`" in stopped.stdout
