"""Obligation items: what is open, since when, what has been tried, and what would close it."""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, ConfigDict, computed_field

from shellparse import CheckKind, Selection

from . import _wording
from ._vocabulary import Change, DispositionKind, ItemKind, ItemState, ResolutionKind

_FROZEN = ConfigDict(extra="ignore", frozen=True)
# The field docstrings are documentation only: pydantic's use_attribute_docstrings would read
# every class's source when the module is imported, and a Stop hook imports this module.


class Transition(BaseModel):
    """One change of an item, for its history."""

    model_config = _FROZEN

    tick: int
    """When (the tracker's tick)."""
    change: Change
    """``opened``, ``failed-again`` (the check failed again, open or not), ``resolved``,
    ``reopened`` (a potential edit after the witness), ``disposition``, ``correction``, ``claim-bound``."""
    detail: str
    """What happened, in a line."""
    call_id: str | None = None
    """The tool call responsible, if one was."""
    origin: str | None = None
    """Where the responsible event was read from (a transcript line), if known."""


class Attempt(BaseModel):
    """A run of the item's check that reported success but did not witness it."""

    model_config = _FROZEN

    call_id: str
    """The run's tool call."""
    tick: int
    """When it completed."""
    reason: str
    """Why it did not witness (``masked: `; echo done` runs after the check``, …)."""
    command: str | None = None
    """The command that ran."""
    origin: str | None = None
    """Where its result was read from, if known."""


class Resolution(BaseModel):
    """How a resolved item was closed."""

    model_config = _FROZEN

    witness_call_id: str
    """The tool call whose genuine pass witnessed the check."""
    tick: int
    """When that pass completed."""
    kind: ResolutionKind
    """``reverified``, ``reverified-and-corrected`` for a claim corrected before its witness, or
    ``reverified-later`` for a genuine pass in a later task."""
    check: str | None = None
    """The check that witnessed it, as it ran (``go test ./...`` for a failure of ``go test ./pkg``)."""
    covering: bool = False
    """The witness is a wider run whose selection covers the failed one's (not the same check)."""
    command: str | None = None
    """The witness's command line, as the agent ran it."""


class Disposition(BaseModel):
    """A disposition recorded for an item. It never closes it."""

    model_config = _FROZEN

    kind: DispositionKind
    """``not-applicable`` or ``accept-risk``."""
    basis: str
    """Why, in the words given (redacted)."""
    revision: int
    """The item's revision it covers: later evidence outruns it."""
    tick: int
    """When it was recorded."""


class Correction(BaseModel):
    """A correction of a contradicted claim. It never closes the item; a later witness does."""

    model_config = _FROZEN

    document: str
    """Where the claim was corrected."""
    change: str
    """What was changed."""
    evidence: str
    """What the correction rests on."""
    tick: int
    """When it was recorded."""


class Item(BaseModel):
    """An obligation. Changed only by the tracker, which hands out copies; :meth:`to_dict` is its
    public, JSON form (what a snapshot stores)."""

    model_config = ConfigDict(extra="ignore")

    id: str
    """A short, stable id (``R`` and six hex digits)."""
    kind: ItemKind
    """A failed check, or a contradicted claim."""
    agent_id: str
    """The root agent it belongs to."""
    task: int
    """The agent's task: the tick at which it began."""
    key: str | None
    """The check's key wherever it runs (``Validation.check_key``; ``None`` for a claim not yet
    bound to a check)."""
    cwd: str | None
    """The place the check ran in: the host's working directory joined with the directory the
    command moved into (``cd api && npm test`` in ``/repo`` ran in ``/repo/api``), normalised."""
    check: str | None
    """The check's statement (``npm test``)."""
    check_kind: CheckKind | None
    """``test``, ``lint``, ``typecheck`` or ``build``."""
    family: str | None
    """The check's family (``npm-script``, ``pytest`` …)."""
    selection: Selection | None = None
    """For a test run, which tests it selected: a genuine pass that covers it witnesses the item."""
    failed_by: str | None = None
    """The worker whose run failed last, when a worker's did (the root inherits its obligation)."""
    claim_id: str | None
    """For a claim, the host's identifier of it."""
    summary: str
    """What failed, in a line (redacted)."""
    created_tick: int
    """When it opened."""
    latest_failure_tick: int
    """When its check last failed: a witness must be dispatched after this."""
    latest_failure_call: str | None
    """The call of that failure."""
    tests_ran: bool = False
    """Its latest failure's output showed tests running (``3 failed, 9 passed``): a run whose output
    shows no test ran (``no tests ran``, ``running 0 tests``) then never witnesses it."""
    state: ItemState = "open"
    """``open`` or ``resolved``."""
    repeat_count: int = 1
    """How many times its check failed."""
    revision: int = 1
    """Bumped by every change; a reminder is given once per revision."""
    disposition: Disposition | None = None
    """The latest disposition, if one was recorded."""
    correction: Correction | None = None
    """For a claim, its latest correction."""
    resolution: Resolution | None = None
    """How it was closed, while it is resolved."""
    undone: Resolution | None = None
    """The witness a later potential edit undid, while the item is open again after it."""
    last_attempt: Attempt | None = None
    """The last run that reported success but did not witness it, and why."""
    reminded_revision: int = 0
    """The revision the last reminder covered."""
    history: list[Transition] = []
    """Its transitions, oldest first (at most ``TrackerConfig.history``)."""
    dropped_history: int = 0
    """Older transitions no longer kept."""

    def note(self, transition: Transition, limit: int) -> None:
        """Add a transition, keeping at most ``limit`` (older ones are counted)."""
        self.history.append(transition)
        if len(self.history) > limit:
            del self.history[0]
            self.dropped_history += 1

    @computed_field  # type: ignore[prop-decorator]
    @property
    def closes_by(self) -> str:
        """What would close the item, in a sentence."""
        return _wording.closes_by(self)

    @property
    def disposed(self) -> bool:
        """A disposition covers the item's current revision (it is not re-reminded)."""
        return self.disposition is not None and self.disposition.revision == self.revision

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the item, its history and what would close it."""
        return self.model_dump(mode="json")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Item:
        """An item from :meth:`to_dict` output."""
        return cls.model_validate(data)


def item_id(*parts: object) -> str:
    """A short, stable id: ``R`` and six hex digits of the item's identity."""
    return "R" + hashlib.sha256("|".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()[:6]
