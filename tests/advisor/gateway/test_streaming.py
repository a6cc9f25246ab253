"""stream: true — keep-alives while the loop runs, proper chunks after, [DONE], and cancellation on disconnect."""

from __future__ import annotations

import time
from typing import Any

import httpx2
import openai
import pytest

from tests.advisor.gateway.harness import GatewayServer, gateway_tasks, pool_in_use, wait_until
from tests.advisor.gateway.helpers import SHELL, USER, advisor
from tests.support.model_server import ModelServer
from tests.support.script import Hang, RecordedRequest, Reply, ServerError, ToolCall

TOOLS: list[Any] = [advisor(model="adv")]


def _script(model_server: ModelServer, final: Reply) -> None:
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="a1")]),
                         Reply(text="Severity: none\nok", input_tokens=10, output_tokens=4), final)


def test_a_streamed_advised_answer_arrives_as_chat_completion_chunks(client: openai.OpenAI,
                                                                     model_server: ModelServer) -> None:
    """The SDK's stream yields the role, the content, finish_reason, and a final usage chunk with choices: []."""
    _script(model_server, Reply(text="The design.", input_tokens=30, output_tokens=5))
    chunks = list(client.chat.completions.create(model="gpt-test", messages=USER, tools=TOOLS, stream=True,
                                                 stream_options={"include_usage": True}))
    assert len({c.id for c in chunks}) == 1 and all(c.object == "chat.completion.chunk" for c in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert content.endswith("The design.")
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == ["stop"]
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert all(c.usage is None for c in chunks[:-1])
    assert (chunks[-1].usage.model_extra or {})["server_tool_use"]["advisor_requests"] == 1


def test_without_include_usage_there_is_no_usage_chunk(client: openai.OpenAI, model_server: ModelServer) -> None:
    """A stream not asking for usage ends on the finish_reason chunk."""
    _script(model_server, Reply(text="x"))
    chunks = list(client.chat.completions.create(model="gpt-test", messages=USER, tools=TOOLS, stream=True))
    assert chunks[-1].choices[0].finish_reason == "stop" and all(c.usage is None for c in chunks)


def test_streamed_tool_calls_come_as_tool_call_deltas(client: openai.OpenAI, model_server: ModelServer) -> None:
    """A final turn calling the client's tool streams it with its id, name and whole arguments."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("exec_command", {"cmd": "pytest"}, id="t1")]))
    chunks = list(client.chat.completions.create(model="gpt-test", messages=USER, tools=[SHELL, *TOOLS],
                                                 stream=True))
    deltas = [d for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or ()]
    assert [(d.index, d.id, d.function.name, d.function.arguments) for d in deltas if d.function] == \
        [(0, "t1", "exec_command", '{"cmd":"pytest"}')]
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_the_connection_is_kept_alive_with_sse_comments_while_the_loop_works(model_server: ModelServer) -> None:
    """While the upstream works, the client receives ': keep-alive' comments, then the chunks and [DONE]."""
    def slow(request: RecordedRequest) -> Reply | None:
        if request.model == "adv":
            time.sleep(0.4)  # the advisor thinking (blocks the fake upstream: it serves this request alone)
            return Reply(text="Severity: none\nok")
        return None

    model_server.on(slow)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]), Reply(text="Answer."))
    with GatewayServer(model_server, keepalive_interval=0.05) as server:
        body = {"model": "gpt-test", "messages": USER, "tools": TOOLS, "stream": True}
        with httpx2.stream("POST", server.base_url + "/chat/completions", json=body, timeout=30) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            lines = [line for line in response.iter_lines() if line]
    comments = [line for line in lines if line.startswith(":")]
    data = [line for line in lines if line.startswith("data: ")]
    assert len(comments) >= 2
    assert lines.index(comments[-1]) < lines.index(data[0])
    assert data[-1] == "data: [DONE]"


def test_a_failure_after_the_stream_started_is_an_error_event_the_sdk_raises(
        client: openai.OpenAI, model_server: ModelServer) -> None:
    """An upstream failure during a streamed loop arrives as an error event; the SDK raises APIError."""
    model_server.enqueue(ServerError(500), ServerError(500))
    stream = client.chat.completions.create(model="gpt-test", messages=USER, tools=TOOLS, stream=True)
    with pytest.raises(openai.APIError) as raised:
        list(stream)
    assert isinstance(raised.value.body, dict) and raised.value.body["code"] == "upstream_error"


def test_a_stream_without_advisors_is_relayed_from_the_upstream(client: openai.OpenAI,
                                                                model_server: ModelServer) -> None:
    """Without advisors the upstream's own stream is relayed: its chunks, its usage chunk, [DONE]."""
    model_server.enqueue(Reply(text="relayed text", chunk_size=3))
    chunks = list(client.chat.completions.create(model="gpt-test", messages=USER, stream=True,
                                                 stream_options={"include_usage": True}))
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "relayed text"
    assert len(chunks) > 5 and chunks[-1].usage is not None
    assert model_server.requests[0].body["stream"] is True


@pytest.mark.parametrize("route", ["chat/completions", "responses"])
def test_a_client_disconnect_cancels_the_upstream_work(model_server: ModelServer, route: str) -> None:
    """Closing the stream mid-loop cancels the consultation in flight: the upstream connection is released and
    the gateway's tasks end, instead of waiting out the advisor."""
    model_server.on(lambda r: Hang(60) if r.model == "adv" else None)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]), Reply(text="never"))
    with GatewayServer(model_server, keepalive_interval=0.05) as server:
        with httpx2.Client(timeout=30) as http:
            http.get(server.url + "/healthz")
            idle = gateway_tasks(server)
            conversation = {"messages": USER} if route == "chat/completions" else {"input": "Plan it."}
            body = {"model": "gpt-test", **conversation, "tools": TOOLS, "stream": True}
            with http.stream("POST", f"{server.base_url}/{route}", json=body) as response:
                for line in response.iter_lines():
                    if line.startswith(":"):
                        break
            assert wait_until(lambda: any(r.model == "adv" for r in model_server.requests))
        assert wait_until(lambda: pool_in_use(server) == (0, 0))
        assert wait_until(lambda: gateway_tasks(server) <= idle)
    assert [r.model for r in model_server.requests] == ["gpt-test", "adv"]
