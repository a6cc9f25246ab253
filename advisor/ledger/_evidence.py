"""What witness knows about a shell call that ran a check, for its card: which check, and whether
the exit status the agent saw was the check's own.

================================  ===========================================================
evidence                          when
================================  ===========================================================
``check: C (kind) · witnessed``   exit 0, and the status is the check's own (under the policy)
``… · witnessed via `| tail -5``` the same through a reporting pipe (accepted by the ``seed``
                                  policy; without ``pipefail`` a failure could still report 0)
``… · failed``                    a non-zero exit that is the check's own
``… · masked by `; echo done```   the status is another command's: a "pass" proves nothing
``… · no exit status``            the host recorded none (never a pass)
``… · output shows a failure: X`` a reported pass whose output the check's runner says failed
================================  ===========================================================

A command with several checks lists each (at most three, then how many more).
"""

from __future__ import annotations

from obligations import CallRecord, CheckVerdict

from ._text import SEPARATOR, clip

_SHOWN_CHECKS = 3
FAILURE_SHOWN = "output shows a failure"
"""The field for a reported pass whose output the check's runner says failed."""
_SPAN_LIMIT = 40


def _span_text(command: str, verdict: CheckVerdict, level: str) -> str | None:
    for reason in verdict.check.reasons:
        if reason.level == level and reason.span is not None:
            return clip(command[reason.span.start:reason.span.end], _SPAN_LIMIT)
    return None


def _verdict(command: str, verdict: CheckVerdict, exit_code: int | None) -> str:
    if exit_code is None:
        return "no exit status"
    check = verdict.check
    if not check.witness_eligible:
        masked = _span_text(command, verdict, "masks")
        return f"masked by `{masked}`" if masked else f"{check.exit_source}: not the check's own status"
    if exit_code != 0:
        return "failed"
    pipe = _span_text(command, verdict, "residual") if check.exit_source == "reporting-pipe" else None
    return f"witnessed via `{pipe}`" if pipe else "witnessed"


def check_evidence(record: CallRecord) -> str:
    """The card fields of a completed call that ran one or more checks (``""`` for any other call), from
    the tracker's record of it (of events already redacted: the spans and the failure line are cut from
    clean text)."""
    if not record.checks or record.command is None:
        return ""
    command = record.command
    parts = []
    for verdict in record.checks[:_SHOWN_CHECKS]:
        validation = verdict.check.validation
        what = f"check: {clip(validation.statement, 60)} ({validation.kind})"
        parts.append(f"{what}{SEPARATOR}{_verdict(command, verdict, record.exit_code)}")
    if len(record.checks) > _SHOWN_CHECKS:
        parts.append(f"{len(record.checks) - _SHOWN_CHECKS} more checks")
    if record.exit_code in (0, None):
        failure = next((v.evidence for v in record.checks if v.verdict == "failed" and v.evidence is not None), None)
        if failure is not None:
            parts.append(f"{FAILURE_SHOWN}: {clip(failure, 80)}")
    return SEPARATOR.join(parts)
