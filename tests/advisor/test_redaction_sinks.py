"""Every way a session's text reaches a model, walked with one seeded secret placed where each sink
cuts its text: no sink lets a piece of it through — not whole, and not the half a cut would leave.

Each sink is redacted before anything is cut: a GitHub token cut after 20 characters no longer has
its shape, so a sink that cut first and redacted after would send its head. The secret is the
test's own (a GitHub token shaped as real ones are, never issued)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from advisor.consult import ConsultationLog, ConsultSettings, Investigation, consult
from advisor.gateway import forwarded
from advisor.ledger import Ledger
from advisor.models import ChatUser, ScriptedModel, ToolCall
from advisor.models._failures import unreadable
from advisor.orchestration import AdvisorHost, HostSettings, RunLog
from advisor.prompt import AdvisorPrompt
from obligations import Event, HostMessage, ToolCatalogue, ToolInfo
from tests.advisor.ledger.builders import advice, ask, call, compaction, round_, say, user
from tests.support.secrets import SEEDED

SECRET = SEEDED


def pieces(text: str) -> list[str]:
    """Every 10 characters of the secret that ``text`` holds (none: nothing of it got through)."""
    return sorted({SECRET[i:i + 10] for i in range(len(SECRET) - 9) if SECRET[i:i + 10] in text})


def around(position: int, size: int, filler: str = "x") -> str:
    """``size`` characters of ``filler`` with the secret starting at ``position`` (a sink's cut falls inside it)."""
    start = max(0, position - len(SECRET) // 2)
    return (filler * start + " " + SECRET + " " + filler * size)[:size]


def request(events: list[Event], question: str | None = None) -> str:
    """Everything a ledger's request holds, as one text."""
    prompt = Ledger().extend(events).prompt(question=question or "Is it done?")
    return prompt.system + "\n".join(message.text for message in prompt.messages)


def filler_rounds(n: int) -> list[Event]:
    """Rounds after the one under test, so that it is a card (older than the verbatim tail)."""
    return [e for k in range(n) for e in round_(f"f{k}", "read", {"path": f"f{k}.py"}, "ok", f"rf{k}")]


LEDGER_SINKS: dict[str, Callable[[], str]] = {
    "the user's words (kept around a cut at 9,999)": lambda: request([user(around(9_999, 60_000), "u")]),
    "the executor's prose (cut at 399)": lambda: request(
        [user("task"), say(around(399, 2_000), "s"), *filler_rounds(3)]),
    "the triggering reasoning (cut at 3,999)": lambda: request(
        [user("task"), say("next", "s", reasoning=around(3_999, 20_000)), call("a", "advisor")]),
    "a card's argument (cut at 120)": lambda: request(
        [user("task"), *round_("c", "Bash", {"command": "echo " + around(117, 300)}, "ok", "r"), *filler_rounds(3)]),
    "a card's error line (cut at 200)": lambda: request(
        [user("task"), *round_("c", "Bash", {"command": "make"}, "Error: " + around(195, 400), "r", error=True,
                               exit_code=2), *filler_rounds(3)]),
    "a card's check evidence (its failure line cut at 80)": lambda: request(
        [user("task"), *round_("c", "Bash", {"command": "pytest -q"},
                               "FAILED tests/test_api.py::test_login - AssertionError: token " + SECRET + " x\n"
                               "=== 1 failed, 2 passed in 0.1s ===", "r", exit_code=0), *filler_rounds(3)]),
    "the open obligations (the check's command)": lambda: request(
        [user("task"), *round_("c", "Bash", {"command": f"GITHUB_TOKEN={SECRET} pytest -q"}, "1 failed", "r",
                               exit_code=1), *filler_rounds(3)]),
    "a verbatim round's arguments (cut at 3,999)": lambda: request(
        [user("task"), *round_("c", "Bash", {"command": around(3_990, 20_000)}, "ok", "r")]),
    "a verbatim round's quiet result (cut at 249)": lambda: request(
        [user("task"), *round_("c", "Bash", {"command": "cat log"}, around(249, 3_000), "r", exit_code=0)]),
    "the tool catalogue (a description cut at 200)": lambda: request(
        [ToolCatalogue(tools=(ToolInfo(name="deploy", description="Deploy with " + around(190, 400)),)),
         user("task")]),
    "a compaction summary (kept around a cut at 999)": lambda: request(
        [user("task"), compaction(around(999, 5_000), "k"), user("go on")]),
    "a hook's feedback (cut at 249)": lambda: request(
        [user("task"), HostMessage(kind="hook-feedback", text=around(249, 1_000), entry_id="h")]),
    "past advice": lambda: request([user("task"), *ask("a", "ok?", "q"), advice("a", f"rotate {SECRET}", "v")]),
    "the executor's question": lambda: request([user("task")], question=f"is {SECRET} still valid?"),
}


@pytest.mark.parametrize("sink", LEDGER_SINKS)
def test_no_piece_of_a_secret_reaches_the_ledger(sink: str) -> None:
    """Wherever the ledger cuts a text — a card, an excerpt, the obligations — the secret was redacted first."""
    sent = LEDGER_SINKS[sink]()
    assert pieces(sent) == [] and "[REDACTED:" in sent


def test_advisor_expand_cuts_each_entry_after_redacting_it() -> None:
    """`advisor_expand` of many ids cuts each entry to its share (here 512 characters) of clean text."""
    ledger = Ledger().extend([user("task"), *round_("c", "Bash", {"command": "env"}, around(230, 5_000), "r"),
                              *filler_rounds(30)])
    ids = ["r", *(f"rf{k}" for k in range(30))]
    outcome = Investigation(expand=ledger.expand).run(ToolCall(id="1", name="advisor_expand", arguments={"ids": ids}))
    assert pieces(outcome.text) == [] and "[REDACTED:" in outcome.text


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A repository whose files hold the secret: in a line grep cuts at 300 characters, in an uncommitted
    change, and in a file's name."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "config.py").write_text("TIMEOUT = 3\n")
    for argv in (["init", "-q"], ["add", "."], ["-c", "user.email=a@b", "-c", "user.name=n", "commit", "-qm", "c"]):
        subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True)
    (root / "config.py").write_text(f"TIMEOUT = 3\nclient = Client({SECRET!r})\n")
    (root / "wide.txt").write_text("needle " + around(295, 600) + "\n")
    (root / f"{SECRET}.txt").write_text("named after it\n")
    return root


@pytest.mark.parametrize(("tool", "arguments"), [
    ("read", {"path": "config.py"}), ("grep", {"pattern": "needle"}), ("git_diff", {"patch": True}),
    ("ls", {}), ("find", {"pattern": "*.txt"}),
])
def test_no_piece_of_a_secret_reaches_the_advisor_through_its_tools(workspace: Path, tool: str,
                                                                     arguments: dict[str, object]) -> None:
    """What `read`, `grep`, `git_diff`, `ls` and `find` return is redacted whole before any cut."""
    outcome = Investigation(workspace).run(ToolCall(id="1", name=tool, arguments=arguments))
    assert not outcome.is_error and pieces(outcome.text) == [] and "[REDACTED:" in outcome.text


def test_no_piece_of_a_secret_reaches_a_case_packet(tmp_path: Path) -> None:
    """A host's packet: the question, the user's words, a command, and an output whose shown tail is cut
    inside the secret, all redacted before they are kept or cut."""
    host = AdvisorHost(None, settings=HostSettings(), workspace=tmp_path, log=False, run_log=RunLog(tmp_path))
    host.register_agent("main")
    host.on_user_message("main", f"deploy with {SECRET}")
    host.on_tool_dispatched("main", "c1", "bash", {"command": f"GITHUB_TOKEN={SECRET} pytest -q"})
    host.on_tool_result("main", "c1", exit_code=1, output=around(10_003, 12_000) + "\n1 failed")
    text = host.packet("main", question=f"is {SECRET} leaked?").text
    assert pieces(text) == [] and "[REDACTED:" in text


def test_no_piece_of_a_secret_reaches_the_gateways_forwarded_transcript() -> None:
    """The conversation a gateway's advisor is shown: user words, tool calls and results, redacted."""
    messages = [{"role": "user", "content": f"use {SECRET}"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "t1", "type": "function", "function": {"name": "shell", "arguments": json.dumps(
                        {"command": f"GITHUB_TOKEN={SECRET} pytest -q"})}}]},
                {"role": "tool", "tool_call_id": "t1", "content": around(254, 3_000)}]
    prompt = forwarded(messages, client_tools=[], question=f"and {SECRET}?", instructions=None,
                       token_budget=250_000).prompt
    text = "\n".join(message.text for message in prompt.messages)
    assert pieces(text) == [] and "[REDACTED:" in text


