"""POST /v1/responses through the official openai SDK, the gateway and the scripted upstream on loopback."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import openai
import pytest
from openai.types.responses import Response, ResponseFunctionToolCall, ResponseReasoningItem

from advisor.gateway import GATEWAY_ADVISOR_PROMPT
from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import advisor
from tests.support.model_server import ModelServer
from tests.support.script import RecordedRequest, Reply, ServerError, ToolCall

USER = "Design a rate limiter for a distributed API gateway."
SHELL: Any = {"type": "function", "name": "exec_command", "description": "Run a shell command.",
              "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]}}
FORCED: Any = "witness:advisor"
ADVICE = "Severity: concern\nUse a sliding window; buckets burst."


def _outputs(request: RecordedRequest) -> dict[str, Any]:
    """The function_call_output items of an upstream Responses request, by call id, decoded from JSON."""
    return {item["call_id"]: json.loads(item["output"]) for item in request.body["input"]
            if item.get("type") == "function_call_output"}


def _advised_script(model_server: ModelServer, *, final: Reply | None = None,
                    function: str = "witness_advisor") -> None:
    model_server.enqueue(Reply(tool_calls=[ToolCall(function, {"prompt": "Bucket or window?"}, id="call_a")],
                               reasoning="I should ask.", input_tokens=100, output_tokens=5),
                         Reply(text=ADVICE, input_tokens=40, output_tokens=8),
                         final or Reply(text="A sliding-window limiter.", input_tokens=150, output_tokens=7))


def test_an_advisor_call_runs_server_side_and_the_executor_answers(client: openai.OpenAI,
                                                                  model_server: ModelServer) -> None:
    """The executor's advisor function_call is answered by the advisor; the client gets only the final answer."""
    _advised_script(model_server)
    response = client.responses.create(model="gpt-test", input=USER, store=False,
                                       tools=[advisor(model="advisor-model")])
    assert isinstance(response, Response)
    assert response.output_text.endswith("A sliding-window limiter.")
    assert not [item for item in response.output if isinstance(item, ResponseFunctionToolCall)]
    first, consultation, follow_up = model_server.requests
    assert (first.api, consultation.api, follow_up.api) == ("responses", "chat", "responses")
    assert first.body["tools"][0]["name"] == "witness_advisor" and first.body["tools"][0]["strict"] is False
    assert first.body["input"] == [{"type": "message", "role": "user", "content": USER}]
    assert consultation.model == "advisor-model"
    assert consultation.body["messages"][0]["content"] == GATEWAY_ADVISOR_PROMPT
    assert _outputs(follow_up)["call_a"] == {"status": "ok", "model": "advisor-model", "advice": ADVICE}
    assert [tool.get("name") for tool in response.model_dump()["tools"]] == []


def test_usage_adds_every_round_and_the_advisor(client: openai.OpenAI, model_server: ModelServer) -> None:
    """usage sums the executor rounds and the consultation; server_tool_use counts it, as in chat completions."""
    _advised_script(model_server, function="witness_advisor_architect")
    response = client.responses.create(model="gpt-test", input=USER,
                                       tools=[advisor(name="architect", model="big")])
    usage = response.usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (290, 20, 310)
    assert (usage.model_extra or {})["server_tool_use"] == {"advisor_requests": 1, "advisors": [
        {"tool": "witness_advisor_architect", "name": "architect", "model": "big", "requests": 1, "errors": 0,
         "prompt_tokens": 40, "completion_tokens": 8, "total_tokens": 48}]}


