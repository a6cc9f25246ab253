"""Byte offsets (what tree-sitter reports) to character offsets (what users see).

A parse may be of the user's text itself or of a string nested inside it (``bash -c '…'``,
``pwsh -Command "…"``). In both cases every span the model carries is expressed in characters
of the *outermost* text, so a caret can be drawn under it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._model import Span


class OffsetMap:
    """Maps byte offsets of a UTF-8 buffer to character offsets in the outermost text."""

    __slots__ = ("_shift", "_table", "identity")

    def __init__(self, text: str, data: bytes, outer: Sequence[int] | None = None, shift: int = 0):
        # `outer[i]` is the outer offset of character i of `text` (with one extra entry for the
        # end); without it, character i of `text` is outer offset `shift + i`.
        self._shift = shift
        self.identity = outer is None and shift == 0 and len(data) == len(text)
        """Byte offsets are character offsets (ASCII text at top level): callers may skip the map."""
        if outer is None and len(data) == len(text):
            self._table: list[int] | None = None  # pure ASCII: byte offset == char offset
            return
        table: list[int] = []
        append = table.append
        if outer is None:
            for index, char in enumerate(text):
                width = len(char.encode("utf-8", "surrogatepass"))
                for _ in range(width):
                    append(index + shift)
            append(len(text) + shift)
        else:
            for index, char in enumerate(text):
                width = len(char.encode("utf-8", "surrogatepass"))
                for _ in range(width):
                    append(outer[index])
            append(outer[len(text)])
        self._table = table

    def __call__(self, offset: int) -> int:
        table = self._table
        if table is None:
            return offset + self._shift
        if offset >= len(table):
            return table[-1]
        return table[offset]

    def span(self, start: int, end: int) -> Span:
        """The character span of bytes ``[start, end)``.

        The end is taken as one past the last character's own position, not as the position of
        the next character: inside a string with escapes (``"a\\"b"``) the two differ.
        """
        if self._table is None:
            shift = self._shift
            return Span(start + shift, max(start, end) + shift)
        first = self(start)
        if end <= start:
            return Span(first, first)
        return Span(first, self(end - 1) + 1)


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
