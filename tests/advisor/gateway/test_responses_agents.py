"""The OpenAI Agents SDK's default model (the Responses API) through the gateway, with the advisor declared."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from agents import Agent, ModelSettings, OpenAIResponsesModel, RunConfig, Runner
from openai import AsyncOpenAI

from tests.advisor.gateway.harness import GatewayServer
from tests.advisor.gateway.helpers import advisor
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

ADVISED = ModelSettings(extra_body={"tools": [advisor(model="adv")]}, store=False)


def _agent(client: AsyncOpenAI) -> Agent[Any]:
    return Agent(name="executor", instructions="Plan carefully.", model_settings=ADVISED,
                 model=OpenAIResponsesModel(model="gpt-test", openai_client=client))


def _script(model_server: ModelServer, answer: str) -> None:
    model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Is this plan safe?"})]),
                         Reply(text="Severity: none\nGo ahead."), Reply(text=answer))


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
def test_an_agent_gets_the_advised_answer(gateway: GatewayServer, model_server: ModelServer, streamed: bool) -> None:
    """Runner.run (and run_streamed) over the gateway: the advisor runs server-side, the agent's final output
    holds the executor's answer, and its next turn replays the advice without consulting again."""
    _script(model_server, "Migrate in two steps.")
    config = RunConfig(tracing_disabled=True)

    async def run(agent: Agent[Any], history: Any) -> Any:
        if not streamed:
            return await Runner.run(agent, history, run_config=config)
        result = Runner.run_streamed(agent, history, run_config=config)
        async for _ in result.stream_events():
            pass
        return result

    async def conversation() -> tuple[Any, Any]:
        async with AsyncOpenAI(base_url=gateway.base_url, api_key="client-key", max_retries=0) as client:
            return await turns(_agent(client))

    async def turns(agent: Agent[Any]) -> tuple[Any, Any]:
        first = await run(agent, "Plan the migration of the orders table.")
        assert str(first.final_output).endswith("Migrate in two steps.")
        assert model_server.requests[1].model == "adv"
        model_server.reset()
        model_server.enqueue(Reply(text="Step one is the shadow table."))
        return first, await run(agent, [*first.to_input_list(), {"role": "user", "content": "What is step one?"}])

    _, second = asyncio.run(conversation())
    assert second.final_output == "Step one is the shadow table."
    (seen,) = model_server.requests
    kinds = [item.get("type", "message") for item in seen.body["input"]]
    assert kinds.count("function_call_output") == 1 and seen.body["instructions"] == "Plan carefully."
