"""Turns that call the client's tools and advisors together, and the trace that carries advice to the next request."""

from __future__ import annotations

from typing import Any

import openai

from advisor.gateway import FIELD, expand_messages
from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import SHELL, USER, advisor, tool_results
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

TOOLS: list[Any] = [SHELL, advisor(model="adv")]


def _mixed_turn(client: openai.OpenAI, model_server: ModelServer) -> tuple[Any, list[Any]]:
    model_server.enqueue(Reply(text="Checking first.",
                               tool_calls=[ToolCall("witness_advisor", {"prompt": "Run the tests first?"}, id="adv_1"),
                                           ToolCall("exec_command", {"cmd": "pytest -q"}, id="run_1")]),
                         Reply(text="Severity: nit\nYes, run them."))
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=TOOLS)
    return response, list(model_server.requests)


def test_a_mixed_turn_runs_the_advisor_and_returns_only_the_clients_calls(client: openai.OpenAI,
                                                                          model_server: ModelServer) -> None:
    """The advisor runs at once; the client receives its own call, the turn's text, and no advisor call."""
    response, requests = _mixed_turn(client, model_server)
    choice = response.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert [(c.id, c.function.name) for c in choice.message.tool_calls or []] == [("run_1", "exec_command")]
    assert choice.message.content == "Checking first."
    assert (choice.message.model_extra or {})[FIELD].startswith("witness-trace.1.")
    assert [r.model for r in requests] == ["gpt-test", "adv"]
    usage = (response.usage.model_extra or {})["server_tool_use"]
    assert usage["advisor_requests"] == 1


def test_the_next_request_replays_the_advice_instead_of_repeating_it(client: openai.OpenAI,
                                                                     model_server: ModelServer) -> None:
    """Sent back as the client received it, the turn reaches the upstream with the advisor call and its result
    in place, paired as the provider requires, and nothing is consulted again."""
    response, _ = _mixed_turn(client, model_server)
    model_server.reset()
    model_server.enqueue(Reply(text="Tests pass; done."))
    history = [*USER, response.choices[0].message.model_dump(exclude_none=True),
               {"role": "tool", "tool_call_id": "run_1", "content": "Process exited with code 0\nOutput:\n3 passed"}]
    final = client.chat.completions.create(model="gpt-test", messages=history, tools=TOOLS)
    assert final.choices[0].message.content == "Tests pass; done."
    (upstream,) = model_server.requests
    assistant = upstream.body["messages"][1]
    assert assistant["content"] == "Checking first."
    assert [c["id"] for c in assistant["tool_calls"]] == ["adv_1", "run_1"]
    results = tool_results(upstream)
    assert results["adv_1"] == {"status": "ok", "model": "adv", "advice": "Severity: nit\nYes, run them."}
    assert [m.get("tool_call_id") for m in upstream.body["messages"][2:]] == ["adv_1", "run_1"]
    assert final.usage is not None and (final.usage.model_extra or {})["server_tool_use"]["advisor_requests"] == 0


def test_a_finished_loop_carries_its_rounds_so_later_turns_see_the_advice(client: openai.OpenAI,
                                                                          model_server: ModelServer) -> None:
    """After a loop, the next user turn's request gives the upstream the same prefix the loop's last call had."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "plan?"}, id="p1")]),
                         Reply(text="Severity: none\nGood plan."), Reply(text="Here is the design."))
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=TOOLS)
    loop_last = model_server.requests[-1].body["messages"]
    model_server.reset()
    model_server.enqueue(Reply(text="Sure."))
    history = [*USER, response.choices[0].message.model_dump(exclude_none=True),
               {"role": "user", "content": "Thanks. Now the tests?"}]
    client.chat.completions.create(model="gpt-test", messages=history, tools=TOOLS)
    replayed = model_server.requests[0].body["messages"]
    assert replayed[:len(loop_last)] == loop_last
    following = replayed[len(loop_last)]
    assert (following["role"], following["content"]) == ("assistant", "Here is the design.")


def test_a_streamed_mixed_turn_carries_the_same_trace(client: openai.OpenAI, model_server: ModelServer,
                                                      gateway: GatewayServer) -> None:
    """Streamed, the first delta carries the trace in its witness_trace field, and the client's call arrives as a
    tool-call delta."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="a"),
                                           ToolCall("exec_command", {"cmd": "ls"}, id="b")]),
                         Reply(text="Severity: none\nok"))
    content, calls, token = "", {}, ""
    for chunk in client.chat.completions.create(model="gpt-test", messages=USER, tools=TOOLS, stream=True):
        for choice in chunk.choices:
            content += choice.delta.content or ""
            token += (choice.delta.model_extra or {}).get(FIELD, "")
            for call in choice.delta.tool_calls or ():
                calls[call.index] = (call.id, call.function.name if call.function else None)
    assert calls == {0: ("b", "exec_command")}
    assert content == ""
    message = {"role": "assistant", "content": None, FIELD: token, "tool_calls": [
        {"id": "b", "type": "function", "function": {"name": "exec_command", "arguments": '{"cmd":"ls"}'}}]}
    expanded = expand_messages([message], gateway.app.state.gateway.seal).history
    assert [c["id"] for c in expanded[0]["tool_calls"]] == ["a", "b"]
    assert expanded[1]["tool_call_id"] == "a"


def test_a_marker_holding_no_trace_stays_text(client: openai.OpenAI, model_server: ModelServer) -> None:
    """A marker that holds no sealed trace is forwarded as the text it is; nothing is dropped."""
    model_server.enqueue(Reply(text="ok"))
    broken = "<witness:advisor-trace>{not json</witness:advisor-trace>\nhello"
    history = [*USER, {"role": "assistant", "content": broken}, {"role": "user", "content": "again"}]
    client.chat.completions.create(model="gpt-test", messages=history, tools=TOOLS)
    assert model_server.requests[0].body["messages"][1] == {"role": "assistant", "content": broken}


def test_a_request_without_advisors_still_expands_a_carried_trace(client: openai.OpenAI,
                                                                  model_server: ModelServer) -> None:
    """Dropping the advisor entry later keeps the conversation well-formed: the trace is expanded, not sent as text."""
    response, _ = _mixed_turn(client, model_server)
    model_server.reset()
    model_server.enqueue(Reply(text="fine"))
    history = [*USER, response.choices[0].message.model_dump(exclude_none=True),
               {"role": "tool", "tool_call_id": "run_1", "content": "ok"}]
    client.chat.completions.create(model="gpt-test", messages=history, tools=[SHELL])
    sent = model_server.requests[0].body["messages"]
    assert FIELD not in str(sent)
    assert [m["role"] for m in sent] == ["user", "assistant", "tool", "tool"]
