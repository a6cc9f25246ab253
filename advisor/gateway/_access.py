"""The structured access log: one JSON object per request on the ``witness.gateway.access`` logger.

Fields: ``method``, ``path``, ``status``, ``ms`` (until the last byte), ``bytes_in``, ``client``
(address), ``stream``, ``model``, ``advisor_requests``, ``error`` (the error code, if any) and
``disconnected``. Never a header, a key or a message body: what clients send stays theirs.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOGGER = logging.getLogger("witness.gateway.access")


class AccessLog:
    """ASGI middleware writing the access log; handlers add fields through ``scope["state"]["access"]``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        fields: dict[str, Any] = {}
        scope.setdefault("state", {})["access"] = fields
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if LOGGER.isEnabledFor(logging.INFO):
                client = scope.get("client")
                record = {"method": scope["method"], "path": scope["path"], "status": status,
                          "ms": round((time.perf_counter() - started) * 1000, 2),
                          "client": client[0] if client else None, **fields}
                LOGGER.info(orjson.dumps(record).decode())
