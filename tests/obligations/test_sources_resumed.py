"""A replay resumed from a kept position answers exactly as a replay of the whole file — or refuses to resume:
every shipped session cut at every stop, generated sessions cut anywhere (mid-line too), rewritten, truncated
and replaced files, rewinds that reach back into what was replayed, entries written twice across a cut."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obligations import SnapshotError, SnapshotVersionError
from obligations.sources import Position, open_transcript
from tests.obligations.resumed import Stops, stop_offsets, whole
from tests.obligations.test_sources_copilot import event as copilot_event
from tests.obligations.test_sources_copilot import run as copilot_run
from tests.obligations.test_sources_copilot import start as copilot_start
from tests.obligations.test_sources_droid import START as DROID_START
from tests.obligations.test_sources_droid import edit as droid_edit
from tests.obligations.test_sources_droid import execute as droid_execute
from tests.obligations.test_sources_droid import user as droid_user
from tests.obligations.test_sources_formats import bash, claude, result
from tests.obligations.test_sources_gemini import META, call, gemini, new_output
from tests.obligations.test_sources_gemini import user as gemini_user
from tests.obligations.test_sources_pi import pi, pi_call, pi_header, pi_result, pi_user
from tests.obligations.test_sources_qwen import Chain
from tests.obligations.test_sources_verdicts import chained
from tests.obligations.transcript_files import FIXTURES

SHIPPED = sorted(FIXTURES.rglob("*.jsonl"))


def lines_of(entries: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(entry).encode() + b"\n" for entry in entries)


def grow(path: Path, data: bytes, cuts: list[int]) -> Stops:
    """Write ``data`` into ``path`` (one file, appended to) up to each cut in turn, stopping at each: every stop's
    answer is the whole replay's. Returns the stops, for what they say of their resuming."""
    path.write_bytes(b"")
    stops = Stops(path)
    written = 0
    for cut in cuts:
        with path.open("ab") as handle:
            handle.write(data[written:cut])
        written = cut
        assert stops.stop() == whole(path), f"cut at byte {cut}: {stops.refused}"
    return stops


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_shipped_session_stopped_at_each_prompt_answers_as_a_whole_replay(path: Path, tmp_path: Path) -> None:
    """Each shipped session (Claude Code, Codex, Pi, Copilot; real ones too) grown stop by stop — a stop before each
    prompt and one at the end — answers at every stop exactly as a replay of the whole file, the tracker's whole
    state and the report included; every stop after the first resumed, but for one after a real rewind that
    reaches back before it (numwordify's user edited a prompt)."""
    cuts = stop_offsets(path)
    stops = grow(tmp_path / path.name, path.read_bytes(), cuts)
    assert stops.resumed + len(stops.refusals) == len(cuts) - 1
    assert all(reason.startswith("a rewind reaches back into what was replayed") for reason in stops.refusals)


