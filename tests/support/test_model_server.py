"""The scripted model server speaks each provider's wire format well enough for the official SDKs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx2
import openai
import pytest

from tests.support.model_server import DEFAULT_MODEL, ModelServer
from tests.support.script import Drop, Hang, HttpError, RateLimited, RecordedRequest, Reply, ServerError, ToolCall

READ: Any = {"type": "function", "function": {"name": "read", "description": "Read a file.",
                                         "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}
USER: Any = [{"role": "user", "content": "hello"}]


@pytest.fixture
def oai(model_server: ModelServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=model_server.openai_base_url, api_key="sk-test", http_client=httpx2.Client(),
                       max_retries=0) as client:
        yield client


@pytest.fixture
def claude(model_server: ModelServer) -> Iterator[anthropic.Anthropic]:
    with anthropic.Anthropic(base_url=model_server.anthropic_base_url, api_key="sk-ant-test",
                             http_client=httpx2.Client(), max_retries=0) as client:
        yield client


def _raw_stream(server: ModelServer, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> str:
    with httpx2.Client() as client:
        response = client.post(server.url + path, json=body, headers=headers or {})
        return response.text


# -- OpenAI chat completions -------------------------------------------------------------------


def test_chat_completion_text_usage_and_request_log(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A non-streamed chat answer reaches the SDK with its usage; the request is logged with headers and body."""
    model_server.enqueue(Reply(text="Severity: none", input_tokens=120, cached_tokens=100, output_tokens=4))
    answer = oai.chat.completions.create(model="gpt-test", messages=USER, prompt_cache_key="k1")
    assert answer.choices[0].message.content == "Severity: none"
    assert answer.choices[0].finish_reason == "stop"
    assert answer.usage is not None and answer.usage.prompt_tokens == 120 and answer.usage.completion_tokens == 4
    assert answer.usage.prompt_tokens_details is not None and answer.usage.prompt_tokens_details.cached_tokens == 100
    assert answer.model == "gpt-test" and answer._request_id is not None
    (request,) = model_server.requests
    assert request.api == "chat" and request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.body["prompt_cache_key"] == "k1" and request.body["messages"] == USER


