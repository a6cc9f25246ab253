"""The verdict on a check's place in its script: what pipes into it and out of it, the list it
belongs to, what runs after that list, and what ran before it.

Each rule is one step that adds its reasons to a :class:`Verdict`; the steps run in source
order of the text they look at, and every one is cheap when its shape is absent (a lone check
runs none of them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple

from ._model import Command, Pipeline, Span, Statement
from ._reasons import reason
from ._results import Reason
from ._shellstate import excerpt, exit_propagates, exits_with_status, pipestatus_exit
from ._vocabulary import ExitSource, Shell
from ._wrappers import program_name

if TYPE_CHECKING:
    from ._analysis import Analyzer

PASS_THROUGH = frozenset({"tee", "tail", "head", "cat", "less", "more"})
"""Programs that pass their input through: behind a pipe they report the status, never decide it."""
_CMDLET_PASS_THROUGH = frozenset({"select-object", "select", "tee-object", "tee", "ft", "fl", "fw"})
Consumer = Literal["pass-through", "cmdlet", "deciding"]
"""What a command after a pipe does to the pipeline's status."""


class Before(NamedTuple):
    """What the statements before the check's own did to the shell."""

    risk: Reason | None
    """Something that can end the script before the check decides the status."""
    pipefail: bool
    """``pipefail`` is surely on."""
    maybe_pipefail: bool
    """``pipefail`` may be on."""
    errexit: bool = False
    """``set -e`` is surely on: a failing command ends the script with its status."""


class Verdict:
    """The exit source of a check's place, and the reasons for it, as the steps find them."""

    __slots__ = ("chain_source", "cmdlet", "reasons", "source")

    def __init__(self) -> None:
        self.source: ExitSource = "check"
        self.chain_source: ExitSource = "check"
        """The source as far as a zero status goes: what runs after the check only when it passed
        (``check && next``, a later statement under ``set -e``) cannot turn its failure into 0."""
        self.reasons: list[Reason] = []
        self.cmdlet = False
        """The reporting pipe feeds a PowerShell cmdlet (which never sets the exit status)."""

    def mask(self, found: Reason | None, *, chain: bool = False) -> None:
        """Mask the check's status; ``chain``: only a non-zero status (a zero one still proves a pass)."""
        self.source = "masked"
        if not chain:
            self.chain_source = "masked"
        if found is not None:
            self.reasons.append(found)

    def keep(self, found: Reason) -> None:
        self.reasons.append(found)


def place(analyzer: Analyzer, statements: tuple[Statement, ...], ends: list[int], index: int, position: int, *,
          before: Before, shell: Shell) -> Verdict:
    """The verdict on the check that is command ``position`` of ``statements[index]``; ``ends[i]``
    is the last statement of the ``&&``/``||`` list statement ``i`` belongs to."""
    verdict = Verdict()
    pipeline = statements[index].pipeline
    end = ends[index]
    if pipeline.negation is not None:
        verdict.mask(reason("negated", pipeline.negation))
    if position > 0:
        _piped_into(analyzer, verdict, pipeline, position, shell, maybe_pipefail=before.maybe_pipefail)
    tail, pipestatus = (None, None) if end + 1 == len(statements) else _tail(analyzer, statements, end, shell)
    if position + 1 < len(pipeline.commands):
        exact = tail is not None and pipestatus == position and index == end
        tail = _piped_out(analyzer, verdict, pipeline, position, shell, tail=tail, exact=exact,
                          pipefail=before.pipefail)
    if index > 0 and statements[index - 1].op in ("&&", "||"):
        _list_before(analyzer, verdict, statements, index)
    if index < end:
        _list_after(analyzer, verdict, statements, index, end, shell)
    if statements[end].op == "&":
        verdict.mask(reason("background", statements[end].op_span, "operator"))
    if tail is not None:
        if tail.level == "masks":
            # Under `set -e` a failing check ends the script there: what follows ran only after a pass.
            verdict.mask(tail, chain=_errexit_ends(before, pipeline, index == end, position, shell))
        else:
            verdict.keep(tail)
    if before.risk is not None:
        verdict.mask(before.risk)
    return verdict


def _errexit_ends(before: Before, pipeline: Pipeline, last_of_list: bool, position: int, shell: Shell) -> bool:
    """Whether ``set -e`` ends the script when the check fails, so nothing after it runs: the check
    decides its pipeline's status (the last command, or any with pipefail), the pipeline is not
    negated, and it is the last of its ``&&``/``||`` list (bash ignores a failure earlier in one)."""
    return before.errexit and shell == "bash" and last_of_list and pipeline.negation is None \
        and (position + 1 == len(pipeline.commands) or before.pipefail)


def _piped_into(analyzer: Analyzer, verdict: Verdict, pipeline: Pipeline, position: int, shell: Shell, *,
                maybe_pipefail: bool) -> None:
    """A pipe into the check only feeds it, unless pipefail lets the producer's failure through."""
    feed = Span(pipeline.span.start, pipeline.pipes[position - 1].end)
    if shell == "bash" and maybe_pipefail:
        verdict.mask(reason("pipefail-producer", feed, piece=excerpt(analyzer.text, feed)))
    else:
        verdict.keep(reason("pipe-into-check", feed))


