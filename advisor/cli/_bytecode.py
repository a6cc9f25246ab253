"""Compiled copies of witness's own modules under ``$WITNESS_HOME/bytecode``, for processes that
Python tells to write no bytecode.

Containers and agent sandboxes often set ``PYTHONDONTWRITEBYTECODE``, and an editable install
then never gets a ``__pycache__``: every ``witness check`` or ``witness hook`` process, one per
tool call, compiles the thousands of lines it loads, which takes longer than everything else it
does (``benchmarks/startup_bench.py`` measures both). The ``witness`` console script then keeps
compiled copies of the modules of *its own* packages in its state directory — never beside the
sources, never for any other package — and validates them as CPython validates ``__pycache__``
(PEP 552 timestamp header: the interpreter's magic number, the source's modification time and
size), so an edited source is compiled afresh. A valid ``__pycache__`` copy, where one exists,
is still preferred. ``WITNESS_BYTECODE_CACHE=0`` turns the copies off; a directory that cannot be
written only means compiling, as before. A program that imports witness as a library is never
affected: only :func:`advisor.cli.main` run as the console script installs the finder.
"""

from __future__ import annotations

import marshal
import os
import sys

# `importlib.util` re-exports these two; importing it loads `contextlib` and `functools`, which
# the hook path otherwise never needs.
from importlib._bootstrap_external import MAGIC_NUMBER, cache_from_source
from importlib.machinery import SourceFileLoader

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


def install(directory: str) -> bool:
    """Keep compiled copies under ``directory`` for the rest of this process, if Python writes no
    bytecode of its own and the copies are not switched off; return whether they are kept."""
    if not sys.dont_write_bytecode or os.environ.get(SWITCH, "").strip().lower() in _OFF:
        return False
    if not installed():
        sys.meta_path.insert(0, CopiesFinder(directory))
    return True


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
    """A source loader whose bytecode, when no valid ``__pycache__`` copy exists, is read from and
    written to a mirror of the source's path under a directory of its own."""

    def __init__(self, fullname: str, path: str, *, directory: str) -> None:
        super().__init__(fullname, path)
        self.directory = directory

    def get_code(self, fullname: str) -> CodeType:
        source_path = self.get_filename(fullname)
        header = _header(os.stat(source_path))
        copy = self.copy_path(source_path)
        for candidate in (cache_from_source(source_path), copy):
            code = _read(candidate, header)
            if code is not None:
                return code
        code = self.source_to_code(self.get_data(source_path), source_path)
        _write(copy, header + marshal.dumps(code), root=self.directory)
        return code

    def copy_path(self, source_path: str) -> str:
        """Where the compiled copy of ``source_path`` is kept: its absolute path mirrored under
        the directory, named as ``__pycache__`` names it for this interpreter and optimisation
        level (code compiled under ``-O`` has no asserts, and must not run without it)."""
        drive, rest = os.path.splitdrive(os.path.abspath(source_path))
        stem = os.path.splitext(rest.lstrip("\\/"))[0]
        tag = sys.implementation.cache_tag or "python"
        level = f".opt-{sys.flags.optimize}" if sys.flags.optimize else ""
        return os.path.join(self.directory, drive.strip(":\\/"), f"{stem}.{tag}{level}.pyc")


def _header(stat: os.stat_result) -> bytes:
    """The 16-byte header of a timestamp-validated ``.pyc`` of a source with this ``stat``."""
    mtime, size = int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF
    return MAGIC_NUMBER + bytes(4) + mtime.to_bytes(4, "little") + size.to_bytes(4, "little")


def _read(path: str | None, header: bytes) -> CodeType | None:
    """The code in the ``.pyc`` at ``path`` if its header is ``header``; ``None`` if it is missing,
    stale, written by another interpreter or damaged."""
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if data[:16] != header:
        return None
    try:
        code = marshal.loads(memoryview(data)[16:])
    except (EOFError, ValueError, TypeError):
        return None
    return code if type(code) is type(_read.__code__) else None


def _write(path: str, data: bytes, *, root: str) -> None:
    """Write ``data`` to ``path`` whole or not at all (concurrent processes may read it meanwhile),
    under a ``root`` only its owner can enter."""
    partial = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(data)
        os.replace(partial, path)
    except OSError:  # a read-only or full state directory: the module was compiled all the same
        try:  # noqa: SIM105 (`contextlib` is not loaded on the hook path)
            os.unlink(partial)
        except OSError:
            pass


def installed(meta_path: Sequence[object] | None = None) -> bool:
    """Whether this process keeps compiled copies (a finder of this module is on ``sys.meta_path``)."""
    return any(isinstance(finder, CopiesFinder) for finder in (sys.meta_path if meta_path is None else meta_path))
