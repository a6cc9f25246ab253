"""The readers over real entries of every type, with values replaced by JSON of any other shape.

A reader skips an entry of the wrong shape and counts it; it never raises for input, and a real
entry left as it was is never skipped; every event they make is of the types strict validation
demands (they make events without validating them). The other half of the promise: a bug in a reader (a
``KeyError`` of its own) is raised, not hidden as a skipped line.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obligations import Tracker, event_from_json
from obligations.sources import NotATranscript, open_transcript
from obligations.sources._claude import ClaudeReader
from tests.obligations.test_replay_shortcuts import strictly_valid
from tests.obligations.transcript_files import FIXTURES

SHAPES = FIXTURES.parent / "entry_shapes"
"""One real entry of every shape per host (see that folder's README for where they come from)."""
HOSTS = ("claude", "codex", "pi")


def entries(host: str) -> list[dict[str, Any]]:
    """The real entries of ``host``: every shape from the real sessions, and the shipped fixtures' lines."""
    lines = (SHAPES / f"{host}.jsonl").read_text(encoding="utf-8").splitlines()
    for path in sorted((FIXTURES / host).glob("*.jsonl")):
        lines += path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


ENTRIES = {host: entries(host) for host in HOSTS}
HEADS = {host: ENTRIES[host][:2] for host in HOSTS}
"""Each file starts with its host's first real entries, so that it is read as that host's."""

NAMES = st.sampled_from([
    "user", "assistant", "system", "progress", "tool_use", "tool_result", "text", "message", "function_call",
    "function_call_output", "custom_tool_call", "local_shell_call", "exec_command_end", "session_meta",
    "response_item", "event_msg", "turn_context", "compacted", "toolCall", "toolResult", "bashExecution",
    "session", "compaction", "agent_progress", "compact_boundary", "Bash", "exec_command", "write_stdin", "bash",
    "Exit code 1", "Error: Exit code 2\n[Request interrupted by user]", "Exit code " + "9" * 5000,
    "Process exited with code " + "7" * 5000 + "\nOutput:\nx", "Command exited with code 3",
    "Process running with session ID 5\nOutput:\n", '{"output": "x", "metadata": {"exit_code": "1"}}',
    "[" * 3000 + "]" * 3000, '{"a":' * 3000 + "1" + "}" * 3000, "2026-13-45T99:99:99Z", "",
])
SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20) | NAMES)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
                      max_leaves=6)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path to every value inside ``value``."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:8]):
            yield from paths(item, (*prefix, index))


def replace(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for step in path[:-1]:
        value = value[step]
    value[path[-1]] = new


@st.composite
def mutated(draw: st.DrawFn, host: str) -> dict[str, Any]:
    """A real entry of ``host`` with one to three of its values replaced by JSON of another shape."""
    entry: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(ENTRIES[host])))
    for _ in range(draw(st.integers(1, 3))):
        where = list(paths(entry))
        if not where:
            break
        replace(entry, draw(st.sampled_from(where)), draw(VALUES))
    return entry


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[tuple[dict[str, Any], bool]]]:
    """A host and its file's entries after the head, each marked whether it was changed."""
    host = draw(st.sampled_from(HOSTS))
    body = draw(st.lists(st.one_of(mutated(host).map(lambda entry: (entry, True)),
                                   st.sampled_from(ENTRIES[host]).map(lambda entry: (entry, False))),
                         min_size=1, max_size=12))
    return host, body


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(sessions())
def test_entries_of_the_wrong_shape_never_stop_a_reader(tmp_path: Path,
                                                        session: tuple[str, list[tuple[dict[str, Any], bool]]]) -> None:
    """Every line is read; only changed entries are ever skipped; every event the readers make is a
    valid event the tracker takes."""
    host, body = session
    path = tmp_path / "session.jsonl"
    lines = [*((entry, False) for entry in HEADS[host]), *body]
    path.write_text("".join(json.dumps(entry) + "\n" for entry, _ in lines), encoding="utf-8")
    transcript = open_transcript(path)
    events = list(transcript.events())
    report = transcript.report
    assert report.complete and report.lines == len(lines)
    changed = {number for number, (_, mutated_entry) in enumerate(lines, start=1) if mutated_entry}
    malformed = {line for line, reason in report.skipped if reason.startswith("malformed")}
    assert malformed <= changed, report.skipped
    tracker = Tracker()
    for event in events:
        assert event_from_json(event.model_dump_json()).model_dump() == event.model_dump()
        assert strictly_valid(event), event  # made without validation, every value is of its field's type
        tracker.handle(event)


