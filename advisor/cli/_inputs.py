"""Streams a command reads — standard input (``-``), a named pipe, ``<(…)`` — opened so that nothing
hangs in silence and nothing grows without bound.

- A **device** that is not a terminal (``/dev/zero``, ``< /dev/urandom``) is refused: it never ends.
- A **named pipe** (``mkfifo``) nobody writes to yet is waited for, with a note on standard error
  after :data:`NOTE_AFTER` seconds, for :data:`STREAM_WAIT` seconds at most; then it is refused. An
  anonymous pipe (``cmd | witness …``, ``<(cmd)``) has its writer already: it is read as slowly as
  that writer writes.
- A stream is **copied** to a temporary file (a transcript is read more than once: its format is
  judged from its first lines) up to :data:`STREAM_MAX_BYTES`; a longer one is refused, and its
  copy removed at once.
"""

from __future__ import annotations

import os
import select
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, BinaryIO, Literal

from advisor.errors import StreamProblem

STREAM_WAIT = 30.0
"""Seconds to wait for the first byte of a named pipe nobody writes to yet."""
NOTE_AFTER = 1.0
"""Seconds of silence on a named pipe before saying that it is waited for."""
STREAM_MAX_BYTES = 4 * 1024**3
"""The largest stream copied to a temporary file (4 GiB); a longer one is refused."""
STREAM_HEAD = 64 * 1024
"""Bytes of a stream copied before its format is judged."""
_CHUNK = 1024 * 1024


def display(name: str) -> str:
    """How a path or stream is named in messages."""
    return "standard input" if name == "-" else name or "''"


def path_kind(name: str) -> Literal["stream", "directory", "file"]:
    """What the path ``name`` names, as a command reads it: a stream (``-``, a named pipe), a
    directory, or a regular file. Raises :class:`StreamProblem` for anything else: an empty path
    (which is not the current directory), a missing or unreadable one, a device."""
    if not name:
        raise StreamProblem("an empty path names nothing")
    if name == "-":
        return "stream"
    try:
        mode = Path(name).expanduser().stat().st_mode
    except FileNotFoundError:
        raise StreamProblem("no such file or directory") from None
    except (OSError, ValueError) as error:
        raise StreamProblem(f"cannot be read ({getattr(error, 'strerror', None) or error})") from None
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISFIFO(mode):
        return "stream"
    from obligations.sources import file_kind

    raise StreamProblem(f"{file_kind(mode)}, not a transcript file or stream")


@contextmanager
def one_transcript(name: str, *, who: str, err: IO[str] | None = None) -> Iterator[Path]:
    """The transcript file a command that reads one transcript (``consult``, ``packet``) reads for
    ``name``, for the length of the block: the file itself, or a stream's copy (removed after). Raises
    ``InputError`` (``advisor.errors``) for a path or stream it cannot read, and ``NotATranscript``,
    each naming ``name`` as the user gave it (never the copy)."""
    from advisor.errors import InputError
    from obligations import NotATranscript

    with tempfile.TemporaryDirectory(prefix="witness-") as spool:
        try:
            path = transcript_file(name, Path(spool), err=err, who=who)
        except StreamProblem as problem:
            raise InputError(f"{display(name)}: {problem}") from None
        except NotATranscript as error:
            raise NotATranscript(display(name), error.reason) from None
        try:
            yield path
        except NotATranscript as error:
            if error.path != str(path):
                raise
            raise NotATranscript(display(name), error.reason) from None


def transcript_file(name: str, spool: Path, *, err: IO[str] | None = None, who: str = "witness") -> Path:
    """The one transcript file a command reads for ``name``: the file itself, or a stream copied into the
    folder ``spool``. Raises :class:`StreamProblem` (a directory too), or ``NotATranscript`` for a
    stream that does not start like a transcript."""
    kind = path_kind(name)
    if kind == "directory":
        raise StreamProblem("a directory, not a transcript file")
    if kind == "file":
        return Path(name).expanduser()
    copy = spool / ("stdin" if name == "-" else Path(name).name or "stream")
    copy_stream(name, copy, err=err, who=who)
    return copy


def is_stream(name: str) -> bool:
    """Whether ``name`` is read as a stream: ``-``, or a named pipe (``<(…)``, ``/dev/stdin`` fed by a pipe)."""
    if name == "-":
        return True
    try:
        return stat.S_ISFIFO(os.stat(name).st_mode)
    except (OSError, ValueError):
        return False


