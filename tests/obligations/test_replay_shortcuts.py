"""The work a replay saves gives the answers the plain way gives.

The shortcuts of the audit path are held to the straightforward computation they replace: a failed
check's summary reuses the failure line its judgement already found (instead of searching its output
again); the Claude Code rewind scan reads the file into one reused buffer whatever its chunk; the
tracker remembers the interpretation of calls that repeat; a line is decoded without a stripped copy,
and the replay decodes a good line itself rather than through parse_line; the readers make an event
from one dict, without validating it, as the model's keyword constructor would have made it; the Claude
Code reader reads a message of one block, and a user entry of one tool result, without its loops; and
the tracker and the replay's counts tell events apart by their class before any isinstance.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import shellparse
from obligations import (
    AssistantMessage,
    Event,
    NotAnEvent,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    TrackerConfig,
    UserMessage,
)
from obligations._calls import Interpreter, interpret
from obligations._judgements import judge
from obligations._redact import redact_line
from obligations._summary import judged_summary, last_line
from obligations.sources import _claude, _claude_branch
from obligations.sources._common import Stamp
from obligations.sources._lines import _parse_stripped, parse_line, raw_lines
from obligations.sources._replay import counted, read_events
from obligations.sources._report import TranscriptReport
from tests.obligations.transcript_files import FIXTURES, read

PROPERTY = settings(max_examples=200, deadline=None)

COMMANDS = ["pytest -q", "npm test", "cargo test", "go test ./...", "npx tsc --noEmit", "make check",
            "npm run lint && npm test", "ruff check . && pytest", "mise run test", "pytest -q | tail -5",
            "cargo fmt --check && cargo test", "go test ./... 2>&1 | grep FAIL", "make check && pytest -q",
            "npm test && cargo test", "mise run lint; go test ./...", "pytest -q; make lint"]
LINES = ["FAILED tests/test_a.py::test_x - AssertionError", "=== 1 failed, 3 passed in 0.20s ===",
         "Tests:       1 failed, 4 passed, 5 total", "test result: FAILED. 1 passed; 1 failed",
         "--- FAIL: TestCompute (0.00s)", "FAIL\tgithub.com/dev/app\t0.01s", "src/a.ts(1,2): error TS2322: no",
         "Found 3 errors in 2 files", "npm error command failed", "make: *** [check] Error 1",
         "ERROR: file or directory not found: tests/x.py", "Diff in src/lib.rs at line 3:",
         "all good", "collected 4 items", "", "   ", "Exit code 1", "[lint] ERROR task failed"]


def _reference_summary(validation: shellparse.Validation, exit_code: int | None, output: str,
                       error_message: str | None) -> str:
    """A failing status's summary computed the plain way: the output searched again with every marker of the check."""
    detail = shellparse.failure_evidence(validation, output) or last_line(error_message or output)
    status = f"exited {exit_code}" if exit_code is not None else "failed"
    return redact_line(f"{status}: {detail}" if detail else status)


@PROPERTY
@given(command=st.sampled_from(COMMANDS), lines=st.lists(st.sampled_from(LINES), max_size=8),
       exit_code=st.sampled_from([0, 1, 2, None]), is_error=st.booleans())
@example(command="pytest -q; make lint", lines=["FAILED tests/test_a.py::test_x - boom", "done"], exit_code=1,
         is_error=False)  # make's own search leaves pytest's markers out; its summary does not
def test_a_failure_summary_is_the_one_a_fresh_search_finds(command: str, lines: list[str], exit_code: int | None,
                                                           is_error: bool) -> None:
    """Every failed check's summary equals the summary made by searching its output again with all its own markers."""
    output = "\n".join(lines)
    call = interpret("Bash", {"command": command}, None, TrackerConfig())
    event = ToolCompleted(call_id="c1", exit_code=exit_code, is_error=is_error, output=output,
                          error_message=output if is_error else None)
    for judgement in judge(call, event):
        if judgement.verdict != "failed":
            continue
        check = judgement.check
        summary = judged_summary(judgement, event)
        if judgement.evidence is None or (check.failure_eligible and exit_code not in (0, None)):
            assert summary == _reference_summary(check.validation, exit_code, output, event.error_message)


def _entry(kind: str, ident: int, parent: int | None, text: str) -> dict[str, Any]:
    content: Any = text if kind == "prompt" else [{"type": "tool_result", "tool_use_id": f"t{ident}", "content": text}]
    return {"type": "assistant" if kind == "assistant" else "user", "uuid": f"u{ident}",
            "parentUuid": None if parent is None else f"u{parent}", "message": {"role": "user", "content": content}}


