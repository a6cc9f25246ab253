"""What every event carries."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticUndefined

from .._vocabulary import ROOT_AGENT


class BaseEvent(BaseModel):
    """Fields shared by every event.

    Events are immutable values: the tracker orders them by its own tick (the number
    ``Tracker.handle`` returns), never by a field of the event, so one event can be handed to
    several consumers. Unknown fields are ignored on input, so events written by a newer host
    (or an older one that stamped a ``tick``) still load.
    """

    # The field docstrings are documentation only: pydantic's use_attribute_docstrings would read
    # every event module's source when the package is imported, and every Stop hook imports it.
    model_config = ConfigDict(extra="ignore", frozen=True)

    agent_id: str = ROOT_AGENT
    """The agent the event belongs to; agents never announced by `AgentSpawned` are root agents."""
    time: datetime | None = None
    """When the host says the event happened (informational only)."""
    origin: str | None = None
    """Where the event was read from, for reports (``session.jsonl:412``)."""
    entry_id: str | None = None
    """The id of the transcript entry it was read from, the same on every read of the file: Pi's
    entry ``id``, Claude Code's ``uuid``, ``L<line>`` for Codex (whose entries have none). The
    advisor's ledger names its cards after it (``#id``)."""


E = TypeVar("E", bound=BaseEvent)
_DEFAULTS: dict[type[BaseEvent], tuple[dict[str, Any], tuple[str, ...], frozenset[str]]] = {}
_new = BaseModel.__new__
_set = object.__setattr__


def trusted(kind: type[E], fields: dict[str, Any]) -> E:
    """An event of ``kind`` from ``fields`` whose every value its maker built to the field's type —
    a transcript reader, which makes each value from its own checks (``string``, ``exit_status``,
    ``parse_time``). Made as ``kind.model_construct(**fields)`` makes it (the fields given are the
    fields set; the others get their defaults), without its loop in Python or a validation: a
    transcript makes tens of thousands of events, and validating one costs more than making it.
    ``fields`` becomes the event's own. Input from outside (``event_from_dict``, a caller's
    ``kind(...)``) is always validated."""
    known = _DEFAULTS.get(kind)
    if known is None:
        known = _DEFAULTS[kind] = _defaults(kind)
    defaults, factories, required = known
    values = {**defaults, **fields}
    # A name that is no field adds a key to the defaults' (one comparison fewer than a subset test).
    if len(values) != len(defaults) or not fields.keys() >= required:
        given = fields.keys()
        raise TypeError(f"{kind.__name__} made without {sorted(required - given)} or with {sorted(given - defaults)}")
    for name in factories:
        if name not in fields:
            values[name] = kind.model_fields[name].get_default(call_default_factory=True)
    event = _new(kind)
    _set(event, "__dict__", values)
    _set(event, "__pydantic_fields_set__", set(fields))
    _set(event, "__pydantic_extra__", None)
    _set(event, "__pydantic_private__", None)
    return event


def _defaults(kind: type[BaseEvent]) -> tuple[dict[str, Any], tuple[str, ...], frozenset[str]]:
    """Every field's default in field order (``None`` for a required one, which must be given), the
    fields made by a factory (made afresh for each event), and the required fields."""
    fields = kind.model_fields
    defaults = {name: None if field.default is PydanticUndefined else field.default for name, field in fields.items()}
    factories = tuple(name for name, field in fields.items() if field.default_factory is not None)
    return defaults, factories, frozenset(name for name, field in fields.items() if field.is_required())
