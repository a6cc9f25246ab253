"""Prefix stability and incremental compilation: rendering any prefix of a session repeats the full
render's messages byte for byte (all but its last), over generated Claude Code, Codex and Pi
transcripts and every shipped fixture; a ledger kept across consultations gives exactly what a
fresh one compiled from the same events gives."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.consult import AdvisorPrompt
from advisor.ledger import Ledger, LedgerSettings
from obligations import Event, UserMessage
from obligations.sources import open_transcript
from tests.support.transcripts import HOSTS, Action, Host, sessions, write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"
SHIPPED = sorted(FIXTURES.glob("*/*.jsonl")) + sorted(FIXTURES.glob("real/*/*.jsonl"))
UNTRIMMED = LedgerSettings(token_budget=0)


def render(path: Path) -> list[str]:
    """The request's messages for the session in ``path``, each as its JSON."""
    transcript = open_transcript(path)
    ledger = Ledger(host=transcript.format, settings=UNTRIMMED).extend(transcript.events())
    return [m.model_dump_json() for m in ledger.prompt().messages]


def assert_prefix(part: list[str], whole: list[str]) -> None:
    """Every message of ``part`` but its last is the message at the same place in ``whole``."""
    assert len(part) <= len(whole)
    assert part[:-1] == whole[:len(part) - 1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(host=st.sampled_from(HOSTS), actions=sessions(), cuts=st.lists(st.integers(min_value=1), max_size=6))
def test_a_prefix_of_any_transcript_renders_as_a_prefix(host: Host, actions: list[Action], cuts: list[int]) -> None:
    """For generated sessions of each host's format, the transcript cut after any line renders as a
    prefix of the whole transcript's render: every message but the last byte-identical."""
    with tempfile.TemporaryDirectory() as directory:
        full = write(Path(directory) / "full.jsonl", host, actions)
        lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
        whole = render(full)
        for cut in {1 + c % len(lines) for c in cuts} | {max(1, len(lines) - 1)}:
            part = Path(directory) / "part.jsonl"
            part.write_text("".join(lines[:cut]), encoding="utf-8")
            assert_prefix(render(part), whole)


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


def requests_along(events: list[Event], host: Host, every: int) -> tuple[list[AdvisorPrompt], AdvisorPrompt]:
    """The requests a kept ledger gives every ``every`` events, and at the end."""
    ledger = Ledger(host=host, settings=UNTRIMMED)
    along = []
    for number, event in enumerate(events, start=1):
        ledger.add(event)
        if number % every == 0:
            along.append(ledger.prompt())
    return along, ledger.prompt()


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: str(path.relative_to(FIXTURES)))
def test_every_shipped_transcript_renders_prefix_stably(path: Path) -> None:
    """On every real transcript shipped with the tests, the request at every 25th event is a prefix of the
    final one (all but its last message byte-identical), and no request is empty of the user's words."""
    transcript = open_transcript(path)
    events = list(transcript.events())
    along, final = requests_along(events, transcript.format, 25)
    whole = [m.model_dump_json() for m in final.messages]
    for request in along:
        assert_prefix([m.model_dump_json() for m in request.messages], whole)
    said = [event.text for event in events if isinstance(event, UserMessage) and event.agent_id == "root"]
    sent = "\n".join(m.text for m in final.messages)
    assert all(text[:60] in sent for text in said if "sk-" not in text[:60])
