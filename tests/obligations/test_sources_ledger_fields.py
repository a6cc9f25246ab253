"""What the readers give the advisor's ledger: entry ids, reasoning apart from text, images counted,
the user's own commands, runs kept out of context, summaries of both kinds, recorded tool catalogues,
extension messages, and advisor consultations — from every host's format and from real sessions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from obligations import (
    AssistantMessage,
    Compaction,
    HostMessage,
    ToolCatalogue,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
    is_advisor_tool,
)
from obligations.sources import host_tools, open_transcript
from tests.obligations.transcript_files import FIXTURES, write_jsonl
from tests.support.transcripts import HOSTS, Action, Ask, Call, Host, Step, User, UserShell, write

REAL = FIXTURES / "real"


def events_of(path: Path) -> list[Any]:
    return list(open_transcript(path).events())


def of(events: list[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


SESSION: list[Action] = [User("fix it", images=2),
                         Step("on it", "thinking hard", (Call("shell", "pytest -q", "1 passed", 0),)),
                         Ask("done?", "Severity: none\nyes"), UserShell("git status", "clean")]


@pytest.mark.parametrize("host", HOSTS)
def test_every_host_gives_reasoning_images_user_commands_and_consultations(host: Host, tmp_path: Path) -> None:
    """From each host's format: the step's reasoning apart from its text, pasted images counted, the
    user's own command flagged as theirs, and the advisor call with its advice."""
    events = events_of(write(tmp_path / "s.jsonl", host, SESSION))
    [said] = of(events, UserMessage)
    assert said.text == "fix it" and said.images == 2
    steps = of(events, AssistantMessage)
    assert [(s.text, s.reasoning) for s in steps][:2] == [("on it", "thinking hard"), ("done?", "")]
    advisor = [e for e in of(events, ToolDispatched) if is_advisor_tool(e.tool)]
    [advice] = [e for e in of(events, ToolCompleted) if e.call_id == advisor[0].call_id]
    assert advice.output == "Severity: none\nyes" and not advice.is_error
    [shell] = [e for e in of(events, ToolDispatched) if e.user_shell]
    assert shell.arguments["command"] == "git status"
    assert all(e.entry_id for e in events)


def test_entry_ids_are_the_hosts_own_or_the_line(tmp_path: Path) -> None:
    """Claude Code's `uuid`, Pi's `id`, and `L<line>` for Codex rollouts (which have no entry ids)."""
    claude = events_of(write(tmp_path / "c.jsonl", "claude-code", SESSION))
    assert claude[0].entry_id.endswith("-0000-4000-8000-000000000000")
    pi = events_of(write(tmp_path / "p.jsonl", "pi", SESSION))
    lines = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert pi[0].entry_id == lines[1]["id"]
    codex = events_of(write(tmp_path / "x.jsonl", "codex", SESSION))
    assert codex[0].entry_id == codex[0].origin.replace("x.jsonl:", "L")


def test_codex_reasoning_of_a_step_that_only_calls_tools(tmp_path: Path) -> None:
    """A Codex reasoning item followed by calls and no message becomes an assistant step of its own."""
    events = events_of(write(tmp_path / "x.jsonl", "codex", [User("go"), Step("", "plan: run it",
                                                                                (Call("shell", "ls", "a"),))]))
    step, call = [e for e in events if isinstance(e, AssistantMessage | ToolDispatched)]
    assert isinstance(step, AssistantMessage) and step.reasoning == "plan: run it" and step.text == ""
    assert isinstance(call, ToolDispatched)


def pi_file(tmp_path: Path, *entries: dict[str, Any]) -> Path:
    chained = []
    parent = None
    for number, entry in enumerate(entries, start=1):
        ident = f"{number:08x}"
        chained.append({"id": ident, "parentId": parent, "timestamp": "2026-11-20T10:00:00Z", **entry})
        parent = ident
    return write_jsonl(tmp_path / "pi.jsonl", [{"type": "session", "version": 3, "id": "s", "cwd": "/w"}, *chained])


