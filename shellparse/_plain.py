"""A command line of plain words, read without the grammar.

Most command lines agents run are one simple command of plain words: ``pytest -q tests``, ``CI=1
npm test``, ``go test ./pkg -run TestX``. Such a line has one reading, the same in tree-sitter-bash
and in bash: words split at blanks, leading ``NAME=value`` words the assignments, nothing quoted,
expanded, redirected or joined. :func:`plain_script` builds the neutral model of such a line at
once, as the converter would from the grammar's tree (a property test and the corpus hold the two
to the same model), and declines anything else: a character outside :data:`_PLAIN_CHARACTERS` (a
``#`` starting a word, quotes, ``$``, globs, braces, operators, newlines, control characters, any
non-ASCII character), or a word the shell reserves (``time``, ``if``, ``!`` …).
"""

from __future__ import annotations

from ._builtins import KEYWORDS
from ._flat import lone
from ._model import Command, Script, Span, Word
from ._offsets import OffsetMap
from ._patterns import lazy

_PLAIN_CHARACTERS = r"A-Za-z0-9_./:=@%+,\-"
"""Characters that mean themselves anywhere in a bash word (``#`` too, after a word's first character)."""
_WORD_PATTERN = rf"[{_PLAIN_CHARACTERS}][{_PLAIN_CHARACTERS}#]*"
_PLAIN_LINE = lazy(rf"[ \t]*{_WORD_PATTERN}(?:[ \t]+{_WORD_PATTERN})*[ \t]*")
_WORD = lazy(_WORD_PATTERN)
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_NAME = lazy(r"[A-Za-z0-9_./][A-Za-z0-9_./+,\-]*")
"""A command name the grammar reads as bash does in every position (it errs on some names with
``#``, ``:``, ``@`` or ``%`` after an assignment)."""
_new = tuple.__new__


def plain_script(text: str, offsets: OffsetMap) -> Script | None:
    """The script of ``text`` when it is one simple command of plain words (see the module
    docstring), its spans mapped through ``offsets``; ``None`` for any other text."""
    if _PLAIN_LINE.fullmatch(text) is None:
        return None
    words: list[Word] = []
    assignments: list[Word] = []
    identity = offsets.identity
    for found in _WORD.finditer(text):
        word = found.group()
        if word in KEYWORDS:
            return None  # `time`, `if` …: the grammar's to read
        start, end = found.span()
        span = _new(Span, (start, end)) if identity else offsets.span(start, end)
        if not words and "=" in word:
            if _ASSIGNMENT.match(word) is None or word.startswith(("_=", "_+=")):
                return None  # `--tb=x`, `_=x` first: the grammar's own readings, which it decides
            assignments.append(_new(Word, (word, word, span)))
        else:
            if not words and _NAME.fullmatch(word) is None:
                return None  # the grammar's errors on `a#b`, `CI=1 x:y` first: kept, fail-closed
            words.append(_new(Word, (word, word, span)))
    first = (assignments or words)[0].span.start
    last = (words or assignments)[-1].span.end
    command = _new(Command, ("simple", tuple(words), tuple(assignments), (), (), None, _new(Span, (first, last)),
                             False))
    return lone(command)