entries = st.lists(st.tuples(st.sampled_from(["prompt", "result", "assistant"]),
                             st.integers(min_value=0, max_value=6), st.text("ab \"\\\nü", max_size=30)),
                   max_size=14)


@PROPERTY
@given(rows=entries, chunk=st.integers(min_value=1, max_value=300), blank=st.booleans(), newline=st.booleans())
def test_the_prompts_found_do_not_depend_on_the_read_chunk(rows: list[tuple[str, int, str]], chunk: int,
                                                           blank: bool, newline: bool) -> None:
    """The prompts the rewind scan finds, in order, are the same for any chunk size as for one whole read."""
    lines = [json.dumps(_entry(kind, number, parent if parent < number else None, text))
             for number, (kind, parent, text) in enumerate(rows)]
    if blank:
        lines.insert(len(lines) // 2, "")
    data = "\n".join(lines) + ("\n" if newline else "")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.jsonl"
        path.write_text(data, encoding="utf-8")
        whole = _claude_branch._prompts(path)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_claude_branch, "_CHUNK", chunk)
            assert _claude_branch._prompts(path) == whole
    expected = [(entry["uuid"], entry["parentUuid"]) for entry in (json.loads(line) for line in lines if line)
                if entry["type"] == "user" and isinstance(entry["message"]["content"], str)]
    assert whole == expected


TOOLS = ["Bash", "bash", "Read", "Edit", "Write", "Grep", "exec_command", "shell", "TodoWrite", "mcp__x__y", "Task",
         "advisor", "PowerShell"]
ARGUMENTS = st.fixed_dictionaries({}, optional={
    "command": st.one_of(st.sampled_from(COMMANDS), st.lists(st.sampled_from(["bash", "-lc", "npm test", "ls"]),
                                                               max_size=4)),
    "cmd": st.sampled_from(COMMANDS), "file_path": st.sampled_from(["a.py", "src/b.ts"]),
    "patch": st.just("*** Update File: c.py\n"), "run_in_background": st.booleans()})


@PROPERTY
@given(calls=st.lists(st.tuples(st.sampled_from(TOOLS), ARGUMENTS, st.sampled_from([None, "bash", "pwsh"])),
                      min_size=1, max_size=12),
       limit=st.integers(min_value=1, max_value=4))
def test_a_remembered_interpretation_is_the_one_made_afresh(calls: list[tuple[str, dict[str, Any], Any]],
                                                            limit: int) -> None:
    """Whatever calls repeat, and however small its memory, the tracker's interpreter answers as interpret does."""
    config = TrackerConfig()
    remembering = Interpreter(config, limit=limit)
    for tool, arguments, shell in calls + calls:
        assert remembering(tool, arguments, shell) == interpret(tool, arguments, shell, config)


@PROPERTY
@given(value=st.one_of(st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=4)),
                                       max_size=3),
                       st.lists(st.integers(), max_size=2), st.integers(), st.text(max_size=4)),
       before=st.sampled_from(["", " ", "\t", "\r", "\x0c", "\x0b", "  \t"]),
       after=st.sampled_from(["", "\n", "\r\n", " \n", "\x0c\n", "\t"]),
       damage=st.sampled_from(["", "{", "}", "\"", ","]))
@example(value={}, before="", after="\n", damage="\\ud800")
def test_a_line_decoded_as_read_is_read_as_its_stripped_copy_would_be(value: Any, before: str, after: str,
                                                                       damage: str) -> None:
    """Blank, padded, damaged or good, a line gives the entry or the problem that stripping it first gives."""
    raw = (before + json.dumps(value) + damage + after).encode()
    assert parse_line(3, raw) == _parse_stripped(3, raw)  # the plain way: stripped first, then decoded


@pytest.mark.parametrize("kind, fields", [
    (ToolCompleted, {"call_id": "c1", "exit_code": 1, "is_error": True, "error_code": None,
                     "error_message": "Exit code 1", "output": "Exit code 1", "images": 0}),
    (ToolDispatched, {"call_id": "c1", "tool": "Bash", "arguments": {"command": "npm test"}, "cwd": None}),
    (AssistantMessage, {"text": "done", "reasoning": ""}),
])
@pytest.mark.parametrize("timestamp, ident", [("2026-11-20T10:00:00.000Z", "u1"), (None, None), ("late", "")])
def test_an_event_made_from_one_dict_is_the_one_its_constructor_makes(kind: Any, fields: dict[str, Any],
                                                                      timestamp: str | None, ident: str | None) -> None:
    """A reader's event made from one dict equals, field for field and in what was set, the keyword-made one."""
    stamp = Stamp("session.jsonl")
    stamp.at(12, timestamp, ident)
    made = stamp.event(kind, "worker", dict(fields))
    expected = kind(**fields, **stamp.base("worker"))
    assert made == expected
    assert made.model_fields_set == expected.model_fields_set
    assert made.model_dump() == expected.model_dump()


