"""What `witness consult`, `witness log`, `witness check` and `witness mcp` do when the model endpoint (or a
proxy in front of it) answers with something that is not an answer, when the log cannot be written, and
when a transcript or a model holds bytes that drive a terminal: one line and exit 2, the advice kept, and
nothing that reaches the terminal able to drive it."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from advisor.cli import ExitCode, main
from advisor.cli._consult_output import print_result
from advisor.consult import ConsultationLog
from tests.advisor.mcp.homes import FAILING, Home
from tests.advisor.mcp.test_server import SESSION, advisor_env, serve, text
from tests.advisor.sessions import witness
from tests.support.model_server import ModelServer
from tests.support.script import Raw, Reply
from tests.support.transcripts import Call, Step, User, write

NOT_ANSWERS = {
    "a proxy's HTML page": (b"<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html"),
    "an empty JSON list": (b"[]", "application/json"),
    "broken JSON": (b'{"choices": [{"message": ', "application/json"),
    "JSON of another shape": (b'{"result": {"text": "fine"}}', "application/json"),
}
DRIVES = ("\x1b]0;owned\x07", "\x1b[2J", "\x9b31m", "\u202e")
"""A retitle (OSC), a screen clear (CSI), a C1 CSI and a right-to-left override."""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A $WITNESS_HOME whose consultations retry at once."""
    root = tmp_path / "home"
    root.mkdir()
    (root / "config.toml").write_text("[consult]\nretry_delay = 0\n")
    return root


def session(tmp_path: Path) -> Path:
    """A session with a failing check."""
    return write(tmp_path / "s.jsonl", "claude-code", [
        User("make the tests pass"), Step("running", "", (Call("shell", "pytest -q", "1 failed", 1),))])


def consult(tmp_path: Path, home: Path, server: ModelServer, provider: str, *flags: str) -> tuple[int, str, str]:
    """`witness consult` as a process against the scripted server: exit status, stdout, stderr."""
    url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    done = witness("consult", str(session(tmp_path)), "--model", "scripted-test-double", "--provider", provider,
                   "--base-url", url, *flags, env={"WITNESS_HOME": str(home), "OPENAI_API_KEY": "k",
                                                   "ANTHROPIC_API_KEY": "k", "WITNESS_CONFIG": ""})
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.slow
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("answer", NOT_ANSWERS)
def test_an_answer_that_is_not_one_is_one_line_exit_2_and_logged(tmp_path: Path, home: Path, provider: str,
                                                                 answer: str) -> None:
    """HTTP 200 with HTML, `[]`, broken JSON or another shape: no traceback, one line naming the URL, exit 2
    (never 1, which means "concern"), and the consultation is in the log as the model's failure."""
    body, kind = NOT_ANSWERS[answer]
    with ModelServer() as server:
        server.enqueue(Raw(body, content_type=kind), Raw(body, content_type=kind))
        code, out, err = consult(tmp_path, home, server, provider)
    lines = err.strip().splitlines()
    assert code == ExitCode.USAGE and out == "" and "Traceback" not in err
    assert len(lines) == 1 and "answered with something that is not an answer" in lines[0]
    (logged,) = ConsultationLog(home / "log").consultations()
    assert logged.stop_reason == "model-unavailable" and len(logged.attempts) == 2


@pytest.mark.slow
def test_an_answer_that_is_not_one_is_an_mcp_error_result(tmp_path: Path) -> None:
    """Through `witness mcp` the same failure is the tool's error result, in one line."""
    home = Home(tmp_path)
    _, calls = home.claude_session(SESSION, FAILING)
    (home.root / "witness").mkdir()
    (home.root / "witness" / "config.toml").write_text("[consult]\nretry_delay = 0\n")
    with ModelServer() as server:
        server.enqueue(*[Raw(b"<html>proxy error</html>", content_type="text/html")] * 2)
        _, (result,) = serve(advisor_env(home, server), home.project,
                             ("advisor", {}, {"claudecode/toolUseId": calls[0]}))
    assert result.is_error and "answered with something that is not an answer" in text(result)
    assert len(text(result).splitlines()) == 1


@pytest.mark.slow
def test_a_full_disk_still_prints_the_advice(tmp_path: Path, home: Path) -> None:
    """The log on a full disk (/dev/full): the advice is printed and exits by its verdict; a warning says it is
    not in the log."""
    (home / "log").mkdir()
    os.symlink("/dev/full", home / "log" / "consultations.jsonl")
    with ModelServer() as server:
        server.enqueue(Reply(text="Severity: concern\nRe-run the tests."))
        code, out, err = consult(tmp_path, home, server, "openai")
    assert code == ExitCode.FINDINGS and out == "Severity: concern\nRe-run the tests.\n"
    assert "could not be written to the log" in err and "No space left on device" in err and "Traceback" not in err


class Terminal(io.StringIO):
    """A stream that says it is a terminal (so rich renders, as on a real one)."""

    def isatty(self) -> bool:
        return True


def test_advice_cannot_drive_the_terminal(tmp_path: Path, home: Path, model_server: ModelServer,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A model's answer holding escape sequences and bidi overrides: neither a terminal nor a pipe gets them,
    nor `witness log ID`; `--json` escapes them."""
    monkeypatch.setenv("WITNESS_HOME", str(home))
    model_server.enqueue(Reply(text="Severity: nit\n" + " ".join(DRIVES) + " rename it"))
    main(["consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url", model_server.openai_base_url,
          "--json"])
    [result] = ConsultationLog(home / "log").consultations()
    terminal, piped, err = Terminal(), io.StringIO(), io.StringIO()
    print_result(result, terminal, err)
    print_result(result, piped, err)
    log = io.StringIO()
    monkeypatch.setattr("sys.stdout", log)
    assert main(["log", result.id]) == ExitCode.OK
    for shown in (terminal.getvalue(), piped.getvalue(), log.getvalue(), err.getvalue()):
        assert "rename it" in shown or "witness log" in shown
        assert not any(sequence in shown for sequence in DRIVES)
    document = io.StringIO()
    monkeypatch.setattr("sys.stdout", document)
    main(["log", "--json", result.id])
    assert "\x1b" not in document.getvalue() and "\x9b" not in document.getvalue() and json.loads(document.getvalue())


def test_a_dry_run_cannot_drive_the_terminal(tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A transcript whose user typed escape sequences: the dry run prints the request without them."""
    monkeypatch.setenv("WITNESS_HOME", str(home))
    path = write(tmp_path / "t.jsonl", "claude-code", [User("fix it " + " ".join(DRIVES))])
    main(["consult", "--dry-run", str(path)])
    shown = capsys.readouterr().out
    assert "fix it" in shown and not any(sequence in shown for sequence in DRIVES)


def test_check_explain_cannot_drive_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """`witness check --explain` prints the check's directory with its escape sequence made inert."""
    main(["check", "--explain", "cd '\x1b[2Jdir' && pytest -q"])
    shown = capsys.readouterr().out
    assert "directory: ?[2Jdir" in shown and "\x1b" not in shown


def test_errors_naming_a_path_cannot_drive_the_terminal(tmp_path: Path, home: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A transcript path or a consultation id holding escape sequences is named in the error without them."""
    monkeypatch.setenv("WITNESS_HOME", str(home))
    assert main(["consult", "--dry-run", str(tmp_path / "\x1b]0;owned\x07.jsonl")]) == ExitCode.USAGE
    assert main(["log", "\x1b[2J"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "owned" in err and "\x1b" not in err and "\x07" not in err
