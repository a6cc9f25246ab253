"""Where the gateway once differed from seed 004 and its own docs: each case held through the real SDKs."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai

from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import USER, advisor, advisor_requests, tool_results
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ServerError, ToolCall


def test_follow_up_rounds_after_a_required_choice_are_auto(client: openai.OpenAI, model_server: ModelServer) -> None:
    """tool_choice required forces the first round only: a model that obeyed it would call the advisor again."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]),
                         Reply(text="Severity: none\nok"), Reply(text="Done."))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")],
                                   tool_choice="required")
    first, _, follow_up = model_server.requests
    assert (first.body["tool_choice"], follow_up.body["tool_choice"]) == ("required", "auto")


def test_a_failing_advisor_is_asked_twice_and_its_error_names_no_address(model_server: ModelServer) -> None:
    """An advisor failing with 5xx gets the consultation's one retry and no SDK retries on top (2 requests, not 4);
    the tool error the executor and the client read never shows the upstream's base URL."""
    model_server.on(lambda request: ServerError(503) if request.model == "adv" else None)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="call_a")]),
                         Reply(text="Carrying on."))
    with GatewayServer(model_server, upstream_max_retries=2) as server, \
            openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as sdk:
        response = sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    assert len(advisor_requests(model_server.requests)) == 2
    result = tool_results(model_server.requests[-1])["call_a"]
    assert result["error"] == "advisor_request_failed" and "503" in result["message"]
    assert model_server.url not in json.dumps(result) and "127.0.0.1" not in (response.choices[0].message.content or "")
    assert "the upstream" in result["message"]


def test_other_tool_types_are_forwarded_when_no_advisor_is_declared(client: openai.OpenAI,
                                                                    model_server: ModelServer) -> None:
    """Without advisors, a tool type the gateway does not know reaches the upstream, which judges it."""
    model_server.enqueue(Reply(text="searched"))
    tools: Any = [{"type": "web_search_preview"}]
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=tools)
    assert response.choices[0].message.content == "searched"
    assert model_server.requests[0].body["tools"] == tools


def test_the_401_on_the_messages_route_has_anthropics_shape(model_server: ModelServer) -> None:
    """A wrong key on /v1/messages is 401 in Anthropic's error shape: the anthropic SDK reads its type."""
    env = {"WITNESS_GATEWAY_KEY": "the-right-key"}
    with GatewayServer(model_server, api_key_env="WITNESS_GATEWAY_KEY", env=env) as server, \
            anthropic.Anthropic(base_url=server.url, api_key="wrong", max_retries=0) as sdk:
        try:
            sdk.messages.create(model="claude-test", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
        except anthropic.AuthenticationError as error:
            assert error.body == {"type": "error", "error": {"type": "authentication_error",
                                                             "message": "incorrect API key"}}
        else:
            raise AssertionError("the request was not refused")
    assert model_server.requests == []