def test_an_event_made_from_one_dict_must_name_its_fields_exactly() -> None:
    """A field left out or one the event does not have is a bug of its maker, and raises."""
    with pytest.raises(TypeError):
        Stamp("session.jsonl").event(ToolCompleted, "root", {"exit_code": 1})
    with pytest.raises(TypeError):
        Stamp("session.jsonl").event(ToolCompleted, "root", {"call_id": "c1", "exit": 1})


def strictly_valid(event: Any) -> bool:
    """The event is what strict validation of the values it was given makes (every value of its field's type)."""
    given = {name: getattr(event, name) for name in event.model_fields_set}
    again = type(event).model_validate(given, strict=True)
    return bool(again == event and again.model_fields_set == event.model_fields_set)


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.jsonl")), ids=lambda path: path.name)
def test_every_event_read_from_a_real_transcript_is_strictly_valid(path: Path) -> None:
    """The events the readers make without validating are, in every shipped transcript, what validation makes."""
    for event in read(path):
        assert strictly_valid(event), event


BLOCK_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from(["", "x", "a\nb"]),
                         st.text(max_size=6), st.lists(st.text(max_size=3), max_size=2))
BLOCKS = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["tool_use", "text", "thinking", "server_tool_use",
                                                    "advisor_tool_result", "image", "redacted_thinking", ""])},
                          optional={"text": BLOCK_VALUES, "thinking": BLOCK_VALUES, "id": BLOCK_VALUES,
                                    "name": BLOCK_VALUES, "input": st.just({"command": "npm test"})}),
    st.dictionaries(st.sampled_from(["type", "text", "thinking"]), BLOCK_VALUES, max_size=2), BLOCK_VALUES)


