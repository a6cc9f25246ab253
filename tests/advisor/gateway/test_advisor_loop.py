"""The server-side loop through the official openai SDK, the gateway and the scripted upstream on loopback."""

from __future__ import annotations

from typing import Any, cast

import openai
import pytest

from advisor.consult import ConsultationLog
from advisor.gateway import GATEWAY_ADVISOR_PROMPT
from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import SHELL, USER, advisor, function_names, tool_results
from tests.support.model_server import ModelServer
from tests.support.script import HttpError, Reply, ServerError, ToolCall

ALIAS: Any = "witness:advisor"


def test_one_advisor_call_runs_server_side_and_the_executor_answers(client: openai.OpenAI,
                                                                   model_server: ModelServer) -> None:
    """The executor's advisor call is answered by the advisor model; the client gets only the final answer."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Token bucket or sliding window?"},
                                                    id="call_a")]),
                         Reply(text="Severity: concern\nUse a sliding window; buckets burst.", input_tokens=50,
                               output_tokens=10),
                         Reply(text="A sliding-window limiter backed by Redis.", input_tokens=200, output_tokens=20))
    response = client.chat.completions.create(model="gpt-test", messages=USER,
                                              tools=[advisor(model="advisor-model")])
    message = response.choices[0].message
    assert message.content is not None and message.content.endswith("A sliding-window limiter backed by Redis.")
    assert not message.tool_calls and response.choices[0].finish_reason == "stop"
    first, consultation, follow_up = model_server.requests
    assert function_names(first) == ["witness_advisor"]
    assert consultation.model == "advisor-model" and "tools" not in consultation.body
    assert consultation.body["messages"][0]["content"] == GATEWAY_ADVISOR_PROMPT
    assert consultation.body["messages"][1] == {"role": "user", "content": "Token bucket or sliding window?"}
    assert tool_results(follow_up)["call_a"] == {"status": "ok", "model": "advisor-model",
                                                 "advice": "Severity: concern\nUse a sliding window; buckets burst."}


def test_usage_adds_the_advisor_tokens_and_counts_its_requests(client: openai.OpenAI,
                                                               model_server: ModelServer) -> None:
    """usage sums every executor round and the advisor; server_tool_use counts requests per advisor."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor_architect", {"prompt": "ok?"})],
                               input_tokens=100, output_tokens=5),
                         Reply(text="Severity: none\nFine.", input_tokens=40, output_tokens=8),
                         Reply(text="Done.", input_tokens=130, output_tokens=3))
    response = client.chat.completions.create(model="gpt-test", messages=USER,
                                              tools=[advisor(name="architect", model="big-model")])
    usage = response.usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (270, 16, 286)
    extra = usage.model_extra or {}
    assert extra["server_tool_use"]["advisor_requests"] == 1
    assert extra["server_tool_use"]["advisors"] == [
        {"tool": "witness_advisor_architect", "name": "architect", "model": "big-model", "requests": 1, "errors": 0,
         "prompt_tokens": 40, "completion_tokens": 8, "total_tokens": 48}]


def test_several_named_advisors_are_separate_tools_with_their_own_models_and_instructions(
        client: openai.OpenAI, model_server: ModelServer) -> None:
    """Each named advisor becomes its own function; a call reaches its own model with its own instructions."""
    tools = [advisor(name="security-reviewer", model="sec-model", instructions="Look for abuse cases."),
             advisor(name="Architect", model="arch-model", instructions="Weigh operational risk.")]
    model_server.enqueue(
        Reply(tool_calls=[ToolCall("witness_advisor_security-reviewer", {"prompt": "Abuse?"}, id="c1"),
                          ToolCall("witness_advisor_architect", {"prompt": "Ops?"}, id="c2")]))
    model_server.on(lambda r: Reply(text=f"Severity: nit\nadvice from {r.model}") if r.model != "gpt-test" else None)
    model_server.enqueue(Reply(text="Both heard."))
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=tools)
    assert (response.choices[0].message.content or "").endswith("Both heard.")
    first = model_server.requests[0]
    assert function_names(first) == ["witness_advisor_security-reviewer", "witness_advisor_architect"]
    consultations = {r.model: r for r in model_server.requests if r.model != "gpt-test"}
    assert set(consultations) == {"sec-model", "arch-model"}
    assert consultations["sec-model"].body["messages"][0]["content"].endswith("Look for abuse cases.\n")
    assert consultations["arch-model"].body["messages"][0]["content"].endswith("Weigh operational risk.\n")
    results = tool_results(model_server.requests[-1])
    assert results["c1"] == {"status": "ok", "name": "security-reviewer", "model": "sec-model",
                             "advice": "Severity: nit\nadvice from sec-model"}
    assert results["c2"]["name"] == "Architect"
    breakdown = (response.usage.model_extra or {})["server_tool_use"] if response.usage else {}
    assert breakdown["advisor_requests"] == 2


