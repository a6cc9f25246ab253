"""What a consultation can be asked on: a request made already, or anything that compiles one.

A session's :class:`~advisor.ledger.Ledger` is a :class:`PromptSource`: the consultation asks it for
the request with the question, the review flag and the tools it will declare, and its ``expand``
answers ``advisor_expand``. The protocol sits here, below both the ledger and the consultation, so
neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from advisor.models import ToolSpec
from advisor.prompt._request import AdvisorPrompt


@dataclass(frozen=True, slots=True)
class Compiled:
    """A request and how it was made to fit."""

    prompt: AdvisorPrompt
    """The request."""
    fits: bool
    """Whether it is within the token budget (always, without one)."""
    tokens: int
    """Its estimated size (characters / 4)."""
    dropped_blocks: int
    """Leading blocks left out to fit."""


class PromptSource(Protocol):
    """Something a consultation compiles its request from (a :class:`~advisor.ledger.Ledger`)."""

    @property
    def session_id(self) -> str | None:
        """The executor session the request is about (it keys the prompt cache and the session budget)."""

    def compile(self, *, question: str | None = None, review: bool = False, tools: Sequence[ToolSpec] | None = None,
                token_budget: int | None = None) -> Compiled:
        """The request now, with ``tools`` declared, and whether it fits its token budget."""

    def expand(self, handle: str) -> str | None:
        """The verbatim (redacted) text behind a card id (``None``: no such entry)."""
