"""The tool catalogue message: every tool the executor may call, by name and purpose, no schemas.

It is the first message of every request, so it must not change within a session: it is made
once, from the host's built-in tools and any the host declares up front, sorted by name, one
line each (``- name — first sentence of its description``). Schemas are left out: the advisor
judges tool *choice* and never calls an executor tool, and a schema edit anywhere would
invalidate the whole cached prefix. Tools a session declares later are listed in the log where
they appear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from obligations import ToolInfo, redact

from ._text import flatten

HEADER = "## Executor's tool catalogue (names and purpose only)"
SENTENCE_LIMIT = 200
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def first_sentence(description: str) -> str:
    """The first sentence of a description (up to the first ``.``, ``!`` or ``?`` followed by a
    space or the end), whitespace collapsed, cut at 200 characters with ``…``."""
    text = flatten(description)
    end = next((m.end() for m in _SENTENCE_END.finditer(text) if m.start() > 0), len(text))
    sentence = text[:end]
    return sentence if len(sentence) <= SENTENCE_LIMIT else sentence[:SENTENCE_LIMIT] + "…"


def tool_lines(tools: Iterable[ToolInfo]) -> list[str]:
    """One ``- name — purpose`` line per distinct name (the first description given wins), sorted; the
    descriptions are redacted (a host or client writes them, and may write a key into one)."""
    purposes: dict[str, str] = {}
    for tool in tools:
        purposes.setdefault(tool.name, first_sentence(redact(tool.description)))
    return [f"- {name} — {purpose}" if purpose else f"- {name}" for name, purpose in sorted(purposes.items())]


def catalogue_message(tools: Iterable[ToolInfo]) -> str | None:
    """The catalogue message's text (``None`` for no tools: then there is no such message)."""
    lines = tool_lines(tools)
    return f"{HEADER}\n\n" + "\n".join(lines) if lines else None
