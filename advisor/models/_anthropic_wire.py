"""Neutral requests as Anthropic Messages parameters, and messages back as responses.

==========================  ====================================================================
neutral                     Anthropic Messages
==========================  ====================================================================
system prompt               ``system`` text block with ``cache_control`` (caches tools + system)
user / assistant            ``user`` / ``assistant`` turns of content blocks; consecutive turns of
                            one role merged (Anthropic requires alternation)
tool result                 a ``tool_result`` block (``is_error``) in the next ``user`` turn; an
                            image it holds is an ``image`` block (base64) inside it
tool call                   a ``tool_use`` block (``input`` is an object)
stable prefix               ``cache_control`` on the last block of its last message; during an
                            investigation also on the last block, so each round reuses the last
reasoning effort            ``output_config.effort`` (``minimal`` sent as ``low``) and adaptive
                            ``thinking``
routing key                 ``metadata.user_id``
temperature                 sent in the body (the 2.x SDK dropped the parameter)
usage                       ``input_tokens`` counts no cache reads or writes: all three are
                            added up as neutral input, reads as cached, writes as cache writes
==========================  ====================================================================

At most three cache breakpoints are used (Anthropic allows four).
"""

from __future__ import annotations

from typing import Any

from advisor.models._config import ModelConfig
from advisor.models._messages import (
    ChatAssistant,
    ChatMessage,
    ChatTool,
    Effort,
    FinishReason,
    ModelRequest,
    ToolCall,
    Usage,
)

STOP_REASONS: dict[str, FinishReason] = {"end_turn": "end", "stop_sequence": "end", "tool_use": "tool_calls",
                                       "max_tokens": "max_tokens", "model_context_window_exceeded": "max_tokens",
                                       "refusal": "refusal"}
_EFFORT: dict[Effort, str] = {"minimal": "low", "low": "low", "medium": "medium", "high": "high",
                              "xhigh": "xhigh", "max": "max"}
_EPHEMERAL = {"type": "ephemeral"}


def _blocks(message: ChatMessage) -> tuple[str, list[dict[str, Any]]]:
    if isinstance(message, ChatTool):
        content: str | list[dict[str, Any]] = message.text or "(no output)"
        if message.images:
            content = [{"type": "text", "text": content}, *(
                {"type": "image", "source": {"type": "base64", "media_type": image.media_type, "data": image.data}}
                for image in message.images)]
        return "user", [{"type": "tool_result", "tool_use_id": message.tool_call_id, "content": content,
                         "is_error": message.is_error}]
    blocks: list[dict[str, Any]] = [{"type": "text", "text": part.text} for part in message.content if part.text]
    if isinstance(message, ChatAssistant):
        blocks = [dict(block) for block in message.replay] + blocks
        blocks.extend({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
                      for call in message.tool_calls)
        return "assistant", blocks
    return "user", blocks or [{"type": "text", "text": "(empty message)"}]


def turns(request: ModelRequest) -> list[dict[str, Any]]:
    """The request's messages as Anthropic turns, with the stable prefix's end marked for caching."""
    out: list[dict[str, Any]] = []
    ends: list[tuple[int, int] | None] = []
    for message in request.messages:
        role, blocks = _blocks(message)
        if blocks:
            if out and out[-1]["role"] == role:
                out[-1]["content"].extend(blocks)
            else:
                out.append({"role": role, "content": blocks})
        ends.append((len(out) - 1, len(out[-1]["content"]) - 1) if out else None)
    marks = []
    if request.stable_prefix_messages:
        marks.append(ends[request.stable_prefix_messages - 1])
    if any(isinstance(m, ChatTool) for m in request.messages):
        marks.append(ends[-1])
    for mark in marks:
        if mark is not None:
            turn, block = mark
            out[turn]["content"][block]["cache_control"] = dict(_EPHEMERAL)
    return out


def messages_params(request: ModelRequest, config: ModelConfig) -> dict[str, Any]:
    """The ``messages.create`` parameters for ``request``."""
    params: dict[str, Any] = {"model": config.model, "messages": turns(request),
                              "max_tokens": request.max_output_tokens or config.max_output_tokens}
    if request.system:
        params["system"] = [{"type": "text", "text": request.system, "cache_control": dict(_EPHEMERAL)}]
    if request.tools:
        params["tools"] = [{"name": tool.name, "description": tool.description, "input_schema": tool.parameters}
                           for tool in request.tools]
    effort = request.reasoning_effort or config.effort
    if effort is not None:
        params["output_config"] = {"effort": _EFFORT[effort]}
        params["thinking"] = {"type": "adaptive"}
    if request.routing_key:
        params["metadata"] = {"user_id": request.routing_key}
    if request.temperature is not None:
        params["extra_body"] = {"temperature": request.temperature}
    return params


def messages_usage(usage: Any) -> Usage:
    """An Anthropic ``usage`` object as neutral usage (input = uncached + cache reads + writes)."""
    if usage is None:
        return Usage()
    read = usage.cache_read_input_tokens or 0
    written = usage.cache_creation_input_tokens or 0
    details = getattr(usage, "output_tokens_details", None)
    return Usage(input_tokens=(usage.input_tokens or 0) + read + written, output_tokens=usage.output_tokens or 0,
                 cached_input_tokens=read, cache_write_tokens=written,
                 reasoning_tokens=getattr(details, "thinking_tokens", None) or 0)


def content(blocks: Any) -> tuple[str, str | None, tuple[ToolCall, ...], tuple[dict[str, Any], ...]]:
    """Text, reasoning, tool calls and blocks to replay, from an answer's content blocks."""
    text: list[str] = []
    thinking: list[str] = []
    calls: list[ToolCall] = []
    replay: list[dict[str, Any]] = []
    for block in blocks:
        if block.type == "text":
            text.append(block.text)
        elif block.type == "thinking":
            thinking.append(block.thinking)
            replay.append({"type": "thinking", "thinking": block.thinking, "signature": block.signature})
        elif block.type == "redacted_thinking":
            replay.append({"type": "redacted_thinking", "data": block.data})
        elif block.type == "tool_use":
            arguments = block.input if isinstance(block.input, dict) else {}
            invalid = None if isinstance(block.input, dict) else str(block.input)
            calls.append(ToolCall(id=block.id, name=block.name, arguments=arguments, invalid_arguments=invalid))
    return "".join(text), "\n\n".join(thinking) or None, tuple(calls), tuple(replay)