def test_the_stream_is_the_sdks_event_sequence(client: openai.OpenAI, model_server: ModelServer) -> None:
    """A streamed advised request gets created, in_progress, the items' added/delta/done events and completed,
    numbered in order, and the SDK assembles the same final response."""
    _advised_script(model_server, final=Reply(text="Run it.", tool_calls=[ToolCall("exec_command", {"cmd": "ls"},
                                                                                      id="call_x")]))
    with client.responses.stream(model="gpt-test", input=USER, tools=[SHELL, advisor(model="adv")]) as stream:
        events = list(stream)
        final = stream.get_final_response()
    assert [event.type for event in events] == [
        "response.created", "response.in_progress", "response.output_item.added", "response.output_item.done",
        "response.output_item.added", "response.content_part.added", "response.output_text.delta",
        "response.output_text.done", "response.content_part.done", "response.output_item.done",
        "response.output_item.added", "response.function_call_arguments.delta",
        "response.function_call_arguments.done", "response.output_item.done", "response.completed"]
    assert [event.sequence_number for event in events] == list(range(len(events)))
    assert final.output_text == "Run it."
    assert isinstance(final.output[0], ResponseReasoningItem) and final.output[0].id.startswith("rs_witness_")
    call = final.output[-1]
    assert isinstance(call, ResponseFunctionToolCall) and (call.name, call.arguments) == ("exec_command",
                                                                                           '{"cmd":"ls"}')


def test_without_advisors_the_request_is_forwarded_as_it_is(client: openai.OpenAI,
                                                            model_server: ModelServer) -> None:
    """No advisor entry: the body reaches the upstream's /v1/responses unchanged, hosted tools and
    previous_response_id included, and its answer comes back."""
    model_server.enqueue(Reply(text="plain answer"))
    body: Any = {"input": [{"role": "user", "content": "hi"}], "previous_response_id": "resp_upstream_kept",
                 "tools": [{"type": "web_search"}, SHELL], "include": ["reasoning.encrypted_content"]}
    response = client.responses.create(model="gpt-test", **body)
    assert response.output_text == "plain answer"
    (seen,) = model_server.requests
    assert seen.api == "responses" and seen.body == {"model": "gpt-test", **body}


def test_a_stream_without_advisors_is_relayed(client: openai.OpenAI, model_server: ModelServer) -> None:
    """Without advisors the upstream's own event stream is relayed."""
    model_server.enqueue(Reply(text="relayed text", chunk_size=3))
    with client.responses.stream(model="gpt-test", input="hi") as stream:
        deltas = [event.delta for event in stream if event.type == "response.output_text.delta"]
    assert "".join(deltas) == "relayed text" and len(deltas) == 4
    assert model_server.requests[0].body["stream"] is True


@pytest.mark.parametrize("key", ["previous_response_id", "conversation", "background"])
def test_state_the_gateway_does_not_keep_is_refused_with_advisors(client: openai.OpenAI, key: str) -> None:
    """With advisors, previous_response_id, conversation and background are a 400 saying why."""
    value: Any = {"previous_response_id": "resp_1", "conversation": "conv_1", "background": True}[key]
    with pytest.raises(openai.BadRequestError) as raised:
        client.responses.create(model="gpt-test", input=USER, tools=[advisor()],
                                extra_body={key: value})
    assert raised.value.code == "unsupported_parameter"
    if key != "background":
        assert "keeps no state" in raised.value.message


def test_the_next_request_replays_the_advice_instead_of_asking_again(client: openai.OpenAI,
                                                                     model_server: ModelServer) -> None:
    """Sending the output back as input gives the upstream the advisor call and its result as items, without
    the marker, and no new consultation."""
    _advised_script(model_server)
    tools: Any = [advisor(model="adv")]
    first = client.responses.create(model="gpt-test", input=USER, store=False, tools=tools)
    model_server.reset()
    model_server.enqueue(Reply(text="Here is the code."))
    history: Any = [{"role": "user", "content": USER}, *[item.model_dump(exclude_none=True) for item in first.output],
                    {"role": "user", "content": "Write it."}]
    second = client.responses.create(model="gpt-test", input=history, store=False, tools=tools)
    assert second.output_text == "Here is the code."
    (seen,) = model_server.requests
    kinds = [(item.get("type", "message"), item.get("role")) for item in seen.body["input"]]
    assert kinds == [("message", "user"), ("function_call", None), ("function_call_output", None),
                     ("message", "assistant"), ("message", "user")]
    assert "witness:advisor-trace" not in json.dumps(seen.body)
    assert seen.body["input"][3]["content"][0]["text"] == "A sliding-window limiter."


