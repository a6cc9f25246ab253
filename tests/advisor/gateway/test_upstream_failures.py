"""Upstream failures: 502 for its faults, 504 for its silence, 429 passed on, its refusals of the request kept."""

from __future__ import annotations

from typing import Any

import openai
import pytest

from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import USER, advisor
from tests.support.model_server import ModelServer
from tests.support.script import Drop, Hang, HttpError, RateLimited, Reply, ServerError, ToolCall

WITH_ADVISOR: list[Any] = [advisor(model="adv")]


@pytest.mark.parametrize("tools", [None, WITH_ADVISOR], ids=["forwarded", "advised"])
def test_upstream_500_is_a_502_after_the_retry(client: openai.OpenAI, model_server: ModelServer,
                                               tools: Any) -> None:
    """A 5xx that outlasts the gateway's one retry is answered 502 upstream_error."""
    model_server.enqueue(ServerError(500), ServerError(503))
    with pytest.raises(openai.InternalServerError) as raised:
        client.chat.completions.create(model="gpt-test", messages=USER, **({"tools": tools} if tools else {}))
    assert (raised.value.status_code, raised.value.code) == (502, "upstream_error")
    assert len(model_server.requests) == 2


def test_a_500_the_retry_outlasts_is_invisible(client: openai.OpenAI, model_server: ModelServer) -> None:
    """One transient 500 is retried by the gateway's SDK client; the client sees the answer."""
    model_server.enqueue(ServerError(500), Reply(text="second time lucky"))
    response = client.chat.completions.create(model="gpt-test", messages=USER)
    assert response.choices[0].message.content == "second time lucky"


@pytest.mark.parametrize("tools", [None, WITH_ADVISOR], ids=["forwarded", "advised"])
def test_upstream_429_is_passed_on_with_its_retry_after(client: openai.OpenAI, model_server: ModelServer,
                                                        tools: Any) -> None:
    """A rate limit that outlasts the retry is 429 upstream_rate_limited, with the upstream's retry-after."""
    model_server.enqueue(RateLimited(retry_after=0.01), RateLimited(retry_after=2))
    with pytest.raises(openai.RateLimitError) as raised:
        client.chat.completions.create(model="gpt-test", messages=USER, **({"tools": tools} if tools else {}))
    assert raised.value.code == "upstream_rate_limited"
    assert raised.value.response.headers["retry-after"] == "2"


@pytest.mark.parametrize("tools", [None, WITH_ADVISOR], ids=["forwarded", "advised"])
def test_an_upstream_that_does_not_answer_in_time_is_a_504(model_server: ModelServer, tools: Any) -> None:
    """An upstream silent past upstream_timeout is answered 504 upstream_timeout."""
    model_server.default = Hang(30)
    with GatewayServer(model_server, upstream_timeout=0.3, upstream_max_retries=0) as server, \
            openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as sdk, \
            pytest.raises(openai.APIStatusError) as raised:
        sdk.chat.completions.create(model="gpt-test", messages=USER, **({"tools": tools} if tools else {}))
    assert (raised.value.status_code, raised.value.code) == (504, "upstream_timeout")


def test_a_dropped_upstream_connection_is_a_502(model_server: ModelServer) -> None:
    """An upstream that closes the connection mid-answer is 502, never a half answer."""
    model_server.enqueue(Drop(), Drop())
    with GatewayServer(model_server, upstream_max_retries=0) as server, \
            openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as sdk, \
            pytest.raises(openai.APIStatusError) as raised:
        sdk.chat.completions.create(model="gpt-test", messages=USER, tools=WITH_ADVISOR)
    assert raised.value.status_code == 502


def test_an_upstream_refusing_the_gateways_key_is_a_502(client: openai.OpenAI, model_server: ModelServer) -> None:
    """401 from the upstream is the gateway's misconfiguration, not the client's: 502 upstream_auth_failed."""
    model_server.enqueue(HttpError(401, "Incorrect API key provided."))
    with pytest.raises(openai.InternalServerError) as raised:
        client.chat.completions.create(model="gpt-test", messages=USER, tools=WITH_ADVISOR)
    assert (raised.value.status_code, raised.value.code) == (502, "upstream_auth_failed")


def test_an_upstream_refusing_the_request_keeps_its_status_and_message(client: openai.OpenAI,
                                                                       model_server: ModelServer) -> None:
    """A 400 from the upstream (a bad model, a bad parameter) stays a 400 with the upstream's words."""
    model_server.enqueue(HttpError(400, "The model `nope` does not exist."))
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(model="nope", messages=USER, tools=WITH_ADVISOR)
    assert raised.value.code == "upstream_rejected"
    assert "The model `nope` does not exist." in raised.value.message


def test_a_failure_after_an_advisor_call_still_fails_the_request_cleanly(client: openai.OpenAI,
                                                                         model_server: ModelServer) -> None:
    """When the follow-up upstream call fails, the request fails with 502 — the advice is not passed off as an
    answer."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]),
                         Reply(text="Severity: none\nok"), ServerError(500), ServerError(500))
    with pytest.raises(openai.InternalServerError) as raised:
        client.chat.completions.create(model="gpt-test", messages=USER, tools=WITH_ADVISOR)
    assert raised.value.status_code == 502
