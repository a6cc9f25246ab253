"""What ``witness audit`` reads: the files its PATHs name, what it left out and why.

- A **directory** is searched (recursively, symbolic links not followed) for ``*.jsonl`` files, the
  shape of ``~/.claude/projects``, ``~/.codex/sessions`` and ``~/.pi/agent/sessions``; other files
  are not looked at. A sub-folder that cannot be listed, a ``*.jsonl`` that cannot be read, is not a
  regular file or is a symbolic link is *skipped*, with the reason.
- A **file** named on the command line is read whatever its name (a link named is followed).
- ``-`` is standard input, and a named pipe (process substitution: ``witness audit <(zcat s.jsonl.gz)``,
  ``/dev/stdin`` fed by a pipe) is a stream: it is copied to a temporary file first (see
  ``_inputs``). A stream that does not start like a transcript is refused after its first lines,
  not copied to its end.
- Anything else — a missing path, an empty one (``''``, which is not the current directory), a
  terminal or another device — is a *warning*, and the other paths are audited.
- A file reached twice (named twice, or by two names) is audited once, under the first name.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from advisor.errors import StreamProblem
from obligations import NotATranscript
from obligations.sources import file_kind

from ._inputs import copy_stream, display, path_kind

PATTERN = "*.jsonl"
"""The files a directory is searched for."""


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


EMPTY_PATH = "'': an empty path names nothing (use . for the current directory)"
"""The warning for ``''`` (a shell variable left empty), wherever a path is named."""


def find(paths: list[str], spool: Path, err: IO[str] | None = None) -> Found:
    """The files ``paths`` name; streams are copied into the folder ``spool`` (a note on ``err``
    while a named pipe is waited for)."""
    found = Found()
    for name in paths:
        try:
            kind = path_kind(name)
        except StreamProblem as problem:
            found.warnings.append(EMPTY_PATH if not name else f"{name}: {problem}")
            continue
        if kind == "directory":
            _directory(found, Path(name).expanduser())
        elif kind == "file":
            path = Path(name).expanduser()
            found.sources.append(Source(path, str(path)))
        else:
            _stream(found, name, spool, err)
    found.sources = _once_each(found.sources)
    return found


def _once_each(sources: list[Source]) -> list[Source]:
    """Each file once, by its identity on disk (device and inode), under the first name it was found by."""
    seen: set[tuple[int, int]] = set()
    kept: list[Source] = []
    for source in sources:
        try:
            status = source.path.stat()
        except OSError:
            kept.append(source)  # reading it says why
            continue
        identity = (status.st_dev, status.st_ino)
        if identity not in seen:
            seen.add(identity)
            kept.append(source)
    return kept


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
                mode = path.lstat().st_mode
            except OSError as error:
                found.skipped.append((str(path), f"cannot be read ({error.strerror or error})"))
                continue
            if stat.S_ISLNK(mode):
                found.skipped.append((str(path), "a symbolic link, not followed (name it to audit what it points to)"))
            elif not stat.S_ISREG(mode):
                found.skipped.append((str(path), f"{file_kind(mode)}, not a regular file"))
            elif not os.access(path, os.R_OK):
                found.skipped.append((str(path), "cannot be read (permission denied)"))
            else:
                found.sources.append(Source(path, str(path)))


def _stream(found: Found, name: str, spool: Path, err: IO[str] | None) -> None:
    """Copy a stream into ``spool`` (the head first: a stream that is not a transcript is not read on)."""
    folder = spool / str(len(found.sources))  # a folder each: the copy keeps the stream's own name
    folder.mkdir()
    copy = folder / ("stdin" if name == "-" else Path(name).name or "stream")
    try:
        copy_stream(name, copy, err=err, who="witness audit")
    except NotATranscript as error:
        found.warnings.append(f"{display(name)}: {NotATranscript.WHAT}: {error.reason}")
        return
    except StreamProblem as error:
        found.warnings.append(f"{display(name)}: {error}")
        return
    except OSError as error:
        found.warnings.append(f"{display(name)}: cannot be read ({error.strerror or error})")
        return
    found.sources.append(Source(copy, name))
