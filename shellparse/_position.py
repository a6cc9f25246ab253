"""The verdict on a check's place in its script: what pipes into it and out of it, the list it
belongs to, what runs after that list, and what ran before it.

Each rule is one step that adds its reasons to a :class:`Verdict`; the steps run in source
order of the text they look at, and every one is cheap when its shape is absent (a lone check
runs none of them).
"""


from typing import TYPE_CHECKING, Literal, NamedTuple

from ._model import Command, Pipeline, Span, Statement
from ._reasons import reason
from ._results import Reason
from ._shellstate import ShellState, excerpt
from ._status import always_succeeds, exit_form, saved_form, zeroes
from ._tails import Tail, _tail_reason, hand_on, judge_tail
from ._vocabulary import ExitSource, Shell
from ._wrappers import program_name

if TYPE_CHECKING:
    from ._analysis import Analyzer

PASS_THROUGH = frozenset({"tee", "tail", "head", "cat", "less", "more"})
"""Programs that pass their input through: behind a pipe they report the status, never decide it."""
EARLY_CLOSE = frozenset({"head"})
"""Pass-through programs that may stop reading before their input ends (the writer then gets SIGPIPE)."""
_CMDLET_PASS_THROUGH = frozenset({"select-object", "select", "tee-object", "tee", "ft", "fl", "fw"})
Consumer = Literal["pass-through", "early-close", "cmdlet", "deciding"]
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
    """``set -e`` is surely on, where bash applies it."""
    fail_first: Reason | None = None
    """Something that can end the script failing before the check runs."""
    list_start: int = 0
    """Where the check's own ``&&``/``||`` list starts."""
    first_or: int | None = None
    """The first statement of that list before the check's that an ``||`` follows."""
    and_before: bool = False
    """A statement of that list before the check's is followed by ``&&``."""
    may_fail: bool = False
    """A statement of that list before the check's, followed by ``&&``, can fail (its status is then reported)."""


class Lists:
    """The ``&&``/``||`` lists of one script, read once (so that judging every check of a long list
    costs the same as judging one): for each statement, the last statement of its list, and whether
    an ``||`` follows it or a later statement of its list."""

    __slots__ = ("ends", "or_after")

    def __init__(self, statements: tuple[Statement, ...]):
        count = len(statements)
        self.ends = [0] * count
        """The index of the last statement of each statement's list."""
        self.or_after = [False] * count
        """Whether an ``||`` comes after the statement, in its list."""
        end, ored = count - 1, False
        for index in range(count - 1, -1, -1):
            op = statements[index].op
            if op not in ("&&", "||"):
                end, ored = index, False
            elif op == "||":
                ored = True
            self.ends[index] = end
            self.or_after[index] = ored


class Verdict:
    """The exit source of a check's place, and the reasons for it, as the steps find them."""

    __slots__ = ("chain_source", "cmdlet", "reasons", "source", "unattributed")

    def __init__(self) -> None:
        self.source: ExitSource = "check"
        self.chain_source: ExitSource = "check"
        """The source as far as a zero status goes: what runs after the check only when it passed
        (``check && next``, a later statement under ``set -e``) cannot turn its failure into 0."""
        self.reasons: list[Reason] = []
        self.cmdlet = False
        """The reporting pipe feeds a PowerShell cmdlet (which never sets the exit status)."""
        self.unattributed = False
        """A non-zero status may be something else's failure (the check may not have run)."""

    def mask(self, found: Reason | None, *, chain: bool = False) -> None:
        """Mask the check's status; ``chain``: only a non-zero status (a zero one still proves a pass)."""
        self.source = "masked"
        if not chain:
            self.chain_source = "masked"
        if found is not None:
            self.reasons.append(found)

    def keep(self, found: Reason) -> None:
        self.reasons.append(found)

    def note(self, found: Reason) -> None:
        self.reasons.append(found)
        self.unattributed = True


