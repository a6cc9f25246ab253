"""`witness mcp` inside the real Claude Code and Codex CLIs: both tools listed and called by the host, their
answers reaching the host's model, and the advisor's own request (to a second scripted server standing in for
the advisor model) carrying the ledger of the calling session — redacted, with its open obligation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from advisor.ledger import read_ledger
from tests.e2e.conftest import Played, advisor_env, play
from tests.e2e.host_base import Hooks, Host
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.host_codex import Codex
from tests.e2e.sandbox import Sandbox
from tests.support.model_server import ModelServer
from tests.support.script import Reply

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ADVICE = "Severity: concern\nThe test still fails: fix sum.js and re-run `npm test`."
SECRET = "sk-proj-Q2x8fP0aL9mT4rZ7vB1nK6cH3yW5dJ0s"


@pytest.fixture(params=["claude-code", "codex"])
def host(request: pytest.FixtureRequest, claude: ClaudeCode, codex: Codex) -> Host:
    """Each host that loads MCP servers."""
    return claude if request.param == "claude-code" else codex


def play_with_mcp(host: Host, scenario: str, sandbox: Sandbox, server: ModelServer, advisor: ModelServer,
                  advice: str = ADVICE) -> Played:
    """Play ``scenario`` with ``witness mcp`` configured, the advisor model answering ``advice``."""
    advisor.default = Reply(text=advice)
    return play(host, scenario, sandbox, server, Hooks().with_mcp(advisor_env(sandbox, advisor)))


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


def test_tools_are_listed_called_and_answered(host: Host, sandbox: Sandbox, model_server: ModelServer,
                                              advisor_server: ModelServer) -> None:
    """The host declares both tools to its model up front, calls them, and sends their answers back to it."""
    played = play_with_mcp(host, "mcp_tools", sandbox, model_server, advisor_server)
    assert played.agent.played_through("main"), played.explain()
    requests = [r for r in model_server.requests if r.api in ("messages", "responses") and r.body.get("tools")]
    assert len(requests) >= 4, played.explain()
    shown = [(sorted(declared(host, r.body)), len(r.body["tools"]), r.path) for r in requests]
    assert all(names == ["mcp__witness__advisor", "mcp__witness__obligations"] for names, _, _ in shown), shown
    results = tool_results(requests[-1].body)
    assert "Verification obligations open in this session (1)" in results and "`npm test` (test)" in results
    assert "The test still fails: fix sum.js" in results, results[-2000:]


def test_advisor_reads_this_sessions_ledger_redacted(host: Host, sandbox: Sandbox, model_server: ModelServer,
                                                     advisor_server: ModelServer) -> None:
    """The advisor's one request holds this session's work and open obligation and the question, not the secret."""
    play_with_mcp(host, "mcp_tools", sandbox, model_server, advisor_server)
    (request,) = advisor_server.requests_to("chat")
    sent = json.dumps(request.body)
    assert "1 failed: sum(2, 3) is -1" in sent and "Verification obligations witness records as open" in sent
    assert "Is the failing test dealt with?" in sent and "mcp__witness__obligations" in sent
    assert SECRET not in sent and "[REDACTED:openai-key]" in sent


def test_mcp_advice_is_a_past_consultation_in_the_next_ledger(host: Host, sandbox: Sandbox,
                                                              model_server: ModelServer,
                                                              advisor_server: ModelServer) -> None:
    """The advice the host recorded as the tool's result comes back, in the transcript's next ledger, as the
    advisor's own earlier turn."""
    played = play_with_mcp(host, "mcp_tools", sandbox, model_server, advisor_server)
    (transcript,) = played.run.transcripts
    messages = read_ledger(transcript).ledger.prompt(question="and now?").messages
    assert [m.text for m in messages if m.role == "assistant"] == [ADVICE]


def test_two_sessions_in_one_directory(host: Host, sandbox: Sandbox, model_server: ModelServer,
                                       advisor_server: ModelServer) -> None:
    """A second session in the same project is answered from its own transcript, not the first's open failure."""
    first = play_with_mcp(host, "mcp_tools", sandbox, model_server, advisor_server)
    model_server.reset()
    second = play_with_mcp(host, "mcp_clean", sandbox, model_server, advisor_server, advice="Severity: none\nFine.")
    assert second.agent.played_through("main") and len(second.run.transcripts) == 2, second.explain()
    results = tool_results(model_server.requests[-1].body)
    assert "none open" in results and "npm test" not in results, results
    (request,) = advisor_server.requests_to("chat")[1:]
    sent = json.dumps(request.body)
    assert "List the files of the project." in sent and "sum(2, 3)" not in sent
    assert first.run.transcripts[0] in second.run.transcripts
