"""SDK and transport failures as the advisor's errors: unavailable (try later) or refused (fix it).

=================================================  ==============================
failure                                            raised as
=================================================  ==============================
no connection, timeout, connection dropped          ``ModelUnavailable``
HTTP 408, 409, 429, 5xx (after the SDK's retries)   ``ModelUnavailable``
any other HTTP 4xx (key, permission, bad request)   ``ModelRefused``
an answer the SDK or the adapter cannot read        ``ModelUnavailable``
(HTML from a proxy, ``[]``, broken JSON, another
shape, a stream of no events)
=================================================  ==============================
"""

from __future__ import annotations

from typing import Any

from advisor.errors import ModelError, ModelRefused, ModelUnavailable
from obligations import redact_line

_TRANSIENT = frozenset({408, 409, 429})
UNREADABLE = (ValueError, TypeError, AttributeError, KeyError, IndexError, AssertionError)
"""What reading an answer of the wrong shape raises in an SDK or an adapter (JSON and validation errors
are ``ValueError``s)."""


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
    if isinstance(status, int) and 200 <= status < 300:
        return unreadable(error, provider=provider, url=url)
    if isinstance(status, int):
        if status in _TRANSIENT or status >= 500:
            return ModelUnavailable(f"{provider} at {url} answered HTTP {status} (after retries): {message}")
        return ModelRefused(f"{provider} at {url} refused the request (HTTP {status}): {message}")
    if "timeout" in type(error).__name__.lower() or "timed out" in message.lower():
        return ModelUnavailable(f"{provider} at {url} timed out: {message}")
    return ModelUnavailable(f"cannot reach {provider} at {url}: {message}")


def unreadable(error: BaseException | str, *, provider: str, url: str) -> ModelUnavailable:
    """The error for an answer that came (HTTP 200, as a proxy's error page does) but is not one: one line,
    naming what was wrong with it."""
    detail = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    line = " ".join(detail.split())
    return ModelUnavailable(f"{provider} at {url} answered with something that is not an answer "
                            f"({redact_line(line, 201)})")
