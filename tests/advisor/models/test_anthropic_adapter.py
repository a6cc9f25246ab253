"""The Anthropic Messages adapter, through the real `anthropic` SDK against the loopback model server."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from advisor.errors import ModelRefused, ModelUnavailable
from advisor.models import (
    AnthropicModel,
    ChatAssistant,
    ChatTool,
    ChatUser,
    ModelConfig,
    ModelRequest,
    ToolCall,
    ToolSpec,
)
from tests.support.model_server import ModelServer
from tests.support.script import Drop, Hang, HttpError, RateLimited, Reply, ServerError
from tests.support.script import ToolCall as ScriptedCall

pytestmark = pytest.mark.anyio
READ = ToolSpec(name="read", description="Read a file.",
                parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})
EPHEMERAL = {"type": "ephemeral"}


def _config(server: ModelServer, **settings: Any) -> ModelConfig:
    return ModelConfig(provider="anthropic", model="claude-test", base_url=server.anthropic_base_url,
                       **{"max_retries": 0, **settings})


def _request(**fields: Any) -> ModelRequest:
    return ModelRequest(**{"system": "You are the advisor.", "messages": (ChatUser(content="Is this done?"),),
                           **fields})


async def _complete(server: ModelServer, request: ModelRequest, **settings: Any) -> Any:
    async with httpx2.AsyncClient() as http:
        return await AnthropicModel(_config(server, **settings), http_client=http, api_key="k").complete(request)


@pytest.mark.parametrize("stream", [False, True])
async def test_answer_blocks_and_usage(model_server: ModelServer, stream: bool) -> None:
    """Text, thinking and tool use come back; input usage adds cache reads and writes to Anthropic's uncached count."""
    model_server.enqueue(Reply(text="checking", reasoning="let me look", tool_calls=[
        ScriptedCall("read", {"path": "a.py"}, id="toolu_1")], input_tokens=1000, cached_tokens=700,
        cache_write_tokens=200, output_tokens=40))
    answer = await _complete(model_server, _request(tools=(READ,)), stream=stream)
    assert (answer.text, answer.reasoning) == ("checking", "let me look")
    assert [(c.id, c.arguments) for c in answer.tool_calls] == [("toolu_1", {"path": "a.py"})]
    assert answer.stop_reason == "tool_calls" and answer.provider_stop_reason == "tool_use"
    assert (answer.usage.input_tokens, answer.usage.cached_input_tokens, answer.usage.cache_write_tokens,
            answer.usage.output_tokens) == (1000, 700, 200, 40)
    assert answer.replay[0]["type"] == "thinking" and answer.replay[0]["signature"]
    assert answer.request_id and answer.request_id.startswith("req_01")


async def test_request_shape_cache_breakpoints_and_routing(model_server: ModelServer) -> None:
    """System and the stable prefix's last block carry cache_control; tool results join the next user turn."""
    model_server.enqueue(Reply(text="ok"))
    request = _request(
        messages=(ChatUser(content="catalogue"), ChatUser(content="ledger"),
                  ChatAssistant(content="past advice"), ChatUser(content="question"),
                  ChatAssistant(tool_calls=(ToolCall(id="t1", name="read", arguments={"path": "a"}),)),
                  ChatTool(tool_call_id="t1", name="read", content="denied", is_error=True),
                  ChatUser(content="answer now")),
        tools=(READ,), stable_prefix_messages=3, routing_key="advisor:s1", reasoning_effort="minimal",
        max_output_tokens=500)
    await _complete(model_server, request)
    body = model_server.requests[0].body
    assert body["system"] == [{"type": "text", "text": "You are the advisor.", "cache_control": EPHEMERAL}]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "catalogue"}, {"type": "text", "text": "ledger"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "past advice", "cache_control": EPHEMERAL}]},
        {"role": "user", "content": [{"type": "text", "text": "question"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read", "input": {"path": "a"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "denied", "is_error": True},
            {"type": "text", "text": "answer now", "cache_control": EPHEMERAL}]}]
    assert body["tools"] == [{"name": "read", "description": "Read a file.", "input_schema": READ.parameters}]
    assert body["metadata"] == {"user_id": "advisor:s1"} and body["max_tokens"] == 500
    assert body["output_config"] == {"effort": "low"} and body["thinking"] == {"type": "adaptive"}


async def test_no_effort_sends_no_thinking(model_server: ModelServer) -> None:
    """Without an effort, neither output_config nor thinking is sent; the configured cap is."""
    model_server.enqueue(Reply(text="ok"))
    await _complete(model_server, _request(), max_output_tokens=2048)
    body = model_server.requests[0].body
    assert "output_config" not in body and "thinking" not in body and body["max_tokens"] == 2048
    assert "metadata" not in body


async def test_thinking_blocks_go_back_with_the_tool_turn(model_server: ModelServer) -> None:
    """An answer's thinking blocks (with signatures) are replayed first in its assistant turn."""
    model_server.enqueue(Reply(reasoning="plan", tool_calls=[ScriptedCall("read", {"path": "a"}, id="t1")]),
                         Reply(text="done"))
    first = await _complete(model_server, _request(tools=(READ,)))
    follow = _request(tools=(READ,), messages=(ChatUser(content="q"), first.as_message(),
                                               ChatTool(tool_call_id="t1", name="read", content="body")))
    assert (await _complete(model_server, follow)).text == "done"
    blocks = model_server.requests[1].body["messages"][1]["content"]
    assert [b["type"] for b in blocks] == ["thinking", "tool_use"] and blocks[0]["signature"]


async def test_temperature_goes_in_the_body(model_server: ModelServer) -> None:
    """A temperature is sent in the body (the 2.x SDK dropped the parameter)."""
    model_server.enqueue(Reply(text="ok"))
    await _complete(model_server, _request(temperature=0.0))
    assert model_server.requests[0].body["temperature"] == 0.0


@pytest.mark.parametrize("fault", [RateLimited(), ServerError(), ServerError(status=529)])
async def test_transient_failures_are_unavailable(model_server: ModelServer, fault: Any) -> None:
    """429, 5xx and Anthropic's 529 overload past the retries are ModelUnavailable."""
    model_server.enqueue(fault)
    with pytest.raises(ModelUnavailable, match=r"anthropic at http://127\.0\.0\.1"):
        await _complete(model_server, _request())


async def test_overload_retried_then_answered(model_server: ModelServer) -> None:
    """An overload (529) is retried by the SDK; the next answer is returned."""
    model_server.enqueue(ServerError(status=529), Reply(text="back"))
    assert (await _complete(model_server, _request(), max_retries=1)).text == "back"


async def test_bad_request_is_refused(model_server: ModelServer) -> None:
    """A 400 is ModelRefused with Anthropic's message."""
    model_server.enqueue(HttpError(400, "prompt is too long"))
    with pytest.raises(ModelRefused, match="prompt is too long"):
        await _complete(model_server, _request())


async def test_hang_and_drop_are_unavailable(model_server: ModelServer) -> None:
    """A hang past the timeout and a dropped stream are both ModelUnavailable."""
    model_server.enqueue(Hang(), Drop(after_events=4))
    with pytest.raises(ModelUnavailable, match="timed out"):
        await _complete(model_server, _request(), timeout=0.3)
    with pytest.raises(ModelUnavailable):
        await _complete(model_server, _request(), stream=True)
