"""What a format's first pass over a file decides before its replay: which entries to replay.

Rewinds leave abandoned branches in a file (a Claude Code prompt edited or rewound, a Pi tree's
other branches, a Copilot snapshot rewind, a Gemini ``$rewindTo``), and a first pass finds them.
A replay resumed at a byte offset plans only the lines after it, from what the earlier pass knew
(its *state*, plain JSON). When those lines withdraw something before the offset — a rewind that
reaches back into what was already replayed — the plan raises ``Rewound`` (``obligations.errors``),
and the file is replayed from its start instead: a resumed replay answers exactly as a whole one, or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

Select = Callable[[int, dict[str, Any]], bool]
"""Whether the entry on a line is replayed."""


class Planned(NamedTuple):
    """A plan of a byte range of a file."""

    select: Select | None
    """Which entries to replay (``None``: every one)."""
    state: Any = None
    """What the next range's plan needs to know of this one and those before (plain JSON)."""


NOTHING = Planned(None)
"""The plan of a format that has none: every entry is replayed."""
