"""Reports on obligations, as typed values: what an audit found in a session, each obligation as a
report row, and the tasks that ended with obligations unresolved.

They are pydantic models: read them by attribute; ``to_dict`` (``model_dump(mode="json")``) is
their JSON form, which ``witness audit --json`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, computed_field

from shellparse import CheckKind

from ._items import Attempt, Correction, Disposition, Item, Resolution, Transition
from ._vocabulary import ROOT_AGENT, ItemKind, ItemState, TranscriptFormat

_FROZEN = ConfigDict(extra="ignore", frozen=True)
# The field docstrings are documentation only: pydantic's use_attribute_docstrings would read
# every class's source when the module is imported, and a Stop hook imports this module.


class EndedTask(BaseModel):
    """A root agent's task that ended (a new user message began another) with obligations open."""

    model_config = _FROZEN

    agent_id: str
    """The root agent."""
    task: int
    """The tick at which the task began."""
    ended_tick: int
    """The tick at which it ended."""
    unresolved: tuple[Item, ...]
    """Its items still open when it ended (as the tracker reads it, those a genuine pass in a
    later task has since resolved are in ``resolved_later`` instead)."""
    resolved: tuple[Item, ...] = ()
    """Its items resolved by a witness before it ended."""
    resolved_later: tuple[Item, ...] = ()
    """Its items left unresolved when it ended and resolved by a genuine pass in a later task."""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return self.model_dump(mode="json")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EndedTask:
        """An ended task from :meth:`to_dict` output."""
        return cls.model_validate(data)


class WitnessRef(BaseModel):
    """The run that witnessed a resolved obligation."""

    model_config = _FROZEN

    call_id: str | None
    """Its tool call."""
    at: str | None
    """Where its result was read from (``session.jsonl:14``), if known."""
    check: str | None = None
    """The check it ran (a wider run than the failed one when ``covering``)."""
    covering: bool = False
    """A wider run whose selection covers the failed one's witnessed it (``go test ./...`` for a
    failure of ``go test ./pkg -run TestX``)."""
    later: bool = False
    """It ran in a later task: the obligation was left unresolved when the user moved on."""
    command: str | None = None
    """Its command line."""


class Reopening(BaseModel):
    """The potential edit that re-opened a witnessed obligation."""

    model_config = _FROZEN

    call_id: str | None
    """The edit's tool call."""
    at: str | None
    """Where it was read from, if known."""
    detail: str
    """What happened, in a line."""
    witness: WitnessRef | None = None
    """The witness it undid."""


class ItemReport(BaseModel):
    """One obligation as an audit reports it: the facts a person needs, with transcript locations."""

    model_config = _FROZEN

    id: str
    """The item's id."""
    kind: ItemKind
    """A failed check, or a contradicted claim."""
    agent_id: str = ROOT_AGENT
    """The root agent whose obligation it is."""
    check: str | None
    """The check's statement."""
    check_kind: CheckKind | None
    """``test``, ``lint``, ``typecheck`` or ``build``."""
    claim_id: str | None
    """For a claim, the host's identifier of it."""
    cwd: str | None
    """Where the check ran."""
    failed_by: str | None = None
    """The worker whose run failed, when a worker's did (its root inherited the obligation)."""
    state: ItemState
    """``open`` or ``resolved``."""
    summary: str
    """What failed, in a line."""
    failures: int
    """How many times the check failed."""
    first_failed_at: str | None
    """Where the first failure was read from."""
    last_failed_at: str | None
    """Where the latest failure was read from."""
    last_failed_call: str | None = None
    """The tool call of the latest failure (for a claim, the call that ran its check)."""
    earlier_tasks: int = 0
    """How many earlier tasks left this check unresolved when the user moved on (their items are
    folded into this row: their failures are counted in ``failures``)."""
    last_attempt: Attempt | None
    """The last run that reported success but did not count, and why."""
    witness: WitnessRef | None
    """For a resolved item, the run that witnessed it."""
    reopened: Reopening | None
    """For an open item re-opened after its witness, the edit that did it."""
    disposition: Disposition | None
    """A disposition recorded for it."""
    correction: Correction | None
    """For a claim, its correction."""
    closes_by: str
    """What would close it, in a sentence."""

    @classmethod
    def of(cls, item: Item) -> ItemReport:
        """The report row of ``item``."""
        failures = [t for t in item.history if t.change in ("opened", "failed-again")]
        first = item.history[0] if item.history and item.history[0].change == "opened" else None
        witness = next((t for t in reversed(item.history) if t.change == "resolved"), None)
        last = item.history[-1] if item.history else None
        reopened = last if last is not None and last.change == "reopened" and item.state == "open" else None
        return cls(
            id=item.id, kind=item.kind, agent_id=item.agent_id, check=item.check, check_kind=item.check_kind,
            claim_id=item.claim_id if item.kind == "claim-contradicted" else None, cwd=item.cwd,
            failed_by=item.failed_by, state=item.state,
            summary=item.summary, failures=item.repeat_count, first_failed_at=first.origin if first else None,
            last_failed_at=failures[-1].origin if failures else None, last_failed_call=item.latest_failure_call,
            last_attempt=item.last_attempt,
            witness=_witness(item.resolution, witness) if witness is not None and item.state == "resolved" else None,
            reopened=_reopening(item, reopened) if reopened is not None else None,
            disposition=item.disposition, correction=item.correction, closes_by=item.closes_by,
        )


def _reopening(item: Item, transition: Transition) -> Reopening:
    undone = next((t for t in reversed(item.history) if t.change == "resolved"), None)
    witness = _witness(item.undone, undone) if undone is not None and item.undone is not None else None
    return Reopening(call_id=transition.call_id, at=transition.origin, detail=transition.detail, witness=witness)