def test_tool_choice_alias_forces_the_first_advisor_then_lets_the_executor_answer(
        client: openai.OpenAI, model_server: ModelServer) -> None:
    """tool_choice "witness:advisor" names the first advisor's function; the follow-up call is "auto"."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor_first", {"prompt": "?"})]),
                         Reply(text="Severity: none\nGo."), Reply(text="Answer."))
    client.chat.completions.create(model="gpt-test", messages=USER, tool_choice=ALIAS,
                                   tools=[advisor(name="first", model="m1"), advisor(name="second", model="m2")])
    first, _, follow_up = model_server.requests
    assert first.body["tool_choice"] == {"type": "function", "function": {"name": "witness_advisor_first"}}
    assert follow_up.body["tool_choice"] == "auto"


def test_tool_choice_object_naming_the_alias_is_mapped_too(client: openai.OpenAI, model_server: ModelServer) -> None:
    """An object {"type": "witness:advisor"} maps like the string."""
    model_server.enqueue(Reply(text="No advice needed."))
    client.chat.completions.create(model="gpt-test", messages=USER, tool_choice=cast(Any, {"type": "witness:advisor"}),
                                   tools=[advisor()])
    assert model_server.requests[0].body["tool_choice"] == {"type": "function",
                                                            "function": {"name": "witness_advisor"}}


def test_max_uses_exhaustion_is_an_error_result_the_executor_reads(client: openai.OpenAI,
                                                                   model_server: ModelServer) -> None:
    """A second call of a max_uses=1 advisor gets advisor_max_uses_exceeded, without consulting anyone."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "one"}, id="a"),
                                           ToolCall("witness_advisor", {"prompt": "two"}, id="b")]),
                         Reply(text="Severity: none\nok"), Reply(text="Carried on."))
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    assert response.choices[0].message.content is not None
    results = tool_results(model_server.requests[-1])
    assert results["a"]["status"] == "ok"
    assert results["b"] == {"error": "advisor_max_uses_exceeded", "message": "Advisor max_uses exceeded (1)."}
    assert sum(1 for r in model_server.requests if r.model == "adv") == 1
    use = (response.usage.model_extra or {})["server_tool_use"] if response.usage else {}
    assert use["advisor_requests"] == 1 and use["advisors"][0]["errors"] == 1


def test_max_uses_counts_across_rounds_of_one_request(client: openai.OpenAI, model_server: ModelServer) -> None:
    """max_uses=2 allows two consultations over the loop's rounds, and refuses the third."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "1"}, id="r1")]),
                         Reply(text="Severity: none\n1"),
                         Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "2"}, id="r2")]),
                         Reply(text="Severity: none\n2"),
                         Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "3"}, id="r3")]),
                         Reply(text="Final."))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv", max_uses=2)])
    results = tool_results(model_server.requests[-1])
    assert [results[k].get("status", results[k].get("error")) for k in ("r1", "r2", "r3")] == \
        ["ok", "ok", "advisor_max_uses_exceeded"]


@pytest.mark.parametrize(("arguments", "why"), [
    ("{not json", "Advisor arguments are not valid JSON."),
    ("[1, 2]", "Advisor arguments must be a JSON object."),
    ('{"prompt": "  "}', "Advisor requires a prompt and advisor model."),
    ('{"prompt": "x", "model": "pinned-already"}', "Unknown advisor argument(s): model."),
    ('{"prompt": "x", "extra": 1}', "Unknown advisor argument(s): extra."),
])
def test_invalid_advisor_arguments_are_an_error_result(client: openai.OpenAI, model_server: ModelServer,
                                                       arguments: str, why: str) -> None:
    """Malformed or unknown arguments get advisor_invalid_request as the tool result, and the request succeeds."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", arguments, id="bad")]), Reply(text="Fine."))
    response = client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    assert (response.choices[0].message.content or "").endswith("Fine.")
    assert tool_results(model_server.requests[-1])["bad"] == {"error": "advisor_invalid_request", "message": why}


@pytest.mark.parametrize("fault", [ServerError(500), HttpError(404, "no such model")], ids=["500", "404"])
def test_a_failing_advisor_model_is_an_error_result_never_a_failed_request(
        client: openai.OpenAI, model_server: ModelServer, fault: ServerError | HttpError) -> None:
    """When the advisor model fails, the executor reads advisor_request_failed and still answers."""
    model_server.on(lambda r: fault if r.model == "broken-advisor" else None)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"}, id="x")]),
                         Reply(text="Answered without advice."))
    response = client.chat.completions.create(model="gpt-test", messages=USER,
                                              tools=[advisor(model="broken-advisor")])
    assert (response.choices[0].message.content or "").endswith("Answered without advice.")
    result = tool_results(model_server.requests[-1])["x"]
    assert result["error"] == "advisor_request_failed"
    assert result["message"].startswith("Advisor call failed")


