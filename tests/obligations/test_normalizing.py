"""Failure fingerprints and redaction, made cheap, say exactly what their plain rules say: the
rules written out one by one, applied in order, are the reference."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from obligations import _redact, fingerprint, normalize
from obligations._redact import redact_line
from obligations._secret_rules import rule_set
from obligations._summary import last_line

PLAIN_RULES = (
    (re.compile(r"\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\b0x[0-9a-f]+\b"), "<hex>"),
    (re.compile(r"\b[0-9a-f]{8,64}\b"), "<id>"),
    (re.compile(r":\d+(:\d+)?\b"), ":#"),
    (re.compile(r"\b\d{10,}\b"), "<n>"),
    (re.compile(r"\b\d+(\.\d+)?\s?(ms|s|sec|secs|seconds?|m|min)\b"), "<duration>"),
    (re.compile(r"\s+"), " "),
)


def plain_normalize(text: str) -> str:
    text = text[-2000:].lower()
    for pattern, replacement in PLAIN_RULES:
        text = pattern.sub(replacement, text)
    return text.strip()


def plain_redact(text: str, limit: int = 300) -> str:
    """Every redaction rule run on the whole text, whatever keywords it holds."""
    text = _redact.redact_by(text, range(len(rule_set().rules)))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plain_last_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


PIECES = st.sampled_from([
    "2026-11-20T10:00:00.123Z", "2026-11-20 10:00", "1999-01-01t00:00+0100", "0x7ffd", "0X1F", "deadbeef",
    "DEADBEEFCAFE", "a1b2c3d4e5f6", "12345678", "1234567890123", "9" * 70, "١٢٣٤٥٦٧٨٩٠١", ":12", ":3:14", "12:30",
    "3.2s", "15 ms", "1.5\tsec", "40 seconds", "7min", "5m", "0.5 s", "٣ ms", "FAILED", "error", " ", "  ", "\n",
    "\t", "\u2028", "\x1c", "\x85", "-", ".", "_", "x", "İ", "ſ", "K",
])
TEXTS = st.lists(PIECES | st.text(max_size=6), max_size=30).map("".join)


@given(TEXTS)
@example("a" * 1990 + " 2026-11-20T10:00:00Z 0x1f deadbeef12 1234567890123 12.5ms")
@example("5.١٢٣٤٥٦٧٨٩٠١ ms")
def test_normalize_is_its_plain_rules_applied_in_order(text: str) -> None:
    """The fast rules (literal first, probes, split and join) give the plain rules' text exactly."""
    assert normalize(text) == plain_normalize(text)


@given(TEXTS)
def test_repeated_failures_get_one_fingerprint(text: str) -> None:
    """Two failures that differ only in volatile parts (a timestamp, a duration) share a fingerprint."""
    assert fingerprint("Bash", f"{text} at 2026-11-20T10:00:00Z in 3.2s") == \
        fingerprint("bash", f"{text} at 2026-11-21T09:30:12Z in 14.9s")


KEYS = st.sampled_from(["sk-abcdefghijklmnop1234", "ghp_abcdefghijklmnopqrst1234", "Bearer abcdef123456789",
                        "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "machine h login u password p",
                        "//r/:_authToken=abcd", "aws_Session_Token=abcdefghijklmnop12", '"auth": "dXNlcjpwYXNz"',
                        "  token:\tabcdefghij", "https://abcdefghijklmnopqrstuv12@h/",
                        "0sk-proj-aB3dEfGhIjKlMnOpQrStUv1",
                        "A" * 30 + "b1" * 17, "\\n", "\u2192",
                        "BEARER xyz.abc.def-ghijkl", "password=hunter2", 'PASSWORD: "x y"', "paſſword=x",
                        "api_key=abc", "ApiKey: 1", "access-token=t", "refresh_token: r", "secret=s", "passwd:p",
                        "ſecret=1", "aKcess_token=2", "gh", "sk-", "bearer", "api", " ", "=", ":", "\n", "é",
                        "AKIAIOSFODNN7EXAMPLE", "eyJhbGciOiJI.eyJzdWIiOiIx.abcdefghij", "x://u:p@h", "İ",
                        "-----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----", "glpat-", "xoxb-"])


@given(st.lists(KEYS | st.text(max_size=8), max_size=12).map("".join), st.integers(min_value=5, max_value=300))
def test_redaction_skips_only_rules_that_cannot_match(text: str, limit: int) -> None:
    """Skipping a rule whose keywords are absent changes nothing: the same text as every rule run."""
    assert redact_line(text, limit) == plain_redact(text, limit)


@given(st.lists(st.sampled_from(["", " ", "\t", "line", "last", "\r\n", "\n", "\r", "\x0b", "\u2028", "x" * 50]),
                max_size=40).map("".join), st.integers(min_value=0, max_value=20_000))
def test_the_last_line_is_found_from_the_end(text: str, padding: int) -> None:
    """Reading only the end finds the same last non-blank line as splitting the whole text."""
    text = "first line\n" + " " * padding + text
    assert last_line(text) == plain_last_line(text)
