"""What the redactor took out of a session: each replaced text and the marker's kind, found by
comparing every event's texts with their redacted copy (public API only)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from obligations import Event, redact_event
from obligations.sources import open_transcript

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "transcripts" / "real"
"""The real sessions shipped with the tests."""
_MARKER = re.compile(r"\[REDACTED:([\w.-]+)\]")


@dataclass(frozen=True, slots=True)
class Redaction:
    """One secret the redactor replaced."""

    session: str
    """The session file's name."""
    kind: str
    """The marker's kind."""
    secret: str
    """The text it replaced."""


def strings(value: Any) -> Iterator[str]:
    """Every string in a value (nested dicts, lists and tuples)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def replaced(before: str, after: str) -> Iterator[tuple[str, str]]:
    """``(secret, kind)`` for each marker ``after`` has where ``before`` had text (the text around the
    markers is the same in both)."""
    pieces = _MARKER.split(after)
    kinds = pieces[1::2]
    shape = "(.+?)".join(re.escape(piece) for piece in pieces[::2])
    found = re.fullmatch(shape, before, re.DOTALL)
    assert found is not None, "redaction changed text outside its markers"
    yield from zip(found.groups(), kinds, strict=True)


def event_redactions(event: Event, session: str) -> Iterator[Redaction]:
    """What redacting one event replaced."""
    sealed = redact_event(event)
    if sealed is event:
        return
    for name in type(event).model_fields:
        old, new = getattr(event, name), getattr(sealed, name)
        if old == new:
            continue
        for before, after in zip(strings(old), strings(new), strict=True):
            if before != after:
                for secret, kind in replaced(before, after):
                    yield Redaction(session, kind, secret)


def session_redactions(path: Path) -> list[Redaction]:
    """Every redaction in one session's events."""
    return [found for event in open_transcript(path).events() for found in event_redactions(event, path.name)]


def real_sessions() -> list[Path]:
    """The real sessions, by name."""
    return sorted(REAL.rglob("*.jsonl"))
