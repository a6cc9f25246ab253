"""Compiled copies of witness's own modules under ``$WITNESS_HOME/bytecode``, for processes that
Python tells to write no bytecode.

Containers and agent sandboxes often set ``PYTHONDONTWRITEBYTECODE``, and an editable install
then never gets a ``__pycache__``: every ``witness check`` or ``witness hook`` process, one per
tool call, compiles the thousands of lines it loads, which takes longer than everything else it
does (``benchmarks/startup_bench.py`` measures both). The ``witness`` console script then keeps
compiled copies of the modules of *its own* packages in its state directory — never beside the
sources, never for any other package.

A copy is code every verdict runs, so it is kept and read only where it gives nobody a power they
did not have: for a source file this process could rewrite itself (an editable checkout; not a
read-only install), in a directory this user owns and no one else may enter. It is validated by
the source's content, as a checked hash-based ``.pyc`` is (PEP 552: the interpreter's magic
number, then a hash of the source bytes), not by modification times, which reproducible builds
and copies that keep them make equal across versions. A ``__pycache__`` file that Python itself
would accept is still preferred. ``WITNESS_BYTECODE_CACHE=0`` turns the copies off; a directory
that cannot be made safe or written only means compiling, as before. A program that imports
witness as a library is never affected: only :func:`advisor.cli.main` run as the console script
installs the finder.
"""

from __future__ import annotations

import _imp
import marshal
import os
import sys

# The import system's own module, always loaded: `importlib.util` re-exports these names, but
# importing it (or the `importlib` package) loads modules the hook path otherwise never needs.
from _frozen_importlib_external import (  # type: ignore[attr-defined]
    _RAW_MAGIC_NUMBER,
    MAGIC_NUMBER,
    SourceFileLoader,
    cache_from_source,
)

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import CodeType, ModuleType

PACKAGES = frozenset({"shellparse", "obligations", "advisor"})
"""The packages whose modules are kept: witness's own, and nothing it imports."""
SWITCH = "WITNESS_BYTECODE_CACHE"
"""The environment variable that turns the copies off (``0``, ``off``, ``no`` or ``false``)."""
_OFF = frozenset({"0", "off", "no", "false"})
_CHECKED_HASH = (0b11).to_bytes(4, "little")
"""PEP 552 flags: hash-based, and the hash is checked against the source."""


def install(directory: str) -> bool:
    """Keep compiled copies under ``directory`` for the rest of this process, if Python writes no
    bytecode of its own, the copies are not switched off and ``directory`` is this user's alone;
    return whether they are kept."""
    if not sys.dont_write_bytecode or os.environ.get(SWITCH, "").strip().lower() in _OFF:
        return False
    if not installed():
        if not _private_directory(directory):
            return False
        sys.meta_path.insert(0, CopiesFinder(directory))
    return True


def installed() -> bool:
    """Whether this process keeps compiled copies (a finder of this module is on ``sys.meta_path``)."""
    return any(isinstance(finder, CopiesFinder) for finder in sys.meta_path)


def _private_directory(directory: str) -> bool:
    """Make ``directory`` if need be; whether it is a real directory (not a link) of this user's
    that no other user can write or enter (where the system has owners and modes)."""
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        found = os.lstat(directory)
    except OSError:
        return False
    if (found.st_mode & 0o170000) != 0o040000:  # S_ISDIR, without importing `stat`
        return False
    if not hasattr(os, "geteuid"):  # Windows: no owner ids or mode bits to check
        return True
    return found.st_uid == os.geteuid() and found.st_mode & 0o077 == 0


class CopiesFinder:
    """A meta path finder that lets the finders after it find the module, then gives the modules
    of :data:`PACKAGES` read from source a loader that keeps their compiled copies."""

    def __init__(self, directory: str, packages: frozenset[str] = PACKAGES) -> None:
        self.directory = os.path.abspath(directory)
        self.packages = packages

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name.partition(".")[0] not in self.packages:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is None:
                continue
            if type(spec.loader) is SourceFileLoader and spec.origin is not None:
                spec.loader = CopyingLoader(name, spec.origin, directory=self.directory)
            return spec
        return None


