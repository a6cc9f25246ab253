"""The consultation log: records with transcripts, listing, loading by id, concurrent writers, bad lines."""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from advisor.consult import ConsultationLog, ConsultSettings, Spend, consult
from advisor.errors import ConsultationNotFound
from advisor.models import ScriptedModel, Usage
from tests.advisor.consult.helpers import prompt


def _consult(directory: Path, text: str = "Severity: nit\nrename", session: str = "s1") -> str:
    """One consultation with the scripted test double, logged to ``directory``; returns its id."""
    model = ScriptedModel([{"text": text, "usage": {"input_tokens": 100, "output_tokens": 10}}])
    done = asyncio.run(consult(prompt(session=session), model, settings=ConsultSettings(retry_delay=0)))
    return ConsultationLog(directory).keep(done).id


def test_records_list_and_load(tmp_path: Path) -> None:
    """Each consultation is one record; summaries list them in order; load by id or unique prefix."""
    first = _consult(tmp_path)
    second = _consult(tmp_path, text="no verdict here", session="s2")
    log = ConsultationLog(tmp_path)
    summaries = log.summaries()
    assert [s.id for s in summaries] == [first, second]
    assert (summaries[0].severity, summaries[1].severity, summaries[0].requests) == ("nit", None, 1)
    assert summaries[0].advisor == "scripted:scripted-test-double"
    assert [s.id for s in log.summaries(session_id="s2")] == [second]
    loaded = log.load(first)
    assert loaded.transcript is not None and loaded.transcript.system.startswith("You are the advisor")
    shared = next((i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b), len(second) - 1)
    unique = second[:shared + 1]
    assert log.load(unique).id == second


def test_unknown_and_ambiguous_ids(tmp_path: Path) -> None:
    """An id not in the log, or a prefix naming several, is ConsultationNotFound saying which."""
    _consult(tmp_path)
    _consult(tmp_path)
    log = ConsultationLog(tmp_path)
    with pytest.raises(ConsultationNotFound, match="no consultation 'nope'"):
        log.load("nope")
    with pytest.raises(ConsultationNotFound, match="names 2 consultations"):
        log.load("2")


def test_session_spend_is_summed_from_the_log(tmp_path: Path) -> None:
    """A session's spending is the sum of its logged consultations (what a caller hands consult() as `spent`)."""
    _consult(tmp_path)
    _consult(tmp_path)
    _consult(tmp_path, session="other")
    assert ConsultationLog(tmp_path).session_spend("s1") == Spend(tokens=220)


def test_an_unreadable_line_is_skipped_and_counted(tmp_path: Path) -> None:
    """A torn or edited line does not hide the others; its number is reported."""
    _consult(tmp_path)
    log = ConsultationLog(tmp_path)
    with log.path.open("a") as handle:
        handle.write('{"torn": \n')
    _consult(tmp_path)
    assert len(log.summaries()) == 2 and log.skipped_lines == [2]


def test_empty_log(tmp_path: Path) -> None:
    """No log file yet is an empty list, not an error."""
    assert ConsultationLog(tmp_path / "none").summaries() == []


def _many(directory: str, count: int) -> int:
    for _ in range(count):
        _consult(Path(directory), text="Severity: none " + "x" * 70_000)
    return count


def test_concurrent_writers_never_interleave(tmp_path: Path) -> None:
    """Four processes appending large records at once leave only whole, readable records."""
    with ProcessPoolExecutor(max_workers=4) as pool:
        assert sum(pool.map(_many, [str(tmp_path)] * 4, [5] * 4)) == 20
    log = ConsultationLog(tmp_path)
    records = log.consultations()
    assert len(records) == 20 and log.skipped_lines == []
    assert all(r.usage == Usage(input_tokens=100, output_tokens=10) for r in records)


def test_default_log_is_under_witness_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a directory, the log is $WITNESS_HOME/log/consultations.jsonl; a consultation itself writes
    nothing there: its caller keeps it, once."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path))
    assert ConsultationLog().path == tmp_path / "log" / "consultations.jsonl"
    done = asyncio.run(consult(prompt(), ScriptedModel(["ok"]), settings=ConsultSettings(retry_delay=0)))
    assert not ConsultationLog().path.exists()
    ConsultationLog().keep(done)
    assert len(ConsultationLog().summaries()) == 1
