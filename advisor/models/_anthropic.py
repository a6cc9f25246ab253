"""Anthropic Messages through the official ``anthropic`` SDK (``AsyncAnthropic``).

The SDK is imported when the client is made, never on ``import advisor``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from advisor.errors import ConfigError
from advisor.models._anthropic_wire import STOP_REASONS, content, messages_params, messages_usage
from advisor.models._config import ModelConfig
from advisor.models._failures import model_error
from advisor.models._messages import ModelRequest, ModelResponse

if TYPE_CHECKING:
    import httpx2

DEFAULT_URL = "https://api.anthropic.com"


class AnthropicModel:
    """A :class:`~advisor.models.ModelClient` speaking Anthropic Messages."""

    provider = "anthropic"

    def __init__(self, config: ModelConfig, *, http_client: httpx2.AsyncClient | None = None,
                 api_key: str | None = None, env: Mapping[str, str] | None = None) -> None:
        """``http_client`` (an ``httpx2.AsyncClient``) is used as given and left open on
        :meth:`aclose`; ``api_key`` overrides the environment."""
        import anthropic

        self.config = config
        self.url = config.base_url or DEFAULT_URL
        key = api_key or config.api_key(env)
        if key is None and config.base_url is None:
            raise ConfigError(f"no API key for {config.label}: set {config.key_variable()}")
        self._owns_http = http_client is None
        self._client = anthropic.AsyncAnthropic(api_key=key or "unset", base_url=self.url, http_client=http_client,
                                                max_retries=config.max_retries)
        self._timeout = anthropic.Timeout(config.timeout, connect=config.connect_timeout)

    @property
    def model(self) -> str:
        """The model id requests name."""
        return self.config.model

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Send ``request``; raise ``ModelUnavailable`` or ``ModelRefused`` when no answer comes."""
        import anthropic
        import httpx2

        params = messages_params(request, self.config)
        try:
            if self.config.stream:
                async with self._client.messages.stream(**params, timeout=self._timeout) as stream:
                    message = await stream.get_final_message()
                    return self._parsed(message, stream.request_id)
            message = await self._client.messages.create(**params, timeout=self._timeout)
        except (anthropic.AnthropicError, httpx2.TransportError) as error:
            raise model_error(error, provider="anthropic", url=self.url) from error
        return self._parsed(message, message._request_id)

    def _parsed(self, message: Any, request_id: str | None) -> ModelResponse:
        text, reasoning, calls, replay = content(message.content)
        stop = message.stop_reason
        return ModelResponse(text=text, reasoning=reasoning, tool_calls=calls, replay=replay,
                             usage=messages_usage(message.usage), model=message.model or self.model,
                             stop_reason=STOP_REASONS.get(stop or "", "other"), provider_stop_reason=stop,
                             request_id=request_id)

    async def aclose(self) -> None:
        """Release the connection pool (an injected HTTP client is left to its owner)."""
        if self._owns_http:
            await self._client.close()
