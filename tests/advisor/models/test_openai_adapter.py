"""The OpenAI chat-completions adapter, through the real `openai` SDK against the loopback model server."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from advisor.errors import ModelRefused, ModelUnavailable
from advisor.models import (
    ChatAssistant,
    ChatTool,
    ChatUser,
    ModelConfig,
    ModelRequest,
    OpenAIChatModel,
    ToolCall,
    ToolSpec,
)
from tests.support.model_server import ModelServer
from tests.support.script import Drop, Hang, HttpError, RateLimited, Reply, ServerError
from tests.support.script import ToolCall as ScriptedCall

pytestmark = pytest.mark.anyio
READ = ToolSpec(name="read", description="Read a file.",
                parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})


def _config(server: ModelServer, **settings: Any) -> ModelConfig:
    return ModelConfig(provider="openai", model="gpt-test", base_url=server.openai_base_url,
                       **{"max_retries": 0, **settings})


def _request(**fields: Any) -> ModelRequest:
    return ModelRequest(**{"system": "You are the advisor.", "messages": (ChatUser(content="Is this done?"),),
                           **fields})


async def _complete(server: ModelServer, request: ModelRequest, **settings: Any) -> Any:
    async with httpx2.AsyncClient() as http:
        client = OpenAIChatModel(_config(server, **settings), http_client=http, api_key="sk-test")
        return await client.complete(request)


@pytest.mark.parametrize("stream", [False, True])
async def test_text_answer_with_usage(model_server: ModelServer, stream: bool) -> None:
    """A text answer comes back with its usage, model and request id, streamed or not."""
    model_server.enqueue(Reply(text="Severity: none\nAll good.", input_tokens=900, cached_tokens=800,
                               output_tokens=7, reasoning_tokens=3))
    answer = await _complete(model_server, _request(), stream=stream)
    assert answer.text == "Severity: none\nAll good."
    assert answer.stop_reason == "end" and answer.provider_stop_reason == "stop"
    assert (answer.usage.input_tokens, answer.usage.cached_input_tokens, answer.usage.output_tokens,
            answer.usage.reasoning_tokens) == (900, 800, 7, 3)
    assert answer.model == "gpt-test" and answer.request_id and answer.request_id.startswith("req_")
    if stream:
        assert model_server.requests[0].body["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize("stream", [False, True])
async def test_tool_calls_parsed(model_server: ModelServer, stream: bool) -> None:
    """Tool calls arrive with their ids and parsed arguments; malformed argument text is kept, not guessed."""
    model_server.enqueue(Reply(tool_calls=[ScriptedCall("read", {"path": "src/a.py"}, id="call_1"),
                                           ScriptedCall("read", '{"path": ', id="call_2")], chunk_size=4))
    answer = await _complete(model_server, _request(tools=(READ,)), stream=stream)
    assert answer.stop_reason == "tool_calls"
    first, second = answer.tool_calls
    assert (first.id, first.name, first.arguments) == ("call_1", "read", {"path": "src/a.py"})
    assert second.arguments == {} and second.invalid_arguments == '{"path": '


async def test_request_shape(model_server: ModelServer) -> None:
    """System prompt, tool round trip, cache key, effort and output cap go out as chat-completions fields."""
    model_server.enqueue(Reply(text="ok"))
    request = _request(
        messages=(ChatUser(content="look"),
                  ChatAssistant(content="checking", tool_calls=(ToolCall(id="c1", name="read",
                                                                            arguments={"path": "a"}),)),
                  ChatTool(tool_call_id="c1", name="read", content="body", is_error=True),
                  ChatUser(content="answer now")),
        tools=(READ,), stable_prefix_messages=1, routing_key="advisor:s1", reasoning_effort="high",
        max_output_tokens=300, temperature=0.2)
    await _complete(model_server, request)
    body = model_server.requests[0].body
    assert body["messages"] == [
        {"role": "system", "content": "You are the advisor."}, {"role": "user", "content": "look"},
        {"role": "assistant", "content": "checking", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "read", "arguments": '{"path": "a"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "body"}, {"role": "user", "content": "answer now"}]
    assert body["tools"] == [{"type": "function", "function": {"name": "read", "description": "Read a file.",
                                                               "parameters": READ.parameters}}]
    assert (body["prompt_cache_key"], body["reasoning_effort"], body["max_completion_tokens"],
            body["temperature"]) == ("advisor:s1", "high", 300, 0.2)


async def test_effort_and_cap_default_to_the_configuration(model_server: ModelServer) -> None:
    """Without per-request values, the configured effort and output cap are sent; no cache key without a routing key."""
    model_server.enqueue(Reply(text="ok"))
    await _complete(model_server, _request(), effort="low", max_output_tokens=1234)
    body = model_server.requests[0].body
    assert (body["reasoning_effort"], body["max_completion_tokens"]) == ("low", 1234)
    assert "prompt_cache_key" not in body and "temperature" not in body


@pytest.mark.parametrize("stream", [False, True])
async def test_reasoning_text_from_compatible_servers(model_server: ModelServer, stream: bool) -> None:
    """`reasoning_content` from an OpenAI-compatible server becomes the answer's reasoning."""
    model_server.enqueue(Reply(text="answer", reasoning="weighing the evidence"))
    answer = await _complete(model_server, _request(), stream=stream)
    assert answer.reasoning == "weighing the evidence"


