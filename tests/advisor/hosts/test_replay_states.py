"""The Stop hook replays only what was appended since its last stop, answering as a replay of the whole file; the
replays it keeps are versioned by the code that wrote them, bounded, pruned and replaced atomically."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest

from advisor.hosts import KEPT_DAYS, ReplayStates, StopInput, answer_hook
from advisor.hosts import _replay_states as states_module
from advisor.hosts._replay import stopping_work
from tests.advisor.hosts.hook_sessions import (
    OWN_FAILURE,
    agent_id,
    lines,
    parent_while_delegating,
    stop,
    subagent_stop,
    worker_failing,
)
from tests.advisor.sessions import EXAMPLE
from tests.obligations.resumed import stop_offsets
from tests.obligations.transcript_files import FIXTURES

FAR = time.monotonic() + 3600


def judged(payload: dict[str, object], states: ReplayStates | None) -> dict[str, object]:
    """What the hook's replay makes of the stopping agent's work: the tracker's whole state and the agent judged."""
    done = stopping_work(StopInput.model_validate(payload), "seed", FAR, io.StringIO(), states)
    return {"tracker": done.tracker.snapshot(), "agent": done.agent}


@pytest.mark.parametrize("path", [FIXTURES / "real" / "claude" / "wakil--77205d86.jsonl",
                                  FIXTURES / "real" / "codex" / "communique--019efb65.jsonl",
                                  FIXTURES / "real" / "copilot" / "azure-dev--45f1a36c.jsonl"],
                         ids=lambda path: path.parent.name)
def test_each_stop_of_a_growing_session_judges_as_a_whole_replay(path: Path, tmp_path: Path) -> None:
    """A real session grown stop by stop (before each prompt, and at its end): each Stop resumes from the replay
    the last one kept, and judges exactly as a replay of the whole file without any kept state."""
    transcript, data, written = tmp_path / path.name, path.read_bytes(), 0
    transcript.write_bytes(b"")
    states = ReplayStates(tmp_path / "replays")
    for cut in stop_offsets(path):
        with transcript.open("ab") as handle:
            handle.write(data[written:cut])
        written = cut
        payload = stop(transcript)
        assert judged(payload, states) == judged(payload, None)
    assert [p.name for p in (tmp_path / "replays").iterdir()] == [states.path(str(transcript), None, "seed").name]


def test_a_sub_agents_entries_in_its_parents_file_are_a_replay_of_their_own(tmp_path: Path) -> None:
    """A SubagentStop that picks the sub-agent's entries from its parent's transcript keeps a replay apart from the
    parent's Stop, and both judge as whole replays."""
    parent = tmp_path / "older-layout.jsonl"
    parent.write_text("".join(lines(parent_while_delegating(tmp_path)) + lines(worker_failing(tmp_path))),
                      encoding="utf-8")
    states = ReplayStates(tmp_path / "replays")
    payloads = [stop(parent), subagent_stop(parent, agent_id(OWN_FAILURE), None)]
    for _ in range(2):
        for payload in payloads:
            assert judged(payload, states) == judged(payload, None)
    assert len(list((tmp_path / "replays").iterdir())) == 2


def test_the_hook_itself_resumes_and_blocks_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two stops of `witness hook` on the example session: the first keeps its replay, the second resumes from it
    (the kept replay is rewritten with the same position) and blocks with the next reminder."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path))
    payload = json.dumps(stop(EXAMPLE)).encode()
    first = json.loads(answer_hook("claude-code", payload, io.StringIO()))
    (kept,) = (tmp_path / "hooks" / "replays").iterdir()
    before = json.loads(kept.read_bytes())["position"]
    second = json.loads(answer_hook("claude-code", payload, io.StringIO()))
    assert "reminder 1 of 3" in first["reason"] and "reminder 2 of 3" in second["reason"]
    assert json.loads(kept.read_bytes())["position"] == before


def _kept(tmp_path: Path) -> tuple[ReplayStates, Path, dict[str, object]]:
    states = ReplayStates(tmp_path / "replays")
    payload = stop(EXAMPLE)
    judged(payload, states)
    return states, states.path(str(EXAMPLE), None, "seed"), payload


