"""Byte offsets (what tree-sitter reports) to character offsets (what users see).

A parse may be of the user's text itself or of a string nested inside it (``bash -c '…'``,
``pwsh -Command "…"``). In both cases every span the model carries is expressed in characters
of the *outermost* text, so a caret can be drawn under it.
"""

# No `from __future__ import annotations`: Frame's fields are annotated with the types themselves
# (a NamedTuple's string annotation is compiled as the class is made, a cost on every `witness check`).
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate
from typing import NamedTuple

from ._model import Span

_new = tuple.__new__  # a span built without its generated constructor: the converters' hot path
_STARTS_CHARACTER = bytes(0 if 0x80 <= byte < 0xC0 else 1 for byte in range(256))
_HIGH = bytes(1 if byte >= 0x80 else 0 for byte in range(256))


class OffsetMap:
    """Maps byte offsets of a UTF-8 buffer to character offsets in the outermost text."""

    __slots__ = ("_last", "_table", "end", "identity", "shift")

    def __init__(self, text: str, data: bytes, outer: Sequence[int] | None = None):
        # `outer[i]` is the outer offset of character i of `text` (with one extra entry for the
        # end); without it, character i of `text` is outer offset i.
        self.identity = outer is None and len(data) == len(text)
        """Byte offsets are character offsets (ASCII text at top level): callers may skip the map."""
        self.shift: int | None = 0 if self.identity else _shift(text, data, outer)
        """Byte offsets before the end, plus this, are outer character offsets (``None`` when no one
        number does): ASCII text at top level, or an ASCII string copied unchanged from the outer
        text (``bash -c 'cd api && npm test'``, whose end is after the closing quote)."""
        self.end = len(data)
        """The length of the buffer in bytes."""
        self._last = outer[-1] if outer else len(data)
        self._table: Sequence[int] | None = None if self.shift is not None else _byte_table(text, data, outer)

    def __call__(self, offset: int) -> int:
        shift = self.shift
        if shift is not None:
            return offset + shift if offset < self.end or self.identity else self._last
        table = self._table
        assert table is not None
        if offset >= len(table):
            return table[-1]
        return table[offset]

    def span(self, start: int, end: int) -> Span:
        """The character span of bytes ``[start, end)``.

        The end is taken as one past the last character's own position, not as the position of
        the next character: inside a string with escapes (``"a\\"b"``) the two differ.
        """
        shift = self.shift
        if shift is not None:
            if self.identity:
                return _new(Span, (start, max(start, end)))
            if start <= end <= self.end and start < self.end:
                return _new(Span, (start + shift, end + shift))
        table = self._table
        if table is None:
            first = self(start)
            return _new(Span, (first, first if end <= start else self(end - 1) + 1))
        last = len(table) - 1
        first = table[start] if start <= last else table[last]
        if end <= start:
            return _new(Span, (first, first))
        return _new(Span, (first, (table[end - 1] if end - 1 <= last else table[last]) + 1))


def _shift(text: str, data: bytes, outer: Sequence[int] | None) -> int | None:
    """The one number that maps every byte of ``data`` to its outer offset, if there is one."""
    if outer is None or len(data) != len(text) or len(outer) < 2:
        return None
    base = outer[0]
    if outer[-2] - base != len(text) - 1 or list(outer[:-1]) != list(range(base, base + len(text))):
        return None
    return base


IDENTITY = OffsetMap("", b"")
"""The map of every ASCII text parsed at top level: byte offsets are character offsets."""


def _byte_table(text: str, data: bytes, outer: Sequence[int] | None) -> Sequence[int]:
    """Entry ``b`` is the outer offset of the character that holds byte ``b``; one more entry for the end."""
    source: Sequence[int] = outer if outer is not None else range(len(text) + 1)
    if len(data) == len(text):
        return source  # ASCII: one byte per character
    if (len(data) - len(text)) * 8 > len(text):
        # Mostly outside ASCII: the character of byte b is the number of bytes up to b that
        # start a character, less one (continuation bytes are 0b10xxxxxx), counted in C.
        starts = accumulate(data.translate(_STARTS_CHARACTER), initial=-1)
        next(starts)
        chars = [*starts, len(text)]
        return chars if outer is None else [outer[char] for char in chars]
    table: list[int] = []
    done = 0  # characters mapped
    extra = 0  # the bytes beyond the first of each character before this run
    # Runs of ASCII map one byte to one character and are copied whole; only the characters
    # outside ASCII are looked at one by one.
    for start, end in _runs_outside_ascii(data):
        first = start - extra  # the run's first character
        table.extend(source[done:first])
        run = data[start:end].decode("utf-8", "surrogatepass")
        for index, char in enumerate(run, first):
            code = ord(char)
            table.extend((source[index],) * (2 if code < 0x800 else 3 if code < 0x10000 else 4))
        done = first + len(run)
        extra += end - start - len(run)
    table.extend(source[done:])
    return table


def _runs_outside_ascii(data: bytes) -> Iterator[tuple[int, int]]:
    """The byte ranges of the runs of non-ASCII characters in ``data``, found by ``bytes.find``
    (a regular expression's class is tried at every character of a long, mostly ASCII text)."""
    high = data.translate(_HIGH)
    start = high.find(1)
    while start >= 0:
        end = high.find(0, start)
        if end < 0:
            end = len(data)
        yield start, end
        start = high.find(1, end)


def decode(data: bytes, start: int, end: int) -> str:
    """The text of bytes ``[start, end)``, widened to whole characters.

    A grammar's error recovery can put a node boundary inside a multi-byte character (bash
    reads the ASCII stand-in shellparse gives it for non-ASCII text); the node's text is then
    that of the characters it touches."""
    while 0 < start < len(data) and data[start] & 0xC0 == 0x80:
        start -= 1
    while end < len(data) and data[end] & 0xC0 == 0x80:
        end += 1
    return data[start:end].decode("utf-8", "surrogatepass")


class Frame(NamedTuple):
    """A command string being analysed (``bash -c '…'``), with the outer offset of each character.

    Spans of what was parsed in it are outer offsets, and a word of it no longer covers as many outer
    characters as it has (``'"'"'`` is one ``'``): a string nested in that string (``bash -c 'bash -c
    …'``) is located through the frame, character by character."""

    text: str
    positions: Sequence[int]
    """The outer offset of each character of :attr:`text`, plus one for its end."""

    def piece(self, span: Span) -> tuple[str, list[int]]:
        """The characters of :attr:`text` at the outer ``span``, with their outer offsets (and the end)."""
        first, last = bisect_left(self.positions, span.start), bisect_left(self.positions, span.end)
        return self.text[first:last], [*self.positions[first:last], span.end]

    def located(self, positions: Sequence[int], starts: Iterable[int]) -> list[int]:
        """``positions`` of a string taken from words of this frame's text, each counted as the word's
        outer start plus the character's index in the word (``starts``: the words' outer starts), as the
        outer offsets of those characters."""
        bases = sorted(set(starts))
        located: list[int] = []
        table, last = self.positions, len(self.positions) - 1
        for position in positions:
            at = bisect_right(bases, position) - 1
            base = bases[at] if at >= 0 else position
            index = bisect_left(table, base) + position - base
            located.append(table[min(index, last)])
        return located