async def test_rate_limit_retried_by_the_sdk(model_server: ModelServer) -> None:
    """A 429 is retried by the SDK within its allowance; the answer after it is returned."""
    model_server.enqueue(RateLimited(), Reply(text="after the wait"))
    answer = await _complete(model_server, _request(), max_retries=1)
    assert answer.text == "after the wait" and len(model_server.requests) == 2


@pytest.mark.parametrize("fault", [RateLimited(), ServerError(), ServerError(status=503)])
async def test_transient_failures_are_unavailable(model_server: ModelServer, fault: Any) -> None:
    """A 429 or 5xx past the retries is ModelUnavailable naming the URL and status."""
    model_server.enqueue(fault)
    with pytest.raises(ModelUnavailable, match=rf"openai at {model_server.openai_base_url} answered HTTP"):
        await _complete(model_server, _request())


@pytest.mark.parametrize("status", [400, 401, 403, 404])
async def test_other_client_errors_are_refusals(model_server: ModelServer, status: int) -> None:
    """Any other 4xx is ModelRefused with the provider's message."""
    model_server.enqueue(HttpError(status, "model not permitted"))
    with pytest.raises(ModelRefused, match=rf"HTTP {status}\): model not permitted"):
        await _complete(model_server, _request())


async def test_hang_times_out_as_unavailable(model_server: ModelServer) -> None:
    """A request that gets no answer within the timeout is ModelUnavailable (timed out)."""
    model_server.enqueue(Hang())
    with pytest.raises(ModelUnavailable, match="timed out"):
        await _complete(model_server, _request(), timeout=0.3)


@pytest.mark.parametrize("fault", [Drop(), Drop(after_events=2)])
async def test_dropped_connection_is_unavailable(model_server: ModelServer, fault: Drop) -> None:
    """A connection dropped mid-answer (or mid-stream) is ModelUnavailable, not a partial answer."""
    model_server.enqueue(fault)
    with pytest.raises(ModelUnavailable):
        await _complete(model_server, _request(), stream=fault.after_events > 0)


async def test_unreachable_server_is_unavailable() -> None:
    """Nothing listening is ModelUnavailable naming the URL."""
    server = ModelServer().start()
    url = server.openai_base_url
    server.stop()
    config = ModelConfig(provider="openai", model="m", base_url=url, max_retries=0)
    async with httpx2.AsyncClient() as http:
        with pytest.raises(ModelUnavailable, match=f"cannot reach openai at {url}"):
            await OpenAIChatModel(config, http_client=http, api_key="k").complete(_request())


async def test_injected_http_client_stays_open(model_server: ModelServer) -> None:
    """Closing the model client leaves an injected httpx2 client open for its owner."""
    model_server.enqueue(Reply(text="one"), Reply(text="two"))
    async with httpx2.AsyncClient() as http:
        first = OpenAIChatModel(_config(model_server), http_client=http, api_key="k")
        await first.complete(_request())
        await first.aclose()
        second = OpenAIChatModel(_config(model_server), http_client=http, api_key="k")
        assert (await second.complete(_request())).text == "two"
