"""Outcome classes of a completed tool call.

Structured exclusions come first (a denied, cancelled, timed-out or broken call says nothing
about the code), then a lone probe's "no" (``grep`` finding nothing), then failures — keyed to a
check or not — and success. A success without an exit code is never a pass.
"""

from __future__ import annotations

import re

from ._calls import Call

PERMISSION_DENIAL = "permission-denial"
CANCELLED = "cancelled"
TIMEOUT = "timeout"
INFRASTRUCTURE = "tool-infrastructure-error"
EXPECTED_NEGATIVE = "expected-negative"
VALIDATION_FAILURE = "validation-failure"
UNKNOWN_FAILURE = "unknown-failure"
SUCCESS = "success"
OUTCOMES = (PERMISSION_DENIAL, CANCELLED, TIMEOUT, INFRASTRUCTURE, EXPECTED_NEGATIVE, VALIDATION_FAILURE,
            UNKNOWN_FAILURE, SUCCESS)
EXCLUDED = frozenset({PERMISSION_DENIAL, CANCELLED, TIMEOUT, INFRASTRUCTURE, EXPECTED_NEGATIVE})

_CODES = (
    (PERMISSION_DENIAL, re.compile(r"PERMISSION|APPROVAL|POLICY|DENIED|EACCES|EPERM|FORBIDDEN|REJECT", re.I)),
    (CANCELLED, re.compile(r"ABORT|CANCEL|INTERRUPT", re.I)),
    (TIMEOUT, re.compile(r"TIME_?OUT|ETIMEDOUT|DEADLINE", re.I)),
    (INFRASTRUCTURE, re.compile(r"ECONN|ENOTFOUND|EAI_AGAIN|NETWORK|INTERNAL|RATE_?LIMIT|UNAVAILABLE|SERVER_ERROR",
                                re.I)),
)
_MESSAGES = (
    (PERMISSION_DENIAL, re.compile(r"^\s*(permission denied|access denied|eacces|eperm|approval|"
                                   r"the user doesn't want to proceed|user rejected|denied by)", re.I)),
    (CANCELLED, re.compile(r"^\s*(aborted|cancell?ed|interrupted|\[request interrupted)", re.I)),
    (TIMEOUT, re.compile(r"^\s*(timed out|timeout|command timed out)", re.I)),
    (INFRASTRUCTURE, re.compile(r"^\s*(econnrefused|econnreset|enotfound|network error|rate limit)", re.I)),
)


def classify(call: Call | None, exit_code: int | None, is_error: bool, error_code: str | None,
             error_message: str | None) -> str:
    """The outcome class of a completed call (``call`` is ``None`` when its dispatch was lost)."""
    if error_code:
        for outcome, pattern in _CODES:
            if pattern.search(error_code):
                return outcome
    if error_message and (is_error or exit_code is None or exit_code != 0):
        for outcome, pattern in _MESSAGES:
            if pattern.search(error_message):
                return outcome
    failed = is_error or (exit_code is not None and exit_code != 0)
    analysis = call.analysis if call is not None else None
    if failed and exit_code == 1 and analysis is not None and analysis.expected_negative:
        return EXPECTED_NEGATIVE
    if failed:
        return VALIDATION_FAILURE if analysis is not None and analysis.validation is not None else UNKNOWN_FAILURE
    return SUCCESS
