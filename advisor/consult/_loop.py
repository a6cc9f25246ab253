"""One consultation: a bounded exchange with the advisor model, investigation included.

Before every request the budgets are checked; then:

- an answer with tool calls runs them (read-only, confined) and sends the results back — at
  most ``max_rounds`` calls in all; past that each call gets the in-band refusal
  :data:`EXHAUSTED` and a user turn tells the advisor to answer. The declarations are never
  withdrawn: that would rewrite the head of the cached prefix;
- an empty answer is retried once; a transient failure (``ModelUnavailable``) is retried once,
  after ``retry_delay``, while less than half the time is used (``transient_retries``: 0 for a host that
  retries the whole consultation itself);
- the whole exchange is bounded by ``timeout`` and by ``max_rounds + 4`` requests.

Every attempt is kept, billed or not. Only the final advice leaves the loop for later
ledgers; the investigation rounds stay in the consultation's transcript.
"""

from __future__ import annotations

import asyncio
import time

from advisor.consult._budget import BudgetGate, Spend
from advisor.consult._result import ModelAttempt, Round, StopReason
from advisor.consult._settings import ConsultSettings
from advisor.consult._steps import OnStep, Step
from advisor.consult._tools import Investigation, ToolOutcome, primary_argument
from advisor.errors import ModelRefused, ModelUnavailable
from advisor.models import (
    ChatMessage,
    ChatTool,
    ChatUser,
    ModelClient,
    ModelRequest,
    ModelResponse,
    Prices,
    TextPart,
    ToolCall,
    estimate_tokens,
)
from advisor.prompt import AdvisorPrompt, request_hash

EXHAUSTED = "Tool budget exhausted — no further tool calls will run. Answer with what you have."
ANSWER_NOW = ("Your investigation budget is spent: no further tool calls will run. Answer now with what you have, "
              "and say which evidence you could not check.")

Ending = tuple[StopReason, str | None, str | None]
"""How the exchange ended: the stop reason, the advice, the error."""


class Exchange:
    """The state of one consultation's exchange with the model."""

    def __init__(self, prompt: AdvisorPrompt, model: ModelClient, *, investigation: Investigation,
                 settings: ConsultSettings, prices: Prices | None, session: Spend,
                 on_step: OnStep | None = None) -> None:
        self.prompt = prompt
        self.on_step = on_step
        self.model = model
        self.investigation = investigation
        self.settings = settings
        self.prices = prices
        self.gate = BudgetGate(settings.budget, prices, session)
        self.messages: list[ChatMessage] = list(prompt.messages)
        self.attempts: list[ModelAttempt] = []
        self.responses: list[ModelResponse | None] = []
        self.rounds: list[Round] = []
        self.calls_run = 0
        self.exhausted = False
        self.in_flight: ModelRequest | None = None
        self._declared = {tool.name for tool in prompt.tools}
        self._started = time.monotonic()

    def request(self) -> ModelRequest:
        """The next request: the prompt and the investigation so far, same tools and routing key."""
        return ModelRequest(system=self.prompt.system, messages=tuple(self.messages), tools=self.prompt.tools,
                            stable_prefix_messages=self.prompt.stable_prefix_messages,
                            routing_key=self.prompt.routing_key)

    def note(self, request: ModelRequest, response: ModelResponse | None, error: str | None) -> None:
        """Keep one attempt (and count its usage against the budgets)."""
        usage = response.usage if response is not None else None
        if usage is not None:
            self.gate.add(usage)
        cost = self.prices.cost(usage) if self.prices is not None and usage is not None else None
        self.attempts.append(ModelAttempt(
            messages=len(request.messages), request_hash=request_hash(request),
            **({"usage": usage} if usage is not None else {}), cost_usd=cost, error=error,
            stop_reason=response.stop_reason if response is not None else None,
            request_id=response.request_id if response is not None else None))
        self.responses.append(response)

    async def run(self) -> Ending:
        """Exchange requests and answers until there is advice or a reason to stop."""
        retried_empty = False
        retries = self.settings.transient_retries
        for _ in range(self.settings.max_rounds + 4):
            request = self.request()
            previous = self.attempts[-1].usage.input_tokens if self.attempts else 0
            refusal = self.gate.refusal(estimate_tokens(request), cached_tokens=previous)
            if refusal is not None:
                return "budget-exceeded", None, refusal
            self.in_flight = request
            self._tell(Step("request", len(self.attempts) + 1))
            try:
                response = await self.model.complete(request)
            except ModelUnavailable as error:
                self.in_flight = None
                self.note(request, None, str(error))
                if retries and self._elapsed() < self.settings.timeout / 2:
                    retries -= 1
                    await asyncio.sleep(self.settings.retry_delay)
                    continue
                return "model-unavailable", None, str(error)
            except ModelRefused as error:
                self.in_flight = None
                self.note(request, None, str(error))
                return "model-refused", None, str(error)
            self.in_flight = None
            self.note(request, response, None)
            if response.tool_calls:
                await self.investigate(response)
            elif response.text.strip():
                return "answered", response.text, None
            elif not retried_empty:
                retried_empty = True
            else:
                return "empty-answer", None, "empty response"
        return "no-answer", None, "the advisor used every request it was allowed without answering"

    async def investigate(self, response: ModelResponse) -> None:
        """Run (or refuse) the answer's tool calls and add them and their results to the exchange."""
        self.messages.append(response.as_message())
        for call in response.tool_calls:
            channel = call.name in self.investigation.channels and call.name in self._declared
            ran = channel or self.calls_run < self.settings.max_rounds
            if ran:
                # A host's channel (the verdict tool) is not investigation: it never spends a round.
                self.calls_run += 0 if channel else 1
                self._tell(Step("tool", len(self.attempts), call.name, primary_argument(call.arguments)))
                outcome = await self._run(call)
            else:
                self.exhausted = True
                outcome = ToolOutcome(text=EXHAUSTED, is_error=True, argument=primary_argument(call.arguments))
            self.rounds.append(Round(tool=call.name, argument=outcome.argument, chars=len(outcome.text),
                                     error=outcome.text if outcome.is_error else None, ran=ran))
            self.messages.append(ChatTool(tool_call_id=call.id, name=call.name,
                                             content=(TextPart(text=outcome.text), *outcome.images),
                                             is_error=outcome.is_error))
        if self.calls_run >= self.settings.max_rounds:
            self.messages.append(ChatUser(ANSWER_NOW))

    async def _run(self, call: ToolCall) -> ToolOutcome:
        if call.name not in self._declared:
            return ToolOutcome(text=f"Unknown tool: {call.name}", is_error=True,
                               argument=primary_argument(call.arguments))
        return await asyncio.to_thread(self.investigation.run, call)

    def _elapsed(self) -> float:
        return time.monotonic() - self._started

    def _tell(self, step: Step) -> None:
        if self.on_step is not None:
            self.on_step(step)
