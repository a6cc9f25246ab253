"""The directory the advisor may look at, and the files in it it may never see.

Paths given by the advisor resolve inside the workspace: relative to its root or absolute
inside it, symlinks resolved (an existing link and a link above a file that does not exist
yet alike), so ``..``, absolute paths elsewhere and symlinks that lead out are refused.
Credential-shaped files are refused by every tool, whether named directly, reached through a
symlink or a hard link, or met while listing or searching a directory.

Deny patterns are globs (``*`` and ``?`` stay within one path segment, ``**`` crosses them)
matched, case-insensitively, against every segment of the path (``.env`` also refuses
``config/.env`` and everything under a ``.env/`` directory) or, for a pattern with a ``/``,
against the workspace-relative path and each of its leading parts. The defaults
(:data:`DEFAULT_DENY`) always apply: configured patterns are added to them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from wcmatch import fnmatch, glob

from advisor.consult._files import LinkIndex, read_regular
from advisor.errors import ToolFailure, WorkspaceError

DEFAULT_DENY: tuple[str, ...] = (
    ".env", ".env.*", ".netrc", "_netrc", ".npmrc", ".yarnrc.yml", ".pypirc", ".git-credentials", ".pgpass",
    ".vault-token", ".git", ".ssh", ".gnupg", ".aws", ".azure", "**/.config/gcloud", "**/.docker/config.json",
    ".kube", "kubeconfig*", ".terraform", "*.tfstate", "*.tfstate.*", "id_rsa*", "id_dsa*", "id_ecdsa*",
    "id_ed25519*", "id_xmss*", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "credentials*.json",
    "service-account*.json", "secrets.*", ".credentials.json", "**/.codex/auth.json", "**/.config/gh/hosts.yml",
    "**/.cargo/credentials", "**/.cargo/credentials.toml", "**/.gem/credentials", ".*_history", ".my.cnf",
    ".s3cfg", ".boto", ".dockercfg", "*.ppk", ".htpasswd", ".password-store",
)
"""Credential-shaped files and directories, refused by every tool: dotenv files; .netrc, npm, yarn and
PyPI credentials; git's credential store and everything under ``.git`` (its configuration among it);
SSH and GnuPG directories; AWS, Azure, gcloud, docker and kube configuration; Terraform state and its
directory; SSH private keys; PEM, PKCS#12, Java keystores; credential and service-account JSON;
``secrets.*``; a Vault token; what a home directory holds besides (a session started there makes it the
workspace): the coding agents' own credentials (Claude Code's ``.credentials.json``, Codex's
``.codex/auth.json``), the GitHub CLI's ``hosts.yml``, cargo's and RubyGems' credentials, shell and
REPL histories (``.*_history``), MySQL's ``.my.cnf``, s3cmd's and boto's
configuration, docker's old ``.dockercfg``, PuTTY keys, ``.htpasswd`` and a ``pass`` store."""

_NAME_FLAGS = fnmatch.IGNORECASE | fnmatch.DOTMATCH
_PATH_FLAGS = glob.IGNORECASE | glob.DOTGLOB | glob.GLOBSTAR


def deny_patterns(configured: Iterable[str] = ()) -> tuple[str, ...]:
    """The patterns in force: the defaults, then each configured one they do not already hold (a
    configured list adds to the defaults; it never removes one)."""
    return tuple(dict.fromkeys((*DEFAULT_DENY, *configured)))


def _matcher(patterns: list[str], translate: Callable[..., tuple[list[str], list[str]]],
             flags: int) -> re.Pattern[str] | None:
    """One regular expression for a list of globs (matched once per name, not once per glob)."""
    if not patterns:
        return None
    included, _ = translate(patterns, flags=flags)
    return re.compile("|".join(included))


def _homes() -> set[Path]:
    """The user's home directory, as ``$HOME`` and as the password database name it."""
    homes = {os.path.expanduser("~")}
    try:
        import pwd

        homes.add(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):  # no password database (Windows), or no entry for this user
        pass
    return {Path(os.path.realpath(home)) for home in homes if home and home != "~"}


