"""`witness install` / `uninstall` on real settings files in a temporary home: every host round-trips (install,
install again, uninstall gives the file back byte for byte), other settings and comments are kept, a file the
host could not read is refused and left alone, and a dry run writes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import tomlkit
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli import cli, main
from advisor.errors import ConfigError
from advisor.install import INSTALL_HOSTS, ROWS, install, resolve, uninstall
from advisor.install._jsonc import parse
from tests.support.secrets import TOKENS

ENV: dict[str, str] = {}
OPTIONS = [(False, False), (True, False), (False, True), (True, True)]


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` and its bytes."""
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("host", INSTALL_HOSTS)
@pytest.mark.parametrize(("review", "mcp"), OPTIONS, ids=["hook", "review", "mcp", "review+mcp"])
def test_every_host_round_trips_from_nothing(tmp_path: Path, host: str, review: bool, mcp: bool) -> None:
    """Install writes files, installing again changes nothing, uninstall leaves no file behind."""
    if mcp and host in ("droid", "qwen"):
        with pytest.raises(ConfigError, match="no documented user MCP settings"):
            install(host, home=tmp_path, environ=ENV, program="witness", mcp=True)
        return
    first = install(host, home=tmp_path, environ=ENV, program="witness", review=review, mcp=mcp)
    assert {change.action for change in first} == {"created"}
    written = snapshot(tmp_path)
    again = install(host, home=tmp_path, environ=ENV, program="witness", review=review, mcp=mcp)
    assert {change.action for change in again} == {"unchanged"} and snapshot(tmp_path) == written
    assert {change.action for change in uninstall(host, home=tmp_path, environ=ENV)} == {"removed"}
    assert snapshot(tmp_path) == {}


# Each host's files as a user may have them: other settings, other hooks, odd layout, comments where allowed.
EXISTING = {
    ".claude/settings.json": '{\n    "model": "opus",\n    "hooks": {"PreToolUse": [{"matcher": "Bash", '
                             '"hooks": [{"type": "command", "command": "lint-hook"}]}]},\n    "permissions": '
                             '{"allow": ["Bash(npm test)"], "deny": []}\n}\n',
    ".claude.json": '{"numStartups": 12, "mcpServers": {"other": {"command": "other-mcp"}}}',
    ".codex/hooks.json": '{\n\t"hooks": {}\n}\n',
    ".codex/config.toml": '# my settings\nmodel = "gpt-5.5"  # the model\n\n[mcp_servers.other]\ncommand = "o"\n',
    ".copilot/mcp-config.json": '{"mcpServers": {}}\n',
    ".factory/settings.json": '{\n  "model": "claude-opus-4-1",\n  // keep\n  "hooks": {\n    "Stop": []\n  }\n}\n',
    ".qwen/settings.json": '{\n  // Qwen Code\n  "general": {"checkpointing": {"enabled": true}}\n}\n',
    ".gemini/settings.json": '// user settings\n{\n  "theme": "GitHub", /* keep */\n  "hooks": {\n    "AfterAgent": [\n'
                             '      {"hooks": [{"type": "command", "command": "notify"}]} // theirs\n    ]\n  }\n}\n',
}


def _settings(name: str, text: str) -> dict[str, object]:
    """A settings file's values outside the tables witness adds to (which it extends, never replaces)."""
    data = tomlkit.parse(text).unwrap() if name.endswith(".toml") else parse(text, comments=True, name=name).value
    return {key: json.dumps(value) for key, value in data.items()
            if key not in ("hooks", "permissions", "mcpServers", "mcp_servers")}


@pytest.mark.parametrize("host", INSTALL_HOSTS)
@pytest.mark.parametrize(("review", "mcp"), OPTIONS, ids=["hook", "review", "mcp", "review+mcp"])
def test_existing_files_keep_everything_else(tmp_path: Path, host: str, review: bool, mcp: bool) -> None:
    """Installed into files holding other settings, hooks and comments: those stay, and uninstall gives every
    file back byte for byte."""
    for name, text in EXISTING.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = snapshot(tmp_path)
    if mcp and host in ("droid", "qwen"):
        return  # (refused: tested above)
    install(host, home=tmp_path, environ=ENV, program="witness", review=review, mcp=mcp)
    for name, text in EXISTING.items():
        after = (tmp_path / name).read_text()
        assert all(comment in after for comment in re.findall(r"//[^\n]*|/\*.*?\*/|#[^\n]*", text))
        assert _settings(name, text).items() <= _settings(name, after).items()
    assert {c.action for c in install(host, home=tmp_path, environ=ENV, program="witness", review=review,
                                      mcp=mcp)} == {"unchanged"}
    uninstall(host, home=tmp_path, environ=ENV)
    assert snapshot(tmp_path) == before


