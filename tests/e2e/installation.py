"""The agent hosts the end-to-end suite runs, installed from the npm registry at pinned versions.

``hosts/package.json`` pins Claude Code, the Codex CLI and Pi; ``hosts/package-lock.json`` pins
everything they bring. :func:`install_hosts` runs ``npm ci`` into a cache folder named after the
lock file's digest, so a machine installs each lock file once and every later run (and every
pytest-xdist worker) reuses it; a file lock keeps two workers from installing at once. A failed
install raises :class:`HostInstallError` with npm's own output: the suite fails, it never skips.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

HOSTS_DIR = Path(__file__).resolve().parent / "hosts"
"""Where the pinned ``package.json`` and ``package-lock.json`` live."""
CACHE_ENV = "WITNESS_E2E_CACHE"
"""Environment variable naming the folder installs are cached in (default:
``$XDG_CACHE_HOME/witness-e2e``, else ``~/.cache/witness-e2e``)."""
NPM_TIMEOUT = 900.0
"""Seconds ``npm ci`` may take (about 40 s here for a fresh install of all three hosts)."""


class HostInstallError(RuntimeError):
    """The pinned hosts could not be installed; the message carries npm's output."""


@dataclass(frozen=True)
class HostInstall:
    """One installed copy of the pinned hosts."""

    root: Path
    """The folder ``npm ci`` ran in (holds ``node_modules``)."""
    versions: dict[str, str]
    """Installed version of each pinned package, by package name."""

    def bin(self, name: str) -> Path:
        """The executable an installed package puts in ``node_modules/.bin``."""
        path = self.root / "node_modules" / ".bin" / name
        if not path.exists():
            raise HostInstallError(f"{path} is missing: the install in {self.root} is incomplete")
        return path


def cache_root() -> Path:
    """The folder installs are cached in."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "witness-e2e"


def lock_digest(hosts_dir: Path = HOSTS_DIR) -> str:
    """A short digest of the lock file: an install is reused exactly while it is unchanged."""
    return hashlib.sha256((hosts_dir / "package-lock.json").read_bytes()).hexdigest()[:16]


def install_hosts(hosts_dir: Path = HOSTS_DIR, cache: Path | None = None) -> HostInstall:
    """The pinned hosts, installed with ``npm ci`` unless this lock file is installed already."""
    target = (cache or cache_root()) / f"hosts-{lock_digest(hosts_dir)}"
    target.mkdir(parents=True, exist_ok=True)
    done = target / ".installed"
    with (target / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            _npm_ci(hosts_dir, target)
            done.write_text(lock_digest(hosts_dir) + "\n", encoding="utf-8")
    return HostInstall(root=target, versions=_versions(hosts_dir, target))


def _npm_ci(hosts_dir: Path, target: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise HostInstallError("npm is not on PATH: the end-to-end suite installs the agent hosts with it")
    shutil.rmtree(target / "node_modules", ignore_errors=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(hosts_dir / name, target / name)
    # Claude Code's install script copies its native binary into place; it must run.
    command = [npm, "ci", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error"]
    try:
        result = subprocess.run(command, cwd=target, capture_output=True, text=True, timeout=NPM_TIMEOUT,
                                check=False)
    except subprocess.TimeoutExpired as error:
        raise HostInstallError(f"`npm ci` in {target} did not finish in {NPM_TIMEOUT:.0f} s") from error
    if result.returncode != 0:
        raise HostInstallError(f"`npm ci` in {target} exited {result.returncode}:\n{result.stdout}{result.stderr}")


def _versions(hosts_dir: Path, target: Path) -> dict[str, str]:
    pinned = json.loads((hosts_dir / "package.json").read_text(encoding="utf-8"))["dependencies"]
    versions = {}
    for name in pinned:
        manifest = target / "node_modules" / name / "package.json"
        if not manifest.exists():
            raise HostInstallError(f"{name} is not installed in {target}")
        versions[name] = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    return versions
