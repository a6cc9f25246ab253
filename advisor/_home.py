"""Where witness keeps what it writes: ``$WITNESS_HOME``, one variable to relocate all of it.

Without it, the user's state directory (``$XDG_STATE_HOME/witness``, else
``~/.local/state/witness``). Under it: ``hooks/`` (Stop-hook block counts) and ``log/``
(every advisor consultation, for ``witness log``).
"""

from __future__ import annotations

import os
from pathlib import Path


def witness_home() -> Path:
    """The directory witness writes its state and logs under (not created here)."""
    home = os.environ.get("WITNESS_HOME")
    if home:
        return Path(home)
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "witness"
