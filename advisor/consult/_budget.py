"""Token and money budgets, checked before every request a consultation sends.

A request's prompt is estimated as characters / 4; within one consultation the previous
request's billed input is assumed cached (each request repeats it), everything else is
priced uncached. Output is not estimated (it is unknown until billed), but every billed
attempt counts toward the limits of the next request.
"""

from __future__ import annotations

from advisor._values import Frozen
from advisor.consult._settings import Budget
from advisor.models import Prices, Usage


class Spend(Frozen):
    """Tokens and money spent."""

    tokens: int = 0
    """Input and output tokens."""
    usd: float = 0.0
    """USD (0 when no prices are known)."""

    def __add__(self, other: Spend) -> Spend:
        return Spend(tokens=self.tokens + other.tokens, usd=self.usd + other.usd)


class BudgetGate:
    """The limits of one consultation, given what its session had already spent."""

    def __init__(self, budget: Budget, prices: Prices | None, session: Spend) -> None:
        self.budget = budget
        self.prices = prices
        self.session = session
        self.call = Spend()
        """What this consultation has spent so far."""

    def add(self, usage: Usage) -> None:
        """Count a billed attempt."""
        usd = self.prices.cost(usage) if self.prices is not None else 0.0
        self.call = self.call + Spend(tokens=usage.total_tokens, usd=usd)

    def refusal(self, prompt_tokens: int, cached_tokens: int = 0) -> str | None:
        """Why a request of ``prompt_tokens`` (``cached_tokens`` of them likely cached) may not be
        sent, or ``None`` when every limit allows it."""
        budget = self.budget
        checks: list[tuple[str, float | None, float, float]] = [
            ("consultation's token", budget.call_tokens, self.call.tokens, prompt_tokens),
            ("session's token", budget.session_tokens, self.session.tokens + self.call.tokens, prompt_tokens)]
        if self.prices is not None:
            cached = min(cached_tokens, prompt_tokens)
            usd = self.prices.cost(Usage(input_tokens=prompt_tokens, cached_input_tokens=cached))
            checks += [("consultation's USD", budget.call_usd, self.call.usd, usd),
                       ("session's USD", budget.session_usd, self.session.usd + self.call.usd, usd)]
        for name, limit, used, needed in checks:
            if limit is not None and used + needed > limit:
                return (f"the {name} budget ({_amount(limit)}) would be exceeded: {_amount(used)} spent, "
                        f"about {_amount(needed)} more needed")
        return None


def _amount(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:.4f}"
