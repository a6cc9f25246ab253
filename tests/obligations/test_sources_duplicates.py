"""Entries a host writes twice are read once, never as a rewind; a file no reader understands is refused.

Claude Code writes a session's entries again when VS Code reopens it (anthropics/claude-code #56196:
the same uuid and timestamp, ambient fields such as ``cwd`` changed) and with stream-json input
(#5034); ``cat session session`` does the same. Each copy must audit exactly as the original."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obligations import NotATranscript, ToolDispatched, UserMessage, audit
from obligations.sources import Transcript, open_transcript
from tests.obligations.test_sources_formats import bash, claude, result
from tests.obligations.test_sources_verdicts import chained, rewound
from tests.obligations.transcript_files import FIXTURES, write_jsonl

CLAUDE = sorted(FIXTURES.rglob("claude/*.jsonl"))
"""Every shipped Claude Code session (the real ones too)."""
PROPERTY = settings(max_examples=100, deadline=None)
EACH_CLAUDE = pytest.mark.parametrize("path", CLAUDE, ids=lambda path: f"{path.parent.parent.name}/{path.name}")


def audited(path: Path, lines: dict[int, int] | None = None) -> dict[str, Any]:
    """The audit of ``path`` as plain JSON, without what a copy changes: its path, its count of lines and of
    duplicates; transcript line numbers mapped back to the original's through ``lines``."""
    report = audit(path).to_dict()
    for key in ("path", "lines", "duplicates"):
        report.pop(key)
    text = json.dumps(report, sort_keys=True)
    if lines is not None:
        name = re.escape(path.name)
        text = re.sub(rf"({name}):(\d+)", lambda found: f"{found.group(1)}:{lines[int(found.group(2))]}", text)
    return dict(json.loads(text))


@EACH_CLAUDE
def test_a_claude_session_written_twice_over_audits_as_itself(path: Path, tmp_path: Path) -> None:
    """`cat s s` of every shipped Claude Code session audits exactly like the session: no rewind, nothing dropped."""
    copy = tmp_path / path.name
    data = path.read_bytes()
    copy.write_bytes(data + data)
    original = audited(path)
    assert audited(copy) == original
    transcript = open_transcript(copy)
    list(transcript.events())
    with_ids = sum(1 for line in data.splitlines() if line.strip() and isinstance(json.loads(line).get("uuid"), str))
    assert transcript.report.duplicates == with_ids


@EACH_CLAUDE
def test_a_claude_session_reopened_by_vs_code_audits_as_itself(path: Path, tmp_path: Path) -> None:
    """Every entry of every shipped Claude Code session written again right after itself, as VS Code's reopening
    does (same uuid and time; another cwd, branch, version and parent): the audit is the original's."""
    copy, lines = tmp_path / path.name, {}
    with path.open("rb") as source, copy.open("wb") as target:
        number = 0
        for original, raw in enumerate(source, start=1):
            number += 1
            target.write(raw)
            lines[number] = original
            entry = json.loads(raw) if raw.strip() else None
            if isinstance(entry, dict) and isinstance(entry.get("uuid"), str):
                again = entry | {"cwd": "/elsewhere", "gitBranch": "other", "version": "9.9.9",
                                 "parentUuid": "reopened-" + str(entry.get("parentUuid"))}
                target.write(json.dumps(again).encode() + b"\n")
                number += 1
                lines[number] = original
    assert audited(copy, lines) == audited(path)


def test_a_real_rewind_still_abandons_its_branch_when_the_session_is_duplicated(tmp_path: Path) -> None:
    """A session with a `/rewind`, written twice over: the replaced prompt's failing pytest still opens nothing."""
    entries = rewound(rewind=True)
    transcript = open_transcript(write_jsonl(tmp_path / "rewound.jsonl", entries + entries))
    events = list(transcript.events())
    assert [e.call_id for e in events if isinstance(e, ToolDispatched)] == ["t2"]
    prompts = [e.text for e in events if isinstance(e, UserMessage)]
    assert prompts == ["make the tests pass", "no: run the linter instead"]
    assert (transcript.report.abandoned, transcript.report.duplicates) == (3, 7)


