"""Responses input items and chat messages translated both ways, every item kept."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from advisor.gateway import chat_events
from advisor.gateway._items import chat_tools, to_chat, to_items

TEXT = st.text(max_size=20)
CALL_ID = st.sampled_from(["call_1", "call_2", "call_3"])


def _message(role: str) -> st.SearchStrategy[dict[str, Any]]:
    part = st.one_of(st.builds(lambda t: {"type": "input_text", "text": t}, TEXT),
                     st.builds(lambda u, d: {"type": "input_image", "image_url": u, "detail": d},
                               st.just("data:image/png;base64,AAAA"), st.sampled_from(["low", "high", "auto"])))
    content = st.one_of(TEXT, st.lists(part, min_size=1, max_size=3))
    return st.builds(lambda c: {"type": "message", "role": role, "content": c}, content)


ITEM = st.one_of(
    _message("user"), _message("system"), _message("developer"),
    st.builds(lambda t: {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": t}]},
              TEXT),
    st.builds(lambda t: {"type": "reasoning", "summary": [{"type": "summary_text", "text": t}]}, TEXT),
    st.builds(lambda c, n, a: {"type": "function_call", "call_id": c, "name": n, "arguments": a},
              CALL_ID, st.sampled_from(["exec_command", "witness_advisor"]), TEXT),
    st.builds(lambda c, n, i: {"type": "custom_tool_call", "call_id": c, "name": n, "input": i},
              st.sampled_from(["ctc_1", "ctc_2"]), st.just("apply_patch"), TEXT),
    st.builds(lambda c, o: {"type": "function_call_output", "call_id": c, "output": o}, CALL_ID, TEXT),
    st.builds(lambda c, o: {"type": "custom_tool_call_output", "call_id": c, "output": o},
              st.sampled_from(["ctc_1", "ctc_2"]), TEXT),
)


def _custom_outputs_follow_their_calls(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A custom call's output is known as one only after its call; an output before it is a function's."""
    seen: set[str] = set()
    kept: list[dict[str, Any]] = []
    for item in items:
        if item["type"] == "custom_tool_call":
            seen.add(item["call_id"])
        if item["type"] == "custom_tool_call_output" and item["call_id"] not in seen:
            continue
        kept.append(item)
    return kept


@given(st.lists(ITEM, max_size=12).map(_custom_outputs_follow_their_calls))
def test_items_survive_the_round_trip_through_chat_messages(items: list[dict[str, Any]]) -> None:
    """Every item comes back from its chat message, in its order, field for field."""
    assert to_items(to_chat(items)) == items


@given(st.lists(ITEM, max_size=12).map(_custom_outputs_follow_their_calls))
def test_chat_messages_survive_the_round_trip_through_items(items: list[dict[str, Any]]) -> None:
    """Chat messages made from items come back from their items unchanged."""
    messages = to_chat(items)
    assert to_chat(to_items(messages)) == messages


def test_a_turn_is_one_assistant_message_with_its_reasoning_text_and_calls() -> None:
    """Reasoning, text and calls of one turn make one assistant message, as a chat model's turn holds them."""
    items = [{"type": "reasoning", "summary": [{"type": "summary_text", "text": "think"}]},
             {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Running."}]},
             {"type": "function_call", "call_id": "call_1", "name": "exec_command", "arguments": "{}"},
             {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]
    assert to_chat(items) == [
        {"role": "assistant", "content": "Running.", "reasoning_content": "think",
         "tool_calls": [{"id": "call_1", "type": "function",
                         "function": {"name": "exec_command", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"}]


def test_a_string_input_is_one_user_message_and_ids_are_not_carried() -> None:
    """A string input is the user's message; items' ids and statuses are the provider's, not the conversation's."""
    assert to_chat("hello") == [{"role": "user", "content": "hello"}]
    item = {"id": "msg_1", "status": "completed", "type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "hi", "annotations": []}]}
    assert to_items(to_chat([item])) == [{"type": "message", "role": "assistant",
                                          "content": [{"type": "output_text", "text": "hi"}]}]


def test_function_and_custom_tools_take_the_chat_shape_and_hosted_tools_are_left_out() -> None:
    """The ledger's catalogue reads a Responses request's tools in the chat shape."""
    tools = [{"type": "function", "name": "exec_command", "description": "Run."},
             {"type": "custom", "name": "apply_patch", "description": "Patch."}, {"type": "web_search"}]
    assert chat_tools(tools) == [{"type": "function", "function": {"name": "exec_command", "description": "Run."}},
                                 {"type": "custom", "custom": {"name": "apply_patch", "description": "Patch."}}]


ANY_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                     max_size=3), max_leaves=12)
ANY_ITEM = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["message", "function_call", "function_call_output", "reasoning", "custom_tool_call",
                             "custom_tool_call_output"]) | ANY_JSON,
    "role": st.sampled_from(["user", "assistant", "system"]) | ANY_JSON, "content": ANY_JSON, "call_id": ANY_JSON,
    "name": ANY_JSON, "arguments": ANY_JSON, "input": ANY_JSON, "output": ANY_JSON, "summary": ANY_JSON})


@given(st.lists(ANY_ITEM | ANY_JSON, max_size=6))
def test_any_items_translate_and_compile_without_an_error(items: list[Any]) -> None:
    """Items of any shape a client may send become chat messages the ledger's reader takes, never an exception."""
    messages = to_chat(items)
    to_items(messages)
    chat_events(messages)
