"""Advisor calls: the executor's call checked, the consultation run, the tool result made.

Every call gets a result the executor reads — advice or one of three errors — never silence:

=============================  ===============================================================
result                         when
=============================  ===============================================================
``{"status": "ok", "name",     the advisor answered (``name`` only for a named advisor;
"model", "advice"}``           ``model`` is the advisor model consulted)
``advisor_invalid_request``    the arguments are not a JSON object of ``prompt`` (and, when no
                               model is pinned, ``model``), or the prompt is empty (allowed
                               with ``forward_transcript``)
``advisor_max_uses_exceeded``  this advisor was already called ``max_uses`` times in the request
``advisor_request_failed``     the consultation gave no advice (the advisor model failed,
                               refused, timed out or answered nothing), or the conversation's
                               ledger does not fit ``transcript_token_budget``; the message says
                               why
=============================  ===============================================================

Errors are ``{"error": <code>, "message": <text>}``. The consultation is the advisor's bounded
loop with no investigation tools (the gateway has no workspace): one request, retried once on a
transient failure, within ``advisor_timeout``. An advisor without ``forward_transcript`` is sent
the prompt alone; one with it, the conversation's ledger (:mod:`._forward`) and the question —
the prompt, else the executor's text beside the call, else :data:`._prompt.DEFAULT_QUESTION`.
The gateway keeps no state, so the consultation budget is the call's alone (no session total).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from advisor.consult import ConsultationLog, ConsultSettings, Spend, consult
from advisor.errors import LedgerTooLarge
from advisor.gateway._entries import AdvisorEntry
from advisor.gateway._forward import forward
from advisor.gateway._prompt import DEFAULT_QUESTION, prompt_only
from advisor.gateway._settings import GatewaySettings
from advisor.gateway._toolset import ToolSet
from advisor.gateway._transcript import text_of
from advisor.gateway._upstream import TunedModel, Upstream
from advisor.models import Usage
from advisor.prompt import AdvisorPrompt

AdvisorErrorCode = Literal["advisor_invalid_request", "advisor_max_uses_exceeded", "advisor_request_failed"]
"""The error results an advisor call can have."""


@dataclass
class AdvisorUse:
    """What one advisor did in one request, for the usage breakdown."""

    entry: AdvisorEntry
    granted: int = 0
    """Calls allowed to run (counted against ``max_uses``), invalid ones included."""
    requests: int = 0
    """Consultations sent to the advisor model."""
    errors: int = 0
    """Calls answered with an error result."""
    usage: Usage = field(default_factory=Usage)
    """The advisor model's tokens."""
    models: list[str] = field(default_factory=list)
    """The advisor models consulted, in order, without repeats."""

    def breakdown(self) -> dict[str, Any]:
        """This advisor's line of ``usage.server_tool_use.advisors``."""
        return {"tool": self.entry.function_name, "name": self.entry.name,
                "model": self.models[-1] if self.models else self.entry.parameters.model,
                "requests": self.requests, "errors": self.errors,
                "prompt_tokens": self.usage.input_tokens, "completion_tokens": self.usage.output_tokens,
                "total_tokens": self.usage.total_tokens}


