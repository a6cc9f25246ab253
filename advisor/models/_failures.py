"""SDK and transport failures as the advisor's errors: unavailable (try later) or refused (fix it).

=================================================  ==============================
failure                                            raised as
=================================================  ==============================
no connection, timeout, connection dropped          ``ModelUnavailable``
HTTP 408, 409, 429, 5xx (after the SDK's retries)   ``ModelUnavailable``
any other HTTP 4xx (key, permission, bad request)   ``ModelRefused``
an answer the SDK cannot read                       ``ModelUnavailable``
=================================================  ==============================
"""

from __future__ import annotations

from typing import Any

from advisor.errors import ModelError, ModelRefused, ModelUnavailable

_TRANSIENT = frozenset({408, 409, 429})


def _provider_message(error: BaseException) -> str:
    body: Any = getattr(error, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])
    return str(error) or type(error).__name__


def model_error(error: BaseException, *, provider: str, url: str) -> ModelError:
    """The advisor error for an SDK or transport exception raised while calling ``url``."""
    status = getattr(error, "status_code", None)
    message = _provider_message(error)
    if isinstance(status, int):
        if status in _TRANSIENT or status >= 500:
            return ModelUnavailable(f"{provider} at {url} answered HTTP {status} (after retries): {message}")
        return ModelRefused(f"{provider} at {url} refused the request (HTTP {status}): {message}")
    if "timeout" in type(error).__name__.lower() or "timed out" in message.lower():
        return ModelUnavailable(f"{provider} at {url} timed out: {message}")
    return ModelUnavailable(f"cannot reach {provider} at {url}: {message}")
