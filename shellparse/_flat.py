"""The flat stream of commands and operators both converters produce, and its regrouping.

Grammars disagree with shells about precedence in places (see ``_bash``), so converters emit
commands and operators in source order and :func:`regroup` rebuilds statements and pipelines
the way the shell does: pipes bind tighter than ``&&``/``||``, which bind tighter than ``;``,
``&`` and newline.
"""

from typing import Literal, NamedTuple

from ._model import Command, Opaque, Pipeline, Redirect, Script, Span, Statement, Word
from ._vocabulary import Operator

_new = tuple.__new__
Pipe = Literal["|", "|&"]


class Unit:
    """A command in the flat stream, with redirects still to be attached."""

    __slots__ = ("command",)

    def __init__(self, command: Command):
        self.command = command


class OperatorToken(NamedTuple):
    """An operator in the flat stream: a pipe, or what joins two statements."""

    op: Operator | Pipe
    """``|`` or ``|&`` (a pipe), or one of :data:`~shellparse.OPERATORS`."""
    span: Span
    """Where the operator is."""


class NegationToken(NamedTuple):
    """A ``!`` in front of a pipeline."""

    span: Span
    """Where the pipeline it negates begins."""


class Attach(NamedTuple):
    """Redirects (and words) written after a list or pipeline, still to be attached to its last command."""

    redirects: tuple[Redirect, ...]
    opaque: tuple[Opaque, ...]
    end: int
    """Where the attached text ends: the command's span grows to here."""
    words: tuple[Word, ...] = ()
    """Arguments written among the redirects (``echo a > f b``: ``b``)."""


Token = Unit | OperatorToken | NegationToken


def operator(op: Operator | Pipe, span: Span) -> OperatorToken:
    return _new(OperatorToken, (op, span))


def separate(items: list[Token], at: int) -> None:
    """Insert the newline operator bash implies between two adjacent commands."""
    if items and isinstance(items[-1], Unit):
        end = items[-1].command.span.end
        items.append(_new(OperatorToken, ("\n", Span(end, max(end, at)))))


def attach(items: list[Token], pending: Attach) -> None:
    """Attach redirects written after a list or pipeline to its last command, as bash does."""
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if isinstance(item, Unit):
            kind, words, assignments, redirects, opaque, body, span, literal = item.command
            span = _new(Span, (span.start, max(span.end, pending.end)))
            item.command = _new(Command, (kind, words + pending.words, assignments, redirects + pending.redirects,
                                          opaque + pending.opaque, body, span, literal))
            return


def regroup(items: list[Token], error: tuple[str, Span] | None = None) -> Script:
    """Statements and pipelines from the flat stream, by the shell's precedence."""
    statements: list[Statement] = []
    commands: list[Command] = []
    pipes: list[Span] = []
    negation: Span | None = None
    start = None
    for item in items:
        if isinstance(item, Unit):
            if start is None:
                start = item.command.span.start
            commands.append(item.command)
        elif isinstance(item, NegationToken):
            negation = negation or item.span
            if start is None:
                start = item.span.start
        else:
            op, span = item
            if op == "|" or op == "|&":
                if commands:  # a pipe with no command before it is only in a syntax error's recovery
                    pipes.append(span)
                continue
            if not commands:
                # `for f in *; do`: the loop header leaves a separator with no command before it.
                # Real syntax errors are tree-sitter's to report.
                continue
            assert start is not None
            statements.append(_statement(commands, pipes, negation, start, op, span))
            commands, pipes, negation, start = [], [], None, None
    if commands:
        assert start is not None
        statements.append(_statement(commands, pipes, negation, start, None, None))
    if error is not None:
        message, span = error
        return Script(tuple(statements), message, span)
    return _new(Script, (tuple(statements), None, None))


def lone(command: Command) -> Script:
    """The script of one command: what :func:`regroup` makes of a stream holding only it."""
    pipeline = _new(Pipeline, ((command,), (), None, command.span))
    return _new(Script, ((_new(Statement, (pipeline, None, None)),), None, None))


def _statement(commands: list[Command], pipes: list[Span], negation: Span | None, start: int,
               op: Operator | None, op_span: Span | None) -> Statement:
    pipeline = _new(Pipeline, (tuple(commands), tuple(pipes), negation, _new(Span, (start, commands[-1].span.end))))
    return _new(Statement, (pipeline, op, op_span))
