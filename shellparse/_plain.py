"""A command line of plain words, read without the grammar.

Most command lines agents run are simple commands of plain words, alone or joined by ``&&``,
``||``, ``;`` and ``|``: ``pytest -q tests``, ``CI=1 npm test``, ``cd api && npm test | tail -20``.
Such a line has one reading, the same in tree-sitter-bash and in bash: words split at blanks,
leading ``NAME=value`` words the assignments, operators between commands, nothing quoted, expanded
or redirected. :func:`plain_script` builds the neutral model of such a line at
once, as the converter would from the grammar's tree (a property test and the corpus hold the two
to the same model), and declines anything else: a character outside :data:`_PLAIN_CHARACTERS` (a
``#`` starting a word, quotes, ``$``, globs, braces, redirects, ``&``, ``|&``, ``;;``, newlines,
control characters, any non-ASCII character), an operator with no command on either side, or a
word the shell reserves (``time``, ``if``, ``!`` …).
"""

from __future__ import annotations

from ._builtins import KEYWORDS
from ._flat import OperatorToken, Token, Unit, lone, regroup
from ._model import Command, Script, Span, Word
from ._offsets import OffsetMap
from ._patterns import lazy

_PLAIN_CHARACTERS = r"A-Za-z0-9_./:=@%+,\-"
"""Characters that mean themselves anywhere in a bash word (``#`` too, after a word's first character)."""
_WORD_PATTERN = rf"[{_PLAIN_CHARACTERS}][{_PLAIN_CHARACTERS}#]*"
_COMMAND_PATTERN = rf"{_WORD_PATTERN}(?:[ \t]+{_WORD_PATTERN})*"
_PLAIN_LINE = lazy(rf"[ \t]*{_COMMAND_PATTERN}(?:[ \t]*(?:&&|\|\||;|\|)[ \t]*{_COMMAND_PATTERN})*[ \t]*")
_TOKEN = lazy(rf"(&&|\|\||;|\|)|{_WORD_PATTERN}")
"""An operator (the group) or a word."""
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_NAME = lazy(r"[A-Za-z0-9_./][A-Za-z0-9_./+,\-]*")
"""A command name the grammar reads as bash does in every position (it errs on some names with
``#``, ``:``, ``@`` or ``%`` after an assignment)."""
_new = tuple.__new__


def plain_script(text: str, offsets: OffsetMap) -> Script | None:
    """The script of ``text`` when it is plain simple commands joined by ``&&``, ``||``, ``;`` or
    ``|`` (see the module docstring), its spans mapped through ``offsets``; ``None`` for any other text."""
    if _PLAIN_LINE.fullmatch(text) is None:
        return None
    identity = offsets.identity
    items: list[Token] = []
    words: list[Word] = []
    assignments: list[Word] = []
    for found in _TOKEN.finditer(text):
        token = found.group()
        start, end = found.span()
        span = _new(Span, (start, end)) if identity else offsets.span(start, end)
        if found.group(1) is not None:  # an operator: the command before it is complete
            items.append(_command(words, assignments))
            items.append(_new(OperatorToken, (token, span)))
            words, assignments = [], []
        elif token in KEYWORDS:
            return None  # `time`, `if` …: the grammar's to read
        elif not words and "=" in token:
            if _ASSIGNMENT.match(token) is None or token.startswith(("_=", "_+=")) or token[-1] == "=":
                return None  # `--tb=x`, `_=x`, `a=||b` first: the grammar's own readings, which it decides
            assignments.append(_new(Word, (token, token, span)))
        else:
            if not words and _NAME.fullmatch(token) is None:
                return None  # the grammar's errors on `a#b`, `CI=1 x:y` first: kept, fail-closed
            words.append(_new(Word, (token, token, span)))
    items.append(_command(words, assignments))
    if len(items) == 1:
        return lone(items[0].command)  # type: ignore[union-attr]
    return regroup(items)


def _command(words: list[Word], assignments: list[Word]) -> Unit:
    first = (assignments or words)[0].span.start
    last = (words or assignments)[-1].span.end
    return Unit(_new(Command, ("simple", tuple(words), tuple(assignments), (), (), None, _new(Span, (first, last)),
                               False)))
