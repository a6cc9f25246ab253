"""What the real Claude Code (pinned) sends, records and hands its hooks — the facts
``docs/hosts-findings.md`` reports, kept true by running it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import play
from tests.e2e.host_base import Hooks
from tests.e2e.host_claude import ClaudeCode, main_transcript
from tests.e2e.observe import CLAUDE_FEEDBACK, jsonl, stop_payloads
from tests.e2e.sandbox import WITNESS, Sandbox
from tests.support.model_server import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

RECORD_ALL = Hooks.recording("Stop", "SubagentStop", "PostToolUse", "PostToolUseFailure")


def tool_ids(entries: list[dict[str, Any]], block: str) -> set[str]:
    """The ids of the tool uses (``tool_use``) or of the results (``tool_result``) in transcript entries."""
    key = "id" if block == "tool_use" else "tool_use_id"
    found = set()
    for entry in entries:
        message = entry.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        for part in content if isinstance(content, list) else ():
            if isinstance(part, dict) and part.get("type") == block:
                found.add(str(part[key]))
    return found


def test_model_requests(claude: ClaudeCode, sandbox: Sandbox, model_server: ModelServer) -> None:
    """Every request is a streamed Anthropic Messages call with the dummy key and the tools the scenario uses."""
    play(claude, "genuine_rerun", sandbox, model_server, Hooks())
    requests = model_server.requests
    assert requests and {r.api for r in requests} == {"messages"}
    assert all(r.stream and r.query == "beta=true" for r in requests)
    assert {r.headers["x-api-key"] for r in requests} == {"sk-ant-scripted-test-double"}
    assert {r.headers["anthropic-version"] for r in requests} == {"2023-06-01"}
    tools = {tool["name"] for tool in requests[0].body["tools"]}
    assert {"Bash", "Read", "Edit", "Write", "Agent"} <= tools, tools


def test_transcript_location(claude: ClaudeCode, sandbox: Sandbox, model_server: ModelServer) -> None:
    """The session is written to ~/.claude/projects/<cwd with every non-alphanumeric as '-'>/<session id>.jsonl."""
    played = play(claude, "genuine_rerun", sandbox, model_server, RECORD_ALL)
    (stop,) = stop_payloads(played.run)
    folder = re.sub(r"[^A-Za-z0-9]", "-", str(sandbox.project))
    expected = sandbox.home / ".claude" / "projects" / folder / f"{stop['session_id']}.jsonl"
    assert main_transcript(played.run) == expected == Path(stop["transcript_path"])


def test_failed_bash_fires_post_tool_use_failure(claude: ClaudeCode, sandbox: Sandbox,
                                                 model_server: ModelServer) -> None:
    """A failing Bash call fires PostToolUseFailure (its error opens with the exit code); a passing one
    PostToolUse, whose tool_response has no exit code."""
    played = play(claude, "genuine_rerun", sandbox, model_server, RECORD_ALL)
    (failure,) = stop_payloads(played.run, "PostToolUseFailure")
    assert failure["tool_name"] == "Bash" and failure["tool_input"]["command"] == "npm test"
    assert failure["error"].startswith("Exit code 1\n") and failure["is_interrupt"] is False
    passes = [p for p in stop_payloads(played.run, "PostToolUse") if p["tool_name"] == "Bash"]
    assert len(passes) == 1 and "exit" not in str(sorted(passes[0]["tool_response"])).lower()
    assert {"stdout", "stderr", "interrupted"} <= set(passes[0]["tool_response"])


def test_stop_payload_and_a_complete_transcript(claude: ClaudeCode, sandbox: Sandbox,
                                                model_server: ModelServer) -> None:
    """Stop carries the final text; the transcript a hook reads at once already holds every tool result and it."""
    played = play(claude, "genuine_rerun", sandbox, model_server, RECORD_ALL)
    (call,) = [c for c in played.run.hook_calls() if c["payload"].get("hook_event_name") == "Stop"]
    payload = call["payload"]
    assert payload["stop_hook_active"] is False
    assert payload["last_assistant_message"] == "Fixed: sum.js adds, and the test passes."
    seen = played.run.hook_copy(call)
    assert tool_ids(seen, "tool_use") == tool_ids(seen, "tool_result") != set()
    texts = [part.get("text") for entry in seen if entry.get("type") == "assistant"
             for part in entry["message"]["content"] if part.get("type") == "text"]
    assert texts[-1] == payload["last_assistant_message"]


def test_stop_hook_feedback_is_a_meta_user_entry(claude: ClaudeCode, sandbox: Sandbox,
                                                 model_server: ModelServer) -> None:
    """A block is recorded as a user entry with isMeta and "Stop hook feedback:\\n<reason>", and reaches the model as
    "Stop hook blocking error from command: …" naming the hook command; the next Stop says stop_hook_active."""
    played = play(claude, "masked_rerun", sandbox, model_server, Hooks.witness("claude-code"))
    meta = [e for e in jsonl(main_transcript(played.run)) if e.get("isMeta") and e.get("type") == "user"]
    feedback = [e["message"]["content"] for e in meta if str(e["message"]["content"]).startswith(CLAUDE_FEEDBACK)]
    assert feedback and "witness reminder 1 of 3" in feedback[0]
    reason = feedback[0].removeprefix(CLAUDE_FEEDBACK)
    # The role it is sent with varies between sessions (a system message, or a user message's
    # <system-reminder> block); the text does not.
    sent = [part["text"] if isinstance(part, dict) else part for r in model_server.requests
            for m in r.body["messages"] for part in (m["content"] if isinstance(m["content"], list) else [m["content"]])
            if isinstance(part, str) or isinstance(part.get("text"), str)]
    prefix = f'Stop hook blocking error from command: "{WITNESS} hook claude-code": '
    assert any(prefix + reason.strip() in text for text in sent), reason
    assert [p["stop_hook_active"] for p in stop_payloads(played.run)][:2] == [False, True]


def test_subagent_stop_payload(claude: ClaudeCode, sandbox: Sandbox, model_server: ModelServer) -> None:
    """SubagentStop carries the parent's session, the agent's id and type, and the agent's own transcript path."""
    played = play(claude, "subagent_clean", sandbox, model_server, RECORD_ALL)
    (payload,) = stop_payloads(played.run, "SubagentStop")
    main = main_transcript(played.run)
    assert payload["session_id"] == main.stem and Path(payload["transcript_path"]) == main
    assert payload["agent_type"] == "general-purpose" and payload["stop_hook_active"] is False
    assert Path(payload["agent_transcript_path"]) == main.parent / main.stem / "subagents" / \
        f"agent-{payload['agent_id']}.jsonl"
    assert payload["last_assistant_message"] == "package.json, sum.js and sum.test.js."
    worker = jsonl(Path(payload["agent_transcript_path"]))
    assert all(e.get("isSidechain") and e.get("agentId") == payload["agent_id"] for e in worker if "uuid" in e)
