"""The verdict line: an answer's first line, ``Severity: none|nit|concern|blocker``.

Parsed tolerantly — case, surrounding whitespace and Markdown emphasis (``*``, ``_``,
backticks) around the word, the colon or the level are ignored — but only on the first
non-blank line, and only with a colon: ``Severity - none``, ``> Severity: none``,
``Severity: nitpick`` and a verdict on a later line are no verdict. An answer without one
keeps ``severity = None``; it is never read as ``none`` (or as anything else).
"""

from __future__ import annotations

import re
from typing import Literal

from advisor._values import Frozen

Severity = Literal["none", "nit", "concern", "blocker"]
"""How much the advice matters: ``none`` on track; ``nit`` optional; ``concern`` likely wrong
or missing something material; ``blocker`` continuing would ship broken or unverified work."""

SEVERITIES: tuple[Severity, ...] = ("none", "nit", "concern", "blocker")
_LEVELS: dict[str, Severity] = {level: level for level in SEVERITIES}

_DECORATION = r"[\s*_`]*"
_LINE = re.compile(rf"^{_DECORATION}severity{_DECORATION}:{_DECORATION}(none|nit|concern|blocker)(?![A-Za-z0-9])",
                   re.IGNORECASE)


class Verdict(Frozen):
    """An answer split into its verdict and the guidance after it."""

    severity: Severity | None
    """The level on the first line; ``None`` when the answer has no verdict line."""
    body: str
    """The rest: the lines after the verdict line (the whole answer when there is none), trimmed."""


def parse_verdict(text: str) -> Verdict:
    """Read the verdict line of an answer."""
    stripped = text.lstrip()
    first, _, rest = stripped.partition("\n")
    match = _LINE.match(first)
    if match is None:
        return Verdict(severity=None, body=text.strip())
    return Verdict(severity=_LEVELS[match.group(1).lower()], body=rest.strip())
