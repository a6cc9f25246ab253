"""Failure fingerprints: the same failure twice gets the same fingerprint.

Volatile text — hex ids, `:line:col`, timestamps, long numbers — is normalised first, so a
failure that recurs with another temporary path or timestamp still counts as a repeat.
"""

from __future__ import annotations

import hashlib
import re

_RULES = (
    (re.compile(r"\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\b0x[0-9a-f]+\b"), "<hex>"),
    (re.compile(r"\b[0-9a-f]{8,64}\b"), "<id>"),
    (re.compile(r":\d+(:\d+)?\b"), ":#"),
    (re.compile(r"\b\d{10,}\b"), "<n>"),
    (re.compile(r"\b\d+(\.\d+)?\s?(ms|s|sec|secs|seconds?|m|min)\b"), "<duration>"),
    (re.compile(r"\s+"), " "),
)


def normalize(text: str) -> str:
    """The last 2,000 characters, lower case, volatile parts replaced, whitespace collapsed."""
    # A failure shows itself at the end of its output (the summary, the last error): the tail is
    # enough to tell two failures apart, and far cheaper than the whole of a long log.
    text = text[-2000:].lower()
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text.strip()


def target_fingerprint(tool: str, targets: tuple[str, ...]) -> str:
    """A fingerprint of an edit's targets (paths are not volatile: no normalising needed)."""
    return hashlib.sha256(f"{tool.lower()}\n{chr(0).join(targets)}".encode("utf-8", "surrogatepass")).hexdigest()[:20]


def fingerprint(tool: str, text: str) -> str:
    """A 20-hex-digit fingerprint of a failure of ``tool`` with output ``text``."""
    data = f"{tool.lower()}\n{normalize(text)}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:20]
