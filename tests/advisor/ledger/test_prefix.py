"""Prefix stability and incremental compilation: rendering a prefix of a session repeats the render
of any longer prefix byte for byte (every message but its last) as long as no compaction lies between
them (a compaction starts the executor's context, and the ledger, afresh) — over generated Claude
Code, Codex and Pi transcripts and every shipped fixture; a ledger kept across consultations gives
exactly what a fresh one compiled from the same events gives."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.ledger import Ledger, LedgerSettings
from obligations import Compaction, Event, TranscriptFormat, UserMessage, redact
from obligations.sources import open_transcript
from tests.support.transcripts import HOSTS, Action, Ask, Call, Host, Step, User, sessions, write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
SHIPPED = sorted(FIXTURES.glob("*/*.jsonl")) + sorted(FIXTURES.glob("real/*/*.jsonl"))
UNTRIMMED = LedgerSettings(token_budget=0)


def compactions(events: list[Event]) -> int:
    return sum(1 for event in events if isinstance(event, Compaction) and event.kind == "compaction")


def render(path: Path) -> tuple[int, list[str]]:
    """The compactions in the session at ``path``, and its request's messages, each as its JSON."""
    transcript = open_transcript(path)
    events = list(transcript.events())
    ledger = Ledger(host=transcript.format, settings=UNTRIMMED).extend(events)
    return compactions(events), [m.model_dump_json() for m in ledger.prompt().messages]


def assert_prefixes(renders: list[tuple[int, list[str]]]) -> None:
    """Each render, in order of growing prefixes, is a prefix of every later one of the same epoch."""
    for index, (epoch, part) in enumerate(renders):
        for later_epoch, later in renders[index + 1:]:
            if later_epoch == epoch:
                assert_prefix(part, later)


def assert_prefix(part: list[str], whole: list[str]) -> None:
    """Every message of ``part`` but its last is the message at the same place in ``whole``."""
    assert len(part) <= len(whole)
    assert part[:-1] == whole[:len(part) - 1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(host=st.sampled_from(HOSTS), actions=sessions(), cuts=st.lists(st.integers(min_value=1), max_size=6))
def test_a_prefix_of_any_transcript_renders_as_a_prefix(host: Host, actions: list[Action], cuts: list[int]) -> None:
    """For generated sessions of each host's format, the transcript cut after any line renders as a
    prefix of every longer cut with the same compactions (the whole transcript included): every message
    but the last byte-identical."""
    with tempfile.TemporaryDirectory() as directory:
        full = write(Path(directory) / "full.jsonl", host, actions)
        lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
        renders = []
        for cut in sorted({1 + c % len(lines) for c in cuts} | {max(1, len(lines) - 1)}):
            part = Path(directory) / f"part-{cut}.jsonl"
            part.write_text("".join(lines[:cut]), encoding="utf-8")
            renders.append(render(part))
        assert_prefixes([*renders, render(full)])


def test_without_compactions_every_prefix_is_a_prefix_of_the_whole() -> None:
    """A session with no compaction: the render after every line is a prefix of the whole session's."""
    failing = Call("shell", "pytest -q", "=== 1 failed in 0.1s ===", 1)
    actions: list[Action] = [User("task"), Step("look", "hm", (failing,)),
               Ask("why?", "Severity: concern\nsee #x", (Call("read", "a.py", "x"),)), User("go on"),
               Step("fix", "", (Call("edit", "a.py", "ok"), Call("shell", "pytest -q", "1 passed", 0))),
               Ask("done?", None), Step("Done.")]
    for host in HOSTS:
        with tempfile.TemporaryDirectory() as directory:
            full = write(Path(directory) / "full.jsonl", host, actions)
            lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
            whole = render(full)[1]
            for cut in range(1, len(lines)):
                part = Path(directory) / "part.jsonl"
                part.write_text("".join(lines[:cut]), encoding="utf-8")
                assert_prefix(render(part)[1], whole)


@settings(max_examples=40, deadline=None)
@given(host=st.sampled_from(HOSTS), actions=sessions(), points=st.lists(st.integers(min_value=0), max_size=5))
def test_a_ledger_kept_across_consultations_equals_a_fresh_one(host: Host, actions: list[Action],
                                                              points: list[int]) -> None:
    """Asking a kept ledger for a request at any point gives exactly the request a fresh ledger compiled
    from the same events gives (the incremental compiler loses and adds nothing)."""
    with tempfile.TemporaryDirectory() as directory:
        events = list(open_transcript(write(Path(directory) / "s.jsonl", host, actions)).events())
    kept = Ledger(host=host, settings=UNTRIMMED)
    stops = sorted({p % (len(events) + 1) for p in points} | {len(events)})
    done = 0
    for stop in stops:
        kept.extend(events[done:stop])
        done = stop
        fresh = Ledger(host=host, settings=UNTRIMMED).extend(events[:stop])
        assert kept.prompt(question="now?") == fresh.prompt(question="now?")


def requests_along(events: list[Event], host: TranscriptFormat, every: int) -> list[tuple[int, list[str]]]:
    """The requests a kept ledger gives every ``every`` events and at the end, with the compactions before each."""
    ledger = Ledger(host=host, settings=UNTRIMMED)
    along = []
    seen = 0
    for number, event in enumerate(events, start=1):
        ledger.add(event)
        seen += isinstance(event, Compaction) and event.kind == "compaction"
        if number % every == 0 or number == len(events):
            along.append((seen, [m.model_dump_json() for m in ledger.prompt().messages]))
    return along


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: str(path.relative_to(FIXTURES)))
def test_every_shipped_transcript_renders_prefix_stably(path: Path) -> None:
    """On every real transcript shipped with the tests, the request at every 25th event is a prefix of every later
    one up to the next compaction (all but its last message byte-identical), and the final request still holds
    every user message's words."""
    transcript = open_transcript(path)
    events = list(transcript.events())
    along = requests_along(events, transcript.format, 25)
    assert_prefixes(along)
    said = [event.text for event in events if isinstance(event, UserMessage) and event.agent_id == "root"]
    sent = "\n".join(json.loads(m)["content"][0]["text"] for m in along[-1][1])
    assert all(redact(text)[:60] in sent for text in said)
