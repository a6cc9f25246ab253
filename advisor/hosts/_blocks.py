"""How many times a Stop hook has held an agent in its current task, kept between hook calls.

Hosts do not reliably report ``stop_hook_active`` (Claude Code has sent ``false`` across re-fires
of one turn), so the hook counts its own blocks, in one small JSON file per host and session
under ``$WITNESS_HOME/hooks/``. The file is replaced atomically: hooks of one host may run
concurrently.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from advisor._home import witness_home


def state_dir() -> Path:
    """Where the block counts are kept (see :func:`advisor._home.witness_home`)."""
    return witness_home() / "hooks"


class BlockCounter:
    """The block counts in ``folder`` (default :func:`state_dir`), one file per host and session."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else state_dir()
        """Where the counts are kept."""

    def count(self, host: str, session: str, task: str, limit: int) -> int | None:
        """Count one more block for this session's ``task``; ``None`` once ``limit`` is reached.

        Raises ``OSError`` when the count cannot be kept."""
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{host}-{session}")[:200]
        path = self.folder / f"{safe}.json"
        try:
            state = json.loads(path.read_text())
        except (OSError, ValueError):
            state = {}
        count = state.get("blocks", 0) if state.get("task") == task else 0
        if count >= limit:
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=self.folder, delete=False, suffix=".tmp") as handle:
            json.dump({"task": task, "blocks": count + 1}, handle)
        os.replace(handle.name, path)  # atomic: hooks of one host may run concurrently
        return count + 1
