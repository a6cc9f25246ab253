"""What a consultation starts from: the request prefix the ledger compiles from a session."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated

from pydantic import Field, model_validator

from advisor._values import Frozen
from advisor.models import ChatAssistant, ChatUser, ModelRequest, TextPart, ToolSpec, estimate_tokens
from obligations import redact

PromptMessage = Annotated[ChatUser | ChatAssistant, Field(discriminator="role")]
"""A ledger message: executor activity as user turns, the advisor's own past advice as assistant turns."""


class AdvisorPrompt(Frozen):
    """The request a consultation starts from — what the ledger produces.

    ``messages`` are the ledger's: the tool catalogue, the executor log (always data inside
    user turns), past consultations (the question in a user turn, the advice as the only
    assistant turns), and last a user turn ending on the instruction to advise. Rendering a
    longer part of the same session keeps the first ``stable_prefix_messages`` byte-identical,
    so the adapters mark their end for the provider's prompt cache. ``tools`` are the
    investigation declarations (:func:`~advisor.consult.investigation_tools`), sent unchanged
    on every request of the consultation. The loop appends its own investigation rounds after
    these messages; they never come back into a later prompt.
    """

    system: str
    """The advisor's system prompt (:data:`~advisor.consult.ADVISOR_SYSTEM_PROMPT` unless the host has its own)."""
    messages: tuple[PromptMessage, ...] = Field(min_length=1)
    """The ledger's messages, ending on a user turn."""
    stable_prefix_messages: int = Field(default=0, ge=0)
    """How many leading messages the next consultation of this session will repeat byte for byte."""
    tools: tuple[ToolSpec, ...] = ()
    """The investigation tools declared to the advisor."""
    session_id: str | None = None
    """The executor's session; it keys the provider's prompt cache (``advisor:<session_id>``) and the
    session budget."""
    trimmed: bool = False
    """Whether the ledger dropped early blocks to fit a token budget."""

    @model_validator(mode="after")
    def _well_formed(self) -> AdvisorPrompt:
        if not isinstance(self.messages[-1], ChatUser):
            raise ValueError("an advisor prompt must end on a user message (the instruction)")
        if self.stable_prefix_messages >= len(self.messages):
            raise ValueError("the stable prefix must leave the last message (it changes every consultation)")
        return self

    def redacted(self) -> AdvisorPrompt:
        """This prompt with every message's text redacted (itself when none held a secret): what a
        consultation sends, whoever compiled it. A ledger's prompt is redacted already (its events
        were, as it took them), so this changes nothing of it and its prefix stays stable."""
        messages = tuple(_redacted(message) for message in self.messages)
        if all(new is old for new, old in zip(messages, self.messages, strict=True)):
            return self
        return self.model_copy(update={"messages": messages})

    @property
    def routing_key(self) -> str | None:
        """``advisor:<session id>``, the same on every request and retry of the session."""
        return f"advisor:{self.session_id}" if self.session_id else None

    def request(self) -> ModelRequest:
        """The first request of the consultation."""
        return ModelRequest(system=self.system, messages=self.messages, tools=self.tools,
                            stable_prefix_messages=self.stable_prefix_messages, routing_key=self.routing_key)

    @property
    def estimated_tokens(self) -> int:
        """The first request's size in tokens (characters / 4)."""
        return estimate_tokens(self.request())


def _redacted(message: ChatUser | ChatAssistant) -> ChatUser | ChatAssistant:
    parts = tuple(TextPart(text=redact(part.text)) for part in message.content)
    if all(new.text == old.text for new, old in zip(parts, message.content, strict=True)):
        return message
    return message.model_copy(update={"content": parts})


def request_hash(request: ModelRequest, messages: int | None = None) -> str:
    """SHA-256 over the canonical JSON of the system prompt, the tools and the first ``messages``
    messages (all of them by default): equal hashes mean byte-identical prompts."""
    shown = request.messages if messages is None else request.messages[:messages]
    payload = {"system": request.system, "tools": [t.model_dump(mode="json") for t in request.tools],
               "messages": [m.model_dump(mode="json") for m in shown]}
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
