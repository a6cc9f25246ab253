"""The gateway's ASGI application: routes, limits, errors, and the upstream's lifetime.

=================================  ==============================================================
route                              does
=================================  ==============================================================
``POST /v1/chat/completions``      runs the advisor loop when the request declares
                                   ``witness:advisor`` entries; otherwise forwards it as it is
``POST /v1/responses``             the same for the Responses API (:mod:`._responses`)
``GET /v1/models``,                the upstream's model list (or one model)
``GET /v1/models/{model}``
``POST /v1/messages``,             Anthropic Messages, forwarded untouched (:mod:`._messages_api`)
``POST /v1/messages/count_tokens``
``GET /healthz``                   ``{"status": "ok"}``, without authentication
=================================  ==============================================================

Every error is an OpenAI-style object ``{"error": {"message", "type", "param", "code"}}``
(Anthropic's ``{"type": "error", "error": {...}}`` on the Messages routes); nothing answers
with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar

import anyio
import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from advisor.errors import BadRequest, GatewayError
from advisor.gateway._access import AccessLog
from advisor.gateway._auth import BearerAuth
from advisor.gateway._chat import ChatRequest, parse_chat
from advisor.gateway._loop import run_loop
from advisor.gateway._messages_api import forward_messages
from advisor.gateway._responses import ResponsesRequest, parse_responses
from advisor.gateway._responses_events import error_events, response_events
from advisor.gateway._responses_loop import run_responses
from advisor.gateway._seal import TraceSeal
from advisor.gateway._settings import GatewaySettings
from advisor.gateway._sse import SseResponse, advised_frames, kept_alive
from advisor.gateway._upstream import Upstream, read, relay

LOGGER = logging.getLogger("witness.gateway")
T = TypeVar("T")


class _Parsed(Protocol):
    """What the handlers read of a parsed request (chat completions or Responses)."""

    model: str
    stream: bool

    @property
    def advised(self) -> bool: ...

    def forwarded(self) -> bytes: ...


R = TypeVar("R", bound=_Parsed)
_JSON = "application/json"
_KEPT_HEADERS = ("x-request-id", "request-id", "retry-after", "retry-after-ms")


def create_app(settings: GatewaySettings, *, env: Mapping[str, str] | None = None) -> Starlette:
    """The gateway application for ``settings`` (keys read from ``env``, default the environment).

    Raises :class:`~advisor.errors.ConfigError` when ``api_key_env`` names an unset variable, or the
    trace key is too short."""
    key = settings.client_key(env)
    gateway = _Gateway(settings, env)
    middleware = [Middleware(AccessLog)]
    if key is not None:
        middleware.append(Middleware(BearerAuth, key=key))
    routes = [Route("/v1/chat/completions", gateway.chat, methods=["POST"]),
              Route("/v1/responses", gateway.responses, methods=["POST"]),
              Route("/v1/models", gateway.models, methods=["GET"]),
              Route("/v1/models/{model:path}", gateway.models, methods=["GET"]),
              Route("/v1/messages", gateway.messages, methods=["POST"]),
              Route("/v1/messages/count_tokens", gateway.messages, methods=["POST"]),
              Route("/healthz", gateway.health, methods=["GET"])]
    app = Starlette(routes=routes, middleware=middleware, lifespan=gateway.lifespan,
                    exception_handlers={HTTPException: _http_error, Exception: _internal_error})
    app.state.gateway = gateway
    return app


class _Gateway:
    """The handlers and the upstream connection they share (``app.state.gateway``)."""

    def __init__(self, settings: GatewaySettings, env: Mapping[str, str] | None) -> None:
        self.settings = settings
        self.env = env
        self.seal = TraceSeal(settings.trace_secret(env))
        """Signs the traces responses carry, and opens those requests bring back."""
        self._upstream: Upstream | None = None

    @property
    def upstream(self) -> Upstream:
        """The upstream connection (made on first use when served without the lifespan)."""
        if self._upstream is None:  # served without the lifespan (an ASGI transport in a test)
            self._upstream = Upstream(self.settings, env=self.env)
        return self._upstream

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        upstream = self.upstream
        if not upstream.has_key:
            LOGGER.warning("%s is not set: upstream requests are sent without a key",
                           self.settings.upstream_key_env)
        if self.seal.ephemeral:
            LOGGER.warning("no trace key (%s, trace_key): advisor traces are signed with a key of this process and "
                           "are not replayed after a restart or by another replica", self.settings.trace_key_env)
        try:
            yield
        finally:
            await upstream.aclose()
            self._upstream = None

    async def health(self, request: Request) -> Response:
        return Response(b'{"status":"ok"}', media_type=_JSON)

    async def chat(self, request: Request) -> Response:
        async def advised(chat: ChatRequest) -> tuple[dict[str, Any], int]:
            outcome = await run_loop(chat, self.upstream, self.settings, seal=self.seal)
            return outcome.completion, outcome.advisors.requests

        def frames(chat: ChatRequest, work: Awaitable[dict[str, Any]]) -> AsyncIterator[bytes]:
            return advised_frames(work, keepalive=self.settings.keepalive_interval, include_usage=chat.include_usage)

        return await self._serve(request, parse=lambda raw: parse_chat(raw, self.seal), path="/chat/completions",
                                 run=advised, frames=frames)

    async def responses(self, request: Request) -> Response:
        async def advised(parsed: ResponsesRequest) -> tuple[dict[str, Any], int]:
            result = await run_responses(parsed, self.upstream, self.settings, seal=self.seal)
            return result.response, result.advisors.requests

        def frames(parsed: ResponsesRequest, work: Awaitable[dict[str, Any]]) -> AsyncIterator[bytes]:
            return kept_alive(work, keepalive=self.settings.keepalive_interval, answer=response_events,
                              failure=error_events)

        return await self._serve(request, parse=lambda raw: parse_responses(raw, self.seal), path="/responses",
                                 run=advised, frames=frames)

    async def _serve(self, request: Request, *, parse: Callable[[bytes], R], path: str,
                     run: Callable[[R], Awaitable[tuple[dict[str, Any], int]]],
                     frames: Callable[[R, Awaitable[dict[str, Any]]], AsyncIterator[bytes]]) -> Response:
        """A request of ``path``: forwarded when it declares no advisor, else ``run`` (the loop),
        answered whole or, streamed, as ``frames``."""
        access = request.scope["state"]["access"]
        try:
            raw = await _body(request, self.settings.max_body_bytes)
            access["bytes_in"] = len(raw)
            parsed = parse(raw)
            access.update(model=parsed.model, stream=parsed.stream)
            if not parsed.advised:
                return await _until_disconnect(request, self._forward(path, parsed.forwarded(), stream=parsed.stream))

            async def work() -> dict[str, Any]:
                answer, access["advisor_requests"] = await run(parsed)
                return answer

            if parsed.stream:
                return SseResponse(frames(parsed, work()))
            return Response(orjson.dumps(await _until_disconnect(request, work())), media_type=_JSON)
        except GatewayError as error:
            access["error"] = error.code
            return _error(error)

    async def _forward(self, path: str, content: bytes, *, stream: bool) -> Response:
        response = await self.upstream.raw(path, content)
        headers = {k: response.headers[k] for k in _KEPT_HEADERS if k in response.headers}
        if stream and response.status_code == 200:
            return SseResponse(relay(response), on_close=response.aclose, headers=_raw(headers))
        return Response(await read(response), status_code=response.status_code, media_type=_JSON, headers=headers)

    async def models(self, request: Request) -> Response:
        try:
            response = await self.upstream.models(request.url.path.removeprefix("/v1"))
        except GatewayError as error:
            request.scope["state"]["access"]["error"] = error.code
            return _error(error)
        return Response(response.content, status_code=response.status_code, media_type=_JSON)

    async def messages(self, request: Request) -> Response:
        access = request.scope["state"]["access"]
        try:
            raw = await _body(request, self.settings.max_body_bytes)
            access["bytes_in"] = len(raw)
            response = await forward_messages(self.upstream.http, base_url=self.settings.messages_upstream,
                                              key=self.upstream.anthropic_key, body=raw,
                                              client_headers=request.headers, path=request.url.path)
        except GatewayError as error:
            access["error"] = error.code
            return _error(error, anthropic=True)
        headers = {k: response.headers[k] for k in _KEPT_HEADERS if k in response.headers}
        if response.status_code == 200 and response.headers.get("content-type", "").startswith("text/event-stream"):
            access["stream"] = True
            return SseResponse(relay(response), on_close=response.aclose, headers=_raw(headers))
        try:
            body = await read(response)
        except GatewayError as error:
            access["error"] = error.code
            return _error(error, anthropic=True)
        return Response(body, status_code=response.status_code, headers=headers,
                        media_type=response.headers.get("content-type", _JSON))


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 past ``limit`` bytes (before reading it when it says its size)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise _too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(limit: int) -> BadRequest:
    return BadRequest(f"the request body is larger than {limit} bytes", code="request_too_large", status=413)


async def _until_disconnect(request: Request, work: Awaitable[T]) -> T:
    """``work``'s result; cancelled (and the client answered nothing) if the client goes away first."""
    task = asyncio.ensure_future(work)

    async def watch() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
        task.cancel()

    watcher = asyncio.ensure_future(watch())
    try:
        return await task
    finally:
        watcher.cancel()
        if not task.done():
            task.cancel()
            with anyio.CancelScope(shield=True):
                await asyncio.gather(task, return_exceptions=True)


def _raw(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.encode(), value.encode()) for name, value in headers.items()]


def _error(error: GatewayError, *, anthropic: bool = False) -> Response:
    if anthropic:
        body: dict[str, Any] = {"type": "error", "error": {"type": error.kind, "message": error.message}}
    else:
        body = error.body()
    return Response(orjson.dumps(body), status_code=error.status, media_type=_JSON, headers=error.headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    code = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
    detail = exc.detail if isinstance(exc, HTTPException) else "error"
    return _error(BadRequest(f"{request.method} {request.url.path}: {detail}", code=code, status=status))


async def _internal_error(request: Request, exc: Exception) -> Response:
    LOGGER.error("internal error on %s %s: %s", request.method, request.url.path, type(exc).__name__,
                 exc_info=exc)
    return _error(GatewayError("the gateway failed while handling the request", code="internal_error"))