def test_a_mixed_turn_goes_back_with_the_clients_call_and_replays_well_formed(client: openai.OpenAI,
                                                                              model_server: ModelServer) -> None:
    """A turn calling the client's tool and the advisor returns the client's call only; with its output sent
    back, the upstream sees every call answered (it refuses a request that is not)."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "safe?"}, id="call_a"),
                                           ToolCall("exec_command", {"cmd": "pytest"}, id="call_s")]),
                         Reply(text="Severity: none\nGo."))
    tools: Any = [SHELL, advisor(model="adv")]
    first = client.responses.create(model="gpt-test", input=USER, tools=tools)
    calls = [item for item in first.output if isinstance(item, ResponseFunctionToolCall)]
    assert [call.call_id for call in calls] == ["call_s"]
    assert isinstance(first.output[0], ResponseReasoningItem) and first.output[0].encrypted_content
    model_server.reset()
    model_server.enqueue(Reply(text="Tests pass."))
    history: Any = [{"role": "user", "content": USER}, *[item.model_dump(exclude_none=True) for item in first.output],
                    {"type": "function_call_output", "call_id": "call_s", "output": "Process exited with code 0"}]
    assert client.responses.create(model="gpt-test", input=history, tools=tools).output_text == "Tests pass."
    (seen,) = model_server.requests
    assert [item.get("call_id") for item in seen.body["input"][1:]] == ["call_a", "call_a", "call_s", "call_s"]


def test_a_forced_advisor_is_forced_once(client: openai.OpenAI, model_server: ModelServer) -> None:
    """tool_choice witness:advisor forces the first advisor's function, then the follow-up round is auto."""
    _advised_script(model_server)
    client.responses.create(model="gpt-test", input=USER, tools=[advisor(model="adv")],
                            tool_choice=FORCED)
    first, _, follow_up = model_server.requests
    assert first.body["tool_choice"] == {"type": "function", "name": "witness_advisor"}
    assert follow_up.body["tool_choice"] == "auto"


def test_invalid_advisor_arguments_are_a_tool_error_the_executor_reads(client: openai.OpenAI,
                                                                      model_server: ModelServer) -> None:
    """Arguments that are not the advisor's are answered advisor_invalid_request, and no consultation runs."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"question": "?"}, id="call_a")]),
                         Reply(text="Carrying on."))
    response = client.responses.create(model="gpt-test", input=USER, tools=[advisor()])
    assert response.output_text.endswith("Carrying on.")
    assert [r.api for r in model_server.requests] == ["responses", "responses"]
    assert _outputs(model_server.requests[1])["call_a"]["error"] == "advisor_invalid_request"


def test_a_failure_after_the_stream_started_is_an_error_event_the_sdk_raises(
        client: openai.OpenAI, model_server: ModelServer) -> None:
    """An upstream failure during a streamed loop arrives as an error event; the SDK raises APIError."""
    model_server.enqueue(ServerError(500), ServerError(500))
    with pytest.raises(openai.APIError) as raised, \
            client.responses.stream(model="gpt-test", input=USER, tools=[advisor()]) as stream:
        list(stream)
    assert isinstance(raised.value.body, dict) and raised.value.body["code"] == "upstream_error"


def test_an_advisor_shown_the_conversation_reads_the_responses_items_as_a_ledger(
        client: openai.OpenAI, model_server: ModelServer) -> None:
    """With forward_transcript, the advisor's ledger holds the client's tool catalogue, the user's words, the shell
    round with its check verdict and the open obligation, read from the request's input items."""
    model_server.on(lambda request: Reply(text="Severity: concern\nRe-run it.") if request.model == "adv" else None)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Code or fixture?"}, id="a1")]),
                         Reply(text="Looking at the fixture."))
    history: Any = [{"role": "user", "content": "make the tests pass"},
                    {"type": "function_call", "call_id": "c1", "name": "exec_command",
                     "arguments": '{"cmd":"npm test"}'},
                    {"type": "function_call_output", "call_id": "c1",
                     "output": "Process exited with code 1\nFAIL api.test.js\n  expected 200, got 500"}]
    tools: Any = [SHELL, advisor(model="adv", forward_transcript=True)]
    response = client.responses.create(model="gpt-test", input=history, tools=tools, instructions="Be careful.")
    assert response.output_text.endswith("Looking at the fixture.")
    (consultation,) = [r for r in model_server.requests if r.model == "adv"]
    messages = consultation.body["messages"]
    assert "exec_command — Run a shell command." in messages[1]["content"]
    text = messages[-1]["content"]
    assert "[user] make the tests pass" in text and "expected 200, got 500" in text
    assert "check: npm test (test) · failed" in text
    assert "Executor's question: Code or fixture?" in text


