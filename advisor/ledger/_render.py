"""Assembling the request's messages from the compiled segments.

::

    [user]  tool catalogue
    [user]  (after a compaction) the user's own words the summary replaced, verbatim
    [user]  (only when trimmed) the user's own words from the omitted span; then the omission marker
    [user]  <executor_log>…segment 1…</executor_log>  Executor's question: …
    [asst]  advice 1
    …
    [user]  <executor_log>…open segment…</executor_log>
            Most recent work, verbatim: …   [executor thinking] …   Executor's question: …
            open obligations   closing instruction

Only the advisor's own past advice takes the assistant role; everything the executor did is
data inside user turns. Every message but the last is a function of entries that can no
longer change, so rendering a longer part of the session repeats them byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from advisor.models import ChatAssistant, ChatUser
from advisor.prompt import PromptMessage

from ._cards import clean_verbatim
from ._log import JOIN, Block, Log, join_blocks
from ._text import expandable
from ._wording import (
    DROPPED_HEADER,
    EMPTY_SEGMENT,
    LOG_CLOSE,
    LOG_OPEN,
    OMITTED,
    OMITTED_BARE,
    QUESTION,
    REVIEW_MARKER,
    TAIL_HEADER,
    THINKING,
)


@dataclass(frozen=True, slots=True)
class Segment:
    """The log between two consultations, and how the consultation that closed it went."""

    log: Log
    question: str | None = None
    """The executor's question (its prose beside the advisor call), rendered."""
    advice: str | None = None
    """The advice that answered it; ``None`` when the consultation failed, was skipped or aborted."""
    review: bool = False
    """A completion review rather than a question."""
    closed_at: int = 0
    """The number of the event that closed it."""


@dataclass(slots=True)
class Draft:
    """Everything one request is made of, before trimming decides how much of the start to leave out."""

    catalogue: str | None
    prior: str | None
    """The user's own words from before the last compaction (the summary replaced them for the executor)."""
    closed: Sequence[Segment]
    open: Log
    tail_start: int
    """Where in the open segment the verbatim tail begins (its length when there is no tail)."""
    provisional: list[str] = field(default_factory=list)
    """Blocks of the step still being written (the executor's prose before its calls end)."""
    running: list[Block] = field(default_factory=list)
    """Calls dispatched and not yet answered."""
    reasoning: tuple[str, str | None] | None = None
    """The triggering step's reasoning and its entry's handle."""
    question: str | None = None
    closing: str = ""
    """The open obligations and the closing instruction."""
    investigation: bool = True
    """Whether the advisor has the investigation tools the request may point to."""

    @property
    def droppable(self) -> int:
        """Blocks trimming may leave out: every closed segment's, and the open segment's before its tail."""
        return sum(len(segment.log) for segment in self.closed) + self.tail_start


def segment_text(log_text: str, question: str | None, review: bool) -> str:
    """A closed segment's user message."""
    parts = [f"{LOG_OPEN}\n{log_text}\n{LOG_CLOSE}"] if log_text else []
    if review:
        parts.append(REVIEW_MARKER)
    elif question:
        parts.append(f"{QUESTION}{question}")
    return JOIN.join(parts) or EMPTY_SEGMENT


def _tail_parts(draft: Draft, cap: int) -> list[str]:
    parts = []
    for block in draft.open.blocks[draft.tail_start:]:
        if block.round is not None and block.kind == "round":
            parts.append(clean_verbatim(block.handle, block.round.call, block.round.result, block.round.record,
                                        limit=cap, expand=draft.investigation))
        else:
            parts.append(block.text)
    return parts


def last_text(draft: Draft, log_text: str, cap: int) -> str:
    """The last user message: the open segment's log, the verbatim tail, the triggering reasoning,
    the question, the open obligations, and the closing instruction."""
    tail = _tail_parts(draft, cap)
    running = [clean_verbatim(b.handle, b.round.call, None, limit=cap, expand=draft.investigation)
               for b in draft.running if b.round is not None]
    log_parts = [log_text] if log_text else []
    if tail or running:
        tail.extend(draft.provisional)
    else:
        log_parts.extend(draft.provisional)
    parts = [f"{LOG_OPEN}\n{JOIN.join(log_parts)}\n{LOG_CLOSE}"] if log_parts else []
    if tail or running:
        parts.append(f"{TAIL_HEADER}\n" + JOIN.join(tail + running))
    if draft.reasoning is not None:
        text, handle = draft.reasoning
        parts.append(THINKING + expandable(text, cap, handle if draft.investigation else None))
    if draft.question:
        parts.append(f"{QUESTION}{draft.question}")
    parts.append(draft.closing)
    return JOIN.join(parts)


def render(draft: Draft, *, cut: int = 0, cap: int) -> list[PromptMessage]:
    """The messages, with the first ``cut`` droppable blocks left out (their user words restated)."""
    messages: list[PromptMessage] = [ChatUser(draft.catalogue)] if draft.catalogue else []
    if draft.prior:
        messages.append(ChatUser(draft.prior))
    body: list[PromptMessage] = []
    dropped_users: list[str] = []
    left = cut
    position = 0
    for segment in draft.closed:
        size = len(segment.log)
        start = min(left, size)
        dropped_users += [b.text for b in segment.log.blocks[:start] if b.kind == "user"]
        left -= start
        fully = start == size and (size > 0 or cut > position)
        position += size
        if fully:
            continue
        body.append(ChatUser(segment_text(segment.log.text(start), segment.question, segment.review)))
        if segment.advice:
            body.append(ChatAssistant(segment.advice))
    start = min(left, draft.tail_start)
    dropped_users += [b.text for b in draft.open.blocks[:start] if b.kind == "user"]
    body.append(ChatUser(last_text(draft, draft.open.text(start, draft.tail_start), cap)))
    if cut:
        if dropped_users:
            messages.append(ChatUser(DROPPED_HEADER + "\n\n" + join_blocks(dropped_users)))
        messages.append(ChatUser(OMITTED if draft.investigation else OMITTED_BARE))
    return messages + body
