"""Failure fingerprints: the same failure twice gets the same fingerprint.

Volatile text — hex ids, `:line:col`, timestamps, long numbers — is normalised first, so a
failure that recurs with another temporary path or timestamp still counts as a repeat.
"""

from __future__ import annotations

import hashlib
import re

_TAIL = 2000
"""Characters of a failure's text that are normalised: its end, where the summary and the last error are."""

# The rules, in the order they apply. Each is written to start with the literal or the class of
# characters its match starts with (a word boundary moved into a look-behind), so that a search
# skips straight to candidates instead of trying the rule at every character; a rule whose
# literal the text lacks is not run at all. Each matches exactly what its plain form says:
#   \d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?  -> <time>
#   \b0x[0-9a-f]+\b -> <hex>    \b[0-9a-f]{8,64}\b -> <id>    :\d+(:\d+)?\b -> :#
#   \b\d{10,}\b -> <n>          \b\d+(\.\d+)?\s?(ms|s|sec|secs|seconds?|m|min)\b -> <duration>
#   \s+ -> " " (and the ends stripped)
_TIME = re.compile(r"\d\d\d\d-\d\d-\d\d[t ]\d\d:\d\d(:\d\d(\.\d+)?)?(z|[+-]\d\d:?\d\d)?")
_TIME_PROBE = re.compile(r"-(?<=\d\d\d\d-)\d\d-\d\d[t ]")
"""What every ``_TIME`` match holds, found from its first ``-``."""
_HEX = re.compile(r"0x(?<=\b0x)[0-9a-f]+\b")
_ID = re.compile(r"[0-9a-f](?<=\b[0-9a-f])[0-9a-f]{7,63}\b")
_LINE_COLUMN = re.compile(r":\d+(:\d+)?\b")
_NUMBER = re.compile(r"\d(?<=\b\d)\d{9,}\b")
_DURATION = re.compile(r"\d(?<=\b\d)\d*(\.\d+)?\s?(ms|s|sec|secs|seconds?|m|min)\b")


def normalize(text: str) -> str:
    """The last 2,000 characters, lower case, volatile parts replaced, whitespace collapsed."""
    # A failure shows itself at the end of its output (the summary, the last error): the tail is
    # enough to tell two failures apart, and far cheaper than the whole of a long log.
    text = text[-_TAIL:].lower()
    if _TIME_PROBE.search(text):
        text = _TIME.sub("<time>", text)
    if "0x" in text:
        text = _HEX.sub("<hex>", text)
    text = _ID.sub("<id>", text)
    if ":" in text:
        text = _LINE_COLUMN.sub(":#", text)
    text = _NUMBER.sub("<n>", text)
    text = _DURATION.sub("<duration>", text)
    return " ".join(text.split())


def target_fingerprint(tool: str, targets: tuple[str, ...]) -> str:
    """A fingerprint of an edit's targets (paths are not volatile: no normalising needed)."""
    return hashlib.sha256(f"{tool.lower()}\n{chr(0).join(targets)}".encode("utf-8", "surrogatepass")).hexdigest()[:20]


def fingerprint(tool: str, text: str) -> str:
    """A 20-hex-digit fingerprint of a failure of ``tool`` with output ``text``."""
    data = f"{tool.lower()}\n{normalize(text)}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:20]
