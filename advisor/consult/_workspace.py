"""The directory the advisor may look at, and the files in it it may never see.

Paths given by the advisor resolve inside the workspace: relative to its root or absolute
inside it, symlinks resolved (an existing link and a link above a file that does not exist
yet alike), so ``..``, absolute paths elsewhere and symlinks that lead out are refused.
Credential-shaped files are refused by every tool, whether named directly, reached through a
symlink, or met while listing or searching a directory.

Deny patterns are globs (``*`` and ``?`` stay within one path segment, ``**`` crosses them)
matched, case-insensitively, against every segment of the path (``.env`` also refuses
``config/.env`` and everything under a ``.env/`` directory) or, for a pattern with a ``/``,
against the workspace-relative path.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path, PurePosixPath

from wcmatch import fnmatch, glob

from advisor.consult._ignore import Ignores
from advisor.errors import WorkspaceError

DEFAULT_DENY: tuple[str, ...] = (".env", ".env.*", "*.pem", "*.key", "id_rsa*", "*.p12", "*.pfx")
"""Credential-shaped files (dotenv files, private keys and certificate stores)."""

_NAME_FLAGS = fnmatch.IGNORECASE | fnmatch.DOTMATCH
_PATH_FLAGS = glob.IGNORECASE | glob.DOTGLOB | glob.GLOBSTAR


class ToolFailure(Exception):
    """A tool call that cannot be carried out (a refused path, a bad pattern …); its message is the
    error result the advisor sees."""


class Workspace:
    """A workspace root and its deny patterns."""

    def __init__(self, root: Path | str, deny: Iterable[str] = DEFAULT_DENY) -> None:
        """Raises :class:`~advisor.errors.WorkspaceError` if ``root`` is not a directory."""
        real = Path(os.path.realpath(root))
        if not real.is_dir():
            raise WorkspaceError(f"the workspace {root} is not a directory")
        self.root = real
        """The resolved root."""
        self.deny: tuple[str, ...] = tuple(deny)
        """The deny patterns in force."""
        self._names = [p for p in self.deny if "/" not in p]
        self._paths = [p for p in self.deny if "/" in p]

    def relative(self, path: Path) -> str:
        """``path`` (inside the workspace) relative to the root, POSIX style (``.`` for the root)."""
        return PurePosixPath(*path.relative_to(self.root).parts).as_posix() if path != self.root else "."

    def denied(self, relative: str) -> bool:
        """Whether a workspace-relative path is credential-shaped (or under such a directory)."""
        if relative in ("", "."):
            return False
        parts = PurePosixPath(relative).parts
        if any(fnmatch.fnmatch(part, self._names, flags=_NAME_FLAGS) for part in parts):
            return True
        prefixes = ("/".join(parts[: i + 1]) for i in range(len(parts)))
        return any(glob.globmatch(prefix, self._paths, flags=_PATH_FLAGS) for prefix in prefixes)

    def resolve(self, given: str) -> Path:
        """The real path for an argument the advisor gave; :class:`ToolFailure` if it leads outside
        the workspace or to a denied file (by its own name or by the name it resolves to)."""
        if "\x00" in given:
            raise ToolFailure(f"Path is not valid: {given!r}")
        candidate = Path(given) if os.path.isabs(given) else self.root / given
        real = Path(os.path.realpath(candidate))
        if not real.is_relative_to(self.root):
            raise ToolFailure(f"Path is outside the workspace: {given}")
        if _unresolved(real, self.root):
            # realpath gives up on a symlink loop and appends the rest unresolved, so a link
            # after the loop (`loop/../up/x`) could still lead out: refuse what it left.
            raise ToolFailure(f"Path goes through a symlink loop: {given}")
        lexical = os.path.normpath(candidate)
        named = os.path.relpath(lexical, self.root).replace(os.sep, "/")
        if self.denied(self.relative(real)) or (not named.startswith("..") and self.denied(named)):
            raise ToolFailure(f"Path is denied to the advisor by policy: {given}")
        return real

    def inside(self, path: Path) -> bool:
        """Whether ``path`` resolves (symlinks followed) inside the workspace to a file not denied."""
        real = Path(os.path.realpath(path))
        return (real.is_relative_to(self.root) and not _unresolved(real, self.root)
                and not self.denied(self.relative(real)))


def _unresolved(real: Path, root: Path) -> bool:
    """Whether a realpath result still holds a symlink below ``root`` (it stopped at a loop)."""
    return any(part.is_symlink() for part in (real, *real.parents) if part.is_relative_to(root) and part != root)


def deny_patterns(configured: Sequence[str] | None) -> tuple[str, ...]:
    """The patterns in force: a configured list replaces the defaults (an empty list denies nothing)."""
    return DEFAULT_DENY if configured is None else tuple(configured)


def walk(workspace: Workspace, start: Path, limit: int) -> Iterator[tuple[Path, bool]]:
    """``(path, is_dir)`` for everything under ``start``, top-down and sorted, not following
    symlinked directories, skipping ``.git``, ``.gitignore``-d paths and denied ones; at most
    ``limit`` entries."""
    ignores = Ignores(workspace.root)
    count = 0
    for folder, dirs, files in os.walk(start):
        here = Path(folder)
        ignores.enter(here)
        dirs[:] = sorted(d for d in dirs if d != ".git" and _visible(workspace, ignores, here / d, True))
        entries = [(here / d, True) for d in dirs] + [(here / f, False) for f in sorted(files)
                                                        if _visible(workspace, ignores, here / f, False)]
        for entry in entries:
            count += 1
            if count > limit:
                return
            yield entry


def _visible(workspace: Workspace, ignores: Ignores, path: Path, is_dir: bool) -> bool:
    relative = workspace.relative(path)
    if workspace.denied(relative) or ignores.ignored(path, is_dir):
        return False
    return not path.is_symlink() or workspace.inside(path)