def test_pi_extension_messages_runs_kept_out_of_context_and_summaries(tmp_path: Path) -> None:
    """Pi: `custom_message` is an extension's host message (hidden unless displayed), `!!` runs are excluded,
    a branch summary is a summary of kind `branch`, and a tool result's images are counted."""
    events = events_of(pi_file(
        tmp_path,
        {"type": "message", "message": {"role": "user", "content": "task"}},
        {"type": "custom_message", "customType": "note", "content": "VISIBLE", "display": True},
        {"type": "custom_message", "customType": "secret", "content": "HIDDEN", "display": False},
        {"type": "message", "message": {"role": "bashExecution", "command": "cat .env", "output": "K=V", "exitCode": 0,
                                        "excludeFromContext": True}},
        {"type": "branch_summary", "fromId": "00000001", "summary": "tried another way"},
        {"type": "message", "message": {"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "shot.png"}}]}},
        {"type": "message", "message": {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [
            {"type": "text", "text": "Read image file [image/png]"}, {"type": "image", "data": "AAAA",
                                                                       "mimeType": "image/png"}]}}))
    notes = of(events, HostMessage)
    assert [(n.kind, n.name, n.text, n.hidden) for n in notes] == [("extension", "note", "VISIBLE", False),
                                                                    ("extension", "secret", "HIDDEN", True)]
    [run] = [e for e in of(events, ToolDispatched) if e.user_shell]
    assert run.excluded
    assert [(c.kind, c.summary) for c in of(events, Compaction)] == [("branch", "tried another way")]
    assert [r.images for r in of(events, ToolCompleted) if r.call_id == "c1"] == [1]


def test_pi_consultations_that_failed_are_error_results_and_reviews_carry_their_advice(tmp_path: Path) -> None:
    """A Pi advisor result whose details say skipped, aborted or failed is an error; a delivered review's
    message carries `details.advice`."""
    events = events_of(pi_file(
        tmp_path,
        {"type": "message", "message": {"role": "assistant", "content": [
            {"type": "toolCall", "id": "a1", "name": "advisor", "arguments": {}},
            {"type": "toolCall", "id": "a2", "name": "advisor", "arguments": {}},
            {"type": "toolCall", "id": "a3", "name": "advisor", "arguments": {}}]}},
        {"type": "message", "message": {"role": "toolResult", "toolCallId": "a1", "toolName": "advisor",
                                        "content": "FAILURE TEXT", "details": {"skipped": True}}},
        {"type": "message", "message": {"role": "toolResult", "toolCallId": "a2", "toolName": "advisor",
                                        "content": "x", "details": {"stopReason": "aborted"}}},
        {"type": "message", "message": {"role": "toolResult", "toolCallId": "a3", "toolName": "advisor",
                                        "content": "Severity: nit\nok", "details": {"severity": "nit"}}},
        {"type": "custom_message", "customType": "advisor-review", "content": "<advisory>…</advisory>",
         "display": True, "details": {"severity": "concern", "advice": "Severity: concern\nCheck the null path."}}))
    results = {r.call_id: r for r in of(events, ToolCompleted)}
    assert results["a1"].is_error and results["a2"].is_error and not results["a3"].is_error
    [review] = of(events, HostMessage)
    assert review.name == "advisor-review" and review.text == "Severity: concern\nCheck the null path."


def test_pi_system_snapshot_is_a_tool_catalogue(tmp_path: Path) -> None:
    """Pi 0.86's system message with the executor's tools is a recorded catalogue (names and descriptions)."""
    snapshot = {"role": "system", "content": "EXECUTOR SYSTEM",
                "tools": [{"name": "dangerous-tool", "description": "Do it."}]}
    events = events_of(pi_file(tmp_path, {"type": "message", "message": snapshot}))
    [catalogue] = of(events, ToolCatalogue)
    assert [(t.name, t.description) for t in catalogue.tools] == [("dangerous-tool", "Do it.")]


def test_real_codex_session_records_its_dynamic_tools() -> None:
    """The real fnox rollout's `dynamic_tools` (the Codex app's namespace) come as one catalogue, first."""
    events = events_of(REAL / "codex" / "fnox--019f1f60.jsonl")
    catalogues = of(events, ToolCatalogue)
    assert len(catalogues) == 1 and events.index(catalogues[0]) == 0
    assert "automation_update" in [t.name for t in catalogues[0].tools] and len(catalogues[0].tools) == 15


def test_real_claude_session_with_claude_codes_own_advisor() -> None:
    """The real entirecontext session consulted Claude Code's server-side advisor three times: three advisor
    calls, whose encrypted advice gives no output."""
    events = events_of(REAL / "claude" / "entirecontext--da81b1d5.jsonl")
    calls = [e for e in of(events, ToolDispatched) if is_advisor_tool(e.tool)]
    answers = [e for e in of(events, ToolCompleted) if e.call_id in {c.call_id for c in calls}]
    assert len(calls) == 3 and len(answers) == 3 and all(a.output is None for a in answers)


def test_real_sessions_keep_their_thinking() -> None:
    """Claude Code thinking (nomos), Codex reasoning summaries (hk) and Pi thinking (prsui) reach the events."""
    for name in ("claude/nomos--763eeec5.jsonl", "codex/hk--019f5cfd.jsonl", "pi/prsui--019f8412.jsonl"):
        steps = of(events_of(REAL / name), AssistantMessage)
        assert sum(1 for s in steps if s.reasoning) >= 2, name


def test_consulting_the_advisor_is_neither_evidence_nor_an_edit() -> None:
    """A failed check stays open and is not re-opened or closed by an advisor call (named however the host
    names it)."""
    tracker = Tracker()
    tracker.handle(ToolDispatched(call_id="1", tool="Bash", arguments={"command": "pytest -q"}))
    tracker.handle(ToolCompleted(call_id="1", exit_code=1, output="1 failed"))
    tracker.handle(ToolDispatched(call_id="2", tool="Bash", arguments={"command": "pytest -q"}))
    tracker.handle(ToolCompleted(call_id="2", exit_code=0, output="1 passed"))
    names = ["advisor", "witness_advisor", "mcp__witness__advisor", "mcp__team__consult_advisor"]
    for number, name in enumerate(names):
        tracker.handle(ToolDispatched(call_id=f"a{number}", tool=name))
        tracker.handle(ToolCompleted(call_id=f"a{number}", output="Severity: none"))
    assert tracker.open_items() == [] and not is_advisor_tool("adviser") and not is_advisor_tool("read")


def test_built_in_catalogues_name_each_hosts_tools() -> None:
    """Each host's built-in tools, with a purpose for every one."""
    for host in HOSTS:
        tools = host_tools(host)
        assert tools and all(t.description for t in tools)
    assert {"Bash", "Edit", "Read", "Write"} <= {t.name for t in host_tools("claude-code")}
    assert {"exec_command", "apply_patch"} <= {t.name for t in host_tools("codex")}
    assert {t.name for t in host_tools("pi")} == {"bash", "edit", "find", "grep", "ls", "read", "write"}
