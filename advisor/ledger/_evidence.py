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

import shellparse
from obligations import ToolCompleted, ToolDispatched, shell_command
from shellparse import Check, Policy

from ._text import SEPARATOR, clip

_SHOWN_CHECKS = 3
FAILURE_SHOWN = "output shows a failure"
"""The field for a reported pass whose output the check's runner says failed."""
_SPAN_LIMIT = 40


def _span_text(command: str, check: Check, level: str) -> str | None:
    for reason in check.reasons:
        if reason.level == level and reason.span is not None:
            return clip(command[reason.span.start:reason.span.end], _SPAN_LIMIT)
    return None


def _verdict(command: str, check: Check, exit_code: int | None) -> str:
    if exit_code is None:
        return "no exit status"
    if not check.witness_eligible:
        masked = _span_text(command, check, "masks")
        return f"masked by `{masked}`" if masked else f"{check.exit_source}: not the check's own status"
    if exit_code != 0:
        return "failed"
    pipe = _span_text(command, check, "residual") if check.exit_source == "reporting-pipe" else None
    return f"witnessed via `{pipe}`" if pipe else "witnessed"


def witnessed_keys(call: ToolDispatched, result: ToolCompleted, policy: Policy = "seed") -> list[str]:
    """The checks a shell call passed genuinely: exit 0, the status each check's own, no failure in
    the output (their validation keys)."""
    found = shell_command(call.tool, call.arguments, call.shell)
    if found is None or result.exit_code != 0:
        return []
    analysis = shellparse.analyze(found[0], found[1], policy)
    passed = [check for check in analysis.checks if check.witness_eligible]
    if not passed or (result.output and any(shellparse.failure_evidence(check.validation.family, result.output)
                                            for check in passed)):
        return []
    return [check.validation.key for check in passed]


def check_evidence(call: ToolDispatched, result: ToolCompleted, policy: Policy = "seed") -> str:
    """The card fields for a shell call that ran one or more checks (``""`` for any other call), of
    events already redacted: the command's spans and the failure line are cut from clean text."""
    found = shell_command(call.tool, call.arguments, call.shell)
    if found is None:
        return ""
    command, dialect = found
    analysis = shellparse.analyze(command, dialect, policy)
    if not analysis.checks:
        return ""
    parts = []
    for check in analysis.checks[:_SHOWN_CHECKS]:
        validation = check.validation
        what = f"check: {clip(validation.statement, 60)} ({validation.kind})"
        parts.append(f"{what}{SEPARATOR}{_verdict(command, check, result.exit_code)}")
    if len(analysis.checks) > _SHOWN_CHECKS:
        parts.append(f"{len(analysis.checks) - _SHOWN_CHECKS} more checks")
    if result.exit_code in (0, None) and result.output:
        families = dict.fromkeys(check.validation.family for check in analysis.checks)
        failure = next((evidence for family in families
                        if (evidence := shellparse.failure_evidence(family, result.output)) is not None), None)
        if failure is not None:
            parts.append(f"{FAILURE_SHOWN}: {clip(failure, 80)}")
    return SEPARATOR.join(parts)
