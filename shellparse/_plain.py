"""A command line of plain words, read without the grammar.

Most command lines agents run are simple commands of plain words, alone or joined by ``&&``,
``||``, ``;`` and ``|``, with plain redirects: ``pytest -q tests``, ``CI=1 npm test``, ``cd api &&
npm test 2>&1 | tail -20``. Such a line has one reading, the same in tree-sitter-bash and in bash:
words split at blanks, leading ``NAME=value`` words the assignments, ``>``, ``>>``, ``&>``, ``&>>``,
``>&`` and ``<`` redirects to a plain word, operators between commands, nothing quoted or expanded.
:func:`plain_script` builds the neutral model of such a line at once, as the converter would from
the grammar's tree (a property test and the corpus hold the two to the same model), and declines
anything else: a character outside :data:`_PLAIN_CHARACTERS` (a ``#`` starting a word, quotes,
``$``, globs, braces, here-documents, ``<&``, ``<>``, ``>|``, ``&``, ``|&``, ``;;``, newlines, control
characters, any non-ASCII character), an operator with no command on either side, a command of
redirects alone, a word after a trailing redirect, ``>&-``, descriptor ``0``, or a word the shell
reserves (``time``, ``if``, ``!`` …).
"""

from __future__ import annotations

from re import Match

from ._builtins import KEYWORDS
from ._flat import OperatorToken, Token, Unit, lone, regroup
from ._model import Command, Redirect, Script, Span, Word
from ._offsets import OffsetMap
from ._patterns import lazy

_PLAIN_CHARACTERS = r"A-Za-z0-9_./:=@%+,\-"
"""Characters that mean themselves anywhere in a bash word (``#`` too, after a word's first character)."""
_WORD_PATTERN = rf"[{_PLAIN_CHARACTERS}][{_PLAIN_CHARACTERS}#]*"
_REDIRECT_PATTERN = rf"([0-9]+)?(&>>|&>|>>|>&|>|<)[ \t]*({_WORD_PATTERN})"
"""A redirect to a plain word: its descriptor, its operator and its target (groups 2 to 4 of :data:`_TOKEN`)."""
_ELEMENT_PATTERN = rf"(?:{_REDIRECT_PATTERN}|{_WORD_PATTERN})"
_COMMAND_PATTERN = rf"{_ELEMENT_PATTERN}(?:[ \t]+{_ELEMENT_PATTERN})*"
_PLAIN_LINE = lazy(rf"[ \t]*{_COMMAND_PATTERN}(?:[ \t]*(?:&&|\|\||;|\|)[ \t]*{_COMMAND_PATTERN})*[ \t]*")
_TOKEN = lazy(rf"(&&|\|\||;|\|)|{_REDIRECT_PATTERN}|{_WORD_PATTERN}")
"""An operator (group 1), a redirect (groups 2 to 4) or a word."""
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_NAME = lazy(r"[A-Za-z0-9_./][A-Za-z0-9_./+,\-]*")
"""A command name the grammar reads as bash does in every position (it errs on some names with
``#``, ``:``, ``@`` or ``%`` after an assignment)."""
_new = tuple.__new__


class _Decline(Exception):
    """The line is not plain after all: the grammar reads it."""


def plain_script(text: str, offsets: OffsetMap) -> Script | None:
    """The script of ``text`` when it is plain simple commands joined by ``&&``, ``||``, ``;`` or
    ``|`` (see the module docstring), its spans mapped through ``offsets``; ``None`` for any other text."""
    if _PLAIN_LINE.fullmatch(text) is None:
        return None
    reader = _Reader(offsets)
    try:
        for found in _TOKEN.finditer(text):
            reader.read(found)
        reader.end_command()
    except _Decline:
        return None
    items = reader.items
    if len(items) == 1:
        return lone(items[0].command)  # type: ignore[union-attr]
    return regroup(items)


class _Reader:
    """The flat stream of commands and operators of a plain line, token by token."""

    def __init__(self, offsets: OffsetMap) -> None:
        self.offsets = offsets
        self.identity = offsets.identity
        self.items: list[Token] = []
        self.words: list[Word] = []
        self.assignments: list[Word] = []
        self.redirects: list[Redirect] = []
        self.trailing = False
        """A redirect came after the command's words (the grammar then ends the command at the redirect)."""

    def span(self, start: int, end: int) -> Span:
        return _new(Span, (start, end)) if self.identity else self.offsets.span(start, end)

    def read(self, found: Match[str]) -> None:
        token = found.group()
        if found.group(1) is not None:  # an operator: the command before it is complete
            self.end_command()
            self.items.append(_new(OperatorToken, (token, self.span(*found.span()))))
        elif found.group(3) is not None:
            self.redirect(found)
        elif token in KEYWORDS:
            raise _Decline  # `time`, `if` …: the grammar's to read
        elif not self.words and "=" in token:
            if _ASSIGNMENT.match(token) is None or token.startswith(("_=", "_+=")) or token[-1] == "=":
                raise _Decline  # `--tb=x`, `_=x`, `a=||b` first: the grammar's own readings, which it decides
            self.assignments.append(_new(Word, (token, token, self.span(*found.span()))))
        else:
            if not self.words and _NAME.fullmatch(token) is None:
                raise _Decline  # the grammar's errors on `a#b`, `CI=1 x:y` first: kept, fail-closed
            if self.trailing:
                raise _Decline  # `echo a > f b`: the grammar's span ends at the redirect
            self.words.append(_new(Word, (token, token, self.span(*found.span()))))

    def redirect(self, found: Match[str]) -> None:
        fd, op, target = found.group(2, 3, 4)
        if op == ">&" and target[0] == "-":
            raise _Decline  # `2>&-` closes the descriptor: the grammar's own operator
        if fd is not None and fd[0] == "0":
            raise _Decline  # the grammar reads `0>f` as a word `0` and `>f` (bash: descriptor 0)
        self.trailing = bool(self.words)
        word = _new(Word, (target, target, self.span(found.start(4), found.end(4))))
        self.redirects.append(_new(Redirect, (op, fd, word, self.span(*found.span()), None)))

    def end_command(self) -> None:
        words, assignments, redirects = self.words, self.assignments, self.redirects
        if not words:
            raise _Decline  # assignments or redirects alone: the grammar's readings
        spans: list[Span] = [word.span for word in (*assignments, *words)]
        spans.extend(redirect.span for redirect in redirects)
        span = _new(Span, (min(s.start for s in spans), max(s.end for s in spans)))
        self.items.append(Unit(_new(Command, ("simple", tuple(words), tuple(assignments), tuple(redirects), (), None,
                                              span, False))))
        self.words, self.assignments, self.redirects, self.trailing = [], [], [], False
