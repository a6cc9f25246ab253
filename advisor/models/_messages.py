"""Provider-neutral request and response types: what the advisor sends a model and gets back.

A :class:`ModelRequest` is a system prompt, messages (user, assistant, tool), tool
declarations and the request options; the adapters translate it into one provider's wire
format and the answer back into a :class:`ModelResponse`. Every type is a frozen pydantic
model, so a request can be hashed (as canonical JSON), logged and compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from advisor._values import Frozen

Effort = Literal["minimal", "low", "medium", "high", "xhigh", "max"]
"""How hard a reasoning model should think; passed where the provider supports it."""

FinishReason = Literal["end", "tool_calls", "max_tokens", "refusal", "other"]
"""Why an answer ended, in the providers' common terms."""

EFFORTS: tuple[Effort, ...] = ("minimal", "low", "medium", "high", "xhigh", "max")


class TextPart(Frozen):
    """A piece of text in a message."""

    type: Literal["text"] = "text"
    text: str
    """The text."""


ImageType = Literal["image/png", "image/jpeg", "image/gif", "image/webp"]
"""The image formats every provider the advisor speaks takes."""


class ImagePart(Frozen):
    """An image in a tool's result: a workspace image the advisor read, for a model that sees images."""

    type: Literal["image"] = "image"
    media_type: ImageType
    """Its format."""
    data: str = ""
    """Its bytes, base64 (empty in the consultation log, where ``sha256`` and ``size`` say which it was)."""
    size: int = Field(ge=0)
    """Its size in bytes."""
    sha256: str
    """The SHA-256 of its bytes."""
    path: str = ""
    """The workspace path it was read from."""


def _as_parts(value: Any) -> Any:
    return (TextPart(text=value),) if isinstance(value, str) else value


