"""Replaying the stopping agent's work from the transcript the host names, as the host leaves it.

- **Whose work.** ``Stop`` is the session's agent: its transcript. ``SubagentStop`` is a
  sub-agent, judged by its own calls only: its own transcript (``agent_transcript_path``, which
  the reader reads as that agent's session), else its entries selected by ``agent_id`` from the
  parent's transcript (older Claude Code versions kept them there as sidechain entries). When
  neither holds any of its calls it cannot be judged, and is let stop: never for its parent's work.
- **Only regular files.** A FIFO or a device named as a transcript would be read forever; it is
  refused before it is opened for reading.
- **Only what was appended.** The replay as it stood at the end of the file is kept for the next
  Stop (``_replay_states``), which replays only the lines written since — unless the file was
  rewritten, truncated or replaced, or a rewind reaches back, and then it replays it whole. The
  answer is the same either way.
- **A transcript behind its host.** A host may call the hook before it has written the results
  of the last calls. While shell calls of the stopping agent (the only calls that can open or
  close an obligation) have no result in the file, the replay waits — a few seconds at most,
  within the hook's deadline — for the file to grow, and replays it again. Other calls left
  without a result are not waited for: a delegation's result comes only when its sub-agent ends,
  and an edit counts from its dispatch. The final message comes from the payload
  (``last_assistant_message``), which the file may not hold yet.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from advisor.errors import Unjudged
from obligations import (
    ROOT_AGENT,
    AgentSpawned,
    AssistantMessage,
    Event,
    NotATranscript,
    SnapshotError,
    ToolDispatched,
    Tracker,
    TrackerConfig,
)
from obligations.sources import Position, Resume, Transcript, file_kind, open_transcript
from shellparse import Policy

from ._payloads import StopInput
from ._replay_states import KeptReplay, ReplayStates

LAG_WAIT = 5.0
"""Seconds, at most, to wait for the results of calls the transcript shows dispatched."""
POLL = 0.05
"""Seconds between looks at a transcript that is still being written."""


@dataclass(frozen=True)
class Replayed:
    """The stopping agent's work, replayed."""

    tracker: Tracker
    """A tracker that has handled the agent's events."""
    agent: str | None
    """The root agent the stopping agent is in the tracker (``None`` if it did nothing)."""
    path: str
    """The transcript replayed."""


def stopping_work(payload: StopInput, policy: Policy, until: float, err: TextIO,
           states: ReplayStates | None = None) -> Replayed:
    """Replay the stopping agent's work (waiting, until the monotonic time ``until`` at most, for a
    transcript that lags), from the replay kept in ``states`` when it still holds, keeping the new
    one there. Raises ``Unjudged`` when it cannot be judged."""
    select: str | None = None
    if payload.subagent:
        if payload.agent_transcript_path:
            path = payload.agent_transcript_path
        elif payload.agent_id and payload.transcript_path:
            path, select = payload.transcript_path, payload.agent_id
        else:
            raise Unjudged("the SubagentStop input names neither the sub-agent's transcript nor its agent_id, so "
                           "its own calls cannot be told from its parent's")
    elif payload.transcript_path:
        path = payload.transcript_path
    else:
        raise Unjudged("no transcript_path in the hook input; cannot check obligations")
    lag_until = min(until, time.monotonic() + LAG_WAIT)
    seen = _regular(path, lag_until)
    while True:
        result, unanswered = _once(path, select, policy, states, err)
        if not unanswered:
            break
        changed = _wait_for_change(path, seen, lag_until)
        if changed is None:
            err.write(f"witness hook: {unanswered} shell call(s) in the transcript still have no result after "
                      "waiting; judging the transcript as it stands\n")
            break
        seen = changed
    if payload.last_assistant_message:
        # The transcript can lag the hook: the final message is the payload's.
        result.tracker.handle(AssistantMessage(text=payload.last_assistant_message,
                                               agent_id=result.agent or ROOT_AGENT))
    return result


