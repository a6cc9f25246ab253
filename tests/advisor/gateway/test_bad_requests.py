"""Bad requests of every kind: 400 (or 413) with an OpenAI-style error object, before anything goes upstream."""

from __future__ import annotations

from typing import Any

import httpx2
import openai
import pytest

from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import SHELL, USER, advisor
from tests.support.model_server import ModelServer

ENTRY_CASES: list[tuple[str, Any, str]] = [
    ("unknown tool type beside an advisor", [advisor(), {"type": "web_search"}], "unknown_tool_type"),
    ("another gateway's advisor", [{"type": "phaseo:advisor", "parameters": {}}], "unknown_tool_type"),
    ("tools not an array", {"type": "function"}, "invalid_tools"),
    ("tool not an object", ["witness:advisor"], "invalid_tools"),
    ("parameters not an object", [{"type": "witness:advisor", "parameters": []}], "invalid_advisor_parameters"),
    ("unknown parameter", [advisor(max_cost=3)], "invalid_advisor_parameters"),
    ("bad name characters", [advisor(name="rev!ewer")], "invalid_advisor_parameters"),
    ("empty name", [advisor(name="   ")], "invalid_advisor_parameters"),
    ("name too long", [advisor(name="n" * 65)], "invalid_advisor_parameters"),
    ("name making a long function", [advisor(name="n" * 60)], "invalid_advisor_name"),
    ("name leaving no function name", [advisor(name="__")], "invalid_advisor_name"),
    ("two unnamed advisors", [advisor(), advisor()], "invalid_advisor_name"),
    ("duplicate names", [advisor(name="Rev"), advisor(name=" rev ")], "invalid_advisor_name"),
    ("names colliding once cleaned", [advisor(name="a b"), advisor(name="a_b")], "invalid_advisor_name"),
    ("max_uses zero", [advisor(max_uses=0)], "invalid_advisor_parameters"),
    ("max_uses not a number", [advisor(max_uses="two")], "invalid_advisor_parameters"),
    ("max_completion_tokens too large", [advisor(max_completion_tokens=10**7)], "invalid_advisor_parameters"),
    ("temperature out of range", [advisor(temperature=3)], "invalid_advisor_parameters"),
    ("unknown reasoning effort", [advisor(reasoning={"effort": "extreme"})], "invalid_advisor_parameters"),
    ("reasoning not an object", [advisor(reasoning="high")], "invalid_advisor_parameters"),
    ("forward_transcript not a boolean", [advisor(forward_transcript="yes")], "invalid_advisor_parameters"),
    ("model empty", [advisor(model="")], "invalid_advisor_parameters"),
    ("conflicting flat and nested keys", [{"type": "witness:advisor", "name": "a", "parameters": {"name": "b"}}],
     "invalid_advisor_parameters"),
    ("client tool taking an advisor's name", [advisor(), {**SHELL, "function": {**SHELL["function"],
                                                                             "name": "witness_advisor"}}],
     "invalid_tools"),
]


@pytest.mark.parametrize(("tools", "code"), [(t, c) for _, t, c in ENTRY_CASES], ids=[n for n, _, _ in ENTRY_CASES])
def test_bad_tool_entries_are_refused_with_400(client: openai.OpenAI, model_server: ModelServer, tools: Any,
                                               code: str) -> None:
    """Each malformed tool list is a 400 whose error object names the problem; the upstream is never called."""
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(model="gpt-test", messages=USER, tools=tools)
    assert raised.value.code == code
    body = raised.value.body
    assert isinstance(body, dict) and body["type"] == "invalid_request_error" and body["message"]
    assert model_server.requests == []


@pytest.mark.parametrize(("body", "code"), [
    (b"{not json", "invalid_json"),
    (b"[1, 2]", "invalid_json"),
    (b'{"messages": [{"role": "user", "content": "x"}]}', "missing_model"),
    (b'{"model": "m", "messages": []}', "invalid_messages"),
    (b'{"model": "m", "messages": ["hello"]}', "invalid_messages"),
    (b'{"model": "m", "messages": [{"role": "user", "content": "x"}], "stream": "yes"}', "invalid_stream"),
    (b'{"model": "m", "messages": [{"role": "user", "content": "x"}], "tool_choice": "witness:advisor"}',
     "invalid_tool_choice"),
    (b'{"model": "m", "messages": [{"role": "user", "content": "x"}], "n": 2, '
     b'"tools": [{"type": "witness:advisor"}]}', "unsupported_parameter"),
], ids=["malformed", "not an object", "no model", "no messages", "message not an object", "stream not a boolean",
        "tool_choice alias without advisors", "n with advisors"])
def test_malformed_bodies_are_refused_with_400(gateway: GatewayServer, model_server: ModelServer, body: bytes,
                                               code: str) -> None:
    """Bodies no upstream could take are answered 400 with an OpenAI-style error object."""
    response = httpx2.post(gateway.base_url + "/chat/completions", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["type"]) == (code, "invalid_request_error")
    assert set(error) == {"message", "type", "param", "code"}
    assert model_server.requests == []


def test_a_body_past_the_size_limit_is_refused_with_413(model_server: ModelServer) -> None:
    """A request larger than max_body_bytes is 413 request_too_large, whether or not it says its length."""
    with GatewayServer(model_server, max_body_bytes=4096) as server:
        big = {"model": "m", "messages": [{"role": "user", "content": "x" * 5000}]}
        said = httpx2.post(server.base_url + "/chat/completions", json=big)

        def chunked() -> Any:
            yield b'{"model": "m", "messages": [{"role": "user", "content": "'
            yield b"y" * 5000
            yield b'"}]}'

        unsaid = httpx2.post(server.base_url + "/chat/completions", content=chunked())
    for response in (said, unsaid):
        assert response.status_code == 413
        assert response.json()["error"]["code"] == "request_too_large"
    assert model_server.requests == []


def test_unknown_routes_and_methods_answer_openai_style_errors(gateway: GatewayServer) -> None:
    """404 and 405 come as error objects too, never as HTML or a traceback."""
    missing = httpx2.post(gateway.base_url + "/completions", json={})
    wrong = httpx2.get(gateway.base_url + "/chat/completions")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (405, "method_not_allowed")
