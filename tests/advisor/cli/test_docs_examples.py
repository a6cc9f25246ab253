"""The documentation's worked examples on the shipped example session are what witness prints today: the audit
report in cli.md, the reason an agent is shown in hooks.md, and the packet's obligations in advisor-host.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.advisor.sessions import ROOT, witness

DOCS = ROOT / "docs"


def block_after(page: str, opening: str, fence: str) -> str:
    """The fenced block of ``page`` (a docs file) of kind ``fence`` whose text starts with ``opening``."""
    text = (DOCS / page).read_text(encoding="utf-8")
    for found in re.finditer(rf"```{fence}\n(.*?)```", text, re.S):
        if found.group(1).startswith(opening):
            return found.group(1)
    raise AssertionError(f"no {fence} block starting {opening!r} in {page}")


def test_the_audit_example_in_cli_md_is_the_output(tmp_path: Path) -> None:
    """`witness audit examples/session.jsonl` prints exactly the report cli.md shows."""
    block = block_after("cli.md", "$ witness audit examples/session.jsonl\n", "console")
    shown = block.split("\n", 1)[1]
    done = witness("audit", "examples/session.jsonl", cwd=ROOT, env={"WITNESS_HOME": str(tmp_path)})
    assert done.stdout.decode() == shown


def test_the_reason_in_hooks_md_is_the_one_given(tmp_path: Path) -> None:
    """The Stop hook's reason on the example session is the text hooks.md shows the agent (wrapped there), and
    the answer "Trying it by hand" shows starts as the real one."""
    payload = {"hook_event_name": "Stop", "session_id": "demo", "transcript_path": "examples/session.jsonl"}
    done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), cwd=ROOT,
                   env={"WITNESS_HOME": str(tmp_path)})
    answer = done.stdout.decode()
    reason = json.loads(answer)["reason"]
    shown = block_after("hooks.md", "Stop hook feedback:\n", "text").split("\n", 1)[1]
    assert " ".join(shown.split()) == " ".join(reason.split())
    by_hand = block_after("hooks.md", "$ echo '{\"hook_event_name\"", "console").splitlines()[2]
    assert answer.startswith(by_hand.split("…")[0])


def test_the_packet_example_in_advisor_host_md_is_the_packet(tmp_path: Path) -> None:
    """`witness packet examples/session.jsonl --json` holds the summary, obligations and truncation the docs show."""
    block = block_after("advisor-host.md", "$ witness packet examples/session.jsonl --json", "console")
    shown = json.loads(block.split("\n", 1)[1])
    done = witness("packet", "examples/session.jsonl", "--json", cwd=ROOT, env={"WITNESS_HOME": str(tmp_path)})
    packet = json.loads(done.stdout)
    assert {key: packet[key] for key in shown} == shown
