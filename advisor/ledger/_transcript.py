"""A transcript file read into a ledger: what ``witness consult``, the MCP advisor tool and the
completion review at Stop share."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from obligations import AssistantMessage, Event, SessionAgent, ToolDispatched
from obligations.sources import TranscriptReport, open_transcript
from shellparse import Policy

from ._compiler import Ledger
from ._settings import LedgerSettings, load_ledger_settings


@dataclass(frozen=True)
class TranscriptLedger:
    """A session's ledger, as compiled from its transcript file."""

    ledger: Ledger
    """The ledger, fed every event of the file."""
    report: TranscriptReport
    """What reading the file found (format, session id, working directory, skipped lines …)."""
    tool_calls: int
    """Tool calls of the session's own agent (the one the ledger shows)."""
    last_text: str | None
    """The own agent's last message text, if it wrote one."""


def read_ledger(path: str | os.PathLike[str], *, settings: LedgerSettings | None = None, policy: Policy = "seed",
                select: Callable[[Iterable[Event]], Iterable[Event]] | None = None,
                progress: Callable[[int], None] | None = None) -> TranscriptLedger:
    """The ledger of the transcript at ``path`` (its format judged from its content).

    ``settings`` default to the configuration file's ``[ledger]``; ``select`` narrows the events
    (``witness consult --upto``); ``progress`` is told the bytes read, now and then. Raises
    ``obligations.NotATranscript`` for a file that is not one."""
    transcript = open_transcript(path)
    ledger = Ledger(host=transcript.format, settings=settings or load_ledger_settings(), policy=policy)
    own = SessionAgent()
    tally = _Tally()
    events: Iterable[Event] = transcript.events(progress=progress)
    ledger.extend(tally.watch(select(events) if select is not None else events, own))
    ledger.session_id = transcript.report.session_id
    return TranscriptLedger(ledger, transcript.report, tally.calls, tally.last_text)


class _Tally:
    """Counts the own agent's calls and keeps its last words as the events go by."""

    def __init__(self) -> None:
        self.calls = 0
        self.last_text: str | None = None

    def watch(self, events: Iterable[Event], own: SessionAgent) -> Iterator[Event]:
        for event in events:
            if own.owns(event):
                if isinstance(event, ToolDispatched):
                    self.calls += 1
                elif isinstance(event, AssistantMessage) and event.text.strip():
                    self.last_text = event.text.strip()
            yield event
