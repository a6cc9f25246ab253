"""Credential-shaped text is removed before anything is stored or shown."""

from __future__ import annotations

import re

_PATTERNS = (
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{16,}"), "[REDACTED]"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), "[REDACTED]"),
    (re.compile(r"\b(Bearer)\s+[A-Za-z0-9._\-~+/]{12,}=*", re.IGNORECASE), r"\1 [REDACTED]"),
    (re.compile(r'("?(?:api[_-]?key|access[_-]?token|refresh[_-]?token|password|passwd|secret)"?\s*[:=]\s*)'
                r'("[^"]*"|[^\s,;]+)', re.IGNORECASE), r'\1"[REDACTED]"'),
)


def redact(text: str, limit: int = 300) -> str:
    """``text`` with tokens and secrets replaced, cut to ``limit`` characters."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
