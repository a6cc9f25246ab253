"""``Stop`` and ``SubagentStop``: replay the stopping agent's work, and hold it while a check it ran
failed and was never genuinely re-run — a few times per agent and task at most.

Every way this can go wrong allows the stop, with a message on standard error: an unreadable
transcript, one that cannot be read to its end (what follows the break may have closed what
looks open), a sub-agent whose own calls cannot be told apart, or a block count that cannot be
kept (then the host's ``stop_hook_active`` is the only guard: a first stop is blocked once, a
stop that already follows a block is let go). A setting that is not valid allows too, and says
so to the user (``systemMessage``): the hook does not guess what was meant.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, TextIO

from advisor.errors import ConfigError, Unjudged
from obligations import Item, block_reason, release_message

from ._answers import StopAnswer, StopBlock, StopRelease
from ._blocks import BlockCounter, BlockKey
from ._constants import ROOT_AGENT
from ._payloads import StopInput
from ._replay import Replayed, stopping_work
from ._replay_states import ReplayStates
from ._settings import HookSettings, hook_settings
from ._state import state_dir


def answer_stop(host: str, raw: dict[str, Any], err: TextIO, *, until: float | None = None,
                review: bool = False) -> StopAnswer | None:
    """The answer to one Stop or SubagentStop call (``None``: allow silently). ``until`` is the
    monotonic time by which it must be given (default: the configured deadline from now); ``review``
    runs the completion review once no obligation holds the agent."""
    try:
        settings = hook_settings(review=review)
    except ConfigError as error:
        err.write(f"witness hook: {error}; allowing\n")
        return StopRelease(systemMessage=f"witness: the Stop hook checks nothing until its setting is fixed: {error}")
    payload = StopInput.model_validate(raw)
    deadline = until if until is not None else time.monotonic() + settings.deadline
    try:
        replayed = stopping_work(payload, settings.policy, deadline, err, ReplayStates())
    except Unjudged as error:
        err.write(f"witness hook: {error}; allowing\n")
        if error.unreadable:
            # Not a session it reads: the stop is allowed, but never as if the work had been checked.
            return StopRelease(systemMessage=f"witness checked nothing at this stop: {error}")
        return None
    open_items = replayed.tracker.open_items(replayed.agent) if replayed.agent is not None else []
    key = _key(host, payload, replayed)
    if not open_items:
        if not review:
            return None
        from ._review import review_stop  # the model SDKs load only for a review

        return review_stop(payload, key, settings, deadline, err)
    return _hold(key, open_items, payload, settings, err)


def _key(host: str, payload: StopInput, replayed: Replayed) -> BlockKey:
    """Whose budget a block spends: the stopping agent's, in its current task."""
    session = payload.session_id or Path(replayed.path).stem
    agent = (payload.agent_id or "subagent") if payload.subagent else ROOT_AGENT
    task = replayed.tracker.current_task(replayed.agent) if replayed.agent is not None else None
    return BlockKey(host, session, agent, f"{task.agent_id}:{task.started}" if task is not None else "-")


def _hold(key: BlockKey, open_items: list[Item], payload: StopInput, settings: HookSettings,
          err: TextIO) -> StopAnswer:
    """Block, or let go once the agent's blocks in this task are spent."""
    limit = settings.blocks
    try:
        blocks = BlockCounter().count(key, limit)
    except OSError as error:
        # Without our own counter the host's flag is the only guard against holding the agent
        # forever: block a first stop, never a stop that already continues after a block.
        continuing = payload.stop_hook_active
        err.write(f"witness hook: cannot keep the block count in {state_dir()} ({error or type(error).__name__}); "
                  f"{'allowing a stop that already follows a block' if continuing else 'blocking once'}\n")
        limit = min(limit, 1)
        blocks = None if continuing or limit == 0 else 1
    if blocks is None:
        return StopRelease(systemMessage=release_message(open_items, limit))
    return StopBlock(reason=block_reason(open_items, blocks, limit))