def place(analyzer: "Analyzer", statements: tuple[Statement, ...], lists: Lists, index: int, position: int, *,
          before: Before, shell: Shell, env: ShellState, waited: int | None = None) -> Verdict:
    """The verdict on the check that is command ``position`` of ``statements[index]``; ``lists``
    says where each statement's ``&&``/``||`` list ends; ``waited``: the statement that waits for the
    check's background job (or coprocess) after its list, if one does."""
    verdict = Verdict()
    pipeline = statements[index].pipeline
    end = lists.ends[index]
    if pipeline.negation is not None:
        verdict.mask(reason("negated", pipeline.negation))
    if position > 0:
        _piped_into(analyzer, verdict, pipeline, position, shell, maybe_pipefail=before.maybe_pipefail)
    start = before.list_start
    if start < index:
        _list_before(analyzer, verdict, statements, index, before)
    passed_only = False
    saved = None
    if index < end:
        passed_only, saved = _list_after(analyzer, verdict, statements, index, end, shell, env,
                                         ored=lists.or_after[index])
    elif shell == "bash" and before.errexit and start == index and pipeline.negation is None \
            and statements[end].op != "&" and end + 1 < len(statements):
        passed_only = True  # `set -e`: a failing check ends the script with its own status
        verdict.keep(reason("errexit", _rest(statements, end), piece=excerpt(analyzer.text, _rest(statements, end))))
    following = end + 1
    if statements[end].op == "&" or waited is not None:
        following = _background(analyzer, verdict, statements, end, waited=waited)
    tail = None
    if following < len(statements):
        tail = _after(analyzer, statements, following, shell, env, passed_only=passed_only, saved=saved)
    own = index == end and following == end + 1  # `${PIPESTATUS[N]}` then reads this pipeline
    if tail is not None and tail.pipestatus is not None and tail.pipestatus != position and not (
            own and tail.pipestatus == len(pipeline.commands) - 1 and not before.pipefail):
        verdict.mask(reason("post-check-command", tail.reason.span, "pipestatus",
                            piece=excerpt(analyzer.text, tail.reason.span)))
    if position + 1 < len(pipeline.commands):
        exact = tail is not None and tail.pipestatus == position and own
        tail = _piped_out(analyzer, verdict, pipeline, position, shell, tail=tail, exact=exact,
                          pipefail=before.pipefail)
    if tail is not None:
        if tail.reason.level == "masks":
            # Under `set -e` a failing check ends the script there: what follows ran only after a pass.
            verdict.mask(tail.reason, chain=_errexit_ends(before, pipeline, index == end == start, position, shell))
        else:
            verdict.keep(tail.reason)
    if before.risk is not None:
        verdict.mask(before.risk)
    if before.fail_first is not None and verdict.source == "check":
        verdict.note(before.fail_first)
    return verdict


def _rest(statements: tuple[Statement, ...], end: int) -> Span:
    operator = statements[end].op_span
    return Span(operator.start if operator else statements[end + 1].pipeline.span.start,
                statements[-1].pipeline.span.end)


def _after(analyzer: "Analyzer", statements: tuple[Statement, ...], following: int, shell: Shell,
           env: ShellState, *, passed_only: bool, saved: str | None) -> Tail:
    if shell == "pwsh":
        return _pwsh_tail(analyzer.text, statements, following)
    leave = ("exit", "return") if env.positional is not None else ("exit",)
    return judge_tail(analyzer.text, statements, following, passed_only=passed_only, state=env, leave=leave,
                      saved=saved)


def _background(analyzer: "Analyzer", verdict: Verdict, statements: tuple[Statement, ...], end: int, *,
                waited: int | None) -> int:
    """`&` (or `coproc`): masks, unless a `wait` for the job follows (statement ``waited``); the
    index the tail starts at."""
    if waited is None:
        verdict.mask(reason("background", statements[end].op_span, "operator"))
        return end + 1
    wait = Span(statements[end + 1].pipeline.span.start, statements[waited].pipeline.span.end)
    verdict.keep(reason("waited", wait, piece=excerpt(analyzer.text, wait)))
    return waited + 1


def _errexit_ends(before: Before, pipeline: Pipeline, last_of_list: bool, position: int, shell: Shell) -> bool:
    """Whether ``set -e`` ends the script when the check fails, so nothing after it runs: the check
    decides its pipeline's status (the last command, or any with pipefail), the pipeline is not
    negated, and it is alone in its ``&&``/``||`` list (bash ignores a failure earlier in one, so
    `set -e; cd missing && check; echo done` exits 0 without running the check)."""
    return before.errexit and shell == "bash" and last_of_list and pipeline.negation is None \
        and (position + 1 == len(pipeline.commands) or before.pipefail)


def _piped_into(analyzer: "Analyzer", verdict: Verdict, pipeline: Pipeline, position: int, shell: Shell, *,
                maybe_pipefail: bool) -> None:
    """A pipe into the check only feeds it, unless pipefail lets the producer's failure through."""
    feed = Span(pipeline.span.start, pipeline.pipes[position - 1].end)
    if shell == "bash" and maybe_pipefail:
        verdict.mask(reason("pipefail-producer", feed, piece=excerpt(analyzer.text, feed)))
    else:
        verdict.keep(reason("pipe-into-check", feed))