def test_an_executor_that_keeps_calling_the_advisor_is_stopped_with_a_502(model_server: ModelServer) -> None:
    """Past max_rounds follow-up rounds the request fails with 502 server_tool_rounds_exceeded."""
    model_server.default = Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "again?"})])
    with GatewayServer(model_server, max_rounds=2) as server, \
            openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as sdk, \
            pytest.raises(openai.InternalServerError) as raised:
        sdk.responses.create(model="gpt-test", input=USER, tools=[advisor(model="adv", max_uses=10)])
    assert (raised.value.status_code, raised.value.code) == (502, "server_tool_rounds_exceeded")


def test_a_client_that_drops_the_trace_loses_only_the_replay(client: openai.OpenAI,
                                                              model_server: ModelServer) -> None:
    """Replaying the answer without the gateway's reasoning item (or as a plain string message) leaves a
    well-formed history: the upstream gets the text, no advisor items, and nothing fails."""
    _advised_script(model_server)
    first = client.responses.create(model="gpt-test", input=USER, tools=[advisor(model="adv")])
    model_server.reset()
    model_server.enqueue(Reply(text="ok"))
    history: Any = [{"role": "user", "content": USER}, {"role": "assistant", "content": first.output_text}]
    assert client.responses.create(model="gpt-test", input=history, tools=[advisor(model="adv")]).output_text == "ok"
    (seen,) = model_server.requests
    assert seen.body["input"] == history


@pytest.mark.parametrize(("body", "code"), [
    ({"input": "hi"}, "missing_model"),
    ({"model": "gpt-test", "input": 5}, "invalid_input"),
    ({"model": "gpt-test", "input": ["not an item"]}, "invalid_input"),
    ({"model": "gpt-test", "input": "hi", "stream": "yes"}, "invalid_stream"),
    ({"model": "gpt-test", "input": "hi", "tools": {"type": "function"}}, "invalid_tools"),
    ({"model": "gpt-test", "input": "hi", "tools": [{"type": "phaseo:advisor"}]}, "unknown_tool_type"),
    ({"model": "gpt-test", "input": "hi", "tools": [advisor(), {**SHELL, "name": "witness_advisor"}]},
     "invalid_tools"),
    ({"model": "gpt-test", "input": "hi", "tools": [advisor(), advisor()]}, "invalid_advisor_name"),
    ({"model": "gpt-test", "input": "hi", "tools": [advisor(max_uses=0)]}, "invalid_advisor_parameters"),
    ({"model": "gpt-test", "input": "hi", "tool_choice": "witness:advisor"}, "invalid_tool_choice"),
    ({"model": "gpt-test", "tools": [advisor()]}, "invalid_input"),
], ids=["no model", "input a number", "an item not an object", "stream not a boolean", "tools not an array",
        "another gateway's advisor", "a client tool with an advisor's name", "two unnamed advisors",
        "max_uses zero", "witness:advisor chosen without an entry", "no input with advisors"])
def test_bad_requests_are_refused_with_400(client: openai.OpenAI, model_server: ModelServer, body: Any,
                                           code: str) -> None:
    """Each malformed Responses request is a 400 whose error object names the problem; the upstream is never called."""
    with pytest.raises(openai.BadRequestError) as raised:
        client.post("/responses", cast_to=httpx2.Response, body=body)  # create() would refuse some bodies itself
    assert raised.value.code == code and raised.value.message
    assert model_server.requests == []
