"""What the real Codex CLI (pinned) sends, records and hands its hooks — the facts
``docs/hosts-findings.md`` reports, kept true by running it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import play
from tests.e2e.host_base import Hooks
from tests.e2e.host_codex import API_KEY_ENV, Codex
from tests.e2e.observe import jsonl, stop_feedback, stop_payloads
from tests.e2e.sandbox import Sandbox
from tests.support.model_server import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

RECORD_ALL = Hooks.recording("Stop", "PostToolUse")
HOOK_PROMPT = re.compile(r'^<hook_prompt hook_run_id="stop:\d+:[^"]+">(?P<reason>.*)</hook_prompt>$', re.DOTALL)


def test_model_requests(codex: Codex, sandbox: Sandbox, model_server: ModelServer) -> None:
    """Every request is a streamed OpenAI Responses call with the provider's key as a bearer token and exec_command."""
    play(codex, "genuine_rerun", sandbox, model_server, Hooks())
    requests = model_server.requests
    assert requests and {r.api for r in requests} == {"responses"} and all(r.stream for r in requests)
    assert {r.headers["authorization"] for r in requests} == {"Bearer sk-scripted-test-double"}
    assert all(r.body["store"] is False for r in requests)
    names = {tool.get("name") for tool in requests[0].body["tools"]}
    assert "exec_command" in names and API_KEY_ENV not in str(requests[0].body)


def test_hooks_need_trust(codex: Codex, sandbox: Sandbox, model_server: ModelServer) -> None:
    """Without --dangerously-bypass-hook-trust (or a recorded trust), `codex exec` runs no hook and says nothing."""
    codex.trust_hooks = False
    played = play(codex, "masked_rerun", sandbox, model_server, Hooks.witness("codex"))
    assert played.run.hook_calls() == [] and stop_feedback(played.run.transcripts[0]) == []
    assert "hook" not in played.run.stderr.lower()
    assert played.agent.served["main"] == [0, 1], played.explain()


def test_stop_and_post_tool_use_payloads(codex: Codex, sandbox: Sandbox, model_server: ModelServer) -> None:
    """Stop carries the turn id, model and rollout path; PostToolUse fires for a failed command too, as tool "Bash",
    with the output as a string and no exit code."""
    played = play(codex, "genuine_rerun", sandbox, model_server, RECORD_ALL)
    (stop,) = stop_payloads(played.run)
    (rollout,) = played.run.transcripts
    assert Path(stop["transcript_path"]) == rollout and stop["stop_hook_active"] is False
    assert stop["model"] == "scripted-test-double" and stop["turn_id"] and stop["session_id"] in rollout.name
    assert stop["last_assistant_message"] == "Fixed: sum.js adds, and the test passes."
    assert re.fullmatch(r"sessions/\d{4}/\d{2}/\d{2}/rollout-[0-9T-]+-" + stop["session_id"] + r"\.jsonl",
                        str(rollout.relative_to(sandbox.home / ".codex")))
    runs = [p for p in stop_payloads(played.run, "PostToolUse") if p["tool_input"].get("command") == "npm test"]
    assert [p["tool_name"] for p in runs] == ["Bash", "Bash"]
    assert all(isinstance(p["tool_response"], str) for p in runs) and "1 failed" in runs[0]["tool_response"]


def test_stop_block_is_a_hook_prompt_user_message(codex: Codex, sandbox: Sandbox, model_server: ModelServer) -> None:
    """A Stop block is recorded (and sent to the model) as a user message
    <hook_prompt hook_run_id=…>reason</hook_prompt> of hook provenance; the next Stop says stop_hook_active."""
    played = play(codex, "masked_rerun", sandbox, model_server, Hooks.witness("codex"))
    (rollout,) = played.run.transcripts
    (feedback, *_) = stop_feedback(rollout)
    match = HOOK_PROMPT.match(feedback)
    assert match and "witness reminder 1 of 3" in match["reason"], feedback
    (message,) = [e["payload"] for e in jsonl(rollout) if e.get("type") == "response_item"
                  and str(e["payload"].get("content")).find("<hook_prompt") >= 0][:1]
    metadata = message["internal_chat_message_metadata_passthrough"]["content_item_metadata"]
    assert metadata == [{"provenance": {"type": "harness", "hook": True}}]
    sent = [item for r in model_server.requests for item in r.body["input"] if item.get("role") == "user"
            and "<hook_prompt" in str(item.get("content"))]
    assert sent and sent[0]["content"][0]["text"] == feedback
    assert [p["stop_hook_active"] for p in stop_payloads(played.run)][:2] == [False, True]