def test_a_prompt_written_again_under_another_parent_is_no_rewind(tmp_path: Path) -> None:
    """The same prompt (uuid and time) written later as the child of another entry replaces nothing: the failure
    after it stays open."""
    prompt = claude("user", "fix the tests")
    entries = chained([claude("user", "start"), prompt, bash("t1", "pytest -q"),
                       result("t1", "Exit code 1\n1 failed in 0.1s", True)])
    again = prompt | {"parentUuid": entries[2]["uuid"], "cwd": "/elsewhere"}  # a sibling of the call
    report = audit(write_jsonl(tmp_path / "s.jsonl", [*entries, again]))
    assert [row.check for row in report.open] == ["pytest -q"] and report.abandoned == 0 and report.duplicates == 1


def test_an_entry_with_the_same_uuid_but_another_time_is_read(tmp_path: Path) -> None:
    """Only the same uuid *and* time is the same entry: a prompt with a reused uuid and a new time is read."""
    first = claude("user", "one")
    later = first | {"timestamp": "2026-05-07T19:00:00.000Z", "message": {"role": "user", "content": "two"}}
    events = list(open_transcript(write_jsonl(tmp_path / "s.jsonl", [first, later])).events())
    assert [e.text for e in events if isinstance(e, UserMessage)] == ["one", "two"]


SESSION = chained([claude("user", "make the tests pass"), bash("t1", "pytest -q"),
                   result("t1", "Exit code 1\n1 failed in 0.1s", True),
                   claude("assistant", [{"type": "text", "text": "Fixing."}]),
                   claude("user", "and the linter"), bash("t2", "ruff check ."), result("t2", "All checks passed!"),
                   bash("t3", "pytest -q"), result("t3", "3 passed in 0.1s")])


def _shape(events: list[Any]) -> list[tuple[str, str]]:
    return [(type(event).__name__, event.entry_id) for event in events]


@PROPERTY
@given(copies=st.lists(st.tuples(st.integers(0, len(SESSION) - 1), st.integers(0, len(SESSION))), max_size=12))
def test_copies_of_entries_anywhere_later_change_no_event(copies: list[tuple[int, int]]) -> None:
    """Whatever entries are written again, wherever later in the file, the session reads as the same events."""
    rows: list[dict[str, Any]] = list(SESSION)
    for which, where in copies:
        rows.insert(max(where, rows.index(SESSION[which]) + 1), SESSION[which] | {"cwd": "/reopened"})
    with tempfile.TemporaryDirectory() as folder:
        original = list(open_transcript(write_jsonl(Path(folder) / "a.jsonl", SESSION)).events())
        copied = open_transcript(write_jsonl(Path(folder) / "b.jsonl", rows))
        assert _shape(list(copied.events())) == _shape(original)
        assert copied.report.duplicates == len(copies)


# -- files no reader understands -------------------------------------------------------------------


def test_a_file_whose_entries_the_reader_knows_none_of_is_refused(tmp_path: Path) -> None:
    """Read as Pi, a file of event-log entries Pi never writes is refused with the reason, not an empty session."""
    path = write_jsonl(tmp_path / "events.jsonl", [
        {"type": "session.start", "data": {"sessionId": "s"}, "id": "1", "parentId": None},
        {"type": "user.message", "data": {"content": "hi"}, "id": "2", "parentId": "1"}])
    with pytest.raises(NotATranscript, match=r"none of its 2 entries is of a kind the pi reader knows "
                                             r"\(their types: session\.start, user\.message\)"):
        list(Transcript(path, "pi").events())


def test_dotted_event_logs_are_not_sniffed_as_pi(tmp_path: Path) -> None:
    """Entries with an id and a parentId are Pi's only when their type is one Pi writes."""
    path = write_jsonl(tmp_path / "events.jsonl", [
        {"type": "thing.happened", "data": {}, "id": "1", "parentId": None},
        {"type": "thing.ended", "data": {}, "id": "2", "parentId": "1"}])
    with pytest.raises(NotATranscript, match="no transcript shape known here"):
        open_transcript(path)
