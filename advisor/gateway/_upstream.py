"""The upstream provider, through the official ``openai`` SDK: one pooled ``AsyncOpenAI``.

Request bodies go through the SDK's low-level ``post`` as the client sent them (or as the
loop built them), and answers come back as raw bytes, so fields the SDK does not model survive
both ways. Failures become the gateway's errors:

=========================================  ======================================================
upstream                                   the gateway answers
=========================================  ======================================================
400, 404, 413, 422 (the request's fault)   the same status, the upstream's message
401, 403 (the gateway's key refused)       502 ``upstream_auth_failed``
429 (after the SDK's retries)              429 ``upstream_rate_limited``, ``retry-after`` kept
408, a timeout                             504 ``upstream_timeout``
5xx and any other status                   502 ``upstream_error``
no connection, a dropped connection        502 ``upstream_unreachable``
an answer of the wrong shape               502 ``upstream_bad_response``
=========================================  ======================================================
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from typing import Any, cast

import httpx2
import openai
import orjson

from advisor.errors import BadRequest, GatewayError, UpstreamFailed, UpstreamTimeout
from advisor.gateway._bodies import check_depth
from advisor.gateway._settings import GatewaySettings
from advisor.models import ModelConfig, ModelRequest, ModelResponse, OpenAIChatModel

_CLIENT_FAULTS = frozenset({400, 404, 413, 422})
_JSON = {"content-type": "application/json"}
_RAW_STREAM = {"X-Stainless-Raw-Response": "stream"}
_ADVISOR_CLIENTS = 64


def upstream_error(error: BaseException) -> GatewayError:
    """The gateway error for an SDK or transport failure of an upstream call."""
    if isinstance(error, openai.APIStatusError):
        return _status_error(error.status_code, _message(error), error.response.headers)
    if isinstance(error, openai.APITimeoutError | httpx2.TimeoutException):
        return UpstreamTimeout("the upstream did not answer in time", code="upstream_timeout")
    return UpstreamFailed(f"cannot reach the upstream: {type(error).__name__}", code="upstream_unreachable")


def _status_error(status: int, message: str, headers: Mapping[str, str]) -> GatewayError:
    if status in _CLIENT_FAULTS:
        return BadRequest(f"the upstream refused the request: {message}", code="upstream_rejected", status=status)
    if status in (401, 403):
        return UpstreamFailed(f"the upstream refused the gateway's credentials (HTTP {status})",
                              code="upstream_auth_failed")
    if status == 429:
        wait = {k: headers[k] for k in ("retry-after", "retry-after-ms") if k in headers}
        return UpstreamFailed(f"the upstream is rate-limiting requests: {message}", code="upstream_rate_limited",
                              status=429, headers=wait)
    if status == 408:
        return UpstreamTimeout("the upstream timed out (HTTP 408)", code="upstream_timeout")
    return UpstreamFailed(f"the upstream failed (HTTP {status}): {message}", code="upstream_error")


def _message(error: openai.APIStatusError) -> str:
    body = error.body
    inner = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(inner, dict) and isinstance(inner.get("message"), str):
        return str(inner["message"])
    return f"HTTP {error.status_code}"


async def read(response: httpx2.Response) -> bytes:
    """The whole body of an open response, then closed; a connection lost on the way is a 502/504."""
    try:
        return await response.aread()
    except httpx2.TransportError as error:
        raise upstream_error(error) from error
    finally:
        await response.aclose()


async def relay(response: httpx2.Response) -> AsyncIterator[bytes]:
    """An open streamed response's bytes as they come; a connection lost on the way ends the relay
    with an error event (the OpenAI SDK raises it)."""
    try:
        async for piece in response.aiter_raw():
            yield piece
    except httpx2.TransportError as error:
        yield b"data: " + orjson.dumps(upstream_error(error).body()) + b"\n\n"
    finally:
        await response.aclose()


class Upstream:
    """The pooled connection to the upstream provider; one per gateway process."""

    def __init__(self, settings: GatewaySettings, *, env: Mapping[str, str] | None = None) -> None:
        self.settings = settings
        env = os.environ if env is None else env
        self._key = env.get(settings.upstream_key_env) or None
        self.anthropic_key = env.get(settings.anthropic_key_env) or None
        """The key sent with forwarded Anthropic Messages requests."""
        limits = httpx2.Limits(max_connections=settings.upstream_max_connections,
                               max_keepalive_connections=settings.upstream_max_connections)
        timeout = httpx2.Timeout(settings.upstream_timeout, connect=settings.upstream_connect_timeout)
        self.http = httpx2.AsyncClient(limits=limits, timeout=timeout)
        """The pool every upstream call shares (executor, advisors, Messages pass-through)."""
        self.openai = openai.AsyncOpenAI(api_key=self._key or "unset", base_url=settings.upstream,
                                         http_client=self.http, max_retries=settings.upstream_max_retries,
                                         timeout=openai.Timeout(settings.upstream_timeout,
                                                                connect=settings.upstream_connect_timeout))
        self._advisors: OrderedDict[str, OpenAIChatModel] = OrderedDict()

    @property
    def has_key(self) -> bool:
        """Whether an upstream key was found in the environment."""
        return self._key is not None

    async def chat(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """One non-streamed chat completion, as the upstream's JSON."""
        completion = await self.post_json("/chat/completions", body)
        choices = completion.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict) \
                or not isinstance(choices[0].get("message"), dict):
            raise UpstreamFailed("the upstream answered with no chat completion choice", code="upstream_bad_response")
        calls = choices[0]["message"].get("tool_calls") or []
        if not isinstance(calls, list) or not all(isinstance(call, dict) for call in calls):
            raise UpstreamFailed("the upstream's tool_calls are not a list of objects", code="upstream_bad_response")
        return completion

    async def post_json(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """One non-streamed call of ``path``: the upstream's answer, a JSON object (else a 502)."""
        content = await read(await self._post(path, orjson.dumps(body)))
        try:
            answer = orjson.loads(content)
        except orjson.JSONDecodeError:
            raise UpstreamFailed("the upstream's answer is not JSON", code="upstream_bad_response") from None
        if not isinstance(answer, dict):
            raise UpstreamFailed("the upstream's answer is not a JSON object", code="upstream_bad_response")
        try:
            check_depth(answer)  # the answer is written again for the client
        except BadRequest:
            raise UpstreamFailed("the upstream's answer is nested too deeply", code="upstream_bad_response") from None
        return answer

    async def chat_raw(self, content: bytes) -> httpx2.Response:
        """A chat completion forwarded as is: the open response (the caller reads and closes it)."""
        return await self.raw("/chat/completions", content)

    async def raw(self, path: str, content: bytes) -> httpx2.Response:
        """A body forwarded as is to ``path``: the open response (the caller reads and closes it)."""
        return await self._post(path, content)

    async def models(self, path: str) -> httpx2.Response:
        """``GET /models`` (or one model) of the upstream, read."""
        try:
            response = await self.openai.get(path, cast_to=cast(Any, httpx2.Response))
        except (openai.OpenAIError, httpx2.TransportError) as error:
            raise upstream_error(error) from error
        return cast(httpx2.Response, response)

    async def _post(self, path: str, content: bytes) -> httpx2.Response:
        headers = {**_JSON, **_RAW_STREAM}
        try:
            response = await self.openai.post(path, cast_to=cast(Any, httpx2.Response), content=content,
                                              options={"headers": headers})
        except (openai.OpenAIError, httpx2.TransportError) as error:
            raise upstream_error(error) from error
        return cast(httpx2.Response, response)

    def advisor(self, model: str) -> OpenAIChatModel:
        """The client that consults ``model`` through the upstream (kept for reuse, a bounded number)."""
        client = self._advisors.get(model)
        if client is None:
            config = ModelConfig(provider="openai", model=model, base_url=self.settings.upstream,
                                 api_key_env=self.settings.upstream_key_env, timeout=self.settings.advisor_timeout,
                                 connect_timeout=self.settings.upstream_connect_timeout,
                                 max_retries=0)  # the consultation retries a transient failure itself
            client = OpenAIChatModel(config, http_client=self.http, api_key=self._key or "unset")
            self._advisors[model] = client
            while len(self._advisors) > _ADVISOR_CLIENTS:
                self._advisors.popitem(last=False)
        else:
            self._advisors.move_to_end(model)
        return client

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self.http.aclose()


class TunedModel:
    """A :class:`~advisor.models.ModelClient` that sets one advisor's output cap, effort and
    temperature on every request it sends."""

    def __init__(self, inner: OpenAIChatModel, *, max_output_tokens: int, effort: Any = None,
                 temperature: float | None = None) -> None:
        self._inner = inner
        self._update: dict[str, Any] = {"max_output_tokens": max_output_tokens}
        if effort is not None:
            self._update["reasoning_effort"] = effort
        if temperature is not None:
            self._update["temperature"] = temperature

    @property
    def provider(self) -> str:
        """The wire format."""
        return self._inner.provider

    @property
    def model(self) -> str:
        """The advisor model."""
        return self._inner.model

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Send ``request`` with this advisor's settings."""
        return await self._inner.complete(request.model_copy(update=self._update))

    async def aclose(self) -> None:
        """Nothing: the pool belongs to the gateway."""
