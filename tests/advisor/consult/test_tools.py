"""The investigation tools: declarations, each tool's results, refusals, caps (TOOLS, GIT, EXP, CLIP cases)."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from advisor.consult import ConsultSettings, Investigation, Workspace, git_diff_argv
from advisor.consult._tool_git import GitDiffArgs
from advisor.models import ToolCall
from advisor.prompt import TOOL_NAMES, clip_middle, investigation_tools

CARDS = {"r1": "THE FULL BODY", "e1": "user words", "big": "x" * 9000}


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id="c", name=name, arguments=arguments)


def _git(root: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(root), "PATH": "/usr/bin:/bin"})


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git workspace: committed files, then uncommitted changes (including to a tracked .env)."""
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def main():\n    return 1  # TODO\n")
    (root / "src" / "util.ts").write_text("export const TODO = 1;\n")
    (root / ".env").write_text("API_KEY=live-secret\n")
    (root / "config").mkdir()
    (root / "config" / ".env.example").write_text("TODO=example-secret\n")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "build").mkdir()
    (root / "build" / "out.py").write_text("TODO built\n")
    (root / "debug.log").write_text("TODO logged\n")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A", "-f")
    _git(root, "commit", "-q", "-m", "init")
    (root / "src" / "app.py").write_text("def main():\n    return 2  # TODO\n")
    (root / ".env").write_text("API_KEY=rotated-secret\n")
    return root


def _run(root: Path, call: ToolCall, **settings: Any) -> Any:
    investigation = Investigation(root, expand=CARDS.get, settings=ConsultSettings(**settings))
    return investigation.run(call)


def test_declarations_are_the_six_read_only_tools() -> None:
    """All six tools are declared, in a fixed order; no mutating tool ever is (TOOLS-1, GIT-10, LOOP-13)."""
    names = [tool.name for tool in investigation_tools()]
    assert tuple(names) == TOOL_NAMES == ("advisor_expand", "read", "grep", "find", "ls", "git_diff")
    assert not {"edit", "write", "bash", "apply_patch"} & set(names)
    without = Investigation(Path("."), settings=ConsultSettings(repo_tools=False))
    assert [t.name for t in without.declarations()] == ["advisor_expand"]
    assert investigation_tools(rounds=False) == ()
    for tool in investigation_tools():
        assert tool.parameters["type"] == "object" and tool.parameters["additionalProperties"] is False
    assert json.dumps([t.model_dump() for t in investigation_tools()]) == json.dumps(
        [t.model_dump() for t in investigation_tools()])


def test_a_consultation_without_a_workspace_declares_only_expand() -> None:
    """With no workspace to look at, only `advisor_expand` is declared (a tool that can only refuse would spend
    the advisor's rounds), and a workspace tool called anyway is refused, not run."""
    investigation = Investigation(None, expand=CARDS.get, settings=ConsultSettings())
    assert [tool.name for tool in investigation.declarations()] == ["advisor_expand"]
    assert investigation_tools(workspace=False) == investigation.declarations()
    refused = investigation.run(_call("read", path="README.md"))
    assert refused.is_error and "no workspace" in refused.text


def test_expand(repo: Path) -> None:
    """Cards expand verbatim, `#` stripped; unknown ids say not found without an error (EXP-2, 3, 4)."""
    found = _run(repo, _call("advisor_expand", ids=["#r1", "nope"]))
    assert not found.is_error
    assert found.text == "#r1:\nTHE FULL BODY\n\n#nope: not found in this session."
    assert found.argument == "#r1, nope"


def test_expand_refuses_a_non_list_and_caps_each_id(repo: Path) -> None:
    """A string instead of a list is an error (EXP-5); each id is capped at max(512, cap / n) (EXP-6, CLIP-7)."""
    assert _run(repo, _call("advisor_expand", ids="r1")).is_error
    capped = _run(repo, _call("advisor_expand", ids=["big", "r1"]), max_result_chars=500)
    assert len(capped.text) < 700 and "chars omitted" in capped.text


def test_read_lines_and_more_marker(repo: Path) -> None:
    """`read` returns the file's lines; offset and limit select lines and say what remains."""
    assert _run(repo, _call("read", path="src/app.py")).text == "def main():\n    return 2  # TODO\n"
    part = _run(repo, _call("read", path="src/app.py", offset=1, limit=1)).text
    assert part.startswith("def main():\n") and "read with offset=2" in part


