"""The routes besides chat completions: the upstream's models, health, and plain forwarding."""

from __future__ import annotations

import httpx2
import openai
import pytest

from tests.advisor.gateway.harness import GatewayServer, pool_in_use, wait_until
from tests.advisor.gateway.helpers import USER, advisor
from tests.support.model_server import ModelServer
from tests.support.script import Hang, Reply, ToolCall


def test_models_are_the_upstreams(client: openai.OpenAI, model_server: ModelServer) -> None:
    """GET /v1/models and /v1/models/{id} answer what the upstream answers."""
    model_server.models = ["gpt-test", "adv-model"]
    assert [m.id for m in client.models.list()] == ["gpt-test", "adv-model"]
    assert client.models.retrieve("adv-model").id == "adv-model"
    assert [r.path for r in model_server.requests] == ["/v1/models", "/v1/models/adv-model"]


def test_health_needs_nothing_from_the_upstream(gateway: GatewayServer, model_server: ModelServer) -> None:
    """GET /healthz answers without calling the upstream."""
    assert httpx2.get(gateway.url + "/healthz").json() == {"status": "ok"}
    assert model_server.requests == []


def test_a_request_without_advisors_reaches_the_upstream_byte_for_byte(gateway: GatewayServer,
                                                                        model_server: ModelServer) -> None:
    """Fields the gateway does not know (a provider's extensions) pass through untouched, and so does the answer."""
    body = b'{"model":"gpt-test","messages":[{"role":"user","content":"hi"}],"provider":{"order":["x"]},"seed":7}'
    model_server.enqueue(Reply(text="as is"))
    response = httpx2.post(gateway.base_url + "/chat/completions", content=body,
                           headers={"content-type": "application/json"})
    assert response.json()["choices"][0]["message"]["content"] == "as is"
    assert model_server.requests[0].body == httpx2.Response(200, content=body).json()
    assert "x-request-id" in response.headers


def test_a_client_giving_up_on_a_plain_request_cancels_its_upstream_work(model_server: ModelServer) -> None:
    """A non-streamed client that times out mid-consultation: the gateway stops the consultation too."""
    model_server.on(lambda r: Hang(60) if r.model == "adv" else None)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]))
    with GatewayServer(model_server) as server:
        with openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=0.5) as sdk, \
                pytest.raises(openai.APITimeoutError):
            sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
        assert wait_until(lambda: any(r.model == "adv" for r in model_server.requests))
        assert wait_until(lambda: pool_in_use(server) == (0, 0))
