"""A compaction starts the ledger afresh, as it starts the executor's own context afresh.

After a compaction the executor works from the host's summary (and, on Pi, the entries from
``firstKeptEntryId`` on); so does the ledger: the request is rebuilt as the summary, then what
the host kept, then what follows — never larger than the history it summarises, and
prefix-stable again from there on (the provider's cache is cold after a compaction in any case,
the executor's own included). Nothing the user said is lost: the user's words from the replaced
span are restated, verbatim, in a message of their own ahead of the log. Every card stays
expandable by its id, and the open obligations still name the cards they failed at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._log import Block, Log
from ._render import Segment


@dataclass(frozen=True, slots=True)
class Restart:
    """The ledger after a compaction."""

    closed: list[Segment]
    open: Log
    dropped_users: list[Block]
    """The user blocks the summary replaced, in order."""


def restart(closed: Sequence[Segment], current: Log, summary: Block | None, kept_from: int | None) -> Restart:
    """Keep the blocks made at or after event ``kept_from`` (none when it is ``None``), in their segments, and
    put the summary first."""
    dropped: list[Block] = []
    kept: list[Segment] = []
    for segment in [*closed, Segment(current)]:
        blocks = [b for b in segment.log.blocks if kept_from is not None and b.seq >= kept_from]
        dropped += [b for b in segment.log.blocks if b.kind == "user" and b not in blocks]
        if blocks or (kept_from is not None and segment.closed_at >= kept_from):
            kept.append(Segment(Log.of(blocks), segment.question, segment.advice, segment.review, segment.closed_at))
    last = kept.pop() if kept and kept[-1].closed_at == 0 else Segment(Log())
    head = [summary] if summary is not None else []
    if kept:
        first = kept[0]
        kept[0] = Segment(Log.of(head + first.log.blocks), first.question, first.advice, first.review, first.closed_at)
        return Restart(kept, last.log, dropped)
    return Restart([], Log.of(head + last.log.blocks), dropped)
