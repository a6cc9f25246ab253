"""Sessions for the hook tests, cut from transcripts the real Claude Code wrote (``tests/fixtures/hosts``)
at the moment a host calls its Stop or SubagentStop hook."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.advisor.sessions import ROOT, witness

HOSTS = ROOT / "tests" / "fixtures" / "hosts"
CLEAN = HOSTS / "claude-code-subagent-clean"
"""The main agent's `npm test` fails; it delegates `ls` to a sub-agent; then fixes and re-runs."""
OWN_FAILURE = HOSTS / "claude-code-subagent-own-failure"
"""The main agent delegates; the sub-agent's `npm test` fails, it is reminded, fixes and re-runs."""


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def main_file(folder: Path) -> Path:
    (path,) = folder.glob("*.jsonl")
    return path


def agent_file(folder: Path) -> Path:
    (path,) = folder.glob("*/subagents/agent-*.jsonl")
    return path


def agent_id(folder: Path) -> str:
    return agent_file(folder).stem.removeprefix("agent-")


def until(entries: list[str], marker: str) -> list[str]:
    """The lines before the first that holds ``marker``."""
    for index, line in enumerate(entries):
        if marker in line:
            return entries[:index]
    raise AssertionError(f"{marker!r} is not in the transcript")


def parent_while_delegating(tmp_path: Path) -> Path:
    """The clean session's main transcript while its sub-agent works: its own `npm test` failed, open."""
    path = tmp_path / "parent.jsonl"
    path.write_text("".join(until(lines(main_file(CLEAN)), "[Subagent hand-back]")), encoding="utf-8")
    return path


def worker_failing(tmp_path: Path) -> Path:
    """The own-failure sub-agent's transcript at its first stop: its `npm test` failed, never re-run."""
    path = tmp_path / "worker.jsonl"
    path.write_text("".join(until(lines(agent_file(OWN_FAILURE)), "Stop hook feedback")), encoding="utf-8")
    return path


def hook(payload: dict[str, Any], home: Path, **env: str) -> tuple[int, dict[str, Any] | None, str]:
    """Run `witness hook claude-code` on ``payload``: exit status, the parsed answer (or None), stderr."""
    done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(home), **env})
    out = done.stdout.decode().strip()
    return done.returncode, json.loads(out) if out else None, done.stderr.decode()


def stop(transcript: Path, session: str = "s-1", **extra: Any) -> dict[str, Any]:
    return {"hook_event_name": "Stop", "session_id": session, "transcript_path": str(transcript),
            "stop_hook_active": False, **extra}


def subagent_stop(parent: Path, agent: str, own: Path | None, session: str = "s-1", **extra: Any) -> dict[str, Any]:
    payload = {"hook_event_name": "SubagentStop", "session_id": session, "transcript_path": str(parent),
               "agent_id": agent, "agent_type": "general-purpose", "stop_hook_active": False, **extra}
    if own is not None:
        payload["agent_transcript_path"] = str(own)
    return payload


def decision(answer: dict[str, Any] | None) -> str:
    """``block``, ``release`` (a systemMessage) or ``allow`` (no answer)."""
    if answer is None:
        return "allow"
    return "block" if answer.get("decision") == "block" else "release"
