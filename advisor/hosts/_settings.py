"""The Stop hook's settings, from the environment the host runs it in.

``WITNESS_POLICY`` (``seed`` or ``strict``; anything else reads as ``seed``) and
``WITNESS_STOP_BLOCKS`` (blocks per task, default the tracker's reminder budget; a value that is
not a number reads as the default).
"""

from __future__ import annotations

import os

from obligations import REMINDER_BUDGET
from shellparse import POLICIES, Policy


def policy() -> Policy:
    """The pipe policy the replay judges re-runs by."""
    value = os.environ.get("WITNESS_POLICY", "seed")
    for known in POLICIES:
        if value == known:
            return known
    return "seed"


def blocks_allowed() -> int:
    """How many times a task's stop may be blocked."""
    try:
        return max(0, int(os.environ.get("WITNESS_STOP_BLOCKS", REMINDER_BUDGET)))
    except ValueError:
        return REMINDER_BUDGET
