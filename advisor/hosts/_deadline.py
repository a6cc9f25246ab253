"""How long a hook call may take: ``WITNESS_HOOK_DEADLINE``, read the same way by the process that
arms its timer before anything else loads and by the Stop logic that reports a bad value. Like
:mod:`._constants`, it imports nothing: the hook path reads it before it knows the call is a Stop."""

from ._constants import MAX_DEADLINE


def deadline_seconds(value: str) -> float | None:
    """The seconds ``value`` names, if it is a number greater than 0 and at most :data:`MAX_DEADLINE`;
    ``None`` otherwise."""
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if 0 < seconds <= MAX_DEADLINE else None
