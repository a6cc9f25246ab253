"""The one line that says what a failed check printed: its failure summary, else its last line.

Outputs can be megabytes; only their ends are read. A check's failure summary is found by
shellparse's markers (which read the head and the tail of the output), and the fallback is the
last non-blank line, found from the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shellparse

from ._redact import redact_line as redact

if TYPE_CHECKING:
    from ._events._tool_completed import ToolCompleted
    from ._judgements import Judgement

_EVIDENCE_CHARS = 200
"""A failure line's width in a summary (shellparse's own)."""
_TAIL = 4096
"""Characters read from the end at first when looking for the last line; doubled while they hold
no complete non-blank line."""


def _status_summary(exit_code: int | None, evidence: str | None, output: str, error_message: str | None) -> str:
    """A failing status and what shows it: the failure summary ``evidence``, else the last line."""
    detail = evidence or last_line(error_message or output)
    status = f"exited {exit_code}" if exit_code is not None else "failed"
    return redact(f"{status}: {detail}" if detail else status)


def _whole_line(evidence: str, output: str) -> str:
    """The failure line ``evidence`` holds, whole: shellparse cuts a long one at 200 characters, and a secret
    cut in half there is no longer recognised, so the line it was cut from is redacted, then cut. Where
    the line cannot be found again, the cut word is left out (a half secret is always the last word)."""
    if not evidence.endswith("…"):
        return evidence
    head = evidence[:-1]
    at = output.find(head)
    if at < 0:
        kept = head.rsplit(None, 1)[0] if " " in head.strip() else ""
        return f"{kept} …" if kept else "…"
    end = output.find("\n", at)
    return redact(output[at:end if end >= 0 else len(output)].strip(), _EVIDENCE_CHARS)


def judged_summary(judgement: Judgement, event: ToolCompleted) -> str:
    """What an item says about a failure a completed command showed (redacted)."""
    check, evidence = judgement.check, judgement.evidence
    if evidence is not None:
        evidence = _whole_line(evidence, event.output or "")
    validation = check.validation
    if evidence is None or (check.failure_eligible and event.exit_code not in (0, None)):
        # Its own failing status (or the host's error flag without an exit code). The judgement's
        # evidence is its summary when no other check's markers were left out of the search.
        output = event.output or ""
        own = evidence if judgement.own_markers else shellparse.failure_evidence(validation, output)
        if own is not None and not judgement.own_markers:
            own = _whole_line(own, output)
        return _status_summary(event.exit_code, own, output, event.error_message)
    if event.exit_code == 0:
        return redact(f"reported exit 0, but its output shows a failure: {evidence}")
    if event.exit_code is None:
        return redact(f"no exit code was reported, but its output shows a failure: {evidence}")
    return redact(f"its output shows a failure (the exit status {event.exit_code} was not its own): {evidence}")


def shown(validation: shellparse.Validation) -> str:
    """A check as an item names it: its statement, after the environment that is part of its
    identity (the directory it moves into is part of the item's place)."""
    if not validation.environment:
        return validation.statement
    return " ".join((*validation.environment, validation.statement))


def last_line(text: str) -> str:
    """The last non-blank line of ``text``, stripped (``""`` when there is none).

    The same as scanning ``text.splitlines()`` from the end, reading only as much of the end as needed."""
    size = _TAIL
    while True:
        start = max(0, len(text) - size)
        lines = text[start:].splitlines()
        # The first line of a cut may be the end of a longer one: it counts only when nothing was cut.
        whole = lines if start == 0 else lines[1:]
        for line in reversed(whole):
            if line.strip():
                return line.strip()
        if start == 0:
            return ""
        size *= 4