def open_stream(name: str, *, err: IO[str] | None = None, terminal: bool = True, who: str = "witness") -> BinaryIO:
    """``name`` (``-``: standard input) opened for reading in binary, once it has something to read.
    Raises :class:`StreamProblem` for a device that never ends, a closed standard input, a terminal
    when ``terminal`` is false, or a named pipe nobody writes to within :data:`STREAM_WAIT` seconds
    (said on ``err``, by ``who``, after :data:`NOTE_AFTER`)."""
    if name == "-":
        if sys.stdin is None:
            raise StreamProblem("it is closed")
        try:
            descriptor = os.dup(sys.stdin.fileno())
        except (OSError, ValueError, AttributeError) as error:
            raise StreamProblem(f"it cannot be read ({getattr(error, 'strerror', None) or error})") from None
    else:
        try:
            descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK)  # a pipe without a writer: no hang here
        except (OSError, ValueError) as error:
            raise StreamProblem(f"it cannot be read ({getattr(error, 'strerror', None) or error})") from None
    try:
        _check_kind(descriptor, terminal=terminal)
        _await_writer(name, descriptor, err, who)
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")


def _check_kind(descriptor: int, *, terminal: bool) -> None:
    mode = os.fstat(descriptor).st_mode
    if os.isatty(descriptor):
        if not terminal:
            raise StreamProblem("it is a terminal; pipe a transcript into it")
        return
    if stat.S_ISDIR(mode):
        raise StreamProblem("a directory, not a stream")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a character device" if stat.S_ISCHR(mode) else "a block device"
        raise StreamProblem(f"{kind}, not a file or stream (it would never end)")


def _await_writer(name: str, descriptor: int, err: IO[str] | None, who: str) -> None:
    """Return once a named pipe has data or its writer has come and gone; raise after :data:`STREAM_WAIT`."""
    if not _named_pipe(descriptor):
        return
    start = time.monotonic()
    noted = False
    while True:
        waited = time.monotonic() - start
        if waited >= STREAM_WAIT:
            raise StreamProblem(f"nothing was written to this named pipe in {STREAM_WAIT:g} s (is anything writing "
                                "to it?)")
        limit = STREAM_WAIT - waited if noted or err is None else min(NOTE_AFTER - waited, STREAM_WAIT - waited)
        ready, _, _ = select.select([descriptor], [], [], max(limit, 0))
        if ready:
            return
        if not noted and err is not None and time.monotonic() - start >= NOTE_AFTER:
            from shellparse import printable

            err.write(printable(f"{who}: waiting for something to write to {display(name)} (a named pipe) …\n"))
            err.flush()
            noted = True


def _named_pipe(descriptor: int) -> bool:
    """Whether ``descriptor`` is a named pipe of a file system, not an anonymous pipe (whose writer
    exists since it was made): anonymous pipes all live on the kernel's own pipe device."""
    status = os.fstat(descriptor)
    if not stat.S_ISFIFO(status.st_mode):
        return False
    read, write = os.pipe()
    try:
        return os.fstat(read).st_dev != status.st_dev
    finally:
        os.close(read)
        os.close(write)


def copy_stream(name: str, target: Path, *, err: IO[str] | None = None, who: str = "witness") -> None:
    """Copy the stream ``name`` into the new file ``target``: its head first, judged as a transcript (a
    stream that does not start like one is not read on), then the rest, up to
    :data:`STREAM_MAX_BYTES`. Raises :class:`StreamProblem` (the copy removed) or ``NotATranscript``."""
    with open_stream(name, err=err, terminal=False, who=who) as source:
        try:
            with target.open("wb") as copy:
                _copy_head(source, copy, target)
                _copy_rest(source, copy)
        except BaseException:
            target.unlink(missing_ok=True)
            raise


def _copy_head(source: BinaryIO, copy: BinaryIO, target: Path) -> None:
    from obligations.sources import open_transcript  # loaded here: `check --batch` reads streams without it

    head = source.read(STREAM_HEAD)
    copy.write(head)
    copy.flush()
    open_transcript(target)  # raises NotATranscript


def _copy_rest(source: BinaryIO, copy: BinaryIO) -> None:
    written = copy.tell()
    while chunk := source.read(_CHUNK):
        written += len(chunk)
        if written > STREAM_MAX_BYTES:
            raise StreamProblem(f"longer than {STREAM_MAX_BYTES:,} bytes, the most copied from a stream; write it "
                                "to a file and name the file")
        try:
            copy.write(chunk)
        except OSError as error:
            raise StreamProblem(f"it cannot be copied to a temporary file ({error.strerror or error})") from None

