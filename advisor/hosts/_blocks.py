"""How many times a Stop hook has held each agent in its current task, kept between hook calls.

Hosts do not reliably report ``stop_hook_active`` (Claude Code has sent ``false`` across re-fires
of one turn), so the hook counts its own blocks: one small JSON file per host and session under
``$WITNESS_HOME/hooks/`` (see :mod:`._state`), holding a count per agent (the session's main agent and each
sub-agent), each for the task it was counted in. A sub-agent's stops never spend its parent's
budget, and a parent and a sub-agent in different tasks never reset each other's counts.

Hooks run concurrently — a host runs every matching hook in parallel (one installed twice,
several sub-agents stopping at once) — so every update reads, changes and replaces the file
under one lock (``filelock``), and the new file replaces the old atomically.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from ._state import session_file, state_dir, write_state

LOCK_TIMEOUT = 5.0
"""Seconds a hook waits for another hook's update before it gives up counting (each takes a few
milliseconds)."""
AGENTS_KEPT = 64
"""Agents whose counts a session's file keeps; the longest unchanged are forgotten first."""
_VERSION = 3


class BlockKey(NamedTuple):
    """Whose blocks are counted: one agent of one session of one host, in one task."""

    host: str
    """``claude-code`` or ``codex``."""
    session: str
    """The host's session id."""
    agent: str
    """``main`` for the session's agent, else the sub-agent's id."""
    task: str
    """The agent's current task, as the replay of its transcript names it."""


class BlockCounter:
    """The block counts in ``folder`` (default :func:`state_dir`)."""

    def __init__(self, folder: Path | None = None, *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.folder = folder if folder is not None else state_dir()
        """Where the counts are kept."""
        self.lock_timeout = lock_timeout
        """Seconds to wait for the lock."""

    def path(self, key: BlockKey) -> Path:
        """The file that holds the counts of ``key``'s session."""
        return session_file(self.folder, key)

    def count(self, key: BlockKey, limit: int) -> int | None:
        """Count one more block of ``key``'s agent in its task; ``None`` once ``limit`` is reached.

        Raises ``OSError`` when the count cannot be kept (a folder that cannot be written, a lock
        held past ``lock_timeout``: ``filelock.Timeout`` is a ``TimeoutError``)."""
        from filelock import FileLock

        self.folder.mkdir(parents=True, exist_ok=True)
        with FileLock(self.folder / "counts.lock", timeout=self.lock_timeout):
            path = self.path(key)
            agents = _read(path)
            entry = agents.pop(key.agent, None)
            blocks = entry["blocks"] if entry is not None and entry["task"] == key.task else 0
            if blocks >= limit:
                if entry is not None:
                    agents[key.agent] = entry
                return None
            agents[key.agent] = {"task": key.task, "blocks": blocks + 1}  # last: the most recently changed
            while len(agents) > AGENTS_KEPT:
                agents.pop(next(iter(agents)))
            write_state(path, {"version": _VERSION, "agents": agents})
        return blocks + 1


def _read(path: Path) -> dict[str, dict[str, Any]]:
    """The counts by agent; an unreadable, foreign or older file counts nothing, and neither does an
    entry that is not a task and a count of 0 or more (a damaged file is not trusted)."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    agents = state.get("agents") if isinstance(state, dict) and state.get("version") == _VERSION else None
    if not isinstance(agents, dict):
        return {}
    return {name: entry for name, entry in agents.items() if isinstance(entry, dict)
            and isinstance(entry.get("task"), str) and type(entry.get("blocks")) is int and entry["blocks"] >= 0}

