"""`witness consult` shows what it is doing while the model thinks — elapsed time, the request it waits on, the
tool the advisor asked for — on a terminal, through rich, and nothing at all when its output is piped."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import threading
import time
from pathlib import Path

from rich.console import Console

from advisor.cli._consult_status import ConsultStatus
from advisor.consult import Step
from tests.advisor.cli.test_consult import session
from tests.advisor.sessions import WITNESS
from tests.support.model_server import ModelServer
from tests.support.script import Held, Reply, ToolCall


def shown(status: ConsultStatus) -> str:
    """What the status line says now, drawn as a terminal would show it (without its spinner)."""
    console = Console(file=io.StringIO(), force_terminal=False, width=200)
    with console.capture() as captured:
        console.print(status.__rich__())
    return captured.get()


def test_each_step_is_said_in_words() -> None:
    """Reading (with the megabytes read), compiling, waiting for request N, running a tool with its argument."""
    status = ConsultStatus(io.StringIO())
    status.reading(Path(__file__))(1_500_000)
    assert "witness consult · 0 s · reading the session · 1.5 MB of" in shown(status)
    status.compiling()
    assert "compiling the ledger" in shown(status)
    status.advisor = "openai:gpt-test"
    status.step(Step("request", 2))
    assert "consulting openai:gpt-test · 0 s · request 2 · waiting for the answer" in shown(status)
    status.step(Step("tool", 2, "grep", "TODO"))
    assert "request 2 · running grep(TODO)" in shown(status)


def _run_on_a_terminal(args: list[str], env: dict[str, str], until: bytes, then: threading.Event) -> bytes:
    """Run witness with its standard error on a terminal (stdout piped); once ``until`` has been drawn, set
    ``then``; return everything drawn."""
    primary, secondary = pty.openpty()
    drawn = b""
    with subprocess.Popen([WITNESS, *args], stdout=subprocess.PIPE, stderr=secondary, env=env) as run:
        os.close(secondary)
        deadline = time.monotonic() + 60
        while run.poll() is None or not then.is_set():
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            drawn += chunk
            if until in drawn:
                then.set()
            if time.monotonic() > deadline:
                then.set()
                break
        run.wait(timeout=60)
    os.close(primary)
    return drawn


def test_a_consultation_on_a_terminal_shows_its_live_status(tmp_path: Path, model_server: ModelServer) -> None:
    """On a terminal, while the model answers, a status line names the advisor, the elapsed seconds and the
    request it waits on — and it is gone when the advice is printed."""
    release = threading.Event()
    model_server.enqueue(Reply(tool_calls=[ToolCall("ls", {"path": "."})]),
                         Held(Reply(text="Severity: none\nOn track."), release))
    env = {**os.environ, "WITNESS_HOME": str(tmp_path / "home"), "OPENAI_API_KEY": "k", "COLUMNS": "160"}
    drawn = _run_on_a_terminal(["consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url",
                                model_server.openai_base_url, "--workspace", str(tmp_path)], env,
                               b"waiting for the answer", release)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn.decode(errors="replace"))  # the terminal's styles
    assert "consulting openai:gpt-test" in text and " s · request 2 · waiting for the answer" in text
    assert "Traceback" not in text


def test_a_piped_consultation_draws_nothing(tmp_path: Path, model_server: ModelServer) -> None:
    """Piped (standard error not a terminal): no status at all — only the advice and its footer."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("ls", {"path": "."})]), Reply(text="Severity: none\nOn track."))
    done = subprocess.run([WITNESS, "consult", str(session(tmp_path)), "--model", "gpt-test", "--base-url",
                           model_server.openai_base_url, "--workspace", str(tmp_path)], capture_output=True,
                          timeout=120, env={**os.environ, "WITNESS_HOME": str(tmp_path / "home"),
                                            "OPENAI_API_KEY": "k"})
    assert done.returncode == 0 and done.stdout == b"Severity: none\nOn track.\n"
    (footer,) = done.stderr.decode().splitlines()
    assert footer.startswith("openai:gpt-test · 2 request(s)") and "waiting" not in footer and "\x1b" not in footer


def test_the_tool_the_model_names_cannot_drive_the_terminal() -> None:
    """A tool call's name and argument come from the model: escapes, BEL and bidi overrides in them are drawn as
    `?`, as everywhere witness prints a model's words."""
    status = ConsultStatus(io.StringIO())
    status.step(Step("tool", 1, "read\x1b[2J", "a\u202e.py\x07"))
    assert status.doing == "request 1 · running read?[2J(a?.py?)"


def test_a_dry_run_on_a_terminal_shows_what_it_reads(tmp_path: Path) -> None:
    """`consult --dry-run` calls no model, but reading and compiling a large session takes time: on a terminal the
    status says so (and the request still goes to standard output whole)."""
    done = threading.Event()
    env = {**os.environ, "WITNESS_HOME": str(tmp_path / "home"), "COLUMNS": "160"}
    drawn = _run_on_a_terminal(["consult", "--dry-run", str(session(tmp_path))], env, b"witness consult", done)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn.decode(errors="replace"))
    assert "witness consult · 0 s · " in text and ("reading the session" in text or "compiling the ledger" in text)
