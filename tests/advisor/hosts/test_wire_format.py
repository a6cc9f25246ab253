"""The hosts' wire format: Stop payloads read whatever a host sends, answers are the JSON the hosts
read, and the words an agent is held with are the tracker's own."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.hosts import HOSTS, STOP_EVENTS, Host, StopBlock, StopInput, StopRelease, answer_hook
from obligations import Tracker, block_reason, release_message
from obligations.sources import open_transcript
from tests.advisor.sessions import EXAMPLE

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                    max_leaves=8)


def test_the_hosts_and_the_events_answered() -> None:
    """Claude Code and Codex (every value of the `Host` type); Stop and SubagentStop."""
    assert HOSTS == ("claude-code", "codex") == get_args(Host)
    assert STOP_EVENTS == ("Stop", "SubagentStop")


def test_a_claude_code_subagent_stop_reads_its_own_transcript() -> None:
    """SubagentStop with `agent_transcript_path`: that transcript; without: the session's."""
    payload = StopInput.model_validate({"hook_event_name": "SubagentStop", "session_id": "s", "agent_id": "a1",
                                        "transcript_path": "/t/session.jsonl",
                                        "agent_transcript_path": "/t/agent-a1.jsonl", "stop_hook_active": True})
    assert payload.subagent and payload.stop_hook_active
    assert payload.transcript == "/t/agent-a1.jsonl"
    assert StopInput.model_validate({"hook_event_name": "SubagentStop", "transcript_path": "/t/s.jsonl"}
                                    ).transcript == "/t/s.jsonl"
    assert StopInput.model_validate({"hook_event_name": "Stop", "transcript_path": "/t/s.jsonl",
                                     "agent_transcript_path": "/t/a.jsonl"}).transcript == "/t/s.jsonl"


def test_a_codex_stop_payload_with_its_own_fields() -> None:
    """Codex adds `turn_id` and `model`, and may send `transcript_path: null`."""
    payload = StopInput.model_validate({"hook_event_name": "Stop", "session_id": "019f", "turn_id": "t3",
                                        "model": "gpt-5", "transcript_path": None,
                                        "last_assistant_message": None, "stop_hook_active": False})
    assert (payload.turn_id, payload.model, payload.transcript) == ("t3", "gpt-5", None)


@given(st.dictionaries(st.sampled_from(sorted(StopInput.model_fields)) | st.text(max_size=5), JSON, max_size=8))
def test_reading_a_stop_payload_never_fails(raw: dict[str, Any]) -> None:
    """Whatever a host sends, the payload reads: a field of the wrong type reads as absent."""
    payload = StopInput.model_validate(raw)
    assert payload.transcript is None or isinstance(payload.transcript, str)
    assert payload.session_id is None or isinstance(payload.session_id, str)
    assert isinstance(payload.stop_hook_active, bool)


def test_answers_are_the_json_the_hosts_read() -> None:
    """A block is `{"decision": "block", "reason": …}`; a release `{"systemMessage": …}`."""
    assert json.loads(StopBlock(reason="re-run it").to_json()) == {"decision": "block", "reason": "re-run it"}
    assert json.loads(StopRelease(systemMessage="still open").to_json()) == {"systemMessage": "still open"}


def test_the_block_reason_is_the_trackers_wording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the hook holds the agent with, and what it leaves the user once the blocks are spent, are
    obligations' own texts about the same open items."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path))
    monkeypatch.setenv("WITNESS_STOP_BLOCKS", "1")
    tracker = Tracker()
    tracker.handle_many(open_transcript(EXAMPLE).events())
    items = tracker.open_items()
    raw = json.dumps({"hook_event_name": "Stop", "session_id": "wording", "transcript_path": str(EXAMPLE)}).encode()
    first = json.loads(answer_hook("claude-code", raw, io.StringIO()))
    assert first == {"decision": "block", "reason": block_reason(items, 1, 1)}
    second = json.loads(answer_hook("claude-code", raw, io.StringIO()))
    assert second == {"systemMessage": release_message(items, 1)}
