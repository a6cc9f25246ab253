"""Helpers shared by the transcript-reader tests: write a JSONL file, read it back as events, replay it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from obligations import ToolCompleted, Tracker
from obligations.sources import open_transcript


def write_jsonl(path: Path, entries: list[dict[str, Any]]) -> Path:
    """Write one JSON document per line and return the path."""
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    return path


def read(path: Path) -> list[Any]:
    """Every event the reader makes of the file, in order."""
    return list(open_transcript(path).events())


def replay(path: Path) -> tuple[Tracker, list[Any]]:
    """A fresh tracker that has handled every event of the file, and those events."""
    tracker = Tracker()
    events = read(path)
    for event in events:
        tracker.handle(event)
    return tracker, events


def results(events: list[Any]) -> dict[str, ToolCompleted]:
    """The completions among the events, by call id."""
    return {event.call_id: event for event in events if isinstance(event, ToolCompleted)}
