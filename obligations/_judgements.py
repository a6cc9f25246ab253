"""What one completed command says about each check it ran.

A command line can run several checks (``npm run lint && npm test``), and each is judged on its
own:

- a non-zero exit is a check's failure only when that status is the check's own
  (``failure_eligible``); a masked check's exit proves nothing either way;
- its output still can: the failure markers that refute a false pass also prove a failure,
  whatever the exit (``go test ./… | grep -i fail`` exiting 1 is grep finding nothing, but a
  ``FAIL`` line in the output is a failure);
- exit 0 (or a result without an exit code) is a candidate pass; whether it witnesses anything
  is the tracker's question (eligibility, order, mutations);
- exit 126 or 127 from the check's own program (not executable, not found) means it never ran:
  neither a failure nor a pass; so does a failure whose only evidence is its runner saying it
  found nothing to run as asked (``shellparse.not_run_evidence``: no such script, target, test
  target or project);
- in a run of an ``&&`` list (or a ``set -e`` script) that did not exit 0, at most one of its
  checks failed: the first whose output shows it — the ones after it never ran, and their
  markers can only match the failed one's output;
- a check that runs anything (``make``, ``mise run``, an npm script) reads every family's
  markers, except those of the other checks in the same command: their failures are theirs.
"""

from __future__ import annotations

from typing import NamedTuple

import shellparse

from ._calls import Call
from ._events._tool_completed import ToolCompleted
from ._outcomes import NOT_RUN_EXITS, SIGPIPE
from ._vocabulary import Judged


class Judgement(NamedTuple):
    """One check of a completed command, and what the command says about it."""

    check: shellparse.Check
    verdict: Judged
    """``failed``, ``passed`` (a candidate pass) or ``not-run``."""
    evidence: str | None
    """The line of the output that shows it failed (or, for ``not-run``, that it found nothing to
    run), when its output does."""
    own_markers: bool = False
    """``evidence`` was looked for with all of the check's own markers, none of another check's
    left out: then it is also the failure summary its output shows (see ``_summary``)."""


def judge(call: Call, event: ToolCompleted) -> list[Judgement]:
    """The verdict of ``event`` on each check ``call`` ran, in source order."""
    analysis = call.analysis
    if analysis is None or not analysis.checks:
        return []
    output = event.output or ""
    exit_code = event.exit_code
    failed = event.is_error or (exit_code is not None and exit_code != 0)
    judgements = []
    ended: set[int] = set()  # chains whose failing check was found: the rest of them never ran
    families = {shellparse.marker_family(check.validation) for check in analysis.checks}
    for check in analysis.checks:
        if exit_code != 0 and check.chain in ended:
            continue
        besides = families - {shellparse.marker_family(check.validation)}
        evidence = shellparse.failure_evidence(check.validation, output, besides=besides) if output else None
        owned = check.failure_eligible and not (check.exit_source == "reporting-pipe" and exit_code == SIGPIPE)
        absent = shellparse.not_run_evidence(check.validation, output) \
            if output and (evidence is not None or failed) else None
        if failed and owned and exit_code in NOT_RUN_EXITS:
            judgements.append(Judgement(check, "not-run", None))
        elif absent is not None and evidence in (None, absent):
            judgements.append(Judgement(check, "not-run", absent))
            if check.chain is not None and exit_code != 0:
                ended.add(check.chain)
        elif evidence is not None or (failed and owned):
            judgements.append(Judgement(check, "failed", evidence, own_markers=not besides))
            if check.chain is not None and exit_code != 0:
                ended.add(check.chain)
        elif not failed:
            judgements.append(Judgement(check, "passed", None))
    return judgements
