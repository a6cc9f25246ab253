"""A command line of plain words, read without the grammar.

Most command lines agents run are simple commands of plain words, alone or joined by ``&&``,
``||``, ``;`` and ``|``, with plain redirects: ``pytest -q tests``, ``CI=1 npm test``, ``cd api &&
npm test 2>&1 | tail -20``, ``git commit -m 'fix: x'``. Such a line has one reading, the same in
tree-sitter-bash and in bash: words split at blanks, leading ``NAME=value`` words the assignments,
``>``, ``>>``, ``&>``, ``&>>``, ``>&`` and ``<`` redirects to a plain word, operators between
commands, nothing expanded, and nothing quoted but single-quoted printable ASCII.
:func:`plain_script` builds the neutral model of such a line at once, as the converter would from
the grammar's tree (a property test and the corpus hold the two to the same model), and declines
anything else: a character outside :data:`_PLAIN_CHARACTERS` and single quotes (a ``#`` starting a
word, double quotes, ``$``, globs, braces, here-documents, ``<&``, ``<>``, ``>|``, ``&``, ``|&``,
``;;``, newlines, control characters, any non-ASCII character), an operator with no command on
either side, a command of redirects alone, and what tree-sitter-bash reads its own way (a word after
a trailing redirect, ``>&-``, descriptor ``0``, ``2&>``, a ``-`` before a descriptor's redirect), or
a word the shell reserves (``time``, ``if``, ``!`` …).
"""

from __future__ import annotations

from ._builtins import KEYWORDS
from ._flat import OperatorToken, Token, Unit, lone, regroup
from ._model import Command, Redirect, Script, Span, Word
from ._offsets import OffsetMap
from ._patterns import lazy

_PLAIN_CHARACTERS = r"A-Za-z0-9_./:=@%+,\-"
"""Characters that mean themselves anywhere in a bash word (``#`` too, after a word's first character)."""
_SINGLE_QUOTED = r"'[\x20-\x26\x28-\x7e]*'"
"""A single-quoted string of printable ASCII characters: every one of them means itself."""
_WORD_PATTERN = rf"(?:[{_PLAIN_CHARACTERS}]|{_SINGLE_QUOTED})(?:[{_PLAIN_CHARACTERS}#]|{_SINGLE_QUOTED})*"
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


def plain_script(text: str, offsets: OffsetMap) -> Script | None:
    """The script of ``text`` when it is plain simple commands joined by ``&&``, ``||``, ``;`` or
    ``|`` (see the module docstring), its spans mapped through ``offsets``; ``None`` for any other text."""
    if _PLAIN_LINE.fullmatch(text) is None:
        return None
    span = _new_span if offsets.identity else offsets.span
    items: list[Token] = []
    words: list[Word] = []
    assignments: list[Word] = []
    redirects: list[Redirect] = []
    start = -1  # where the command being read starts
    end = 0  # where its last word or redirect ends
    trailing = False  # a redirect came after its words (the grammar then ends the command there)
    for found in _TOKEN.finditer(text):
        operator, fd, op, target = found.groups()
        token = found.group()
        if operator is not None:  # the command before it is complete
            if not words:
                return None  # assignments or redirects alone: the grammar's readings
            items.append(_command(words, assignments, redirects, span(start, end)))
            items.append(_new(OperatorToken, (token, span(*found.span()))))
            words, assignments, redirects, start, trailing = [], [], [], -1, False
            continue
        if start < 0:
            start = found.start()
        end = found.end()
        if op is not None:
            if (op == ">&" and target[0] == "-") or (fd is not None and (fd[0] == "0" or op[0] == "&")):
                return None  # `2>&-` (the grammar's own operator), `0>f` (to the grammar, a word `0` and `>f`), `2&>f`
            if fd is not None and words and words[-1].text == "-":
                return None  # `cat - 2>f`: the grammar loses the `-`
            word = _new(Word, (target, _value(target), span(found.start(4), end)))
            redirects.append(_new(Redirect, (op, fd, word, span(found.start(), end), None)))
            trailing = bool(words)
        elif token in KEYWORDS or trailing:
            return None  # `time`, `if` …, `echo a > f b` (the grammar's span ends at the redirect)
        elif not words and "=" in token:
            if _ASSIGNMENT.match(token) is None or token.startswith(("_=", "_+=")) or token[-1] == "=":
                return None  # `--tb=x`, `_=x`, `a=||b` first: the grammar's own readings, which it decides
            assignments.append(_new(Word, (token, _value(token), span(found.start(), end))))
        else:
            if not words and _NAME.fullmatch(token) is None:
                return None  # the grammar's errors on `a#b`, `CI=1 x:y` first: kept, fail-closed
            words.append(_new(Word, (token, _value(token), span(found.start(), end))))
    if not words:
        return None
    command = _command(words, assignments, redirects, span(start, end))
    return lone(command.command) if not items else regroup([*items, command])


def _value(word: str) -> str:
    """A plain word's value: its text, single quotes removed."""
    return word if "'" not in word else word.replace("'", "")


def _new_span(start: int, end: int) -> Span:
    return _new(Span, (start, end))


def _command(words: list[Word], assignments: list[Word], redirects: list[Redirect], span: Span) -> Unit:
    return Unit(_new(Command, ("simple", tuple(words), tuple(assignments), tuple(redirects), (), None, span, False)))
