"""Small text tools the ledger's blocks share: one-line flattening, clipping, expand markers."""

from __future__ import annotations

import re

from advisor.consult import clip_middle

_SPACE = re.compile(r"\s+")
SEPARATOR = " · "
"""Between the fields of a card."""


def flatten(text: str) -> str:
    """``text`` on one line: every run of whitespace one space, trimmed."""
    return _SPACE.sub(" ", text).strip()


def clip(text: str, limit: int) -> str:
    """``text`` flattened, cut to ``limit`` characters and ``…`` when longer."""
    flat = flatten(text)
    return flat if len(flat) <= limit else flat[:limit] + "…"


def expandable(text: str, limit: int, handle: str | None) -> str:
    """``text`` if it fits in ``limit``, else both ends around a marker naming ``advisor_expand`` for
    the entry ``handle`` (or saying the rest is not shown, without one)."""
    hint = f'advisor_expand("{handle}") for the full text' if handle else ""
    return clip_middle(text, limit, hint)

