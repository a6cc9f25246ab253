"""The ledger an advisor with ``forward_transcript`` is sent, rebuilt from the messages on every request: stable
prefixes, redaction and obligations hold over many conversations."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.gateway import chat_events, conversation_id, forwarded, open_obligations
from tests.advisor.gateway.conversation import exited, shell
from tests.advisor.gateway.helpers import SHELL
from tests.support.secrets import SEEDED

SECRET = SEEDED
COMMANDS = ["pytest -q", "pytest -q || true", "npm test | grep -v warn", "ls", f"echo {SECRET}", "make build"]

steps = st.one_of(
    st.tuples(st.just("shell"), st.sampled_from(COMMANDS), st.sampled_from([0, 1])),
    st.tuples(st.just("text"), st.sampled_from(["Looking.", f"token {SECRET}", "Next step."]), st.just(0)),
    st.tuples(st.just("advise"), st.sampled_from(["ok?", "", "done?"]), st.just(0)),
)


def conversation(plan: list[tuple[str, str, int]]) -> tuple[list[Any], list[int]]:
    """The messages a client would send, and the index just past each advisor call's turn (where a request
    made then would end)."""
    messages: list[Any] = [{"role": "system", "content": "agent"}, {"role": "user", "content": "fix the build"}]
    asks: list[int] = []
    for number, (kind, value, code) in enumerate(plan):
        if kind == "shell":
            messages += shell(f"c{number}", value, exited(code, "1 failed" if code else f"ok {SECRET}"))
        elif kind == "text":
            messages.append({"role": "assistant", "content": value})
        else:
            arguments = json.dumps({"prompt": value} if value else {})
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": f"a{number}", "type": "function", "function": {"name": "witness_advisor",
                                                                       "arguments": arguments}}]})
            asks.append(len(messages))
            messages.append({"role": "tool", "tool_call_id": f"a{number}",
                             "content": json.dumps({"status": "ok", "model": "adv", "advice": f"advice {number}"})})
    return messages, asks


def wire(messages: list[Any]) -> list[str]:
    return [message.model_dump_json() for message in messages]


@settings(max_examples=60, deadline=None)
@given(st.lists(steps, max_size=14))
def test_each_request_repeats_the_stable_prefix_of_the_one_before(plan: list[tuple[str, str, int]]) -> None:
    """Every consultation's messages start with the stable prefix of the previous one, byte for byte; no secret
    reaches the advisor; the open obligations shown are the conversation's own."""
    messages, asks = conversation(plan)
    before: Any = None
    for end in asks:
        made = forwarded(messages[:end], client_tools=[SHELL], question="q", instructions=None, token_budget=100_000)
        prompt = made.prompt
        assert made.cut == 0 and not prompt.trimmed
        if before is not None:
            stable = before.stable_prefix_messages
            assert wire(list(prompt.messages))[:stable] == wire(list(before.messages))[:stable]
        assert SECRET not in prompt.system + "".join(message.text for message in prompt.messages)
        for item in open_obligations(chat_events(messages[:end])):
            assert f"`{item.check}`" in prompt.messages[-1].text
        before = prompt


def test_a_conversation_is_known_by_its_first_user_message() -> None:
    """The id is the same in every request of a conversation and differs for another first request."""
    start = [{"role": "system", "content": "agent"}, {"role": "user", "content": "fix the build"}]
    longer = [*start, *shell("c1", "make", exited(0, "ok")), {"role": "user", "content": "thanks"}]
    other = [{"role": "system", "content": "agent"}, {"role": "user", "content": "write the docs"}]
    assert conversation_id(start) == conversation_id(longer) != conversation_id(other)
    assert conversation_id(start).startswith("chat-") and len(conversation_id(start)) == len("chat-") + 16


def test_a_client_tools_description_is_redacted() -> None:
    """A key written into a client tool's description (an MCP server's instructions, say) is redacted in the
    catalogue the advisor reads, as everything else it is sent is."""
    tools = [{"type": "function", "function": {"name": "deploy", "description": f"Deploy with token {SECRET}."}}]
    messages = [{"role": "user", "content": "ship it"}, *shell("c1", "make", exited(0, "ok"))]
    made = forwarded(messages, client_tools=tools, question="ok?", instructions=None, token_budget=100_000)
    catalogue = made.prompt.messages[0].text
    assert "- deploy — Deploy with token" in catalogue and SECRET not in catalogue
