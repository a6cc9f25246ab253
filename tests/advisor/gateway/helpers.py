"""Request pieces the gateway tests share."""

from __future__ import annotations

import json
from typing import Any

from tests.support.script import RecordedRequest

USER: list[Any] = [{"role": "user", "content": "Design a rate limiter for a distributed API gateway."}]
SHELL: Any = {"type": "function", "function": {"name": "exec_command", "description": "Run a shell command.",
                                          "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}},
                                                         "required": ["cmd"]}}}


def advisor(**parameters: Any) -> Any:
    """A ``witness:advisor`` tool entry."""
    return {"type": "witness:advisor", "parameters": parameters}


def tool_results(request: RecordedRequest) -> dict[str, Any]:
    """The ``tool`` messages of an upstream request, by call id, decoded from JSON where they are JSON."""
    found: dict[str, Any] = {}
    for message in request.body["messages"]:
        if message.get("role") == "tool":
            try:
                found[message["tool_call_id"]] = json.loads(message["content"])
            except ValueError:
                found[message["tool_call_id"]] = message["content"]
    return found


def function_names(request: RecordedRequest) -> list[str]:
    """The function tools an upstream request declares."""
    return [tool["function"]["name"] for tool in request.body.get("tools") or () if tool.get("type") == "function"]


def advisor_requests(requests: list[RecordedRequest], executor: str = "gpt-test") -> list[RecordedRequest]:
    """The upstream requests that were consultations (they name another model and declare no tools)."""
    return [r for r in requests if r.api == "chat" and "tools" not in r.body and r.model != executor]