def test_model_precedence_pinned_then_argument_then_outer(client: openai.OpenAI, model_server: ModelServer) -> None:
    """An unpinned advisor takes the call's model argument, else the request's own model."""
    model_server.on(lambda r: Reply(text="Severity: none\nok") if "tools" not in r.body else None)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "a", "model": "from-argument"},
                                                    id="a")]),
                         Reply(text="1"))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(max_uses=2)])
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "b"}, id="b")]), Reply(text="2"))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor()])
    consulted = [r.model for r in model_server.requests if "tools" not in r.body]
    assert consulted == ["from-argument", "gpt-test"]
    schema = model_server.requests[0].body["tools"][0]["function"]["parameters"]
    assert set(schema["properties"]) == {"prompt", "model"} and schema["required"] == ["prompt"]


def test_advisor_call_options_reach_the_advisor_model(client: openai.OpenAI, model_server: ModelServer) -> None:
    """max_completion_tokens (default 1400, at least 1024, max_tokens its alias), reasoning effort and temperature."""
    model_server.on(lambda r: Reply(text="Severity: none\nok") if "tools" not in r.body else None)
    cases = [({}, 1400), ({"max_tokens": 2000}, 2000), ({"max_completion_tokens": 100}, 1024),
             ({"max_completion_tokens": 3000, "max_tokens": 2000}, 3000)]
    for parameters, _ in cases:
        model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]), Reply(text="ok"))
        client.chat.completions.create(model="gpt-test", messages=USER,
                                       tools=[advisor(model="adv", **parameters)])
    consultations = [r for r in model_server.requests if r.model == "adv"]
    assert [r.body["max_completion_tokens"] for r in consultations] == [want for _, want in cases]
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]), Reply(text="ok"))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(
        model="adv", reasoning={"effort": "high"}, temperature=0.2)])
    last = [r for r in model_server.requests if r.model == "adv"][-1].body
    assert (last["reasoning_effort"], last["temperature"]) == ("high", 0.2)


def test_parameters_beside_the_entry_are_read_like_nested_ones(client: openai.OpenAI,
                                                               model_server: ModelServer) -> None:
    """{"type": "witness:advisor", "name": …, "model": …} works as if the keys were in "parameters"."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor_flat", {"prompt": "?"})]),
                         Reply(text="Severity: none\nok"), Reply(text="done"))
    client.chat.completions.create(model="gpt-test", messages=USER,
                                   tools=[cast(Any, {"type": "witness:advisor", "name": "flat", "model": "adv"})])
    assert [r.model for r in model_server.requests] == ["gpt-test", "adv", "gpt-test"]


def test_rounds_are_bounded_with_a_documented_502(model_server: ModelServer) -> None:
    """An executor that calls advisors in every round ends the request with 502 server_tool_rounds_exceeded."""
    model_server.default = Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "again"})])
    with GatewayServer(model_server, max_rounds=2) as server, \
            openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as sdk, \
            pytest.raises(openai.APIStatusError) as raised:
        sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="gpt-test")])
    assert raised.value.status_code == 502
    assert raised.value.code == "server_tool_rounds_exceeded"
    assert len([r for r in model_server.requests if "tools" in r.body]) == 3


def test_advisor_calls_per_request_are_bounded(model_server: ModelServer) -> None:
    """More advisor calls than max_server_tool_calls in one request end it with 502 server_tool_calls_exceeded."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": str(i)}) for i in range(4)]))
    with GatewayServer(model_server, max_server_tool_calls=3) as server, \
            openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0) as sdk, \
            pytest.raises(openai.APIStatusError) as raised:
        sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="a")])
    assert (raised.value.status_code, raised.value.code) == (502, "server_tool_calls_exceeded")


def test_client_tools_reach_the_upstream_beside_the_advisor(client: openai.OpenAI, model_server: ModelServer) -> None:
    """The client's function tools are forwarded unchanged, advisors after them; a plain tool call comes back."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("exec_command", {"cmd": "pytest -q"}, id="run")]))
    response = client.chat.completions.create(model="gpt-test", messages=USER,
                                              tools=[SHELL, advisor(model="adv")])
    assert model_server.requests[0].body["tools"][0] == SHELL
    assert function_names(model_server.requests[0]) == ["exec_command", "witness_advisor"]
    calls = response.choices[0].message.tool_calls or []
    assert [c.function.name for c in calls if c.type == "function"] == ["exec_command"]
    assert response.choices[0].finish_reason == "tool_calls"
    assert response.choices[0].message.content is None


def test_every_consultation_is_in_the_consultation_log(client: openai.OpenAI, model_server: ModelServer) -> None:
    """The gateway's consultations are appended to the log that `witness log` reads."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Logged?"})]),
                         Reply(text="Severity: nit\nYes."), Reply(text="ok"))
    client.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
    (summary,) = list(ConsultationLog().summaries())
    assert (summary.advisor, summary.severity, summary.stop_reason) == ("openai:adv", "nit", "answered")
