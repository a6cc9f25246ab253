"""Provider-style identifiers, deterministic per server (``chatcmpl-…``, ``toolu_…``, ``req_…``)."""

from __future__ import annotations

import itertools
import threading


class Ids:
    """Makes identifiers in each provider's style, numbered so a test run is reproducible."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._lock = threading.Lock()

    def make(self, prefix: str, width: int = 24) -> str:
        """The next identifier: ``prefix`` followed by ``width`` hexadecimal digits."""
        with self._lock:
            number = next(self._counter)
        return f"{prefix}{number:0{width}x}"
