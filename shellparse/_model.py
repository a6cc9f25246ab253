"""The neutral structure both dialects are mapped to.

A :class:`Script` is a flat list of :class:`Statement` objects, each a pipeline followed by the
operator that joins it to the next one (``;``, newline, ``&``, ``&&``, ``||``). Precedence is
rebuilt from that flat list by the analysis, never trusted from a grammar's tree shape: a
grammar may nest ``a && b | c`` differently from how the shell runs it.

Every position is a :class:`Span` of *character* offsets into the text that was parsed, so
that reports can underline the exact text responsible.

The types are ``NamedTuple`` subclasses: immutable, hashable, and cheap to build (the analyzer
creates many of them per command and start-up time matters for hooks).
"""

from typing import TYPE_CHECKING, NamedTuple

from ._vocabulary import CommandKind, OpaqueKind, Operator

if TYPE_CHECKING:
    from typing import TypeAlias

    _Body: TypeAlias = "Script | None"
    """What a compound command or a substitution holds: its code parsed, or ``None``."""
else:
    # A NamedTuple field's annotation is evaluated as its class is made, and a string one is then
    # compiled (the first compile of a process costs a `witness check` about 2 ms). `Script` is
    # defined below, so type checkers read the alias above and the running program this.
    _Body = object


class Span(NamedTuple):
    """A half-open range ``[start, end)`` of character offsets into the analysed text."""

    start: int
    """Offset of the first character."""
    end: int
    """Offset one past the last character."""


class Word(NamedTuple):
    """One word of a command line: a command name, an argument or a redirect target."""

    text: str
    """The word exactly as written, quotes included."""
    value: str | None
    """The word after quote removal, or ``None`` when it depends on run-time expansion."""
    span: Span
    """Where the word is in the analysed text."""

    @property
    def literal(self) -> str:
        """The word after quote removal, or as written when that depends on run-time expansion."""
        return self.value if self.value is not None else self.text


class Redirect(NamedTuple):
    """A redirection such as ``2>&1``, ``> out.log``, ``<<'EOF'`` or ``*> $null``."""

    op: str
    """The operator (``>``, ``>>``, ``>&``, ``&>``, ``<``, ``<<``, ``<<<``, ``2>&1`` …)."""
    fd: str | None
    """The file descriptor written before the operator (``2`` in ``2>``), if any."""
    target: Word | None
    """The file, descriptor or here-document delimiter the redirect names."""
    span: Span
    """Where the redirect is, here-document body excluded."""
    body: Span | None = None
    """For ``<<`` and ``<<-``: where the here-document's body is."""


class Opaque(NamedTuple):
    """Code inside a command that runs in its own context: substitutions and script blocks."""

    kind: OpaqueKind
    """``substitution``, ``process-substitution``, ``subexpression`` or ``script-block``."""
    span: Span
    """Where the construct is, delimiters included."""
    body: _Body
    """The code inside, parsed; ``None`` when it could not be."""


class Command(NamedTuple):
    """One element of a pipeline.

    ``kind`` says what it is: ``simple`` (a program or builtin with its arguments), ``subshell``
    (``( … )``), ``group`` (``{ …; }``), ``if``, ``for``, ``while``, ``until``, ``case``,
    ``select``, ``function``, ``arithmetic`` (``(( … ))``), ``test`` (``[[ … ]]``),
    ``expression`` (a PowerShell expression statement such as ``"EXIT=$LASTEXITCODE"``),
    ``assignment`` (a PowerShell ``$x = …`` statement), ``try`` or ``block`` (other PowerShell
    compound statements).
    """

    kind: CommandKind
    """What the command is (see the class docstring)."""
    words: tuple[Word, ...]
    """For ``simple`` commands the argv, command name first; for ``function`` the name. For
    ``if``, its keywords (``if``, ``then``, ``elif``, ``else``, ``fi``); for ``for``, the loop
    variable, then ``in`` and the words after it (none without ``in``); for ``case``, the subject, then for each arm its
    patterns, its ``)`` and its terminator (``;;``, ``;&`` or ``;;&``), so that the statements of
    :attr:`body` can be told apart by position."""
    assignments: tuple[Word, ...]
    """``NAME=value`` prefixes (bash) — the whole assignment as one word."""
    redirects: tuple[Redirect, ...]
    """Redirections attached to this command."""
    opaque: tuple[Opaque, ...]
    """Substitutions and script blocks found in the words, assignments and redirects."""
    body: _Body
    """The statements inside a compound command, parsed as a script of their own."""
    span: Span
    """Where the command is, its redirects included."""
    literal: bool = False
    """For ``expression`` commands: ``True`` when the expression is only a quoted string whose
    embedded parts are plain variables (a PowerShell "report" tail)."""


class Pipeline(NamedTuple):
    """Commands joined by ``|`` (or ``|&``), optionally negated with ``!``."""

    commands: tuple[Command, ...]
    """The commands, left to right."""
    pipes: tuple[Span, ...]
    """The span of each pipe operator (one fewer than ``commands``)."""
    negation: Span | None
    """The span of a leading ``!``, if the pipeline is negated."""
    span: Span
    """Where the whole pipeline is."""


class Statement(NamedTuple):
    """A pipeline and the operator that follows it."""

    pipeline: Pipeline
    """The pipeline."""
    op: Operator | None
    """``;``, ``\\n``, ``&``, ``&&``, ``||`` or ``None`` for the last statement."""
    op_span: Span | None
    """Where the operator is (a newline's own position for ``\\n``)."""


class Script(NamedTuple):
    """A parsed command line: statements in order, and the first parse error if any."""

    statements: tuple[Statement, ...]
    """The statements, in source order."""
    error: str | None
    """A description of the first syntax problem, or ``None`` when the parse was clean."""
    error_span: Span | None
    """Where that problem is."""


_new = tuple.__new__  # builds a named tuple without its generated ``__new__``: the converters' hot path


def simple_command(words: tuple[Word, ...], span: Span, assignments: tuple[Word, ...] = (),
                   redirects: tuple[Redirect, ...] = (), opaque: tuple[Opaque, ...] = ()) -> Command:
    """A ``simple`` command: a program or builtin with its arguments."""
    return _new(Command, ("simple", words, assignments, redirects, opaque, None, span, False))


def compound_command(kind: CommandKind, body: Script | None, span: Span, *, words: tuple[Word, ...] = (),
                     assignments: tuple[Word, ...] = (), redirects: tuple[Redirect, ...] = (),
                     opaque: tuple[Opaque, ...] = (), literal: bool = False) -> Command:
    """Any other command: one with a body of its own, or a PowerShell expression or assignment."""
    return _new(Command, (kind, words, assignments, redirects, opaque, body, span, literal))
