"""``witness hook claude-code|codex``: the hosts' hook protocol, JSON on stdin.

On ``Stop`` and ``SubagentStop`` the session is replayed from its transcript; while obligations
are open the hook answers ``{"decision": "block", "reason": …}``, naming each open check and what
closes it, at most ``WITNESS_STOP_BLOCKS`` (default 3) times per task so an agent is never held
forever. Every other event is accepted at once, without replaying anything.

Exit status 2 means "block" to these hosts, so this hook never exits 2: usage errors, unreadable
payloads or transcripts and internal errors all allow the stop (exit 0) with a message on
standard error.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._home import witness_home

if TYPE_CHECKING:
    from obligations import Event

HOSTS = ("claude-code", "codex")
DEFAULT_BLOCKS = 3
_STOP_EVENTS = ("Stop", "SubagentStop")


def state_dir() -> Path:
    """Where witness keeps state between hook calls (see :func:`advisor._home.witness_home`)."""
    return witness_home()


def run_hook(host: str, raw: bytes, err: Any = sys.stderr) -> str:
    """Answer one hook call: the JSON to print (empty to allow silently). Never raises."""
    try:
        return _answer(host, raw, err)
    except Exception as error:  # fail open: exit 2 would block the agent for our bug
        err.write(f"witness hook: internal error ({type(error).__name__}: {error}); allowing\n")
        return ""


def _answer(host: str, raw: bytes, err: Any) -> str:
    if host not in HOSTS:
        err.write(f"witness hook: unknown host {host!r} (expected {' or '.join(HOSTS)}); allowing\n")
        return ""
    try:
        payload = json.loads(raw or b"{}")
    except ValueError as error:
        err.write(f"witness hook: the hook input is not JSON ({error}); allowing\n")
        return ""
    if not isinstance(payload, dict):
        err.write("witness hook: the hook input is not a JSON object; allowing\n")
        return ""
    event = payload.get("hook_event_name")
    if event not in _STOP_EVENTS:
        return ""  # PostToolUse, PostToolUseFailure, …: accepted; the Stop hook replays the transcript
    transcript = payload.get("agent_transcript_path") if event == "SubagentStop" else None
    transcript = transcript or payload.get("transcript_path")
    if not transcript:
        err.write("witness hook: no transcript_path in the hook input; cannot check obligations, allowing\n")
        return ""
    return _stop(host, payload, str(transcript), err)


def _stop(host: str, payload: dict[str, Any], transcript: str, err: Any) -> str:
    from obligations import AssistantMessage, Tracker, TrackerConfig
    from obligations.sources import NotATranscript, open_transcript

    policy = os.environ.get("WITNESS_POLICY", "seed")
    tracker = Tracker(TrackerConfig(policy=policy if policy in ("seed", "strict") else "seed"))
    try:
        source = open_transcript(transcript)
        events = source.events()
        if payload.get("hook_event_name") == "SubagentStop" and payload.get("agent_transcript_path"):
            events = _as_root(events)
        tracker.handle_many(events)
    except NotATranscript as error:
        err.write(f"witness hook: cannot read the transcript ({error}); allowing\n")
        return ""
    if source.report.error:
        # What follows the break may have closed what looks open: do not hold the agent on a guess.
        err.write(f"witness hook: the transcript could not be read to its end ({source.report.error}); allowing\n")
        return ""
    last = payload.get("last_assistant_message")
    if isinstance(last, str) and last:
        tracker.handle(AssistantMessage(text=last))  # the transcript can lag the hook
    root = next((a for a in tracker.agents.values() if a.root == a.id and a.task), None)
    open_items = tracker.open_items(root.id if root else None)
    if not open_items:
        return ""
    session = str(payload.get("session_id") or Path(transcript).stem)
    task = f"{root.id}:{root.task}" if root else "-"
    limit = _blocks_allowed()
    try:
        blocks = _count_block(host, session, task, limit)
    except OSError as error:
        # Without our own counter the host's flag is the only guard against holding the agent
        # forever: block a first stop, never a stop that already continues after a block.
        continuing = bool(payload.get("stop_hook_active"))
        err.write(f"witness hook: cannot keep the block count in {state_dir()} ({error}); "
                  f"{'allowing a stop that already follows a block' if continuing else 'blocking once'}\n")
        limit = min(limit, 1)
        blocks = None if continuing or limit == 0 else 1
    listing = "\n".join(f"- `{item.check or item.claim_id}`: {item.summary}\n  closes only through: {item.closes_by}"
                        for item in open_items)
    if blocks is None:
        message = (f"witness: stopping with {len(open_items)} unresolved verification obligation(s) after "
                   f"{limit} reminder(s) this task:\n{listing}")
        return json.dumps({"systemMessage": message})
    reason = (f"Verification obligations are open (witness reminder {blocks} of {limit}; not a permanent block). "
              "These checks failed and have not been genuinely re-run since:\n"
              f"{listing}\nRe-run each check so its own exit status counts (no `|| true`, `; echo`, `| grep`), "
              "or say plainly in your answer that it is still failing.")
    return json.dumps({"decision": "block", "reason": reason})


def _as_root(events: Iterator[Event]) -> Iterator[Event]:
    """A sub-agent's own transcript, read as if the sub-agent were the root agent.

    Obligations belong to root agents; when a sub-agent is about to stop, its own checks are
    the ones it must not leave unverified."""
    from obligations import AgentSpawned

    agent: str | None = None
    for event in events:
        if isinstance(event, AgentSpawned) and agent is None and event.role == "local-subagent":
            agent = event.agent_id
            continue
        if agent is not None and event.agent_id == agent:
            event.agent_id = "root"
        yield event


def _blocks_allowed() -> int:
    try:
        return max(0, int(os.environ.get("WITNESS_STOP_BLOCKS", DEFAULT_BLOCKS)))
    except ValueError:
        return DEFAULT_BLOCKS


def _count_block(host: str, session: str, task: str, limit: int) -> int | None:
    """Count one more block for this session's task; ``None`` once ``limit`` is reached."""
    folder = state_dir() / "hooks"
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{host}-{session}")[:200]
    path = folder / f"{safe}.json"
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        state = {}
    count = state.get("blocks", 0) if state.get("task") == task else 0
    if count >= limit:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=folder, delete=False, suffix=".tmp") as handle:
        json.dump({"task": task, "blocks": count + 1}, handle)
    os.replace(handle.name, path)  # atomic: hooks of one host may run concurrently
    return count + 1
