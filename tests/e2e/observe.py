"""Reading what a host run left: the Stop-hook feedback it recorded, and witness's audit of it.

witness is driven only through its command line (``witness audit --json``), as a user would.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.host_base import HostRun
from tests.e2e.sandbox import WITNESS

CLAUDE_FEEDBACK = "Stop hook feedback:\n"
"""How Claude Code opens the ``isMeta`` user entry that records a Stop/SubagentStop hook's block."""
CODEX_FEEDBACK = "<hook_prompt"
"""How Codex opens the user message that records a Stop hook's continuation prompt."""


def jsonl(path: Path) -> list[dict[str, Any]]:
    """A transcript's entries (lines that are not JSON are left out)."""
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            continue
    return entries


def stop_feedback(path: Path) -> list[str]:
    """The Stop-hook feedback a transcript records, in order: each block's reason as the host wrote it."""
    found = []
    for entry in jsonl(path):
        text = _claude_feedback(entry) if "uuid" in entry else _codex_feedback(entry)
        if text is not None:
            found.append(text)
    return found


def _claude_feedback(entry: dict[str, Any]) -> str | None:
    content = (entry.get("message") or {}).get("content")
    if entry.get("type") == "user" and isinstance(content, str) and content.startswith(CLAUDE_FEEDBACK):
        return content
    return None


def _codex_feedback(entry: dict[str, Any]) -> str | None:
    payload = entry.get("payload") or {}
    if entry.get("type") != "response_item" or payload.get("type") != "message" or payload.get("role") != "user":
        return None
    text = "".join(part.get("text", "") for part in payload.get("content") or () if isinstance(part, dict))
    return text if text.startswith(CODEX_FEEDBACK) else None


@dataclass(frozen=True)
class Audit:
    """``witness audit --json`` of some transcripts."""

    exit_code: int
    report: dict[str, Any]

    def checks(self, state: str) -> list[str]:
        """The checks listed under ``state`` (``open``, ``earlier``, ``resolved``) in every session."""
        return [item["check"] for session in self.report["sessions"] for item in session.get(state) or ()]

    def session(self, path: Path) -> dict[str, Any]:
        """The report of one transcript."""
        found: list[dict[str, Any]] = [s for s in self.report["sessions"] if Path(s["path"]) == path]
        assert len(found) == 1, f"{path} is not among the audited sessions"
        return found[0]


def audit(*paths: Path) -> Audit:
    """Audit transcripts with the ``witness`` command line."""
    result = subprocess.run([str(WITNESS), "audit", "--json", *map(str, paths)], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode in (0, 1), f"witness audit exited {result.returncode}: {result.stderr}"
    return Audit(result.returncode, json.loads(result.stdout))


def stop_payloads(run: HostRun, event: str = "Stop") -> list[dict[str, Any]]:
    """The payloads the recording hook received for ``event``, in order."""
    return [call["payload"] for call in run.hook_calls() if call["payload"].get("hook_event_name") == event]