def test_chat_stream_has_role_first_usage_last_and_done(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A streamed chat answer: role in the first delta, text in pieces, a usage-only chunk, then [DONE]."""
    model_server.enqueue(Reply(text="a longer answer in pieces", output_tokens=6))
    stream = oai.chat.completions.create(model="gpt-test", messages=USER, stream=True,
                                                           stream_options={"include_usage": True})
    chunks = list(stream)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "a longer answer in pieces"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 6
    assert len({c.id for c in chunks}) == 1
    model_server.enqueue(Reply(text="x"))
    raw = _raw_stream(model_server, "/v1/chat/completions", {"model": "m", "messages": USER, "stream": True})
    assert raw.endswith("data: [DONE]\n\n") and "event:" not in raw


def test_chat_tool_calls_streamed_and_not(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """Tool calls arrive with ids and JSON-string arguments; streamed fragments join by index."""
    calls = [ToolCall("read", {"path": "src/app.py"}), ToolCall("grep", {"pattern": "TODO", "path": "src"})]
    model_server.enqueue(Reply(tool_calls=calls), Reply(tool_calls=calls, chunk_size=3))
    client = oai
    plain = client.chat.completions.create(model="m", messages=USER, tools=[READ])
    assert plain.choices[0].finish_reason == "tool_calls"
    assert plain.choices[0].message.tool_calls is not None
    assert [json.loads(c.function.arguments) for c in plain.choices[0].message.tool_calls
            if c.type == "function"] == [
        {"path": "src/app.py"}, {"pattern": "TODO", "path": "src"}]
    joined: dict[int, str] = {}
    names: dict[int, str] = {}
    for chunk in client.chat.completions.create(model="m", messages=USER, tools=[READ], stream=True):
        for delta in chunk.choices[0].delta.tool_calls or []:
            assert delta.function is not None
            joined[delta.index] = joined.get(delta.index, "") + (delta.function.arguments or "")
            if delta.function.name:
                names[delta.index] = delta.function.name
    assert names == {0: "read", 1: "grep"}
    assert json.loads(joined[1]) == {"pattern": "TODO", "path": "src"}


def test_chat_reasoning_content_extension(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """Reasoning text is sent as `reasoning_content`, as OpenAI-compatible reasoning servers do."""
    model_server.enqueue(Reply(text="answer", reasoning="thinking it over"))
    answer = oai.chat.completions.create(model="m", messages=USER)
    assert (answer.choices[0].message.model_extra or {})["reasoning_content"] == "thinking it over"


def test_chat_unanswered_tool_call_is_refused_like_openai(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A tool call without a tool message answering it gets OpenAI's 400, and no scripted answer is used."""
    model_server.enqueue(Reply(text="unused"))
    messages: Any = [*USER, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
        {"role": "user", "content": "and?"}]
    with pytest.raises(openai.BadRequestError, match="did not have response messages: call_1"):
        oai.chat.completions.create(model="m", messages=messages)
    assert model_server.pending == 1


# -- OpenAI Responses ------------------------------------------------------------------------


def test_responses_text_reasoning_and_function_call(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A Responses answer holds reasoning, message and function_call items with usage."""
    model_server.enqueue(Reply(text="looking", reasoning="plan", tool_calls=[ToolCall("read", {"path": "a"})],
                               input_tokens=50, cached_tokens=20))
    answer = oai.responses.create(model="gpt-test", input="hello", instructions="be brief",
                                                    include=["reasoning.encrypted_content"])
    kinds = [item.type for item in answer.output]
    assert kinds == ["reasoning", "message", "function_call"]
    assert answer.output_text == "looking"
    call = answer.output[2]
    assert call.type == "function_call" and call.name == "read" and json.loads(call.arguments) == {"path": "a"}
    assert answer.output[0].type == "reasoning" and answer.output[0].encrypted_content
    assert answer.usage is not None and answer.usage.input_tokens_details.cached_tokens == 20
    assert model_server.requests[0].body["instructions"] == "be brief"


def test_responses_stream_events_in_order_without_done(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A streamed Responses answer: named events, increasing sequence numbers, response.completed last."""
    model_server.enqueue(Reply(text="streamed text", tool_calls=[ToolCall("read", {"path": "b"})]))
    with oai.responses.stream(model="m", input="hi") as stream:
        events = list(stream)
        final = stream.get_final_response()
    names = [event.type for event in events]
    assert names[:2] == ["response.created", "response.in_progress"] and names[-1] == "response.completed"
    assert "response.output_text.delta" in names and "response.function_call_arguments.done" in names
    assert [event.sequence_number for event in events] == list(range(len(events)))
    assert final.output_text == "streamed text"
    model_server.enqueue(Reply(text="x"))
    raw = _raw_stream(model_server, "/v1/responses", {"model": "m", "input": "hi", "stream": True})
    assert raw.startswith("event: response.created\ndata: ") and "[DONE]" not in raw


def test_responses_custom_tool_call_when_declared_custom(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A call to a tool declared `type: custom` (Codex's apply_patch) is a custom_tool_call with raw input."""
    model_server.enqueue(Reply(tool_calls=[ToolCall("apply_patch", "*** Begin Patch\n*** End Patch\n")]))
    answer = oai.responses.create(
        model="m", input="patch it", tools=[{"type": "custom", "name": "apply_patch", "description": "Patch."}])
    (item,) = answer.output
    assert item.type == "custom_tool_call" and item.input.startswith("*** Begin Patch")


def test_responses_output_without_call_is_refused(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A function_call_output with no matching function_call gets OpenAI's 400."""
    with pytest.raises(openai.BadRequestError, match="No tool call found"):
        oai.responses.create(
            model="m", input=[{"type": "function_call_output", "call_id": "call_9", "output": "x"}])


def test_responses_encrypted_content_it_did_not_make_is_refused(model_server: ModelServer,
                                                                  oai: openai.OpenAI) -> None:
    """A reasoning item replayed with its own encrypted content is accepted; one with content the server
    did not make gets OpenAI's 400, as a real provider cannot decrypt it."""
    model_server.enqueue(Reply(text="a", reasoning="plan"), Reply(text="b"))
    first = oai.responses.create(model="m", input="hi", include=["reasoning.encrypted_content"])
    replayed: Any = [{"role": "user", "content": "hi"}, *[item.model_dump(exclude_none=True) for item in first.output]]
    assert oai.responses.create(model="m", input=replayed).output_text == "b"
    replayed[1]["encrypted_content"] = "Zm9yZ2Vk"
    with pytest.raises(openai.BadRequestError, match="could not be verified"):
        oai.responses.create(model="m", input=replayed)


# -- Anthropic Messages ----------------------------------------------------------------------


def test_messages_blocks_and_usage_split_like_anthropic(model_server: ModelServer, claude: anthropic.Anthropic) -> None:
    """An Anthropic answer has thinking, text and tool_use blocks; input usage excludes cache reads and writes."""
    model_server.enqueue(Reply(text="checking", reasoning="hmm", tool_calls=[ToolCall("ls", {"path": "."})],
                               input_tokens=1000, cached_tokens=800, cache_write_tokens=150, output_tokens=9))
    answer = claude.messages.create(model="claude-test", max_tokens=100,
                                                      messages=[{"role": "user", "content": "hi"}],
                                                      metadata={"user_id": "advisor:s1"})
    assert [block.type for block in answer.content] == ["thinking", "text", "tool_use"]
    assert answer.stop_reason == "tool_use"
    assert (answer.usage.input_tokens, answer.usage.cache_read_input_tokens,
            answer.usage.cache_creation_input_tokens) == (50, 800, 150)
    assert answer._request_id is not None and answer._request_id.startswith("req_01")
    request = model_server.requests[0]
    # anthropic 2.x sends the key as a bearer token (Claude Code sends x-api-key; the server takes both).
    assert request.headers["authorization"] == "Bearer sk-ant-test" and request.headers["anthropic-version"]
    assert request.body["metadata"] == {"user_id": "advisor:s1"}


def test_messages_stream_events_and_final_message(model_server: ModelServer, claude: anthropic.Anthropic) -> None:
    """A streamed Anthropic answer: message_start, ping, block events, message_delta, message_stop."""
    model_server.enqueue(Reply(text="streamed", reasoning="think", tool_calls=[ToolCall("read", {"path": "x"})]))
    with claude.messages.stream(model="c", max_tokens=50,
                                                  messages=[{"role": "user", "content": "hi"}]) as stream:
        final = stream.get_final_message()
    assert [block.type for block in final.content] == ["thinking", "text", "tool_use"]
    assert final.content[2].type == "tool_use" and final.content[2].input == {"path": "x"}
    model_server.enqueue(Reply(text="x"))
    raw = _raw_stream(model_server, "/v1/messages", {"model": "c", "max_tokens": 5, "stream": True,
                                                     "messages": [{"role": "user", "content": "hi"}]})
    names = [line.removeprefix("event: ") for line in raw.splitlines() if line.startswith("event: ")]
    assert names == ["message_start", "ping", "content_block_start", "content_block_delta", "content_block_stop",
                     "message_delta", "message_stop"]


def test_messages_unpaired_tool_result_is_refused_like_anthropic(
        model_server: ModelServer, claude: anthropic.Anthropic,
) -> None:
    """A tool_result without a tool_use in the previous message gets Anthropic's 400 wording."""
    messages: Any = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "r"}]}]
    with pytest.raises(anthropic.BadRequestError, match="unexpected `tool_use_id`"):
        claude.messages.create(model="c", max_tokens=5, messages=messages)


def test_messages_count_tokens(model_server: ModelServer, claude: anthropic.Anthropic) -> None:
    """`/v1/messages/count_tokens` answers an estimate without using a scripted answer."""
    counted = claude.messages.count_tokens(model="c", messages=[{"role": "user", "content": "hi"}])
    assert counted.input_tokens > 0


# -- faults, matchers, models ------------------------------------------------------------------


def test_rate_limit_is_retried_by_the_sdks(
        model_server: ModelServer, oai: openai.OpenAI, claude: anthropic.Anthropic,
) -> None:
    """A 429 with retry-after is retried by both SDKs; the retry gets the next scripted answer."""
    model_server.enqueue(RateLimited(), Reply(text="after the wait"), RateLimited(), Reply(text="anthropic too"))
    answer = oai.with_options(max_retries=1).chat.completions.create(model="m", messages=USER)
    assert answer.choices[0].message.content == "after the wait"
    message = claude.with_options(max_retries=1).messages.create(
        model="c", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert message.content[0].type == "text" and message.content[0].text == "anthropic too"
    assert len(model_server.requests) == 4


def test_rate_limit_headers_and_bodies(
        model_server: ModelServer, oai: openai.OpenAI, claude: anthropic.Anthropic,
) -> None:
    """A 429 carries retry-after and retry-after-ms and the provider's error type."""
    model_server.enqueue(RateLimited(retry_after=2.5))
    with pytest.raises(openai.RateLimitError) as caught:
        oai.chat.completions.create(model="m", messages=USER)
    assert caught.value.response.headers["retry-after-ms"] == "2500"
    assert caught.value.response.headers["retry-after"] == "2"
    model_server.enqueue(RateLimited())
    with pytest.raises(anthropic.RateLimitError) as refused:
        claude.messages.create(model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}])
    assert refused.value.body["error"]["type"] == "rate_limit_error"  # type: ignore[index]


