"""The consultation loop through the real openai SDK against the loopback server (reference LOOP, ERR, POL, BUD)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.consult import ANSWER_NOW, EXHAUSTED, Budget, ConsultSettings, Round, Spend
from advisor.models import Prices
from advisor.prompt import request_hash
from tests.advisor.consult.helpers import prompt, run
from tests.support.model_server import ModelServer
from tests.support.script import Hang, HttpError, Reply, ServerError, ToolCall

pytestmark = pytest.mark.anyio


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with one source file."""
    (tmp_path / "a.ts").write_text("tool output")
    return tmp_path


def _bodies(server: ModelServer) -> list[str]:
    return [json.dumps(r.body) for r in server.requests]


async def test_a_plain_answer(model_server: ModelServer) -> None:
    """One request, one attempt; advice without a verdict line is reported as having none (LOOP-1)."""
    model_server.enqueue(Reply(text="advice", input_tokens=100, output_tokens=5))
    result = await run(model_server)
    assert (result.advice, result.stop_reason, result.severity, result.has_verdict) == ("advice", "answered", None,
                                                                                        False)
    assert len(result.attempts) == 1 and result.usage.input_tokens == 100 and not result.skipped
    assert result.advisor == "openai:gpt-test"


async def test_a_tool_round_trip(model_server: ModelServer, workspace: Path) -> None:
    """A read call runs, its result goes back, and the round is recorded (LOOP-2)."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "a.ts"})]),
                         Reply(text="Severity: nit\ninformed advice"))
    result = await run(model_server, workspace=workspace)
    assert result.advice == "Severity: nit\ninformed advice" and result.severity == "nit"
    assert result.rounds == (Round(tool="read", argument="a.ts", chars=len("tool output")),)
    second = model_server.requests[1].body["messages"]
    assert second[-1] == {"role": "tool", "tool_call_id": second[-2]["tool_calls"][0]["id"], "content": "tool output"}
    assert "tool output" not in _bodies(model_server)[0]


async def test_declarations_never_change_and_exhaustion_is_in_band(model_server: ModelServer,
                                                                    workspace: Path) -> None:
    """Past max_rounds calls are refused in-band with an answer-now turn; the tools stay identical (LOOP-3, 4)."""
    call = ToolCall("read", {"path": "a.ts"})
    model_server.enqueue(Reply(tool_calls=[call]), Reply(tool_calls=[call]), Reply(text="final"))
    settings = ConsultSettings(max_rounds=1, retry_delay=0)
    result = await run(model_server, workspace=workspace, settings=settings)
    assert result.advice == "final" and result.budget_exhausted
    assert [r.ran for r in result.rounds] == [True, False] and result.rounds[1].error == EXHAUSTED
    tools = {json.dumps(r.body["tools"], sort_keys=True) for r in model_server.requests}
    assert len(tools) == 1 and "advisor_expand" in tools.pop()
    third = _bodies(model_server)[2]
    assert "Tool budget exhausted" in third and "investigation budget is spent" in third
    assert json.dumps(ANSWER_NOW)[1:-1] in third


async def test_routing_key_on_every_request_and_retry(model_server: ModelServer, workspace: Path) -> None:
    """The session's routing key goes with every request, retries included (BUD-17)."""
    model_server.enqueue(ServerError(), Reply(tool_calls=[ToolCall("ls", {})]), Reply(text=""), Reply(text="ok"))
    result = await run(model_server, workspace=workspace)
    assert result.advice == "ok" and len(result.attempts) == 4
    assert {r.body["prompt_cache_key"] for r in model_server.requests} == {"advisor:s1"}


async def test_an_empty_answer_is_retried_once(model_server: ModelServer) -> None:
    """`  ` then an answer: two requests (LOOP-8); two empty answers end as empty-answer (LOOP-9, ERR-7)."""
    model_server.enqueue(Reply(text="  "), Reply(text="recovered"))
    assert (await run(model_server)).advice == "recovered" and len(model_server.requests) == 2
    model_server.enqueue(Reply(text=""), Reply(text=""))
    empty = await run(model_server)
    assert (empty.stop_reason, empty.error, len(empty.attempts)) == ("empty-answer", "empty response", 2)
    assert empty.notice() == "Advisor returned no text content."


