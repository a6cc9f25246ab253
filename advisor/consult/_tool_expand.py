"""``advisor_expand({ids})``: the verbatim text behind ledger cards (what happened)."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from advisor.errors import ToolFailure
from advisor.prompt import clip_middle

Expander = Callable[[str], str | None]
"""Gives the verbatim, redacted text behind a card id (``None`` when the session has no such entry)."""


class ExpandArgs(BaseModel):
    """``advisor_expand`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    ids: list[str] = Field(min_length=1)


def expand(expander: Expander | None, args: ExpandArgs, cap: int) -> str:
    """``#id:`` and its text for each id (each capped at ``max(512, cap / number of ids)``)."""
    if expander is None:
        raise ToolFailure("advisor_expand has no session ledger to read in this consultation")
    each = max(512, cap // len(args.ids))
    parts = []
    for raw in args.ids:
        card = raw.strip().removeprefix("#")
        text = expander(card)
        if text is None:
            parts.append(f"#{card}: not found in this session.")
        else:
            parts.append(f"#{card}:\n{clip_middle(text, each, 'the rest is not shown')}")
    return "\n\n".join(parts)
