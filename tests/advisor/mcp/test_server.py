"""`witness mcp` as a host runs it: a real process on stdio, driven by the official `mcp` SDK's client;
the advisor behind it is the scripted model server on loopback (a test double for the remote model)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, TextContent, Tool

from advisor.consult import ConsultationLog
from tests.advisor.mcp.homes import FAILING, Home
from tests.advisor.sessions import WITNESS
from tests.support.model_server import ModelServer
from tests.support.script import Reply

pytestmark = pytest.mark.slow

SESSION = "aaaaaaaa-1111"


async def _session(env: Mapping[str, str], cwd: Path, calls: list[tuple[str, dict[str, Any], dict[str, Any]]],
                   flags: list[str]) -> tuple[list[Tool], list[CallToolResult]]:
    params = StdioServerParameters(command=WITNESS, args=["mcp", *flags], env={"PATH": os.environ["PATH"], **env},
                                   cwd=cwd)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        tools = (await client.list_tools()).tools
        results = [await client.call_tool(name, arguments, meta=meta)  # type: ignore[call-overload]  # a plain dict as _meta
                   for name, arguments, meta in calls]
    return tools, results


def serve(env: Mapping[str, str], cwd: Path, *calls: tuple[str, dict[str, Any], dict[str, Any]],
          flags: tuple[str, ...] = ()) -> tuple[list[Tool], list[CallToolResult]]:
    """Start `witness mcp FLAGS` with ``env`` in ``cwd``, list its tools and make ``calls``."""
    return asyncio.run(_session(env, cwd, list(calls), list(flags)))


def text(result: CallToolResult) -> str:
    return "\n".join(part.text for part in result.content if isinstance(part, TextContent))


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path)


def advisor_env(home: Home, server: ModelServer) -> dict[str, str]:
    """A Claude Code server's environment, with the advisor model at the scripted server."""
    return {**home.claude_env(SESSION), "WITNESS_HOME": str(home.root / "witness"),
            "WITNESS_ADVISOR_PROVIDER": "openai", "WITNESS_ADVISOR_MODEL": "scripted-test-double",
            "WITNESS_ADVISOR_BASE_URL": server.openai_base_url, "OPENAI_API_KEY": "sk-scripted"}


def test_tools_are_listed_for_the_executor(home: Home) -> None:
    """The server offers `advisor` (no required parameter) and `obligations`, read-only, loaded up front."""
    tools, _ = serve(home.claude_env(None), home.project)
    by_name = {tool.name: tool for tool in tools}
    assert sorted(by_name) == ["advisor", "obligations"]
    assert by_name["advisor"].input_schema.get("required", []) == []
    assert "question" in by_name["advisor"].input_schema["properties"]
    for tool in tools:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.meta == {"anthropic/alwaysLoad": True}
    assert "Severity: none" in (by_name["advisor"].description or "")
    assert "next visible reply" in (by_name["advisor"].description or "")


def test_advisor_answers_from_the_calling_sessions_ledger(home: Home) -> None:
    """`advisor` sends the calling session's ledger, its open obligation included, and returns verdict and advice."""
    _, calls = home.claude_session(SESSION, FAILING)
    with ModelServer() as server:
        server.enqueue(Reply(text="Severity: concern\nRe-run `pytest -q`: it failed and was never re-run."))
        _, (result,) = serve(advisor_env(home, server), home.project,
                             ("advisor", {"question": "Am I done?"}, {"claudecode/toolUseId": calls[0]}))
        (request,) = server.requests_to("chat")
    assert not result.is_error and text(result).startswith("Severity: concern\nRe-run `pytest -q`")
    sent = json.dumps(request.body)
    assert "pytest -q" in sent and "Verification obligations witness records as open" in sent
    assert "Am I done?" in sent


def test_advice_is_logged_with_who_asked(home: Home) -> None:
    """Each consultation through the tool is in `witness log`'s record, as a manual one for the session."""
    _, calls = home.claude_session(SESSION, FAILING)
    with ModelServer() as server:
        server.enqueue(Reply(text="Severity: none\nOn track."))
        serve(advisor_env(home, server), home.project, ("advisor", {}, {"claudecode/toolUseId": calls[0]}))
    (logged,) = ConsultationLog(home.root / "witness" / "log").consultations()
    assert logged.advice == "Severity: none\nOn track."
    assert logged.lineage is not None and logged.lineage.trigger == "manual"
    assert logged.lineage.consultation_id == calls[0]


def test_the_model_can_be_chosen_by_flags(home: Home) -> None:
    """`witness mcp --model … --provider … --base-url …` consults that model with nothing in the environment."""
    _, calls = home.claude_session(SESSION, FAILING)
    env = {**home.claude_env(SESSION), "WITNESS_HOME": str(home.root / "witness"), "OPENAI_API_KEY": "sk-scripted"}
    with ModelServer() as server:
        server.enqueue(Reply(text="Severity: none\nOn track."))
        _, (result,) = serve(env, home.project, ("advisor", {}, {"claudecode/toolUseId": calls[0]}),
                             flags=("--model", "scripted-test-double", "--provider", "openai",
                                    "--base-url", server.openai_base_url))
        assert len(server.requests_to("chat")) == 1
    assert not result.is_error and text(result) == "Severity: none\nOn track."


def test_unknown_caller_is_advised_on_the_question_alone(home: Home) -> None:
    """A call no transcript holds sends no session's ledger: the advice answers the question and says so."""
    home.claude_session(SESSION, FAILING)
    with ModelServer() as server:
        server.enqueue(Reply(text="Severity: nit\nName the test."))
        _, (result,) = serve(advisor_env(home, server), home.project,
                             ("advisor", {"question": "Is a flaky retry fine?"}, {}))
        (request,) = server.requests_to("chat")
    assert text(result).startswith("Severity: nit\nName the test.")
    assert "could not tell which session" in text(result)
    assert "pytest -q" not in json.dumps(request.body) and "Is a flaky retry fine?" in json.dumps(request.body)


def test_unreachable_model_is_an_error_result(home: Home) -> None:
    """With the advisor model down, the tool answers with an error result saying so (no exception, no hang)."""
    _, calls = home.claude_session(SESSION, FAILING)
    with ModelServer() as server:
        env = advisor_env(home, server)
    _, (result,) = serve(env, home.project, ("advisor", {}, {"claudecode/toolUseId": calls[0]}))
    assert result.is_error and "Advisor call failed" in text(result)


def test_unconfigured_advisor_says_how_to_configure(home: Home) -> None:
    """Without an advisor model the tool says which settings to make, as an error result."""
    _, calls = home.claude_session(SESSION, FAILING)
    env = {**home.claude_env(SESSION), "WITNESS_HOME": str(home.root / "witness")}
    _, (result,) = serve(env, home.project, ("advisor", {}, {"claudecode/toolUseId": calls[0]}))
    assert result.is_error and "WITNESS_ADVISOR_MODEL" in text(result)


def test_obligations_over_stdio(home: Home) -> None:
    """`obligations` lists the calling session's open check and what closes it."""
    _, calls = home.claude_session(SESSION, FAILING)
    _, (result,) = serve(home.claude_env(SESSION), home.project,
                         ("obligations", {}, {"claudecode/toolUseId": calls[0]}))
    assert not result.is_error and "`pytest -q` (test)" in text(result) and "closes only through" in text(result)
