"""The verdict's byte budgets: each field, each list item and the whole delivered verdict.

A verdict is data the requester and the root's telemetry keep, so it is bounded like the case
packet: summary 1 KB, diagnosis 6 KB, recommended action 2 KB, 512 B per evidence reference,
1 KB per action, 4 KB for the validation plan together, 16 KB for the whole (as UTF-8 JSON).
Text is cut on a character boundary with a marker; lists lose their last items first.
"""

from __future__ import annotations

import json
from typing import Any

TRUNCATED = "…[truncated]"

FIELD_BYTES = {"summary": 1024, "diagnosis": 6144, "recommended_action": 2048}
"""Budgets of the text fields, in UTF-8 bytes."""
ITEM_BYTES = {"evidence": 512, "actions": 1024, "validation_plan": 1024, "examined_calls": 128,
              "examined_fingerprints": 128}
"""Budgets of one list item, in UTF-8 bytes."""
LIST_ITEMS = {"evidence": 16, "actions": 8, "validation_plan": 12, "examined_calls": 32, "examined_fingerprints": 32}
"""How many items each list keeps."""
VALIDATION_PLAN_BYTES = 4096
"""The validation plan's items together."""
TOTAL_BYTES = 16384
"""The whole delivered verdict, as compact UTF-8 JSON."""
_SHRINK_ORDER = ("evidence", "actions", "validation_plan", "examined_calls", "examined_fingerprints")


def utf8_len(text: str) -> int:
    """The text's size in UTF-8 bytes."""
    return len(text.encode("utf-8"))


def truncate_utf8(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` UTF-8 bytes, else its longest head that fits with the
    marker (never splitting a character)."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    room = max(0, limit - utf8_len(TRUNCATED))
    return data[:room].decode("utf-8", "ignore") + TRUNCATED


def json_bytes(value: Any) -> int:
    """The size of ``value`` as compact UTF-8 JSON."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def fit_verdict(fields: dict[str, Any]) -> dict[str, Any]:
    """The verdict's fields cut to their budgets and the whole to :data:`TOTAL_BYTES`."""
    fitted: dict[str, Any] = dict(fields)
    for name, limit in FIELD_BYTES.items():
        if isinstance(fitted.get(name), str):
            fitted[name] = truncate_utf8(fitted[name], limit)
    for name, count in LIST_ITEMS.items():
        value = fitted.get(name)
        if value is None:
            fitted[name] = []
        elif isinstance(value, list | tuple):
            fitted[name] = [truncate_utf8(item, ITEM_BYTES[name]) if isinstance(item, str) else item
                            for item in value][:count]
        else:
            return fitted  # not a list: left for validation to refuse
    plan, used = [], 0
    for item in fitted["validation_plan"]:
        used += utf8_len(str(item))
        if used > VALIDATION_PLAN_BYTES:
            break
        plan.append(item)
    fitted["validation_plan"] = plan
    for name in _SHRINK_ORDER:
        while json_bytes(fitted) > TOTAL_BYTES and fitted[name]:
            fitted[name] = fitted[name][:-1]
    for _ in range(64):  # escaping can make JSON longer than its text: cut the largest text field
        excess = json_bytes(fitted) - TOTAL_BYTES
        texts = [name for name in FIELD_BYTES if isinstance(fitted.get(name), str)
                 and fitted[name] != TRUNCATED]
        if excess <= 0 or not texts:
            break
        name = max(texts, key=lambda n: json_bytes(fitted[n]))
        fitted[name] = truncate_utf8(fitted[name], max(0, utf8_len(fitted[name]) - excess))
    return fitted
