"""A chat-completions request as the gateway reads it: the body, its tools, ``tool_choice``, streaming."""

from __future__ import annotations

from typing import Any

import orjson

from advisor.errors import BadRequest
from advisor.gateway._bodies import check_depth, load_object
from advisor.gateway._replay import expand_messages, has_trace
from advisor.gateway._seal import TraceSeal
from advisor.gateway._toolset import ToolSet, map_tool_choice, split_tools


class ChatRequest:
    """One ``POST /v1/chat/completions`` request, checked."""

    def __init__(self, body: dict[str, Any], raw: bytes, seal: TraceSeal) -> None:
        self.raw = raw
        """The body as the client sent it."""
        self.model: str = body["model"]
        """The model the client asked for (the executor; the default advisor model)."""
        self.tools: ToolSet = split_tools(body.get("tools"))
        """The client's tools and the advisors."""
        self.stream = body.get("stream") is True
        """Whether the client asked for a stream."""
        options = body.get("stream_options")
        self.include_usage = isinstance(options, dict) and options.get("include_usage") is True
        """Whether a streamed answer ends with a usage chunk."""
        self.traced = has_trace(raw)
        """Whether the history may carry advisor traces to take out."""
        choice, self.forces_advisor = map_tool_choice(body.get("tool_choice"), self.tools)
        if self.tools.advisors and isinstance(body.get("n"), int) and body["n"] > 1:
            raise BadRequest("'n' greater than 1 cannot be combined with advisors", code="unsupported_parameter",
                             param="n")
        self.ledger_cuts: dict[str, int] = {}
        """Per advisor function, the ledger cut its latest consultation in the history kept."""
        self.body = body
        """The body, its history's advisor traces taken out and expanded."""
        if self.traced:
            replayed = expand_messages(body["messages"], seal)
            self.ledger_cuts = replayed.ledger_cuts
            self.body = {**body, "messages": replayed.history}
        if "tool_choice" in body:
            self.body = {**self.body, "tool_choice": choice}

    @property
    def advised(self) -> bool:
        """Whether the request declares advisors (else it is forwarded as it is)."""
        return bool(self.tools.advisors)

    def upstream_body(self) -> dict[str, Any]:
        """The body of the loop's first upstream call: advisors as function tools, never streamed."""
        body = {key: value for key, value in self.body.items() if key not in ("stream", "stream_options")}
        body["tools"] = self.tools.upstream_tools()
        return body

    def forwarded(self) -> bytes:
        """The body forwarded when no advisor runs: the client's bytes unless a trace was expanded."""
        return orjson.dumps(self.body) if self.traced else self.raw


def parse_chat(raw: bytes, seal: TraceSeal) -> ChatRequest:
    """Read a request body, its traces opened with ``seal``. Raises :class:`~advisor.errors.BadRequest`
    for what no upstream would take."""
    body = load_object(raw)
    if not isinstance(body.get("model"), str) or not body["model"].strip():
        raise BadRequest("you must provide a model parameter", code="missing_model", param="model")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("'messages' must be a non-empty array", code="invalid_messages", param="messages")
    if not all(isinstance(message, dict) for message in messages):
        raise BadRequest("every message must be an object", code="invalid_messages", param="messages")
    if "stream" in body and not isinstance(body["stream"], bool):
        raise BadRequest("'stream' must be a boolean", code="invalid_stream", param="stream")
    request = ChatRequest(body, raw, seal)
    if request.advised or request.traced:
        check_depth(body)
    return request
