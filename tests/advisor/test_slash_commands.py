"""A Claude Code session whose task was given as a slash command (`/init-app create TODO app by Next.js`):
the command and its arguments are the user's words in the advisor's ledger, in a host's case packet,
and a task boundary in the audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.ledger import read_ledger
from advisor.orchestration import AdvisorHost, RunLog, feed_session
from obligations import audit
from obligations.sources import open_transcript
from tests.obligations.test_sources_formats import bash, claude, result
from tests.obligations.transcript_files import write_jsonl

TASK = "/init-app create TODO app by Next.js"


def session(tmp_path: Path) -> Path:
    """A check fails under a first task; then the user gives a second task as a slash command."""
    entries: list[dict[str, Any]] = [
        claude("user", [{"type": "text", "text": "fix the build"}]),
        bash("t1", "npm test"), result("t1", "Exit code 1\n1 failed", True),
        claude("user", "<command-message>init-app</command-message>\n<command-name>/init-app</command-name>\n"
                       "<command-args>create TODO app by Next.js</command-args>"),
        claude("user", [{"type": "text", "text": "# Init app\nScaffold what the user names."}], isMeta=True),
        bash("t2", "npx create-next-app todo"), result("t2", "Success!", False),
    ]
    return write_jsonl(tmp_path / "s.jsonl", entries)


def test_the_ledger_shows_the_command_as_the_users_words(tmp_path: Path) -> None:
    """The advisor reads `[user] /init-app create TODO app by Next.js`, and not the command's expanded prompt."""
    prompt = read_ledger(session(tmp_path)).ledger.prompt(question="Done?")
    text = "\n".join(message.text for message in prompt.messages)
    assert f"[user] {TASK}" in text and "Scaffold what the user names" not in text


def test_a_hosts_packet_holds_the_command(tmp_path: Path) -> None:
    """Replayed into a host, the command is the current task's user message in its case packet."""
    host = AdvisorHost(None, workspace=tmp_path, log=False, run_log=RunLog(tmp_path))
    feed_session(host, open_transcript(session(tmp_path)).events())
    assert TASK in host.packet("root").text


def test_the_audit_counts_the_command_as_a_new_task(tmp_path: Path) -> None:
    """The failed `npm test` of the first task is reported as left unresolved by an earlier task: the command
    began a new one."""
    report = audit(session(tmp_path))
    assert [item.check for item in report.earlier] == ["npm test"] and not report.open
