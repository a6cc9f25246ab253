"""The flat stream of commands and operators both converters produce, and its regrouping.

Grammars disagree with shells about precedence in places (see ``_bash``), so converters emit
commands and operators in source order and :func:`regroup` rebuilds statements and pipelines
the way the shell does: pipes bind tighter than ``&&``/``||``, which bind tighter than ``;``,
``&`` and newline.
"""

from __future__ import annotations

from typing import Any

from ._model import Command, Opaque, Pipeline, Redirect, Script, Span, Statement, Word


class NestingTooDeepError(Exception):
    """Raised when constructs nest deeper than the analysis follows (fail-closed, never a crash)."""


class Unit:
    """A command in the flat stream, with redirects still to be attached."""

    __slots__ = ("command",)

    def __init__(self, command: Command):
        self.command = command



def separate(items: list[Any], at: int) -> None:
    """Insert the newline operator bash implies between two adjacent commands."""
    if items and isinstance(items[-1], Unit):
        end = items[-1].command.span.end
        items.append(("o", "\n", Span(end, max(end, at))))


def attach(items: list[Any], redirects: tuple[Redirect, ...], opaque: tuple[Opaque, ...], end: int,
            extra_words: tuple[Word, ...] = ()) -> None:
    """Attach redirects written after a list or pipeline to its last command, as bash does."""
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if isinstance(item, Unit):
            command = item.command
            item.command = command._replace(
                words=command.words + extra_words,
                redirects=command.redirects + redirects,
                opaque=command.opaque + opaque,
                span=Span(command.span.start, max(command.span.end, end)),
            )
            return


def regroup(items: list[Any], error: list[tuple[str, Span]]) -> Script:
    statements: list[Statement] = []
    commands: list[Command] = []
    pipes: list[Span] = []
    negation: Span | None = None
    problem = error[0] if error else None
    start = None
    for item in items:
        if isinstance(item, Unit):
            if start is None:
                start = item.command.span.start
            commands.append(item.command)
        elif item[0] == "!":
            negation = negation or item[1]
            if start is None:
                start = item[1].start
        else:
            _, op, span = item
            if op in ("|", "|&"):
                pipes.append(span)
                continue
            if not commands:
                # `for f in *; do`: the loop header leaves a separator with no command before it.
                # Real syntax errors are tree-sitter's to report.
                continue
            assert start is not None
            pipeline = Pipeline(tuple(commands), tuple(pipes), negation, Span(start, commands[-1].span.end))
            statements.append(Statement(pipeline, op, span))
            commands, pipes, negation, start = [], [], None, None
    if commands:
        assert start is not None
        pipeline = Pipeline(tuple(commands), tuple(pipes), negation, Span(start, commands[-1].span.end))
        statements.append(Statement(pipeline, None, None))
    if problem is not None:
        return Script(tuple(statements), problem[0], problem[1])
    return Script(tuple(statements), None, None)