def test_no_piece_of_a_secret_reaches_a_model_or_the_log_whoever_built_the_prompt(tmp_path: Path) -> None:
    """A prompt built by hand, a tool result and the model's own answer: the model is sent none of the
    secret, and the consultation log on disk holds none of it."""
    (tmp_path / "notes.txt").write_text(f"token: {SECRET}\n")
    model = ScriptedModel([{"tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]},
                           f"Severity: concern\nRotate {SECRET} now."])
    prompt = AdvisorPrompt(system="advise", messages=(ChatUser(f"the key is {SECRET}"),))
    book = ConsultationLog(tmp_path / "log")
    settings = ConsultSettings(retry_delay=0)
    book.keep(asyncio.run(consult(prompt, model, investigation=Investigation(tmp_path, settings=settings))))
    sent = "".join(request.model_dump_json() for request in model.requests)
    assert pieces(sent) == [] and "[REDACTED:" in sent
    written = book.path.read_text()
    assert pieces(written) == [] and "[REDACTED:" in written


def _exploding(card: str) -> str:
    """An expander that fails with a message holding the secret where the error's 2000-character cut falls."""
    prefix = "advisor_expand failed unexpectedly (RuntimeError: "
    raise RuntimeError(around(2000 - len(prefix), 2100 - len(prefix)))


ERROR_CALLS: dict[str, ToolCall] = {
    "unexpected failure (cut at 2000)": ToolCall(id="c1", name="advisor_expand", arguments={"ids": ["1"]}),
    "arguments not JSON (cut at 200)": ToolCall(id="c2", name="read", invalid_arguments=around(200, 400)),
    "invalid grep pattern (cut at 200)": ToolCall(id="c3", name="grep", arguments={"pattern": "(" + around(200, 400)}),
    "glob that cannot be used (cut at 200)": ToolCall(id="c4", name="find",
                                                      arguments={"pattern": "{1..100000}" + around(189, 400)}),
}


@pytest.mark.parametrize("name", ERROR_CALLS)
def test_no_piece_of_a_secret_reaches_the_advisor_through_a_tools_error(tmp_path: Path, name: str) -> None:
    """A tool's error text (an unexpected failure, arguments that are not JSON, a pattern or glob that cannot
    be used) is redacted whole before it is cut, with a secret straddling the cut."""
    outcome = Investigation(tmp_path, expand=_exploding).run(ERROR_CALLS[name])
    assert outcome.is_error
    assert not pieces(outcome.text), outcome.text


def test_no_piece_of_a_secret_reaches_the_error_for_an_answer_that_is_not_one() -> None:
    """An endpoint's body that is not an answer (a proxy's error page echoing the request) is named in the error
    redacted whole, then cut at 200 characters, with a secret straddling the cut."""
    error = unreadable(around(200, 400), provider="openai", url="http://127.0.0.1:9/v1")
    assert "[REDACTED:github-pa" in str(error)
    assert not pieces(str(error))