def too_wide(root: Path | str) -> str | None:
    """Why a directory cannot be the workspace (``None``: it can): the file system's root, the user's home or a
    directory above it holds every project and every credential file of the user, far more than a deny list can name (a
    session started there would otherwise make it the workspace)."""
    real = Path(os.path.realpath(root))
    if real.parent == real:
        return f"the workspace {root} is the root of the file system: the advisor's tools would see every file"
    for home in _homes():
        if real == home:
            return f"the workspace {root} is the home directory: the advisor's tools would see every project in it"
        if real in home.parents:
            return f"the workspace {root} holds the home directory {home}: the advisor's tools would see all of it"
    return None


def session_workspace(cwd: str | None) -> Path | None:
    """A session's working directory as the tools' workspace: ``None`` (no workspace tools) when there is none,
    it is not a directory here, or it is too wide to be one (:func:`too_wide`)."""
    if not cwd or not os.path.isdir(cwd) or too_wide(cwd) is not None:
        return None
    return Path(cwd)


class Workspace:
    """A workspace root and its deny patterns."""

    def __init__(self, root: Path | str, deny: Iterable[str] = DEFAULT_DENY) -> None:
        """Raises :class:`~advisor.errors.WorkspaceError` if ``root`` is not a directory, or is the file system's
        root or the home directory (:func:`too_wide`). ``deny`` adds to :data:`DEFAULT_DENY`."""
        real = Path(os.path.realpath(root))
        if not real.is_dir():
            raise WorkspaceError(f"the workspace {root} is not a directory")
        if (reason := too_wide(real)) is not None:
            raise WorkspaceError(f"{reason} (name a project's directory)")
        self.root = real
        """The resolved root."""
        self.deny: tuple[str, ...] = deny_patterns(deny)
        """The deny patterns in force."""
        self._names = _matcher([p for p in self.deny if "/" not in p], fnmatch.translate, _NAME_FLAGS)
        self._paths = _matcher([p for p in self.deny if "/" in p], glob.translate, _PATH_FLAGS)
        self._links = LinkIndex(real, self.denied)

    def relative(self, path: Path) -> str:
        """``path`` (inside the workspace) relative to the root, POSIX style (``.`` for the root)."""
        return PurePosixPath(*path.relative_to(self.root).parts).as_posix() if path != self.root else "."

    def denied(self, relative: str) -> bool:
        """Whether a workspace-relative path is credential-shaped (or under such a directory)."""
        if relative in ("", "."):
            return False
        parts = PurePosixPath(relative).parts
        return any(self.denied_last("/".join(parts[: i + 1])) for i in range(len(parts)))

    def denied_last(self, relative: str) -> bool:
        """Whether a path is denied by its last segment or by its whole (its parents already allowed:
        what a walk going down asks)."""
        name = relative.rsplit("/", 1)[-1]
        return bool((self._names is not None and self._names.match(name))
                    or (self._paths is not None and "/" in relative and self._paths.match(relative)))

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

    def read(self, path: Path | str, *, limit: int, shown: str) -> bytes:
        """The bytes of a resolved path's file (at most ``limit``), read only when it is a regular file
        whose every name is in the workspace and allowed; :class:`ToolFailure` naming ``shown`` else."""
        return read_regular(path, limit=limit, links=self._links, shown=shown)

    def every_name_allowed(self, info: os.stat_result) -> bool:
        """Whether every name of a file (by its ``stat``) is in the workspace and allowed: always for a
        file of one name, and for a hard-linked one when all its names are found so."""
        return info.st_nlink <= 1 or self._links.proven(info)

    def inside(self, path: Path) -> bool:
        """Whether ``path`` resolves (symlinks followed) inside the workspace to a file not denied."""
        real = Path(os.path.realpath(path))
        return (real.is_relative_to(self.root) and not _unresolved(real, self.root)
                and not self.denied(self.relative(real)))


def _unresolved(real: Path, root: Path) -> bool:
    """Whether a realpath result still holds a symlink below ``root`` (it stopped at a loop)."""
    return any(part.is_symlink() for part in (real, *real.parents) if part.is_relative_to(root) and part != root)
