"""What the scripted model server answers, and what it records.

A test scripts each answer as a :class:`Reply` (text, reasoning, tool calls, usage) or a
fault (:class:`RateLimited`, :class:`ServerError`, :class:`HttpError`, :class:`Hang`,
:class:`Drop`); the server renders it in the wire format of the endpoint that was called.
Every request it receives is kept as a :class:`RecordedRequest`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Api = Literal["chat", "responses", "messages", "count_tokens", "models"]
"""Which endpoint a request came to: ``/v1/chat/completions``, ``/v1/responses``,
``/v1/messages``, ``/v1/messages/count_tokens`` or ``/v1/models``."""


@dataclass(frozen=True)
class ToolCall:
    """A tool call the scripted model makes."""

    name: str
    """The tool's name, as declared in the request."""
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    """Its arguments: an object, or a string (sent verbatim, e.g. malformed JSON or the input
    of a Responses ``custom`` tool)."""
    id: str | None = None
    """The call id; by default one is made in the provider's style (``call_…``, ``toolu_…``)."""
    namespace: str | None = None
    """For OpenAI Responses: the ``namespace`` tool the function belongs to (Codex declares each MCP
    server's tools as one, ``mcp__<server>``)."""

    def arguments_json(self) -> str:
        """The arguments as the JSON text a provider sends."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(dict(self.arguments), separators=(",", ":"))


@dataclass(frozen=True)
class Reply:
    """One scripted model answer. Token counts left unset are estimated (characters / 4)."""

    text: str = ""
    """The answer's text (may be empty, e.g. alongside tool calls)."""
    tool_calls: Sequence[ToolCall] = ()
    """Tool calls, in order."""
    reasoning: str | None = None
    """Reasoning text: an Anthropic ``thinking`` block, a Responses reasoning summary, and the
    ``reasoning_content`` extension of OpenAI-compatible chat servers."""
    input_tokens: int | None = None
    """Prompt tokens billed, cached ones included; default: the request body's size / 4."""
    output_tokens: int | None = None
    """Output tokens; default: the text, reasoning and arguments' size / 4."""
    cached_tokens: int = 0
    """Prompt tokens read from the provider's cache (a part of ``input_tokens``)."""
    cache_write_tokens: int = 0
    """Prompt tokens written to the cache (Anthropic ``cache_creation_input_tokens``)."""
    reasoning_tokens: int | None = None
    """Output tokens spent on reasoning; default: the reasoning text's size / 4."""
    stop: Literal["end", "max_tokens", "tool_calls", "refusal"] | None = None
    """Why the answer ended; by default ``tool_calls`` when there are calls, else ``end``."""
    model: str | None = None
    """The model named in the answer; by default the one the request asked for."""
    chunk_size: int = 7
    """Characters per streamed text or argument delta."""

    def stop_reason(self) -> Literal["end", "max_tokens", "tool_calls", "refusal"]:
        """The stop reason this reply reports."""
        if self.stop is not None:
            return self.stop
        return "tool_calls" if self.tool_calls else "end"


@dataclass(frozen=True)
class RateLimited:
    """Answer 429 with ``retry-after`` (seconds) and ``retry-after-ms`` headers."""

    retry_after: float = 0.01
    message: str = "Rate limit reached for requests (scripted)."


@dataclass(frozen=True)
class ServerError:
    """Answer a 5xx with the provider's error body (Anthropic's overload is 529)."""

    status: int = 500
    message: str = "The server had an error while processing your request (scripted)."


@dataclass(frozen=True)
class HttpError:
    """Answer any status with the provider's error body, e.g. 400 or 401."""

    status: int
    message: str = "scripted error"
    error_type: str | None = None
    """The provider's error type; by default the one it uses for that status."""


@dataclass(frozen=True)
class Hang:
    """Accept the request and answer nothing for ``seconds`` (or until the client goes away or
    the server stops), so the client's timeout fires first."""

    seconds: float = 60.0


@dataclass(frozen=True)
class Drop:
    """Close the connection mid-response: after the status line and headers, and, for a
    streamed answer, after ``after_events`` server-sent events of ``reply``."""

    after_events: int = 0
    reply: Reply = field(default_factory=lambda: Reply(text="this answer is cut off mid-stream"))


@dataclass(frozen=True)
class Held:
    """Answer ``reply`` only once ``release`` is set (the test decides when), so several
    requests can be seen in flight at once; an unreleased hold ends after ``seconds``."""

    reply: Reply
    release: threading.Event
    seconds: float = 60.0


@dataclass(frozen=True)
class Raw:
    """Answer these bytes as they are, whatever was asked (a proxy's HTML page, JSON of another shape)."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"


Fault = RateLimited | ServerError | HttpError | Hang | Drop | Raw
Script = Reply | Held | Fault


@dataclass(frozen=True)
class RecordedRequest:
    """A request the server received."""

    api: Api
    method: str
    path: str
    query: str
    headers: Mapping[str, str]
    """Header names lower-cased."""
    body: Any
    """The decoded JSON body (``None`` when there was none)."""

    @property
    def stream(self) -> bool:
        """Whether the client asked for a streamed answer."""
        return isinstance(self.body, dict) and bool(self.body.get("stream"))

    @property
    def model(self) -> str | None:
        """The model the request names."""
        return self.body.get("model") if isinstance(self.body, dict) else None


Matcher = Callable[[RecordedRequest], Script | None]
"""Chooses the answer to a request; ``None`` falls through to the queue."""


def estimate_tokens(text: str) -> int:
    """The characters / 4 estimate the server uses for unset token counts (at least 1)."""
    return max(1, len(text) // 4)


def input_tokens(reply: Reply, request: RecordedRequest) -> int:
    """The prompt tokens a reply reports for a request."""
    if reply.input_tokens is not None:
        return reply.input_tokens
    return estimate_tokens(json.dumps(request.body)) + reply.cached_tokens + reply.cache_write_tokens


def output_tokens(reply: Reply) -> int:
    """The output tokens a reply reports (reasoning included)."""
    if reply.output_tokens is not None:
        return reply.output_tokens
    arguments = "".join(call.arguments_json() for call in reply.tool_calls)
    return estimate_tokens(reply.text + arguments) + reasoning_tokens(reply)


def reasoning_tokens(reply: Reply) -> int:
    """The reasoning tokens a reply reports."""
    if reply.reasoning_tokens is not None:
        return reply.reasoning_tokens
    return estimate_tokens(reply.reasoning) if reply.reasoning else 0


def chunks(text: str, size: int) -> list[str]:
    """``text`` cut into streamed deltas of ``size`` characters (none for empty text)."""
    size = max(1, size)
    return [text[i:i + size] for i in range(0, len(text), size)]
