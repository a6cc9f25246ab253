"""The tracker's record of one tool call: what it is, what it may change, and what its result says.

This is the one place a tool call is judged. The tracker builds a record for every call it takes
(:meth:`Tracker.interpret` before a dispatch is taken, :meth:`Tracker.watch` for every completion),
and :func:`call_record` builds the same record of one call on its own (no order, no state) for a
program that shows a single round. Everything above the tracker — the advisor's ledger cards, a
host's workspace lease, case packets — reads these records instead of judging the call again.

=====================  ==========================================================================
field                  what it says
=====================  ==========================================================================
``kind``               ``shell``, ``edit``, ``read``, ``ignored`` or ``other`` (an unknown tool)
``command``, ``shell`` a shell tool's command line and its dialect
``mutates``            whether the call may change the workspace (anything not proven read-only)
``targets``            paths an edit or an unknown tool names (its path arguments, a patch's files)
``outcome``            the outcome class of the completed call (after its output is read)
``checks``             each check the command runs, with the verdict its result gives it
``witnessed``          the checks it passed genuinely, with their place: what it may witness
``fingerprint``        a failure's fingerprint (failures only)
=====================  ==========================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import shellparse

from ._calls import Call, interpret
from ._config import TrackerConfig
from ._fingerprints import fingerprint as fingerprint_of
from ._judgements import Judgement, judge
from ._location import location
from ._outcomes import EXCLUDED, classify
from ._summary import shown
from ._vocabulary import CallKind, Judged, Outcome

if TYPE_CHECKING:
    from ._events._tool_completed import ToolCompleted
    from ._events._tool_dispatched import ToolDispatched

_DEFAULT = TrackerConfig()
FAILED: frozenset[Outcome] = frozenset({"validation-failure", "unknown-failure"})
"""The outcomes that are failures (of a check, or of anything else): the ones fingerprinted."""


class CheckVerdict(NamedTuple):
    """One check a command runs, and what the command's result says about it."""

    check: shellparse.Check
    """shellparse's reading of the check: its validation, exit attribution and the reasons with spans."""
    statement: str
    """The check as an obligation names it (``npm test``)."""
    key: str
    """Its identity: obligations of the same key in the same place are one obligation."""
    place: str | None
    """Where it runs: the call's working directory joined with the directory it moves into."""
    verdict: Judged | None = None
    """``failed``, ``passed`` (a candidate pass), ``not-run``, or ``None`` when the result says nothing
    of it (not completed yet, a call excluded by its outcome, a check after the one an ``&&`` list
    failed on)."""
    evidence: str | None = None
    """The output line that shows it failed (or found nothing to run), when the output does."""
    genuine: bool = False
    """It passed genuinely: exit 0, the status its own under the policy, no failure in its output.
    Only such a pass can witness an obligation (the tracker then checks order and edits)."""

    @property
    def witness_eligible(self) -> bool:
        """Whether its exit status is its own under the policy (unmasked)."""
        return self.check.witness_eligible


class CallRecord(NamedTuple):
    """What the tracker reads one tool call as (see the module docstring). A named tuple: one is built for
    every call a host's tracker takes, and a frozen dataclass of these fields costs several times as much."""

    call_id: str
    """The host's identifier of the call."""
    agent_id: str
    """The agent that made it."""
    tool: str
    """The tool's name as the host gave it."""
    kind: CallKind
    """``shell``, ``edit``, ``read``, ``ignored`` or ``other``."""
    command: str | None
    """A shell tool's command line."""
    shell: shellparse.Shell | None
    """The dialect its command was read in."""
    mutates: bool
    """It may change the workspace (a check run is evidence, not a mutation)."""
    targets: tuple[str, ...]
    """Paths an edit or an unknown tool names."""
    cwd: str | None = None
    """The working directory the host ran it in, when reported."""
    checks: tuple[CheckVerdict, ...] = ()
    """The checks it runs, in source order, with their verdicts once it completed."""
    primary: int | None = None
    """The index in :attr:`checks` of the command's primary check (the one it is named for)."""
    outcome: Outcome | None = None
    """Its outcome class once it completed (``None`` before)."""
    exit_code: int | None = None
    """The exit code its result reported."""
    fingerprint: str | None = None
    """A failure's fingerprint (``validation-failure`` or ``unknown-failure`` only)."""
    dispatched: int | None = None
    """The tracker's tick of its dispatch (``None`` for a record made outside a tracker)."""
    completed: int | None = None
    """The tick of its result."""
    current: bool = True
    """Whether its result counted for its task: ``False`` when the agent was gone or a new task had
    begun by the time it completed (its effects on the workspace still count)."""

    @property
    def primary_check(self) -> CheckVerdict | None:
        """The primary check, if the command runs one."""
        return self.checks[self.primary] if self.primary is not None else None

    @property
    def witnessed(self) -> tuple[tuple[str, str | None], ...]:
        """The checks it passed genuinely, as ``(key, place)``: what it may witness."""
        return tuple((verdict.key, verdict.place) for verdict in self.checks if verdict.genuine)

    @property
    def failed(self) -> bool:
        """Whether its outcome is a failure (of a check, or of anything else)."""
        return self.outcome in FAILED


