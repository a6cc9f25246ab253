"""Which states of a session a completion review has already judged, kept between hook calls.

A state is the review request's digest: the ledger as the advisor would read it, byte for byte. A
stop with nothing new since the last review (the host calling its Stop hook again, two copies of
the hook, a stop straight after a released one) has the same digest, and is not reviewed again.
One small JSON file per host and session under ``$WITNESS_HOME/hooks/`` (see :mod:`._state`), changed under a lock
(hooks run concurrently), replaced atomically.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ._blocks import BlockKey
from ._state import session_file, state_dir, write_state

LOCK_TIMEOUT = 5.0
"""Seconds to wait for another hook's update."""
KEPT = 32
"""Digests kept per agent (the oldest are forgotten first)."""
_VERSION = 2
_PREFIX = "reviewed-"
"""This kind's file names start so (one of :data:`._state.KINDS`)."""


class ReviewedStates:
    """The reviewed states in ``folder`` (default: the block counts' folder)."""

    def __init__(self, folder: Path | None = None, *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.folder = folder if folder is not None else state_dir()
        """Where the digests are kept."""
        self.lock_timeout = lock_timeout
        """Seconds to wait for the lock."""

    def path(self, key: BlockKey) -> Path:
        """The file of ``key``'s session."""
        return session_file(self.folder, key, prefix=_PREFIX)

    def claim(self, key: BlockKey, state: str) -> bool:
        """Record that ``key``'s agent is reviewed in ``state``; ``False`` if it already was.

        Raises ``OSError`` when the record cannot be kept (``filelock.Timeout`` is a ``TimeoutError``)."""
        from filelock import FileLock

        self.folder.mkdir(parents=True, exist_ok=True)
        with FileLock(self.folder / "reviewed.lock", timeout=self.lock_timeout):
            path = self.path(key)
            agents = _read(path)
            seen = agents.pop(key.agent, [])
            if state in seen:
                agents[key.agent] = seen
                return False
            agents[key.agent] = [*seen, state][-KEPT:]
            write_state(path, {"version": _VERSION, "agents": agents}, prefix=_PREFIX)
        return True


def _read(path: Path) -> dict[str, list[str]]:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    agents = data.get("agents") if isinstance(data, dict) and data.get("version") == _VERSION else None
    if not isinstance(agents, dict):
        return {}
    return {name: [s for s in states if isinstance(s, str)] for name, states in agents.items()
            if isinstance(states, list)}
