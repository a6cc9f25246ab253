"""The scripted model behind a real host: which scripted answer each request gets.

Hosts resend the whole conversation with every request, so the answer is chosen from the
request alone, never from the order requests arrive in: the *conversation* is the one whose
prompt appears in the first user message (a sub-agent's conversation starts with the prompt it
was delegated), and the *turn* is the number of answers the model has already given in it
(assistant messages for Anthropic Messages and chat completions; runs of assistant items —
messages, reasoning, function calls — for OpenAI Responses). Retries, parallel sub-agents and
hook-driven continuations therefore get the right answer. A request past the end of its script
gets a closing text (recorded in :attr:`ScriptedAgent.overruns`), so a host that keeps asking
ends its turn; a request that belongs to no conversation (a title or summary request without
tools) gets a short text.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tests.support.script import RecordedRequest, Reply, Script

END_OF_SCRIPT = "(The scripted model has nothing more to say.)"
"""The answer to a request past the end of its conversation's script."""
SIDE_ANSWER = "Scripted session"
"""The answer to a request that belongs to no scripted conversation (titles, summaries)."""


@dataclass(frozen=True)
class CompiledConversation:
    """A conversation as one host will see it: its prompt and one reply per model turn."""

    name: str
    prompt: str
    replies: tuple[Reply, ...]


class ScriptedAgent:
    """A model-server matcher that answers each host request from the compiled conversations."""

    def __init__(self, conversations: Sequence[CompiledConversation]) -> None:
        # Longest prompt first, so a prompt that contains another still finds its own script.
        self.conversations = sorted(conversations, key=lambda c: len(c.prompt), reverse=True)
        self.served: dict[str, list[int]] = {c.name: [] for c in conversations}
        """The turn indices answered, per conversation, in the order they were asked for."""
        self.overruns: dict[str, int] = {}
        """Requests past the end of a script, per conversation."""
        self._lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> Script | None:
        """The scripted answer to one request (``None`` for endpoints that carry no conversation)."""
        if request.api not in ("messages", "responses", "chat") or not isinstance(request.body, dict):
            return None
        history = _history(request.api, request.body)
        conversation = self._conversation(history)
        if conversation is None:
            return Reply(text=SIDE_ANSWER)
        turn = _answers_given(request.api, history)
        with self._lock:
            self.served[conversation.name].append(turn)
            if turn >= len(conversation.replies):
                self.overruns[conversation.name] = self.overruns.get(conversation.name, 0) + 1
                return Reply(text=END_OF_SCRIPT)
        return conversation.replies[turn]

    def played_through(self, name: str) -> bool:
        """Whether conversation ``name`` got each scripted answer exactly once, in order, and no more:
        its agent ended every turn where the script did (no Stop hook held it further)."""
        (conversation,) = [c for c in self.conversations if c.name == name]
        return self.served[name] == list(range(len(conversation.replies)))

    def _conversation(self, history: list[Any]) -> CompiledConversation | None:
        first = next((item for item in history if _role(item) == "user" and not _is_host_context(item)), None)
        text = _text(first) if first is not None else ""
        return next((c for c in self.conversations if c.prompt in text), None)


def _history(api: str, body: Mapping[str, Any]) -> list[Any]:
    items = body.get("input") if api == "responses" else body.get("messages")
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    return [item for item in items or () if isinstance(item, dict)]


def _role(item: Mapping[str, Any]) -> str | None:
    if item.get("type") in ("function_call", "reasoning", "custom_tool_call", "local_shell_call"):
        return "assistant"
    if item.get("type") in ("function_call_output", "custom_tool_call_output"):
        return "tool"
    role = item.get("role")
    return role if isinstance(role, str) else None


def _is_host_context(item: Mapping[str, Any]) -> bool:
    """Codex sends its environment description as a user message before the user's own."""
    return "<environment_context>" in _text(item)


def _text(item: Any) -> str:
    content = item.get("content") if isinstance(item, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict)
                         and isinstance(part.get("text"), str))
    return ""


def _answers_given(api: str, history: list[Any]) -> int:
    if api != "responses":
        return sum(1 for item in history if item.get("role") == "assistant")
    answers, previous = 0, False
    for item in history:
        assistant = _role(item) == "assistant"
        answers += assistant and not previous
        previous = assistant
    return answers


def describe(agent: ScriptedAgent) -> str:
    """What the scripted model answered, for failure messages."""
    return json.dumps({"served": agent.served, "overruns": agent.overruns})
