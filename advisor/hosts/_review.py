"""The completion review at Stop (``witness hook claude-code|codex --review``): once the obligations
check lets the main agent stop, a stronger model reviews the answer it just gave against the
session's ledger (the review marker on, the investigation tools confined to the session's cwd).

=============  ==============================================================================
verdict        answer
=============  ==============================================================================
``concern``,   block, the advice as the reason (it counts against the same block budget as the
``blocker``    obligations reminders; once spent, the stop is allowed with the advice shown)
``nit``        allow, the advice shown to the user (``systemMessage``)
``none``       allow silently
no verdict     allow, the advice shown to the user
=============  ==============================================================================

A state is reviewed once: the review request's digest is recorded before the model is called, so
the same unchanged session is never reviewed twice, not even when the first review failed. A
review that cannot run — no model configured, the model unreachable, over a budget, over the
hook's deadline — allows the stop with a message saying so (fail open); the hook process's own
deadline ends it with an allow in the worst case. Sub-agents are not reviewed: their answer goes
to the agent that started them, not to the user. Every review is logged (``witness log``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from contextlib import aclosing
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from advisor.consult import Consultation, ConsultationLog, consult, load_consult_settings, session_workspace
from advisor.errors import ConfigError
from advisor.ledger import Ledger, read_ledger, review_feedback
from advisor.models import load_model_config, make_model
from obligations import ROOT_AGENT, AssistantMessage, NotATranscript

from ._answers import StopAnswer, StopBlock, StopRelease
from ._blocks import BlockCounter, BlockKey
from ._payloads import StopInput
from ._reviewed import ReviewedStates
from ._sessions import claude_model
from ._settings import HookSettings

if TYPE_CHECKING:
    from advisor.consult import Severity

MARGIN = 3.0
"""Seconds kept back from the hook's deadline to answer the host after the review."""
MIN_SECONDS = 5.0
"""A review is not started with less time than this left."""
_PREFIX = "witness completion review"


def review_stop(payload: StopInput, key: BlockKey, settings: HookSettings, deadline: float,
                err: TextIO) -> StopAnswer | None:
    """The answer once the obligations check allows: the review's verdict, or why there is none."""
    if payload.subagent or not payload.transcript_path:
        return None
    seconds = deadline - time.monotonic() - MARGIN
    if seconds < MIN_SECONDS:
        return _not_run(f"only {max(seconds, 0):.0f} s of the hook's deadline were left", err)
    try:
        ledger = _ledger(payload.transcript_path, payload.last_assistant_message, settings)
    except (NotATranscript, OSError) as error:
        return _not_run(f"the transcript cannot be read ({error})", err)
    except ConfigError as error:  # the [ledger] settings
        return _not_run(str(error), err)
    compiled = ledger.compile(review=True)
    state = hashlib.sha256(json.dumps([[m.role, m.text] for m in compiled.prompt.messages]).encode()).hexdigest()
    try:
        fresh = ReviewedStates().claim(key, state)
    except OSError as error:  # without the record, only the host's flag keeps a review from repeating
        err.write(f"witness hook: cannot record the reviewed state ({error or type(error).__name__})\n")
        fresh = not payload.stop_hook_active
    if not fresh:
        err.write("witness hook: this state was already reviewed; allowing\n")
        return None
    workspace = session_workspace(payload.cwd)
    executor = payload.model or claude_model(payload.transcript_path)
    try:
        # What is left now: reading the transcript and waiting for the record's lock took some of it.
        result = asyncio.run(_review(ledger, workspace, deadline - time.monotonic() - MARGIN, executor))
    except ConfigError as error:
        return _not_run(str(error), err)
    if result.advice is None:
        return _not_run(result.notice(), err)
    if result.severity in ("concern", "blocker"):
        return _hold(key, result.advice, result.severity, settings)
    if result.severity == "none":
        return None
    return StopRelease(systemMessage=f"{_PREFIX}:\n{result.advice}")


async def _review(ledger: Ledger, workspace: Path | None, seconds: float, executor: str | None) -> Consultation:
    """The completion review (within ``seconds``), recorded in the consultation log once it is over.
    Raises ``ConfigError`` when no usable model is configured."""
    settings = load_consult_settings()
    settings = settings.model_copy(update={"timeout": max(1.0, min(settings.timeout, seconds))})
    config = load_model_config()
    log = ConsultationLog()
    async with aclosing(make_model(config)) as model:
        result = await consult(ledger, model, review=True, workspace=workspace, settings=settings,
                               prices=config.prices, executor_model=executor,
                               spent=log.session_spend(ledger.session_id))
    return log.keep(result.asked_by(ledger.agent_id or ROOT_AGENT, "completion"))


def _ledger(transcript: str, final: str | None, settings: HookSettings) -> Ledger:
    """The session's ledger, ending on the answer under review: the host may call Stop before its
    transcript holds the final message, which the payload carries (``last_assistant_message``)."""
    read = read_ledger(transcript, policy=settings.policy)
    said = " ".join((final or "").split())
    if said and said != " ".join((read.last_text or "").split()):
        read.ledger.add(AssistantMessage(text=final or "", agent_id=read.ledger.agent_id or ROOT_AGENT))
    return read.ledger


def _hold(key: BlockKey, advice: str, severity: Severity, settings: HookSettings) -> StopAnswer:
    try:
        blocks = BlockCounter().count(key, settings.blocks)
    except OSError:
        blocks = None  # no count kept: never block on a review without one (a review cannot repeat anyway)
    if blocks is None:
        return StopRelease(systemMessage=f"{_PREFIX} ({severity}; the agent was let stop: its reminders are "
                                         f"spent):\n{advice}")
    return StopBlock(reason=review_feedback(advice, severity, blocks, settings.blocks))


def _not_run(why: str, err: TextIO) -> StopRelease:
    err.write(f"witness hook: completion review not run: {why}; allowing\n")
    return StopRelease(systemMessage=f"witness: the completion review did not run ({why}); the stop was allowed.")
