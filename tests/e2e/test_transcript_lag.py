"""A Stop hook reading a transcript that lags the host.

Claude Code 2.1.332 was measured to call its Stop hook only after the last tool result and the
final text are in the transcript (``test_claude_code_host``); older versions did not, and a host
may still leave the file behind its hooks. Here the hook gets a real Claude Code transcript cut
where the host could leave it — the failed check dispatched, its result not yet written — and the
rest arrives shortly after, as the host's write catches up.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import play
from tests.e2e.host_base import Hooks
from tests.e2e.host_claude import ClaudeCode, main_transcript
from tests.e2e.observe import stop_payloads
from tests.e2e.sandbox import WITNESS, Sandbox
from tests.support.model_server import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CATCH_UP = 1.5
"""Seconds after the hook starts at which the rest of the transcript is written: long after
today's hook has read the file and answered (a quarter of a second), well inside a bounded wait of
a few seconds and the hosts' hook timeouts (30-60 s)."""


def cut_before_result(lines: list[str]) -> int:
    """The index of the first line holding a tool result: the transcript as it stood before the host wrote it."""
    for index, line in enumerate(lines):
        content = json.loads(line).get("message", {}).get("content")
        if isinstance(content, list) and any(part.get("type") == "tool_result" for part in content):
            return index
    raise AssertionError("no tool result in the transcript")


def test_stop_hook_waits_for_a_lagging_transcript(claude: ClaudeCode, sandbox: Sandbox,
                                                  model_server: ModelServer, tmp_path: Path) -> None:
    """The hook waits (briefly) for the dispatched check's result and blocks on the failure, instead of letting go."""
    played = play(claude, "cap_holds", sandbox, model_server, Hooks.recording("Stop"))
    (payload,) = stop_payloads(played.run)
    lines = main_transcript(played.run).read_text(encoding="utf-8").splitlines(keepends=True)
    cut = cut_before_result(lines)
    lagging = tmp_path / "lagging.jsonl"
    lagging.write_text("".join(lines[:cut]), encoding="utf-8")

    stdin = json.dumps({**payload, "transcript_path": str(lagging)})
    env = {**sandbox.env(), "WITNESS_HOME": str(tmp_path / "w")}
    with subprocess.Popen([str(WITNESS), "hook", "claude-code"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env) as hook:
        assert hook.stdin is not None
        hook.stdin.write(stdin)
        hook.stdin.close()
        started = time.monotonic()
        while hook.poll() is None and time.monotonic() - started < CATCH_UP:
            time.sleep(0.01)
        with lagging.open("a", encoding="utf-8") as out:
            out.write("".join(lines[cut:]))
        hook.wait(timeout=60)
        assert hook.stdout is not None and hook.stderr is not None
        out_text, err_text = hook.stdout.read(), hook.stderr.read()
    assert hook.returncode == 0, err_text
    assert json.loads(out_text or "{}").get("decision") == "block", out_text