def _piped_out(analyzer: Analyzer, verdict: Verdict, pipeline: Pipeline, position: int, shell: Shell, *,
               tail: Reason | None, exact: bool, pipefail: bool) -> Reason | None:
    """Pipes from the check to consumers; returns the tail reason, reworded when the script
    leaves with the check's own status whatever the pipe does."""
    text = analyzer.text
    consumers = pipeline.commands[position + 1 :]
    verdicts = [analyzer.consumer(consumer, shell) for consumer in consumers]
    if tail is not None and (exact or (shell == "pwsh" and tail.code == "exit-propagation"
                                       and all(v == "cmdlet" for v in verdicts))):
        # `check | tee log; exit ${PIPESTATUS[0]}`, or PowerShell `check | Select-Object; exit
        # $LASTEXITCODE` (cmdlets never set it): the script leaves with the check's own status.
        return reason("exit-propagation", tail.span, "pipe", piece=excerpt(text, tail.span))
    pipe_span = Span(pipeline.pipes[position].start, pipeline.span.end)
    if "deciding" in verdicts:
        number = verdicts.index("deciding")
        deciding = Span(pipeline.pipes[position + number].start, consumers[number].span.end)
        verdict.mask(reason("deciding-consumer", deciding, piece=excerpt(text, deciding)))
    elif shell == "bash" and pipefail:
        verdict.keep(reason("pipefail", pipe_span))
    elif len(consumers) > 1:
        verdict.mask(reason("extra-pipes", pipe_span))
    else:
        if verdict.source == "check":
            verdict.source = "reporting-pipe"
        if verdict.chain_source == "check":
            verdict.chain_source = "reporting-pipe"
        verdict.cmdlet = shell == "pwsh" and verdicts[0] == "cmdlet"
        variant = "cmdlet" if verdict.cmdlet else ""
        verdict.keep(reason("reporting-pipe", pipe_span, variant, piece=excerpt(text, pipe_span)))
    return tail


def _list_before(analyzer: Analyzer, verdict: Verdict, statements: tuple[Statement, ...], index: int) -> None:
    """The statements before the check in its own ``&&``/``||`` list."""
    start = index
    while start > 0 and statements[start - 1].op in ("&&", "||"):
        start -= 1
    for earlier in range(start, index):
        statement = statements[earlier]
        left = Span(statement.pipeline.span.start, _op_end(statement))
        if statement.op == "||":
            verdict.mask(reason("or-chain", left, "left", piece=excerpt(analyzer.text, left)))
        elif statement.op == "&&":
            verdict.keep(reason("and-before", left, piece=excerpt(analyzer.text, left)))


def _list_after(analyzer: Analyzer, verdict: Verdict, statements: tuple[Statement, ...], index: int, end: int,
                shell: Shell) -> None:
    """The statements after the check in its own ``&&``/``||`` list."""
    statement = statements[index]
    after = Span(statement.op_span.start if statement.op_span else statement.pipeline.span.end,
                 statements[end].pipeline.span.end)
    piece = excerpt(analyzer.text, after)
    if statement.op == "||" and index + 1 == end and exits_with_status(statements[end], shell):
        verdict.keep(reason("failure-exit", after, piece=piece))
    elif statement.op == "||":
        verdict.mask(reason("or-chain", after, "right", piece=piece))
    else:
        # `check && next`: the rest runs only when the check passed, so a zero status of the list
        # proves it passed (unless an `||` later in the list can produce one without it).
        all_and = all(statements[number].op == "&&" for number in range(index, end))
        verdict.mask(reason("post-check-command", after, piece=piece), chain=all_and)


def _tail(analyzer: Analyzer, statements: tuple[Statement, ...], end: int,
          shell: Shell) -> tuple[Reason | None, int | None]:
    """The verdict on what runs after the check's list, and the index ``N`` of an
    ``exit ${PIPESTATUS[N]}`` that ends the script right after it."""
    text = analyzer.text
    index = end + 1
    kept: Reason | None = None
    while index < len(statements):
        statement = statements[index]
        previous = statements[index - 1]
        span = Span(previous.op_span.start if previous.op_span else statement.pipeline.span.start,
                    statement.pipeline.span.end)
        commands = statement.pipeline.commands
        single = len(commands) == 1 and statement.pipeline.negation is None
        if single and statement.op in (None, ";", "\n"):
            pipestatus = pipestatus_exit(commands[0]) if shell == "bash" and index == end + 1 else None
            if exit_propagates(commands[0], shell) or pipestatus is not None:
                return reason("exit-propagation", span, piece=excerpt(text, span)), pipestatus
        if single and shell == "pwsh" and commands[0].kind == "expression" and commands[0].literal:
            kept = reason("report-tail", span, piece=excerpt(text, span))
            index += 1
            continue
        return _tail_reason(text, span, commands[0] if single else None), None
    return kept, None


def _tail_reason(text: str, span: Span, command: Command | None) -> Reason:
    piece = excerpt(text, span)
    if command is not None and command.kind == "simple":
        if not command.words and command.redirects:
            return reason("standalone-redirect", span, piece=piece)
        head = (command.words[0].value or "").lower() if command.words else ""
        if head in ("true", ":"):
            return reason("true-tail", span, piece=piece)
        if head in ("echo", "printf", "write-output", "write-host"):
            return reason("echo-tail", span, piece=piece)
    if command is not None and command.kind == "expression":
        return reason("expression-tail", span, piece=piece)
    return reason("post-check-command", span, piece=piece)


def consumer_of(analyzer: Analyzer, command: Command, shell: Shell) -> Consumer:
    """What ``command``, after a pipe, does to the pipeline's status."""
    if command.kind != "simple" or command.opaque or not command.words:
        return "deciding"
    argv = analyzer.unwrap(command, shell).argv
    if not argv or argv[0].value is None:
        return "deciding"
    name = program_name(argv[0].value)
    if shell == "pwsh" and (name in _CMDLET_PASS_THROUGH or name.startswith(("out-", "format-"))):
        return "cmdlet"
    if name in PASS_THROUGH:
        return "pass-through"
    return "deciding"


def _op_end(statement: Statement) -> int:
    return statement.op_span.end if statement.op_span is not None else statement.pipeline.span.end
