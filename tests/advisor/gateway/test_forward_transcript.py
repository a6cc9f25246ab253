"""``forward_transcript``: the advisor is shown the conversation's ledger, through the official openai SDK,
the gateway and the scripted upstream on loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai

from advisor.consult import ConsultationLog
from advisor.gateway import GATEWAY_ADVISOR_PROMPT, GATEWAY_TRANSCRIPT_PROMPT, conversation_id
from tests.advisor.gateway.conversation import (
    ADVISOR_MODEL,
    FORWARDING,
    Conversation,
    answer_advisors,
    consultations,
    exited,
    shell,
    wire,
)
from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import SHELL, advisor, tool_results
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall
from tests.support.secrets import TOKENS

SECRET = TOKENS[1][1]


def ask(call_id: str, prompt: str | None = None, text: str = "", name: str = "witness_advisor") -> Reply:
    """The executor's turn that consults the advisor (with ``prompt``, or none)."""
    return Reply(text=text, tool_calls=[ToolCall(name, {} if prompt is None else {"prompt": prompt}, id=call_id)])


def run(call_id: str, command: str) -> Reply:
    """The executor's turn that runs ``command`` in the client's shell tool."""
    return Reply(tool_calls=[ToolCall("exec_command", {"cmd": command}, id=call_id)])


def result(call_id: str, content: str) -> dict[str, Any]:
    """The client's tool message for ``call_id``."""
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def last_user(request: Any) -> str:
    """The text of a consultation's last message (the open segment, the question and the obligations)."""
    content: str = request.body["messages"][-1]["content"]
    return content


def test_the_advisor_is_shown_the_conversation_as_a_ledger(client: openai.OpenAI, model_server: ModelServer) -> None:
    """The consultation carries the client's tool catalogue, the user's words, the shell round with its check
    verdict, the open obligation of the failed check and the question — and points to no tools the advisor lacks."""
    answer_advisors(model_server)
    chat = Conversation(client)
    model_server.enqueue(run("c1", "npm test"))
    chat.send()
    model_server.enqueue(ask("a1", "Is the failure in my code or the fixture?"), Reply(text="Looking at the fixture."))
    reply = chat.send(result("c1", exited(1, "FAIL api.test.js\n  expected 200, got 500")))
    assert reply.content is not None and reply.content.endswith("Looking at the fixture.")
    (consultation,) = consultations(model_server)
    assert "tools" not in consultation.body
    messages = consultation.body["messages"]
    assert messages[0] == {"role": "system", "content": GATEWAY_TRANSCRIPT_PROMPT}
    assert "exec_command — Run a shell command." in messages[1]["content"]
    text = last_user(consultation)
    assert "[user] make the tests pass" in text
    assert '#m3 exec_command({"cmd":"npm test"})' in text and "expected 200, got 500" in text
    assert "check: npm test (test) · failed" in text
    assert "- `npm test` (test): failed, last at #m3" in text
    assert "Executor's question: Is the failure in my code or the fixture?" in text
    everything = json.dumps(consultation.body)
    assert "advisor_expand" not in everything and "read-only tools" not in everything


def test_secrets_in_the_conversation_never_reach_the_advisor(client: openai.OpenAI, model_server: ModelServer) -> None:
    """A key in a tool result, the user's words or the prompt is redacted before the advisor sees it, with or
    without the transcript; the executor still gets it."""
    answer_advisors(model_server)
    tools = [SHELL, advisor(model=ADVISOR_MODEL, forward_transcript=True),
             advisor(name="blind", model=ADVISOR_MODEL)]
    chat = Conversation(client, tools, first=f"deploy with OPENAI_API_KEY={SECRET}")
    model_server.enqueue(run("c1", "cat .env"))
    chat.send()
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": f"is {SECRET} live?"}, id="a1"),
                                           ToolCall("witness_advisor_blind", {"prompt": f"is {SECRET} live?"},
                                                    id="a2")]),
                         Reply(text="Asked."))
    chat.send(result("c1", exited(0, f"OPENAI_API_KEY={SECRET}")))
    shown, blind = sorted(consultations(model_server),
                          key=lambda request: request.body["messages"][0]["content"] == GATEWAY_ADVISOR_PROMPT)
    assert SECRET not in json.dumps(shown.body) and SECRET not in json.dumps(blind.body)
    assert "[REDACTED" in last_user(shown) and "[REDACTED" in last_user(blind)
    assert blind.body["messages"][0]["content"] == GATEWAY_ADVISOR_PROMPT
    assert SECRET in json.dumps(model_server.requests[-1].body)  # the executor's own context is the client's


