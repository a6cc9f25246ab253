"""The workspace tools against what a workspace can hold: hard links, named pipes, sockets, devices,
credential files under every disguise, glob and pattern bombs, trees too large to walk."""

from __future__ import annotations

import os
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.consult import ConsultSettings, Investigation, ToolOutcome
from advisor.consult import _tool_search as search
from advisor.consult._walk import WalkBounds
from advisor.models import ToolCall

SECRET_OUTSIDE = "OUTSIDE-CONTENT-7f3a"
SECRET_DENIED = "DENIED-CONTENT-91bc"


def run(root: Path, name: str, **arguments: Any) -> ToolOutcome:
    """One tool call in ``root``, as the advisor makes it."""
    return Investigation(root, settings=ConsultSettings()).run(ToolCall(id="1", name=name, arguments=arguments))


def finishes(root: Path, name: str, **arguments: Any) -> ToolOutcome:
    """The call's outcome, or a failure if it does not return (a tool waiting on a pipe never would)."""
    box: list[ToolOutcome] = []
    worker = threading.Thread(target=lambda: box.append(run(root, name, **arguments)), daemon=True)
    worker.start()
    worker.join(120)
    assert box, f"{name}({arguments}) never returned"
    return box[0]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace beside an outside directory holding a secret."""
    root, outside = tmp_path / "ws", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "credentials").write_text(SECRET_OUTSIDE + "\n")
    (root / "app.py").write_text("print('hello')\n")
    return root


def test_a_hard_link_to_a_file_outside_is_never_read(workspace: Path) -> None:
    """An innocent name that is a hard link to a file outside is refused by `read`, skipped by `grep`."""
    os.link(workspace.parent / "outside" / "credentials", workspace / "notes.txt")
    outcome = run(workspace, "read", path="notes.txt")
    assert outcome.is_error and "hard links" in outcome.text and SECRET_OUTSIDE not in outcome.text
    found = run(workspace, "grep", pattern="CONTENT")
    assert SECRET_OUTSIDE not in found.text and "1 file(s) not read" in found.text


def test_a_hard_link_to_a_denied_file_is_never_read(workspace: Path) -> None:
    """An innocent name hard-linked to the workspace's own `.env` is refused: one of its names is denied."""
    (workspace / ".env").write_text(SECRET_DENIED + "\n")
    os.link(workspace / ".env", workspace / "settings.txt")
    assert run(workspace, "read", path="settings.txt").is_error
    assert SECRET_DENIED not in run(workspace, "grep", pattern="CONTENT").text


def test_a_hard_link_whose_names_are_all_inside_and_allowed_is_read(workspace: Path) -> None:
    """When every name of a hard-linked file is in the workspace and allowed, it is read."""
    (workspace / "a.txt").write_text("shared text\n")
    os.link(workspace / "a.txt", workspace / "b.txt")
    assert run(workspace, "read", path="b.txt").text == "shared text\n"


def test_named_pipes_and_sockets_are_never_opened(workspace: Path) -> None:
    """A FIFO (even as `.gitignore`) and a socket: `read` refuses them at once, walks pass them by, `ls`
    withholds them — nothing waits for a writer."""
    os.mkfifo(workspace / "pipe")
    os.mkfifo(workspace / ".gitignore")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(workspace / "sock"))
    try:
        refused = finishes(workspace, "read", path="pipe")
        assert refused.is_error and "a named pipe, not a regular file" in refused.text
        assert "a socket" in finishes(workspace, "read", path="sock").text
        assert finishes(workspace, "grep", pattern="hello").text == "app.py:1: print('hello')"
        assert finishes(workspace, "find", pattern="*").text == "app.py"
        assert finishes(workspace, "ls").text.splitlines()[0] == "app.py"
    finally:
        server.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_is_never_read(workspace: Path) -> None:
    """A character device in the workspace (a copy of /dev/zero) is refused, never read without end."""
    os.mknod(workspace / "zero", 0o644 | stat.S_IFCHR, os.makedev(1, 5))
    assert "a device" in finishes(workspace, "read", path="zero").text
    assert finishes(workspace, "grep", pattern="x").text == "(no matches)"


