"""The transcript readers on the six real fixtures: counts, detection, tracker round trips."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from obligations import (
    AgentSpawned,
    Compaction,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
    classify,
    event_from_json,
)
from obligations.sources import FORMATS, NotATranscript, Transcript, detect_format, open_transcript
from tests.obligations.transcript_files import ALL, EACH_FIXTURE, FIXTURES

FORMAT_OF_DIR = {"claude": "claude-code", "codex": "codex", "pi": "pi"}


def count_tool_calls(path: Path) -> int:
    """Tool calls in a transcript, counted straight from the raw JSON (independently of the readers)."""
    count = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        entry: dict[str, Any] = json.loads(raw)
        kind = entry.get("type")
        message = entry.get("message")
        if kind == "assistant" and isinstance(message, dict) and isinstance(message.get("content"), list):
            count += sum(1 for block in message["content"] if block.get("type") == "tool_use")
        elif kind == "user" and isinstance(message, dict) and isinstance(message.get("content"), str):
            count += message["content"].startswith("<bash-input>")
        elif kind == "response_item":
            payload = entry["payload"]
            if payload["type"] in ("function_call", "custom_tool_call", "local_shell_call", "tool_search_call"):
                count += payload.get("name") != "write_stdin"
        elif kind == "message" and isinstance(message, dict):
            if message.get("role") == "assistant" and isinstance(message.get("content"), list):
                count += sum(1 for part in message["content"] if part.get("type") == "toolCall")
            count += message.get("role") == "bashExecution"
    return count


def events_of(path: Path) -> tuple[Transcript, list[Any]]:
    transcript = open_transcript(path)
    return transcript, list(transcript.events())


def test_the_six_fixtures_are_present() -> None:
    """All six copied fixtures are there, two per host, so the parametrised tests below run on each."""
    assert [str(path.relative_to(FIXTURES)) for path in ALL] == [
        "claude/convo-compacted.jsonl", "claude/convo.jsonl", "codex/convo-compacted.jsonl", "codex/convo.jsonl",
        "pi/convo-compacted.jsonl", "pi/convo.jsonl"]


@EACH_FIXTURE
def test_fixture_reads_without_a_skipped_line(path: Path) -> None:
    """Every fixture is read to its end with no skipped line, no unknown entry type and no read error."""
    transcript, events = events_of(path)
    report = transcript.report
    assert transcript.format == FORMAT_OF_DIR[path.parent.name]
    assert (report.skipped_count, report.skipped, report.unknown_types, report.error) == (0, [], {}, None)
    assert report.complete
    assert report.lines == len(path.read_bytes().splitlines())
    assert report.events == len(events) > 0


@EACH_FIXTURE
def test_fixture_yields_exactly_the_tool_calls_in_its_json(path: Path) -> None:
    """The reader dispatches exactly as many calls as an independent count of the raw JSON finds."""
    transcript, events = events_of(path)
    dispatched = [event for event in events if isinstance(event, ToolDispatched)]
    assert len(dispatched) == transcript.report.tool_calls == count_tool_calls(path)
    assert len({event.call_id for event in dispatched}) == len(dispatched)


@EACH_FIXTURE
def test_fixture_events_round_trip_through_the_tracker_and_open_nothing(path: Path) -> None:
    """Every event is valid JSON-round-trippable input for the tracker, and no fixture opens an obligation
    (none runs a test, lint or typecheck command)."""
    _, events = events_of(path)
    tracker = Tracker()
    for event in events:
        assert event_from_json(event.model_dump_json()).model_dump() == event.model_dump()
        tracker.handle(event)
    assert tracker.all_items() == []
    assert all(not task["unresolved"] for task in tracker.snapshot()["ended_tasks"])
    assert tracker.lost_results == 0


@EACH_FIXTURE
def test_fixture_events_carry_file_and_line_origins(path: Path) -> None:
    """Each event's origin is `<file name>:<line>` for a real line, and origins never go backwards."""
    _, events = events_of(path)
    lines = [int(event.origin.rsplit(":", 1)[1]) for event in events]
    assert all(event.origin.startswith(f"{path.name}:") for event in events)
    assert lines == sorted(lines)
    assert max(lines) <= len(path.read_bytes().splitlines())


@EACH_FIXTURE
def test_format_is_detected_from_content_not_name(path: Path, tmp_path: Path) -> None:
    """A fixture renamed to a misleading name (another host's name, a .txt) is still recognised by content."""
    expected = FORMAT_OF_DIR[path.parent.name]
    wrong = next(name for name in FORMAT_OF_DIR if FORMAT_OF_DIR[name] != expected)
    for name in (f"{wrong}-session.jsonl", "rollout-2026-01-01.txt", "notes"):
        copy = tmp_path / name
        shutil.copyfile(path, copy)
        assert detect_format(copy) == expected
        assert open_transcript(copy).format == expected


def test_claude_fixture_bash_calls_and_their_refusals() -> None:
    """convo.jsonl has 8 Bash calls; the five errored ones are permission refusals the tracker classifies as such,
    and the three others are read as exit 0."""
    _, events = events_of(FIXTURES / "claude" / "convo.jsonl")
    bash = {event.call_id for event in events if isinstance(event, ToolDispatched) and event.tool == "Bash"}
    results = [event for event in events if isinstance(event, ToolCompleted) and event.call_id in bash]
    assert len(bash) == len(results) == 8
    refused = [event for event in results if event.is_error]
    assert len(refused) == 5
    assert all(event.exit_code is None and event.error_code == "permission_denied" for event in refused)
    assert all(classify(None, e.exit_code, e.is_error, e.error_code, e.error_message) == "permission-denial"
               for e in refused)
    assert [event.exit_code for event in results if not event.is_error] == [0, 0, 0]


