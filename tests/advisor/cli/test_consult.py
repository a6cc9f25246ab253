"""`witness consult` and `witness log` as a user runs them: the exact request on every fixture, a real
consultation through each SDK against the loopback model server, exit statuses, output for terminals
and pipes, the workspace, and the log of what the advisor was asked and did."""

from __future__ import annotations

import io
import json
import os
import socket
from pathlib import Path
from typing import Any

import openai
import pytest

from advisor.cli import ExitCode, main
from advisor.cli._consult_output import print_result
from advisor.consult import ConsultationLog
from tests.advisor.sessions import witness
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall
from tests.support.secrets import TOKENS
from tests.support.transcripts import Call, Step, User, write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
EVERY_FIXTURE = sorted(FIXTURES.glob("*/*.jsonl")) + sorted(FIXTURES.glob("real/*/*.jsonl"))
MASKED = [User("make the tests pass"),
          Step("running the tests", "the suite may be slow",
               (Call("shell", "pytest -q", "=== 1 failed in 0.1s ===", 1),)),
          Step("fixed, re-running", "", (Call("edit", "src/app.py", "ok"),
                                         Call("shell", "pytest -q; echo done", "1 passed\ndone", 0))),
          Step("All tests pass.")]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty $WITNESS_HOME, and no advisor settings from the environment."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path / "home"))
    for name in ("WITNESS_ADVISOR_MODEL", "WITNESS_ADVISOR_PROVIDER", "WITNESS_ADVISOR_BASE_URL", "WITNESS_CONFIG",
                 "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "home"


def session(tmp_path: Path, host: str = "claude-code") -> Path:
    return write(tmp_path / f"{host}.jsonl", host, MASKED)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda path: str(path.relative_to(FIXTURES)))
