"""How many times a Stop hook has held each agent in its current task, kept between hook calls.

Hosts do not reliably report ``stop_hook_active`` (Claude Code has sent ``false`` across re-fires
of one turn), so the hook counts its own blocks: one small JSON file per host and session under
``$WITNESS_HOME/hooks/`` (see :mod:`._state`), holding a count per agent (the session's own agent, ``root``, and each
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

from ._constants import ROOT_AGENT
from ._state import STATE_SUFFIX, session_file, state_dir, write_state

LOCK_TIMEOUT = 5.0
"""Seconds a hook waits for another hook's update before it gives up counting (each takes a few
milliseconds)."""
AGENTS_KEPT = 64
"""Agents whose counts a session's file keeps; the longest unchanged are forgotten first."""
_VERSION = 4
_MIGRATED = {2: {"main": ROOT_AGENT}, 3: {"main": ROOT_AGENT}}
"""Agent names an older file version used, by version: versions 2 and 3 named the session's agent
``main``. Version 2 files are named after the session id made safe (:func:`legacy_file`), version 3
and later after a hash of the exact id (``_state.session_file``); a count of either is read when
the session has no file of the current name yet, so that an upgrade in the middle of a task
neither resets the budget nor lets the agent stop early."""


class BlockKey(NamedTuple):
    """Whose blocks are counted: one agent of one session of one host, in one task."""

    host: str
    """``claude-code`` or ``codex``."""
    session: str
    """The host's session id."""
    agent: str
    """``root`` for the session's agent (``obligations.ROOT_AGENT``), else the sub-agent's id."""
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
            agents = _read(path) if path.exists() else _read(legacy_file(self.folder, key))
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


def legacy_file(folder: Path, key: BlockKey) -> Path:
    """Where version 2 kept ``key``'s session: the host and session id made safe as a file name (ids
    that differ only in characters a name cannot hold shared it, and so a budget, until each session
    writes a file of its own)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{key.host}-{key.session}")[:200]
    return folder / f"{safe}{STATE_SUFFIX}"


def _read(path: Path) -> dict[str, dict[str, Any]]:
    """The counts by agent; an unreadable, foreign or older file counts nothing, and neither does an
    entry that is not a task and a count of 0 or more (a damaged file is not trusted)."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    version = state.get("version") if isinstance(state, dict) else None
    agents = state.get("agents") if version == _VERSION or version in _MIGRATED else None
    if not isinstance(agents, dict):
        return {}
    renamed: dict[str, str] = _MIGRATED.get(version, {}) if isinstance(version, int) else {}
    return {renamed.get(str(name), str(name)): entry for name, entry in agents.items() if isinstance(entry, dict)
            and isinstance(entry.get("task"), str) and type(entry.get("blocks")) is int and entry["blocks"] >= 0}

