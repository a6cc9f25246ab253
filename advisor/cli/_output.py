"""Writing a command's output when the reader may have gone, and JSON that cannot drive a terminal.

A reader that went away (``witness check … | head -1``), a closed standard output, or a full
disk (``> /dev/full``) does not change what a command found: :class:`Output` stops writing and
remembers, and the command still exits with its own status. :func:`json_text` writes JSON whose
strings keep every character, but with C1 controls and bidirectional overrides escaped
(``\\u009b``), as JSON already escapes C0 controls: the data stay exact, and a terminal that
shows them is not driven by them.
"""

from __future__ import annotations

import os
import re
import sys

TYPE_CHECKING = False  # `typing` is not loaded here: the hook's path ends through `finish`
if TYPE_CHECKING:
    from typing import IO, Any

_RISKY = "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
"""What :func:`json_text` escapes (compiled on first use: ``re``'s compiler costs start-up time)."""


class Output:
    """``stream`` for a command's results: write failures end the output, never the command."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.gone = stream is None
        """The output could not be written (closed, full, or its reader left)."""

    def write(self, text: str) -> bool:
        """Write ``text``; ``False`` once the output is gone."""
        if self.stream is None or self.gone:
            return False
        try:
            self.stream.write(text)
        except (OSError, ValueError):
            self.gone = True
        return not self.gone


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON (one line, unless ``indent``), with every string intact and nothing a terminal acts on."""
    import json  # loaded on first use: `witness check` prints text unless asked for JSON

    return inert_json(json.dumps(value, ensure_ascii=False, indent=indent))


def inert_json(text: str) -> str:
    """JSON text with its C1 controls and bidirectional overrides escaped (``\\u009b``): the same value,
    nothing a terminal acts on (JSON escapes C0 controls itself)."""
    return re.sub(_RISKY, lambda found: f"\\u{ord(found.group()):04x}", text)


def finish(code: int) -> int:
    """Flush standard output before the interpreter does: if it is closed, full or gone, make the
    interpreter's own last flush harmless, so that ``code`` stays the exit status."""
    stream = sys.stdout
    if stream is None:
        return code
    try:
        stream.flush()
    except (OSError, ValueError):
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        except (OSError, ValueError):
            sys.stdout = None
    return code
