"""A command line of plain words, read without the grammar.

Most command lines agents run are simple commands of plain words, alone or joined by ``&&``,
``||``, ``;`` and ``|``, with plain redirects: ``pytest -q tests``, ``CI=1 npm test``, ``cd api &&
npm test 2>&1 | tail -20``, ``git commit -m 'fix: x'``. Such a line has one reading, the same in
tree-sitter-bash and in bash: words split at blanks, leading ``NAME=value`` words the assignments,
``>``, ``>>``, ``&>``, ``&>>``, ``>&`` and ``<`` redirects to a plain word, operators between
commands, nothing expanded, and nothing quoted but printable ASCII (in double quotes, without ``$``,
backquotes and backslashes).
:func:`plain_script` builds the neutral model of such a line at once, as the converter would from
the grammar's tree (a property test and the corpus hold the two to the same model), and declines
anything else: a character outside :data:`_PLAIN_CHARACTERS` and quotes (a ``#`` starting a
word, ``$``, globs, braces, here-documents, ``<&``, ``<>``, ``>|``, ``&``, ``|&``,
``;;``, newlines, control characters, any non-ASCII character), an operator with no command on
either side, a command of redirects alone, and what tree-sitter-bash reads its own way (a word after
a trailing redirect, ``>&-``, descriptor ``0``, ``2&>``, a ``-`` before a descriptor's redirect), or
a word the shell reserves (``time``, ``if``, ``!`` …) where it is reserved, first in a command (``echo
done`` is plain).
"""

from __future__ import annotations

import re

from ._builtins import KEYWORDS
from ._flat import OperatorToken, Token, Unit, lone, regroup
from ._model import Command, Redirect, Script, Span, Word
from ._offsets import OffsetMap
from ._patterns import lazy

_PLAIN_CHARACTERS = r"A-Za-z0-9_./:=@%+,\-"
"""Characters that mean themselves anywhere in a bash word (``#`` too, after a word's first character)."""
_SINGLE_QUOTED = r"'[\x20-\x26\x28-\x7e]*+'"
"""A single-quoted string of printable ASCII characters: every one of them means itself."""
_DOUBLE_QUOTED = r'"[\x20\x21\x23\x25-\x5b\x5d-\x5f\x61-\x7e]*+"'
"""A double-quoted string of printable ASCII characters but ``$``, a backquote and a backslash (the
only ones bash gives a meaning there): every one of them means itself."""
_QUOTED = rf"{_SINGLE_QUOTED}|{_DOUBLE_QUOTED}"
_WORD_PATTERN = rf"(?:[{_PLAIN_CHARACTERS}]++|{_QUOTED})(?:[{_PLAIN_CHARACTERS}#]++|{_QUOTED})*+"
"""A plain word. Its runs are possessive: no character after a word can extend it, so nothing is
given back (and a long word is one step of the matcher, not one per character)."""
_REDIRECT_PATTERN = rf"([0-9]+)?(&>>|&>|>>|>&|>|<)[ \t]*({_WORD_PATTERN})"
"""A redirect to a plain word: its descriptor, its operator and its target (groups 2 to 4 of :data:`_TOKEN`)."""
_TOKEN = lazy(rf"(&&|\|\||;|\|)|{_REDIRECT_PATTERN}|{_WORD_PATTERN}|([^ \t])")
"""An operator (group 1), a redirect (groups 2 to 4), a word, or any other character but a blank
(group 5: the line is not plain). Tokens are found one after the other, blanks skipped between them,
so that every character of a line is a blank or part of a token."""
_OTHER = lazy(r"[^\x20-\x7e\t]")
"""A character no plain line holds (not even quoted): a newline, a control character, non-ASCII."""
_UNQUOTED_OTHER = lazy(rf"[^{_PLAIN_CHARACTERS}# \t&|;<>]")
"""A character no plain line without quotes holds (``$``, ``*``, ``(`` …): most lines that are not plain
are told at once, before their tokens are read."""
_QUOTES = lazy(r"'([^']*)'|\"([^\"]*)\"")
_OPERATOR, _TARGET, _JUNK = 1, 4, 5
""":data:`_TOKEN`'s last group matched (``lastindex``) for an operator, a redirect and any other character."""
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_NAME = lazy(r"[A-Za-z0-9_./][A-Za-z0-9_./+,\-]*")
"""A command name the grammar reads as bash does in every position (it errs on some names with
``#``, ``:``, ``@`` or ``%`` after an assignment)."""
_new = tuple.__new__


def plain_script(text: str, offsets: OffsetMap) -> Script | None:
    """The script of ``text`` when it is plain simple commands joined by ``&&``, ``||``, ``;`` or
    ``|`` (see the module docstring), its spans mapped through ``offsets``; ``None`` for any other text."""
    if (_OTHER if "'" in text or '"' in text else _UNQUOTED_OTHER).search(text) is not None:
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
        kind = found.lastindex
        if kind == _OPERATOR:  # the command before it is complete
            if not words:
                return None  # assignments or redirects alone, or no command: the grammar's readings
            items.append(_command(words, assignments, redirects, span(start, end)))
            items.append(_new(OperatorToken, (found.group(), span(*found.span()))))
            words, assignments, redirects, start, trailing = [], [], [], -1, False
            continue
        if kind == _JUNK:
            return None
        if start < 0:
            start = found.start()
        elif found.start() == end:
            return None  # `a>f`, `a'b'>f`: words and redirects of a command are apart
        end = found.end()
        if kind == _TARGET:
            fd, op, target = found.group(2, 3, 4)
            if (op == ">&" and target[0] == "-") or (fd is not None and (fd[0] == "0" or op[0] == "&")):
                return None  # `2>&-` (the grammar's own operator), `0>f` (to the grammar, a word `0` and `>f`), `2&>f`
            if fd is not None and words and words[-1].text == "-":
                return None  # `cat - 2>f`: the grammar loses the `-`
            word = _new(Word, (target, _value(target), span(found.start(_TARGET), end)))
            redirects.append(_new(Redirect, (op, fd, word, span(found.start(), end), None)))
            trailing = bool(words)
            continue
        token = found.group()
        if trailing or (not words and token in KEYWORDS):
            return None  # `time`, `if` … first (reserved there only), `echo a > f b` (the span ends at `f`)
        if not words and "=" in token:
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
    """A plain word's value: its text, quotes removed."""
    if '"' not in word:
        return word if "'" not in word else word.replace("'", "")
    if "'" not in word:
        return word.replace('"', "")
    return _QUOTES.sub(_unquoted, word)  # `"it's"'a "b"'`: each quote removed by its own kind


def _unquoted(found: re.Match[str]) -> str:
    single, double = found.groups()
    return single if single is not None else double


def _new_span(start: int, end: int) -> Span:
    return _new(Span, (start, end))


def _command(words: list[Word], assignments: list[Word], redirects: list[Redirect], span: Span) -> Unit:
    return Unit(_new(Command, ("simple", tuple(words), tuple(assignments), tuple(redirects), (), None, span, False)))
