"""One consultation of the advisor on a live session's ledger, as the hosts' advisor tool and the
completion review at Stop run it: the configured model (flags, ``WITNESS_ADVISOR_*``,
``[model]`` in ``config.toml``), the investigation tools confined to the session's directory, the
consultation logged with who asked and why (``witness log``).

The model SDKs load here, when a consultation runs, never when this module is imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from advisor.consult import (
    Consultation,
    ConsultationLog,
    Investigation,
    Lineage,
    consult,
    investigation_tools,
    load_consult_settings,
)
from advisor.ledger import Ledger
from advisor.models import load_model_config, make_model

Trigger = Literal["manual", "completion"]
"""Why a consultation ran: the executor asked (``manual``), or it is the completion review at Stop."""


@dataclass(frozen=True)
class Advice:
    """What a consultation gave: its result, or why none was asked for."""

    result: Consultation | None
    """The consultation's envelope (``None`` when it was skipped before any request)."""
    skipped: str | None = None
    """Why no request was sent (the ledger does not fit its token budget)."""

    @property
    def text(self) -> str | None:
        """The advice, when the advisor answered."""
        return self.result.advice if self.result is not None else None

    def notice(self) -> str:
        """The advice, or why there is none."""
        if self.result is not None:
            return self.result.notice()
        return f"Advisor skipped: {self.skipped}. Continue without advisor; do not retry this consultation."


async def advise(ledger: Ledger, *, workspace: Path | None, trigger: Trigger, requester: str = "main",
                 call_id: str | None = None, question: str | None = None, timeout: float | None = None,
                 executor_model: str | None = None, model_flags: Mapping[str, Any] | None = None,
                 log: ConsultationLog | Literal[False] | None = None) -> Advice:
    """Consult the advisor on ``ledger`` now: a completion review for ``trigger="completion"``.

    ``timeout`` caps the consultation's own (``[consult] timeout``); ``workspace`` is where the
    investigation tools may read (``None``: nowhere). Raises :class:`~advisor.errors.ConfigError`
    when no usable model is configured; model failures, time-outs and budgets end the
    consultation with a stop reason instead."""
    settings = load_consult_settings()
    if timeout is not None:
        settings = settings.model_copy(update={"timeout": max(1.0, min(settings.timeout, timeout))})
    tools = investigation_tools(settings, workspace=workspace is not None)
    compiled = ledger.compile(question=question, review=trigger == "completion", tools=tools)
    if not compiled.fits:
        return Advice(None, f"the task and the most recent work take {compiled.tokens} tokens, more than the "
                            "ledger's token budget")
    config = load_model_config(model_flags)
    book = ConsultationLog() if log is None else (log or None)
    spent = book.session_spend(ledger.session_id) if book is not None and ledger.session_id else None
    model = make_model(config)
    try:
        investigation = Investigation(workspace, expand=ledger.expand, settings=settings)
        result = await consult(compiled.prompt, model, investigation=investigation, settings=settings,
                               prices=config.prices, executor_model=executor_model, spent=spent, log=False)
    finally:
        await model.aclose()
    lineage = Lineage(requester=requester, root="main", trigger=trigger, consultation_id=call_id or result.id,
                      child_id="-", turn=1, outcome="delivered" if result.advice is not None else "failed")
    result = result.model_copy(update={"lineage": lineage})
    return Advice(book.keep(result) if book is not None else result)