def test_dry_run_prints_the_exact_request_for_every_fixture(path: Path, home: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """`--dry-run --json` calls no model and prints one object: system, messages (role, content) ending on a user
    turn, the tools, the stable prefix and the estimated tokens — for every transcript shipped."""
    assert main(["consult", "--dry-run", "--json", str(path)]) == ExitCode.OK
    document = json.loads(capsys.readouterr().out)
    assert list(document) == ["system", "messages", "tools", "stable_prefix_messages", "estimated_tokens"]
    assert document["messages"][-1]["role"] == "user" and document["messages"][0]["content"].startswith("## Executor")
    assert all(set(m) == {"role", "content"} and m["role"] in ("user", "assistant") for m in document["messages"])
    assert [t["function"]["name"] for t in document["tools"]] == ["advisor_expand", "read", "grep", "find", "ls",
                                                                  "git_diff"]
    assert 0 < document["stable_prefix_messages"] < len(document["messages"]) and document["estimated_tokens"] > 0
    assert not (home / "log").exists()


def test_the_dry_run_messages_are_what_the_openai_sdk_sends(tmp_path: Path, home: Path, model_server: ModelServer,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The dry run's system prompt, messages and tools are byte for byte what the consultation then sends."""
    path = session(tmp_path)
    main(["consult", "--dry-run", "--json", str(path)])
    document = json.loads(capsys.readouterr().out)
    model_server.enqueue(Reply(text="Severity: none\nfine"))
    main(["consult", str(path), "--model", "gpt-test", "--base-url", model_server.openai_base_url])
    sent = model_server.requests[0].body
    assert sent["messages"] == [{"role": "system", "content": document["system"]}, *document["messages"]]
    assert sent["tools"] == document["tools"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_consultation_through_each_sdk_returns_a_parsed_verdict(provider: str, tmp_path: Path, home: Path,
                                                                 model_server: ModelServer) -> None:
    """`witness consult` (a process) against the loopback server through each SDK: the advisor expands the masked
    card, answers `**Severity:** concern`; the advice is printed and the exit status is 1."""
    path = session(tmp_path, "pi")
    advice = "**Severity:** concern\n- the re-run at the last card was masked by `; echo done`; run `pytest -q`."
    model_server.enqueue(Reply(tool_calls=[ToolCall("advisor_expand", {"ids": ["#0000009"]})]),
                         Reply(text=advice, input_tokens=2400, cached_tokens=2000, output_tokens=40))
    url = model_server.openai_base_url if provider == "openai" else model_server.anthropic_base_url
    model = "gpt-test" if provider == "openai" else "claude-test"
    done = witness("consult", str(path), "--model", model, "--provider", provider, "--base-url", url,
                   "--workspace", str(tmp_path), env={"WITNESS_HOME": str(home), "OPENAI_API_KEY": "k",
                                                      "ANTHROPIC_API_KEY": "k"})
    assert done.returncode == ExitCode.FINDINGS, done.stderr
    assert done.stdout.decode() == advice + "\n"
    assert f"{provider}:{model} · 2 request(s) · 1 tool call(s)" in done.stderr.decode()
    first = json.dumps(model_server.requests[0].body)
    assert "masked by `; echo done`" in first and "Verification obligations witness records as open" in first
    last = model_server.requests[1].body["messages"][-1]
    result = last["content"] if provider == "openai" else last["content"][0]["content"]
    assert result == '#0000009:\nbash({"command":"pytest -q; echo done"})\n→ ok (exit 0):\n1 passed\ndone'
    [record] = ConsultationLog(home / "log").consultations()
    assert record.severity == "concern" and record.usage.cached_input_tokens == 2000


@pytest.mark.parametrize(("answer", "status"), [("Severity: none\nOn track.", ExitCode.OK),
                                                ("Severity: nit\nName the test.", ExitCode.OK),
                                                ("Severity: blocker\nStop.", ExitCode.FINDINGS),
                                                ("Looks fine to me.", ExitCode.FINDINGS)])
def test_exit_status_follows_the_verdict(answer: str, status: int, tmp_path: Path, home: Path,
                                         model_server: ModelServer, capsys: pytest.CaptureFixture[str]) -> None:
    """0 for none and nit; 1 for concern, blocker, and an answer without a verdict line (never read as none)."""
    model_server.enqueue(Reply(text=answer))
    code = main(["consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url", model_server.openai_base_url,
                 "--json"])
    envelope = json.loads(capsys.readouterr().out)
    assert code == status and envelope["advice"] == answer and envelope["stop_reason"] == "answered"
    assert envelope["severity"] == (answer.split(":")[1].split()[0] if answer.startswith("Severity") else None)


def test_an_unreachable_model_is_exit_2_with_one_line_naming_the_url(tmp_path: Path, home: Path) -> None:
    """A base URL nothing listens on: exit 2, one line on stderr that names it, no traceback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    done = witness("consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url", url,
                   env={"WITNESS_HOME": str(home), "OPENAI_API_KEY": "k"})
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == ExitCode.USAGE and done.stdout == b""
    assert len(lines) == 1 and url in lines[0] and "Traceback" not in done.stderr.decode()


def test_usage_errors_are_exit_2(tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing transcript, a file that is not one, `--upto` past the last call, or no model: exit 2, a message."""
    assert main(["consult", "--dry-run", str(tmp_path / "nope.jsonl")]) == ExitCode.USAGE
    (tmp_path / "notes.txt").write_text("hello\n")
    assert main(["consult", "--dry-run", str(tmp_path / "notes.txt")]) == ExitCode.USAGE
    assert main(["consult", "--dry-run", "--upto", "9", str(session(tmp_path))]) == ExitCode.USAGE
    assert main(["consult", str(session(tmp_path))]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "--upto 9: the session has only 3 tool call(s)" in err and "no advisor model is configured" in err
    assert "Traceback" not in err


def test_upto_replays_the_session_as_if_it_ended_there(tmp_path: Path, home: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`--upto 1`: only the first tool call and its result are in the request; its failure is the open obligation."""
    main(["consult", "--dry-run", "--json", "--upto", "1", str(session(tmp_path))])
    last = json.loads(capsys.readouterr().out)["messages"][-1]["content"]
    assert "pytest -q" in last and "echo done" not in last and "All tests pass." not in last
    assert "[executor thinking] the suite may be slow" in last
    assert "- `pytest -q` (test) in /work/app: failed" in last


def test_the_workspace_defaults_to_the_sessions_directory_when_it_exists(tmp_path: Path, home: Path,
                                                                         model_server: ModelServer) -> None:
    """The session recorded its cwd; it exists here, so the advisor's `read` looks there, and nowhere else."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "app.py").write_text("ANSWER = 42\n")
    lines = [json.loads(line) for line in session(tmp_path).read_text().splitlines()]
    (tmp_path / "here.jsonl").write_text("".join(json.dumps({**line, "cwd": str(repo)}) + "\n" for line in lines))
    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "app.py"})]), Reply(text="Severity: none"))
    assert main(["consult", str(tmp_path / "here.jsonl"), "--model", "gpt-test",
                 "--base-url", model_server.openai_base_url]) == ExitCode.OK
    assert "ANSWER = 42" in json.dumps(model_server.requests[1].body)


