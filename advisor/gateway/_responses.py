"""A Responses API request (``POST /v1/responses``) as the gateway reads it.

The gateway keeps no state, so the client sends the whole conversation as ``input`` items each
time (what the Codex CLI and the Agents SDK do with ``store: false``). A request with
``witness:advisor`` entries runs the advisor loop; one without is forwarded as it is, so
everything the upstream offers (``previous_response_id`` with a storing upstream, hosted tools,
background responses) works through the gateway. With advisors, what would need state the
gateway does not keep is refused with 400 ``unsupported_parameter``: ``previous_response_id``,
``conversation`` and ``background``.

Tools: ``witness:advisor`` entries become function tools, as in chat completions (same
parameters, names and checks); every other tool — functions, custom tools, hosted tools — goes
to the upstream as the client declared it.
"""

from __future__ import annotations

from typing import Any

import orjson

from advisor.errors import BadRequest
from advisor.gateway._bodies import check_depth, load_object
from advisor.gateway._entries import TOOL_TYPE
from advisor.gateway._replay import expand_items, has_trace
from advisor.gateway._seal import TraceSeal
from advisor.gateway._toolset import ToolSet, _check_names, _entry

_STATEFUL = {"previous_response_id": "the gateway keeps no state between requests: send the whole conversation "
                                     "as 'input' (with 'store': false) instead of 'previous_response_id'",
             "conversation": "the gateway keeps no state between requests: send the whole conversation as "
                             "'input' instead of a 'conversation'",
             "background": "advised responses are answered in the request itself; 'background' is not supported"}


class ResponsesRequest:
    """One ``POST /v1/responses`` request, checked."""

    def __init__(self, body: dict[str, Any], raw: bytes, seal: TraceSeal) -> None:
        self.raw = raw
        """The body as the client sent it."""
        self.model: str = body["model"]
        """The executor model (the default advisor model)."""
        self.tools = split_response_tools(body.get("tools"))
        """The client's tools (as declared) and the advisors."""
        self.stream = body.get("stream") is True
        """Whether the client asked for a stream of events."""
        self.traced = has_trace(raw)
        """Whether the input may carry the gateway's reasoning items to take out."""
        choice, self.forces_advisor = map_response_choice(body.get("tool_choice"), self.tools)
        self.body = body
        """The body, its input's advisor traces taken out and expanded, ``tool_choice`` mapped."""
        self.ledger_cuts: dict[str, int] = {}
        """Per advisor function, the ledger cut its latest consultation in the input kept."""
        items = body.get("input")
        if self.traced and isinstance(items, list):
            replayed = expand_items(items, seal)
            self.ledger_cuts = replayed.ledger_cuts
            self.body = {**body, "input": replayed.history}
        if "tool_choice" in body:
            self.body = {**self.body, "tool_choice": choice}

    @property
    def advised(self) -> bool:
        """Whether the request declares advisors (else it is forwarded as it is)."""
        return bool(self.tools.advisors)

    def upstream_body(self) -> dict[str, Any]:
        """The first upstream call's body: the advisors as function tools, never streamed, the input as items."""
        body = {key: value for key, value in self.body.items() if key not in ("stream", "stream_options")}
        items = body.get("input")
        body["input"] = [{"type": "message", "role": "user", "content": items}] if isinstance(items, str) else items
        body["tools"] = [*self.tools.client_tools, *(response_tool(entry.function_tool())
                                                     for entry in self.tools.advisors)]
        return body

    def forwarded(self) -> bytes:
        """The body forwarded when no advisor runs: the client's bytes unless a trace was expanded."""
        return orjson.dumps(self.body) if self.traced else self.raw


def response_tool(chat_tool: dict[str, Any]) -> dict[str, Any]:
    """A chat-completions function tool in the Responses shape (not strict: the advisor's ``model``
    argument is optional)."""
    return {"type": "function", **chat_tool["function"], "strict": False}


def split_response_tools(tools: Any) -> ToolSet:
    """Validate ``tools`` and split it. Raises :class:`~advisor.errors.BadRequest` (400)."""
    if tools is None:
        return ToolSet(client_tools=(), advisors=())
    if not isinstance(tools, list):
        raise BadRequest("'tools' must be an array", code="invalid_tools", param="tools")
    client: list[dict[str, Any]] = []
    advisors = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise BadRequest(f"tools[{index}] must be an object", code="invalid_tools", param=f"tools[{index}]")
        kind = tool.get("type")
        if kind == TOOL_TYPE:
            advisors.append(_entry(tool, index))
        elif isinstance(kind, str) and kind.endswith(":advisor"):
            raise BadRequest(f"tools[{index}] has an unknown type {kind!r} (this gateway's advisor is "
                             f"{TOOL_TYPE!r})", code="unknown_tool_type", param=f"tools[{index}].type")
        else:
            client.append(tool)
    _check_names(advisors, [])
    taken = {entry.function_name for entry in advisors}
    for tool in client:
        if tool.get("name") in taken:
            raise BadRequest(f"the client tool {tool['name']!r} has the name of an advisor's function",
                             code="invalid_tools", param="tools")
    return ToolSet(client_tools=tuple(client), advisors=tuple(advisors))


def map_response_choice(choice: Any, tools: ToolSet) -> tuple[Any, bool]:
    """The ``tool_choice`` for the upstream, and whether it forces an advisor: ``"witness:advisor"``,
    ``{"type": "witness:advisor"}`` or a function choice naming it become the first advisor's function."""
    named = choice == TOOL_TYPE or (isinstance(choice, dict) and (
        choice.get("type") == TOOL_TYPE or (choice.get("type") == "function" and choice.get("name") == TOOL_TYPE)))
    if named:
        if not tools.advisors:
            raise BadRequest(f"tool_choice names {TOOL_TYPE!r} but no tool entry declares one",
                             code="invalid_tool_choice", param="tool_choice")
        return {"type": "function", "name": tools.advisors[0].function_name}, True
    if isinstance(choice, dict) and choice.get("type") == "function" and isinstance(choice.get("name"), str):
        return choice, tools.advisor(choice["name"]) is not None
    return choice, False


def parse_responses(raw: bytes, seal: TraceSeal) -> ResponsesRequest:
    """Read a request body, its traces opened with ``seal``. Raises :class:`~advisor.errors.BadRequest`
    for what no upstream would take."""
    body = load_object(raw)
    if not isinstance(body.get("model"), str) or not body["model"].strip():
        raise BadRequest("you must provide a model parameter", code="missing_model", param="model")
    if "stream" in body and not isinstance(body["stream"], bool):
        raise BadRequest("'stream' must be a boolean", code="invalid_stream", param="stream")
    items = body.get("input")
    if items is not None and not isinstance(items, str | list):
        raise BadRequest("'input' must be a string or an array of items", code="invalid_input", param="input")
    if isinstance(items, list) and not all(isinstance(item, dict) for item in items):
        raise BadRequest("every input item must be an object", code="invalid_input", param="input")
    request = ResponsesRequest(body, raw, seal)
    if request.advised or request.traced:
        check_depth(body)
    if request.advised:
        if not items:
            raise BadRequest("'input' must hold the conversation when advisors are declared", code="invalid_input",
                             param="input")
        for key, why in _STATEFUL.items():
            if body.get(key) not in (None, False):
                raise BadRequest(why, code="unsupported_parameter", param=key)
    return request