def checks_of(call: Call, cwd: str | None, *, judgements: list[Judgement] | None = None,
              exit_code: int | None = None) -> tuple[tuple[CheckVerdict, ...], int | None]:
    """The verdict of each check ``call`` runs (with the judgements of its result), and the primary's index."""
    analysis = call.analysis
    if analysis is None or not analysis.checks:
        return (), None
    judged = {id(j.check): j for j in judgements or ()}
    verdicts = []
    primary = None
    for index, check in enumerate(analysis.checks):
        validation = check.validation
        if validation is analysis.validation:
            primary = index
        found = judged.get(id(check))
        verdict = found.verdict if found is not None else None
        genuine = verdict == "passed" and exit_code == 0 and check.witness_eligible
        verdicts.append(CheckVerdict(check=check, statement=shown(validation), key=validation.check_key,
                                     place=location(cwd, validation.directory), verdict=verdict,
                                     evidence=found.evidence if found is not None else None, genuine=genuine))
    return tuple(verdicts), primary


def judged(call: Call, event: ToolCompleted) -> tuple[Outcome, list[Judgement]]:
    """The outcome class of a completed call and the verdict on each check it ran: the tracker's rule."""
    outcome = classify(call, event.exit_code, event.is_error, event.error_code, event.error_message)
    judgements = judge(call, event) if outcome not in EXCLUDED else []
    if outcome == "success" and any(j.verdict == "failed" for j in judgements):
        outcome = "validation-failure"  # the output shows a failure the status hid
    return outcome, judgements


def failure_print(call: Call, event: ToolCompleted) -> str:
    """The fingerprint of a failed call (its error message, else its output, else its exit code)."""
    return fingerprint_of(call.tool, event.error_message or event.output or f"exit {event.exit_code}")


def dispatched_record(call: Call, *, call_id: str, agent_id: str, cwd: str | None,
                      tick: int | None = None) -> CallRecord:
    """The record of a dispatched call, before its result."""
    checks, primary = checks_of(call, cwd)
    return CallRecord(call_id=call_id, agent_id=agent_id, tool=call.tool, kind=call.kind, command=call.command,
                      shell=_dialect(call), mutates=call.mutates, targets=call.targets, cwd=cwd, checks=checks,
                      primary=primary, dispatched=tick)


def completed_record(call: Call, event: ToolCompleted, *, agent_id: str, cwd: str | None, dispatched: int | None,
                     outcome: Outcome, judgements: list[Judgement], fingerprint: str | None, tick: int | None,
                     current: bool) -> CallRecord:
    """The record of a completed call, from the tracker's judgement (built whole: this runs for every result
    a host's tracker takes, so the record at dispatch is not built first and copied)."""
    checks, primary = checks_of(call, cwd, judgements=judgements, exit_code=event.exit_code)
    return CallRecord(call_id=event.call_id, agent_id=agent_id, tool=call.tool, kind=call.kind,
                      command=call.command, shell=_dialect(call), mutates=call.mutates, targets=call.targets, cwd=cwd,
                      checks=checks, primary=primary, outcome=outcome, exit_code=event.exit_code,
                      fingerprint=fingerprint, dispatched=dispatched, completed=tick, current=current)


def _dialect(call: Call) -> shellparse.Shell | None:
    return call.analysis.shell if call.analysis is not None else None


def call_record(dispatched: ToolDispatched, completed: ToolCompleted | None = None,
                config: TrackerConfig | None = None) -> CallRecord:
    """The record a tracker makes of this one call, on its own: its kind, what it may change and — with
    its result — its outcome and the verdict on each check (no ticks: order is a tracker's)."""
    call = interpret(dispatched.tool, dispatched.arguments, dispatched.shell, config or _DEFAULT)
    if completed is None:
        return dispatched_record(call, call_id=dispatched.call_id, agent_id=dispatched.agent_id, cwd=dispatched.cwd)
    outcome, judgements = judged(call, completed)
    mark = failure_print(call, completed) if outcome in FAILED else None
    return completed_record(call, completed, agent_id=dispatched.agent_id, cwd=dispatched.cwd, dispatched=None,
                            outcome=outcome, judgements=judgements, fingerprint=mark, tick=None, current=True)
