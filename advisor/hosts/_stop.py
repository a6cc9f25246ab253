"""``Stop`` and ``SubagentStop``: replay the session from its transcript, and hold the agent while a
check it ran failed and was never genuinely re-run — a few times per task at most.

Every way this can go wrong allows the stop, with a message on standard error: an unreadable
transcript, one that cannot be read to its end (what follows the break may have closed what
looks open), or a block count that cannot be kept (then the host's ``stop_hook_active`` is the
only guard: a first stop is blocked once, a stop that already follows a block is let go).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from obligations import (
    AgentSpawned,
    AssistantMessage,
    Event,
    Item,
    NotATranscript,
    Tracker,
    TrackerConfig,
    block_reason,
    release_message,
)
from obligations.sources import open_transcript

from . import _settings
from ._answers import StopAnswer, StopBlock, StopRelease
from ._blocks import BlockCounter, state_dir
from ._payloads import StopInput


def answer_stop(host: str, raw: dict[str, Any], err: TextIO) -> StopAnswer | None:
    """The answer to one Stop or SubagentStop call (``None``: allow silently)."""
    payload = StopInput.model_validate(raw)
    transcript = payload.transcript
    if not transcript:
        err.write("witness hook: no transcript_path in the hook input; cannot check obligations, allowing\n")
        return None
    tracker = replay(payload, transcript, err)
    if tracker is None:
        return None
    root = next((agent for agent in tracker.root_agents() if agent.task), None)
    open_items = tracker.open_items(root.id if root else None)
    if not open_items:
        return None
    session = payload.session_id or Path(transcript).stem
    task = f"{root.id}:{root.task}" if root else "-"
    return _hold(host, session, task, open_items, payload, err)


def replay(payload: StopInput, transcript: str, err: TextIO) -> Tracker | None:
    """A tracker that has replayed the stopping agent's session (``None`` when it cannot be read
    to its end, with the reason on ``err``)."""
    # Only obligations are asked for: no escalation score is kept (see TrackerConfig.escalation).
    tracker = Tracker(TrackerConfig(policy=_settings.policy(), escalation=None))
    try:
        source = open_transcript(transcript)
        events = source.events()
        if payload.subagent and payload.agent_transcript_path:
            events = as_root(events)
        tracker.handle_many(events)
    except NotATranscript as error:
        err.write(f"witness hook: cannot read the transcript ({error}); allowing\n")
        return None
    if source.report.error:
        # What follows the break may have closed what looks open: do not hold the agent on a guess.
        err.write(f"witness hook: the transcript could not be read to its end ({source.report.error}); allowing\n")
        return None
    if payload.last_assistant_message:
        tracker.handle(AssistantMessage(text=payload.last_assistant_message))  # the transcript can lag the hook
    return tracker


def as_root(events: Iterator[Event]) -> Iterator[Event]:
    """A sub-agent's own transcript, read as if the sub-agent were the root agent.

    Obligations belong to root agents; when a sub-agent is about to stop, its own checks are
    the ones it must not leave unverified."""
    agent: str | None = None
    for event in events:
        if isinstance(event, AgentSpawned) and agent is None and event.role == "local-subagent":
            agent = event.agent_id
            continue
        if agent is not None and event.agent_id == agent:
            event = event.model_copy(update={"agent_id": "root"})
        yield event


def _hold(host: str, session: str, task: str, open_items: list[Item], payload: StopInput,
          err: TextIO) -> StopAnswer:
    """Block, or let go once the task's blocks are spent."""
    limit = _settings.blocks_allowed()
    try:
        blocks = BlockCounter().count(host, session, task, limit)
    except OSError as error:
        # Without our own counter the host's flag is the only guard against holding the agent
        # forever: block a first stop, never a stop that already continues after a block.
        continuing = payload.stop_hook_active
        err.write(f"witness hook: cannot keep the block count in {state_dir()} ({error}); "
                  f"{'allowing a stop that already follows a block' if continuing else 'blocking once'}\n")
        limit = min(limit, 1)
        blocks = None if continuing or limit == 0 else 1
    if blocks is None:
        return StopRelease(systemMessage=release_message(open_items, limit))
    return StopBlock(reason=block_reason(open_items, blocks, limit))
