"""The verdict line (reference cases SEV-1…SEV-11, and Hypothesis over decorated lines)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.consult import SEVERITIES, Severity, parse_verdict


@pytest.mark.parametrize(("text", "severity", "body"), [
    ("Severity: concern\n- check x", "concern", "- check x"),            # SEV-1
    ("**Severity:** Blocker\nstop", "blocker", "stop"),                   # SEV-2
    ("  Severity: none", "none", ""),                                     # SEV-3
    ("SEVERITY: CONCERN\nx", "concern", "x"),                              # SEV-5
    ("`Severity`: `nit`", "nit", ""),                                     # SEV-6
    ("\n\nSeverity: nit\n  fix y  \n", "nit", "fix y"),                    # SEV-9
    ("Severity: none. Continue.", "none", ""),                            # SEV-11
    ("Severity: _nit_\nrename", "nit", "rename"),                         # emphasis after the level
    ("__Severity__: **blocker**", "blocker", ""),
])
def test_verdict_lines(text: str, severity: Severity, body: str) -> None:
    """Verdict lines are read whatever their case and Markdown emphasis; the rest is the body."""
    verdict = parse_verdict(text)
    assert (verdict.severity, verdict.body) == (severity, body)


@pytest.mark.parametrize("text", [
    "Looks fine.\nSeverity: none",      # SEV-4: not the first line
    "Severity: nitpick",               # SEV-7: word boundary
    "> Severity: none",                # SEV-8: quoted
    "Severity - none",                 # SEV-10: colon required
    "Severity: fine",
    "",
])
def test_no_verdict_line_is_never_upgraded(text: str) -> None:
    """An answer without a verdict line has no severity, and its whole text is the body."""
    verdict = parse_verdict(text)
    assert verdict.severity is None and verdict.body == text.strip()


decoration = st.text(alphabet=" *_`", max_size=3)
cases = st.sampled_from(["lower", "upper", "title"])


@given(st.sampled_from(SEVERITIES), decoration, decoration, decoration, cases, st.text(max_size=80))
def test_any_decorated_verdict_parses(level: Severity, before: str, around: str, after: str, case: str,
                                      body: str) -> None:
    """Any mix of emphasis, spaces and case around `Severity: <level>` yields that level and the body."""
    word = {"lower": str.lower, "upper": str.upper, "title": str.title}[case]
    line = f"{before}{word('severity')}{around}:{around}{word(level)}{after.replace(' ', '')}"
    verdict = parse_verdict(f"{line}\n{body}")
    assert verdict.severity == level and verdict.body == body.strip()


@given(st.text(max_size=200).filter(lambda t: "severity" not in t.lower()))
def test_text_without_the_word_has_no_verdict(text: str) -> None:
    """Text that never says 'severity' never gets a verdict."""
    assert parse_verdict(text).severity is None