def test_the_entries_are_what_the_hosts_read(tmp_path: Path) -> None:
    """The entries are the hosts' documented shapes: Claude Code's Stop and SubagentStop groups, Codex's MCP
    table, Copilot's version-1 file with bash and powershell commands, Gemini's AfterAgent group in ms."""
    for host in INSTALL_HOSTS:
        install(host, home=tmp_path, environ=ENV, program="witness", mcp=host not in ("droid", "qwen"))
    claude = json.loads((tmp_path / ".claude/settings.json").read_text())
    assert claude["hooks"]["Stop"] == [{"hooks": [{"type": "command", "command": "witness hook claude-code",
                                                   "timeout": 30}]}]
    assert claude["permissions"]["allow"] == ["mcp__witness"]
    assert json.loads((tmp_path / ".claude.json").read_text())["mcpServers"]["witness"]["args"] == ["mcp"]
    codex = tomlkit.parse((tmp_path / ".codex/config.toml").read_text()).unwrap()
    assert codex["mcp_servers"]["witness"] == {"command": "witness", "args": ["mcp"], "required": True,
                                               "tool_timeout_sec": 480}
    copilot = json.loads((tmp_path / ".copilot/hooks/witness.json").read_text())
    assert copilot["version"] == 1 and copilot["hooks"]["agentStop"][0]["bash"] == "witness hook copilot"
    gemini = json.loads((tmp_path / ".gemini/settings.json").read_text())
    assert gemini["hooks"]["AfterAgent"][0]["hooks"][0]["command"] == "witness hook gemini"
    assert gemini["mcpServers"]["witness"]["timeout"] == 480_000
    droid = json.loads((tmp_path / ".factory/settings.json").read_text())
    assert droid["hooks"]["Stop"][0]["hooks"][0]["command"] == "witness hook claude-code"
    qwen = json.loads((tmp_path / ".qwen/settings.json").read_text())
    assert qwen["hooks"]["SubagentStop"][0]["hooks"][0] == {"type": "command", "command": "witness hook claude-code",
                                                           "timeout": 30}


def test_switching_to_the_review_replaces_the_entry(tmp_path: Path) -> None:
    """`--review` after a plain install replaces witness's Stop entry (never two), and back again."""
    install("claude-code", home=tmp_path, environ=ENV, program="witness")
    install("claude-code", home=tmp_path, environ=ENV, program="witness", review=True)
    stop = json.loads((tmp_path / ".claude/settings.json").read_text())["hooks"]["Stop"]
    assert [group["hooks"][0]["command"] for group in stop] == ["witness hook claude-code --review"]
    install("claude-code", home=tmp_path, environ=ENV, program="/opt/venv/bin/witness")
    stop = json.loads((tmp_path / ".claude/settings.json").read_text())["hooks"]["Stop"]
    assert [group["hooks"][0]["command"] for group in stop] == ["/opt/venv/bin/witness hook claude-code"]


@pytest.mark.parametrize(("name", "text"), [
    (".claude/settings.json", '{"hooks": {"Stop": [}'),
    (".claude/settings.json", '// a comment Claude Code would refuse\n{}'),
    (".claude/settings.json", '["a list"]'),
    (".claude/settings.json", '{"hooks": {"Stop": "not a list"}}'),
    (".gemini/settings.json", '{"a": 1,}'),
    (".codex/config.toml", 'model = \n'),
], ids=["broken", "comment", "not an object", "wrong shape", "trailing comma", "bad toml"])
def test_a_file_the_host_could_not_read_is_refused_and_kept(tmp_path: Path, name: str, text: str) -> None:
    """An unparseable or misshapen file raises ConfigError naming it, and no file is written."""
    path = tmp_path / name
    path.parent.mkdir(parents=True)
    path.write_text(text)
    host = {".claude": "claude-code", ".gemini": "gemini", ".codex": "codex"}[name.split("/")[0]]
    with pytest.raises(ConfigError, match="left as it is"):
        install(host, home=tmp_path, environ=ENV, program="witness", mcp=True)
    assert snapshot(tmp_path) == {name: text.encode()}


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    """`dry_run` returns the diffs it would make and leaves the files as they were."""
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini/settings.json").write_text('{"theme": "x"}\n')
    before = snapshot(tmp_path)
    changes = install("gemini", home=tmp_path, environ=ENV, program="witness", dry_run=True, mcp=True)
    assert [change.action for change in changes] == ["changed"] and "witness hook gemini" in changes[0].diff()
    assert snapshot(tmp_path) == before
    install("gemini", home=tmp_path, environ=ENV, program="witness")
    assert [c.action for c in uninstall("gemini", home=tmp_path, environ=ENV, dry_run=True)] == ["changed"]
    assert "witness hook gemini" in (tmp_path / ".gemini/settings.json").read_text()