def error_result(code: AdvisorErrorCode, message: str) -> str:
    """An error tool result."""
    return json.dumps({"error": code, "message": message}, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Answer:
    """An advisor call's tool result, and for an advisor shown the conversation, the ledger cut its
    request kept (carried in the trace for the next request)."""

    result: str
    ledger_cut: int | None = None


class Advisors:
    """The advisors of one request: their use counts, consultations and usage."""

    def __init__(self, tools: ToolSet, *, outer_model: str, upstream: Upstream, settings: GatewaySettings,
                 ledger_cuts: Mapping[str, int] | None = None) -> None:
        self.tools = tools
        self.outer_model = outer_model
        self.upstream = upstream
        self.settings = settings
        self.uses = {entry.function_name: AdvisorUse(entry) for entry in tools.advisors}
        self.calls = 0
        """Advisor calls seen in the request, refused ones included."""
        self.ledger_cuts: dict[str, int] = dict(ledger_cuts or {})
        """Per advisor function, the ledger cut of its latest request shown the conversation."""

    @property
    def requests(self) -> int:
        """Consultations sent, all advisors together."""
        return sum(use.requests for use in self.uses.values())

    @property
    def usage(self) -> Usage:
        """The advisor models' tokens, all advisors together."""
        return sum((use.usage for use in self.uses.values()), Usage())

    async def run(self, calls: list[dict[str, Any]], conversation: Sequence[Any] = ()) -> list[Answer]:
        """The results of a turn's advisor calls, in order; the allowed ones run concurrently
        (and are all cancelled together when the request is). ``conversation`` is the messages so
        far, ending on the turn that makes the calls (its traces expanded)."""
        results: list[Answer] = []
        jobs: dict[int, Coroutine[Any, Any, Answer]] = {}
        for call in calls:
            self.calls += 1
            function = call.get("function") or {}
            use = self.uses[str(function.get("name"))]
            params = use.entry.parameters
            if use.granted >= params.max_uses:
                use.errors += 1
                results.append(Answer(error_result("advisor_max_uses_exceeded",
                                                   f"Advisor max_uses exceeded ({params.max_uses}).")))
                continue
            parsed = _arguments(function.get("arguments"), pinned=params.model is not None,
                                optional_prompt=params.forward_transcript)
            if isinstance(parsed, str):
                use.errors += 1
                results.append(Answer(error_result("advisor_invalid_request", parsed)))
                continue
            use.granted += 1
            prompt, model = parsed
            jobs[len(results)] = self._consult(use, prompt, params.model or model or self.outer_model, conversation)
            results.append(Answer(""))
        for index, answer in zip(jobs, await asyncio.gather(*jobs.values()), strict=True):
            results[index] = answer
        return results

    async def _prompt(self, entry: AdvisorEntry, question: str | None, conversation: Sequence[Any]) -> tuple[
            AdvisorPrompt, int | None]:
        """The consultation's request, and the ledger cut it kept (``None`` for a prompt alone).
        Raises :class:`~advisor.errors.LedgerTooLarge`."""
        params = entry.parameters
        if not params.forward_transcript:
            return prompt_only(question or "", params.instructions), None
        turn = conversation[-1] if conversation else None
        beside = text_of(turn.get("content")).strip() if isinstance(turn, dict) else ""
        made = await forward(conversation, client_tools=self.tools.client_tools,
                             question=(question or "").strip() or beside or DEFAULT_QUESTION,
                             instructions=params.instructions, token_budget=self.settings.transcript_token_budget,
                             cut=self.ledger_cuts.get(entry.function_name, 0))
        self.ledger_cuts[entry.function_name] = made.cut
        return made.prompt, made.cut

    async def _consult(self, use: AdvisorUse, question: str | None, model: str,
                       conversation: Sequence[Any]) -> Answer:
        params = use.entry.parameters
        try:
            prompt, cut = await self._prompt(use.entry, question, conversation)
        except LedgerTooLarge as error:
            use.errors += 1
            return Answer(error_result("advisor_request_failed", f"Advisor call failed: the conversation is too "
                                       f"large to forward: {error}."))
        client = TunedModel(self.upstream.advisor(model), max_output_tokens=use.entry.completion_tokens,
                            effort=params.reasoning.effort if params.reasoning else None,
                            temperature=params.temperature)
        settings = ConsultSettings(max_rounds=0, repo_tools=False, timeout=self.settings.advisor_timeout,
                                   retry_delay=0.5)
        use.requests += 1
        if model not in use.models:
            use.models.append(model)
        result = await consult(prompt, client, settings=settings, spent=Spend())
        if self.settings.log_consultations:
            result = ConsultationLog().keep(result)
        use.usage = use.usage + result.usage
        if result.advice is None:
            use.errors += 1
            return Answer(error_result("advisor_request_failed", self._unlocated(result.notice())), cut)
        answer: dict[str, Any] = {"status": "ok"}
        if use.entry.name is not None:
            answer["name"] = use.entry.name
        answer.update(model=model, advice=result.advice)
        return Answer(json.dumps(answer, ensure_ascii=False), cut)


    def _unlocated(self, message: str) -> str:
        """``message`` without the upstream's address: the executor and the client are told that the
        upstream failed, never where the gateway sends its requests."""
        where = f"openai at {self.settings.upstream}"  # how the advisor clients name it
        return message.replace(f"cannot reach {where}", "cannot reach the upstream").replace(where, "the upstream")


def _arguments(raw: Any, *, pinned: bool, optional_prompt: bool = False) -> tuple[str | None, str | None] | str:
    """``(prompt, model)`` from a call's arguments, or why they are invalid; with
    ``optional_prompt`` a missing or blank prompt is ``None``."""
    allowed = {"prompt"} if pinned else {"prompt", "model"}
    try:
        value = json.loads(raw) if isinstance(raw, str) and raw.strip() else {}
    except (ValueError, RecursionError):
        return "Advisor arguments are not valid JSON."
    if not isinstance(value, dict):
        return "Advisor arguments must be a JSON object."
    unknown = sorted(set(value) - allowed)
    if unknown:
        return f"Unknown advisor argument(s): {', '.join(unknown)}."
    prompt, model = value.get("prompt"), value.get("model")
    if optional_prompt and (prompt is None or (isinstance(prompt, str) and not prompt.strip())):
        prompt = None
    elif not isinstance(prompt, str) or not prompt.strip():
        return "Advisor requires a prompt and advisor model."
    if model is not None and (not isinstance(model, str) or not model.strip()):
        return "Advisor requires a prompt and advisor model."
    return prompt, model.strip() if isinstance(model, str) else None
