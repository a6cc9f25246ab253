"""Regular expressions compiled when first used, not at import.

Compiling a pattern runs ``re``'s parser and compiler in Python; the analyzer's thirty-odd
patterns cost a ``witness check`` process milliseconds at import, and most commands use only a
few of them. :func:`lazy` gives an object that answers like the compiled pattern (``match``,
``search``, ``sub`` …) and compiles on the first of those calls; after it, each method is the
compiled pattern's own, looked up as cheaply as on the pattern itself.
"""

from __future__ import annotations

import re
from typing import Any, cast


class _Lazy:
    """A pattern's source, compiled on first use."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes not yet set: the first use compiles and keeps the answer. A
        # private name is never a pattern's method (and a copy made without __init__ asks for
        # `_source` itself, which must not recurse).
        if name.startswith("_"):
            raise AttributeError(name)
        value = getattr(re.compile(*self._source), name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when the pattern is first used."""
    return cast("re.Pattern[str]", _Lazy(pattern, flags))
