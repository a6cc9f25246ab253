"""``consult``: one consultation from a prompt to a logged result envelope."""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime
from typing import Literal

from advisor.consult._budget import Spend
from advisor.consult._log import ConsultationLog
from advisor.consult._loop import Ending, Exchange
from advisor.consult._prompt import AdvisorPrompt, request_hash
from advisor.consult._result import Consultation, StopReason, Transcript
from advisor.consult._settings import ConsultSettings
from advisor.consult._steps import OnStep
from advisor.consult._tools import Investigation
from advisor.consult._verdict import parse_verdict
from advisor.models import PROVIDERS, ModelClient, Prices, Usage


def same_model(executor: str | None, advisor: str) -> bool:
    """Whether the executor runs the advisor's model: ids compared without case, a
    ``gateway/`` path or an ``openai:``/``anthropic:`` provider prefix."""
    if not executor:
        return False

    def bare(model: str) -> str:
        name = model.strip().lower().rsplit("/", 1)[-1]
        provider, colon, rest = name.partition(":")
        return rest if colon and provider in PROVIDERS else name

    return bare(executor) == bare(advisor)


async def consult(prompt: AdvisorPrompt, model: ModelClient, *, investigation: Investigation | None = None,
                  settings: ConsultSettings | None = None, prices: Prices | None = None,
                  executor_model: str | None = None, spent: Spend | None = None,
                  log: ConsultationLog | Literal[False] | None = None, on_step: OnStep | None = None) -> Consultation:
    """Consult the advisor once and return the result envelope.

    ``investigation`` gives the tools their workspace and the ledger's ``advisor_expand``;
    ``settings`` default to the investigation's; ``prices`` enable money budgets and costs;
    ``executor_model`` refuses a consultation of the executor's own model; ``spent`` is the
    session's spending so far (by default summed from the log). The consultation is appended
    to ``log`` (default: the log under ``$WITNESS_HOME``; ``False``: not logged); a log that
    cannot be written is said in ``log_error``, never raised. Model failures, timeouts and
    budgets end it with a stop reason; they are not raised. ``on_step`` is told each request and
    each tool run as it begins (a live display).
    """
    prompt = prompt.redacted()  # whoever compiled it: nothing unredacted leaves through here
    settings = settings or (investigation.settings if investigation is not None else ConsultSettings())
    investigation = investigation or Investigation(settings=settings)
    book = ConsultationLog() if log is None else (log or None)
    if spent is None:
        spent = book.session_spend(prompt.session_id) if book is not None and prompt.session_id else Spend()
    started = datetime.now(UTC)
    exchange = Exchange(prompt, model, investigation=investigation, settings=settings, prices=prices, session=spent,
                        on_step=on_step)
    ending: tuple[StopReason, str | None, str | None]
    if same_model(executor_model, model.model):
        ending = ("same-model", None, "same model as executor")
    else:
        ending = await _bounded(exchange, settings.timeout)
    consultation = _envelope(prompt, model, exchange, ending, started)
    return book.keep(consultation) if book is not None else consultation


async def _bounded(exchange: Exchange, timeout: float) -> Ending | tuple[Literal["timeout"], None, str]:
    try:
        async with asyncio.timeout(timeout):
            return await exchange.run()
    except TimeoutError:
        if exchange.in_flight is not None:
            exchange.note(exchange.in_flight, None, "deadline exceeded")
        return "timeout", None, f"advisor timed out after {timeout:g}s"


def _envelope(prompt: AdvisorPrompt, model: ModelClient, exchange: Exchange,
              ending: tuple[StopReason, str | None, str | None], started: datetime) -> Consultation:
    stop, advice, error = ending
    first = prompt.request()
    usage = sum((attempt.usage for attempt in exchange.attempts), Usage())
    costs = [a.cost_usd for a in exchange.attempts if a.cost_usd is not None]
    transcript = Transcript(system=prompt.system, tools=prompt.tools, messages=tuple(exchange.messages),
                            responses=tuple(exchange.responses), routing_key=prompt.routing_key)
    return Consultation(
        id=f"{started:%Y%m%dT%H%M%SZ}-{secrets.token_hex(3)}", session_id=prompt.session_id,
        started_at=started.isoformat(timespec="seconds"),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"), advisor=f"{model.provider}:{model.model}",
        advice=advice, severity=parse_verdict(advice).severity if advice is not None else None, stop_reason=stop,
        error=error, skipped=not exchange.attempts, attempts=tuple(exchange.attempts), usage=usage,
        cost_usd=sum(costs) if exchange.prices is not None else None, rounds=tuple(exchange.rounds),
        budget_exhausted=exchange.exhausted, request_hash=request_hash(first),
        stable_prefix_hash=request_hash(first, prompt.stable_prefix_messages),
        stable_prefix_messages=prompt.stable_prefix_messages, estimated_tokens=prompt.estimated_tokens,
        request_chars=len(first.model_dump_json()), trimmed=prompt.trimmed, transcript=transcript)
