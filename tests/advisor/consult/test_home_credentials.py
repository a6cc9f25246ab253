"""A workspace holding what a home directory holds (a home directory itself is refused as a workspace, but
not a copy of one, nor a project that keeps such files): the credential files of the coding agents' own
hosts and of everyday tools there are refused like the rest.

Claude Code keeps its OAuth tokens in `~/.claude/.credentials.json`, Codex in `~/.codex/auth.json`,
the GitHub CLI in `~/.config/gh/hosts.yml`, cargo in `~/.cargo/credentials.toml`; shell and REPL
histories hold every password typed on a command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.advisor.consult.test_confinement import SECRET_DENIED, run


@pytest.mark.parametrize("name", [
    ".claude/.credentials.json", ".codex/auth.json", ".config/gh/hosts.yml", ".cargo/credentials.toml",
    ".cargo/credentials", ".gem/credentials", ".bash_history", ".zsh_history", ".python_history",
    ".psql_history", ".mysql_history", ".node_repl_history", ".my.cnf", ".s3cfg", ".boto",
    ".dockercfg", "putty/server.ppk", "site/.htpasswd", ".password-store/github.gpg",
])
def test_the_credential_files_of_a_home_directory_are_refused(tmp_path: Path, name: str) -> None:
    """Each is refused by `read` and never shown by `grep` or `find`."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{SECRET_DENIED}\n")
    outcome = run(tmp_path, "read", path=name)
    assert outcome.is_error and SECRET_DENIED not in outcome.text
    assert SECRET_DENIED not in run(tmp_path, "grep", pattern="CONTENT").text
    assert Path(name).name not in run(tmp_path, "find", pattern="**").text