@pytest.mark.parametrize("name", [".netrc", "_netrc", ".npmrc", ".yarnrc.yml", ".pypirc", ".git-credentials",
                                  ".git/config", ".aws/credentials", ".azure/accessTokens.json",
                                  ".config/gcloud/credentials.db", "home/.config/gcloud/adc.json",
                                  ".docker/config.json", ".kube/config", "kubeconfig.yaml", "id_ed25519",
                                  "keys/id_ecdsa", "server.PEM", "tls.key", "store.p12", "a.pfx", "app.jks",
                                  "release.keystore", "credentials.json", "credentials-prod.json",
                                  "service-account-ci.json", ".terraform/terraform.tfstate", "prod.tfstate",
                                  "prod.tfstate.backup", ".vault-token", "secrets.yaml", "Secrets.JSON", ".ENV",
                                  ".ssh/known_hosts"])
def test_credential_files_are_refused_by_every_tool(workspace: Path, name: str) -> None:
    """Each credential-shaped file: `read` refuses it, `grep`, `find` and `ls` never show it, whatever its case,
    and a symlink to it is refused too."""
    path = workspace / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SECRET_DENIED + "\n")
    (workspace / "innocent.txt").symlink_to(path)
    for given in (name, "innocent.txt"):
        outcome = run(workspace, "read", path=given)
        assert outcome.is_error and SECRET_DENIED not in outcome.text
    assert SECRET_DENIED not in run(workspace, "grep", pattern="CONTENT").text
    assert name.rsplit("/", 1)[-1] not in run(workspace, "find", pattern="**").text
    for folder, _, _ in os.walk(workspace):
        listing = run(workspace, "ls", path=os.path.relpath(folder, workspace))
        assert listing.is_error or not set(listing.text.splitlines()) & {Path(name).name, Path(name).name + "/"}


def test_configured_deny_patterns_add_to_the_defaults(workspace: Path) -> None:
    """`deny_patterns = ["*.secret"]` refuses `*.secret` files, and `.env` stays refused."""
    (workspace / "token.secret").write_text(SECRET_DENIED)
    (workspace / ".env").write_text(SECRET_DENIED)
    investigation = Investigation(workspace, settings=ConsultSettings(deny_patterns=("*.secret",)))
    for path in ("token.secret", ".env"):
        assert investigation.run(ToolCall(id="1", name="read", arguments={"path": path})).is_error


@pytest.mark.parametrize(("name", "arguments"), [
    ("find", {"pattern": "{1..100000}"}), ("find", {"pattern": "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}"}),
    ("grep", {"pattern": "x", "glob": "src/{1..100000}/*.py"}), ("grep", {"pattern": "(" * 5000}),
    ("grep", {"pattern": "a{99999999999}"}), ("find", {"pattern": "[" * 3000}),
])
def test_pattern_bombs_are_error_results(workspace: Path, name: str, arguments: dict[str, Any]) -> None:
    """Globs that expand past their limit and patterns that cannot compile are error results, never an exception."""
    outcome = run(workspace, name, **arguments)
    assert outcome.is_error and "unexpectedly" not in outcome.text


@pytest.fixture
def many(tmp_path: Path) -> Iterator[Path]:
    """A workspace of 3,000 files in 30 directories."""
    root = tmp_path / "many"
    for folder in range(30):
        (root / f"d{folder:02}").mkdir(parents=True)
        for number in range(100):
            (root / f"d{folder:02}" / f"f{number:03}.txt").write_text("needle\n")
    yield root


def test_a_walk_stops_at_its_entry_bound_and_says_so(many: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the walk's entry bound `find` and `grep` stop and say where, instead of walking on."""
    monkeypatch.setattr(search, "WALK", WalkBounds(entries=1_000))
    found = run(many, "find", pattern="*.txt").text
    assert found.endswith("[stopped after 1,000 entries; narrow the path]") and found.count(".txt") < 1_000
    assert run(many, "grep", pattern="absent").text == "(no matches)\n[stopped after 1,000 entries; narrow the path]"


def test_a_walk_stops_at_its_time_bound_and_says_so(many: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the walk's time bound (here none at all) `find` stops and says so."""
    monkeypatch.setattr(search, "WALK", WalkBounds(seconds=0))
    assert run(many, "find", pattern="*.txt").text.endswith("[stopped after 0 seconds; narrow the path]")