async def test_a_transient_failure_is_retried_once(model_server: ModelServer) -> None:
    """A 5xx is retried once; both attempts are kept; a second failure ends the consultation (LOOP-10, 14)."""
    model_server.enqueue(ServerError(), Reply(text="Severity: none"))
    recovered = await run(model_server)
    assert recovered.severity == "none" and [a.error is not None for a in recovered.attempts] == [True, False]
    model_server.enqueue(ServerError(), ServerError(status=503))
    failed = await run(model_server)
    assert failed.stop_reason == "model-unavailable" and len(failed.attempts) == 2
    assert failed.notice().startswith("Advisor call failed: openai at http://127.0.0.1")


async def test_a_refusal_is_not_retried(model_server: ModelServer) -> None:
    """A 4xx ends the consultation after one request (LOOP-7, ERR-5)."""
    model_server.enqueue(HttpError(401, "bad key"))
    result = await run(model_server)
    assert result.stop_reason == "model-refused" and len(model_server.requests) == 1 and "bad key" in result.notice()


async def test_a_tool_error_still_gets_an_answer(model_server: ModelServer, workspace: Path) -> None:
    """A denied read is an error result; the advisor's answer still comes back, the round marked (LOOP-12)."""
    (workspace / ".env").write_text("API_KEY=live")
    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": ".env"})]), Reply(text="answer"))
    result = await run(model_server, workspace=workspace)
    assert result.advice == "answer" and result.rounds[0].error is not None and "denied" in result.rounds[0].error
    assert "live" not in _bodies(model_server)[1]


async def test_without_tools_calls_are_refused_in_band(model_server: ModelServer) -> None:
    """With max_rounds 0 no tools are declared; a call anyway is refused in-band and the answer returned (LOOP-13)."""
    settings = ConsultSettings(max_rounds=0, retry_delay=0)
    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "x"})]), Reply(text="final"))
    result = await run(model_server, settings=settings, the_prompt=prompt(settings))
    assert result.advice == "final" and "tools" not in model_server.requests[0].body
    assert result.rounds[0].ran is False


async def test_requests_are_bounded(model_server: ModelServer, workspace: Path) -> None:
    """An advisor that only ever calls tools gets at most max_rounds + 4 requests, then no-answer."""
    model_server.on(lambda request: Reply(tool_calls=[ToolCall("ls", {})]))
    settings = ConsultSettings(max_rounds=2, retry_delay=0)
    result = await run(model_server, workspace=workspace, settings=settings)
    assert result.stop_reason == "no-answer" and len(model_server.requests) == 6
    assert sum(r.ran for r in result.rounds) == 2


async def test_wall_clock_timeout(model_server: ModelServer) -> None:
    """The consultation's own timeout ends a hanging request; the attempt is kept (ERR-6)."""
    model_server.enqueue(Hang())
    result = await run(model_server, settings=ConsultSettings(timeout=0.5, retry_delay=0))
    assert result.stop_reason == "timeout" and [a.error for a in result.attempts] == ["deadline exceeded"]
    assert result.notice() == ("Advisor timed out after 0.5s. Continue without advisor; do not retry this "
                               "consultation.")


@pytest.mark.parametrize("executor", ["gpt-test", "openai/gpt-test", "GPT-Test", "gateway/openai:gpt-test"])
async def test_same_model_as_the_executor_is_refused(model_server: ModelServer, executor: str) -> None:
    """The executor's own model is never consulted: skipped, no request (POL-7, POL-8, ERR-9)."""
    result = await run(model_server, executor_model=executor)
    assert result.skipped and result.stop_reason == "same-model" and not model_server.requests
    assert result.notice() == "Advisor skipped: the executor already uses the same model. Continue without advisor."


async def test_other_models_are_consulted(model_server: ModelServer) -> None:
    """A different executor model does not block the consultation (POL-7)."""
    model_server.enqueue(Reply(text="ok"))
    assert (await run(model_server, executor_model="claude-sonnet")).stop_reason == "answered"


