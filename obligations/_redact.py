"""Credential-shaped text is removed before anything is stored or shown."""

from __future__ import annotations

import re

_PATTERNS = (
    (("sk-",), re.compile(r"\bsk-[A-Za-z0-9_\-]{16,}"), "[REDACTED]"),
    (("gh",), re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), "[REDACTED]"),
    (("bearer",), re.compile(r"\b(Bearer)\s+[A-Za-z0-9._\-~+/]{12,}=*", re.IGNORECASE), r"\1 [REDACTED]"),
    (("api", "access", "refresh", "passw", "secret"),
     re.compile(r'("?(?:api[_-]?key|access[_-]?token|refresh[_-]?token|password|passwd|secret)"?\s*[:=]\s*)'
                r'("[^"]*"|[^\s,;]+)', re.IGNORECASE), r'\1"[REDACTED]"'),
)
"""Each rule with the words (in lower case) one of which every match of it holds: in ASCII text a
rule whose words are absent cannot match, and is not run. Outside ASCII every rule runs, because
case-insensitive matching knows more spellings than lower case does (``ſ`` for ``s``)."""


def redact(text: str, limit: int = 300) -> str:
    """``text`` with tokens and secrets replaced, cut to ``limit`` characters."""
    lower = text.lower() if text.isascii() else None
    for words, pattern, replacement in _PATTERNS:
        if lower is not None and not any(word in lower for word in words):
            continue
        text = pattern.sub(replacement, text)
        if lower is not None:
            lower = text.lower()
    return text if len(text) <= limit else text[: limit - 1] + "…"