def _once(path: str, select: str | None, policy: Policy, states: ReplayStates | None,
          err: TextIO) -> tuple[Replayed, int]:
    """One replay of the file as it is now (from the kept one, when it holds), and how many of the
    stopping agent's shell calls it shows without a result."""
    config = TrackerConfig(policy=policy, escalation=None)  # obligations only: no score is kept
    try:
        source = open_transcript(path)
        kept = states.load(path, select, policy) if states is not None else None
        tracker, shells, start = _resumed(source, kept, config)
        keep = None if states is None else _keeper(states, path, select, policy, tracker, shells, err)
        try:
            events: Iterable[Event] = source.events(start=start, checkpoint=keep)
        except SnapshotError:  # the kept reader's state does not fit this reader: replay whole
            tracker, shells = Tracker(config), {}
            keep = None if states is None else _keeper(states, path, select, policy, tracker, shells, err)
            events = source.events(checkpoint=keep)
        if select is not None:
            events = _own(events, select)
        for event in events:
            # Only the library's readers feed this replay, and they make events of the classes
            # themselves (``isinstance`` against another model class is a call in Python, for
            # every event of the file).
            if type(event) is ToolDispatched and event.tool.lower() in config.shell_tools:
                shells[event.call_id] = event.agent_id
            tracker.handle(event)
    except NotATranscript as error:
        raise Unjudged(f"cannot read the transcript ({error})", unreadable=True) from None
    if source.report.error:
        # What follows the break may have closed what looks open: do not hold the agent on a guess.
        raise Unjudged(f"the transcript could not be read to its end ({source.report.error})")
    root = next((agent.id for agent in tracker.root_agents() if agent.task), None)
    if select is not None and tracker.agent_info(select) is None:
        raise Unjudged(f"the parent's transcript holds no call of sub-agent {select!r} (and the hook input names "
                       "no agent_transcript_path); it is not held for its parent's work")
    agent = select or root
    waiting = sum(1 for call in source.report.unanswered_ids if call in shells and shells[call] == agent)
    return Replayed(tracker, agent, path), waiting


def _resumed(source: Transcript, kept: KeptReplay | None,
             config: TrackerConfig) -> tuple[Tracker, dict[str, str], Resume | None]:
    """The tracker, the shell calls and the start of a replay resumed from ``kept``, when it holds for
    the file as it is now; a fresh tracker and no start otherwise (a replay of the whole file)."""
    start = source.resume(kept.position) if kept is not None else None
    if kept is None or start is None:
        return Tracker(config), {}, None
    try:
        return Tracker.restore(kept.tracker, config), dict(kept.shells), start
    except SnapshotError:
        return Tracker(config), {}, None


def _keeper(states: ReplayStates, path: str, select: str | None, policy: Policy, tracker: Tracker,
            shells: dict[str, str], err: TextIO) -> Callable[[Position], None]:
    """The checkpoint that keeps this replay for the next Stop (a failure to keep it only costs
    the next Stop a whole replay)."""
    def keep(position: Position) -> None:
        try:
            states.save(path, select, policy, KeptReplay(position, tracker.snapshot(), dict(shells)))
        except (OSError, TypeError, ValueError) as error:
            err.write(f"witness hook: the replay is not kept for the next stop ({error}); it will replay the "
                      "whole transcript\n")

    return keep


def _own(events: Iterable[Event], agent: str) -> Iterator[Event]:
    """The events of one sub-agent, as the root agent of its own session (never announced as a worker)."""
    for event in events:
        if event.agent_id == agent and not isinstance(event, AgentSpawned):
            yield event


def _regular(path: str, until: float) -> tuple[int, int] | None:
    """The file's size and modification time, after making sure it is a regular file (waiting, until
    ``until``, for one the host has not created yet). Raises ``Unjudged``."""
    while True:
        try:
            status = os.stat(path)
        except ValueError as error:  # a NUL byte or a lone surrogate: no file has such a name
            raise Unjudged(f"the transcript_path in the hook input is not a usable file name ({error})") from None
        except FileNotFoundError:
            if time.monotonic() + POLL < until:
                time.sleep(POLL)
                continue
            return None  # reading it says so
        except OSError:
            return None  # reading it says why
        if not stat.S_ISREG(status.st_mode):
            raise Unjudged(f"the transcript {path} is not a regular file ({file_kind(status.st_mode)}); it is not read")
        return status.st_size, status.st_mtime_ns


def _wait_for_change(path: str, seen: tuple[int, int] | None, until: float) -> tuple[int, int] | None:
    """The file's new size and time once it changes; ``None`` if it has not by ``until``."""
    while time.monotonic() + POLL < until:
        time.sleep(POLL)
        try:
            status = os.stat(path)
        except OSError:
            continue
        now = (status.st_size, status.st_mtime_ns)
        if now != seen:
            return now
    return None