async def test_token_budget_checked_before_every_request(model_server: ModelServer, workspace: Path) -> None:
    """Billed attempts count: a second request that would pass the per-call limit is not sent (LOOP-5, BUD-15)."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("ls", {})], input_tokens=1000, output_tokens=50),
                         Reply(text="never reached"))
    limit = prompt().estimated_tokens + 1000
    settings = ConsultSettings(retry_delay=0, budget=Budget(call_tokens=limit))
    result = await run(model_server, workspace=workspace, settings=settings)
    assert result.stop_reason == "budget-exceeded" and len(model_server.requests) == 1
    assert result.usage.total_tokens == 1050 and "do not retry" in result.notice()
    assert "consultation's token budget" in (result.error or "")


async def test_session_budget_skips_before_sending(model_server: ModelServer) -> None:
    """A session that already spent its allowance is skipped with no request (BUD-14)."""
    settings = ConsultSettings(budget=Budget(session_tokens=10_000))
    result = await run(model_server, settings=settings, spent=Spend(tokens=9_999))
    assert result.skipped and result.stop_reason == "budget-exceeded" and not model_server.requests


async def test_money_budget_with_prices(model_server: ModelServer) -> None:
    """With prices, costs are reported and a per-call USD limit is enforced before sending (BUD-13)."""
    prices = Prices(input=10, output=50, cached_input=1)
    model_server.enqueue(Reply(text="ok", input_tokens=10_000, cached_tokens=9_000, output_tokens=100))
    paid = await run(model_server, prices=prices)
    assert paid.cost_usd == pytest.approx((1_000 * 10 + 9_000 * 1 + 100 * 50) / 1e6)
    refused = await run(model_server, prices=prices, settings=ConsultSettings(budget=Budget(call_usd=1e-6)))
    assert refused.skipped and "USD budget" in (refused.error or "")


async def test_hashes_and_sizes(model_server: ModelServer) -> None:
    """The envelope hashes the whole first request and its stable prefix; a new question keeps the prefix hash."""
    model_server.enqueue(Reply(text="a"), Reply(text="b"))
    first = await run(model_server)
    second = await run(model_server, the_prompt=prompt(question="Anything else?"))
    assert first.request_hash == request_hash(prompt().request())
    assert first.stable_prefix_hash == second.stable_prefix_hash and first.request_hash != second.request_hash
    assert first.stable_prefix_messages == 1 and first.estimated_tokens == prompt().estimated_tokens
    assert first.request_chars > 0


async def test_investigation_rounds_stay_out_of_the_advice(model_server: ModelServer, workspace: Path) -> None:
    """Only the final answer is the advice; the tool rounds live in the transcript (for the log), not the envelope."""
    model_server.enqueue(Reply(text="looking", tool_calls=[ToolCall("read", {"path": "a.ts"})]), Reply(text="done"))
    result = await run(model_server, workspace=workspace)
    assert result.advice == "done"
    assert "transcript" not in result.model_dump() and result.transcript is not None
    assert [m.role for m in result.transcript.messages] == ["user", "user", "assistant", "tool"]
    assert [a.messages for a in result.attempts] == [2, 4]


async def test_cancelling_is_not_a_timeout(model_server: ModelServer) -> None:
    """A caller's cancellation propagates; it is never reported as the advisor timing out (ERR-4, ERR-12)."""
    import asyncio

    model_server.enqueue(Hang())
    task = asyncio.ensure_future(run(model_server))
    while not model_server.requests:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_envelope_is_json(model_server: ModelServer, workspace: Path) -> None:
    """The result envelope serialises to JSON and back without loss (the transcript stays out of it)."""
    from advisor.consult import Consultation

    model_server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "a.ts"})]), Reply(text="Severity: blocker\nno"))
    result = await run(model_server, workspace=workspace, prices=None)
    text = result.model_dump_json()
    assert "transcript" not in json.loads(text)
    assert Consultation.model_validate_json(text) == result.model_copy(update={"transcript": None})