def test_server_errors_surface_after_the_retries(
        model_server: ModelServer, oai: openai.OpenAI, claude: anthropic.Anthropic,
) -> None:
    """A 500 (and Anthropic's 529) is retried, then surfaces as the SDK's server error."""
    model_server.enqueue(ServerError(), ServerError(), ServerError(status=529))
    with pytest.raises(openai.InternalServerError):
        oai.with_options(max_retries=1).chat.completions.create(model="m", messages=USER)
    assert len(model_server.requests) == 2
    with pytest.raises(anthropic.APIStatusError) as caught:
        claude.messages.create(model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}])
    assert caught.value.status_code == 529


def test_hang_past_the_client_timeout(
        model_server: ModelServer, oai: openai.OpenAI, claude: anthropic.Anthropic,
) -> None:
    """A hanging answer makes the SDK time out; the server notices the client left."""
    model_server.enqueue(Hang(), Hang())
    with pytest.raises(openai.APITimeoutError):
        oai.with_options(timeout=0.3).chat.completions.create(model="m", messages=USER)
    with pytest.raises(anthropic.APITimeoutError):
        claude.with_options(timeout=0.3).messages.create(model="c", max_tokens=5,
                                                               messages=[{"role": "user", "content": "x"}])


def test_dropped_connection(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A connection closed mid-answer is a connection error, non-streamed and mid-stream."""
    model_server.enqueue(Drop(), Drop(after_events=3))
    with pytest.raises(openai.APIConnectionError):
        oai.chat.completions.create(model="m", messages=USER)
    stream = oai.chat.completions.create(model="m", messages=USER, stream=True)
    with pytest.raises((httpx2.TransportError, openai.APIConnectionError)):
        list(stream)


def test_http_errors_keep_the_provider_shape(
        model_server: ModelServer, oai: openai.OpenAI, claude: anthropic.Anthropic,
) -> None:
    """A scripted 401 is the SDK's authentication error, with the provider's error type."""
    model_server.enqueue(HttpError(401, "bad key"), HttpError(401, "bad key"))
    with pytest.raises(openai.AuthenticationError, match="bad key"):
        oai.chat.completions.create(model="m", messages=USER)
    with pytest.raises(anthropic.AuthenticationError) as caught:
        claude.messages.create(model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}])
    assert caught.value.body["error"]["type"] == "authentication_error"  # type: ignore[index]


def test_matchers_answer_before_the_queue(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A matcher answers the requests it recognises; others fall through to the queue."""

    @model_server.on
    def _review(request: RecordedRequest) -> Reply | None:
        text = json.dumps(request.body)
        return Reply(text="Severity: blocker") if "review" in text else None

    model_server.enqueue(Reply(text="from the queue"))
    client = oai
    review = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "please review"}])
    other = client.chat.completions.create(model="m", messages=USER)
    assert review.choices[0].message.content == "Severity: blocker"
    assert other.choices[0].message.content == "from the queue"


