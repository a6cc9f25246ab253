"""`witness packet`: the case packet an advisor host would send, from a transcript."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
WITNESS = Path(sys.executable).with_name("witness")


def witness(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(WITNESS), *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_the_packet_of_the_example_session_shows_its_failures_and_obligations() -> None:
    """The shipped session's packet names both failed checks, the masked re-run and the open obligation."""
    done = witness("packet", "examples/session.jsonl", "--json")
    assert done.returncode == 0, done.stderr
    packet = json.loads(done.stdout)
    assert {row["check"] for row in packet["validation"]} >= {"npm test", "npm run lint"}
    assert packet["validation_summary"]["not_witnessing"] >= 1
    assert [o["check"] for o in packet["obligations"]] == ["npm test"]
    assert len(done.stdout.strip().encode()) <= 48 * 1024


def test_upto_cuts_the_session_where_asked() -> None:
    """--upto 1 replays only the first tool result: one validation run, no re-run yet."""
    packet = json.loads(witness("packet", "examples/session.jsonl", "--upto", "1", "--json").stdout)
    assert packet["validation_summary"]["runs"] == 1


def test_the_text_form_gives_the_size_then_the_packet() -> None:
    """Without --json: a line with the size and what was degraded, then the indented packet."""
    done = witness("packet", "examples/session.jsonl", "--question", "Is the lint fix right?")
    first, _, rest = done.stdout.partition("\n")
    assert first.startswith("case packet for root: ") and "degraded: none" in first
    assert json.loads(rest)["question"] == "Is the lint fix right?"


def test_bad_input_is_a_usage_error_without_a_traceback(tmp_path: Path) -> None:
    """A file that is not a transcript, or an agent it does not have, exits 2 with one line."""
    not_a_transcript = tmp_path / "notes.txt"
    not_a_transcript.write_text("hello\n")
    for args in (["packet", str(not_a_transcript)], ["packet", "examples/session.jsonl", "--agent", "ghost"]):
        done = witness(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.startswith("witness packet: ")
