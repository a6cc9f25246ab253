"""Obligation items: what is open, since when, what has been tried, and what would close it."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

VALIDATION_FAILURE = "validation-failure"
CLAIM = "claim-contradicted"
OPEN = "open"
RESOLVED = "resolved"


@dataclass(frozen=True, slots=True)
class Transition:
    """One change of an item, for its history."""

    tick: int
    """When (the tracker's tick)."""
    change: str
    """``opened``, ``failed-again`` (the check failed again, open or not), ``resolved``,
    ``reopened`` (a potential edit after the witness), ``disposition``, ``correction``, ``claim-bound``."""
    detail: str
    """What happened, in a line."""
    call_id: str | None = None
    """The tool call responsible, if one was."""
    origin: str | None = None
    """Where the responsible event was read from (a transcript line), if known."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """A run of the item's check that reported success but did not witness it."""

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


@dataclass(slots=True)
class Item:
    """An obligation. Mutated only by the tracker; :meth:`to_dict` is its public, JSON form."""

    id: str
    kind: str
    agent_id: str
    task: int
    key: str | None
    cwd: str | None
    check: str | None
    check_kind: str | None
    family: str | None
    claim_id: str | None
    summary: str
    created_tick: int
    latest_failure_tick: int
    latest_failure_call: str | None
    state: str = OPEN
    repeat_count: int = 1
    revision: int = 1
    disposition: dict[str, Any] | None = None
    correction: dict[str, Any] | None = None
    resolution: dict[str, Any] | None = None
    last_attempt: Attempt | None = None
    reminded_revision: int = 0
    history: list[Transition] = field(default_factory=list)
    dropped_history: int = 0

    def note(self, transition: Transition, limit: int) -> None:
        """Add a transition, keeping at most ``limit`` (older ones are counted)."""
        self.history.append(transition)
        if len(self.history) > limit:
            del self.history[0]
            self.dropped_history += 1

    @property
    def closes_by(self) -> str:
        """What would close the item, in a sentence."""
        if self.key is None:
            return ("nothing yet: register the claim again with the `validation_call_id` of the check it rests "
                    "on, then correct it and re-run that check")
        where = f" in `{self.cwd}`" if self.cwd else ""
        run = (f"a later run of `{self.check}`{where} that exits 0, with nothing edited during or after it, "
               "whose exit status is the check's own (no `|| true`, `; echo`, `| grep` …)")
        if self.kind == CLAIM and self.correction is None:
            return "a correction of the claim (`correct`), then " + run
        return run

    @property
    def disposed(self) -> bool:
        """A disposition covers the item's current revision (it is not re-reminded)."""
        return self.disposition is not None and self.disposition.get("revision") == self.revision

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the item, its history and what would close it."""
        data = {name: getattr(self, name) for name in self.__slots__ if name not in ("history", "last_attempt")}
        data["history"] = [asdict(t) for t in self.history]
        data["last_attempt"] = asdict(self.last_attempt) if self.last_attempt is not None else None
        data["closes_by"] = self.closes_by
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Item:
        """An item from :meth:`to_dict` output."""
        fields = {name: data[name] for name in cls.__slots__ if name in data and name not in ("history",
                                                                                                 "last_attempt")}
        item = cls(**fields)
        item.history = [Transition(**t) for t in data.get("history", ())]
        attempt = data.get("last_attempt")
        item.last_attempt = Attempt(**attempt) if attempt else None
        return item


def item_id(*parts: object) -> str:
    """A short, stable id: ``R`` and six hex digits of the item's identity."""
    return "R" + hashlib.sha256("|".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()[:6]