@PROPERTY
@given(block=BLOCKS)
@example(block={"type": "thinking", "thinking": "x"})
@example(block={"type": "text", "text": "x"})
@example(block={"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "npm test"}})
def test_a_message_of_one_block_is_read_as_the_loop_over_blocks_reads_it(block: Any) -> None:
    """The calls, text, thinking and server flag read from one block without the loop are the loop's."""
    assert _claude._block(block) == _claude._blocks([block])


RESULTS = st.fixed_dictionaries(
    {"type": st.just("tool_result")},
    optional={"tool_use_id": st.sampled_from(["t1", "t2", "", 5]), "is_error": st.sampled_from([True, False, None]),
              "content": st.one_of(st.sampled_from(["Exit code 1\nFAILED x", "ok", "Error: Exit code 2", ""]),
                                   st.lists(st.fixed_dictionaries({"type": st.sampled_from(["text", "image"]),
                                                                   "text": st.sampled_from(["Exit code 1", "ok"])}),
                                            max_size=2), st.integers())})
DETAILS = st.one_of(st.none(), st.integers(), st.fixed_dictionaries({}, optional={
    "stdout": st.just("x"), "interrupted": st.booleans(), "backgroundTaskId": st.sampled_from(["b1", ""]),
    "returnCodeInterpretation": st.sampled_from(["No matches found", "Odd", ""])}))


def _read_user_entry(entry: dict[str, Any], dispatched: str | None) -> tuple[list[Any], Any]:
    """The events a fresh Claude Code reader makes of ``entry`` (after a Bash call ``t1`` when
    ``dispatched`` names its command), and its report."""
    report = TranscriptReport("session.jsonl", "claude-code")
    reader = _claude.ClaudeReader(Path("session.jsonl"), report)
    if dispatched is not None:
        reader.entry(1, {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": dispatched}}]}})
    events = reader.entry(2, entry)
    return events, (report.exit_codes, report.no_exit_code)


@PROPERTY
@given(result=RESULTS, detail=DETAILS, dispatched=st.sampled_from([None, "npm test", "sleep 9"]),
       other=st.sampled_from([{"type": "text", "text": "x"}, "x", {"type": "image"}]))
def test_a_lone_tool_result_is_read_as_the_list_of_results_reads_it(result: dict[str, Any], detail: Any,
                                                                     dispatched: str | None, other: Any) -> None:
    """A user entry of one tool result (read without the list of results) gives the events and counts
    the same result gives among blocks that are no results (read through the list)."""
    entry: dict[str, Any] = {"type": "user", "uuid": "u2", "timestamp": "2026-11-20T10:00:00.000Z",
                             "message": {"role": "user", "content": [result]}}
    if detail is not None:
        entry["toolUseResult"] = detail
    alone = _read_user_entry(entry, dispatched)
    among = _read_user_entry({**entry, "message": {"role": "user", "content": [other, result]}}, dispatched)
    assert alone == among


class _Recorder:
    """A reader that keeps every entry it is given and makes no event."""

    def __init__(self) -> None:
        self.entries: list[tuple[int, dict[str, Any]]] = []
        self.gaps: list[int] = []

    def entry(self, line: int, entry: dict[str, Any]) -> list[Any]:
        self.entries.append((line, entry))
        return []

    def gap(self, line: int) -> None:
        self.gaps.append(line)

    def finish(self) -> list[Any]:
        return []


LINE_VALUES = st.one_of(st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
                        st.lists(st.integers(), max_size=2), st.integers(), st.text(max_size=3), st.none())


@PROPERTY
@given(lines=st.lists(st.tuples(LINE_VALUES, st.sampled_from(["", " ", "\t", "\x0c"]),
                                st.sampled_from(["", "{", "}", "\"", ",", "\\ud800"])), max_size=8),
       blank=st.booleans(), ended=st.booleans())
def test_the_replay_reads_each_line_as_parse_line_reads_it(lines: list[tuple[Any, str, str]], blank: bool,
                                                           ended: bool) -> None:
    """Good, padded, blank, damaged or no object: the replay hands a reader the entries, and skips the
    lines with the problems, that parse_line gives line by line."""
    raws = [(before + json.dumps(value) + damage).encode() for value, before, damage in lines]
    if blank:
        raws.insert(len(raws) // 2, b"")
    data = b"\n".join(raws) + (b"\n" if ended and raws else b"")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.jsonl"
        path.write_bytes(data)
        report = TranscriptReport(str(path), "claude-code")
        reader = _Recorder()
        assert list(read_events(path, report, reader)) == []
        parsed = [parse_line(number, raw) for number, raw in raw_lines(path)]  # type: ignore[arg-type]
    assert reader.entries == [(line.number, line.entry) for line in parsed if line.entry is not None]
    assert report.skipped == [(line.number, line.problem) for line in parsed if line.problem is not None]
    assert reader.gaps == [number for number, _ in report.skipped]


class _Making(_Recorder):
    """A reader that makes the given events from the first entry it is given."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__()
        self.events = events

    def entry(self, line: int, entry: dict[str, Any]) -> list[Any]:
        super().entry(line, entry)
        return self.events if len(self.entries) == 1 else []


class _Dispatched(ToolDispatched):
    """An event class of a caller's own, derived from one of the library's."""


class _Completed(ToolCompleted):
    """Another."""


@pytest.mark.parametrize("derived", [False, True])
def test_events_of_a_derived_class_are_handled_and_counted_as_their_base_class(derived: bool) -> None:
    """A tracker and a replay's report treat an instance of a subclass of an event as that event
    (they tell the library's own classes apart without isinstance)."""
    dispatched: type[ToolDispatched] = _Dispatched if derived else ToolDispatched
    completed: type[ToolCompleted] = _Completed if derived else ToolCompleted
    events: list[Event] = [UserMessage(text="fix it"),
                           dispatched(call_id="c1", tool="Bash", arguments={"command": "npm test"}),
                           completed(call_id="c1", exit_code=1, output="Tests: 1 failed"),
                           AssistantMessage(text="done")]
    tracker = Tracker()
    ticks = [tracker.handle(event) for event in events]
    report = TranscriptReport("session.jsonl", "claude-code")
    assert list(counted(events, report)) == events
    assert ticks == [1, 2, 3, 4] and (report.events, report.tool_calls) == (4, 1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.jsonl"
        path.write_bytes(b'{"type": "user"}\n')
        replayed = TranscriptReport(str(path), "claude-code")
        assert list(read_events(path, replayed, _Making(events))) == events
    assert (replayed.events, replayed.tool_calls) == (4, 1)
    assert [item.check for item in tracker.open_items()] == ["npm test"]
    with pytest.raises(NotAnEvent):
        tracker.handle(object())  # type: ignore[arg-type]
