"""Server-sent events: the relay response, keep-alives while the loop runs, and the final chunks.

A streamed request that runs advisors gets its response headers at once, then an SSE comment
(``: keep-alive``) every ``keepalive_interval`` seconds while the loop works upstream, then the
answer as chat-completion chunks — the role (with the ``witness_trace`` field when the answer
carries one), the content, one delta per tool call,
``finish_reason``, a usage chunk (``choices: []``) when ``stream_options.include_usage`` asked
for one — and ``data: [DONE]``. A failure after the headers went out is sent as
``data: {"error": {...}}`` (the OpenAI SDK raises it as an ``APIError``), then ``[DONE]``.
When the client disconnects, the work in progress — the upstream call, the consultations — is
cancelled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from typing import Any, TypeVar

import anyio
import orjson
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from advisor.errors import GatewayError
from advisor.gateway._replay import FIELD

LOGGER = logging.getLogger("witness.gateway")
T = TypeVar("T")
DONE = b"data: [DONE]\n\n"
KEEPALIVE = b": keep-alive\n\n"
_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
            (b"x-accel-buffering", b"no")]


class SseResponse(Response):
    """Sends ``source``'s frames as they come; a client disconnect cancels ``source``."""

    def __init__(self, source: AsyncIterator[bytes], *, on_close: Callable[[], Awaitable[None]] | None = None,
                 headers: list[tuple[bytes, bytes]] | None = None) -> None:
        super().__init__()
        self.source = source
        self.on_close = on_close
        self.extra = headers or []
        self.disconnected = False
        """Whether the client went away before the stream ended."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:
                async def watch() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    self.disconnected = True
                    group.cancel_scope.cancel()

                group.start_soon(watch)
                await send({"type": "http.response.start", "status": 200, "headers": [*_HEADERS, *self.extra]})
                try:
                    async for frame in self.source:
                        await send({"type": "http.response.body", "body": frame, "more_body": True})
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                except OSError:
                    self.disconnected = True
                group.cancel_scope.cancel()
        finally:
            await _close(self.source)
            if self.on_close is not None:
                await self.on_close()


async def _close(source: AsyncIterator[bytes]) -> None:
    close = getattr(source, "aclose", None)
    if close is not None:
        with anyio.CancelScope(shield=True):
            await close()


def frame(data: Any) -> bytes:
    """One ``data:`` event."""
    return b"data: " + orjson.dumps(data) + b"\n\n"


async def advised_frames(work: Awaitable[dict[str, Any]], *, keepalive: float,
                         include_usage: bool) -> AsyncIterator[bytes]:
    """Keep-alives while ``work`` (the loop) runs, then its answer as chunks, then ``[DONE]``."""
    def answer(completion: dict[str, Any]) -> Iterator[bytes]:
        yield from (frame(chunk) for chunk in completion_chunks(completion, include_usage=include_usage))
        yield DONE

    def failure(error: GatewayError) -> Iterator[bytes]:
        yield frame(error.body())
        yield DONE

    async for piece in kept_alive(work, keepalive=keepalive, answer=answer, failure=failure):
        yield piece


async def kept_alive(work: Awaitable[T], *, keepalive: float, answer: Callable[[T], Iterable[bytes]],
                     failure: Callable[[GatewayError], Iterable[bytes]]) -> AsyncIterator[bytes]:
    """Keep-alives while ``work`` runs, then ``answer``'s frames for its result — or ``failure``'s for
    its error (a bug included, logged here: the client gets an error event, never a dropped stream)."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=keepalive)
            if done:
                break
            yield KEEPALIVE
        try:
            frames = list(answer(task.result()))
        except GatewayError as error:
            frames = list(failure(error))
        except Exception as error:  # a bug still ends the stream with an error event
            LOGGER.error("internal error in a streamed request: %s", type(error).__name__, exc_info=error)
            frames = list(failure(GatewayError("the gateway failed while handling the request",
                                               code="internal_error")))
    finally:
        if not task.done():
            task.cancel()
            with anyio.CancelScope(shield=True):
                await asyncio.gather(task, return_exceptions=True)
    for piece in frames:
        yield piece


def completion_chunks(completion: dict[str, Any], *, include_usage: bool) -> list[dict[str, Any]]:
    """A chat completion as the chunks a stream of it would have been."""
    head: dict[str, Any] = {"id": completion.get("id"), "object": "chat.completion.chunk",
                            "created": completion.get("created"), "model": completion.get("model")}
    for key in ("system_fingerprint", "service_tier"):
        if key in completion:
            head[key] = completion[key]
    if include_usage:
        head["usage"] = None
    choice = completion["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    first: dict[str, Any] = {"role": "assistant", "content": ""}
    if isinstance(message.get(FIELD), str):
        first[FIELD] = message[FIELD]
    chunks = [chunk(first)]
    for key in ("reasoning_content", "reasoning"):
        if isinstance(message.get(key), str) and message[key]:
            chunks.append(chunk({key: message[key]}))
    if message.get("content"):
        chunks.append(chunk({"content": message["content"]}))
    for index, call in enumerate(message.get("tool_calls") or ()):
        chunks.append(chunk({"tool_calls": [{"index": index, "id": call.get("id"), "type": "function",
                                             "function": call.get("function") or {}}]}))
    chunks.append(chunk({}, choice.get("finish_reason") or "stop"))
    if include_usage:
        chunks.append({**head, "choices": [], "usage": completion.get("usage")})
    return chunks