def _session(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A Claude Code session of prompts, failing and passing checks, edits, rewinds to an earlier prompt (as its
    sibling), entries written twice, and resumed compactions."""
    entries: list[dict[str, Any]] = []
    prompts: list[dict[str, Any]] = []
    kinds = ["prompt", "fail", "pass", "edit", "rewind", "again", "compact"]
    for step, kind in enumerate(draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=16))):
        call_id = f"t{step}"
        if kind == "prompt" or not prompts:
            prompts.append(claude("user", f"task {step}"))
            entries.append(prompts[-1])
        elif kind == "fail":
            entries += [bash(call_id, "pytest -q"), result(call_id, "Exit code 1\n1 failed", True)]
        elif kind == "pass":
            entries += [bash(call_id, "pytest -q"), result(call_id, "3 passed", False)]
        elif kind == "edit":
            entries += [claude("assistant", [{"type": "tool_use", "id": call_id, "name": "Edit",
                                              "input": {"file_path": "/a.py", "old_string": "a", "new_string": "b"}}]),
                        result(call_id, "ok")]
        elif kind == "rewind":
            again = claude("user", f"instead {step}")
            again["_sibling"] = draw(st.sampled_from(prompts))["uuid"]  # a prompt with the same parent replaces it
            prompts.append(again)
            entries.append(again)
        elif kind == "again" and entries:
            entries.append(dict(draw(st.sampled_from(entries))))
        else:
            entries.append(claude("system", "", subtype="compact_boundary"))
            entries.append(claude("user", "summary", isCompactSummary=True))
    entries = chained([dict(entry) for entry in entries])
    parents = {entry["uuid"]: entry["parentUuid"] for entry in entries}
    for entry in entries:
        if "_sibling" in entry:
            entry["parentUuid"] = parents[entry.pop("_sibling")]
    return entries


@st.composite
def _grown(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    """A session's bytes and where to stop: at line ends (where hosts stop) and anywhere at all."""
    data = lines_of(_session(draw))
    ends = [index + 1 for index, byte in enumerate(data) if byte == 10]
    cuts = draw(st.lists(st.sampled_from(ends) | st.integers(1, len(data)), max_size=6))
    return data, sorted({*cuts, len(data)})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(grown=_grown())
def test_a_session_stopped_anywhere_answers_as_a_whole_replay(grown: tuple[bytes, list[int]], tmp_path: Path) -> None:
    """A generated Claude Code session (rewinds, duplicates, compactions) written in pieces cut anywhere, mid-line
    too: every stop answers as a replay of the whole file written so far."""
    data, cuts = grown
    grow(tmp_path / "session.jsonl", data, cuts)


def _failed_then(later: list[dict[str, Any]], rewind: bool) -> list[dict[str, Any]]:
    first = claude("user", "make the tests pass")
    tried = claude("user", "run pytest first")
    entries = [first, tried, bash("t1", "pytest -q"), result("t1", "Exit code 1\n1 failed", True)]
    retry = claude("user", "no: run the linter instead")
    if rewind:
        retry["_parent"] = first["uuid"]
    return chained([*entries, retry, *later])


def test_a_rewind_written_after_the_stop_reaches_back_and_the_file_is_replayed_whole(tmp_path: Path) -> None:
    """A stop sees pytest fail (one obligation open); then the user rewinds to before that prompt: the next stop
    cannot resume (the rewind abandons what was replayed), says why, and answers as a whole replay: nothing open."""
    data = lines_of(_failed_then([bash("t2", "ls"), result("t2", "a.py")], rewind=True))
    cut = data.index(b"no: run the linter instead")
    cut = data.rindex(b"\n", 0, cut) + 1
    stops = grow(tmp_path / "s.jsonl", data, [cut])
    assert len(stops.stop()["open"]) == 1
    (tmp_path / "s.jsonl").write_bytes(data)  # the same file (inode), appended to
    after = stops.stop()
    assert after == whole(tmp_path / "s.jsonl") and after["open"] == [] and after["report"]["abandoned"] == 3
    assert stops.refused is not None and stops.refused.startswith("a rewind reaches back into what was replayed")


def test_a_rewind_within_what_was_appended_resumes(tmp_path: Path) -> None:
    """A rewind whose replaced prompt is itself after the stop abandons only appended entries: the stop resumes."""
    first = claude("user", "start")
    later = [claude("user", "try pytest"), bash("t1", "pytest -q"), result("t1", "Exit code 1\n1 failed", True)]
    instead = claude("user", "no, ruff")
    entries = chained([first, bash("t0", "ls"), result("t0", "a.py"), *later])
    instead["parentUuid"] = later[0]["parentUuid"]
    data = lines_of(entries)
    cut = data.index(b"try pytest")
    cut = data.rindex(b"\n", 0, cut) + 1
    stops = grow(tmp_path / "s.jsonl", data + lines_of([instead]), [cut, len(data) + len(lines_of([instead]))])
    assert stops.resumed == 1 and stops.stop()["open"] == []


def test_entries_written_twice_across_a_stop_are_read_once(tmp_path: Path) -> None:
    """The whole session written again after a stop (VS Code reopening it): the copies are known as read, so the
    resumed stop counts them as duplicates and opens nothing twice, as a whole replay does."""
    data = lines_of(_failed_then([bash("t2", "ls"), result("t2", "a.py")], rewind=False))
    stops = grow(tmp_path / "s.jsonl", data + data, [len(data), 2 * len(data)])
    assert stops.resumed == 1 and stops.stop()["report"]["duplicates"] == data.count(b"\n")


@pytest.mark.parametrize("how", ["truncated", "rewritten", "replaced", "shorter and longer"])
def test_a_file_changed_before_what_was_replayed_is_replayed_whole(tmp_path: Path, how: str) -> None:
    """A transcript truncated, rewritten in place, or replaced by another file (another inode) is not resumed: the
    reason is given and the answer is the whole replay's."""
    path = tmp_path / "s.jsonl"
    data = lines_of(_failed_then([bash("t2", "pytest -q"), result("t2", "3 passed")], rewind=False))
    stops = grow(path, data, [len(data)])
    if how == "truncated":
        path.write_bytes(data[: data.index(b"\n") + 1])
        reason = "it is shorter than what was replayed (truncated or rewritten)"
    elif how == "rewritten":
        path.write_bytes(data.replace(b"3 passed", b"3 failed"))
        reason = "its first bytes are not those replayed (rewritten)"
    elif how == "replaced":
        other = tmp_path / "other.jsonl"
        other.write_bytes(data)
        os.replace(other, path)
        reason = "it is another file now (another device or inode)"
    else:
        path.write_bytes(data.replace(b"pytest -q", b"pytest -x") + data)
        reason = "its first bytes are not those replayed (rewritten)"
    assert stops.stop() == whole(path)
    assert stops.refused == reason


def test_a_last_line_still_being_written_keeps_no_position(tmp_path: Path) -> None:
    """A stop while the host is writing a line (no newline yet) keeps nothing past the lines before it: the next
    stop resumes from the last whole line and reads the finished one."""
    data = lines_of(_failed_then([bash("t2", "pytest -q"), result("t2", "3 passed")], rewind=False))
    half = len(data) - 20
    stops = grow(tmp_path / "s.jsonl", data, [data.rindex(b"\n", 0, half) + 1, half, len(data)])
    assert stops.resumed == 2


def test_other_hosts_rewinds_after_a_stop_are_replayed_whole(tmp_path: Path) -> None:
    """A Copilot snapshot rewind, a Gemini `$rewindTo` and a Pi branch started after a stop reach back: each next
    stop replays whole, with the reason, and answers as a whole replay."""
    prompt = copilot_event("user.message", content="try pytest")
    copilot = [copilot_start(), copilot_event("user.message", content="go"), prompt,
               *copilot_run("c1", "pytest -q", "1 failed", 1)]
    copilot_after = [copilot_event("session.snapshot_rewind", upToEventId=prompt["id"], eventsRemoved=3)]
    tried = gemini_user("try pytest")
    gemini_rows = [META, gemini_user("go"), tried, gemini(call("g1", "pytest -q", new_output("1 failed", 1)))]
    gemini_after = [{"$rewindTo": tried["id"]}]
    pi_rows = [pi_header(), pi("u1", None, pi_user("fix")), pi("a1", "u1", pi_call("c1", "npm test")),
               pi("r1", "a1", pi_result("c1", "1 failed\n\nCommand exited with code 1", True))]
    pi_after = [pi("u2", "u1", pi_user("start over"))]
    for name, before, after in (("copilot", copilot, copilot_after), ("gemini", gemini_rows, gemini_after),
                                ("pi", pi_rows, pi_after)):
        data = lines_of(before)
        stops = grow(tmp_path / f"{name}.jsonl", data + lines_of(after), [len(data), len(data) + len(lines_of(after))])
        assert stops.resumed == 0 and stops.refused is not None, name
        assert stops.refused.startswith("a rewind reaches back"), (name, stops.refused)


def _every_line(data: bytes) -> list[int]:
    """A stop after each line of ``data`` (and one mid-line, where a host is still writing)."""
    ends = [index + 1 for index, byte in enumerate(data) if byte == ord("\n")]
    return sorted({*ends, ends[0] // 2})


def test_qwen_and_droid_sessions_resume_at_every_stop(tmp_path: Path) -> None:
    """Qwen Code and Factory Droid sessions stopped after every line resume from the last stop (reading only what
    was appended) and answer as a whole replay: a failure, an edit, the re-run, a record written twice."""
    chain = Chain()
    qwen = [chain.user("make the tests pass"), *chain.run("c1", "pytest -q", "1 failed", 1),
            *chain.run("c2", "pytest -q", "3 passed", 0), chain.user("now lint"),
            *chain.run("c3", "ruff check .", "1 error", 1)]
    droid = [DROID_START, droid_user("fix the sum"), *droid_execute("d1", "pytest -q", "1 failed", 1),
             *droid_edit("d2"), *droid_execute("d3", "pytest -q", "3 passed", 0)]
    for name, rows in (("qwen", qwen), ("droid", droid)):
        data = lines_of(rows) + lines_of(rows[-1:])
        cuts = _every_line(data)
        stops = grow(tmp_path / f"{name}.jsonl", data, cuts)
        assert stops.refusals == [], name
        assert stops.resumed >= len(cuts) - 3, (name, stops.resumed)


def test_a_rewound_qwen_session_is_replayed_whole_at_each_stop(tmp_path: Path) -> None:
    """A Qwen Code rewind lets its last record decide the active branch, which a later record may move: once a
    session holds one, each stop replays the whole file, with the reason, and answers as a whole replay."""
    chain = Chain()
    first = chain.user("make the tests pass")
    old = [chain.user("run pytest"), *chain.run("c1", "pytest -q", "1 failed", 1)]
    rewind = chain.record("system", parent=first["uuid"], subtype="rewind", systemPayload={"targetTurnIndex": 1})
    new = [chain.user("run the linter instead"), *chain.run("c2", "ruff check .", "All checks passed!", 0)]
    before, after = lines_of([first, *old]), lines_of([rewind, *new])
    stops = grow(tmp_path / "qwen.jsonl", before + after, [len(before), len(before) + len(after)])
    assert stops.resumed == 0 and stops.refused is not None
    assert "rewinds the session" in stops.refused
    stops = grow(tmp_path / "again.jsonl", before + after, [len(before) + len(after), len(before) + len(after)])
    assert stops.resumed == 0 and stops.refused is not None and "was rewound before" in stops.refused


def test_a_position_is_plain_json_with_a_version(tmp_path: Path) -> None:
    """A position survives JSON; one of another version, or one that is not a position, is refused with the reason."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(_failed_then([], rewind=False)))
    kept: list[Position] = []
    list(open_transcript(path).events(checkpoint=kept.append))
    data = json.loads(json.dumps(kept[0].to_dict()))
    assert Position.from_dict(data) == kept[0]
    with pytest.raises(SnapshotVersionError):
        Position.from_dict({**data, "version": 99})
    for broken in ([data], {**data, "written": "not base64!"}, {**data, "offset": -1}, {**data, "format": "vim"}):
        with pytest.raises(SnapshotError):
            Position.from_dict(broken)
    assert open_transcript(path).resume(Position.from_dict({**data, "format": "codex"})) is None