def _piped_out(analyzer: "Analyzer", verdict: Verdict, pipeline: Pipeline, position: int, shell: Shell, *,
               tail: Tail | None, exact: bool, pipefail: bool) -> Tail | None:
    """Pipes from the check to consumers; returns the tail, reworded when the script leaves with
    the check's own status whatever the pipe does."""
    text = analyzer.text
    consumers = pipeline.commands[position + 1 :]
    verdicts = [analyzer.consumer(consumer, shell) for consumer in consumers]
    pipe_span = Span(pipeline.pipes[position].start, pipeline.span.end)
    if shell == "bash" and (pipefail or exact) and "early-close" in verdicts and "deciding" not in verdicts:
        verdict.note(reason("sigpipe", pipe_span, piece=excerpt(text, pipe_span)))
    if tail is not None and (exact or (shell == "pwsh" and tail.reason.code == "exit-propagation"
                                       and all(v == "cmdlet" for v in verdicts))):
        # `check | tee log; exit ${PIPESTATUS[0]}`, or PowerShell `check | Select-Object; exit
        # $LASTEXITCODE` (cmdlets never set it): the script leaves with the check's own status.
        if tail.reason.code == "saved-status":
            return tail
        return Tail(reason("exit-propagation", tail.reason.span, "pipe", piece=excerpt(text, tail.reason.span)))
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


def _list_before(analyzer: "Analyzer", verdict: Verdict, statements: tuple[Statement, ...], index: int,
                 before: Before) -> None:
    """The statements before the check in its own ``&&``/``||`` list: an ``||`` among them masks,
    ``&&`` keeps (one reason each, for the whole stretch: a long list costs one reason per check)."""
    start = before.list_start
    if before.first_or is not None:
        statement = statements[before.first_or]
        left = Span(statement.pipeline.span.start, _op_end(statement))
        verdict.mask(reason("or-chain", left, "left", piece=excerpt(analyzer.text, left)))
    if before.and_before:
        left = Span(statements[start].pipeline.span.start, _op_end(statements[index - 1]))
        verdict.keep(reason("and-before", left, piece=excerpt(analyzer.text, left)))
    if before.may_fail:
        verdict.unattributed = True  # `cd missing && check`: the status is `cd`'s


def _list_after(analyzer: "Analyzer", verdict: Verdict, statements: tuple[Statement, ...], index: int, end: int,
                shell: Shell, env: ShellState, *, ored: bool) -> tuple[bool, str | None]:
    """The statements after the check in its own ``&&``/``||`` list. Returns whether a failing
    check then ends the script with its own status (``|| exit``: what follows runs only after a
    pass), and the variable the list saves the status in (``rc=0; check || rc=$?``)."""
    statement = statements[index]
    after = Span(statement.op_span.start if statement.op_span else statement.pipeline.span.end,
                 statements[end].pipeline.span.end)
    piece = excerpt(analyzer.text, after)
    if shell == "bash" and statement.op == "&&" and index + 2 == end and statements[index + 1].op == "||":
        saved = _saved_either_way(statements, index, end)
        if saved is not None:  # `check && rc=0 || rc=$?`: rc holds the check's status either way
            verdict.keep(reason("saved-status", after, piece=piece))
            return False, saved
    if statement.op == "||" and index + 1 == end:
        if _failure_exit(analyzer, statements[end], shell, env):
            verdict.keep(reason("failure-exit", after, piece=piece))
            return True, None
        saved = _saved_on_failure(statements, end, env) if shell == "bash" else None
        if saved is not None:
            verdict.keep(reason("saved-status", after, piece=piece))
            return False, saved
    if statement.op == "||":
        verdict.mask(reason("or-chain", after, "right", piece=piece))
    elif shell == "bash" and _succeed(statements, index, end, env):
        verdict.keep(reason("always-succeeds", after, piece=piece))
        if any(statements[later].pipeline.commands[0].words[0].value == "popd" for later in range(index + 1, end + 1)):
            verdict.unattributed = True  # `popd` fails when the `pushd` before did: a failure may be its own
    else:
        # `check && next`: the rest runs only when the check passed, so a zero status of the list
        # proves it passed (unless an `||` later in the list can produce one without it).
        verdict.mask(reason("post-check-command", after, piece=piece), chain=not ored)
    return False, None


