"""POST /v1/messages: Anthropic Messages, the native advisor tool and its blocks, forwarded untouched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from advisor.gateway import ADVISOR_BETA, upstream_headers
from tests.advisor.gateway.harness import UPSTREAM_KEY, GatewayServer
from tests.support.model_server import ModelServer
from tests.support.script import Reply

NATIVE_TOOL = {"type": "advisor_20260301", "name": "advisor", "model": "claude-opus-4-8", "max_uses": 2}
ADVISED = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
           "content": [{"type": "text", "text": "Let me ask."},
                       {"type": "server_tool_use", "id": "srvtoolu_01", "name": "advisor", "input": {}},
                       {"type": "advisor_tool_result", "tool_use_id": "srvtoolu_01",
                        "content": {"type": "advisor_result", "text": "Check the edge case.",
                                    "stop_reason": "end_turn"}},
                       {"type": "text", "text": "Done."}],
           "stop_reason": "end_turn", "stop_sequence": None,
           "usage": {"input_tokens": 12, "output_tokens": 7, "iterations": [
               {"type": "message", "input_tokens": 12, "output_tokens": 3},
               {"type": "advisor_message", "model": "claude-opus-4-8", "input_tokens": 40, "output_tokens": 9}]}}


class NativeUpstream:
    """A second fake upstream (a test double for Anthropic's API) answering with the native advisor's blocks,
    recording what it received byte for byte."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.headers: list[dict[str, str]] = []
        self.answer = json.dumps(ADVISED).encode()

    def app(self) -> Starlette:
        async def messages(request: Request) -> Response:
            self.bodies.append(await request.body())
            self.headers.append(dict(request.headers))
            return Response(self.answer, media_type="application/json", headers={"request-id": "req_native"})

        return Starlette(routes=[Route("/v1/messages", messages, methods=["POST"])])


@pytest.fixture
def native(model_server: ModelServer) -> Iterator[tuple[NativeUpstream, GatewayServer]]:
    """The gateway with its Messages upstream pointed at the native fake."""
    import threading
    import time

    import uvicorn

    upstream = NativeUpstream()
    server = uvicorn.Server(uvicorn.Config(upstream.app(), host="127.0.0.1", port=0, log_level="critical",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.005)
    port = server.servers[0].sockets[0].getsockname()[1]
    gateway = GatewayServer(model_server, anthropic_upstream=f"http://127.0.0.1:{port}").start()
    try:
        yield upstream, gateway
    finally:
        gateway.stop()
        server.should_exit = True
        thread.join(timeout=10)


def test_native_advisor_requests_go_through_byte_for_byte_with_the_beta_header(
        native: tuple[NativeUpstream, GatewayServer]) -> None:
    """The request body is untouched, the beta header added beside the client's own betas, the key the gateway's;
    the answer's server_tool_use / advisor_tool_result pair comes back untouched in the same message."""
    upstream, gateway = native
    history: list[Any] = [
        {"role": "user", "content": "Fix the bug."},
        {"role": "assistant", "content": ADVISED["content"]},
        {"role": "user", "content": "And the tests?"}]
    with anthropic.Anthropic(base_url=gateway.url, api_key="client-key", max_retries=0) as sdk:
        raw = sdk.messages.with_raw_response.create(
            model="claude-sonnet-4-6", max_tokens=1024, messages=history, tools=[NATIVE_TOOL],  # type: ignore[list-item]
            extra_headers={"anthropic-beta": "interleaved-thinking-2025-05-14"})
    assert raw.http_response.content == upstream.answer
    assert raw.headers["request-id"] == "req_native"
    (sent,) = upstream.bodies
    assert json.loads(sent)["messages"] == history and json.loads(sent)["tools"] == [NATIVE_TOOL]
    headers = upstream.headers[0]
    assert headers["anthropic-beta"] == f"interleaved-thinking-2025-05-14,{ADVISOR_BETA}"
    assert headers["x-api-key"] == UPSTREAM_KEY and "authorization" not in headers
    blocks = [block.type for block in raw.parse().content]
    assert blocks == ["text", "server_tool_use", "advisor_tool_result", "text"]


def test_requests_without_the_native_tool_get_no_advisor_beta(native: tuple[NativeUpstream, GatewayServer]) -> None:
    """The beta header is added only when the request declares advisor_20260301."""
    upstream, gateway = native
    with anthropic.Anthropic(base_url=gateway.url, api_key="client-key", max_retries=0) as sdk:
        sdk.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=[{"role": "user", "content": "hi"}])
    assert "anthropic-beta" not in upstream.headers[0]
    assert upstream.headers[0]["anthropic-version"] == anthropic.Anthropic(api_key="k").default_headers[
        "anthropic-version"]


def test_the_headers_sent_upstream_keep_protocol_headers_and_drop_credentials() -> None:
    """The client's own key never travels on; a missing anthropic-version gets the stable one."""
    sent = upstream_headers({"x-api-key": "client", "authorization": "Bearer client", "cookie": "c=1",
                             "anthropic-beta": ADVISOR_BETA}, b'{"tools": [{"type": "advisor_20260301"}]}',
                            key="gateway-key")
    assert sent == {"anthropic-beta": ADVISOR_BETA, "anthropic-version": "2023-06-01",
                    "content-type": "application/json", "x-api-key": "gateway-key"}


def test_streamed_messages_are_relayed_as_the_upstream_sends_them(gateway: GatewayServer,
                                                                  model_server: ModelServer) -> None:
    """A streamed Messages request is relayed event by event; the SDK assembles the same message."""
    model_server.enqueue(Reply(text="streamed through", chunk_size=4))
    with anthropic.Anthropic(base_url=gateway.url, api_key="client-key", max_retries=0) as sdk, \
            sdk.messages.stream(model="claude-sonnet-4-6", max_tokens=64,
                                messages=[{"role": "user", "content": "hi"}]) as stream:
        text = "".join(stream.text_stream)
    assert text == "streamed through"
    (request,) = model_server.requests_to("messages")
    assert request.body["stream"] is True


def test_the_upstreams_errors_come_back_as_it_sent_them(gateway: GatewayServer, model_server: ModelServer) -> None:
    """A Messages request the upstream refuses comes back with the upstream's own status and error body."""
    with anthropic.Anthropic(base_url=gateway.url, api_key="client-key", max_retries=0) as sdk, \
            pytest.raises(anthropic.BadRequestError) as raised:
        sdk.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=[])
    assert "at least one message" in str(raised.value)