def test_project_settings_and_host_homes(tmp_path: Path) -> None:
    """`--project` writes under the project; `CODEX_HOME` and `COPILOT_HOME` move the user files."""
    project = tmp_path / "repo"
    install("copilot", scope="project", project=project, home=tmp_path, environ=ENV, program="witness")
    assert (project / ".github/hooks/witness.json").is_file()
    environ = {"CODEX_HOME": str(tmp_path / "codex-home")}
    changes = install("codex", home=tmp_path, environ=environ, program="witness", mcp=True)
    assert {change.path.parent for change in changes} == {tmp_path / "codex-home"}
    row = next(row for row in ROWS if row.host == "copilot" and row.scope == "user" and row.piece == "hook")
    assert resolve(row, project=None, home=tmp_path, environ={}) == tmp_path / ".copilot/hooks/witness.json"


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(other=st.dictionaries(st.text(max_size=8).filter(lambda key: key not in ("hooks", "permissions")),
                             JSON_VALUES, max_size=4),
       indent=st.sampled_from([None, 2, 4, "\t"]))
def test_any_settings_round_trip(tmp_path_factory: pytest.TempPathFactory, other: dict[str, object],
                                 indent: int | str | None) -> None:
    """Whatever else a settings file holds, and however it is indented, install keeps it equal and uninstall
    gives the file back byte for byte (one holding only `{}` too: it is kept, since witness did not create it)."""
    home = tmp_path_factory.mktemp("home")
    path = home / ".claude/settings.json"
    path.parent.mkdir()
    text = json.dumps(other, indent=indent) + "\n"
    path.write_text(text)
    install("claude-code", home=home, environ=ENV, program="witness", mcp=True, review=True)
    data = json.loads(path.read_text())
    assert {key: data[key] for key in other} == other
    uninstall("claude-code", home=home, environ=ENV)
    assert path.read_text() == text


def test_the_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`witness install` prints each file and what happened, `--dry-run` prints the diff, `--json` the same as
    JSON, and `witness uninstall` removes it."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    runner = CliRunner()
    dry = runner.invoke(cli, ["install", "codex", "--mcp", "--dry-run", "--program", "witness"])
    assert dry.exit_code == 0 and "+[mcp_servers.witness]" in dry.output and "nothing was written" in dry.output
    assert snapshot(tmp_path) == {}
    done = runner.invoke(cli, ["install", "codex", "--program", "witness", "--json"])
    report = json.loads(done.output)
    assert done.exit_code == 0 and report["changed"] == 1 and report["files"][0]["action"] == "created"
    again = runner.invoke(cli, ["install", "codex", "--program", "witness"])
    assert again.output == f"unchanged: {tmp_path / '.codex/hooks.json'}\n"
    gone = runner.invoke(cli, ["uninstall", "codex"])
    assert gone.exit_code == 0 and f"removed: {tmp_path / '.codex/hooks.json'}" in gone.output
    assert snapshot(tmp_path) == {}


def test_a_refused_file_exits_2_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """An unreadable settings file is a usage error: exit 2, one line naming the file, no traceback."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_text("{oops")
    assert main(["install", "claude-code"]) == 2
    err = capsys.readouterr().err
    assert "settings.json cannot be read as JSON (line 1, column 2" in err and "Traceback" not in err


def test_a_dry_runs_diff_shows_no_credential_and_no_terminal_control(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A settings file whose lines next to witness's entry hold an API key and an escape sequence: the printed diff
    shows the key's marker and the escape inert, and the file is still written byte for byte as it was."""
    monkeypatch.setenv("HOME", str(tmp_path))
    kind, secret = TOKENS[4]
    settings = tmp_path / ".gemini" / "settings.json"
    settings.parent.mkdir()
    original = f'{{\n  // \x1b]0;owned\x07 title\n  "apiKey": "{secret}"\n}}\n'
    settings.write_text(original)
    dry = CliRunner().invoke(cli, ["install", "gemini", "--dry-run", "--program", "witness"])
    assert dry.exit_code == 0 and "witness hook gemini" in dry.output
    assert secret not in dry.output and f"[REDACTED:{kind}]" in dry.output
    assert "\x1b" not in dry.output and "\x07" not in dry.output and "?]0;owned? title" in dry.output
    assert settings.read_text() == original
