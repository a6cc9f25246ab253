"""Outcome classes of a completed tool call.

Structured exclusions come first (a denied, cancelled, timed-out or broken call says nothing
about the code), then a lone probe's "no" (``grep`` finding nothing), then failures — keyed to a
check when the status is a check's own (126 and 127 from its own program mean it never ran:
:data:`NOT_RUN_EXITS`) — and success. A success without an exit code is never a pass.

A structured error code is looked up, never searched: :data:`ERROR_CODES` is the table of the
codes hosts and the transcript readers use, each with the outcome it means. Hosts' error
*messages* have no fixed vocabulary, so they are recognised by their opening words.
"""

from __future__ import annotations

import re

from ._calls import Call
from ._vocabulary import EXCLUDED_OUTCOMES, ExcludedOutcome, Outcome

EXCLUDED: frozenset[Outcome] = frozenset(EXCLUDED_OUTCOMES)
"""Outcomes that neither open, close nor score an obligation."""

ERROR_CODES: dict[str, ExcludedOutcome] = {
    # The readers' own codes (obligations.sources): Claude Code, Codex and Pi refusals,
    # interruptions and time-outs recognised in the host's error text.
    "permission_denied": "permission-denial",
    "interrupted": "cancelled",
    "timeout": "timeout",
    # Refusals: POSIX errno names, and the words approval and sandbox layers use.
    "eacces": "permission-denial",
    "eperm": "permission-denial",
    "permission": "permission-denial",
    "access_denied": "permission-denial",
    "denied": "permission-denial",
    "forbidden": "permission-denial",
    "rejected": "permission-denial",
    "user_rejected": "permission-denial",
    "declined": "permission-denial",
    "approval": "permission-denial",
    "approval_required": "permission-denial",
    "approval_denied": "permission-denial",
    "needs_approval": "permission-denial",
    "policy": "permission-denial",
    "policy_violation": "permission-denial",
    "policy_denied": "permission-denial",
    "sandbox_denied": "permission-denial",
    # Cancellations.
    "cancelled": "cancelled",
    "canceled": "cancelled",
    "aborted": "cancelled",
    "abort": "cancelled",
    "interrupt": "cancelled",
    "user_interrupted": "cancelled",
    "user_cancelled": "cancelled",
    # Time-outs.
    "timed_out": "timeout",
    "time_out": "timeout",
    "etimedout": "timeout",
    "deadline_exceeded": "timeout",
    # The tool's own infrastructure failed: network, the tool server, rate limits.
    "econnrefused": "tool-infrastructure-error",
    "econnreset": "tool-infrastructure-error",
    "econnaborted": "tool-infrastructure-error",
    "enotfound": "tool-infrastructure-error",
    "eai_again": "tool-infrastructure-error",
    "network": "tool-infrastructure-error",
    "network_error": "tool-infrastructure-error",
    "internal": "tool-infrastructure-error",
    "internal_error": "tool-infrastructure-error",
    "rate_limit": "tool-infrastructure-error",
    "rate_limited": "tool-infrastructure-error",
    "rate_limit_exceeded": "tool-infrastructure-error",
    "ratelimit": "tool-infrastructure-error",
    "unavailable": "tool-infrastructure-error",
    "service_unavailable": "tool-infrastructure-error",
    "server_error": "tool-infrastructure-error",
}
"""Structured error codes, in lower case with ``-`` and spaces read as ``_``, and what each
means. A code not listed here says nothing: the exit code and the message decide."""

_MESSAGES: tuple[tuple[ExcludedOutcome, re.Pattern[str]], ...] = (
    ("permission-denial", re.compile(r"^\s*(permission denied|access denied|eacces|eperm|approval|"
                                     r"the user doesn't want to proceed|user rejected|denied by)", re.I)),
    ("cancelled", re.compile(r"^\s*(aborted|cancell?ed|interrupted|\[request interrupted)", re.I)),
    ("timeout", re.compile(r"^\s*(timed out|timeout|command timed out)", re.I)),
    ("tool-infrastructure-error", re.compile(r"^\s*(econnrefused|econnreset|enotfound|network error|rate limit)",
                                             re.I)),
)


NOT_RUN_EXITS: dict[int, str] = {
    126: "the check's program was found but could not be executed",
    127: "the check's program was not found",
}
"""Exit statuses of a check's own program that mean it never ran (the shell's own codes): a
tool-infrastructure outcome, neither a failure nor a pass."""


SIGPIPE = 141
"""The status of a command killed by SIGPIPE: a check behind ``| head`` under pipefail dies of it when
``head`` stops reading, whether it would have passed or not."""


def outcome_of_code(error_code: str) -> ExcludedOutcome | None:
    """What a structured error code means (see :data:`ERROR_CODES`), or ``None`` for a code it does not list."""
    return ERROR_CODES.get(error_code.strip().lower().replace("-", "_").replace(" ", "_"))


def classify(call: Call | None, exit_code: int | None, is_error: bool, error_code: str | None,
             error_message: str | None) -> Outcome:
    """The outcome class of a completed call (``call`` is ``None`` when its dispatch was lost)."""
    if error_code:
        excluded = outcome_of_code(error_code)
        if excluded is not None:
            return excluded
    if error_message and (is_error or exit_code is None or exit_code != 0):
        for outcome, pattern in _MESSAGES:
            if pattern.search(error_message):
                return outcome
    failed = is_error or (exit_code is not None and exit_code != 0)
    analysis = call.analysis if call is not None else None
    if failed and exit_code == 1 and analysis is not None and analysis.expected_negative:
        return "expected-negative"
    if not failed:
        return "success"
    # A failure is a check's only when its exit status is the check's own (its output may still
    # show one: the tracker judges each check with the output, see _judgements).
    owned = analysis is not None and any(check.failure_eligible for check in analysis.checks)
    if owned and exit_code in NOT_RUN_EXITS:
        return "tool-infrastructure-error"
    return "validation-failure" if owned else "unknown-failure"