@pytest.mark.parametrize("host", HOSTS)
def test_every_real_entry_is_read_as_it_is(host: str, tmp_path: Path) -> None:
    """The real entries of every shape, unchanged, give no skipped line."""
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in ENTRIES[host]), encoding="utf-8")
    transcript = open_transcript(path)
    list(transcript.events())
    assert transcript.report.skipped == [] and transcript.report.complete


def test_a_bug_in_a_reader_is_raised_not_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that fails with an exception of its own (not a malformed-entry verdict) stops the
    stream with that exception, so the bug is seen."""
    def broken(self: ClaudeReader, entry: dict[str, Any], agent: str) -> list[Any]:
        raise KeyError("a key the reader forgot to check")

    monkeypatch.setattr(ClaudeReader, "_assistant", broken)
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in ENTRIES["claude"]), encoding="utf-8")
    with pytest.raises(KeyError, match="forgot"):
        list(open_transcript(path).events())


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(host=st.sampled_from(HOSTS), data=st.data())
def test_judging_the_format_of_odd_first_lines_never_fails(tmp_path: Path, host: str, data: st.DataObject) -> None:
    """A file whose first lines are changed real entries is read as some host's, or refused as not a
    transcript with the reason (when it is opened, or once read when its reader knew none of its
    entries); nothing else."""
    first = data.draw(st.lists(mutated(host), min_size=1, max_size=3))
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in first), encoding="utf-8")
    try:
        transcript = open_transcript(path)
        list(transcript.events())
    except NotATranscript as refused:
        assert refused.reason
        return
    assert transcript.report.complete


def test_an_exit_code_of_thousands_of_digits_is_a_malformed_entry(tmp_path: Path) -> None:
    """No integer is made of 5,000 digits: the entry is skipped with that reason, the rest is read."""
    digits = "9" * 5000
    claude = [*HEADS["claude"],
              {"type": "assistant", "sessionId": "s", "message": {"id": "m1", "role": "assistant", "content": [
                  {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "npm test"}}]}},
              {"type": "user", "sessionId": "s", "message": {"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content": f"Exit code {digits}"}]}}]
    codex = [*HEADS["codex"],
             {"timestamp": "t", "type": "response_item", "payload": {
                 "type": "function_call", "name": "exec_command", "arguments": '{"cmd": "npm test"}', "call_id": "c1"}},
             {"timestamp": "t", "type": "response_item", "payload": {
                 "type": "function_call_output", "call_id": "c1",
                 "output": f"Process exited with code {digits}\nOutput:\nfailed"}}]
    for host, lines in (("claude", claude), ("codex", codex)):
        path = tmp_path / f"{host}.jsonl"
        path.write_text("".join(json.dumps(entry) + "\n" for entry in lines), encoding="utf-8")
        transcript = open_transcript(path)
        list(transcript.events())
        assert transcript.report.skipped == [(len(lines), "malformed user entry: an exit code of 5000 digits")
                                             if host == "claude" else
                                             (len(lines), "malformed response_item entry: an exit code of 5000 digits")]


def test_an_entry_whose_id_is_no_string_is_replayed_after_a_rewind(tmp_path: Path) -> None:
    """In a session with a rewind, an entry whose uuid is a list is read, not a crash of the reader."""
    rows = [{"type": "user", "uuid": "a", "parentUuid": "r", "message": {"role": "user", "content": "one"}},
            {"type": "user", "uuid": "b", "parentUuid": "r", "message": {"role": "user", "content": "two"}},
            {"type": "assistant", "uuid": ["x"], "parentUuid": "b",
             "message": {"role": "assistant", "id": "m1", "content": [{"type": "text", "text": "hi"}]}}]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    transcript = open_transcript(path)
    events = list(transcript.events())
    assert transcript.report.abandoned == 1 and [event.type for event in events][-1] == "assistant_message"