def test_read_refuses_credentials_and_escapes(repo: Path, tmp_path: Path) -> None:
    """`read` of `.env` or of a file outside is an error that shows nothing of the file (DENY-10, 11)."""
    denied = _run(repo, _call("read", path=".env"))
    assert denied.is_error and "live" not in denied.text and "rotated" not in denied.text
    (tmp_path / "secrets.txt").write_text("TOP SECRET")
    outside = _run(repo, _call("read", path=str(tmp_path / "secrets.txt")))
    assert outside.is_error and "TOP SECRET" not in outside.text


def test_read_caps_large_files(repo: Path) -> None:
    """An 80,000-character file is cut to the cap with a marker saying how to read the rest (CLIP-9)."""
    (repo / "big.txt").write_text("y" * 80_000)
    result = _run(repo, _call("read", path="big.txt"), max_result_chars=1000)
    assert len(result.text) < 2000 and "read with offset and limit for the rest" in result.text


@pytest.mark.parametrize(("arguments", "message"), [({}, "path: Field required"), ({"path": "src"}, "is a directory"),
                                                     ({"path": "missing.py"}, "no such file"),
                                                     ({"path": "src/app.py", "offset": 0}, "offset")])
def test_read_argument_errors(repo: Path, arguments: dict[str, Any], message: str) -> None:
    """Missing or bad arguments are error results naming the problem."""
    result = _run(repo, _call("read", **arguments))
    assert result.is_error and message in result.text


def test_grep_without_a_path_never_reads_credentials_or_ignored_files(repo: Path) -> None:
    """A whole-workspace grep finds matches but skips `.env*`, `.gitignore`d and `.git` files (reference §7 gap)."""
    result = _run(repo, _call("grep", pattern="TODO|secret"))
    assert not result.is_error
    assert result.text.splitlines() == ["src/app.py:2:     return 2  # TODO", "src/util.ts:1: export const TODO = 1;"]


def test_grep_glob_and_path(repo: Path) -> None:
    """`glob` filters file names and `path` narrows the search; a denied path is refused."""
    assert _run(repo, _call("grep", pattern="TODO", glob="*.ts")).text == "src/util.ts:1: export const TODO = 1;"
    assert _run(repo, _call("grep", pattern="main", path="src/app.py")).text == "src/app.py:1: def main():"
    assert _run(repo, _call("grep", pattern="API", path=".env")).is_error
    assert _run(repo, _call("grep", pattern="nothing-like-this")).text == "(no matches)"