def _witness(resolution: Resolution | None, transition: Transition) -> WitnessRef:
    return WitnessRef(call_id=transition.call_id, at=transition.origin,
                      check=resolution.check if resolution is not None else None,
                      covering=resolution.covering if resolution is not None else False,
                      later=resolution is not None and resolution.kind == "reverified-later",
                      command=resolution.command if resolution is not None else None)


class ObligationsReport(BaseModel):
    """What the tracker says of every obligation: open in the current task, left unresolved by an
    earlier task, and resolved. ``witness audit`` reports exactly these rows; the advisor's ledger,
    case packets and the MCP ``obligations`` tool show them."""

    model_config = _FROZEN

    open: tuple[ItemReport, ...] = ()
    """Obligations open in a current task (one row per check: the earlier tasks that left the same
    check unresolved are folded into it)."""
    earlier: tuple[ItemReport, ...] = ()
    """Obligations left unresolved when a later task began, and not open again now."""
    resolved: tuple[ItemReport, ...] = ()
    """Obligations closed by a witness: in the task they were opened in, or later (``witness.later``)."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unresolved(self) -> int:
        """How many obligations were never re-verified."""
        return len(self.open) + len(self.earlier)

    @classmethod
    def of(cls, current: Iterable[Item], ended: Iterable[EndedTask], agent_id: str | None = None) -> ObligationsReport:
        """The rows of the current tasks' items and the ended tasks' (of one root agent, or all)."""
        mine = [task for task in ended if agent_id is None or task.agent_id == agent_id]
        items = [item for item in current if agent_id is None or item.agent_id == agent_id]
        resolved = [*(item for task in mine for item in (*task.resolved, *task.resolved_later)),
                    *(item for item in items if item.state == "resolved")]
        still = [item for item in items if item.state == "open"]
        rows = _latest_only([*(item for task in mine for item in task.unresolved), *still])
        ids = {item.id for item in still}
        return cls(open=tuple(_folded(item, older, ended=False) for item, older in rows if item.id in ids),
                   earlier=tuple(_folded(item, older, ended=True) for item, older in rows if item.id not in ids),
                   resolved=tuple(ItemReport.of(item) for item in resolved))


def _same(item: Item) -> tuple[str, str | None, str | None, str | None]:
    return item.kind, item.key, item.cwd, item.claim_id


def _latest_only(items: list[Item]) -> list[tuple[Item, list[Item]]]:
    """One row per check still unresolved (``items`` oldest first): its latest item, with the older
    ones of the same check in the same place folded into it. A keyless claim is its own row."""
    rows: dict[tuple[str, str | None, str | None, str | None], list[Item]] = {}
    for item in items:
        rows.setdefault(_same(item) if item.key is not None else (item.id, None, None, None), []).append(item)
    return [(group[-1], group[:-1]) for group in rows.values()]


def _folded(item: Item, folded: list[Item], *, ended: bool) -> ItemReport:
    """The row of ``item``, counting the failures of the older unresolved items of its check (each
    an earlier task's); ``ended``: ``item``'s own task has ended too."""
    row = ItemReport.of(item)
    earlier = len(folded) + (1 if ended else 0)
    if not folded:
        return row.model_copy(update={"earlier_tasks": earlier}) if earlier else row
    older = [ItemReport.of(old) for old in folded]
    return row.model_copy(update={"failures": row.failures + sum(old.failures for old in older),
                                  "first_failed_at": older[0].first_failed_at or row.first_failed_at,
                                  "earlier_tasks": earlier})


class SkippedLine(BaseModel):
    """A transcript line that could not be read."""

    model_config = _FROZEN

    line: int
    """Its line number, counting from 1."""
    reason: str
    """Why it was skipped."""


class SessionAudit(BaseModel):
    """What an audit found in one transcript."""

    model_config = _FROZEN

    path: str
    """The transcript audited."""
    format: TranscriptFormat | None = None
    """The host whose format it is; ``None`` when the file could not be read as a transcript."""
    error: str | None = None
    """Why the file could not be audited, if it could not (without its path, which is ``path``)."""
    session_id: str | None = None
    """The host's session id, when the transcript has one."""
    events: int = 0
    """Events replayed."""
    tool_calls: int = 0
    """Tool calls dispatched."""
    lines: int = 0
    """Lines read."""
    skipped_lines: int = 0
    """Corrupt or truncated lines skipped."""
    skipped_examples: tuple[SkippedLine, ...] = ()
    """Some of them."""
    without_exit_code: int = 0
    """Shell results that carried no exit code (Codex code mode records none): none of them can
    be a pass, whatever their output says."""
    abandoned: int = 0
    """Entries on branches the session abandoned (rewound prompts, a Pi tree's other branches), not replayed."""
    duplicates: int = 0
    """Entries the host wrote again (the same id and time: a reopened or re-fed session), read once."""
    read_error: str | None = None
    """Why reading stopped before the end of the file, if it did: the report covers only the
    lines read, and an obligation it shows open may have been closed further on."""
    unknown_results: int = 0
    """Results of calls whose dispatch the file never showed (each counted as a possible edit)."""
    open: tuple[ItemReport, ...] = ()
    """Obligations open when the session ended."""
    earlier: tuple[ItemReport, ...] = ()
    """Obligations left unresolved when a later task began."""
    resolved: tuple[ItemReport, ...] = ()
    """Obligations closed by a witness: in the task they were opened in (the current one or an
    earlier one), or later (``witness.later``), by a genuine pass in a task after theirs."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unresolved(self) -> int:
        """How many obligations were never re-verified."""
        return len(self.open) + len(self.earlier)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return self.model_dump(mode="json")
