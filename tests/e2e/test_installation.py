"""Installing the pinned hosts: once per lock file, reused after, and a loud failure when npm cannot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.installation import HOSTS_DIR, HostInstallError, install_hosts, lock_digest

pytestmark = pytest.mark.slow


def hosts_dir(tmp_path: Path, dependencies: dict[str, str], locked: dict[str, str]) -> Path:
    """A package.json with ``dependencies`` and a lock file that pins ``locked``."""
    folder = tmp_path / "hosts"
    folder.mkdir()
    (folder / "package.json").write_text(json.dumps({"name": "h", "private": True, "dependencies": dependencies}))
    packages = {"": {"name": "h", "dependencies": locked}}
    (folder / "package-lock.json").write_text(json.dumps({"name": "h", "lockfileVersion": 3, "requires": True,
                                                          "packages": packages}))
    return folder


def test_pinned_versions_match_the_lock_file() -> None:
    """package.json pins exact versions, and the lock file installs exactly those."""
    pinned = json.loads((HOSTS_DIR / "package.json").read_text())["dependencies"]
    lock = json.loads((HOSTS_DIR / "package-lock.json").read_text())["packages"]
    assert all(version[0].isdigit() for version in pinned.values()), pinned
    assert {name: lock[f"node_modules/{name}"]["version"] for name in pinned} == pinned


def test_an_installed_lock_file_is_reused(tmp_path: Path) -> None:
    """A cache folder already holding this lock file's install is used as it is: npm does not run again."""
    folder = hosts_dir(tmp_path, {"pkg": "1.0.0"}, {"pkg": "1.0.0"})
    target = tmp_path / "cache" / f"hosts-{lock_digest(folder)}"
    (target / "node_modules" / "pkg").mkdir(parents=True)
    (target / "node_modules" / "pkg" / "package.json").write_text('{"version": "1.0.0"}')
    (target / ".installed").write_text("done\n")
    install = install_hosts(folder, cache=tmp_path / "cache")
    assert install.root == target and install.versions == {"pkg": "1.0.0"}


def test_a_failed_install_is_an_error_with_npms_words(tmp_path: Path) -> None:
    """A lock file out of step with package.json makes `npm ci` fail, and the suite fails with npm's message."""
    folder = hosts_dir(tmp_path, {"pkg": "1.0.0"}, {"other": "2.0.0"})
    with pytest.raises(HostInstallError, match="npm ci") as raised:
        install_hosts(folder, cache=tmp_path / "cache")
    assert "exited" in str(raised.value)
    assert not (tmp_path / "cache" / f"hosts-{lock_digest(folder)}" / ".installed").exists()
