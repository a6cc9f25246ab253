"""Anthropic Messages through the official ``anthropic`` SDK (``AsyncAnthropic``).

The SDK is imported when the client is made, never on ``import advisor``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from advisor.models._anthropic_wire import STOP_REASONS, content, messages_params, messages_usage
from advisor.models._failures import UNREADABLE, model_error, unreadable
from advisor.models._messages import ModelRequest, ModelResponse
from advisor.models._sdk import SdkModel

if TYPE_CHECKING:
    import anthropic
    import httpx2

DEFAULT_URL = "https://api.anthropic.com"


class AnthropicModel(SdkModel["anthropic.AsyncAnthropic"]):
    """A :class:`~advisor.models.ModelClient` speaking Anthropic Messages."""

    provider = "anthropic"
    default_url = DEFAULT_URL

    def _sdk_client(self, key: str, http_client: httpx2.AsyncClient | None) -> anthropic.AsyncAnthropic:
        import anthropic

        self._timeout = anthropic.Timeout(self.config.timeout, connect=self.config.connect_timeout)
        return anthropic.AsyncAnthropic(api_key=key, base_url=self.url, http_client=http_client,
                                        max_retries=self.config.max_retries)

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
            return self._parsed(message, message._request_id)
        except (anthropic.AnthropicError, httpx2.TransportError) as error:
            raise model_error(error, provider="anthropic", url=self.url) from error
        except UNREADABLE as error:
            raise unreadable(error, provider="anthropic", url=self.url) from error

    def _parsed(self, message: Any, request_id: str | None) -> ModelResponse:
        text, reasoning, calls, replay = content(message.content)
        stop = message.stop_reason
        return ModelResponse(text=text, reasoning=reasoning, tool_calls=calls, replay=replay,
                             usage=messages_usage(message.usage), model=message.model or self.model,
                             stop_reason=STOP_REASONS.get(stop or "", "other"), provider_stop_reason=stop,
                             request_id=request_id)
