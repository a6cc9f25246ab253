"""Fitting a request into a token budget by leaving out the fewest leading blocks.

When the request is over budget, the smallest number of leading blocks (across every segment,
the open one's log included, never its verbatim tail) is left out so that it fits the budget
with a sixth to spare (``budget / 1.2``), so the next consultations still fit without moving
the cut again. The user's words from the omitted span are restated, and a marker says what was
left out. A cut, once made, is kept (a *sticky anchor*): consecutive requests keep sharing
their prefix. If leaving out every such block is not enough, the verbatim tail's per-part cap
is lowered through 4000, 2000, 1000 and 500 characters; if even that does not fit, the request
does not fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.prompt import PromptMessage

from ._render import Draft, render

CHARS_PER_TOKEN = 4
"""The estimate every budget uses (as :func:`advisor.models.estimate_tokens` does)."""
TAIL_CAPS = (4000, 2000, 1000, 500)
HEADROOM = 1.2


@dataclass(frozen=True, slots=True)
class Fitted:
    """The messages chosen, and how they were made to fit."""

    messages: list[PromptMessage]
    cut: int
    """Leading blocks left out."""
    cap: int
    """The verbatim tail's per-part cap used."""
    tokens: int
    """The request's estimated size (characters / 4)."""
    fits: bool
    """Whether it is within the budget (always, without one)."""


def _tokens(messages: list[PromptMessage], fixed: int) -> int:
    return math.ceil((fixed + sum(len(message.text) for message in messages)) / CHARS_PER_TOKEN)


def fit(draft: Draft, *, fixed_chars: int, budget: int, cap: int, anchor: int = 0) -> Fitted:
    """Render ``draft`` within ``budget`` tokens (0: no limit); ``fixed_chars`` are the system
    prompt's and tool declarations' characters; ``anchor`` the cut an earlier request made."""
    anchor = min(anchor, draft.droppable)
    messages = render(draft, cut=anchor, cap=cap)
    tokens = _tokens(messages, fixed_chars)
    if budget <= 0 or tokens <= budget:
        return Fitted(messages, anchor, cap, tokens, True)
    goal = int(budget / HEADROOM)
    most = draft.droppable
    for tail_cap in (cap, *(value for value in TAIL_CAPS if value < cap)):
        smallest = render(draft, cut=most, cap=tail_cap)
        least = _tokens(smallest, fixed_chars)
        if least > budget:
            continue
        if least > goal:
            return Fitted(smallest, most, tail_cap, least, True)
        low, high = anchor, most
        while low < high:  # the smallest cut that fits the goal: leaving out more never grows a request
            middle = (low + high) // 2
            if _tokens(render(draft, cut=middle, cap=tail_cap), fixed_chars) <= goal:
                high = middle
            else:
                low = middle + 1
        chosen = render(draft, cut=low, cap=tail_cap)
        return Fitted(chosen, low, tail_cap, _tokens(chosen, fixed_chars), True)
    last = TAIL_CAPS[-1] if cap > TAIL_CAPS[-1] else cap
    smallest = render(draft, cut=most, cap=last)
    return Fitted(smallest, most, last, _tokens(smallest, fixed_chars), False)
