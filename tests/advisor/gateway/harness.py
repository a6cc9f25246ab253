"""The gateway on a real loopback socket, in front of the scripted model server (a test double
for the remote provider), for tests and the benchmark."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any

import uvicorn

from advisor.gateway import GatewaySettings, create_app
from tests.support.model_server import ModelServer

UPSTREAM_KEY = "sk-upstream-secret-0123456789"
"""The key the gateway sends the fake upstream (never to be logged)."""


class GatewayServer:
    """``witness serve``'s application served by Uvicorn from a background thread on 127.0.0.1."""

    def __init__(self, upstream: ModelServer, *, env: Mapping[str, str] | None = None, **settings: Any) -> None:
        self.env = {"OPENAI_API_KEY": UPSTREAM_KEY, "ANTHROPIC_API_KEY": UPSTREAM_KEY, **(env or {})}
        self.settings = GatewaySettings(**{"upstream": upstream.openai_base_url, "anthropic_upstream": upstream.url,
                                           "log_consultations": False, **settings})
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0
        self.app = create_app(self.settings, env=self.env)
        """The application served (its ``state.gateway`` holds the upstream pool)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop serving it, once a request or the lifespan ran."""

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI base URL of the gateway (``…/v1``)."""
        return self.url + "/v1"

    async def _recording_loop(self, scope: Any, receive: Any, send: Any) -> None:
        self.loop = asyncio.get_running_loop()
        await self.app(scope, receive, send)

    def start(self) -> GatewayServer:
        """Serve; returns once connections are accepted."""
        # IPPROTO_TCP, not 0: asyncio disables Nagle only on sockets whose protocol says TCP, and without
        # that every response written in two parts waits out the client's delayed ACK (about 40 ms).
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(512)
        self.port = listener.getsockname()[1]
        config = uvicorn.Config(self._recording_loop, interface="asgi3", lifespan="on", log_level="critical",
                                access_log=False, http="h11", ws="none", loop="asyncio",
                                timeout_graceful_shutdown=3)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [listener]}, daemon=True,
                                        name=f"gateway:{self.port}")
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the gateway did not start")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)
        self._server = self._thread = None

    def __enter__(self) -> GatewayServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


def pool_in_use(server: GatewayServer) -> tuple[int, int]:
    """``(connections busy, requests waiting)`` in the gateway's upstream pool."""
    app = server.app
    upstream = app.state.gateway._upstream
    if upstream is None:
        return 0, 0
    pool = upstream.http._transport._pool
    busy = sum(1 for connection in pool.connections if not (connection.is_idle() or connection.is_closed()))
    return busy, len(pool._requests)


def gateway_tasks(server: GatewayServer) -> int:
    """The tasks alive on the gateway's event loop, besides the one counting them."""
    loop = server.loop
    assert loop is not None

    async def count() -> int:
        return len(asyncio.all_tasks()) - 1

    return asyncio.run_coroutine_threadsafe(count(), loop).result(timeout=10)


def wait_until(condition: Callable[[], bool], *, seconds: float = 15.0) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; whether it held."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()
