"""Small text tools the ledger's blocks share: one-line flattening, clipping, expand markers."""

from __future__ import annotations

import re

from advisor.prompt import clip_middle

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


def _hint(handle: str | None) -> str:
    return f'advisor_expand("{handle}") for the full text' if handle else ""


def _marker(omitted: int, handle: str | None) -> str:
    hint = _hint(handle)
    return f"[… {omitted} chars omitted — {hint} …]" if hint else f"[… {omitted} chars omitted …]"


def excerpt(text: str, limit: int, handle: str | None, focus: int | None) -> str:
    """:func:`expandable`, except that when the character at ``focus`` (the start of the line that says
    what went wrong) would fall in the omitted middle, a third of ``limit`` is kept on each side and a
    third around it, with a marker for each gap."""
    if len(text) <= limit or focus is None:
        return expandable(text, limit, handle)
    third = max(1, limit // 3)
    if focus < third or focus >= len(text) - third:
        return expandable(text, limit, handle)
    start = max(third, text.rfind("\n", 0, max(third, focus - third // 4)) + 1)
    end = min(start + third, len(text) - third)
    parts = [text[:third]]
    if start > third:
        parts.append(_marker(start - third, handle))
    parts.append(text[start:end])
    if end < len(text) - third:
        parts.append(_marker(len(text) - third - end, handle))
    parts.append(text[len(text) - third:])
    return "\n".join(parts)


def expandable(text: str, limit: int, handle: str | None) -> str:
    """``text`` if it fits in ``limit``, else both ends around a marker naming ``advisor_expand`` for
    the entry ``handle`` (or saying the rest is not shown, without one)."""
    return clip_middle(text, limit, _hint(handle))

