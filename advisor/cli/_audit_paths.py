"""What ``witness audit`` reads: the files its PATHs name, what it left out and why.

- A **directory** is searched (recursively, symbolic links not followed) for ``*.jsonl`` files, the
  shape of ``~/.claude/projects``, ``~/.codex/sessions`` and ``~/.pi/agent/sessions``; other files
  are not looked at. A sub-folder that cannot be listed, a ``*.jsonl`` that cannot be read or is
  not a regular file is *skipped*, with the reason.
- A **file** named on the command line is read whatever its name.
- ``-`` is standard input, and a named pipe (process substitution: ``witness audit <(zcat s.jsonl.gz)``,
  ``/dev/stdin`` fed by a pipe) is a stream: it is copied to a temporary file first, because a
  transcript is read twice (its format is judged from its first lines). A stream that does not
  start like a transcript is refused after its first lines, not copied to its end.
- Anything else — a missing path, an empty one (``''``, which is not the current directory), a
  terminal or another device — is a *warning*, and the other paths are audited.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

from obligations import NotATranscript
from obligations.sources import file_kind, open_transcript

PATTERN = "*.jsonl"
"""The files a directory is searched for."""
STREAM_HEAD = 64 * 1024
"""Bytes of a stream copied before its format is judged."""


@dataclass(frozen=True)
class Source:
    """One file to audit."""

    path: Path
    """Where to read it (a temporary copy for a stream)."""
    name: str
    """What to call it in the report (``-`` for standard input)."""


@dataclass
class Found:
    """The files to audit, and what was left out."""

    sources: list[Source] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """PATHs that could not be audited at all, each with the reason."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """Files and folders below a directory that were left out: (path, reason)."""


def find(paths: list[str], spool: Path) -> Found:
    """The files ``paths`` name; streams are copied into the folder ``spool``."""
    found = Found()
    for name in paths:
        if not name:
            found.warnings.append("'': an empty path names nothing (use . for the current directory)")
            continue
        if name == "-":
            _stream(found, name, spool)
            continue
        path = Path(name).expanduser()
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            found.warnings.append(f"{name}: no such file or directory")
            continue
        except (OSError, ValueError) as error:
            found.warnings.append(f"{name}: cannot be read ({getattr(error, 'strerror', None) or error})")
            continue
        if stat.S_ISDIR(mode):
            _directory(found, path)
        elif stat.S_ISREG(mode):
            found.sources.append(Source(path, str(path)))
        elif stat.S_ISFIFO(mode):
            _stream(found, name, spool)
        else:
            found.warnings.append(f"{name}: {file_kind(mode)}, not a transcript file or stream")
    unique = dict.fromkeys(found.sources)
    found.sources = list(unique)
    return found


def _directory(found: Found, root: Path) -> None:
    def unreadable(error: OSError) -> None:
        found.skipped.append((str(error.filename), f"folder cannot be read ({error.strerror or error})"))

    for folder, folders, files in os.walk(root, onerror=unreadable):
        folders.sort()
        for file in sorted(files):
            if not Path(file).match(PATTERN):
                continue
            path = Path(folder, file)
            try:
                mode = path.stat().st_mode
            except OSError as error:
                found.skipped.append((str(path), f"cannot be read ({error.strerror or error})"))
                continue
            if not stat.S_ISREG(mode):
                found.skipped.append((str(path), f"{file_kind(mode)}, not a regular file"))
            elif not os.access(path, os.R_OK):
                found.skipped.append((str(path), "cannot be read (permission denied)"))
            else:
                found.sources.append(Source(path, str(path)))


def _stream(found: Found, name: str, spool: Path) -> None:
    """Copy a stream into ``spool`` (the head first: a stream that is not a transcript is not read on)."""
    folder = spool / str(len(found.sources))  # a folder each: the copy keeps the stream's own name
    folder.mkdir()
    copy = folder / ("stdin" if name == "-" else Path(name).name or "stream")
    try:
        with _open_stream(name) as source, copy.open("wb") as target:
            target.write(source.read(STREAM_HEAD))
            target.flush()
            try:
                open_transcript(copy)
            except NotATranscript as error:
                found.warnings.append(f"{_display(name)}: {NotATranscript.WHAT}: {error.reason}")
                return
            shutil.copyfileobj(source, target)
    except OSError as error:
        found.warnings.append(f"{_display(name)}: cannot be read ({error.strerror or error})")
        return
    found.sources.append(Source(copy, name))


def _open_stream(name: str) -> BinaryIO:
    if name != "-":
        return open(name, "rb")
    if sys.stdin is None:
        raise OSError(0, "standard input is closed")
    if sys.stdin.isatty():
        raise OSError(0, "standard input is a terminal; pipe a transcript into it")
    return cast(BinaryIO, os.fdopen(os.dup(sys.stdin.fileno()), "rb"))


def _display(name: str) -> str:
    return "standard input" if name == "-" else name
