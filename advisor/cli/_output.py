"""Writing a command's output when the reader may have gone, and JSON that cannot drive a terminal.

A reader that went away (``witness check … | head -1``), a closed standard output, or a full
disk (``> /dev/full``) does not change what a command found: the command still exits with its own
status, without a traceback. The ``witness`` process guards its standard streams once, at the
bottom (:func:`guard_standard_streams`: a write that fails ends that stream's output, silently),
so every writer — click's help, rich, a report — is covered, not only those that remember to be;
:class:`Output` stops writing and remembers, for a caller that stops its work when nobody reads
it (a ``--batch`` run). :func:`json_text` writes JSON whose
strings keep every character, but with C1 controls and bidirectional overrides escaped
(``\\u009b``), as JSON already escapes C0 controls: the data stay exact, and a terminal that
shows them is not driven by them.
"""

from __future__ import annotations

import io
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
        if getattr(self.stream, "gone", False):
            self.gone = True
        return not self.gone


class _Descriptor(io.RawIOBase):
    """A standard stream's file descriptor whose writes never fail: once one does (the reader left,
    the disk is full, the descriptor is closed), the rest are dropped and :attr:`gone` is set."""

    def __init__(self, descriptor: int) -> None:
        super().__init__()
        self.descriptor = descriptor
        self.gone = False
        """A write failed: nothing more is written."""

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.descriptor

    def isatty(self) -> bool:
        return not self.gone and os.isatty(self.descriptor)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        size = len(view)
        while view and not self.gone:  # all of it: a text layer over an unbuffered stream writes once
            try:
                view = view[os.write(self.descriptor, view):]
            except BlockingIOError:  # a non-blocking descriptor (a parent's choice): wait, then go on
                import select

                select.select([], [self.descriptor], [])
            except OSError:
                self.gone = True
        return size

    def close(self) -> None:  # the descriptor is the process's, not ours to close
        self.flush()


class GuardedText(io.TextIOWrapper):
    """A standard stream over :class:`_Descriptor`: what it says is what the stream it replaces
    would say, and a failure to write ends its output instead of raising."""

    @property
    def gone(self) -> bool:
        """Its output could not be written (closed, full, or its reader left)."""
        raw = getattr(self.buffer, "raw", self.buffer)
        return bool(getattr(raw, "gone", False))


def guard_standard_streams() -> None:
    """Put :class:`GuardedText` in place of standard output and error, when they are the process's
    own (a program or a test that replaced them keeps its own)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or stream is not getattr(sys, f"__{name}__") or isinstance(stream, GuardedText):
            continue
        try:
            descriptor = stream.fileno()
            stream.flush()
        except (OSError, ValueError, AttributeError):
            continue
        raw = _Descriptor(descriptor)
        unbuffered = isinstance(getattr(stream, "buffer", None), io.RawIOBase)  # python -u, PYTHONUNBUFFERED
        layer: Any = raw if unbuffered else io.BufferedWriter(raw)
        guarded = GuardedText(layer, encoding=stream.encoding,
                              errors="backslashreplace", line_buffering=stream.line_buffering,
                              write_through=getattr(stream, "write_through", False))
        setattr(sys, name, guarded)


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