def test_later_consultations_repeat_the_earlier_prefix_byte_for_byte(client: openai.OpenAI,
                                                                     model_server: ModelServer) -> None:
    """Across the requests of one conversation, each consultation starts with every message but the last of the
    one before; old rounds become cards and earlier advice comes back as the advisor's own turns."""
    answer_advisors(model_server, "Severity: concern\nRe-run npm test unfiltered.")
    chat = Conversation(client)
    model_server.enqueue(run("c1", "npm test"))
    chat.send()
    model_server.enqueue(ask("a1", "Why did it fail?"), run("c2", "npm test | grep -v warn"))
    chat.send(result("c1", exited(1, "FAIL api.test.js")))
    model_server.enqueue(ask("a2", "Fixed now?"), run("c3", "npm test"))
    chat.send(result("c2", exited(0, "all good")))
    model_server.enqueue(ask("a3", "Ready to ship?"), Reply(text="Shipping."))
    chat.send(result("c3", exited(0, "12 passing")))
    first, second, third = (wire(request) for request in consultations(model_server))
    assert second[:len(first) - 1] == first[:-1]
    assert third[:len(second) - 1] == second[:-1]
    assert len(first) < len(second) < len(third)
    later = consultations(model_server)[2].body["messages"]
    assert [m["content"] for m in later if m["role"] == "assistant"] == [
        "Severity: concern\nRe-run npm test unfiltered."] * 2
    assert any("#m3 exec_command · npm test · error (exit 1)" in m["content"] for m in later[:-1])


def test_a_masked_rerun_leaves_the_failure_open_and_a_genuine_one_closes_it(client: openai.OpenAI,
                                                                            model_server: ModelServer) -> None:
    """The obligations the advisor is shown are read from the conversation's own shell calls: `|| true` proves
    nothing, a plain passing re-run does."""
    answer_advisors(model_server)
    chat = Conversation(client)
    model_server.enqueue(run("c1", "pytest -q"))
    chat.send()
    model_server.enqueue(run("c2", "pytest -q || true"))
    chat.send(result("c1", exited(1, "1 failed")))
    model_server.enqueue(ask("a1", "Done?"), run("c3", "pytest -q"))
    chat.send(result("c2", exited(0, "1 failed")))
    model_server.enqueue(ask("a2", "Done now?"), Reply(text="Done."))
    chat.send(result("c3", exited(0, "5 passed")))
    masked, genuine = (last_user(request) for request in consultations(model_server))
    assert "- `pytest -q` (test): failed" in masked and "masked by" in masked
    assert "none open" in genuine


def test_a_call_without_a_prompt_asks_what_the_executor_wrote_beside_it(client: openai.OpenAI,
                                                                        model_server: ModelServer) -> None:
    """With the transcript the prompt may be left out: the question is the executor's text beside the call, or
    a general review when there is none; without it a missing prompt is still refused."""
    answer_advisors(model_server)
    tools = [SHELL, advisor(model=ADVISOR_MODEL, forward_transcript=True, max_uses=2),
             advisor(name="blind", model=ADVISOR_MODEL)]
    model_server.enqueue(ask("a1", text="Should I mock the database here?"),
                         Reply(tool_calls=[ToolCall("witness_advisor", {}, id="a2"),
                                           ToolCall("witness_advisor_blind", {}, id="a3")]),
                         Reply(text="Decided."))
    client.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "add caching"}],
                                   tools=tools)
    beside, general = consultations(model_server)
    assert "Executor's question: Should I mock the database here?" in last_user(beside)
    assert "Executor's question: Review the conversation so far" in last_user(general)
    results = tool_results(model_server.requests[-1])
    assert results["a1"]["status"] == "ok" and results["a2"]["status"] == "ok"
    assert results["a3"]["error"] == "advisor_invalid_request"


def test_one_requests_second_consultation_sees_the_first_advice(client: openai.OpenAI,
                                                                model_server: ModelServer) -> None:
    """Within one request, the loop's own rounds are part of the conversation the next consultation is shown."""
    answer_advisors(model_server, "Severity: nit\nName the cache keys.")
    tools = [SHELL, advisor(model=ADVISOR_MODEL, forward_transcript=True, max_uses=2)]
    model_server.enqueue(ask("a1", "Plan?"), ask("a2", "And now?"), Reply(text="Planned."))
    client.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "add caching"}],
                                   tools=tools)
    first, second = consultations(model_server)
    assert wire(second)[:len(wire(first)) - 1] == wire(first)[:-1]
    assert {"role": "assistant", "content": "Severity: nit\nName the cache keys."} in second.body["messages"]
    assert "Executor's question: And now?" in last_user(second)