def _saved_either_way(statements: tuple[Statement, ...], index: int, end: int) -> str | None:
    """``check && rc=0 || rc=$?`` followed by more lines: ``rc`` holds the check's status (an
    assignment of a literal cannot fail, so ``rc=$?`` runs exactly when the check failed)."""
    zero = statements[index + 1].pipeline.commands
    last = statements[end].pipeline.commands
    if len(zero) != 1 or len(last) != 1 or end + 1 >= len(statements) or statements[end].op not in (";", "\n"):
        return None
    name = zeroes(zero[0])
    found = saved_form(last[0])
    if name is None or found is None or found[0] != name or found[1].kind != "last" or zero[0].redirects:
        return None
    return name


def _saved_on_failure(statements: tuple[Statement, ...], end: int, env: ShellState) -> str | None:
    """``rc=0; check || rc=$?`` followed by more lines: ``rc`` holds the check's status."""
    commands = statements[end].pipeline.commands
    found = saved_form(commands[0]) if len(commands) == 1 and statements[end].op in (";", "\n") else None
    if found is None or found[1].kind != "last" or found[0] not in env.zeroed or end + 1 >= len(statements):
        return None
    return found[0]


def _succeed(statements: tuple[Statement, ...], index: int, end: int, env: ShellState) -> bool:
    """``check && true && echo ok``: every later statement of the list follows ``&&`` and succeeds."""
    for later in range(index + 1, end + 1):
        commands = statements[later].pipeline.commands
        if statements[later - 1].op != "&&" or len(commands) != 1 or statements[later].pipeline.negation \
                or not always_succeeds(commands[0], env):
            return False
    return statements[end].op != "&"


def _failure_exit(analyzer: "Analyzer", statement: Statement, shell: Shell, env: ShellState) -> bool:
    """``|| exit``, ``|| exit $?`` or ``|| { rc=$?; …; exit $rc; }``: leaves with the failing status."""
    commands = statement.pipeline.commands
    if len(commands) != 1 or statement.pipeline.negation is not None:
        return False
    command = commands[0]
    if shell == "pwsh":
        return _pwsh_exit(command)
    form = exit_form(command, state=env)
    if form is not None:
        return form.kind == "last" and not env.redefines("exit")
    if command.kind != "group" or command.body is None or not command.body.statements:
        return False
    return hand_on(analyzer.text, command.body.statements, 0, state=env).reason.level == "keeps"


def _pwsh_exit(command: Command) -> bool:
    if command.kind != "simple" or not command.words or (command.words[0].value or "").lower() != "exit":
        return False
    return len(command.words) == 2 and command.words[1].text.lower() == "$lastexitcode"


def _pwsh_tail(text: str, statements: tuple[Statement, ...], index: int) -> Tail:
    """PowerShell: ``exit $LASTEXITCODE`` leaves with the check's code; quoted literals only print."""
    kept: Reason | None = None
    while index < len(statements):
        statement = statements[index]
        previous = statements[index - 1]
        span = Span(previous.op_span.start if previous.op_span else statement.pipeline.span.start,
                    statement.pipeline.span.end)
        commands = statement.pipeline.commands
        single = len(commands) == 1 and statement.pipeline.negation is None
        if single and statement.op in (None, ";", "\n") and _pwsh_exit(commands[0]):
            return Tail(reason("exit-propagation", span, piece=excerpt(text, span)))
        if single and commands[0].kind == "expression" and commands[0].literal:
            kept = reason("report-tail", span, piece=excerpt(text, span))
            index += 1
            continue
        return Tail(_tail_reason(text, span, commands[0] if single else None))
    assert kept is not None
    return Tail(kept)


def consumer_of(analyzer: "Analyzer", command: Command, shell: Shell, env: ShellState | None = None) -> Consumer:
    """What ``command``, after a pipe, does to the pipeline's status."""
    if command.kind != "simple" or command.opaque or not command.words:
        return "deciding"
    argv = analyzer.unwrap(command, shell).argv
    if not argv or argv[0].value is None:
        return "deciding"
    name = program_name(argv[0].value)
    if shell == "pwsh" and (name in _CMDLET_PASS_THROUGH or name.startswith(("out-", "format-"))):
        return "cmdlet"
    if env is not None and env.redefines(argv[0].value):
        return "deciding"
    if name in EARLY_CLOSE:
        return "early-close"
    if name in PASS_THROUGH:
        return "pass-through"
    return "deciding"


def _op_end(statement: Statement) -> int:
    return statement.op_span.end if statement.op_span is not None else statement.pipeline.span.end