def test_a_replay_kept_by_other_code_is_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept replay written by another version of witness (another fingerprint of its sources), or in another
    format version, is not read: the stop replays whole and keeps its own."""
    states, path, payload = _kept(tmp_path)
    assert states.load(str(EXAMPLE), None, "seed") is not None
    monkeypatch.setattr(states_module, "_FINGERPRINT", "another witness")
    assert states.load(str(EXAMPLE), None, "seed") is None
    assert judged(payload, states) == judged(payload, None)
    assert json.loads(path.read_bytes())["code"] == "another witness"
    data = json.loads(path.read_bytes())
    path.write_text(json.dumps({**data, "version": 999}))
    assert states.load(str(EXAMPLE), None, "seed") is None


@pytest.mark.parametrize("damage", [b"", b'{"version": 1, "code"', b"[1, 2]", b'{"version": 1}'])
def test_a_damaged_kept_replay_is_ignored_and_replaced(tmp_path: Path, damage: bytes) -> None:
    """An empty, cut, foreign or partial kept replay is not trusted: the stop replays whole, and keeps a good one."""
    states, path, payload = _kept(tmp_path)
    path.write_bytes(damage)
    assert states.load(str(EXAMPLE), None, "seed") is None
    assert judged(payload, states) == judged(payload, None)
    assert states.load(str(EXAMPLE), None, "seed") is not None


def test_a_kept_position_for_changed_bytes_is_refused(tmp_path: Path) -> None:
    """The position kept holds only for the same bytes: a transcript rewritten since is replayed whole."""
    transcript = tmp_path / "s.jsonl"
    transcript.write_bytes(EXAMPLE.read_bytes())
    states = ReplayStates(tmp_path / "replays")
    payload = stop(transcript)
    judged(payload, states)
    transcript.write_bytes(EXAMPLE.read_bytes().replace(b"Exit code 1", b"Exit code 2"))
    assert judged(payload, states) == judged(payload, None)


def test_a_replay_too_large_to_keep_is_not_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the size bound, a transcript's replay is not kept (and any older one is removed): its stops replay whole."""
    states, path, payload = _kept(tmp_path)
    monkeypatch.setattr(states_module, "MAX_STATE_BYTES", 1000)
    assert judged(payload, states) == judged(payload, None)
    assert not path.exists()


def test_kept_replays_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new transcript's first kept replay removes those unchanged for the kept days, abandoned temporary files as
    old, and the oldest beyond the count and size bounds — never files of other kinds."""
    folder = tmp_path / "replays"
    folder.mkdir()
    old = time.time() - (KEPT_DAYS + 1) * 86_400
    for name in ("stale.json", "abandoned.tmp", "notes.txt"):
        (folder / name).write_text("{}")
        os.utime(folder / name, (old, old))
    monkeypatch.setattr(states_module, "MAX_STATES", 2)
    copies = []
    for number in range(3):
        copy = tmp_path / f"s{number}.jsonl"
        copy.write_bytes(EXAMPLE.read_bytes())
        judged(stop(copy), ReplayStates(folder))
        os.utime(ReplayStates(folder).path(str(copy), None, "seed"), (time.time() - 10 + number,) * 2)
        copies.append(copy)
    names = sorted(path.name for path in folder.iterdir())
    expected = sorted([ReplayStates(folder).path(str(copy), None, "seed").name for copy in copies[1:]] + ["notes.txt"])
    assert names == expected


def test_the_fingerprint_covers_every_formats_reader() -> None:
    """A kept replay's fingerprint covers the reader of every format witness reads (Qwen Code's and Factory Droid's
    among them), so a change to any reader discards the replays it kept."""
    from obligations.sources import FORMATS
    from obligations.sources._transcript import _FORMATS

    root = Path(states_module.__file__).resolve().parents[2]
    covered = set(states_module.fingerprinted(root))
    assert set(_FORMATS) == set(FORMATS)
    assert {f"obligations/sources/{kind.module}.py" for kind in _FORMATS.values()} <= covered
    assert {"obligations/sources/_qwen.py", "obligations/sources/_droid.py"} <= covered
