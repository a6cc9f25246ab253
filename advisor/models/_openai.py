"""OpenAI-compatible chat completions through the official ``openai`` SDK (``AsyncOpenAI``).

Works with OpenAI and with OpenAI-compatible servers (vLLM, Ollama, gateways) given a base
URL. The SDK is imported when the client is made, never on ``import advisor``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from advisor.models._failures import UNREADABLE, model_error, unreadable
from advisor.models._messages import ModelRequest, ModelResponse, ToolCall
from advisor.models._openai_wire import STOP_REASONS, chat_params, chat_usage, reasoning_text, tool_call
from advisor.models._sdk import SdkModel

if TYPE_CHECKING:
    import httpx2
    import openai

DEFAULT_URL = "https://api.openai.com/v1"


class OpenAIChatModel(SdkModel["openai.AsyncOpenAI"]):
    """A :class:`~advisor.models.ModelClient` speaking OpenAI chat completions."""

    provider = "openai"
    default_url = DEFAULT_URL

    def _sdk_client(self, key: str, http_client: httpx2.AsyncClient | None) -> openai.AsyncOpenAI:
        import openai

        self._timeout = openai.Timeout(self.config.timeout, connect=self.config.connect_timeout)
        return openai.AsyncOpenAI(api_key=key, base_url=self.url, http_client=http_client,
                                  max_retries=self.config.max_retries)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Send ``request``; raise ``ModelUnavailable`` or ``ModelRefused`` when no answer comes."""
        import httpx2
        import openai

        params = chat_params(request, self.config)
        try:
            if self.config.stream:
                return await self._streamed(params)
            completion = await self._client.chat.completions.create(**params, timeout=self._timeout)
            return self._parsed(completion)
        except (openai.OpenAIError, httpx2.TransportError) as error:
            raise model_error(error, provider="openai", url=self.url) from error
        except UNREADABLE as error:
            raise unreadable(error, provider="openai", url=self.url) from error

    def _parsed(self, completion: Any) -> ModelResponse:
        if not completion.choices:
            raise unreadable("no choices", provider="openai", url=self.url)
        choice = completion.choices[0]
        message = choice.message
        calls = tuple(tool_call(c.id, c.function.name, c.function.arguments)
                      for c in message.tool_calls or () if c.type == "function")
        finish = choice.finish_reason
        return ModelResponse(text=message.content or "", reasoning=reasoning_text(message.model_extra),
                             tool_calls=calls, usage=chat_usage(completion.usage),
                             model=completion.model or self.model, stop_reason=STOP_REASONS.get(finish, "other"),
                             provider_stop_reason=finish, request_id=completion._request_id)

    async def _streamed(self, params: dict[str, Any]) -> ModelResponse:
        stream = await self._client.chat.completions.create(**params, stream=True, timeout=self._timeout,
                                                            stream_options={"include_usage": True})
        text: list[str] = []
        thinking: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        usage: Any = None
        model = self.model
        chunks = 0
        async with stream:
            async for chunk in stream:
                chunks += 1
                model = chunk.model or model
                usage = chunk.usage or usage
                for choice in chunk.choices or ():
                    delta = choice.delta
                    text.append(delta.content or "")
                    thinking.append(reasoning_text(delta.model_extra) or "")
                    for part in delta.tool_calls or ():
                        slot = calls.setdefault(part.index, {"id": "", "name": "", "arguments": ""})
                        slot["id"] = part.id or slot["id"]
                        if part.function is not None:
                            slot["name"] = part.function.name or slot["name"]
                            slot["arguments"] += part.function.arguments or ""
                    finish = choice.finish_reason or finish
        if not chunks:
            raise unreadable("a stream of no chunks", provider="openai", url=self.url)
        tools: tuple[ToolCall, ...] = tuple(tool_call(c["id"], c["name"], c["arguments"])
                                            for _, c in sorted(calls.items()))
        return ModelResponse(text="".join(text), reasoning="".join(thinking) or None, tool_calls=tools,
                             usage=chat_usage(usage), model=model, stop_reason=STOP_REASONS.get(finish or "", "other"),
                             provider_stop_reason=finish, request_id=stream.response.headers.get("x-request-id"))
