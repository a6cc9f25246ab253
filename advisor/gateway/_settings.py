"""How ``witness serve`` runs: where it listens, where it forwards, and its bounds.

===========================  ==========================  ==============================================
setting (``[gateway]``)      default                     meaning
===========================  ==========================  ==============================================
``host``                     ``127.0.0.1``               address to bind; anything but loopback needs
                                                         ``api_key_env``
``port``                     ``8787``                    port to bind
``upstream``                 ``https://api.openai.com``  the OpenAI-compatible provider requests go to
                             ``/v1``                     (its base URL, ``/v1`` included)
``upstream_key_env``         ``OPENAI_API_KEY``          the variable holding the upstream's key
``api_key_env``              none                        the variable holding the key clients must send
                                                         (``Authorization: Bearer``); unset: no auth
``anthropic_upstream``       the upstream without        where ``POST /v1/messages`` goes
                             ``/v1``
``anthropic_key_env``        ``ANTHROPIC_API_KEY``       the variable holding that provider's key
``max_body_bytes``           16 MiB                      larger requests are answered 413
``max_rounds``               8                           follow-up upstream calls after advisor calls
``max_server_tool_calls``    30                          advisor calls one request may make in all
``upstream_timeout``         600                         seconds one upstream call may take
``upstream_connect_timeout`` 10                          seconds to connect to the upstream
``upstream_max_retries``     1                           the SDK's retries of 429/5xx/connection errors
``upstream_max_connections`` 256                         the upstream connection pool's size
``advisor_timeout``          300                         seconds one consultation may take
``transcript_token_budget``  100000                      the largest request (tokens, characters / 4) an
                                                         advisor with ``forward_transcript`` is sent;
                                                         the ledger is trimmed to fit
``keepalive_interval``       10                          seconds between SSE keep-alive comments
``log_consultations``        true                        append each consultation to the log under
                                                         ``$WITNESS_HOME`` (``witness log``)
``trace_key``                none                        the key advisor traces are signed with
``trace_key_env``            ``WITNESS_TRACE_KEY``       the variable holding it (wins over
                                                         ``trace_key``); neither: a random key per
                                                         process, so traces do not outlive it
``chat_trace``               ``field``                   where a chat completion carries its trace:
                                                         the message's ``witness_trace`` field, or
                                                         (``content``) a marker in front of the content
===========================  ==========================  ==============================================
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError

from advisor._config_file import config_path, describe, read_section
from advisor._values import Frozen
from advisor.errors import ConfigError

DEFAULT_UPSTREAM = "https://api.openai.com/v1"
MIN_TRACE_KEY = 16
"""The shortest trace key accepted (characters): a short key could be guessed, and traces forged."""
ChatTrace = Literal["field", "content"]
"""Where a chat completion carries its trace: the ``witness_trace`` field, or in front of the content."""


class GatewaySettings(Frozen):
    """The gateway's settings (flags over the ``[gateway]`` table of the config file)."""

    host: str = "127.0.0.1"
    """The address to bind."""
    port: int = Field(default=8787, ge=0, le=65535)
    """The port to bind (0: any free port)."""
    upstream: str = DEFAULT_UPSTREAM
    """The OpenAI-compatible provider's base URL."""
    upstream_key_env: str = "OPENAI_API_KEY"
    """The environment variable holding the upstream's API key."""
    api_key_env: str | None = None
    """The environment variable holding the key clients must present; ``None``: no auth (loopback only)."""
    anthropic_upstream: str | None = None
    """Where Anthropic Messages requests go; ``None``: the upstream without its ``/v1``."""
    anthropic_key_env: str = "ANTHROPIC_API_KEY"
    """The environment variable holding the Anthropic upstream's key."""
    max_body_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    """The largest request body accepted."""
    max_rounds: int = Field(default=8, ge=1, le=64)
    """Follow-up upstream calls one request may make after advisor calls."""
    max_server_tool_calls: int = Field(default=30, ge=1, le=100)
    """Advisor calls one request may make in all (refused ones included)."""
    upstream_timeout: float = Field(default=600.0, gt=0)
    """Seconds one upstream call may take."""
    upstream_connect_timeout: float = Field(default=10.0, gt=0)
    """Seconds to connect to the upstream."""
    upstream_max_retries: int = Field(default=1, ge=0, le=10)
    """How often the SDK retries a 429, a 5xx or a connection failure."""
    upstream_max_connections: int = Field(default=256, ge=1)
    """The upstream connection pool's size."""
    advisor_timeout: float = Field(default=300.0, gt=0)
    """Seconds one consultation may take."""
    transcript_token_budget: int = Field(default=100_000, ge=1000)
    """The largest request an advisor with ``forward_transcript`` is sent (tokens, characters / 4):
    the conversation's ledger is trimmed to fit, or the call fails with ``advisor_request_failed``."""
    keepalive_interval: float = Field(default=10.0, gt=0)
    """Seconds between the SSE comments that keep a streamed request alive while the loop runs."""
    log_consultations: bool = True
    """Whether each consultation is appended to the consultation log."""
    trace_key: SecretStr | None = None
    """The key advisor traces are signed with (every replica of a deployment needs the same)."""
    trace_key_env: str = "WITNESS_TRACE_KEY"
    """The environment variable holding the trace key; when set it wins over ``trace_key``."""
    chat_trace: ChatTrace = "field"
    """Where a chat completion carries its trace: ``field`` (the message's ``witness_trace``) or
    ``content`` (a marker in front of the content, for clients that replay only role and content;
    never when the request sets ``response_format``)."""

    @property
    def messages_upstream(self) -> str:
        """The Anthropic Messages base URL (without ``/v1``)."""
        if self.anthropic_upstream:
            return self.anthropic_upstream.rstrip("/")
        return self.upstream.rstrip("/").removesuffix("/v1")

    def client_key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The key clients must present, or ``None`` when there is no auth."""
        if self.api_key_env is None:
            return None
        value = (os.environ if env is None else env).get(self.api_key_env)
        if not value:
            raise ConfigError(f"--api-key-env names {self.api_key_env}, which is not set (or empty)")
        return value

    def trace_secret(self, env: Mapping[str, str] | None = None) -> bytes | None:
        """The trace key (the variable's over the setting), or ``None`` when neither is set.
        Raises :class:`~advisor.errors.ConfigError` for a key shorter than 16 characters."""
        value = (os.environ if env is None else env).get(self.trace_key_env) or (
            self.trace_key.get_secret_value() if self.trace_key is not None else "")
        if not value:
            return None
        if len(value) < MIN_TRACE_KEY:
            raise ConfigError(f"the trace key ({self.trace_key_env} or trace_key) must be at least {MIN_TRACE_KEY} "
                              "characters: a shorter one could be guessed")
        return value.encode()

    def check_bind(self) -> None:
        """Refuse a bind beyond loopback without client authentication."""
        if self.api_key_env is None and not is_loopback(self.host):
            raise ConfigError(f"refusing to listen on {self.host} without authentication: only loopback "
                              "addresses may be served without --api-key-env")


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_gateway_settings(flags: Mapping[str, Any] | None = None, *, path: Path | None = None) -> GatewaySettings:
    """The settings: ``flags`` (``None`` values ignored) over the ``[gateway]`` table of ``path``
    (default: the configuration file). Raises :class:`~advisor.errors.ConfigError`."""
    path = path or config_path()
    settings = dict(read_section("gateway", path))
    settings.update({key: value for key, value in (flags or {}).items() if value is not None})
    try:
        return GatewaySettings.model_validate(settings)
    except ValidationError as error:
        raise ConfigError(describe(error, f"gateway settings (flags, [gateway] in {path})")) from None
