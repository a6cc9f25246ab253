"""The OpenAI Agents SDK's default model (the Responses API) through the gateway, with the advisor declared."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import Agent, ModelSettings, OpenAIResponsesModel, RunConfig, Runner, function_tool
from openai import AsyncOpenAI
from pydantic import BaseModel

from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import advisor
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

ADVISED = ModelSettings(extra_body={"tools": [advisor(model="adv")]}, store=False)


class Plan(BaseModel):
    """An agent's typed output."""

    steps: list[str]
    risky: bool


def _agent(client: AsyncOpenAI, output_type: type[Any] | None = None) -> Agent[Any]:
    return Agent(name="executor", instructions="Plan carefully.", model_settings=ADVISED, output_type=output_type,
                 model=OpenAIResponsesModel(model="gpt-test", openai_client=client))


async def _run(agent: Agent[Any], history: Any, *, streamed: bool) -> Any:
    config = RunConfig(tracing_disabled=True)
    if not streamed:
        return await Runner.run(agent, history, run_config=config)
    result = Runner.run_streamed(agent, history, run_config=config)
    async for _ in result.stream_events():
        pass
    return result


def _script(model_server: ModelServer, answer: str) -> None:
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Is this plan safe?"})]),
                         Reply(text="Severity: none\nGo ahead."), Reply(text=answer))


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
def test_an_agent_gets_the_advised_answer(gateway: GatewayServer, model_server: ModelServer, streamed: bool) -> None:
    """Runner.run (and run_streamed) over the gateway: the advisor runs server-side, the agent's final output
    holds the executor's answer, and its next turn replays the advice without consulting again."""
    _script(model_server, "Migrate in two steps.")

    async def run(agent: Agent[Any], history: Any) -> Any:
        return await _run(agent, history, streamed=streamed)

    async def conversation() -> tuple[Any, Any]:
        async with AsyncOpenAI(base_url=gateway.base_url, api_key="client-key", max_retries=0) as client:
            return await turns(_agent(client))

    async def turns(agent: Agent[Any]) -> tuple[Any, Any]:
        first = await run(agent, "Plan the migration of the orders table.")
        assert first.final_output == "Migrate in two steps."
        assert model_server.requests[1].model == "adv"
        model_server.reset()
        model_server.enqueue(Reply(text="Step one is the shadow table."))
        return first, await run(agent, [*first.to_input_list(), {"role": "user", "content": "What is step one?"}])

    _, second = asyncio.run(conversation())
    assert second.final_output == "Step one is the shadow table."
    (seen,) = model_server.requests
    kinds = [item.get("type", "message") for item in seen.body["input"]]
    assert kinds.count("function_call_output") == 1 and seen.body["instructions"] == "Plan carefully."


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
def test_a_typed_output_parses_after_advice_and_the_next_turn_replays_it(gateway: GatewayServer,
                                                                         model_server: ModelServer,
                                                                         streamed: bool) -> None:
    """An agent with a Pydantic output_type gets its object (no ModelBehaviorError: the output text is the model's
    JSON), and its next turn from to_input_list() replays the advice with no new consultation."""
    plan = Plan(steps=["shadow table", "switch"], risky=True)
    _script(model_server, plan.model_dump_json())

    async def conversation() -> tuple[Any, Any]:
        async with AsyncOpenAI(base_url=gateway.base_url, api_key="client-key", max_retries=0) as client:
            agent = _agent(client, Plan)
            first = await _run(agent, "Plan the migration of the orders table.", streamed=streamed)
            model_server.reset()
            model_server.enqueue(Reply(text=plan.model_copy(update={"risky": False}).model_dump_json()))
            history = [*first.to_input_list(), {"role": "user", "content": "And if we pause writes?"}]
            return first, await _run(agent, history, streamed=streamed)

    first, second = asyncio.run(conversation())
    assert first.final_output == plan and second.final_output == Plan(steps=plan.steps, risky=False)
    assert [item["type"] for item in first.to_input_list() if item.get("type") == "reasoning"] == ["reasoning"]
    (seen,) = model_server.requests
    kinds = [item.get("type", "message") for item in seen.body["input"]]
    assert kinds == ["message", "function_call", "function_call_output", "message", "message"]
    assert seen.body["text"]["format"]["type"] == "json_schema"


def test_a_mixed_turn_inside_one_run_replays_the_advice_even_without_item_ids(gateway: GatewayServer,
                                                                              model_server: ModelServer) -> None:
    """A turn calling the agent's own tool and the advisor: the runner runs its tool and sends the gateway's reasoning
    item back (here with item ids omitted), and the upstream gets every call answered, the advisor's first."""
    @function_tool
    def run_tests() -> str:
        """Run the project's tests."""
        return "3 passed"

    declared = {"type": "function", "name": "run_tests", "description": "Run the project's tests.", "strict": True,
                "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False}}
    settings = ModelSettings(extra_body={"tools": [declared, advisor(model="adv")]}, store=False)
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Test first?"}, id="call_a"),
                                           ToolCall("run_tests", {}, id="call_t")]),
                         Reply(text="Severity: none\nYes."), Reply(text="All green."))

    async def run() -> Any:
        async with AsyncOpenAI(base_url=gateway.base_url, api_key="client-key", max_retries=0) as client:
            agent = Agent(name="executor", tools=[run_tests], model_settings=settings,
                          model=OpenAIResponsesModel(model="gpt-test", openai_client=client))
            return await Runner.run(agent, "Fix the bug.", run_config=RunConfig(tracing_disabled=True,
                                                                                reasoning_item_id_policy="omit"))

    result = asyncio.run(run())
    assert result.final_output == "All green."
    last = model_server.requests[-1]
    assert [(item.get("type", "message"), item.get("call_id")) for item in last.body["input"]] == [
        ("message", None), ("function_call", "call_a"), ("function_call_output", "call_a"),
        ("function_call", "call_t"), ("function_call_output", "call_t")]
    assert [r.model for r in model_server.requests].count("adv") == 1