class CopyingLoader(SourceFileLoader):
    """A source loader whose bytecode, when Python's own ``__pycache__`` has none it would accept,
    is read from and written to a mirror of the source's path under a directory of its own."""

    def __init__(self, fullname: str, path: str, *, directory: str) -> None:
        super().__init__(fullname, path)
        self.directory = directory

    def get_code(self, fullname: str) -> CodeType:
        source_path = self.get_filename(fullname)
        source = self.get_data(source_path)
        digest = _imp.source_hash(_RAW_MAGIC_NUMBER, source)
        code = _read_pycache(cache_from_source(source_path), source_path, digest)
        if code is not None:
            return code
        mine = os.access(source_path, os.W_OK)  # else a copy would let someone change what runs
        copy = self.copy_path(source_path)
        header = MAGIC_NUMBER + _CHECKED_HASH + digest
        if mine:
            code = _read_copy(copy, header)
            if code is not None:
                return code
        code = self.source_to_code(source, source_path)
        if mine:
            _write(copy, header + marshal.dumps(code))
        return code

    def copy_path(self, source_path: str) -> str:
        """Where the compiled copy of ``source_path`` is kept: its absolute path mirrored under
        the directory, named as ``__pycache__`` names it for this interpreter and optimisation
        level (code compiled under ``-O`` has no asserts, and must not run without it)."""
        drive, rest = os.path.splitdrive(os.path.abspath(source_path))
        stem = os.path.splitext(rest.lstrip("\\/"))[0]
        tag = sys.implementation.cache_tag or "python"
        level = f".opt-{sys.flags.optimize}" if sys.flags.optimize else ""
        volume = "".join(character for character in drive if character.isalnum())  # `C:`, `\\?\C:`, `\\host\share`
        return os.path.join(self.directory, volume, f"{stem}.{tag}{level}.pyc")


def _read_pycache(path: str | None, source_path: str, digest: bytes) -> CodeType | None:
    """The code of Python's own ``.pyc`` for ``source_path``, where Python would accept it: a
    timestamp header matching the source's modification time and size, a checked hash matching
    ``digest``, or an unchecked hash (trusted, as Python trusts it by default)."""
    data = _contents(path)
    if data is None or data[:4] != MAGIC_NUMBER:
        return None
    flags = int.from_bytes(data[4:8], "little")
    if flags == 0:
        stat = os.stat(source_path)
        valid = data[8:16] == (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (
            stat.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    else:
        valid = flags == 0b01 or (flags == 0b11 and data[8:16] == digest)
    code = _code(data) if valid else None
    if code is not None:
        _imp._fix_co_filename(code, source_path)  # type: ignore[attr-defined]  # a tree moved with its `__pycache__`
    return code


def _read_copy(path: str, header: bytes) -> CodeType | None:
    """The code in the copy at ``path`` if it was compiled from this very source by this
    interpreter; ``None`` if it is missing, stale, written by another interpreter or damaged."""
    data = _contents(path)
    return _code(data) if data is not None and data[:16] == header else None


def _contents(path: str | None) -> bytes | None:
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _code(data: bytes) -> CodeType | None:
    """The code object marshalled after a 16-byte header, or ``None`` if there is none."""
    try:
        code = marshal.loads(memoryview(data)[16:])
    except (EOFError, ValueError, TypeError):
        return None
    return code if type(code) is type(_code.__code__) else None


def _write(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: concurrent processes may read it meanwhile.
    The partial file is new (never one someone put there, nor where a link points) and private."""
    partial = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        with open(os.open(partial, flags, 0o600), "wb") as handle:
            handle.write(data)
        os.replace(partial, path)
    except OSError:  # a full or read-only state directory: the module was compiled all the same
        try:  # noqa: SIM105 (`contextlib` is not loaded on the hook path)
            os.unlink(partial)
        except OSError:
            pass
