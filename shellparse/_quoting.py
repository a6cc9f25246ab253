"""Quote removal for one word, with the source position of every resulting character.

The grammar decides where a word starts and ends; this module decides what it *means* once
quotes and escapes are removed, and whether that meaning is fixed before the shell runs
(``value``) or depends on expansion (``None``). Positions are kept so that a string handed to
``bash -c`` or ``pwsh -Command`` can be parsed again with spans that still point into the
user's text.
"""

from __future__ import annotations

import re

from ._patterns import lazy

BASH_SPECIAL = lazy(r"[\\'\"$`{]")
"""A character that may make a bash word's value differ from its text."""
_BASH_PLAIN = lazy(r"[^\\'\"$`{]+")
_BASH_QUOTED_PLAIN = lazy(r'[^"\\`$]+')
_PWSH_SPECIAL = lazy(r"[`'\"$\u2018\u2019\u201c\u201d]")
_PWSH_VARIABLE = lazy(r"\$(?:\{[^}]*\}|[A-Za-z_?^$][\w:]*)")

_ANSI_C = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
    "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}


def bash_value(text: str) -> str | None:
    """The value of a bash word after quote removal, or ``None`` if it needs expansion."""
    if BASH_SPECIAL.search(text) is None:
        return text
    result = bash_unquote(text, 0)
    if result is None:
        return None
    value, _ = result
    return value


_UNQUOTED_FIELD = lazy(r"[^\\'\"$`{}*?\[]+")
"""Characters that mean themselves outside quotes and cannot split, glob or brace-expand a word."""
_QUOTED_FIELD = lazy(r'"((?:[^"\\`$]|\\.|\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\}|[?$!#@*0-9-]))*)"')
"""A double-quoted string whose only expansions are plain parameters (``"$HOME/bin"``)."""


def one_field(text: str) -> bool:
    """Whether the bash word ``text`` stays one argument whatever its expansions hold: every
    expansion is a plain parameter inside double quotes (``PATH="$PATH"``), so no value can split
    it into words, make it a glob or brace-expand it, and none runs code."""
    i, n = 0, len(text)
    while i < n:
        plain = _UNQUOTED_FIELD.match(text, i)
        if plain is not None:
            i = plain.end()
            continue
        char = text[i]
        if char == "\\" and i + 1 < n:
            i += 2
        elif char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                return False
            i = end + 1
        elif char == '"':
            quoted = _QUOTED_FIELD.match(text, i)
            if quoted is None:
                return False
            i = quoted.end()
        else:
            return False  # an unquoted expansion, glob or brace
    return True


def bash_unquote(text: str, base: int) -> tuple[str, list[int]] | None:
    """Quote removal for a bash word, with the position of each character (plus the end).

    Returns ``None`` when the word contains an expansion (``$x``, ``$(…)``, backticks, brace
    expansion), because its value is then only known when the shell runs.
    """
    out: list[str] = []
    pos: list[int] = []
    i, n = 0, len(text)
    while i < n:
        plain = _BASH_PLAIN.match(text, i)
        if plain is not None:  # a run of ordinary characters is copied whole
            i = _copied(plain, base, out, pos)
            continue
        c = text[i]
        if c == "\\":
            if i + 1 < n:
                if text[i + 1] != "\n":  # backslash-newline is a line continuation
                    out.append(text[i + 1])
                    pos.append(base + i + 1)
                i += 2
            else:
                i += 1
        elif c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                return None
            out.append(text[i + 1 : end])
            pos.extend(range(base + i + 1, base + end))
            i = end + 1
        elif c == "$" and i + 1 < n and text[i + 1] == "'":
            i = _ansi_c(text, i + 2, base, out, pos)
        elif c == '"':
            i = _double_quoted(text, i + 1, base, out, pos)
        elif (c == "`" or (c == "$" and i + 1 < n and _expands(text[i + 1]))
              or (c == "{" and _is_brace_expansion(text, i))):
            return None
        else:
            out.append(c)
            pos.append(base + i)
            i += 1
        if i < 0:
            return None
    pos.append(base + n)
    return "".join(out), pos


def _copied(run: re.Match[str], base: int, out: list[str], pos: list[int]) -> int:
    """Copy a run of characters that mean themselves; the index after it."""
    start, end = run.span()
    out.append(run.group())
    pos.extend(range(base + start, base + end))
    return end


def _double_quoted(text: str, i: int, base: int, out: list[str], pos: list[int]) -> int:
    """Decode a ``"…"`` string starting after the opening quote; the index after it, or -1 when
    it is unterminated or expands."""
    n = len(text)
    while i < n:
        plain = _BASH_QUOTED_PLAIN.match(text, i)
        if plain is not None:
            i = _copied(plain, base, out, pos)
            continue
        ch = text[i]
        if ch == '"':
            return i + 1
        if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
                pos.append(base + i + 1)
            i += 2
            continue
        if ch == "`" or (ch == "$" and i + 1 < n and _expands(text[i + 1])):
            return -1
        out.append(ch)
        pos.append(base + i)
        i += 1
    return -1


