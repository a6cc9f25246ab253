"""A reader's state as plain JSON, so that a replay stopped at a checkpoint can go on in another process.

A reader's state is its attributes: sets, dicts, the bounded maps of calls in flight, and small
records of the reader's own (a call awaiting its result). They are written as JSON, each
container tagged with its kind (``{"$": "set", "v": […]}``) and each record with its registered
name; reading builds only those kinds and the records registered here, never an arbitrary
object. Two kinds of attribute are not copied but restored in place: the report (the transcript's,
restored by the transcript) and the parts a reader shares with its helpers (its :class:`Stamp`,
Codex's code cells), so that what is one object stays one object.
"""

from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict
from datetime import datetime
from typing import Any, TypeVar

from ..errors import SnapshotError

T = TypeVar("T", bound=type)

_RECORDS: dict[str, type] = {}
"""Every record class a state may hold, by its registered name."""
_NAMES: dict[type, str] = {}
"""The same, by class."""
_PARTS: set[type] = set()
"""Classes whose instances are restored in place (their own state, attribute by attribute)."""
_LIMITED: list[type] = []
"""The class of the bounded maps (``_common.Bounded``)."""
_SKIPPED = ("report",)
"""Attributes that are never a reader's own state (restored by the transcript). A class adds its
own in ``NOT_STATE`` (what comes from the file's path, say)."""


def record(cls: T) -> T:
    """Register a NamedTuple or dataclass as one a reader's state may hold."""
    name = f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"
    _RECORDS[name], _NAMES[cls] = cls, name
    return cls


def in_place(cls: T) -> T:
    """Register a class whose instances are part of a reader and restored in place."""
    _PARTS.add(cls)
    return cls


def limited(cls: T) -> T:
    """Register the class of the bounded maps: an ordered dict with a ``limit``, made with it."""
    _LIMITED[:] = [cls]
    return cls


def state_of(owner: object) -> dict[str, Any]:
    """The state of a reader (or a part of one) as plain JSON."""
    skipped = (*_SKIPPED, *getattr(type(owner), "NOT_STATE", ()))
    return {name: _encode(value) for name, value in vars(owner).items() if name not in skipped}


def restore(owner: object, state: Any) -> None:
    """Put ``owner`` (a reader just made, or a part of one) in the state :func:`state_of` recorded.
    Raises ``SnapshotError`` for a state that does not fit it."""
    if not isinstance(state, dict):
        raise SnapshotError(f"a reader's state is a JSON object, not {type(state).__name__}")
    mine = vars(owner)
    skipped = (*_SKIPPED, *getattr(type(owner), "NOT_STATE", ()))
    for name, value in state.items():
        if name not in mine or name in skipped:
            raise SnapshotError(f"{type(owner).__name__} has no state {name!r}")
        current = mine[name]
        if type(current) in _PARTS:
            restore(current, value.get("v") if isinstance(value, dict) else value)
        else:
            setattr(owner, name, _decode(value))


def _encode(value: Any) -> Any:
    kind = type(value)
    if value is None or kind is str or kind is bool or kind is int or kind is float:
        return value
    if kind is list:
        return [_encode(item) for item in value]
    if kind is tuple:
        return {"$": "tuple", "v": [_encode(item) for item in value]}
    if kind is set or kind is frozenset:
        return {"$": kind.__name__, "v": list(value) if _all_text(value) else [_encode(item) for item in value]}
    if kind is dict or kind is OrderedDict or isinstance(value, OrderedDict):
        tag = kind.__name__ if kind is dict or kind is OrderedDict else "bounded"
        encoded = {"$": tag, **_map(value)}
        if tag == "bounded":
            encoded["limit"] = value.limit
        return encoded
    if kind is datetime:
        return {"$": "datetime", "v": value.isoformat()}
    if kind is re.Pattern:
        return {"$": "re", "v": value.pattern, "flags": value.flags}
    if kind in _PARTS:
        return {"$": "part", "v": state_of(value)}
    name = _NAMES.get(kind)
    if name is None:
        raise TypeError(f"a reader's state holds a {kind.__qualname__}, which is not registered to be kept")
    fields = value._asdict() if hasattr(value, "_asdict") else {field.name: getattr(value, field.name)
                                                                 for field in dataclasses.fields(value)}
    return {"$": "record", "type": name, "v": {key: _encode(item) for key, item in fields.items()}}


_PLAIN = frozenset({str, int, bool, float, type(None)})
"""Values written as they are."""


def _all_text(values: Any) -> bool:
    return all(type(value) is str for value in values)


def _map(value: dict[Any, Any]) -> dict[str, Any]:
    """A map's keys and values. A reader's maps are mostly of call ids to flags or names (thousands of
    them): their keys (strings, or tuples of strings) and plain values are written as they are, in two
    lists, each item not going through the tagging."""
    keys, values = list(value), list(value.values())
    if all(type(item) in _PLAIN for item in values):
        if _all_text(keys):
            return {"keys": keys, "values": values}
        if all(type(key) is tuple and _all_text(key) for key in keys):
            return {"tuple_keys": [list(key) for key in keys], "values": values}
    return {"v": [[_encode(key), _encode(item)] for key, item in zip(keys, values, strict=True)]}


def _items(data: dict[str, Any]) -> Any:
    """The (key, value) pairs :func:`_map` wrote."""
    if "keys" in data:
        return zip(data["keys"], data["values"], strict=True)
    if "tuple_keys" in data:
        return zip(map(tuple, data["tuple_keys"]), data["values"], strict=True)
    return ((_decode(key), _decode(value)) for key, value in data["v"])


def _decode(data: Any) -> Any:
    if not isinstance(data, (dict, list)):
        return data
    if isinstance(data, list):
        return [_decode(item) for item in data]
    try:
        return _DECODERS[data["$"]](data)
    except (KeyError, TypeError, ValueError) as error:
        raise SnapshotError(f"a reader's state holds a value that cannot be read back ({error!r})") from None


def _bounded(data: dict[str, Any]) -> Any:
    bounded = _LIMITED[0](int(data["limit"]))
    store = OrderedDict.__setitem__  # not the map's own: it was written within its limit
    for key, value in _items(data):
        store(bounded, key, value)
    while len(bounded) > bounded.limit:
        bounded.popitem(last=False)
    return bounded


def _record(data: dict[str, Any]) -> Any:
    cls = _RECORDS[data["type"]]
    return cls(**{key: _decode(value) for key, value in data["v"].items()})


_DECODERS: dict[str, Any] = {
    "tuple": lambda data: tuple(_decode(item) for item in data["v"]),
    "set": lambda data: {_decode(item) for item in data["v"]},
    "frozenset": lambda data: frozenset(_decode(item) for item in data["v"]),
    "dict": lambda data: dict(_items(data)),
    "OrderedDict": lambda data: OrderedDict(_items(data)),
    "bounded": _bounded,
    "datetime": lambda data: datetime.fromisoformat(data["v"]),
    "re": lambda data: re.compile(data["v"], int(data["flags"])),
    "record": _record,
}
"""How each tagged kind is read back (a part is restored in place, never made from its tag)."""
