"""A bounded load test: 200 concurrent requests, each with one advisor call, through real sockets on loopback."""

from __future__ import annotations

import asyncio

import openai
import pytest

from tests.advisor.gateway.harness import GatewayServer, gateway_tasks, pool_in_use, wait_until
from tests.advisor.gateway.helpers import USER, advisor
from tests.support.model_server import ModelServer
from tests.support.script import RecordedRequest, Reply, ToolCall

CONCURRENT = 200


def _upstream(request: RecordedRequest) -> Reply:
    """Executor: call the advisor first, answer once its result is in. Advisor: advise."""
    if request.model == "adv":
        return Reply(text="Severity: none\nProceed.", input_tokens=20, output_tokens=5)
    if request.body["messages"][-1]["role"] == "tool":
        return Reply(text="final", input_tokens=60, output_tokens=2)
    return Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "check"})], input_tokens=50, output_tokens=4)


@pytest.mark.slow
def test_two_hundred_concurrent_advised_requests_succeed_and_leave_nothing_behind(model_server: ModelServer) -> None:
    """Every request succeeds with exactly one consultation; afterwards no upstream connection is in use and
    no task is left on the gateway's loop."""
    model_server.on(_upstream)
    with GatewayServer(model_server) as server:
        baseline = None

        async def load() -> list[object]:
            nonlocal baseline
            async with openai.AsyncOpenAI(base_url=server.base_url, api_key="k", max_retries=0,
                                          timeout=120) as sdk:
                await sdk.models.list()
                baseline = gateway_tasks(server)

                async def one(number: int) -> object:
                    return await sdk.chat.completions.create(
                        model="gpt-test", messages=[*USER, {"role": "user", "content": f"request {number}"}],
                        tools=[advisor(model="adv")])

                return await asyncio.gather(*(one(n) for n in range(CONCURRENT)), return_exceptions=True)

        results = asyncio.run(load())
        errors = [r for r in results if isinstance(r, BaseException)]
        assert errors == []
        for response in results:
            assert isinstance(response, openai.types.chat.ChatCompletion)
            assert (response.choices[0].message.content or "").endswith("final")
            assert response.usage is not None
            assert (response.usage.model_extra or {})["server_tool_use"]["advisor_requests"] == 1
        assert wait_until(lambda: pool_in_use(server) == (0, 0))
        assert baseline is not None
        assert wait_until(lambda: gateway_tasks(server) <= baseline)
    assert len(model_server.requests) == 3 * CONCURRENT + 1
