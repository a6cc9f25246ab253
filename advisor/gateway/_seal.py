"""The trace's seal: a response carries the advice signed, and only the gateway's own signature
is ever expanded back into advice.

A trace travels through the client (a chat message's ``witness_trace`` field, a Responses
``reasoning`` item's ``encrypted_content``), so whoever holds the conversation could edit it — or
write one from nothing and have the executor read made-up "advice" as an advisor's tool result.
So a trace is sealed as one token::

    witness-trace.1.<base64url(zlib(trace JSON))>.<base64url(HMAC-SHA256(key, "witness-trace.1." + payload))>

and :meth:`TraceSeal.open` gives the trace back only when the signature is the gateway's; any
other token — unsigned, altered, signed with another key, from before a key change — opens to
``None`` and is treated as absent. The token is signed, not encrypted: the advice in it is the
client's to read. The key is ``[gateway] trace_key`` or the variable ``trace_key_env`` names
(:meth:`~._settings.GatewaySettings.trace_secret`); without one each process draws a random key,
so its traces are not expanded after a restart or by another replica.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import zlib
from typing import Any

from pydantic import ValidationError

from advisor.gateway._trace import Trace, trace_json

PREFIX = "witness-trace.1."
"""How every token starts (the format's version is in it)."""


class TraceSeal:
    """Seals traces with one key and opens only what that key sealed."""

    def __init__(self, key: bytes | None = None) -> None:
        """``key``: the shared secret; ``None`` draws a random one for this process."""
        self.ephemeral = key is None
        """Whether the key was drawn for this process (its traces die with it)."""
        self._key = secrets.token_bytes(32) if key is None else key

    def seal(self, trace: Trace) -> str:
        """The signed, compressed token for ``trace``."""
        payload = _b64(zlib.compress(trace_json(trace), 6))
        return f"{PREFIX}{payload}.{_b64(self._mac(payload))}"

    def open(self, token: Any) -> Trace | None:
        """The trace ``token`` carries, or ``None`` unless this key sealed it."""
        if not is_token(token):
            return None
        payload, _, signature = token[len(PREFIX):].partition(".")
        # The signature is compared as text: base64 decoding forgives stray characters and unused bits,
        # and no token but the one this key wrote may open.
        if not hmac.compare_digest(signature, _b64(self._mac(payload))):
            return None
        try:
            packed = base64.b64decode(payload + "=" * (-len(payload) % 4), altchars=b"-_", validate=True)
            trace = Trace.model_validate_json(zlib.decompress(packed))
        except (binascii.Error, ValueError, zlib.error, ValidationError):
            return None
        return None if any(turn.merge for turn in trace.rounds[:-1]) else trace

    def _mac(self, payload: str) -> bytes:
        return hmac.new(self._key, (PREFIX + payload).encode("ascii"), hashlib.sha256).digest()


def is_token(value: Any) -> bool:
    """Whether ``value`` has a token's shape (whether or not it opens)."""
    return isinstance(value, str) and value.startswith(PREFIX) and value.isascii()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")
