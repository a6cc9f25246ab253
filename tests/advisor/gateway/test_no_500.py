"""No 500 from a client's body or an upstream's answer: advisors answering malformed shapes, deep bodies,
and generated bodies posted to every route."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx2
import openai
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import USER, advisor, tool_results
from tests.support.model_server import ModelServer
from tests.support.script import Drop, Raw, RecordedRequest, Reply, Script, ToolCall

MALFORMED: dict[str, Script] = {
    "empty body": Raw(b""),
    "an HTML page": Raw(b"<html><body>502 Bad Gateway</body></html>", content_type="text/html"),
    "HTML said to be JSON": Raw(b"<html>oops</html>"),
    "truncated JSON": Raw(b'{"id": "x", "choices": [{"message": {"content": "cut'),
    "a JSON array": Raw(b"[]"),
    "a JSON string": Raw(b'"hello"'),
    "an empty object": Raw(b"{}"),
    "choices missing": Raw(b'{"id": "x", "object": "chat.completion"}'),
    "choices not a list": Raw(b'{"choices": "none"}'),
    "choices empty": Raw(b'{"choices": []}'),
    "a choice that is a number": Raw(b'{"choices": [1]}'),
    "message null": Raw(b'{"choices": [{"index": 0, "message": null, "finish_reason": "stop"}]}'),
    "content of the wrong type": Raw(b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": 5}}]}'),
    "tool_calls of the wrong type": Raw(b'{"choices": [{"message": {"role": "assistant", "tool_calls": "x"}}]}'),
    "usage of the wrong type": Raw(b'{"choices": [{"message": {"role": "assistant", "content": "hi"}}], '
                                   b'"usage": "lots"}'),
    "a huge body": Raw(b'{"padding": "' + b"a" * 6_000_000 + b'"}'),
    "closed after the headers": Drop(),
}


def _advisor_answers(script: Script, *, slow: bool = False) -> Any:
    def answer(request: RecordedRequest) -> Script | None:
        if request.model != "adv":
            return None
        if slow:
            time.sleep(0.3)  # slow, then the connection closes (blocks the fake upstream: it serves this alone)
        return script

    return answer


@pytest.mark.parametrize("script", list(MALFORMED.values()), ids=list(MALFORMED))
def test_a_malformed_advisor_answer_is_a_tool_error(client: openai.OpenAI, model_server: ModelServer,
                                                    script: Script) -> None:
    """Whatever the advisor answers, the executor reads advisor_request_failed and the request succeeds."""
    model_server.on(_advisor_answers(script))
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="call_a")]),
                         Reply(text="Carrying on without advice."))
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    assert (response.choices[0].message.content or "").endswith("Carrying on without advice.")
    result = tool_results(model_server.requests[-1])["call_a"]
    assert result["error"] == "advisor_request_failed" and "127.0.0.1" not in result["message"]


@pytest.mark.parametrize("route", ["chat", "responses"])
def test_an_advisor_answering_200_with_html_fails_the_call_not_the_stream(client: openai.OpenAI,
                                                                          model_server: ModelServer,
                                                                          route: str) -> None:
    """Streamed, an advisor answering HTTP 200 with a page that is not JSON is a tool error the executor reads; the
    stream completes."""
    model_server.on(_advisor_answers(Raw(b"<html>not json</html>", content_type="text/html")))
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="call_a")]),
                         Reply(text="Carrying on."))
    tools: Any = [advisor(model="adv")]
    if route == "chat":
        chunks = list(client.chat.completions.create(model="gpt-test", messages=USER, tools=tools, stream=True))
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    else:
        with client.responses.stream(model="gpt-test", input="Plan it.", tools=tools) as stream:
            text = stream.get_final_response().output_text
    assert text == "Carrying on."
    follow_up = json.dumps(model_server.requests[-1].body)
    assert "advisor_request_failed" in follow_up


def test_an_advisor_slow_then_closing_is_a_tool_error(client: openai.OpenAI, model_server: ModelServer) -> None:
    """An advisor that takes its time and then drops the connection is advisor_request_failed."""
    model_server.on(_advisor_answers(Drop(), slow=True))
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="call_a")]),
                         Reply(text="Carrying on."))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    assert tool_results(model_server.requests[-1])["call_a"]["error"] == "advisor_request_failed"


def _deep_body(depth: int, route: str = "chat/completions") -> bytes:
    """A body declaring an advisor, with a value nested ``depth`` levels deep (written by hand: no JSON library
    in Python writes that deep)."""
    conversation = f'"messages": {json.dumps(USER)}' if route == "chat/completions" else '"input": "hi"'
    nested = "[" * (depth - 2) + '"deep"' + "]" * (depth - 2)
    return (f'{{"model": "gpt-test", {conversation}, "tools": [{json.dumps(advisor())}], '
            f'"metadata": {{"x": {nested}}}}}').encode()


@pytest.mark.parametrize("depth", [200, 252, 300, 1023, 1100])
@pytest.mark.parametrize("route", ["chat/completions", "responses"])
def test_a_deeply_nested_body_with_advisors_is_a_400(gateway: GatewayServer, model_server: ModelServer,
                                                     depth: int, route: str) -> None:
    """A body nested hundreds of levels deep is refused with a JSON 400 (orjson reads 1024 levels, writes 254)."""
    response = httpx2.post(f"{gateway.base_url}/{route}", content=_deep_body(depth, route), timeout=30,
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_json"
    assert model_server.requests == []


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
TOOLS = st.lists(st.one_of(JSON, st.fixed_dictionaries({"type": JSON}, optional={"name": JSON, "function": JSON}),
                           st.builds(lambda p: {"type": "witness:advisor", "parameters": p},
                                           st.dictionaries(st.sampled_from(["name", "model", "max_uses", "reasoning",
                                                                            "forward_transcript", "temperature"]),
                                                           JSON, max_size=3)),
                           st.just(advisor(model="adv")), st.just(advisor(model="adv", forward_transcript=True))),
                 max_size=3)
ITEMS = st.lists(st.one_of(
    JSON,
    st.fixed_dictionaries({"type": st.sampled_from(["message", "function_call", "function_call_output", "reasoning",
                                                    "custom_tool_call", "web_search_call", "item_reference"])},
                          optional={"role": st.sampled_from(["user", "assistant", "system", "tool"]) | JSON,
                                    "content": JSON, "call_id": JSON, "name": JSON, "arguments": JSON,
                                    "output": JSON, "summary": JSON})), max_size=5)
BODY = st.one_of(
    JSON,
    st.fixed_dictionaries({"model": st.one_of(st.just("gpt-test"), JSON)},
                          optional={"messages": st.one_of(st.just(USER), JSON), "input": st.one_of(JSON, ITEMS),
                                    "tools": TOOLS,
                                    "tool_choice": JSON, "stream": st.one_of(st.booleans(), JSON),
                                    "previous_response_id": JSON}),
)
CONVERSATION = st.one_of(
    st.just({"messages": USER}),
    st.builds(lambda text: {"messages": [{"role": "user", "content": text}]}, st.text(max_size=40)),
    st.builds(lambda items: {"input": items}, st.one_of(st.text(min_size=1, max_size=40), ITEMS.filter(bool))),
)
ADVISED = st.builds(lambda conversation, entry, extra: {"model": "gpt-test", **conversation, "tools": [entry], **extra},
                    CONVERSATION, st.sampled_from([advisor(model="adv"), advisor(model="adv", forward_transcript=True),
                                                   advisor(name="rev", forward_transcript=True)]),
                    st.dictionaries(st.sampled_from(["temperature", "metadata", "stream", "tool_choice", "reasoning"]),
                                    JSON, max_size=1))
ROUTES = ["/v1/chat/completions", "/v1/responses", "/v1/messages", "/v1/messages/count_tokens"]
ALLOWED = {200, 400, 401, 404, 405, 413, 422, 429, 502, 504}


def _consult_once(request: RecordedRequest) -> Script | None:
    """The executor calls the advisor once in each advised request, then answers; the advisor answers."""
    if request.model == "adv":
        return Reply(text="Severity: none\nok")
    seen = json.dumps(request.body)
    if "witness_advisor" in seen and "call_fuzz" not in seen:
        return Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="call_fuzz")])
    return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=st.one_of(ADVISED.map(lambda b: json.dumps(b).encode()),
                                                     ADVISED.map(lambda b: json.dumps(b).encode()),
                                                     BODY.map(lambda b: json.dumps(b).encode()),
                                                     st.binary(max_size=64),
                                                     st.integers(min_value=3, max_value=1100).map(_deep_body)))
def test_no_generated_body_gets_a_500(gateway: GatewayServer, model_server: ModelServer, route: str,
                                      body: bytes) -> None:
    """Any body on any route is answered 200, a 4xx, 502 or 504 — an error always a JSON object, never a 500."""
    model_server.reset()  # each example starts with the one matcher and no recorded requests
    model_server.default = Reply(text="ok")
    model_server.on(_consult_once)
    response = httpx2.post(gateway.url + route, content=body, timeout=30, headers={"content-type": "application/json"})
    event(f"{route}: {response.status_code}")
    if any(request.model == "adv" for request in model_server.requests):
        event("an advisor was consulted")
    assert response.status_code in ALLOWED
    if response.status_code != 200:
        error = response.json()
        assert isinstance(error, dict) and "error" in error
    elif response.headers["content-type"].startswith("text/event-stream"):
        assert b"internal_error" not in response.content


@pytest.mark.parametrize("route", ["chat/completions", "responses"])
def test_an_executor_answer_nested_too_deeply_is_a_502(gateway: GatewayServer, model_server: ModelServer,
                                                      route: str) -> None:
    """An upstream answer the gateway could not write back (nested 300 levels) is 502 upstream_bad_response."""
    answer = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}], '
    model_server.enqueue(Raw(answer + b'"output": [], "x": ' + b"[" * 300 + b"]" * 300 + b"}"))
    conversation: Any = {"messages": USER} if route == "chat/completions" else {"input": "hi"}
    response = httpx2.post(f"{gateway.base_url}/{route}", json={"model": "gpt-test", **conversation,
                                                                "tools": [advisor()]}, timeout=30)
    assert (response.status_code, response.json()["error"]["code"]) == (502, "upstream_bad_response")


ODD_RESPONSES = [b'{"output": [1, "x", null]}', b'{"output": [{"type": "message", "content": 5}]}',
                 b'{"output": [{"type": "reasoning", "summary": "x"}], "status": 7}', b'{"output": "nope"}',
                 b'{"output": [{"type": "function_call", "name": 5, "arguments": 3}], "usage": [1]}',
                 b'{"output": [{"type": "message", "content": [{"type": "output_text", "text": 5}]}]}']


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("answer", ODD_RESPONSES, ids=[f"shape{n}" for n in range(len(ODD_RESPONSES))])
def test_an_executor_answering_odd_response_shapes_gets_an_answer_or_a_502(gateway: GatewayServer,
                                                                            model_server: ModelServer,
                                                                            answer: bytes, stream: bool) -> None:
    """Output items of the wrong types are passed on or refused with 502; a stream always ends with an event."""
    model_server.enqueue(Raw(answer))
    body = {"model": "gpt-test", "input": "hi", "tools": [advisor()], "stream": stream}
    response = httpx2.post(f"{gateway.base_url}/responses", json=body, timeout=30)
    assert response.status_code in (200, 502)
    if stream:
        last = [line for line in response.text.splitlines() if line.startswith("event: ")][-1]
        assert last in ("event: response.completed", "event: response.failed", "event: response.incomplete",
                        "event: error")
    elif response.status_code == 502:
        assert response.json()["error"]["code"] == "upstream_bad_response"


ODD_COMPLETIONS = [b'{"choices": [{"message": {"role": "assistant", "tool_calls": 5}}]}',
                   b'{"choices": [{"message": {"role": "assistant", "content": 5, '
                   b'"tool_calls": [1, {"function": 3}]}}]}',
                   b'{"choices": [{"message": {"content": "hi"}, "finish_reason": 5}], "usage": "lots"}',
                   b'{"choices": [{"message": {"tool_calls": [{"id": 5, "function": {"name": "witness_advisor", '
                   b'"arguments": 7}}]}}]}']


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("answer", ODD_COMPLETIONS, ids=[f"shape{n}" for n in range(len(ODD_COMPLETIONS))])
def test_an_executor_answering_odd_completion_shapes_gets_an_answer_or_a_502(gateway: GatewayServer,
                                                                              model_server: ModelServer,
                                                                              answer: bytes, stream: bool) -> None:
    """Chat completions of the wrong types are passed on or refused with 502; a stream ends with [DONE]."""
    model_server.enqueue(Raw(answer))
    model_server.default = Reply(text="ok")
    body = {"model": "gpt-test", "messages": USER, "tools": [advisor(model="adv")], "stream": stream}
    response = httpx2.post(f"{gateway.base_url}/chat/completions", json=body, timeout=30)
    assert response.status_code in (200, 502)
    if stream:
        assert response.text.rstrip().endswith("data: [DONE]")


CALL = st.fixed_dictionaries({}, optional={"id": JSON, "type": st.just("function") | JSON,
                                           "function": st.fixed_dictionaries({}, optional={
                                               "name": st.just("witness_advisor") | JSON, "arguments": JSON})})
MESSAGE = st.fixed_dictionaries({}, optional={"role": JSON, "content": st.text(max_size=10) | JSON,
                                              "tool_calls": st.lists(CALL, max_size=2) | JSON})
COMPLETION = st.fixed_dictionaries({"choices": st.lists(st.fixed_dictionaries({"message": MESSAGE}, optional={
    "finish_reason": JSON}), min_size=1, max_size=1) | JSON}, optional={"usage": JSON, "id": JSON})
OUTPUT_ITEM = st.fixed_dictionaries({"type": st.sampled_from(["message", "function_call", "reasoning",
                                                              "custom_tool_call"]) | JSON},
                                    optional={"name": st.just("witness_advisor") | JSON, "arguments": JSON,
                                              "call_id": JSON, "content": JSON, "summary": JSON})
RESPONSE = st.fixed_dictionaries({"output": st.lists(OUTPUT_ITEM, max_size=3) | JSON},
                                 optional={"usage": JSON, "status": JSON, "tools": JSON})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(["chat/completions", "responses"]), stream=st.booleans(), data=st.data())
def test_no_generated_upstream_answer_gets_a_500(gateway: GatewayServer, model_server: ModelServer, route: str,
                                                 stream: bool, data: st.DataObject) -> None:
    """Whatever JSON the executor's upstream answers an advised request with, the client gets 200 or a JSON 502,
    and a stream ends with its closing event."""
    answer = data.draw(COMPLETION if route == "chat/completions" else RESPONSE)
    model_server.reset()
    model_server.default = Reply(text="Severity: none\nok")  # the advisor, and any later round
    model_server.enqueue(Raw(json.dumps(answer).encode()))
    conversation: Any = {"messages": USER} if route == "chat/completions" else {"input": "hi"}
    body = {"model": "gpt-test", **conversation, "tools": [advisor(model="adv")], "stream": stream}
    response = httpx2.post(f"{gateway.base_url}/{route}", json=body, timeout=30)
    event(f"{route}: {response.status_code}")
    assert response.status_code in (200, 502)
    if response.status_code == 502:
        assert response.json()["error"]["code"] == "upstream_bad_response"
    elif stream:
        assert "internal_error" not in response.text
        assert response.text.rstrip().endswith("data: [DONE]") or "event: response." in response.text \
            or "upstream_bad_response" in response.text
