"""The consultation path fuzzed: a scripted advisor (a test double) calls the workspace tools with paths,
globs and patterns drawn by Hypothesis against a workspace of traps; whatever it asks, nothing from
outside the workspace or from a credential file reaches it (or the log), a secret in a workspace file
reaches it redacted, no repository program runs, and no call raises."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.consult import ConsultationLog, ConsultSettings, Investigation, consult
from advisor.models import ChatUser, ScriptedModel
from advisor.prompt import AdvisorPrompt
from tests.support.secrets import SEEDED

OUTSIDE = "OUTSIDE-TRAP-5d1e"
DENIED = "DENIED-TRAP-8c2f"
DENIED_FILES = (".env", ".ENV.local", ".netrc", ".npmrc", ".aws/credentials", ".kube/config", "id_ed25519",
                "deploy/prod.pem", "secrets.yaml", "service-account-ci.json", ".git-credentials", "store.P12",
                "infra/prod.tfstate", ".docker/config.json", "home/.config/gcloud/adc.json")


def _git(root: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})


@pytest.fixture(scope="module")
def traps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """A workspace (a git repository whose configuration names programs) beside a directory of secrets,
    with every door between them a workspace can hold; and the file a program that ran would write."""
    base = tmp_path_factory.mktemp("traps")
    root, outside, ran = base / "ws", base / "outside", base / "ran"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.txt").write_text(OUTSIDE + "\n")
    (outside / "dir" / "more.txt").write_text(OUTSIDE + "\n")
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def main():\n    return 1\n")
    (root / "config.py").write_text(f"TOKEN = {SEEDED!r}\n")
    for name in DENIED_FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(DENIED + "\n")
    program = base / "mark.sh"
    program.write_text(f"#!/bin/sh\necho ran >> {ran}\ncat\n")
    program.chmod(0o755)
    _git(root, "init", "-q")
    _git(root, "add", "-f", ".")
    _git(root, "commit", "-qm", "init")
    for key, value in (("filter.evil.clean", program), ("diff.evil.textconv", program), ("core.fsmonitor", program),
                       ("diff.external", program), ("core.pager", program)):
        _git(root, "config", key, str(value))
    (root / ".gitattributes").write_text("* filter=evil diff=evil\n")
    for name in ("config.py", *DENIED_FILES):
        (root / name).write_text((root / name).read_text() + "# changed\n")
    (root / "out-file").symlink_to(outside / "secret.txt")
    (root / "out-dir").symlink_to(outside / "dir")
    (root / "to-env").symlink_to(root / ".env")
    (root / "loop").symlink_to(root / "loop")
    os.link(outside / "secret.txt", root / "hardlink.txt")
    os.link(root / ".env", root / "env-alias.txt")
    os.mkfifo(root / "pipe")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(root / "sock"))
    yield root, ran
    server.close()


NAMES = ["src", "src/app.py", "config.py", "out-file", "out-dir", "out-dir/more.txt", "to-env", "loop",
         "loop/../out-dir", "hardlink.txt", "env-alias.txt", "pipe", "sock", ".git", ".git/config", ".gitattributes",
         "..", "../outside", "../outside/secret.txt", "/etc/passwd", ":(top)", ":(glob)../*", ":(top,glob)**",
         "./.ENV", "src/../.env", "nul\x00byte", "", ".", "*", "**", *DENIED_FILES]
_PATHS = st.one_of(st.sampled_from(NAMES), st.text(max_size=30),
                   st.lists(st.sampled_from(["..", ".", "src", "out-dir", ".git", "loop", ".aws"]), max_size=6).map(
                       "/".join))
_GLOBS = st.one_of(st.sampled_from(["*", "**", "**/*", "*.py", ".*", "**/.env*", "{1..100000}", "{a,b}" * 12, "[",
                                    "**/{.env,.netrc,*.pem}", "../*", "/**", "*/**/../*"]), st.text(max_size=20))
_PATTERNS = st.one_of(st.sampled_from(["TRAP", "OUTSIDE", "DENIED", "TOKEN", ".", "(", "(a+)+$", "a{99999999}",
                                       "ghp_", "\\", "(?i)trap"]), st.text(min_size=1, max_size=20))


def _call(tool: str, draw: Any) -> dict[str, Any]:
    if tool == "read":
        return {"path": draw(_PATHS), "offset": draw(st.integers(1, 3))}
    if tool == "grep":
        return {"pattern": draw(_PATTERNS), "path": draw(st.none() | _PATHS), "glob": draw(st.none() | _GLOBS)}
    if tool == "find":
        return {"pattern": draw(_GLOBS), "path": draw(st.none() | _PATHS)}
    if tool == "ls":
        return {"path": draw(st.none() | _PATHS)}
    return {"path": draw(st.none() | _PATHS), "patch": draw(st.booleans()), "staged": draw(st.booleans())}


@st.composite
def calls(draw: Any) -> list[dict[str, Any]]:
    """One to three tool calls of the advisor's."""
    tools = draw(st.lists(st.sampled_from(["read", "grep", "find", "ls", "git_diff"]), min_size=1, max_size=3))
    return [{"name": tool, "arguments": _call(tool, draw)} for tool in tools]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(requested=calls())
def test_whatever_the_advisor_asks_nothing_outside_or_denied_reaches_it(
        traps: tuple[Path, Path], tmp_path: Path, requested: list[dict[str, Any]]) -> None:
    """Every tool result the advisor gets, and the log, hold nothing from outside the workspace or a credential
    file, the workspace's secret only redacted; no repository program ran; every call returned a result."""
    root, ran = traps
    model = ScriptedModel([{"tool_calls": requested}, "Severity: none"])
    prompt = AdvisorPrompt(system="advise", messages=(ChatUser("look around"),))
    book = ConsultationLog(tmp_path / f"log-{len(os.listdir(tmp_path))}")
    result = book.keep(asyncio.run(consult(prompt, model, investigation=Investigation(root, settings=ConsultSettings(
        max_rounds=3, retry_delay=0)))))
    assert result.stop_reason == "answered"
    sent = "".join(request.model_dump_json() for request in model.requests)
    written = book.path.read_text()
    for text in (sent, written):
        assert OUTSIDE not in text and DENIED not in text and SEEDED not in text and SEEDED[4:14] not in text
        assert "failed unexpectedly" not in text
    assert not ran.exists()