def test_nothing_scripted_is_a_clear_400(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """With nothing scripted and no default, the client gets a 400 saying so (never a made-up answer)."""
    with pytest.raises(openai.BadRequestError, match="no answer is scripted"):
        oai.chat.completions.create(model="m", messages=USER)


def test_api_key_required_when_set() -> None:
    """A server started with an API key refuses requests without it (401) and serves those with it."""
    with ModelServer(api_key="sk-right", default=Reply(text="ok")) as server:
        with openai.OpenAI(base_url=server.openai_base_url, api_key="sk-wrong", http_client=httpx2.Client(),
                           max_retries=0) as wrong, pytest.raises(openai.AuthenticationError):
            wrong.chat.completions.create(model="m", messages=USER)
        with openai.OpenAI(base_url=server.openai_base_url, api_key="sk-right", http_client=httpx2.Client()) as right:
            assert right.chat.completions.create(model="m", messages=USER).choices[0].message.content == "ok"


def test_models_listing_in_both_shapes(
        model_server: ModelServer, oai: openai.OpenAI, claude: anthropic.Anthropic,
) -> None:
    """`/v1/models` lists the scripted model in OpenAI's shape, and in Anthropic's for Anthropic clients."""
    assert [m.id for m in oai.models.list()] == [DEFAULT_MODEL]
    assert [m.id for m in claude.models.list()] == [DEFAULT_MODEL]
    assert oai.models.retrieve(DEFAULT_MODEL).id == DEFAULT_MODEL


@pytest.mark.anyio
async def test_async_clients_on_httpx2(model_server: ModelServer) -> None:
    """The async SDK clients, given an httpx2 AsyncClient, stream from the server."""
    model_server.enqueue(Reply(text="async openai"), Reply(text="async anthropic"))
    async with openai.AsyncOpenAI(base_url=model_server.openai_base_url, api_key="k",
                                  http_client=httpx2.AsyncClient()) as client:
        chunks = await client.chat.completions.create(model="m", messages=USER, stream=True)
        pieces = [chunk.choices[0].delta.content or "" async for chunk in chunks if chunk.choices]
    assert "".join(pieces) == "async openai"
    async with anthropic.AsyncAnthropic(base_url=model_server.anthropic_base_url, api_key="k",
                                        http_client=httpx2.AsyncClient()) as claude, \
            claude.messages.stream(model="c", max_tokens=5, messages=[{"role": "user", "content": "x"}]) as stream:
        final = await stream.get_final_message()
    assert final.content[0].type == "text" and final.content[0].text == "async anthropic"


def test_responses_tool_round_trip_is_accepted(model_server: ModelServer, oai: openai.OpenAI) -> None:
    """A function_call followed by its function_call_output (as the Codex CLI sends them) is a valid request."""
    model_server.enqueue(Reply(text="done"))
    answer = oai.responses.create(model="m", store=False, input=[
        {"role": "user", "content": [{"type": "input_text", "text": "run it"}]},
        {"type": "function_call", "call_id": "call_1", "name": "shell", "arguments": '{"command":["ls"]}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"}])
    assert answer.output_text == "done"
    assert model_server.requests[0].body["store"] is False
