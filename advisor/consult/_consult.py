"""``consult``: one consultation, from a session's ledger (or a request made already) to its result envelope."""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime
from pathlib import Path

from advisor.consult._budget import Spend
from advisor.consult._loop import Ending, Exchange
from advisor.consult._result import Consultation, ConsultationTranscript, Lineage
from advisor.consult._settings import ConsultSettings
from advisor.consult._steps import OnStep
from advisor.consult._tools import Investigation
from advisor.consult._verdict import parse_verdict
from advisor.models import PROVIDERS, ModelClient, Prices, Usage
from advisor.prompt import AdvisorPrompt, PromptSource, request_hash


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


async def consult(source: AdvisorPrompt | PromptSource, model: ModelClient, *, question: str | None = None,
                  review: bool = False, workspace: Path | str | None = None, investigation: Investigation | None = None,
                  settings: ConsultSettings | None = None, prices: Prices | None = None,
                  executor_model: str | None = None, spent: Spend | None = None,
                  lineage: Lineage | None = None, on_step: OnStep | None = None) -> Consultation:
    """Consult the advisor once, on a session's ledger (or a request made already), and return the
    result envelope. This is the one way a consultation runs, whoever asks; it writes no log: the
    caller records it once, with its lineage (:meth:`ConsultationLog.keep`).

    ``source`` is asked for its request with ``question`` and ``review`` (a completion review of the
    executor's last answer) and the tools the investigation declares; a ledger over its token budget
    ends it as ``too-large`` before anything is sent. ``workspace`` is where the investigation tools may
    read (``None``: nowhere); ``investigation`` replaces them (a host's guarded tools); ``settings``
    default to the investigation's; ``prices`` enable money budgets and costs; ``executor_model``
    refuses a consultation of the executor's own model; ``spent`` is the session's spending so far
    (:meth:`ConsultationLog.session_spend`); ``lineage`` says who asked and why. Model failures,
    timeouts and budgets end it with a stop reason (:data:`STOP_REASONS`); they are not raised.
    ``on_step`` is told each request and each tool run as it begins (a live display).
    """
    settings = settings or (investigation.settings if investigation is not None else ConsultSettings())
    if investigation is None:
        expand = None if isinstance(source, AdvisorPrompt) else source.expand
        investigation = Investigation(workspace, expand=expand, settings=settings)
    ending: Ending | None = None
    if isinstance(source, AdvisorPrompt):
        prompt = source
    else:
        compiled = source.compile(question=question, review=review, tools=investigation.declarations())
        prompt = compiled.prompt
        if not compiled.fits:
            ending = ("too-large", None, f"the task and the most recent work take {compiled.tokens} tokens, more than "
                                         "the ledger's token budget even with every earlier block left out")
    prompt = prompt.redacted()  # whoever compiled it: nothing unredacted leaves through here
    started = datetime.now(UTC)
    exchange = Exchange(prompt, model, investigation=investigation, settings=settings, prices=prices,
                        session=spent or Spend(), on_step=on_step)
    if ending is None and same_model(executor_model, model.model):
        ending = ("same-model", None, "same model as executor")
    if ending is None:
        ending = await _bounded(exchange, settings.timeout)
    return _envelope(prompt, model, exchange, ending, started).model_copy(update={"lineage": lineage})


async def _bounded(exchange: Exchange, timeout: float) -> Ending:
    try:
        async with asyncio.timeout(timeout):
            return await exchange.run()
    except TimeoutError:
        if exchange.in_flight is not None:
            exchange.note(exchange.in_flight, None, "deadline exceeded")
        return "timeout", None, f"advisor timed out after {timeout:g}s"


def _envelope(prompt: AdvisorPrompt, model: ModelClient, exchange: Exchange, ending: Ending,
              started: datetime) -> Consultation:
    stop, advice, error = ending
    first = prompt.request()
    usage = sum((attempt.usage for attempt in exchange.attempts), Usage())
    costs = [a.cost_usd for a in exchange.attempts if a.cost_usd is not None]
    transcript = ConsultationTranscript(system=prompt.system, tools=prompt.tools, messages=tuple(exchange.messages),
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
