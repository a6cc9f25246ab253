"""Workspace confinement and credential-shaped files (reference cases PATH-1…7, DENY-1…11)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.consult import DEFAULT_DENY, Workspace, session_workspace
from advisor.errors import ToolFailure, WorkspaceError


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with a file, a nested directory and a symlink to a directory outside it."""
    root, outside = tmp_path / "ws", tmp_path / "outside"
    (root / "nested").mkdir(parents=True)
    outside.mkdir()
    (root / "app.ts").write_text("code")
    (outside / "secrets.txt").write_text("TOP SECRET")
    (root / "escape").symlink_to(outside)
    return root, outside


def test_inside_paths_resolve(tree: tuple[Path, Path]) -> None:
    """Relative, absolute-inside and not-yet-existing paths resolve inside the workspace (PATH-1, 2, 3)."""
    root, _ = tree
    workspace = Workspace(root)
    assert workspace.resolve("app.ts") == root.resolve() / "app.ts"
    assert workspace.resolve(str(root / "app.ts")) == root.resolve() / "app.ts"
    assert workspace.resolve("nested/new-file.ts") == root.resolve() / "nested" / "new-file.ts"
    assert workspace.resolve("nested/../app.ts") == root.resolve() / "app.ts"


@pytest.mark.parametrize("given", ["../../etc/passwd", "escape/secrets.txt", "escape/not-created-yet.txt",
                                   "nested/../../outside/secrets.txt"])
def test_escapes_are_refused(tree: tuple[Path, Path], given: str) -> None:
    """`..`, and symlinks leading out (to a file that exists or not) are refused (PATH-4, 6, 7)."""
    with pytest.raises(ToolFailure, match="Path is outside the workspace: " + given.replace(".", r"\.")):
        Workspace(tree[0]).resolve(given)


def test_a_symlink_loop_cannot_hide_an_escape(tree: tuple[Path, Path]) -> None:
    """`loop/../up/x` is refused: realpath stops at the loop and would leave `up` (a link out) unresolved."""
    # Found by test_resolution_never_escapes_or_reveals.
    root, outside = tree
    (root / "loop").symlink_to(root / "loop")
    (root / "up").symlink_to(outside)
    with pytest.raises(ToolFailure, match="symlink loop"):
        Workspace(root).resolve("loop/../up/secrets.txt")


def test_absolute_path_elsewhere_is_refused(tree: tuple[Path, Path]) -> None:
    """An absolute path in another directory is refused (PATH-5)."""
    with pytest.raises(ToolFailure, match="outside"):
        Workspace(tree[0]).resolve(str(tree[1] / "secrets.txt"))


@pytest.mark.parametrize("name", [".env", ".env.local", "server.pem", "id_rsa", "cert.key", "nested/.env",
                                  "id_rsa.pub", "config/.env.example", "keys/prod.p12", "a.pfx", ".ENV",
                                  "Server.PEM", ".env/inside.txt"])
def test_credential_shaped_paths_are_denied(tree: tuple[Path, Path], name: str) -> None:
    """Credential files are refused at any depth, under such directories, and whatever their case (DENY-1…8)."""
    # Case is ignored on purpose: on macOS and Windows `.ENV` is the file `.env` (the reference's DENY-8
    # matches case-sensitively and would let it through).
    with pytest.raises(ToolFailure, match="denied to the advisor by policy"):
        Workspace(tree[0]).resolve(name)


@pytest.mark.parametrize("name", ["environment.ts", ".envrc", "env", "keys.md", "pem.txt", "nested/id.txt"])
def test_similar_names_are_allowed(tree: tuple[Path, Path], name: str) -> None:
    """Names that only look alike are allowed (DENY-3, 5)."""
    Workspace(tree[0]).resolve(name)


def test_symlink_to_a_denied_file_is_denied(tree: tuple[Path, Path]) -> None:
    """An innocent name that links to `.env` is refused by what it resolves to."""
    root, _ = tree
    (root / ".env").write_text("API_KEY=live")
    (root / "notes.txt").symlink_to(root / ".env")
    with pytest.raises(ToolFailure, match="denied"):
        Workspace(root).resolve("notes.txt")


def test_configured_patterns_add_to_the_defaults(tree: tuple[Path, Path]) -> None:
    """A configured list adds to the defaults: `secrets/*` refuses by path, and `.env` stays refused (DENY-9)."""
    workspace = Workspace(tree[0], deny=["secrets/*"])
    with pytest.raises(ToolFailure, match="denied"):
        workspace.resolve("secrets/a.txt")
    with pytest.raises(ToolFailure, match="denied"):
        workspace.resolve(".env")
    workspace.resolve("other/secrets/a.txt")
    assert Workspace(tree[0], deny=[]).deny == DEFAULT_DENY


def test_workspace_must_be_a_directory(tmp_path: Path) -> None:
    """A workspace that is not a directory is a WorkspaceError."""
    with pytest.raises(WorkspaceError, match="not a directory"):
        Workspace(tmp_path / "missing")


SEGMENTS = st.sampled_from(["..", ".", "a", "b", "link", "up", "loop", ".env", "x.pem", "", "a/../.."])


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(SEGMENTS, min_size=1, max_size=6), st.booleans())
def test_resolution_never_escapes_or_reveals(tree: tuple[Path, Path], parts: list[str], absolute: bool) -> None:
    """Any path (`..`, links out, loops, absolute) resolves to a real allowed path inside, or is refused."""
    root, _ = tree
    real = root.resolve()
    if not (root / "a").exists():
        (root / "a" / "b").mkdir(parents=True)
        (root / "link").symlink_to(root / "a")
        (root / "up").symlink_to(root.parent)
        (root / "loop").symlink_to(root / "loop")
    given_path = "/".join(parts)
    if absolute:
        given_path = os.path.join(str(root), given_path)
    workspace = Workspace(root)
    try:
        resolved = workspace.resolve(given_path)
    except ToolFailure:
        return
    assert resolved == Path(os.path.realpath(resolved)) and resolved.is_relative_to(real)
    assert not workspace.denied(workspace.relative(resolved))


def test_default_patterns_are_the_credential_shapes() -> None:
    """The defaults hold the seed's seven and every credential file the advisor must not read."""
    assert {".env", ".env.*", "*.pem", "*.key", "id_rsa*", "*.p12", "*.pfx", ".netrc", "_netrc", ".npmrc",
            ".yarnrc.yml", ".pypirc", ".git-credentials", ".git", ".aws", ".azure", "**/.config/gcloud",
            "**/.docker/config.json", ".kube", "kubeconfig*", "id_ed25519*", "*.jks", "*.keystore",
            "credentials*.json", "service-account*.json", ".terraform", "*.tfstate", ".vault-token",
            "secrets.*"} <= set(DEFAULT_DENY)


@pytest.mark.parametrize("which", ["root", "home", "above home"])
def test_the_file_systems_root_and_the_home_directory_are_refused_as_workspaces(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: str) -> None:
    """`/`, the home directory and a directory above it hold every project and credential of the user: each is
    refused with a message saying which it is; a project inside the home directory is a workspace."""
    home = tmp_path / "users" / "me"
    (home / "project").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    root = {"root": Path("/"), "home": home, "above home": tmp_path / "users"}[which]
    with pytest.raises(WorkspaceError, match={"root": "root of the file system", "home": "is the home directory",
                                              "above home": "holds the home directory"}[which]):
        Workspace(root)
    assert session_workspace(str(root)) is None
    assert Workspace(home / "project").root == (home / "project").resolve()
    assert session_workspace(str(home / "project")) == home / "project"
