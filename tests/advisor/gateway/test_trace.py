"""The trace a response carries: it survives the round trip exactly, and expands to the messages the upstream saw."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from advisor.gateway import Trace, TracedCall, TraceRound, carried, expand, round_messages, split_trace

texts = st.text(max_size=40)
calls = st.builds(TracedCall, id=st.from_regex(r"call_[a-z0-9]{1,8}", fullmatch=True),
                  name=st.sampled_from(["witness_advisor", "witness_advisor_a-b"]), arguments=texts, result=texts)
plain_rounds = st.builds(TraceRound, content=st.none() | texts,
                         calls=st.lists(calls, min_size=1, max_size=3).map(tuple))


@st.composite
def traces(draw: st.DrawFn) -> Trace:
    rounds = draw(st.lists(plain_rounds, min_size=1, max_size=3))
    if draw(st.booleans()):
        rounds[-1] = TraceRound(calls=rounds[-1].calls, merge=True)
    return Trace(rounds=tuple(rounds))


@given(traces(), st.none() | texts)
def test_a_carried_trace_splits_back_exactly(trace: Trace, content: str | None) -> None:
    """Whatever the trace and the model's text, splitting the carried content gives both back unchanged."""
    found, rest = split_trace(carried(content, trace))
    assert found == trace
    assert rest == (content or None)


@given(traces(), st.none() | texts)
def test_expansion_pairs_every_call_with_its_result(trace: Trace, content: str | None) -> None:
    """Expanded, every assistant tool call is answered by a tool message right after its turn."""
    message = {"role": "assistant", "content": carried(content, trace),
               "tool_calls": [{"id": "client_1", "type": "function", "function": {"name": "sh", "arguments": "{}"}}]}
    out = expand([{"role": "user", "content": "hi"}, message, {"role": "tool", "tool_call_id": "client_1",
                                                                "content": "ok"}])
    pending: list[str] = []
    for item in out[1:]:
        if item["role"] == "assistant":
            assert not pending
            pending = [call["id"] for call in item.get("tool_calls") or ()]
        else:
            pending.remove(item["tool_call_id"])
    assert not pending
    assert "witness:advisor-trace" not in str(out)


def test_a_standalone_round_is_an_assistant_turn_and_its_results() -> None:
    """One round: the assistant turn with its calls, then one tool message per call."""
    turn = TraceRound(content="thinking", calls=(TracedCall(id="c", name="witness_advisor", arguments="{}",
                                                            result='{"status":"ok"}'),))
    assert round_messages(turn) == [
        {"role": "assistant", "content": "thinking",
         "tool_calls": [{"id": "c", "type": "function", "function": {"name": "witness_advisor", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": '{"status":"ok"}'}]


def test_content_given_as_text_parts_is_read_too() -> None:
    """A client that replays content as text parts keeps the trace working."""
    trace = Trace(rounds=(TraceRound(content=None, calls=(TracedCall(id="c", name="witness_advisor", arguments="{}",
                                                                       result="r"),)),))
    found, rest = split_trace([{"type": "text", "text": carried("answer", trace)}])
    assert found == trace and rest == [{"type": "text", "text": "answer"}]


def test_text_that_merely_looks_like_a_trace_is_left_alone() -> None:
    """An unclosed, malformed or misplaced marker is plain text."""
    for content in ("<witness:advisor-trace>{}", "<witness:advisor-trace>{\"v\":1}</witness:advisor-trace>",
                    "say <witness:advisor-trace>{}</witness:advisor-trace>"):
        assert split_trace(content) == (None, content)
