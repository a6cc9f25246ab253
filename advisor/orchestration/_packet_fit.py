"""Fitting a case packet to 48 KB by structural degradation — never by cutting JSON text.

Steps, in order, until the packet's compact UTF-8 JSON fits: drop ``recent_tail``; drop
``tool_activity``; drop ``prior_advice``; keep 8 changed paths and 4 evidence items and
attempts; keep 2 failures and 6 validation rows (trigger-related first); shrink the question
(1 200 B), the objective (800 B) and keep 4 criteria; shrink the question to 800 then 400 B;
last, a minimal packet (``degraded_to: "minimal"``). Each step and every row it drops are
reported in ``truncation``. The result always parses.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.orchestration._verdict_budget import truncate_utf8

MAX_PACKET_BYTES = 48 * 1024
"""The packet's budget, as compact UTF-8 JSON."""


def packet_bytes(packet: dict[str, Any]) -> int:
    """The packet's size as sent."""
    return len(packet_text(packet).encode("utf-8"))


def packet_text(packet: dict[str, Any]) -> str:
    """The packet as sent: compact JSON, UTF-8 characters kept."""
    return json.dumps(packet, ensure_ascii=False, separators=(",", ":"))


def _drop(name: str) -> Callable[[dict[str, Any]], None]:
    def step(packet: dict[str, Any]) -> None:
        _omit(packet, name, len(packet.get(name) or ()))
        packet[name] = []
    step.__name__ = f"drop {name}"
    return step


def _keep(name: str, count: int) -> Callable[[dict[str, Any]], None]:
    def step(packet: dict[str, Any]) -> None:
        rows = packet.get(name) or []
        if len(rows) > count:
            _omit(packet, name, len(rows) - count)
            packet[name] = rows[:count]
    step.__name__ = f"keep {count} {name}"
    return step


def _shrink(name: str, limit: int) -> Callable[[dict[str, Any]], None]:
    def step(packet: dict[str, Any]) -> None:
        if isinstance(packet.get(name), str):
            packet[name] = truncate_utf8(packet[name], limit)
    step.__name__ = f"shrink {name} to {limit} B"
    return step


def _omit(packet: dict[str, Any], name: str, count: int) -> None:
    if count:
        omitted = packet["truncation"]["omitted"]
        omitted[name] = omitted.get(name, 0) + count


def _validation_first(packet: dict[str, Any]) -> None:
    rows = packet.get("validation") or []
    packet["validation"] = sorted(rows, key=lambda r: not r.get("trigger_related"))


STEPS: tuple[tuple[Callable[[dict[str, Any]], None], ...], ...] = (
    (_drop("recent_tail"),),
    (_drop("tool_activity"),),
    (_drop("prior_advice"),),
    (_keep("changed_paths", 8), _keep("requester_evidence", 4), _keep("failed_attempts", 4)),
    (_keep("failures", 2), _validation_first, _keep("validation", 6), _keep("obligations", 4)),
    (_shrink("question", 1200), _shrink("objective", 800), _keep("success_criteria", 4)),
    (_shrink("question", 800),),
    (_shrink("question", 400), _keep("failed_attempts", 2), _keep("validation", 3), _keep("obligations", 2)),
)
"""The degradation steps, in order; each group is one step."""


@dataclass(frozen=True, slots=True)
class FittedPacket:
    """A packet that fits, with what it took."""

    packet: dict[str, Any]
    text: str
    size: int
    degraded: tuple[str, ...]


def fit_packet(packet: dict[str, Any], limit: int = MAX_PACKET_BYTES) -> FittedPacket:
    """The packet, degraded step by step until it fits ``limit`` bytes."""
    fitted = copy.deepcopy(packet)
    done: list[str] = []
    for group in STEPS:
        text = packet_text(fitted)
        if len(text.encode("utf-8")) <= limit:
            return FittedPacket(fitted, text, len(text.encode("utf-8")), tuple(done))
        for step in group:
            step(fitted)
            done.append(step.__name__)
        fitted["truncation"]["degraded"] = list(done)
    text = packet_text(fitted)
    if len(text.encode("utf-8")) <= limit:
        return FittedPacket(fitted, text, len(text.encode("utf-8")), tuple(done))
    minimal = _minimal(fitted, done)
    text = packet_text(minimal)
    return FittedPacket(minimal, text, len(text.encode("utf-8")), tuple(minimal["truncation"]["degraded"]))


def _minimal(packet: dict[str, Any], done: list[str]) -> dict[str, Any]:
    omitted = dict(packet["truncation"]["omitted"])
    for name in ("success_criteria", "requester_evidence", "failed_attempts", "validation", "failures",
                 "obligations", "changed_paths"):
        if packet.get(name):
            omitted[name] = omitted.get(name, 0) + len(packet[name])
    trigger = {k: v for k, v in packet["trigger"].items() if k != "reason"}
    return {"version": packet["version"], "requester": packet["requester"], "trigger": trigger,
            "question": truncate_utf8(packet.get("question") or "", 400),
            "validation_summary": packet["validation_summary"], "degraded_to": "minimal",
            "truncation": {"omitted": omitted, "degraded": [*done, "minimal"]}}