def test_claude_compacted_fixture() -> None:
    """convo-compacted.jsonl has 4 Bash calls, one Compaction carrying the summary, and the `/compact`
    command and its echoed output are not user messages."""
    _, events = events_of(FIXTURES / "claude" / "convo-compacted.jsonl")
    assert sum(isinstance(e, ToolDispatched) and e.tool == "Bash" for e in events) == 4
    compactions = [event for event in events if isinstance(event, Compaction)]
    assert len(compactions) == 1
    assert compactions[0].summary.startswith("This session is being continued from a previous conversation")
    assert [event.origin for event in events if isinstance(event, UserMessage)] == ["convo-compacted.jsonl:3"]


def test_codex_fixture_subagent_and_its_one_call() -> None:
    """codex/convo.jsonl is a forked sub-agent's rollout: announced first, all events its own, one exec_command
    that exited 0."""
    transcript, events = events_of(FIXTURES / "codex" / "convo.jsonl")
    spawned = events[0]
    assert isinstance(spawned, AgentSpawned)
    assert (spawned.agent_id, spawned.parent_id, spawned.role) == (
        "019e03b2-11a2-7320-9098-5d831813e66c", "root", "local-subagent")
    assert {event.agent_id for event in events} == {spawned.agent_id}
    calls = [event for event in events if isinstance(event, ToolDispatched)]
    assert [(call.tool, call.arguments["cmd"]) for call in calls] == [("exec_command", "wc -w notes.md")]
    assert [e.exit_code for e in events if isinstance(e, ToolCompleted)] == [0]
    assert transcript.report.session_id == spawned.agent_id
    assert transcript.report.subagents == 1


def test_codex_compacted_fixture_exit_codes_and_edits() -> None:
    """The six exec_command calls' exit codes come from Codex's output header (one exits 1), apply_patch calls
    arrive as edits with their patch, and the compaction is one Compaction."""
    transcript, events = events_of(FIXTURES / "codex" / "convo-compacted.jsonl")
    calls = {event.call_id: event for event in events if isinstance(event, ToolDispatched)}
    results = {event.call_id: event for event in events if isinstance(event, ToolCompleted)}
    execs = [(call.arguments["cmd"], results[ident].exit_code) for ident, call in calls.items()
             if call.tool == "exec_command"]
    assert execs == [("ls -la", 0), ("cat notes.md", 0), ("find . -maxdepth 1 -name 'note*'", 0),
                     ("grep -r fixture .", 0), ("cat does-not-exist.txt", 1), ("bash count.sh", 0)]
    listing = results[next(i for i, c in calls.items() if c.arguments["cmd"] == "ls -la")].output
    assert listing is not None and listing.startswith("total 8")
    patches = [call for call in calls.values() if call.tool == "apply_patch"]
    assert len(patches) == 3 and all(call.arguments["input"].startswith("*** Begin Patch") for call in patches)
    assert all(call.cwd == transcript.report.cwd for call in calls.values())
    assert sum(isinstance(event, Compaction) for event in events) == 1
    assert (transcript.report.exit_codes, transcript.report.no_exit_code) == (6, 0)


def test_pi_fixtures_have_no_tool_calls_and_keep_their_compactions() -> None:
    """Pi's convo.jsonl printed its tool calls as text (no calls); convo-compacted.jsonl has two compactions."""
    _, plain = events_of(FIXTURES / "pi" / "convo.jsonl")
    _, compacted = events_of(FIXTURES / "pi" / "convo-compacted.jsonl")
    assert [type(event).__name__ for event in plain] == ["UserMessage", "AssistantMessage"]
    assert [type(event).__name__ for event in compacted] == [
        "UserMessage", "AssistantMessage", "Compaction", "UserMessage", "AssistantMessage", "Compaction"]


def test_report_is_fresh_for_each_pass_and_serialisable() -> None:
    """Reading twice gives the same events and a report that starts over; the report is plain JSON."""
    transcript = open_transcript(FIXTURES / "codex" / "convo-compacted.jsonl")
    first = [event.model_dump() for event in transcript.events()]
    second = [event.model_dump() for event in transcript]
    assert first == second
    assert transcript.report.events == len(second)
    data = json.loads(json.dumps(transcript.report.to_dict()))
    assert data["format"] == "codex" and data["tool_calls"] == 13 and data["complete"] is True
    assert "codex: 96 lines" in transcript.report.summary()


def test_public_api() -> None:
    """The package exports what it documents, and a Transcript refuses an unknown format name."""
    import obligations.sources as sources

    assert sorted(sources.__all__) == sorted(["FORMATS", "NotATranscript", "Position", "Resume", "Transcript",
                                              "TranscriptReport", "detect_format", "file_kind", "host_tools",
                                              "open_transcript"])
    assert FORMATS == ("claude-code", "codex", "pi", "copilot", "gemini", "qwen", "droid")
    assert issubclass(NotATranscript, ValueError)
    with pytest.raises(ValueError, match="unknown transcript format"):
        Transcript(FIXTURES / "pi" / "convo.jsonl", "cursor")  # type: ignore[arg-type]  # a caller's mistake