def test_a_long_conversation_is_trimmed_to_the_budget_and_stays_trimmed(model_server: ModelServer,
                                                                        tmp_path: Path) -> None:
    """Past ``transcript_token_budget`` the oldest activity is left out (the user's words kept); the cut travels
    in the trace, so the next request leaves out as much and repeats the same prefix."""
    answer_advisors(model_server)
    with GatewayServer(model_server, transcript_token_budget=1500) as gateway, \
            openai.OpenAI(base_url=gateway.base_url, api_key="k", max_retries=0) as client:
        chat = Conversation(client)
        history = []
        for number in range(100):
            history += shell(f"c{number}", f"make step{number}", exited(0, f"step {number} built"))
        chat.history += history
        model_server.enqueue(ask("a1", "Which step is slowest?"), run("c99", "make step99"))
        chat.send()
        trace = gateway.app.state.gateway.seal.open(chat.history[-1]["witness_trace"])
        cut = trace.rounds[0].calls[0].ledger_cut
        model_server.enqueue(ask("a2", "And now?"), Reply(text="Done."))
        chat.send(result("c99", exited(0, "step 99 built")))
    first, second = consultations(model_server)
    assert cut > 0
    for request in (first, second):
        text = json.dumps(request.body)
        assert len(text) < 4 * 1500 + 2000  # the budget, plus JSON escaping
        assert "[user] make the tests pass" in text
        assert "[Earlier executor activity was omitted to fit the cost budget, not because it was empty.]" in text
    assert wire(second)[:len(wire(first)) - 1] == wire(first)[:-1]


def test_a_conversation_that_cannot_fit_fails_the_call_not_the_request(model_server: ModelServer) -> None:
    """When even the trimmed ledger exceeds the budget, the executor reads advisor_request_failed and answers."""
    model_server.enqueue(ask("a1", "ok?"), Reply(text="Went on without advice."))
    tools = [SHELL, advisor(model=ADVISOR_MODEL, forward_transcript=True, instructions="Be thorough. " * 500)]
    with GatewayServer(model_server, transcript_token_budget=1000) as gateway, \
            openai.OpenAI(base_url=gateway.base_url, api_key="k", max_retries=0) as client:
        response = client.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "go"}],
                                                  tools=tools)
    assert (response.choices[0].message.content or "").endswith("Went on without advice.")
    assert consultations(model_server) == []
    failed = tool_results(model_server.requests[-1])["a1"]
    assert failed["error"] == "advisor_request_failed" and "too large to forward" in failed["message"]


def test_the_conversation_names_its_consultations_in_the_log(client: openai.OpenAI, model_server: ModelServer,
                                                             gateway: GatewayServer) -> None:
    """Every consultation of one conversation is logged under the same session, and keys the same prompt cache."""
    answer_advisors(model_server)
    chat = Conversation(client)
    model_server.enqueue(ask("a1", "Plan?"), run("c1", "npm test"))
    chat.send()
    model_server.enqueue(ask("a2", "Now?"), Reply(text="Done."))
    chat.send(result("c1", exited(0, "ok")))
    session = conversation_id(chat.history)
    assert [entry.session_id for entry in ConsultationLog().consultations()] == [session, session]
    assert {request.body.get("prompt_cache_key") for request in consultations(model_server)} == {
        f"advisor:{session}"}


def test_a_streamed_mixed_turn_shows_the_advisor_the_clients_call_running(client: openai.OpenAI,
                                                                          model_server: ModelServer) -> None:
    """In a streamed turn that also calls the client's tool, the advisor sees that call as running; once the
    client sends its result, the next consultation repeats the first one's prefix."""
    answer_advisors(model_server)
    history: list[Any] = [{"role": "user", "content": "make the tests pass"}]
    model_server.enqueue(Reply(tool_calls=[ToolCall("exec_command", {"cmd": "npm test"}, id="c1"),
                                           ToolCall("witness_advisor", {"prompt": "Right check?"}, id="a1")]))
    chunks = list(client.chat.completions.create(model="gpt-test", messages=history, tools=FORWARDING, stream=True))
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    calls = [d for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or ()]
    assert [d.id for d in calls] == ["c1"]
    history += [{"role": "assistant", "content": content, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "exec_command", "arguments": '{"cmd":"npm test"}'}}]},
                result("c1", exited(0, "9 passing"))]
    model_server.enqueue(ask("a2", "Done?"), Reply(text="Done."))
    client.chat.completions.create(model="gpt-test", messages=history, tools=FORWARDING)
    first, second = consultations(model_server)
    assert 'exec_command({"cmd":"npm test"})\n→ running' in last_user(first)
    assert wire(second)[:len(wire(first)) - 1] == wire(first)[:-1]
    assert "check: npm test (test) · witnessed" in json.dumps(second.body, ensure_ascii=False)
