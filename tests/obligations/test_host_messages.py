"""A hook's feedback recorded in the user's place is the host's context, not a new task: read from the
real hosts' transcripts (``tests/fixtures/hosts``), and kept by the tracker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from obligations import (
    HostMessage,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    TrackerConfig,
    UserMessage,
    audit,
    event_from_dict,
)
from tests.obligations.transcript_files import codex, codex_run, read, write_jsonl

HOSTS = Path(__file__).resolve().parent.parent / "fixtures" / "hosts"
CLAUDE = HOSTS / "claude-code-fixed-after-block.jsonl"
"""Claude Code 2.1.332: `npm test` fails, a Stop block ("Stop hook feedback", isMeta), a fix, a genuine re-run."""
CODEX = HOSTS / "codex-fixed-after-block.jsonl"
"""Codex 0.171.0: the same session, the block recorded as a user message <hook_prompt …>."""


def entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def feedback_of(events: list[Any]) -> list[HostMessage]:
    return [event for event in events if isinstance(event, HostMessage)]


def test_claude_code_stop_hook_feedback_is_a_hidden_host_message() -> None:
    """Claude Code's `isMeta` "Stop hook feedback" entry is one hidden hook-feedback HostMessage, not the user's."""
    events = read(CLAUDE)
    (feedback,) = feedback_of(events)
    assert feedback.kind == "hook-feedback" and feedback.hidden
    assert feedback.text.startswith("Verification obligations are open (witness reminder 1 of 3")
    assert [event.text for event in events if isinstance(event, UserMessage)] == [
        "Make the failing test in sum.test.js pass."]


def test_claude_code_stop_hook_feedback_without_is_meta_is_still_host_context(tmp_path: Path) -> None:
    """The same entry as older versions wrote it (no `isMeta`, no hook markers) is a shown HostMessage and starts
    no task: the audit calls the re-run check resolved, not left behind by an earlier task."""
    plain = []
    for entry in entries(CLAUDE):
        if str((entry.get("message") or {}).get("content", "")).startswith("Stop hook feedback:\n"):
            entry = {key: value for key, value in entry.items()
                     if key not in ("isMeta", "rowSource", "hookText", "hookTextLead")}
        plain.append(entry)
    path = write_jsonl(tmp_path / "older.jsonl", plain)
    (feedback,) = feedback_of(read(path))
    assert not feedback.hidden
    report = audit(path)
    assert ([r.check for r in report.resolved], report.earlier, report.open) == (["npm test"], (), ())


def test_codex_hook_prompt_is_a_host_message() -> None:
    """Codex's user message `<hook_prompt hook_run_id=…>reason</hook_prompt>` is a HostMessage with the reason alone."""
    events = read(CODEX)
    (feedback,) = feedback_of(events)
    assert feedback.kind == "hook-feedback" and not feedback.hidden
    assert feedback.text.startswith("Verification obligations are open (witness reminder 1 of 3")
    assert feedback.text.endswith("say plainly in your answer that it is still failing.")
    assert [event.text for event in events if isinstance(event, UserMessage)] == [
        "Make the failing test in sum.test.js pass."]


def test_codex_audit_calls_a_check_rerun_after_a_block_resolved() -> None:
    """The Codex session re-ran the check genuinely after the block: resolved, not "earlier, unresolved"."""
    report = audit(CODEX)
    assert ([r.check for r in report.resolved], report.earlier, report.open) == (["npm test"], (), ())


def hook_message(text: str, provenance: bool = True) -> dict[str, Any]:
    payload: dict[str, Any] = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    if provenance:
        payload["internal_chat_message_metadata_passthrough"] = {
            "content_item_metadata": [{"provenance": {"type": "harness", "hook": True}}]}
    return codex("response_item", payload)


