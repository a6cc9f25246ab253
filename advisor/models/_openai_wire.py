"""Neutral requests as OpenAI chat-completion parameters, and chat completions back as responses.

==========================  ====================================================================
neutral                     chat completions
==========================  ====================================================================
system prompt               a leading ``system`` message
user / assistant / tool     ``user``, ``assistant`` (``tool_calls`` with JSON-string arguments),
                            ``tool`` (``tool_call_id``; OpenAI has no error flag, the text says it)
images in tool results      a ``tool`` message holds text only: the images follow the results as a
                            ``user`` message of ``image_url`` parts (data URLs), each named
tools                       ``{"type": "function", "function": {name, description, parameters}}``
max_output_tokens           ``max_completion_tokens``
reasoning effort            ``reasoning_effort``
routing key                 ``prompt_cache_key``
reasoning text (answer)     ``reasoning_content`` / ``reasoning`` (OpenAI-compatible servers)
usage                       ``prompt_tokens`` (cached included), ``cached_tokens``,
                            ``completion_tokens``, ``reasoning_tokens``
==========================  ====================================================================

OpenAI caches prompt prefixes automatically; the routing key keeps a session's requests on
the same cache.
"""

from __future__ import annotations

import json
from typing import Any

from advisor.models._arguments import parse_arguments
from advisor.models._config import ModelConfig
from advisor.models._messages import (
    ChatAssistant,
    ChatMessage,
    ChatTool,
    FinishReason,
    ImagePart,
    ModelRequest,
    ToolCall,
    Usage,
)

STOP_REASONS: dict[str, FinishReason] = {"stop": "end", "tool_calls": "tool_calls", "function_call": "tool_calls",
                                       "length": "max_tokens", "content_filter": "refusal"}


def chat_message(message: ChatMessage) -> dict[str, Any]:
    """One neutral message as a chat-completions message."""
    if isinstance(message, ChatTool):
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.text}
    if isinstance(message, ChatAssistant):
        out: dict[str, Any] = {"role": "assistant", "content": message.text or None}
        if message.tool_calls:
            out["tool_calls"] = [
                {"id": call.id, "type": "function",
                 "function": {"name": call.name, "arguments": call.invalid_arguments
                              if call.invalid_arguments is not None else json.dumps(call.arguments)}}
                for call in message.tool_calls]
        return out
    return {"role": "user", "content": message.text}


def _images_message(images: list[ImagePart]) -> dict[str, Any]:
    """The images the tool results just before held, as one user message (a tool message holds text only)."""
    parts: list[dict[str, Any]] = []
    for image in images:
        parts.append({"type": "text", "text": f"The image read from {image.path or 'the workspace'}:"})
        parts.append({"type": "image_url", "image_url": {"url": f"data:{image.media_type};base64,{image.data}"}})
    return {"role": "user", "content": parts}


def chat_params(request: ModelRequest, config: ModelConfig) -> dict[str, Any]:
    """The ``chat.completions.create`` parameters for ``request``."""
    messages = [{"role": "system", "content": request.system}] if request.system else []
    images: list[ImagePart] = []
    for message in request.messages:
        if images and not isinstance(message, ChatTool):
            messages.append(_images_message(images))
            images = []
        messages.append(chat_message(message))
        if isinstance(message, ChatTool):
            images.extend(message.images)
    if images:
        messages.append(_images_message(images))
    params: dict[str, Any] = {"model": config.model, "messages": messages,
                              "max_completion_tokens": request.max_output_tokens or config.max_output_tokens}
    if request.tools:
        params["tools"] = [{"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                             "parameters": tool.parameters}}
                           for tool in request.tools]
    effort = request.reasoning_effort or config.effort
    if effort is not None:
        params["reasoning_effort"] = effort
    if request.temperature is not None:
        params["temperature"] = request.temperature
    if request.routing_key:
        params["prompt_cache_key"] = request.routing_key
    return params


def chat_usage(usage: Any) -> Usage:
    """A chat-completions ``usage`` object (or ``None``) as neutral usage."""
    if usage is None:
        return Usage()
    prompt_details = getattr(usage, "prompt_tokens_details", None)
    output_details = getattr(usage, "completion_tokens_details", None)
    return Usage(input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0,
                 cached_input_tokens=getattr(prompt_details, "cached_tokens", None) or 0,
                 reasoning_tokens=getattr(output_details, "reasoning_tokens", None) or 0)


def reasoning_text(extra: dict[str, Any] | None) -> str | None:
    """Reasoning text from an OpenAI-compatible server's extension fields."""
    extra = extra or {}
    value = extra.get("reasoning_content") or extra.get("reasoning")
    return value if isinstance(value, str) and value else None


def tool_call(call_id: str, name: str, arguments: str | None) -> ToolCall:
    """A neutral tool call from a chat-completions one."""
    parsed, invalid = parse_arguments(arguments)
    return ToolCall(id=call_id, name=name, arguments=parsed, invalid_arguments=invalid)
