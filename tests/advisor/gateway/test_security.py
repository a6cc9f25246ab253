"""Security: loopback by default, bearer auth in constant time, keys never logged, a structured access log."""

from __future__ import annotations

import json
import logging

import httpx2
import openai
import pytest

from advisor.errors import ConfigError
from advisor.gateway import GatewaySettings, create_app, is_loopback
from tests.advisor.gateway.harness import UPSTREAM_KEY, GatewayServer
from tests.advisor.gateway.helpers import USER, advisor
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

CLIENT_KEY = "wk-client-secret-9876543210"


def test_the_default_bind_is_loopback() -> None:
    """Without flags the gateway listens on 127.0.0.1:8787, which needs no key."""
    settings = GatewaySettings()
    assert (settings.host, settings.port) == ("127.0.0.1", 8787)
    settings.check_bind()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "example.com"])
def test_a_non_loopback_bind_without_a_client_key_is_refused(host: str) -> None:
    """Listening beyond this machine without --api-key-env is refused before binding."""
    with pytest.raises(ConfigError, match="without authentication"):
        GatewaySettings(host=host).check_bind()
    GatewaySettings(host=host, api_key_env="WITNESS_GATEWAY_KEY").check_bind()


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("127.8.9.1", True), ("::1", True),
                                                ("[::1]", True), ("localhost", True), ("0.0.0.0", False),
                                                ("10.0.0.1", False), ("gateway.internal", False)])
def test_loopback_addresses(host: str, loopback: bool) -> None:
    """Only 127.0.0.0/8, ::1 and localhost count as loopback."""
    assert is_loopback(host) is loopback


def test_a_key_variable_that_is_not_set_is_a_configuration_error() -> None:
    """--api-key-env naming an unset variable stops the gateway from starting, naming the variable."""
    with pytest.raises(ConfigError, match="WITNESS_GATEWAY_KEY"):
        create_app(GatewaySettings(api_key_env="WITNESS_GATEWAY_KEY"), env={})


@pytest.fixture
def guarded(model_server: ModelServer) -> GatewayServer:
    """A gateway that requires CLIENT_KEY."""
    server = GatewayServer(model_server, api_key_env="WITNESS_GATEWAY_KEY", env={"WITNESS_GATEWAY_KEY": CLIENT_KEY})
    return server.start()


def test_requests_without_the_right_key_are_refused_with_401(guarded: GatewayServer,
                                                             model_server: ModelServer) -> None:
    """No key or a wrong key is 401 invalid_api_key (nothing reaches the upstream); the right key works."""
    try:
        for key in ("wrong-key", CLIENT_KEY[:-1]):
            with openai.OpenAI(base_url=guarded.base_url, api_key=key, max_retries=0) as sdk, \
                    pytest.raises(openai.AuthenticationError) as raised:
                sdk.chat.completions.create(model="gpt-test", messages=USER)
            assert raised.value.code == "invalid_api_key"
        bare = httpx2.post(guarded.base_url + "/chat/completions", json={"model": "m", "messages": USER})
        assert bare.status_code == 401 and bare.json()["error"]["code"] == "invalid_api_key"
        assert model_server.requests == []
        model_server.enqueue(Reply(text="welcome"))
        with openai.OpenAI(base_url=guarded.base_url, api_key=CLIENT_KEY, max_retries=0) as sdk:
            assert sdk.chat.completions.create(model="gpt-test", messages=USER).choices[0].message.content == "welcome"
        assert httpx2.get(guarded.url + "/healthz").json() == {"status": "ok"}
        assert httpx2.get(guarded.base_url + "/models").status_code == 401
    finally:
        guarded.stop()


def test_the_upstream_gets_the_gateways_key_never_the_clients(guarded: GatewayServer,
                                                              model_server: ModelServer) -> None:
    """The client's key stays at the gateway; the upstream sees only the upstream key."""
    try:
        model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]),
                             Reply(text="Severity: none\nok"), Reply(text="done"))
        with openai.OpenAI(base_url=guarded.base_url, api_key=CLIENT_KEY, max_retries=0) as sdk:
            sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    finally:
        guarded.stop()
    assert {r.headers["authorization"] for r in model_server.requests} == {f"Bearer {UPSTREAM_KEY}"}


def test_the_access_log_is_structured_and_never_holds_keys(guarded: GatewayServer, model_server: ModelServer,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    """One JSON line per request with method, path, status, time, model and advisor requests; neither key, nor
    the Authorization header, nor a message body appears in any log record."""
    caplog.set_level(logging.INFO, logger="witness.gateway")
    try:
        model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]),
                             Reply(text="Severity: none\nok"), Reply(text="done"))
        with openai.OpenAI(base_url=guarded.base_url, api_key=CLIENT_KEY, max_retries=0) as sdk:
            sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
            with pytest.raises(openai.AuthenticationError):
                openai.OpenAI(base_url=guarded.base_url, api_key="bad", max_retries=0).models.list()
    finally:
        guarded.stop()
    records = [json.loads(r.getMessage()) for r in caplog.records if r.name == "witness.gateway.access"]
    chat = next(r for r in records if r["path"] == "/v1/chat/completions")
    assert chat["status"] == 200 and chat["model"] == "gpt-test" and chat["advisor_requests"] == 1
    assert chat["ms"] >= 0 and chat["bytes_in"] > 0 and chat["client"] == "127.0.0.1"
    refused = next(r for r in records if r["path"] == "/v1/models")
    assert (refused["status"], refused["error"]) == (401, "invalid_api_key")
    everything = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (CLIENT_KEY, UPSTREAM_KEY, "Bearer", "rate limiter", "bad"):
        assert secret not in everything
