"""What :func:`shellparse.analyze` returns. Immutable, hashable, and plain to serialise."""

from typing import Any, NamedTuple

from ._model import Span
from ._selection import Selection
from ._vocabulary import CheckKind, Effect, ExitSource, Level, Policy, ReasonCode, Shell


class Reason(NamedTuple):
    """Why the analysis reached its verdict, pointing at the text responsible."""

    code: ReasonCode
    """A stable identifier, e.g. ``post-check-command``, ``or-chain``, ``reporting-pipe`` (one of
    :data:`REASON_CODES`; :data:`REASONS` says what each means)."""
    message: str
    """One line for people."""
    span: Span | None
    """The characters of the command that the reason is about."""
    level: Level
    """One of :data:`LEVELS`: always the one :data:`REASONS` gives the code."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "code": self.code,
            "message": self.message,
            "span": list(self.span) if self.span is not None else None,
            "level": self.level,
        }


class Validation(NamedTuple):
    """Which check a command runs: its identity."""

    kind: CheckKind
    """``test``, ``typecheck``, ``lint`` or ``build``."""
    family: str
    """The family from the table (``pytest``, ``npm-script``, ``cargo`` …)."""
    statement: str
    """The check's argv after wrappers, env prefixes and redirects are removed."""
    directory: str | None
    """Where the command moves before the check (``cd api &&``), relative to where it starts;
    ``None`` when it stays put."""
    key: str
    """A short digest of kind, directory and statement: equal keys mean the same check."""
    span: Span
    """The characters of the check's own command."""
    identity: str
    """What counts as the same check, as people read it: the statement without its cosmetic
    options (``-v``, ``--tb=short``, ``-count=1``), after the environment that is part of it
    (``GOOS=windows go test ./...``). The key is a digest of kind, directory and identity."""
    environment: tuple[str, ...]
    """The assignments and wrapper choices that are part of the identity (``GOOS=windows``,
    ``docker:api``), sorted; cosmetic ones (``CI``, ``NO_COLOR`` …) are not."""
    check_key: str
    """The same digest without the directory: equal check keys are the same check wherever it
    runs (a tracker pairs it with the place it runs in: the host's working directory joined with
    :attr:`directory`, so ``cd api && npm test`` in ``/repo`` is ``npm test`` in ``/repo/api``)."""
    selection: Selection | None
    """For a run whose family's selection grammar is known (test runners, and linters that take
    paths), what it selects: a genuine pass whose selection covers a failed run's witnesses it
    (see :func:`covers`)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "kind": self.kind,
            "family": self.family,
            "statement": self.statement,
            "directory": self.directory,
            "key": self.key,
            "span": list(self.span),
            "identity": self.identity,
            "environment": list(self.environment),
            "check_key": self.check_key,
            "selection": self.selection.to_dict() if self.selection is not None else None,
        }


class Check(NamedTuple):
    """One check found in a command line, with its own exit attribution."""

    validation: Validation
    """Which check."""
    exit_source: ExitSource
    """One of :data:`EXIT_SOURCES`."""
    witness_eligible: bool
    """Whether an exit status of 0 from this command line proves this check passed: its status is
    its own (or one pass-through pipe's, under policy ``seed``), or it is followed only by commands
    that run when it passed (``lint && test``, a later statement under ``set -e``)."""
    reasons: tuple[Reason, ...]
    """Why, in source order."""
    failure_eligible: bool
    """Whether a non-zero exit status of this command line proves this check failed: when the
    status is its own, or one pass-through pipe's (a host running with pipefail reports the
    check's failure through it; SIGPIPE's 141 is the pipe's, not the check's), nothing else can
    fail in its place (``cd missing && check`` reports ``cd``'s failure), and no other check ran
    before it in its chain. A masked check's exit proves nothing either way; its output still can."""
    mutates_after: bool
    """Something that may change the workspace runs after the check in the same command line
    (``pytest && sed -i …``): its pass no longer describes the code."""
    chain: int | None
    """The ``&&`` list (or ``set -e`` script) the check's failure would end, numbered within the
    command line: of the checks sharing one, a failing run failed at most one — the first whose
    output shows a failure — and the later ones never ran."""
    failure_attributable: bool = False
    """Whether a non-zero exit status from this command line is exactly this check's own: it is
    :attr:`failure_eligible` and the exit source is ``check`` (no pipe in between;
    ``set -o pipefail; check | head`` can report SIGPIPE for a pass)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "validation": self.validation.to_dict(),
            "exit_source": self.exit_source,
            "witness_eligible": self.witness_eligible,
            "failure_attributable": self.failure_attributable,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "failure_eligible": self.failure_eligible,
            "mutates_after": self.mutates_after,
            "chain": self.chain,
        }


class Analysis(NamedTuple):
    """The verdict on one command line."""

    command: str
    """The command line analysed."""
    shell: Shell
    """``bash`` or ``pwsh``."""
    policy: Policy
    """``seed`` or ``strict``."""
    validation: Validation | None
    """The check whose status the command line reports, or the last one found; ``None`` when
    the command runs no check."""
    exit_source: ExitSource | None
    """Attribution of that check's exit status (see :data:`EXIT_SOURCES`); ``None`` without a
    validation."""
    witness_eligible: bool
    """Whether an exit status of 0 proves ``validation`` passed, under ``policy``."""
    reasons: tuple[Reason, ...]
    """Why: every reason bearing on the verdict, with the span of the text responsible."""
    effect: Effect
    """``read-only``, ``mutating`` or ``unknown`` (treat as mutating)."""
    parse_error: str | None
    """The first syntax problem, if the command did not parse cleanly (the verdict is then
    fail-closed: never a witness, effect ``unknown``)."""
    checks: tuple[Check, ...]
    """Every check found, in source order, each with its own attribution."""
    expected_negative: bool
    """The command is a lone probe whose exit status 1 means "no" rather than failure
    (``grep``, ``rg``, ``git diff --quiet``, ``test``/``[ ]``)."""
    failure_attributable: bool = False
    """Whether a non-zero exit status proves ``validation`` failed (see
    :attr:`Check.failure_attributable`); ``False`` without a validation."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (what ``witness check --json`` prints)."""
        return {
            "command": self.command,
            "shell": self.shell,
            "policy": self.policy,
            "validation": self.validation.to_dict() if self.validation is not None else None,
            "exit_source": self.exit_source,
            "witness_eligible": self.witness_eligible,
            "reasons": [reason.to_dict() for reason in self.reasons],
            "effect": self.effect,
            "parse_error": self.parse_error,
            "checks": [check.to_dict() for check in self.checks],
            "expected_negative": self.expected_negative,
            "failure_attributable": self.failure_attributable,
        }
