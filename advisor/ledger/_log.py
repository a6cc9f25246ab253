"""The blocks of one segment of the executor log, and their text joined once.

Every block is compiled from one entry (a tool round from its call and its result) and never
changes afterwards; a segment's log is its blocks' texts joined by line breaks — one between two
one-line blocks (cards mostly: each starts with its own ``#id`` or ``[label]``), a blank line
around a block of several lines. The join is extended as blocks arrive and sliced when a range is
asked for, so rendering a long log costs a copy, not a re-join.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from obligations import CallRecord, ToolCompleted, ToolDispatched

BlockKind = Literal["user", "executor", "round", "user-shell", "summary", "restated", "host", "tools"]
"""What a block shows: the user's words, the executor's prose, a tool round, a command the user
ran, a host's summary, the user's words restated ahead of one, a host's or extension's message,
or tools the session declared."""

JOIN = "\n\n"
"""Between the parts of a message, and around a block of several lines."""
LINE = "\n"
"""Between two one-line blocks."""


def gap(before: str, after: str) -> str:
    """What separates two consecutive blocks' texts: a line break, or a blank line when either has several lines."""
    return LINE if LINE not in before and LINE not in after else JOIN


def join_blocks(texts: list[str]) -> str:
    """Block texts joined as a log joins them (:func:`gap`)."""
    return "".join(gap(texts[i - 1], text) + text if i else text for i, text in enumerate(texts))


@dataclass(frozen=True, slots=True)
class Round:
    """A tool call and its result (``None`` while it runs)."""

    call: ToolDispatched
    result: ToolCompleted | None
    record: CallRecord | None = None
    """The tracker's record of the completed call."""


@dataclass(frozen=True, slots=True)
class Block:
    """One entry of the log, rendered."""

    kind: BlockKind
    text: str
    """Its text in the log (redacted)."""
    handle: str | None = None
    """The id ``advisor_expand`` knows it by."""
    round: Round | None = None
    """For a tool round: the call and result, to show it verbatim when it is among the newest."""
    seq: int = 0
    """The number of the event that made it (the ledger's count), so a compaction can tell which
    blocks the host kept."""


class Log:
    """Blocks in order, and their joined text."""

    __slots__ = ("_covered", "_starts", "_text", "blocks")

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self._text = ""
        self._covered = 0
        self._starts: list[int] = []

    def append(self, block: Block) -> None:
        """Add a block at the end."""
        self.blocks.append(block)

    def __len__(self) -> int:
        return len(self.blocks)

    @classmethod
    def of(cls, blocks: list[Block]) -> Log:
        """A log holding ``blocks``."""
        log = cls()
        log.blocks = list(blocks)
        return log

    def _cover(self, end: int) -> None:
        if end <= self._covered:
            return
        parts = [self._text]
        position = len(self._text)
        for index in range(self._covered, end):
            text = self.blocks[index].text
            if index:
                between = gap(self.blocks[index - 1].text, text)
                parts.append(between)
                position += len(between)
            self._starts.append(position)
            parts.append(text)
            position += len(text)
        self._text = "".join(parts)
        self._covered = end

    def text(self, start: int = 0, end: int | None = None) -> str:
        """The texts of ``blocks[start:end]``, joined (:func:`gap`)."""
        end = len(self.blocks) if end is None else end
        if start >= end:
            return ""
        self._cover(end)
        return self._text[self._starts[start]:self._starts[end - 1] + len(self.blocks[end - 1].text)]
