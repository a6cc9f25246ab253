"""A client's conversation through the gateway, as an agent keeps and replays it, for the
``forward_transcript`` tests."""

from __future__ import annotations

import json
from typing import Any

import openai

from tests.advisor.gateway.helpers import SHELL, advisor
from tests.support.model_server import ModelServer
from tests.support.script import RecordedRequest, Reply

EXECUTOR = "gpt-test"
ADVISOR_MODEL = "adv"
FORWARDING: list[Any] = [SHELL, advisor(model=ADVISOR_MODEL, forward_transcript=True)]
"""The client's shell tool and an advisor shown the conversation."""


def shell(call_id: str, command: str, result: str, text: str | None = None) -> list[dict[str, Any]]:
    """An ``exec_command`` call and its result, as a client replays them."""
    return [{"role": "assistant", "content": text, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "exec_command",
                                                         "arguments": json.dumps({"cmd": command})}}]},
            {"role": "tool", "tool_call_id": call_id, "content": result}]


def exited(code: int, output: str) -> str:
    """A tool result the way Codex-style hosts write a command's exit status."""
    return f"Process exited with code {code}\nOutput:\n{output}"


def answer_advisors(server: ModelServer, advice: str = "Severity: concern\nRe-run npm test unfiltered.") -> None:
    """Every consultation (a request naming the advisor model) is answered with ``advice``."""
    server.on(lambda request: Reply(text=advice) if request.model == ADVISOR_MODEL else None)


def consultations(server: ModelServer) -> list[RecordedRequest]:
    """The requests the advisor model received, in order."""
    return [request for request in server.requests if request.model == ADVISOR_MODEL]


def wire(request: RecordedRequest) -> list[str]:
    """A consultation's messages as the bytes of each (the system prompt first)."""
    return [json.dumps(message, ensure_ascii=False, sort_keys=True) for message in request.body["messages"]]


class Conversation:
    """The history a client keeps: every request sends all of it, every answer is appended as it came."""

    def __init__(self, client: openai.OpenAI, tools: list[Any] | None = None, first: str = "make the tests pass"):
        self.client = client
        self.tools = FORWARDING if tools is None else tools
        self.history: list[Any] = [{"role": "system", "content": "You are a coding agent."},
                                   {"role": "user", "content": first}]

    def send(self, *messages: Any) -> Any:
        """Append ``messages``, send the history, append the answer; returns the answer's message."""
        self.history.extend(messages)
        response = self.client.chat.completions.create(model=EXECUTOR, messages=self.history, tools=self.tools)
        message = response.choices[0].message
        self.history.append(message.model_dump(exclude_none=True))
        return message
