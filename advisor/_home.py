"""Where witness keeps what it writes: ``$WITNESS_HOME``, one variable to relocate all of it.

Without it, the user's state directory (``$XDG_STATE_HOME/witness``, else
``~/.local/state/witness``). Under it: ``hooks/`` (the Stop hook's block counts and kept replays),
``log/`` (every advisor consultation, for ``witness log``) and ``bytecode/`` (compiled copies of
witness's own modules, when Python is told to write none: :mod:`advisor.cli._bytecode`).

It must be an absolute path (``~`` is the user's home): a relative one would be resolved against
wherever witness happens to run — a hook runs in the user's project, and would write its state
into the checkout.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path


def witness_home() -> Path:
    """The directory witness writes its state and logs under (not created here). Raises
    ``ConfigError`` for a ``WITNESS_HOME`` that is not an absolute path."""
    from pathlib import Path

    return Path(home_setting(os.environ))


def home_setting(env: Mapping[str, str]) -> str:
    """The home ``env`` names (see :func:`home_directory`). Raises ``ConfigError`` for a ``WITNESS_HOME``
    that is not an absolute path."""
    home = home_directory(env)
    if not os.path.isabs(home):
        from advisor.errors import ConfigError

        raise ConfigError(f"WITNESS_HOME={env.get('WITNESS_HOME', '')!r} is not an absolute path (a relative one "
                          "would put witness's state wherever it runs)")
    return home


def home_directory(env: Mapping[str, str] | None = None) -> str:
    """:func:`witness_home` as a string, not judged, for the start of a process, where ``pathlib`` is not
    loaded (its caller uses it only if it is absolute)."""
    env = os.environ if env is None else env
    home = env.get("WITNESS_HOME")
    if home:
        return os.path.expanduser(home)
    base = env.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # the XDG specification: a relative one is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "witness")
