"""The readers on bad input: truncated, corrupt, binary, empty, unknown and huge files never raise."""

from __future__ import annotations

import json
import random
import shutil
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obligations import ToolDispatched, Tracker
from obligations.sources import NotATranscript, detect_format, open_transcript
from obligations.sources._lines import read_lines
from tests.obligations.transcript_files import ALL, EACH_FIXTURE, FIXTURES


def dumps(events: list[Any]) -> list[dict[str, Any]]:
    return [event.model_dump() for event in events]


def without_origin(events: list[Any]) -> list[dict[str, Any]]:
    """The events without where they were read from: their line (``origin``, and the ``L<line>`` entry id
    of entries the host gave no id)."""
    return [event.model_dump(exclude={"origin"} | ({"entry_id"} if (event.entry_id or "").startswith("L") else set()))
            for event in events]


def copy(source: Path, target: Path) -> Path:
    shutil.copyfile(source, target)
    return target


@EACH_FIXTURE
def test_truncated_last_line_is_skipped_and_counted(path: Path, tmp_path: Path) -> None:
    """A half-written last line (no newline, incomplete JSON) is skipped with its line number; every complete
    line still yields the same events."""
    whole = list(open_transcript(path).events())
    damaged = copy(path, tmp_path / path.name)
    last = path.read_bytes().splitlines()[-1]
    with damaged.open("ab") as handle:
        handle.write(last[: len(last) // 2])
    transcript = open_transcript(damaged)
    events = list(transcript.events())
    number = len(path.read_bytes().splitlines()) + 1
    assert transcript.report.skipped == [
        (number, "truncated: the last line ends without a newline and its JSON is incomplete")]
    assert transcript.report.skipped_count == 1 and transcript.report.complete
    assert dumps(events) == dumps(whole)


def test_binary_garbage_is_not_a_transcript(tmp_path: Path) -> None:
    """Random bytes and a PNG raise NotATranscript saying the file is binary; detect_format says None."""
    garbage = tmp_path / "session.jsonl"
    garbage.write_bytes(random.Random(7).randbytes(4096))
    png = tmp_path / "shot.jsonl"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    for path in (garbage, png):
        with pytest.raises(NotATranscript, match="binary data") as caught:
            open_transcript(path)
        assert caught.value.path == str(path)
        assert detect_format(path) is None


def test_empty_and_blank_files_are_not_transcripts(tmp_path: Path) -> None:
    """A 0-byte file and a file of blank lines raise NotATranscript with a clear reason."""
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n  \n\n", encoding="utf-8")
    with pytest.raises(NotATranscript, match="the file is empty"):
        open_transcript(empty)
    with pytest.raises(NotATranscript, match="only blank lines"):
        open_transcript(blank)


def test_other_text_and_json_are_not_transcripts(tmp_path: Path) -> None:
    """Prose, a pretty-printed JSON document, JSON Lines of another shape, `codex exec --json` output, a
    directory and a missing file each get their own clear reason."""
    cases = {
        "README.md": ("# Title\n\nSome prose.\n", "not JSON Lines"),
        "package.json": ('{\n  "name": "app",\n  "version": "1.0.0"\n}\n', "one JSON document"),
        "events.jsonl": ('{"name": "a", "value": 1}\n{"name": "b", "value": 2}\n', "no transcript shape"),
        "exec.jsonl": ('{"type":"thread.started","thread_id":"t"}\n{"type":"turn.started"}\n', "codex exec --json"),
        "latin1.jsonl": ("caf\xe9 au lait\n", "not UTF-8 text"),
    }
    for name, (text, reason) in cases.items():
        path = tmp_path / name
        path.write_bytes(text.encode("latin-1") if name == "latin1.jsonl" else text.encode())
        with pytest.raises(NotATranscript, match=reason):
            open_transcript(path)
    with pytest.raises(NotATranscript, match="a directory"):
        open_transcript(tmp_path)
    with pytest.raises(NotATranscript, match="cannot be read"):
        open_transcript(tmp_path / "missing.jsonl")


def test_a_directory_of_mixed_files_is_handled_by_the_callers_loop(tmp_path: Path) -> None:
    """Looping over a directory, the caller replays every transcript and gets a reason for everything else,
    without an exception escaping."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    for source in ALL:
        copy(source, folder / f"{source.parent.name}-{source.name}")
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "notes.txt").write_text("hello\n", encoding="utf-8")
    (folder / "nested").mkdir()
    replayed, refused = {}, {}
    for path in sorted(folder.iterdir()):
        try:
            transcript = open_transcript(path)
        except NotATranscript as error:
            refused[path.name] = error.reason
            continue
        tracker = Tracker()
        tracker.handle_many(transcript.events())
        replayed[path.name] = (transcript.format, transcript.report.skipped_count, len(tracker.open_items()))
    assert len(replayed) == 6 and all(skipped == 0 and open_ == 0 for _, skipped, open_ in replayed.values())
    assert {fmt for fmt, _, _ in replayed.values()} == {"claude-code", "codex", "pi"}
    assert refused == {"empty.jsonl": "the file is empty", "image.png": "it holds binary data, not text",
                       "nested": "it is a directory",
                       "notes.txt": "it is not JSON Lines (no line among the first is a JSON object)"}


@EACH_FIXTURE
def test_a_line_of_invalid_utf8_is_skipped_with_its_number(path: Path, tmp_path: Path) -> None:
    """A line with bytes that are not UTF-8 is skipped and reported by line number; the rest is read."""
    lines = path.read_bytes().splitlines(keepends=True)
    at = len(lines) // 2
    lines.insert(at, b'{"type":"user","message":"caf\xe9\xff"}\n')
    damaged = tmp_path / path.name
    damaged.write_bytes(b"".join(lines))
    transcript = open_transcript(damaged)
    events = list(transcript.events())
    assert transcript.report.skipped == [(at + 1, "not valid UTF-8 (byte 30)")]
    assert without_origin(events) == without_origin(list(open_transcript(path).events()))


def test_unknown_entry_types_are_ignored_and_counted(tmp_path: Path) -> None:
    """Valid JSON entries of types no reader knows change no event and are counted by type, not skipped."""
    additions: dict[str, list[dict[str, Any]]] = {
        "claude": [{"type": "brand-new-thing", "sessionId": "x"}, {"type": "brand-new-thing"}, {"uuid": "no type"}],
        "codex": [{"timestamp": "t", "type": "future_line", "payload": {}},
                  {"timestamp": "t", "type": "response_item", "payload": {"type": "hologram", "call_id": "x"}}],
    }
    expected = {"claude": {"brand-new-thing": 2, "(untyped)": 1},
                "codex": {"future_line": 1, "response_item:hologram": 1}}
    for host, extra in additions.items():
        source = FIXTURES / host / "convo.jsonl"
        target = copy(source, tmp_path / f"{host}.jsonl")
        with target.open("a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(entry) + "\n" for entry in extra)
        transcript = open_transcript(target)
        events = list(transcript.events())
        assert without_origin(events) == without_origin(list(open_transcript(source).events()))
        assert transcript.report.unknown_types == expected[host]
        assert transcript.report.skipped_count == 0
    pi = copy(FIXTURES / "pi" / "convo.jsonl", tmp_path / "pi.jsonl")
    with pi.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "hologram", "id": "zz1", "parentId": "2abb4107"}) + "\n")
        robot = {"type": "message", "id": "zz2", "parentId": "zz1", "message": {"role": "robot"}}
        handle.write(json.dumps(robot) + "\n")
    transcript = open_transcript(pi)
    assert len(list(transcript.events())) == 2
    assert transcript.report.unknown_types == {"hologram": 1, "message:robot": 1}


def test_malformed_known_entries_are_skipped_not_raised(tmp_path: Path) -> None:
    """Known entry types with the wrong shapes (a payload that is a list, a tool_use id that is a number, a
    content of the wrong type) are skipped or ignored with a reason; the stream goes on."""
    codex = copy(FIXTURES / "codex" / "convo-compacted.jsonl", tmp_path / "codex.jsonl")
    with codex.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"timestamp": 5, "type": "response_item", "payload": [1, 2]}) + "\n")
        handle.write(json.dumps({"timestamp": "x", "type": "response_item", "payload": {
            "type": "function_call", "name": 5, "arguments": "{not json", "call_id": 7}}) + "\n")
        handle.write("[1, 2, 3]\n")
    transcript = open_transcript(codex)
    events = list(transcript.events())
    assert transcript.report.skipped == [(97, "malformed response_item entry: the payload is not a JSON object"),
                                         (99, "not a JSON object (a JSON array)")]
    odd = events[-1]
    assert isinstance(odd, ToolDispatched)
    assert (odd.tool, odd.arguments, odd.time) == ("unknown", {"arguments": "{not json"}, None)


def test_an_overlong_line_is_skipped_without_being_held() -> None:
    """A line longer than the limit is reported and drained, and the next line is still read."""
    path = FIXTURES / "codex" / "convo.jsonl"
    lines = list(read_lines(path, max_bytes=2000))
    longest = max(range(len(lines)), key=lambda i: len(path.read_bytes().splitlines()[i]))
    assert lines[longest].problem == "longer than 2000 bytes; not read"
    assert [line.number for line in lines] == list(range(1, len(lines) + 1))
    assert lines[-1].entry is not None


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                         ["type", "message", "content", "payload", "id", "parentId", "role", "call_id", "output",
                          "name", "arguments", "is_error", "tool_use_id", "isSidechain", "agentId", "exitCode",
                          "toolCallId", "isError", "text", "input", "source", "exit_code", "data", "timestamp"]),
                         inner, max_size=4), max_leaves=12)
_types = st.sampled_from(["user", "assistant", "system", "progress", "response_item", "event_msg", "session_meta",
                          "message", "session", "compaction", "tool_result", "function_call_output"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_entries_of_real_types_never_raise(data: st.DataObject, tmp_path: Path) -> None:
    """Fixture lines replaced by random JSON of real entry types (and random bytes) are read and replayed
    through the tracker without an exception, or refused as no host's session (a first line of one host's
    kind on a file none of whose entries its reader knows)."""
    source = data.draw(st.sampled_from(ALL))
    lines = source.read_bytes().splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(lines) - 1))
        entry = data.draw(st.dictionaries(st.sampled_from(["message", "payload", "data", "toolUseResult"]), _json,
                                          max_size=3))
        entry["type"] = data.draw(_types)
        if data.draw(st.booleans()):
            entry["payload"] = data.draw(st.dictionaries(st.just("type"), _types) | _json)
        lines[at] = json.dumps(entry).encode() if data.draw(st.booleans()) else data.draw(st.binary(max_size=40))
    target = tmp_path / "fuzzed.jsonl"
    target.write_bytes(b"\n".join(lines) + b"\n")
    try:
        transcript = open_transcript(target)
    except NotATranscript:
        return
    try:
        Tracker().handle_many(transcript.events())
    except NotATranscript as refusal:
        assert "none of its" in str(refusal)
        return
    assert transcript.report.complete


@pytest.mark.slow
def test_a_million_entries_stream_in_bounded_memory(tmp_path: Path) -> None:
    """A 1,000,000-line rollout (over 100 MB) is read to its end, and reading its second half allocates no more
    than a few megabytes at peak: memory does not grow with the file."""
    path = tmp_path / "rollout.jsonl"
    noise = json.dumps({"timestamp": "2026-06-10T18:43:04.714Z", "type": "event_msg", "payload": {
        "type": "token_count", "info": {"total_token_usage": {"input_tokens": 13973, "output_tokens": 623}}}})
    with path.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"timestamp": "t", "type": "session_meta", "payload": {"id": "s", "cwd": "/r"}}) + "\n")
        for block in range(999):
            call = json.dumps({"timestamp": "t", "type": "response_item", "payload": {
                "type": "function_call", "name": "exec_command", "arguments": '{"cmd": "ls"}', "call_id": f"c{block}"}})
            result = json.dumps({"timestamp": "t", "type": "response_item", "payload": {
                "type": "function_call_output", "call_id": f"c{block}", "output": "Process exited with code 0\n"}})
            handle.write(call + "\n" + result + "\n" + (noise + "\n") * 998)
        handle.write((noise + "\n") * 999)
    assert path.stat().st_size > 100_000_000
    transcript = open_transcript(path)
    events = transcript.events()
    count = sum(1 for _, _ in zip(range(1000), events, strict=False))
    tracemalloc.start()
    try:
        count += sum(1 for _ in events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    report = transcript.report
    assert (report.lines, report.tool_calls, count, report.skipped_count, report.complete) == (
        1_000_000, 999, 1998, 0, True)
    assert peak < 5_000_000


@pytest.mark.parametrize("path", [FIXTURES / "claude" / "convo.jsonl", FIXTURES / "pi" / "convo.jsonl"],
                         ids=["claude", "pi"])
def test_a_file_that_vanishes_before_reading_ends_the_stream_with_an_error(path: Path, tmp_path: Path) -> None:
    """A transcript removed between opening and reading yields no events and records why, without raising."""
    target = copy(path, tmp_path / path.name)
    transcript = open_transcript(target)
    target.unlink()
    assert list(transcript.events()) == []
    assert transcript.report.error is not None and "No such file" in transcript.report.error
    assert not transcript.report.complete