def test_grep_bad_and_pathological_patterns(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An invalid regex is an error; a catastrophically slow one stops at the time limit instead of hanging."""
    assert "invalid pattern" in _run(repo, _call("grep", pattern="(unclosed")).text
    monkeypatch.setattr("advisor.consult._tool_search.SEARCH_SECONDS", 0.2)
    (repo / "slow.txt").write_text("a" * 40 + "!\n")
    slow = _run(repo, _call("grep", pattern="(a|aa)+$", path="slow.txt"))
    assert slow.is_error and "took longer than 0.2s" in slow.text


def test_find_and_ls_withhold_credential_names(repo: Path) -> None:
    """`find` and `ls` never list credential-shaped names; `ls` says how many it withheld."""
    assert _run(repo, _call("find", pattern="*.py")).text == "src/app.py"
    assert _run(repo, _call("find", pattern=".env*")).text == "(nothing matches)"
    assert _run(repo, _call("find", pattern="src/**")).text == "src/app.py\nsrc/util.ts"
    listing = _run(repo, _call("ls")).text.splitlines()
    withheld = ("[{} entr{} withheld: credential-shaped, leading out of the workspace, or not a directory or regular "
                "file]")
    assert listing == [".gitignore", "build/", "config/", "debug.log", "src/", withheld.format(2, "ies")]
    assert _run(repo, _call("ls", path="config")).text == withheld.format(1, "y")


def test_git_diff_argv_is_fixed(repo: Path) -> None:
    """The argv is built from the arguments alone, `--stat` unless `patch`, `--staged` when asked, the files
    shown named after `--` (GIT-1…5)."""
    workspace = Workspace(repo)
    base = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "--no-renames",
            "--ignore-submodules=all"]
    assert git_diff_argv(workspace, GitDiffArgs(), ["a.py"]) == [*base, "--stat", "--", "a.py"]
    assert git_diff_argv(workspace, GitDiffArgs(patch=True, staged=True)) == [*base, "--staged", "--"]
    assert git_diff_argv(workspace, GitDiffArgs(patch=True), ["a.py", "b.py"]) == [*base, "--", "a.py", "b.py"]
    assert git_diff_argv(workspace, GitDiffArgs(staged=True))[len(base):] == ["--staged", "--stat", "--"]


def test_git_diff_shows_the_change_but_never_a_credential_file(repo: Path) -> None:
    """The stat and the patch show app.py's change and nothing of the tracked `.env` (GIT-9)."""
    stat = _run(repo, _call("git_diff")).text
    assert "src/app.py" in stat and ".env" not in stat
    patch = _run(repo, _call("git_diff", patch=True)).text
    assert "+    return 2  # TODO" in patch and "secret" not in patch


def test_git_diff_refusals_and_failures(repo: Path, tmp_path: Path) -> None:
    """A path outside never reaches git (GIT-6); a non-repository is git's error (GIT-7); no change says so (GIT-8)."""
    assert "outside" in _run(repo, _call("git_diff", path="../../etc")).text
    plain = tmp_path / "plain"
    plain.mkdir()
    failed = _run(plain, _call("git_diff"))
    assert failed.is_error and "not a git repository" in failed.text.lower()
    _git(repo, "checkout", "-q", "--", ".")
    assert _run(repo, _call("git_diff")).text == "(no changes)"


def test_repository_tools_can_be_switched_off(repo: Path) -> None:
    """With repo tools off, a workspace call is refused with a clear message (GIT-10)."""
    result = _run(repo, _call("git_diff"), repo_tools=False)
    assert result.is_error and result.text == "Repository tools are disabled for the advisor."


def test_unknown_tools_and_bad_json(repo: Path) -> None:
    """An unknown tool and arguments that are not JSON are error results (TOOLS-2)."""
    assert _run(repo, _call("rm", path="src")).text == "Unknown tool: rm"
    broken = ToolCall(id="c", name="read", invalid_arguments='{"path": ')
    assert "not a JSON object" in Investigation(repo).run(broken).text


def test_results_are_redacted_when_a_redactor_is_given(repo: Path) -> None:
    """Every result passes the redactor the ledger provides."""
    investigation = Investigation(repo, redact=lambda text: text.replace("main", "[REDACTED]"))
    assert investigation.run(_call("read", path="src/app.py")).text.startswith("def [REDACTED]():")


def test_no_workspace_means_no_workspace_tools() -> None:
    """Without a workspace the workspace tools refuse and say why."""
    assert "no workspace" in Investigation().run(_call("ls")).text


@pytest.mark.parametrize(("text", "limit", "expected"), [
    ("abcdef", 100, "abcdef"),                                                       # CLIP-1
    ("x" * 100 + "y" * 100, 40, "x" * 19 + "\n[… 162 chars omitted …]\n" + "y" * 19),  # CLIP-2
])
def test_clip_middle(text: str, limit: int, expected: str) -> None:
    """Long text keeps (limit-1)//2 characters at each end around the omission marker."""
    assert clip_middle(text, limit) == expected


def test_investigation_results_are_capped() -> None:
    """A 50,000-character result is cut under a 500-character cap plus its marker (CLIP-8)."""
    assert len(clip_middle("z" * 50_000, 500, "narrow it")) < 700


def test_images_binaries_and_empty_files(repo: Path) -> None:
    """An image is attached as an image (named, never dumped as text), or named and sized when the consultation
    shows no images; a binary file is named; an empty file is empty (TOOLS-3…5)."""
    data = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
    (repo / "shot.png").write_bytes(data)
    (repo / "blob.bin").write_bytes(b"\x00\x01PNGDATA")
    (repo / "empty.txt").write_text("")
    image = _run(repo, _call("read", path="shot.png"))
    assert not image.is_error and "an image (image/png, 72 bytes), attached" in image.text
    assert [(part.media_type, base64.b64decode(part.data), part.path) for part in image.images] == [
        ("image/png", data, "shot.png")]
    plain = Investigation(repo, settings=ConsultSettings(images=False)).run(_call("read", path="shot.png"))
    assert "not shown images" in plain.text and not plain.images
    assert "binary file" in _run(repo, _call("read", path="blob.bin")).text
    assert _run(repo, _call("read", path="empty.txt")).text == ""
