"""The size of a request in tokens, estimated as characters / 4 (the budgets' unit before billing)."""

from __future__ import annotations

import json

from advisor.models._messages import ChatAssistant, ChatTool, ChatUser, ModelRequest

CHARS_PER_TOKEN = 4
IMAGE_TOKENS = 1_600
"""What an image is counted as: about what a provider bills for one at the largest size it keeps
(Anthropic: width × height / 750, scaled to at most 1.15 megapixels)."""


def estimate_tokens(request: ModelRequest) -> int:
    """Estimated prompt tokens of ``request``: its text and tool schemas, characters / 4, rounded up."""
    chars = len(request.system)
    for message in request.messages:
        chars += _message_chars(message)
    for tool in request.tools:
        chars += len(tool.name) + len(tool.description) + len(json.dumps(tool.parameters, separators=(",", ":")))
    return -(-chars // CHARS_PER_TOKEN)


def _message_chars(message: ChatUser | ChatAssistant | ChatTool) -> int:
    chars = len(message.text)
    if isinstance(message, ChatTool):
        chars += len(message.images) * IMAGE_TOKENS * CHARS_PER_TOKEN
    if isinstance(message, ChatAssistant):
        for call in message.tool_calls:
            chars += len(call.name) + len(json.dumps(call.arguments, separators=(",", ":")))
    return chars
