"""Replays resumed from a kept position, side by side with whole replays of the same bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from obligations import NotATranscript, Tracker, TrackerConfig, UserMessage
from obligations.sources import Position, open_transcript

CONFIG = TrackerConfig(escalation=None)


def answer(tracker: Tracker, report: dict[str, Any]) -> dict[str, Any]:
    """Everything a replay knows at its end: the tracker's whole state and the report."""
    return {"tracker": tracker.snapshot(), "report": report, "open": [item.id for item in tracker.open_items()]}


def whole(path: Path) -> dict[str, Any]:
    """The answer of a replay of the whole file (the reason, for a file that is no transcript yet)."""
    try:
        source = open_transcript(path)
        tracker = Tracker(CONFIG)
        for event in source.events():
            tracker.handle(event)
    except NotATranscript as error:
        return {"not a transcript": error.reason}
    return answer(tracker, source.report.to_dict())


class Stops:
    """The Stop hook's way: each stop resumes from the position the last one kept (as JSON, as it is
    kept on disk), and keeps its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kept: tuple[dict[str, Any], dict[str, Any]] | None = None
        self.refused: str | None = None
        """Why the last stop replayed the whole file (``None``: it resumed, or had nothing kept)."""
        self.resumed = 0
        """Stops that resumed."""
        self.refusals: list[str] = []
        """Why each stop that had a kept position replayed the whole file instead."""

    def stop(self) -> dict[str, Any]:
        """The answer of one stop (the reason, for a file that is no transcript yet)."""
        try:
            return self._stop()
        except NotATranscript as error:
            return {"not a transcript": error.reason}

    def _stop(self) -> dict[str, Any]:
        source = open_transcript(self.path)
        start = source.resume(Position.from_dict(json.loads(json.dumps(self.kept[0])))) if self.kept else None
        self.refused = source.refused
        self.resumed += start is not None
        if source.refused is not None:
            self.refusals.append(source.refused)
        tracker = Tracker.restore(self.kept[1], CONFIG) if start is not None and self.kept else Tracker(CONFIG)

        def keep(position: Position) -> None:
            self.kept = (position.to_dict(), json.loads(json.dumps(tracker.snapshot())))

        for event in source.events(start=start, checkpoint=keep):
            tracker.handle(event)
        return answer(tracker, source.report.to_dict())


def stop_offsets(path: Path) -> list[int]:
    """Where a session stops: before each line that starts a task (a user's prompt), and at its end."""
    source = open_transcript(path)
    prompts = {int(event.origin.rsplit(":", 1)[1]) for event in source.events()
               if isinstance(event, UserMessage) and event.origin is not None}
    offsets, offset = [], 0
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number in prompts and offset:
                offsets.append(offset)
            offset += len(raw)
    return [*offsets, offset]
