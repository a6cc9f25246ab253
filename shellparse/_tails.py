"""What runs after the check's ``&&``/``||`` list, and whether the status still is the check's.

Two situations, decided by what the list itself guarantees:

* the list reports the check's status (``check``, ``check && true``): the lines after it must
  hand that status on — ``exit $?`` right after, ``exit ${PIPESTATUS[N]}`` for the check's own
  position ``N``, or ``rc=$?`` (``rc=${PIPESTATUS[N]}``) right after, lines that cannot end the
  shell nor touch ``rc``, then ``exit $rc``;
* a failing check already ended the script with its own status (``check || exit $?``,
  ``check || { rc=$?; …; exit $rc; }``, ``set -e``): the lines after it run only after a pass,
  so they must all succeed (``echo done``, ``exit 0``).

Anything else reports a status of its own, and masks.
"""

from typing import NamedTuple

from ._model import Command, Span, Statement
from ._reasons import reason
from ._results import Reason
from ._shellstate import ShellState, excerpt
from ._status import ExitForm, always_succeeds, exit_form, keeps_saved, saved_form


class Tail(NamedTuple):
    """The verdict on what runs after the check's list."""

    reason: Reason
    """Why it keeps the check's status (level ``keeps``), or what masks it."""
    pipestatus: int | None = None
    """``N`` when the status handed on is ``${PIPESTATUS[N]}``."""


def judge_tail(text: str, statements: tuple[Statement, ...], start: int, *, passed_only: bool,
               state: ShellState, leave: tuple[str, ...] = ("exit",), saved: str | None = None) -> Tail:
    """The verdict on ``statements[start:]`` (at least one), run after the check's list.

    ``passed_only``: they run only after the check passed (its failure already ended the
    script). ``leave``: the commands that leave with a status (``return`` too, in a function).
    ``saved``: the list already saved the check's status in this variable (``rc=0; check ||
    rc=$?``), and ``$?`` no longer holds it.
    """
    handed = hand_on(text, statements, start, state=state, leave=leave, saved=saved)
    if handed.reason.level == "keeps" or not passed_only:
        return handed
    for index in range(start, len(statements)):
        command = _alone(statements, index)
        if command is None or not always_succeeds(command, state):
            return Tail(_tail_reason(text, _span(statements, index), command))
    span = _span(statements, start, len(statements) - 1)
    return Tail(reason("always-succeeds", span, piece=excerpt(text, span)))


def hand_on(text: str, statements: tuple[Statement, ...], start: int, *, state: ShellState,
            leave: tuple[str, ...] = ("exit",), saved: str | None = None) -> Tail:
    """Whether ``statements[start:]`` leave with the check's status: the status ``$?`` holds when
    they begin, or the one already saved in the variable ``saved``."""
    held: dict[str, ExitForm] = {saved: ExitForm("last")} if saved is not None else {}
    fresh = saved is None
    for index in range(start, len(statements)):
        command = _alone(statements, index)
        unconditional = index == start or statements[index - 1].op in (";", "\n")
        form = exit_form(command, names=leave, state=state) if command is not None and unconditional else None
        if form is not None and state.redefines(command.words[0].value or ""):  # type: ignore[union-attr]
            form = None
        if form is not None and index == start and fresh and form.kind in ("last", "pipestatus"):
            span = _span(statements, start, index)
            pipestatus = form.position if form.kind == "pipestatus" else None
            return Tail(reason("exit-propagation", span, piece=excerpt(text, span)), pipestatus)
        if form is not None and form.kind == "variable" and form.name in held:
            span = _span(statements, start, index)
            kept = held[form.name]
            pipestatus = kept.position if kept.kind == "pipestatus" else None
            return Tail(reason("saved-status", span, piece=excerpt(text, span)), pipestatus)
        found = saved_form(command) if command is not None and index == start and fresh else None
        if found is not None:
            held[found[0]] = found[1]
            continue
        if held and _keeps(statements[index], frozenset(held), state, text):
            continue
        return Tail(_tail_reason(text, _span(statements, index), command))
    last = len(statements) - 1
    return Tail(_tail_reason(text, _span(statements, last), _alone(statements, last)))


def _keeps(statement: Statement, saved: frozenset[str], state: ShellState, text: str) -> bool:
    if statement.op == "&" or statement.pipeline.negation is not None:
        return False
    return all(keeps_saved(command, saved, state, text) and (not state.maybe_errexit or always_succeeds(command, state))
               for command in statement.pipeline.commands)


def _alone(statements: tuple[Statement, ...], index: int) -> Command | None:
    """The statement's command, when it is one command with nothing around it."""
    pipeline = statements[index].pipeline
    if len(pipeline.commands) != 1 or pipeline.negation is not None or statements[index].op == "&":
        return None
    return pipeline.commands[0]


def _span(statements: tuple[Statement, ...], start: int, end: int | None = None) -> Span:
    """From the operator before ``statements[start]`` to the end of ``statements[end]``."""
    previous = statements[start - 1] if start > 0 else None
    first = previous.op_span.start if previous is not None and previous.op_span else \
        statements[start].pipeline.span.start
    return Span(first, statements[start if end is None else end].pipeline.span.end)


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
