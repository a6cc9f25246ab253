"""A full consultation through each real SDK against the loopback server returns a parsed verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.consult import ConsultationLog
from tests.advisor.consult.helpers import run
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

pytestmark = pytest.mark.anyio
ADVICE = "**Severity:** concern\n- `retry()` still loops forever when the server answers 503 (src/retry.py:2)."


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
async def test_consultation_with_investigation_and_verdict(model_server: ModelServer, tmp_path: Path,
                                                           provider: str, stream: bool) -> None:
    """The advisor expands a card, reads a file and greps, then answers; the verdict is parsed and all is logged."""
    workspace = tmp_path / "ws"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "retry.py").write_text("def retry():\n    while True: pass\n")
    (workspace / ".env").write_text("API_KEY=sk-live-do-not-leak")
    model_server.enqueue(
        Reply(reasoning="check the loop", tool_calls=[ToolCall("advisor_expand", {"ids": ["#e3"]}),
                                                      ToolCall("read", {"path": "src/retry.py"})]),
        Reply(tool_calls=[ToolCall("grep", {"pattern": "while True|API_KEY"})]),
        Reply(text=ADVICE, input_tokens=3000, cached_tokens=2500, output_tokens=60))
    log = tmp_path / "log"
    result = await run(model_server, workspace=workspace, provider=provider, log=log, model={"stream": stream})
    assert result.stop_reason == "answered" and result.severity == "concern" and result.advice == ADVICE
    assert [(r.tool, r.argument) for r in result.rounds] == [("advisor_expand", "#e3"), ("read", "src/retry.py"),
                                                             ("grep", "while True|API_KEY")]
    assert len(result.attempts) == 3 and result.usage.cached_input_tokens == 2500
    sent = json.dumps([r.body for r in model_server.requests])
    assert "2 passed in 0.1s" in sent and "while True: pass" in sent and "src/retry.py:2:" in sent
    assert "sk-live-do-not-leak" not in sent
    logged = ConsultationLog(log).load(result.id)
    assert logged.severity == "concern" and logged.transcript is not None
    assert len(logged.transcript.responses) == 3 and logged.transcript.responses[-1] is not None
    assert logged.transcript.responses[-1].text == ADVICE


async def test_anthropic_request_carries_cache_breakpoints_and_tool_results(model_server: ModelServer,
                                                                           tmp_path: Path) -> None:
    """Through Anthropic, the stable prefix is marked for caching and tool results pair with their calls."""
    (tmp_path / "a.py").write_text("x = 1\n")
    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "a.py"})]), Reply(text="Severity: none"))
    result = await run(model_server, workspace=tmp_path, provider="anthropic")
    assert result.severity == "none"
    first, second = (r.body for r in model_server.requests)
    assert first["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert first["metadata"] == {"user_id": "advisor:s1"} and first["system"][0]["cache_control"]
    results = [b for b in second["messages"][-1]["content"] if b["type"] == "tool_result"]
    assert results[0]["content"] == "x = 1\n" and results[0]["is_error"] is False
