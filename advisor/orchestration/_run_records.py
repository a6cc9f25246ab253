"""``advisor/run`` records: what every consultation turn did, on disk, for audit and restore.

One JSON line per event of a turn — reserved, queued, dispatched, retried, failed, delivered, no
verdict, stale, refused, released — keyed by the consultation, its turn and a per-call nonce
(attempt numbers restart on every follow-up, so successive turns never collapse). Within a turn
a later status replaces an earlier one, except that a delivery is never erased by a later miss.
Restoring reads the delivered turns of each consultation (a turn that ended without a verdict between
them is skipped, not a reason to forget the conversation), so a child stays continuable across a
restart; activations are never written, so no authorisation survives one. The same file keeps the
``advisor/policy`` records (user preferences, which do survive). Every row names the host session it
belongs to (``session``): a shared ``$WITNESS_HOME`` holds many sessions whose roots are all called
``root``, and a new host restores only what its own session wrote.

These are operational records, not model context. Token usage is recorded as the provider
reported it; nothing is invented when it reported none.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from advisor._home import witness_home
from advisor._jsonl import append_line, read_lines
from advisor._values import Frozen
from advisor.consult import Trigger
from advisor.models import Usage
from advisor.orchestration._pinning import Pin
from advisor.orchestration._vocabulary import RunEvent

RUN_LOG_NAME = "advisor-run.jsonl"


class RunRecord(Frozen):
    """One ``advisor/run`` row."""

    type: Literal["advisor/run"] = "advisor/run"
    version: Literal[1] = 1
    consultation_id: str
    """The host's consultation id (continuable)."""
    session: str | None = None
    """The host session that wrote it (``AdvisorHost(session_id=…)``; ``None`` in rows written before
    sessions were named: no new host restores those)."""
    turn: int
    """The child turn (1 for the first)."""
    nonce: str
    """The per-call nonce: one call of ``consult``, automatic or manual."""
    event: RunEvent
    """What happened."""
    requester: str
    """The agent that asked (or was reviewed)."""
    root: str
    """Its task root."""
    trigger: Trigger
    """Why the consultation ran."""
    child_id: str | None = None
    """The advisor child's agent id."""
    attempt: int = 0
    """The dispatch attempt within this call (0 before dispatch)."""
    tick: int = 0
    """The host's shared tick when it happened."""
    at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds"))
    """Wall-clock time (informational)."""
    log_id: str | None = None
    """The consultation log's record of this turn (``witness log ID``)."""
    usage: Usage | None = None
    """Tokens the provider reported for the turn (``None`` when it reported none)."""
    severity: str | None = None
    """The published verdict's level."""
    reason: str | None = None
    """Why it was refused, failed, stale or had no verdict."""
    pin: Pin | None = None
    """The consultation's pin (on dispatch and delivery rows)."""
    digest: str | None = None
    """A bounded digest of the delivered verdict (4 KB)."""


class PolicyRow(Frozen):
    """An ``advisor/policy`` row: a root session's policy record as the user set it."""

    type: Literal["advisor/policy"] = "advisor/policy"
    root: str
    """The root session."""
    session: str | None = None
    """The host session that wrote it (see :attr:`RunRecord.session`)."""
    record: dict[str, Any]
    """The stored record (read back through ``read_policy``)."""
    at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds"))


@dataclass(frozen=True, slots=True)
class Continuable:
    """A delivered consultation that can be continued after a restart."""

    consultation_id: str
    requester: str
    root: str
    child_id: str
    turns: int
    """The latest turn that reached the model (delivered or not): the next turn is numbered after it."""
    delivered: int
    """The latest delivered turn."""
    pin: Pin | None
    log_ids: tuple[str, ...]
    """The consultation log's records of the delivered turns, oldest first."""


_STICKY = {"delivered"}
_REACHED = {"dispatched", "retry", "delivered", "no_verdict", "stale", "failed"}
"""The states of a turn that reached the model (its number is spent)."""


class RunLog:
    """The run log in one directory (default ``$WITNESS_HOME/log``)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or witness_home() / "log"
        self.path = self.directory / RUN_LOG_NAME
        self.skipped_lines: list[int] = []

    def append(self, row: RunRecord | PolicyRow) -> None:
        """Write one row (whole, under an exclusive lock)."""
        append_line(self.path, row.model_dump(mode="json", exclude_none=True))

    def rows(self) -> Iterator[RunRecord | PolicyRow]:
        """Every readable row, oldest first (unreadable lines are skipped and counted)."""
        self.skipped_lines = []
        for number, raw in read_lines(self.path):
            try:
                data = json.loads(raw)
                kind = data.get("type") if isinstance(data, dict) else None
                yield PolicyRow.model_validate(data) if kind == "advisor/policy" else RunRecord.model_validate(data)
            except (ValueError, ValidationError):
                self.skipped_lines.append(number)

    def turns(self) -> dict[tuple[str, int, str], RunRecord]:
        """The state of each turn call: the latest row, except that a delivery sticks."""
        state: dict[tuple[str, int, str], RunRecord] = {}
        for row in self.rows():
            if not isinstance(row, RunRecord):
                continue
            key = (row.consultation_id, row.turn, row.nonce)
            previous = state.get(key)
            if previous is not None and previous.event in _STICKY and row.event not in _STICKY:
                continue
            state[key] = row
        return state

    def continuable(self, session: str) -> list[Continuable]:
        """The delivered consultations of one host session, each with its delivered turns."""
        delivered: dict[str, list[RunRecord]] = {}
        reached: dict[str, int] = {}
        for row in self.turns().values():
            if row.session != session:
                continue
            if row.event in _REACHED:
                reached[row.consultation_id] = max(reached.get(row.consultation_id, 0), row.turn)
            if row.event == "delivered" and row.child_id is not None:
                delivered.setdefault(row.consultation_id, []).append(row)
        found = []
        for consultation_id, rows in delivered.items():
            rows.sort(key=lambda r: r.turn)
            last = rows[-1]
            assert last.child_id is not None
            found.append(Continuable(consultation_id, last.requester, last.root, last.child_id,
                                     max(reached.get(consultation_id, 0), last.turn), last.turn, last.pin,
                                     tuple(r.log_id for r in rows if r.log_id)))
        return found

    def policies(self, session: str) -> dict[str, dict[str, Any]]:
        """The latest policy record of each root of one host session."""
        return {row.root: row.record for row in self.rows() if isinstance(row, PolicyRow) and row.session == session}
