"""`witness mcp` inside the real Claude Code and Codex CLIs: both tools listed and called by the host, their
answers reaching the host's model, and the advisor's own request (to a second scripted server standing in for
the advisor model) carrying the ledger of the calling session — redacted, with its open obligation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from advisor.ledger import read_ledger
from tests.e2e.conftest import ADVISOR_MODEL, Played, advisor_env, play
from tests.e2e.host_base import Hooks, Host
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.host_codex import Codex
from tests.e2e.installation import HostInstall
from tests.e2e.sandbox import EgressTrap, Sandbox
from tests.support.model_server import ModelServer
from tests.support.script import RecordedRequest, Reply

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ADVICE = "Severity: concern\nThe test still fails: fix sum.js and re-run `npm test`."
SECRET = "sk-proj-Q2x8fP0aL9mT4rZ7vB1nK6cH3yW5dJ0s"


@dataclass
class Sessions:
    """Two sessions played one after the other in one project with ``witness mcp`` configured: ``mcp_tools``
    (its test fails), then ``mcp_clean`` (nothing fails), with what each sent the host's model and the advisor."""

    host: Host
    sandbox: Sandbox
    first: Played
    first_requests: list[RecordedRequest]
    second: Played
    second_requests: list[RecordedRequest]
    advisor_requests: list[RecordedRequest]


@pytest.fixture(scope="module", params=["claude-code", "codex"])
def sessions(request: pytest.FixtureRequest, hosts_install: HostInstall,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sessions]:
    """Each host that loads MCP servers, with both sessions played (once per module: each run takes seconds)."""
    host: Host = ClaudeCode(hosts_install) if request.param == "claude-code" else Codex(hosts_install)
    with EgressTrap() as trap, ModelServer() as server, ModelServer(models=(ADVISOR_MODEL,)) as advisor:
        sandbox = Sandbox(tmp_path_factory.mktemp(request.param), trap).create()
        hooks = Hooks().with_mcp(advisor_env(sandbox, advisor))
        advisor.enqueue(Reply(text=ADVICE), Reply(text="Severity: none\nFine."))
        first = play(host, "mcp_tools", sandbox, server, hooks)
        first_requests = server.requests
        server.reset()
        second = play(host, "mcp_clean", sandbox, server, hooks)
        yield Sessions(host, sandbox, first, first_requests, second, server.requests, advisor.requests_to("chat"))


def declared(host: Host, body: dict[str, Any]) -> set[str]:
    """The witness tools a request declares, as ``mcp__witness__<tool>``."""
    names = set()
    for tool in body.get("tools", []):
        if host.name == "codex" and tool.get("type") == "namespace":
            names |= {f"{tool['name']}__{inner['name']}" for inner in tool.get("tools", [])}
        elif isinstance(tool.get("name"), str):
            names.add(tool["name"])
    return {name for name in names if name.startswith("mcp__witness__")}


def tool_results(body: dict[str, Any]) -> str:
    """Every tool result a request sends the model, as one text."""
    items = body.get("messages") or body.get("input") or []
    found = [json.dumps(part.get("content")) for item in items if isinstance(item.get("content"), list)
             for part in item["content"] if isinstance(part, dict) and part.get("type") == "tool_result"]
    found += [json.dumps(item.get("output")) for item in items if item.get("type") == "function_call_output"]
    return "\n".join(found)


def test_tools_are_listed_called_and_answered(sessions: Sessions) -> None:
    """The host declares both tools to its model in every request, calls them, and sends their answers back."""
    host, played = sessions.host, sessions.first
    assert played.agent.played_through("main"), played.explain()
    requests = [r for r in sessions.first_requests if r.api in ("messages", "responses") and r.body.get("tools")]
    assert len(requests) >= 4, played.explain()
    shown = [sorted(declared(host, r.body)) for r in requests]
    assert all(names == ["mcp__witness__advisor", "mcp__witness__obligations"] for names in shown), shown
    results = tool_results(requests[-1].body)
    assert "Verification obligations open in this session (1)" in results and "`npm test` (test)" in results
    assert "The test still fails: fix sum.js" in results, results[-2000:]


def test_advisor_reads_this_sessions_ledger_redacted(sessions: Sessions) -> None:
    """The advisor's request holds this session's work, its open obligation and the question — not the secret."""
    sent = json.dumps(sessions.advisor_requests[0].body)
    assert "1 failed: sum(2, 3) is -1" in sent and "Verification obligations witness records as open" in sent
    assert "Is the failing test dealt with?" in sent and "mcp__witness__obligations" in sent
    assert SECRET not in sent and "[REDACTED:sk-api-key]" in sent


def test_mcp_advice_is_a_past_consultation_in_the_next_ledger(sessions: Sessions) -> None:
    """The advice the host recorded as the tool's result comes back, in the transcript's next ledger, as the
    advisor's own earlier turn."""
    (transcript,) = sessions.first.run.transcripts
    messages = read_ledger(transcript).ledger.prompt(question="and now?").messages
    assert [m.text for m in messages if m.role == "assistant"] == [ADVICE]


def test_two_sessions_in_one_directory(sessions: Sessions) -> None:
    """A second session in the same project is answered from its own transcript, not the first's open failure."""
    second = sessions.second
    assert second.agent.played_through("main") and len(second.run.transcripts) == 2, second.explain()
    assert sessions.first.run.transcripts[0] in second.run.transcripts
    results = tool_results(sessions.second_requests[-1].body)
    assert "Verification obligations: none open." in results and "sum(2, 3)" not in results, results
    sent = json.dumps(sessions.advisor_requests[1].body)
    assert "List the files of the project." in sent and "sum(2, 3)" not in sent