def _expands(following: str) -> bool:
    return following.isalnum() or following in "_{([@*#?$!-\"'"  # `$[…]`: the old arithmetic


def _is_brace_expansion(text: str, start: int) -> bool:
    end = text.find("}", start + 1)
    if end < 0:
        return False
    inner = text[start + 1 : end]
    return ("," in inner or ".." in inner) and not any(q in inner for q in "'\" ")


def _ansi_c(text: str, i: int, base: int, out: list[str], pos: list[int]) -> int:
    """Decode a ``$'…'`` string starting after the opening quote; return the index after it."""
    n = len(text)
    while i < n and text[i] != "'":
        c = text[i]
        if c == "\\" and i + 1 < n:
            e = text[i + 1]
            if e in _ANSI_C:
                out.append(_ANSI_C[e])
                pos.append(base + i)
                i += 2
                continue
            if e in "xuU":
                width = {"x": 2, "u": 4, "U": 8}[e]
                digits = ""
                j = i + 2
                while j < n and len(digits) < width and text[j] in "0123456789abcdefABCDEF":
                    digits += text[j]
                    j += 1
                if digits:
                    code = int(digits, 16)
                    out.append(chr(code) if code < 0x110000 else "\ufffd")
                    pos.append(base + i)
                    i = j
                    continue
            if e in "01234567":
                j = i + 1
                digits = ""
                while j < n and len(digits) < 3 and text[j] in "01234567":
                    digits += text[j]
                    j += 1
                out.append(chr(int(digits, 8)))
                pos.append(base + i)
                i = j
                continue
            out.append(c)
            pos.append(base + i)
            i += 1
            continue
        out.append(c)
        pos.append(base + i)
        i += 1
    if i >= n:
        return -1
    return i + 1


def pwsh_value(text: str) -> str | None:
    """The value of a PowerShell argument after quote removal, or ``None`` if it expands."""
    if _PWSH_SPECIAL.search(text) is None:
        return text
    result = pwsh_unquote(text, 0)
    if result is None:
        return None
    value, _ = result
    return value


def pwsh_unquote(text: str, base: int) -> tuple[str, list[int]] | None:
    """Quote removal for a PowerShell argument, with positions (see :func:`bash_unquote`)."""
    out: list[str] = []
    pos: list[int] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "`":
            if i + 1 < n:
                out.append(_pwsh_escape(text[i + 1]))
                pos.append(base + i + 1)
            i += 2
        elif c in _PWSH_SINGLE:
            i = _pwsh_quoted(text, i + 1, base, out, pos, double=False)
        elif c in _PWSH_DOUBLE:
            i = _pwsh_quoted(text, i + 1, base, out, pos, double=True)
        elif c == "$" and i + 1 < n and _pwsh_expands(text[i + 1]):
            return None
        else:
            out.append(c)
            pos.append(base + i)
            i += 1
        if i < 0:
            return None
    pos.append(base + n)
    return "".join(out), pos


_PWSH_SINGLE = "'\u2018\u2019"
_PWSH_DOUBLE = '"\u201c\u201d'


def _pwsh_expands(following: str) -> bool:
    return following.isalnum() or following in "_{(?^$:"


def _pwsh_quoted(text: str, i: int, base: int, out: list[str], pos: list[int], *, double: bool) -> int:
    """Decode a quoted string after its opening quote: a doubled quote is a literal one, and in a
    double-quoted string a backtick escapes and ``$name`` expands. The index after it, or -1 when
    it is unterminated or expands."""
    quotes, literal = (_PWSH_DOUBLE, '"') if double else (_PWSH_SINGLE, "'")
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in quotes:
            if i + 1 < n and text[i + 1] in quotes:
                out.append(literal)
                pos.append(base + i)
                i += 2
                continue
            return i + 1
        if double and ch == "`" and i + 1 < n:
            out.append(_pwsh_escape(text[i + 1]))
            pos.append(base + i + 1)
            i += 2
            continue
        if double and ch == "$" and i + 1 < n and _pwsh_expands(text[i + 1]):
            return -1
        out.append(ch)
        pos.append(base + i)
        i += 1
    return -1


def _pwsh_escape(char: str) -> str:
    return {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "e": "\x1b",
            "f": "\f", "v": "\v"}.get(char, char)


def pwsh_literal_string(text: str) -> bool:
    """True when ``text`` is one quoted string whose only expansions are plain variables.

    Such a statement only prints; it runs nothing (``"EXIT=$LASTEXITCODE"``). A subexpression
    ``$( … )`` inside the string would run code, so it does not count.
    """
    if len(text) < 2:
        return False
    first, last = text[0], text[-1]
    if first in "'\u2018\u2019" and last in "'\u2018\u2019":
        return True
    if first in '"\u201c\u201d' and last in '"\u201c\u201d':
        body = _PWSH_VARIABLE.sub("", text[1:-1].replace("`$", ""))
        return "$" not in body
    return False
