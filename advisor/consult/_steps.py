"""What a consultation is doing, told as it happens, for a live display (``witness consult`` on a terminal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

StepKind = Literal["request", "tool"]
"""``request``: a request is sent to the model and its answer awaited; ``tool``: an investigation tool runs."""


class Step(NamedTuple):
    """One step of a consultation."""

    kind: StepKind
    """What it is doing (``StepKind``)."""
    request: int
    """The request it is at, counting from 1 (for a tool: the request whose answer asked for it)."""
    tool: str | None = None
    """The tool that runs (``tool`` steps)."""
    argument: str | None = None
    """The tool's main argument (a path, a pattern), as the log shows it."""


OnStep = Callable[[Step], None]
"""Told each step as it begins (it must return at once: it runs in the consultation's loop)."""
