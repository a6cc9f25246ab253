"""Client authentication: ``Authorization: Bearer <key>`` (or Anthropic's ``x-api-key``),
compared in constant time. ``GET /healthz`` is open; everything else needs the key when one is set.
The refusal is a 401 in the route's own error shape (Anthropic's on the Messages routes)."""

from __future__ import annotations

import hmac

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from advisor.errors import BadRequest

OPEN_PATHS = frozenset({"/healthz"})
ANTHROPIC_PREFIX = "/v1/messages"
"""The routes that answer in Anthropic's error shape."""


def offered_key(headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """The key a request presents, if any."""
    for name, value in headers:
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].strip()
    for name, value in headers:
        if name == b"x-api-key":
            return value.strip()
    return None


class BearerAuth:
    """ASGI middleware refusing, with 401, requests that do not present ``key``."""

    def __init__(self, app: ASGIApp, *, key: str) -> None:
        self.app = app
        self.key = key.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        offered = offered_key(scope["headers"])
        if offered is not None and hmac.compare_digest(offered, self.key):
            await self.app(scope, receive, send)
            return
        error = BadRequest("missing API key: send 'Authorization: Bearer <key>'" if offered is None
                           else "incorrect API key", code="invalid_api_key", status=401)
        scope.setdefault("state", {}).setdefault("access", {})["error"] = error.code
        # Anthropic's SDK reads its own error shape on the Messages routes.
        body = {"type": "error", "error": {"type": "authentication_error", "message": error.message}} \
            if scope["path"].startswith(ANTHROPIC_PREFIX) else error.body()
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")]})
        await send({"type": "http.response.body", "body": orjson.dumps(body)})
