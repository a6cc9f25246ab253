"""The interface every model client offers, and a thin synchronous helper."""

from __future__ import annotations

import asyncio
from typing import Protocol, runtime_checkable

from advisor.models._messages import ModelRequest, ModelResponse


@runtime_checkable
class ModelClient(Protocol):
    """Sends provider-neutral requests to one model. Async first: one client serves many
    concurrent requests from one event loop.

    ``complete`` raises :class:`~advisor.errors.ModelUnavailable` (no connection, timeout,
    429/5xx after the SDK's retries) or :class:`~advisor.errors.ModelRefused` (any other
    refusal); it never returns a made-up answer."""

    @property
    def provider(self) -> str:
        """The wire format: ``openai``, ``anthropic`` or ``scripted``."""
        ...

    @property
    def model(self) -> str:
        """The model id requests name."""
        ...

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Send one request and return the answer."""
        ...

    async def aclose(self) -> None:
        """Release what the client holds (connection pools)."""
        ...


def complete_sync(client: ModelClient, request: ModelRequest) -> ModelResponse:
    """Send one request from synchronous code (a script, a REPL), then close the client.

    Runs its own event loop, so it cannot be called from inside one; a client's connection
    pool belongs to one loop, which is why the client is closed afterwards."""

    async def once() -> ModelResponse:
        try:
            return await client.complete(request)
        finally:
            await client.aclose()

    return asyncio.run(once())