class ToolCall(Frozen):
    """A tool call the model made."""

    id: str
    """The provider's id for the call, which its result must quote."""
    name: str
    """The tool called."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    """The arguments, a JSON object."""
    invalid_arguments: str | None = None
    """The raw argument text when it was not a JSON object (``arguments`` is then empty)."""


class ChatUser(Frozen):
    """A user turn (the ledger's executor log, the closing instruction)."""

    role: Literal["user"] = "user"
    content: tuple[TextPart, ...]
    """Its text; a plain string is taken as one part."""

    _parts = field_validator("content", mode="before")(_as_parts)

    def __init__(self, content: str | Sequence[TextPart], **data: Any) -> None:
        super().__init__(**{"content": content, **data})

    @property
    def text(self) -> str:
        """All parts' text, joined."""
        return "".join(part.text for part in self.content)


class ChatAssistant(Frozen):
    """A model turn: past advice replayed by the ledger, or the advisor's own tool-calling turn."""

    role: Literal["assistant"] = "assistant"
    content: tuple[TextPart, ...] = ()
    """Its text; a plain string is taken as one part."""
    tool_calls: tuple[ToolCall, ...] = ()
    """The tool calls it made."""
    replay: tuple[dict[str, Any], ...] = ()
    """Provider blocks that must go back verbatim with this turn (Anthropic ``thinking``
    blocks with their signatures, which a tool-use continuation requires)."""

    _parts = field_validator("content", mode="before")(_as_parts)

    def __init__(self, content: str | Sequence[TextPart] = (), *, tool_calls: Sequence[ToolCall] = (),
                 replay: Sequence[dict[str, Any]] = (), **data: Any) -> None:
        super().__init__(**{"content": content, "tool_calls": tool_calls, "replay": replay, **data})

    @property
    def text(self) -> str:
        """All parts' text, joined."""
        return "".join(part.text for part in self.content)


class ChatTool(Frozen):
    """The result of one tool call, sent back to the model."""

    role: Literal["tool"] = "tool"
    tool_call_id: str
    """The id of the call this answers."""
    name: str
    """The tool's name."""
    content: tuple[Annotated[TextPart | ImagePart, Field(discriminator="type")], ...]
    """The result text (a plain string is taken as one part), and the images it holds."""
    is_error: bool = False
    """Whether the call failed (Anthropic's ``is_error``; OpenAI has no flag, the text says it)."""

    _parts = field_validator("content", mode="before")(_as_parts)

    def __init__(self, *, tool_call_id: str, name: str, content: str | Sequence[TextPart | ImagePart],
                 is_error: bool = False, **data: Any) -> None:
        super().__init__(**{"tool_call_id": tool_call_id, "name": name, "content": content, "is_error": is_error,
                            **data})

    @property
    def text(self) -> str:
        """All text parts, joined."""
        return "".join(part.text for part in self.content if isinstance(part, TextPart))

    @property
    def images(self) -> tuple[ImagePart, ...]:
        """The images it holds."""
        return tuple(part for part in self.content if isinstance(part, ImagePart))


ChatMessage = Annotated[ChatUser | ChatAssistant | ChatTool, Field(discriminator="role")]
"""One message of a request, discriminated by ``role``."""


class ToolSpec(Frozen):
    """A tool declared to the model."""

    name: str
    """Its name."""
    description: str
    """What it does, for the model."""
    parameters: dict[str, Any]
    """Its arguments as a JSON schema (an object schema)."""


class ModelRequest(Frozen):
    """One request to a model, provider-neutral."""

    system: str
    """The system prompt."""
    messages: tuple[ChatMessage, ...]
    """The conversation, oldest first."""
    tools: tuple[ToolSpec, ...] = ()
    """The tools the model may call."""
    stable_prefix_messages: int = Field(default=0, ge=0)
    """How many leading messages are the cache-stable prefix: byte-identical in the next
    request, so the adapters mark its end for provider prompt caching."""
    max_output_tokens: int | None = Field(default=None, gt=0)
    """The cap on output tokens (reasoning included); ``None`` leaves it to the client's setting."""
    reasoning_effort: Effort | None = None
    """Reasoning effort, passed where the provider supports it."""
    temperature: float | None = Field(default=None, ge=0)
    """Sampling temperature; ``None`` leaves the provider's default."""
    routing_key: str | None = None
    """A key stable across one session's requests (``prompt_cache_key``,
    ``metadata.user_id``), so the provider routes them to the same prompt cache."""

    @model_validator(mode="after")
    def _prefix_fits(self) -> ModelRequest:
        if self.stable_prefix_messages > len(self.messages):
            raise ValueError(f"stable_prefix_messages ({self.stable_prefix_messages}) exceeds the "
                             f"{len(self.messages)} messages")
        return self


class Usage(Frozen):
    """Tokens one request was billed for."""

    input_tokens: int = Field(default=0, ge=0)
    """Prompt tokens, cache reads and cache writes included."""
    output_tokens: int = Field(default=0, ge=0)
    """Output tokens, reasoning included."""
    cached_input_tokens: int = Field(default=0, ge=0)
    """The part of ``input_tokens`` read from the provider's prompt cache."""
    cache_write_tokens: int = Field(default=0, ge=0)
    """The part of ``input_tokens`` written to the prompt cache (Anthropic bills it higher)."""
    reasoning_tokens: int = Field(default=0, ge=0)
    """The part of ``output_tokens`` spent reasoning."""

    @property
    def total_tokens(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(input_tokens=self.input_tokens + other.input_tokens,
                     output_tokens=self.output_tokens + other.output_tokens,
                     cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
                     cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
                     reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens)


class ModelResponse(Frozen):
    """A model's answer, provider-neutral."""

    text: str
    """The answer's text ("" when it only called tools)."""
    reasoning: str | None = None
    """Reasoning or thinking text the provider returned, if any."""
    tool_calls: tuple[ToolCall, ...] = ()
    """Tool calls, in order."""
    replay: tuple[dict[str, Any], ...] = ()
    """Provider blocks to send back verbatim with this turn (see :attr:`ChatAssistant.replay`)."""
    usage: Usage = Field(default_factory=Usage)
    """What the request was billed for."""
    model: str
    """The model that answered, as the provider names it."""
    stop_reason: FinishReason
    """Why the answer ended."""
    provider_stop_reason: str | None = None
    """The provider's own word for it (``end_turn``, ``length`` …)."""
    request_id: str | None = None
    """The provider's request id, for support requests and the log."""

    def as_message(self) -> ChatAssistant:
        """This answer as the assistant turn of a continued conversation."""
        return ChatAssistant(content=(TextPart(text=self.text),) if self.text else (),
                                tool_calls=self.tool_calls, replay=self.replay)