def test_codex_hook_prompts_are_recognised_by_tag_or_provenance(tmp_path: Path) -> None:
    """A hook prompt is host context whether the tag or the hook provenance says so; two prompts in one message are
    two HostMessages; a user who merely mentions the tag is still the user."""
    path = write_jsonl(tmp_path / "rollout.jsonl", [
        codex("session_meta", {"id": "thread-1", "cwd": "/repo"}),
        codex("event_msg", {"type": "user_message", "message": "fix it"}),
        hook_message("<hook_prompt hook_run_id=\"stop:1:/h.json\">first</hook_prompt>", provenance=False),
        hook_message("re-run the tests, a hook says"),
        hook_message('<hook_prompt hook_run_id="a">one</hook_prompt>\n<hook_prompt hook_run_id="b">two</hook_prompt>'),
        codex("event_msg", {"type": "user_message",
                            "message": '<hook_prompt hook_run_id="x">from an event</hook_prompt>'}),
        hook_message("what does <hook_prompt> mean?", provenance=False),
    ])
    events = read(path)
    assert [event.text for event in feedback_of(events)] == [
        "first", "re-run the tests, a hook says", "one", "two", "from an event"]
    assert [event.text for event in events if isinstance(event, UserMessage)] == [
        "fix it", "what does <hook_prompt> mean?"]


def test_an_unclosed_hook_prompt_tag_is_read_in_linear_time(tmp_path: Path) -> None:
    """Thousands of opening tags without a close are the user's text, read without backtracking over them."""
    text = "<hook_prompt x>" * 20_000
    path = write_jsonl(tmp_path / "rollout.jsonl", [codex("session_meta", {"id": "t", "cwd": "/r"}),
                                                    hook_message(text, provenance=False)])
    assert [type(event).__name__ for event in read(path)] == ["UserMessage"]


def failing_then(tracker: Tracker, between: Any) -> None:
    tracker.handle(UserMessage(text="make the tests pass"))
    tracker.handle(ToolDispatched(call_id="1", tool="Bash", arguments={"command": "npm test"}))
    tracker.handle(ToolCompleted(call_id="1", exit_code=1, output="Tests: 1 failed"))
    assert tracker.stop() is not None
    tracker.handle(between)
    tracker.handle(ToolDispatched(call_id="2", tool="Bash", arguments={"command": "npm test; echo done"}))
    tracker.handle(ToolCompleted(call_id="2", exit_code=0, output="done"))


def test_host_message_keeps_the_task_its_obligations_and_its_reminder_budget() -> None:
    """After a hook's feedback and a masked re-run the failed check stays open in the same task, with the reminder
    spent (a user message, by contrast, starts a new task and leaves the check behind)."""
    tracker = Tracker(TrackerConfig(escalation=None))
    failing_then(tracker, HostMessage(text="Verification obligations are open (witness reminder 1 of 3; …)"))
    task = tracker.current_task()
    assert task is not None and (task.reminders_used, task.reminders_left) == (1, 2)
    assert [item.check for item in tracker.open_items()] == ["npm test"] and tracker.ended_tasks() == []

    fresh = Tracker(TrackerConfig(escalation=None))
    failing_then(fresh, UserMessage(text="something else now"))
    assert fresh.open_items() == [] and [t.unresolved[0].check for t in fresh.ended_tasks()] == ["npm test"]


def test_host_message_round_trips_through_json() -> None:
    """`HostMessage` is in the event union: `event_from_dict` reads back what `model_dump` wrote."""
    event = HostMessage(text="reason", hidden=True, origin="s.jsonl:3")
    assert event_from_dict(event.model_dump(mode="json")) == event


def test_codex_hook_prompt_does_not_restart_the_hook_block_count(tmp_path: Path) -> None:
    """Replayed with a masked re-run after the block, the Codex session still holds `npm test` open in its first
    task, so a Stop hook's count goes on from there instead of starting again."""
    lines = entries(CODEX)
    (cut,) = [index for index, entry in enumerate(lines) if "<hook_prompt" in json.dumps(entry)]
    path = write_jsonl(tmp_path / "rollout.jsonl", [*lines[: cut + 1], *codex_run("c9", "npm test; echo x", 0, "ok")])
    report = audit(path)
    assert [r.check for r in report.open] == ["npm test"] and report.earlier == ()
    assert report.open[0].last_attempt is not None and report.open[0].last_attempt.reason.startswith("masked")
