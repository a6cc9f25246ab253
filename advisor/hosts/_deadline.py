"""How long a hook call may take: ``WITNESS_HOOK_DEADLINE``, read the same way by the process that
arms its timer before anything else loads and by the Stop logic that reports a bad value."""

from __future__ import annotations

DEFAULT_DEADLINE = 20.0
"""Seconds a hook call may take by default: well inside the hosts' 60 s hook time-out."""
REVIEW_DEADLINE = 150.0
"""Seconds a call of ``witness hook … --review`` may take by default: a completion review waits for a model
(the documented settings give the hook 180 s)."""
MAX_DEADLINE = 3600.0
"""The longest deadline accepted: an hour, far past any host's hook time-out."""


def deadline_seconds(value: str) -> float | None:
    """The seconds ``value`` names, if it is a number greater than 0 and at most :data:`MAX_DEADLINE`;
    ``None`` otherwise."""
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if 0 < seconds <= MAX_DEADLINE else None
