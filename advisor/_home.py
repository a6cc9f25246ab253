"""Where witness keeps what it writes: ``$WITNESS_HOME``, one variable to relocate all of it.

Without it, the user's state directory (``$XDG_STATE_HOME/witness``, else
``~/.local/state/witness``). Under it: ``hooks/`` (Stop-hook block counts), ``log/`` (every
advisor consultation, for ``witness log``) and ``bytecode/`` (compiled copies of witness's own
modules, when Python is told to write none: :mod:`advisor.cli._bytecode`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from pathlib import Path


def witness_home() -> Path:
    """The directory witness writes its state and logs under (not created here)."""
    from pathlib import Path

    return Path(home_directory())


def home_directory() -> str:
    """:func:`witness_home` as a string, for the start of a process, where ``pathlib`` is not loaded."""
    home = os.environ.get("WITNESS_HOME")
    if home:
        return home
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "witness")
