"""The redactor's patterns compiled, and run on a text: RE2 for every pattern it reads, Python's
engines for the few it cannot.

gitleaks' rules are written for Go's engine, RE2, which runs in time linear in the text whatever the
pattern; on a backtracking engine some of them take cubic time (``curl-auth-header``'s
``\\bcurl\\b(?:.*?|.*?(?:[\\r\\n]{1,2}.*?){1,5})…`` on a long line holding ``curl`` many times). So
every pattern RE2 compiles runs on RE2 (``google-re2``, reading the text's UTF-8 bytes); the rest —
witness's own rules that need a lookaround or a possessive repeat, which RE2 has not — run on the
standard library's ``re`` (ASCII classes, as in Go), else on ``regex``. Each of those is bounded by
its own construction (``secret_rules/witness.toml`` says why, in a comment above each).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from functools import cache
from typing import Any, NamedTuple

import re2

_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # a pattern RE2 cannot read falls back quietly
_RE2_OPTIONS.max_mem = 64 << 20  # gitleaks' largest rules need more than RE2's default 8 MB for their DFA
_NON_ASCII = re.compile(r"[^\x00-\x7f]")

Spans = tuple[tuple[int, int], ...]
"""A match's span, then each group's (``(-1, -1)``: the group took no part), in characters."""


class Compiled(NamedTuple):
    """A pattern compiled by the engine that runs it."""

    pattern: Any
    """RE2's (compiled from UTF-8 bytes), or the standard library's or ``regex``'s (from the string)."""
    linear: bool
    """Whether it runs on RE2 (linear time in the text, whatever the pattern)."""


@cache
def compiled(pattern: str) -> Compiled:
    """The pattern compiled on first use (most rules never run in a process: their keywords are absent;
    compiling them all takes a sixth of a second, and every Stop hook imports the redactor)."""
    try:
        return Compiled(re2.compile(pattern.encode("utf-8"), _RE2_OPTIONS), linear=True)
    except re2.error:
        pass
    if "[[:" not in pattern:
        try:
            return Compiled(re.compile(pattern, re.ASCII), linear=False)
        except re.error:
            pass
    import regex

    return Compiled(regex.compile(pattern, regex.ASCII), linear=False)


def python_patterns(patterns: list[str]) -> list[str]:
    """The patterns RE2 cannot compile (they run on a backtracking engine)."""
    return [pattern for pattern in patterns if not compiled(pattern).linear]


class Subject:
    """A text as both engines read it: its characters, and (made once, when RE2 first needs them) its
    UTF-8 bytes, with the offsets of one translated to the other through its non-ASCII characters
    alone (for an ASCII text, the same)."""

    __slots__ = ("_bytes", "_chars", "_extra", "_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        """The text."""
        self._bytes: bytes | None = None
        self._chars: list[int] = []
        """Where each non-ASCII character is, in characters."""
        self._starts: list[int] = []
        """Where each non-ASCII character is, in bytes."""
        self._extra: list[int] = []
        """How many bytes more than characters the text has up to and with each non-ASCII character."""

    @property
    def data(self) -> bytes:
        """The text in UTF-8."""
        if self._bytes is None:
            # A lone surrogate (a JSON escape can make one) is no UTF-8: RE2 reads it as one `?`.
            self._bytes = self.text.encode("utf-8", "replace")
            if len(self._bytes) != len(self.text):
                extra = 0
                for found in _NON_ASCII.finditer(self.text):
                    self._chars.append(found.start())
                    self._starts.append(found.start() + extra)
                    extra += len(found.group().encode("utf-8", "replace")) - 1
                    self._extra.append(extra)
        return self._bytes

    def to_byte(self, char: int) -> int:
        """The byte offset of a character offset."""
        _ = self.data  # the offsets are known once the bytes are made
        before = bisect_left(self._chars, char)
        return char + (self._extra[before - 1] if before else 0)

    def to_char(self, byte: int) -> int:
        """The character offset of a byte offset (on a character's boundary, as RE2 reports in UTF-8)."""
        before = bisect_left(self._starts, byte)
        return byte - (self._extra[before - 1] if before else 0)

    def spans(self, match: Any) -> Spans:
        """A match's spans in characters."""
        found = tuple(match.span(group) for group in range(match.re.groups + 1))
        if isinstance(match.string, str) or not self._chars:
            return found
        return tuple((self.to_char(start), self.to_char(end)) if start >= 0 else (start, end)
                     for start, end in found)


def finditer(pattern: Compiled, subject: Subject) -> Iterator[Spans]:
    """Every match of ``pattern`` in the text, left to right, not overlapping."""
    target = subject.data if pattern.linear else subject.text
    for match in pattern.pattern.finditer(target):
        yield subject.spans(match)


def match_at(pattern: Compiled, subject: Subject, start: int) -> Spans | None:
    """The match of ``pattern`` that starts at ``start`` (a character offset), if there is one."""
    if pattern.linear:
        found = pattern.pattern.match(subject.data, subject.to_byte(start))
    else:
        found = pattern.pattern.match(subject.text, start)
    return None if found is None else subject.spans(found)


def search(pattern: Compiled, text: str | Subject) -> bool:
    """Whether ``pattern`` is found anywhere in the text."""
    subject = text if isinstance(text, Subject) else Subject(text)
    return pattern.pattern.search(subject.data if pattern.linear else subject.text) is not None
