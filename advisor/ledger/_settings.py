"""How much of a session the ledger shows, and how large a request may grow.

==========================  =======  ===========================================================
setting (``[ledger]``)      default  meaning
==========================  =======  ===========================================================
``tail_tool_calls``         2        newest tool rounds since the last consultation shown verbatim
``tail_max_chars``          8000     cap on each part of a verbatim round (arguments, result,
                                     the executor's reasoning), both ends kept
``user_message_max_chars``  20000    cap on one user message (both ends kept, the rest expandable)
``restated_max_chars``      2000     cap on each user message restated after a compaction
``custom_preview_chars``    500      cap on an extension's or a hook's message
``token_budget``            250000   trim the request to fit this many tokens (characters / 4);
                                     0 never trims
==========================  =======  ===========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from advisor._config_file import load_table
from advisor._values import Frozen


class LedgerSettings(Frozen):
    """The ledger's limits."""

    tail_tool_calls: int = Field(default=2, ge=0, le=50)
    """Tool rounds since the last consultation shown verbatim (the rest are one-line cards)."""
    tail_max_chars: int = Field(default=8000, ge=100)
    """Cap on each part of a verbatim round: its arguments, its result, the triggering reasoning."""
    user_message_max_chars: int = Field(default=20_000, ge=100)
    """Cap on one user message; past it both ends are kept and the middle is expandable."""
    restated_max_chars: int = Field(default=2000, ge=100)
    """Cap on each of the user's messages restated after a compaction replaced them (both ends kept,
    the rest expandable): they are older, and every later request carries them."""
    custom_preview_chars: int = Field(default=500, ge=50)
    """Cap on an extension's or a hook's message in the log."""
    token_budget: int = Field(default=250_000, ge=0)
    """The request's size limit in tokens (characters / 4); 0: never trim."""


def load_ledger_settings(flags: Mapping[str, Any] | None = None, *, path: Path | None = None) -> LedgerSettings:
    """The settings: ``flags`` (``None`` values ignored) over the ``[ledger]`` table of the config file."""
    return load_table(LedgerSettings, "ledger", flags, path, "ledger settings")
