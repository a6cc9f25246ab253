"""What the two tools answer, without the MCP machinery: the calling session found, its ledger read,
the advisor consulted or the open obligations listed.

Every answer is text the executor reads; a failure is an error answer (``is_error``), never an
exception, so a host shows it as the tool's result. An error answer is not replayed as advice in
later ledgers.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.consult import ConsultationLog, consult, load_consult_settings, session_workspace
from advisor.errors import ConfigError, SessionNotFound
from advisor.hosts import CALL_WAIT, CallingSession, calling_session, pipe_policy
from advisor.ledger import Ledger, TranscriptLedger, read_ledger
from advisor.models import load_model_config, make_model
from obligations import NO_RECORD, ROOT_AGENT, ItemReport, NotATranscript, ObligationsReport

from ._wording import UNKNOWN_SESSION


@dataclass(frozen=True)
class ToolAnswer:
    """A tool's answer."""

    text: str
    """What the executor reads."""
    is_error: bool = False
    """Whether it is an error result (no advice, or the session could not be read)."""


@dataclass(frozen=True)
class Caller:
    """Where the call comes from: the request's ``_meta`` and the server's environment."""

    meta: Mapping[str, Any]
    """The call's ``_meta`` (the host's ids for the session and the call)."""
    env: Mapping[str, str]
    """The server process's environment (Claude Code puts the session id there)."""
    cwd: str
    """The server process's working directory (the host's project directory)."""
    wait: float = CALL_WAIT
    """Seconds to wait for the host to record the call in its transcript."""

    @staticmethod
    def here(meta: Mapping[str, Any] | None) -> Caller:
        """A call to this process, with ``meta``."""
        return Caller(meta or {}, dict(os.environ), os.getcwd())


def _session(caller: Caller) -> tuple[CallingSession, TranscriptLedger]:
    session = calling_session(caller.meta, env=caller.env, cwd=caller.cwd, wait=caller.wait)
    try:
        return session, read_ledger(session.transcript, policy=pipe_policy(caller.env))
    except NotATranscript as error:
        raise SessionNotFound(f"the transcript {session.transcript} cannot be read ({error})") from None


def obligations_answer(caller: Caller) -> ToolAnswer:
    """The ``obligations`` tool: the calling agent's open obligations and what would close each."""
    try:
        _, read = _session(caller)
    except SessionNotFound as error:
        return ToolAnswer(UNKNOWN_SESSION.format(reason=error) + " It reports no obligations.", is_error=True)
    except ConfigError as error:
        return ToolAnswer(f"witness cannot list obligations until its setting is fixed: {error}", is_error=True)
    return ToolAnswer(listing(read.ledger.obligations()))


def listing(report: ObligationsReport) -> str:
    """The open obligations (the tracker's report rows), each with what would close it."""
    if not report.open and not report.earlier:
        return f"Verification obligations: none open. {NO_RECORD}"
    lines = [f"Verification obligations open in this session ({report.unresolved}): checks that failed "
             "and have had no genuine passing re-run since."]
    for row in report.open:
        lines += _row(row)
    for row in report.earlier:
        lines += _row(row, " — left unresolved by an earlier task")
    return "\n".join(lines)


def _row(row: ItemReport, note: str = "") -> list[str]:
    what = f"claim {row.claim_id!r}" if row.kind == "claim-contradicted" else f"`{row.check}` ({row.check_kind})"
    where = f" in {row.cwd}" if row.cwd else ""
    times = f", failed {row.failures} times" if row.failures > 1 else ""
    lines = [f"- {what}{where}{times}{note}: {row.summary}"]
    if row.last_attempt is not None:
        run = f"`{row.last_attempt.command}`" if row.last_attempt.command else "the last re-run"
        lines.append(f"  the re-run {run} did not count: {row.last_attempt.reason}")
    lines.append(f"  closes only through: {row.closes_by}")
    return lines


async def advisor_answer(caller: Caller, question: str | None, *,
                         model_flags: Mapping[str, Any] | None = None) -> ToolAnswer:
    """The ``advisor`` tool: a consultation on the calling agent's ledger (the question alone when the
    session cannot be found, with a note saying so); ``model_flags`` as ``witness mcp --model …`` gives them."""
    question = question.strip() if question and question.strip() else None
    try:
        session, read = await asyncio.to_thread(_session, caller)
    except SessionNotFound as error:
        return await _from_nothing(str(error), question, model_flags)
    except ConfigError as error:
        return ToolAnswer(f"witness advisor: {error}", is_error=True)
    workspace = session_workspace(session.cwd)
    return await _consulted(read.ledger, workspace, question, call_id=session.call_id,
                            requester=read.ledger.agent_id or ROOT_AGENT, executor_model=session.executor_model,
                            model_flags=model_flags)


async def _from_nothing(reason: str, question: str | None, model_flags: Mapping[str, Any] | None) -> ToolAnswer:
    note = UNKNOWN_SESSION.format(reason=reason)
    if question is None:
        return ToolAnswer(f"{note} Pass `question` to be advised on it alone.", is_error=True)
    answer = await _consulted(Ledger(), None, question, call_id=None, requester="unknown", executor_model=None,
                              model_flags=model_flags)
    if answer.is_error:
        return ToolAnswer(f"{answer.text}\n\n({note})", is_error=True)
    return ToolAnswer(f"{answer.text}\n\n({note} This advice answers the question alone.)")


async def _consulted(ledger: Ledger, workspace: Path | None, question: str | None, *, call_id: str | None,
                     requester: str, executor_model: str | None, model_flags: Mapping[str, Any] | None
                     ) -> ToolAnswer:
    try:
        settings = load_consult_settings()
        config = load_model_config(model_flags)
        log = ConsultationLog()
        async with aclosing(make_model(config)) as model:
            result = await consult(ledger, model, question=question, workspace=workspace, settings=settings,
                                   prices=config.prices, executor_model=executor_model,
                                   spent=log.session_spend(ledger.session_id))
    except ConfigError as error:
        return ToolAnswer(f"witness advisor is not configured: {error}", is_error=True)
    result = log.keep(result.asked_by(requester, "manual", call_id))
    if result.advice is not None:
        return ToolAnswer(result.advice)
    return ToolAnswer(result.notice(), is_error=True)