@pytest.mark.parametrize("where", ["recorded home", "--workspace /"])
def test_a_workspace_at_the_root_or_the_home_directory_is_refused_before_any_model_is_asked(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, model_server: ModelServer, where: str) -> None:
    """A session started in the home directory (the default workspace), or `--workspace /`, would let the advisor
    read every file of the user: `witness consult` says so in one line and what to pass, exits 2, asks no model."""
    user = tmp_path / "me"
    user.mkdir()
    monkeypatch.setenv("HOME", str(user))
    lines = [json.loads(line) for line in session(tmp_path).read_text().splitlines()]
    (tmp_path / "here.jsonl").write_text("".join(json.dumps({**line, "cwd": str(user)}) + "\n" for line in lines))
    extra = ["--workspace", "/"] if where == "--workspace /" else []
    done = witness("consult", str(tmp_path / "here.jsonl"), "--model", "gpt-test", "--base-url",
                   model_server.openai_base_url, *extra, env={"HOME": str(user), "WITNESS_HOME": str(home)})
    assert done.returncode == ExitCode.USAGE
    message = done.stderr.decode()
    assert message.startswith("witness consult: the workspace ") and message.count("\n") == 1
    assert "--workspace" in message and "Traceback" not in message
    assert not model_server.requests


def test_the_question_is_asked(tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--question` becomes the executor's question in the last message, before the instruction."""
    main(["consult", "--dry-run", "--json", "--question", "Is the retry fix complete?", str(session(tmp_path))])
    last = json.loads(capsys.readouterr().out)["messages"][-1]["content"]
    assert "Executor's question: Is the retry fix complete?" in last
    assert last.index("Executor's question") < last.index("Advise the executor")


class Terminal(io.StringIO):
    """A stream that says it is a terminal (so rich is used, as on a real one)."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_severity_styled_and_a_pipe_the_advice_verbatim(tmp_path: Path, home: Path,
                                                                            model_server: ModelServer) -> None:
    """On a terminal the verdict is styled by rich and the footer follows; piped, stdout is the advice alone."""
    model_server.enqueue(Reply(text="Severity: blocker\n- **Re-run** `pytest -q`."))
    code = main(["consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url", model_server.openai_base_url,
                 "--json"])
    assert code == ExitCode.FINDINGS
    [result] = ConsultationLog(home / "log").consultations()
    terminal, err = Terminal(), io.StringIO()
    print_result(result, terminal, err)
    shown = terminal.getvalue()
    assert "\x1b[" in shown and "Severity: blocker" in shown and "**" not in shown and "witness log" in shown
    piped = io.StringIO()
    print_result(result, piped, err)
    assert piped.getvalue() == "Severity: blocker\n- **Re-run** `pytest -q`.\n" and "witness log" in err.getvalue()


def test_witness_log_lists_and_shows_what_the_advisor_did(tmp_path: Path, home: Path, model_server: ModelServer,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """After a consultation, `witness log` lists it; `witness log ID` shows its requests, tool calls, tokens and
    advice; `--json` gives the record with its transcript; an unknown id is exit 2."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("ls", {})]), Reply(text="Severity: nit\nName it.",
                                                                       input_tokens=900, output_tokens=12))
    main(["consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url", model_server.openai_base_url,
          "--workspace", str(tmp_path)])
    capsys.readouterr()
    assert main(["log"]) == ExitCode.OK
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["id", "started", "session", "advisor", "outcome", "requests", "tools", "tokens"]
    ident = table[1].split()[0]
    assert "openai:gpt-test" in table[1] and "severity nit" in table[1]
    assert main(["log", ident[:12]]) == ExitCode.OK
    detail = capsys.readouterr().out
    assert f"consultation {ident}" in detail and "ls() →" in detail and "Name it." in detail
    assert "message(s) in the cache-stable prefix" in detail
    assert main(["log", "--json", ident]) == ExitCode.OK
    record: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert record["id"] == ident and len(record["transcript"]["responses"]) == 2
    assert main(["log", "19990101"]) == ExitCode.USAGE
    assert "no consultation '19990101'" in capsys.readouterr().err


def test_witness_log_with_nothing_recorded(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty log says so on stderr and exits 0; `--json` prints an empty list."""
    assert main(["log"]) == ExitCode.OK and "no consultations recorded" in capsys.readouterr().err
    assert main(["log", "--json"]) == ExitCode.OK and capsys.readouterr().out == "[]\n"


def test_the_sdk_client_of_the_test_is_the_official_one() -> None:
    """The consultations above go through the official `openai` package (not a stand-in)."""
    assert openai.__name__ == "openai" and os.path.basename(os.path.dirname(openai.__file__)) == "openai"


def test_what_the_advisors_tools_read_is_redacted_too(tmp_path: Path, home: Path, model_server: ModelServer) -> None:
    """A key in a workspace file the advisor reads is replaced by its marker before it is sent back to the model."""
    key = TOKENS[1][1]
    (tmp_path / "settings.py").write_text(f"OPENAI_API_KEY = '{key}'\n")
    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "settings.py"})]), Reply(text="Severity: none"))
    main(["consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url", model_server.openai_base_url,
          "--workspace", str(tmp_path)])
    sent = json.dumps([r.body for r in model_server.requests])
    assert key not in sent and "OPENAI_API_KEY = '[REDACTED:sk-api-key]'" in sent
