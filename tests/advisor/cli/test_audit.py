"""`witness audit`, run as a real process on example transcripts (and in process where a fault is injected)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from advisor.cli._audit import run_audit
from tests.advisor.sessions import EXAMPLE, FIXTURES, codex_rollout, disk_fault_after, witness
from tests.obligations.transcript_files import codex_patch, codex_worker_rollout


def test_audit_reports_the_open_obligation_and_why_the_rerun_did_not_count() -> None:
    """The example session: the masked test re-run leaves `npm test` open; lint is closed; exit 1."""
    done = witness("audit", str(EXAMPLE))
    out = done.stdout.decode()
    assert done.returncode == 1, done.stderr
    assert "OPEN: `npm test` (test) in /home/dev/sum-app" in out
    assert "failed at session.jsonl:4" in out
    assert "(session.jsonl:12) did not count — masked" in out
    assert "resolved: `npm run lint` (lint)" in out and "witnessed by `npm run lint` at session.jsonl:14" in out


def test_audit_json_is_one_document() -> None:
    """`--json` prints one document with a summary and every session's items."""
    done = witness("audit", "--json", str(EXAMPLE))
    document = json.loads(done.stdout)
    assert done.returncode == 1
    assert document["summary"]["open"] == 1 and document["summary"]["resolved"] == 1
    (session,) = document["sessions"]
    assert session["format"] == "claude-code" and session["unresolved"] == 1
    assert session["open"][0]["check"] == "npm test"
    assert session["open"][0]["last_attempt"]["reason"].startswith("masked:")


def test_audit_of_the_fixtures_finds_nothing_to_reverify() -> None:
    """The six format fixtures run no checks: every session is read, none has an obligation, exit 0."""
    done = witness("audit", "--json", *(str(FIXTURES / host) for host in ("claude", "codex", "pi")))
    document = json.loads(done.stdout)
    assert done.returncode == 0, done.stderr
    assert document["summary"]["sessions"] == 6
    assert document["summary"]["sessions_with_unresolved"] == 0
    assert all(session["skipped_lines"] == 0 for session in document["sessions"])


def test_audit_of_a_directory_skips_what_is_not_a_transcript(tmp_path: Path) -> None:
    """A tree of mixed files: transcripts audited, other files skipped and counted, exit by findings."""
    (tmp_path / "projects" / "a").mkdir(parents=True)
    shutil.copy(EXAMPLE, tmp_path / "projects" / "a" / "one.jsonl")
    codex_rollout(tmp_path / "projects" / "two.jsonl", passes=True)
    (tmp_path / "projects" / "notes.jsonl").write_text('{"hello": "world"}\n')
    (tmp_path / "projects" / "empty.jsonl").write_bytes(b"")
    done = witness("audit", "--jobs", "2", str(tmp_path / "projects"))
    out = done.stdout.decode()
    assert done.returncode == 1
    assert "2 file(s) or folder(s) skipped; 1 with unresolved" in out
    assert "2 session(s) audited under policy seed" in out
    assert "empty.jsonl: not a session transcript of a host witness reads: the file is empty" in out


def test_parallel_and_serial_audits_agree(tmp_path: Path) -> None:
    """`--jobs 1` and `--jobs 4` give the same document."""
    for number in range(6):
        codex_rollout(tmp_path / f"s{number}.jsonl", passes=number % 2 == 0)
    serial = json.loads(witness("audit", "--json", "--jobs", "1", str(tmp_path)).stdout)
    parallel = json.loads(witness("audit", "--json", "--jobs", "4", str(tmp_path)).stdout)
    assert serial == parallel
    assert serial["summary"]["sessions_with_unresolved"] == 3


def test_audit_policy_strict_refuses_reporting_pipes(tmp_path: Path) -> None:
    """Under `--policy strict` a `| tail` re-run does not close the obligation."""
    path = codex_rollout(tmp_path / "s.jsonl", passes=True)
    path.write_text(path.read_text().replace('"cmd\\": \\"npm test\\"}", "call_id": "c3"',
                                             '"cmd\\": \\"npm test | tail -5\\"}", "call_id": "c3"'))
    assert witness("audit", str(path)).returncode == 0
    assert witness("audit", "--policy", "strict", str(path)).returncode == 1



def test_audit_says_which_edit_reopened_a_witnessed_check(tmp_path: Path) -> None:
    """An edit after the witness re-opens the check; the report names the edit, the witness it undid, the failure."""
    path = codex_rollout(tmp_path / "s.jsonl", passes=True)
    path.write_text(path.read_text() + "".join(json.dumps(entry) + "\n" for entry in codex_patch("c4", "src/b.ts")))
    done = witness("audit", str(path))
    out = done.stdout.decode()
    assert done.returncode == 1
    assert "OPEN: `npm test` (test) in /repo\n      failed at s.jsonl:6: exited 1: Tests:  1 failed" in out
    assert "re-opened (s.jsonl:12): apply_patch may have edited the workspace after the witness" in out
    assert "(it had been witnessed by `npm test` at s.jsonl:" in out

@pytest.mark.parametrize(
    ("args", "message"),
    [(["audit"], "Missing argument"), (["audit", "/no/such/path"], "no such file or directory"),
     (["audit", "--jobs", "0", "x"], "Invalid value")],
)
def test_audit_usage_errors_exit_2(args: list[str], message: str) -> None:
    """Missing or bad arguments are usage errors: exit 2 with a message, no traceback."""
    done = witness(*args)
    assert done.returncode == 2
    assert message in done.stderr.decode() and b"Traceback" not in done.stderr


def test_audit_names_a_file_that_is_not_a_transcript(tmp_path: Path) -> None:
    """A named file that is not a transcript gets a clear error and exit 2."""
    bogus = tmp_path / "binary.jsonl"
    bogus.write_bytes(bytes(range(256)) * 4)
    done = witness("audit", str(bogus))
    assert done.returncode == 2
    assert b"not a session transcript of a host witness reads: it holds binary data, not text" in done.stderr
    assert b"Traceback" not in done.stderr


def test_audit_reports_skipped_lines(tmp_path: Path) -> None:
    """A truncated last line is skipped and counted with its line number."""
    path = tmp_path / "cut.jsonl"
    text = EXAMPLE.read_text()
    path.write_text(text + text.splitlines()[3][:40])
    done = witness("audit", "--json", str(path))
    (session,) = json.loads(done.stdout)["sessions"]
    assert session["skipped_lines"] == 1
    assert session["skipped_examples"][0]["line"] == 16


def test_audit_of_a_transcript_that_stops_reading_says_it_is_incomplete(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read error mid-file keeps what was read, and the report says it covers only those lines."""
    disk_fault_after(monkeypatch, 6)
    out, err = io.StringIO(), io.StringIO()
    code = run_audit([str(EXAMPLE)], "seed", 1, as_json=False, out=out, err=err)
    text = out.getvalue()
    assert code == 1
    assert "OPEN: `npm test`" in text and "OPEN: `npm run lint`" in text
    assert "INCOMPLETE: reading stopped after line 6: Input/output error; this covers only the lines read" in text
    out = io.StringIO()
    run_audit([str(EXAMPLE)], "seed", 1, as_json=True, out=out, err=err)
    assert json.loads(out.getvalue())["sessions"][0]["read_error"] == "reading stopped after line 6: Input/output error"


def test_audit_of_a_codex_sub_agents_rollout_names_the_worker_and_exits_1(tmp_path: Path) -> None:
    """A sub-agent's own rollout file whose `npm run build` failed four times prints that check under the
    worker, not "no checks failed", and exits 1."""
    path = codex_worker_rollout(tmp_path / "rollout-worker.jsonl", "npm run build", 4)
    done = witness("audit", str(path))
    out = done.stdout.decode()
    assert done.returncode == 1, done.stderr
    assert "OPEN: `npm run build` (build) in /repo (by worker worker-1)" in out
    assert "failed 4x" in out and "no checks failed" not in out


def test_audit_refuses_a_file_no_reader_understands(tmp_path: Path) -> None:
    """An event log of no known host (dotted types with ids and parents, once taken for Pi) is refused with the
    reason and exit 2, never reported as a clean session of 0 tool calls."""
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps({"type": f"thing.{kind}", "data": {}, "id": str(n), "parentId": None}) + "\n"
                            for n, kind in enumerate(["started", "happened", "ended"])))
    done = witness("audit", str(path))
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert "events.jsonl: not a session transcript of a host witness reads: its lines are JSON objects" in err
    assert "nothing audited (no file read was a transcript); this is not an all-clear" in err


def test_a_pool_reports_the_files_in_the_order_given(tmp_path: Path) -> None:
    """`--jobs 4` with the largest file named first (it takes the pool longest): the report still lists the files
    in the order they were named, the same document as `--jobs 1`."""
    big = tmp_path / "z-big.jsonl"
    big.write_bytes(EXAMPLE.read_bytes() * 1000)
    small = [codex_rollout(tmp_path / f"{name}.jsonl", passes=True) for name in ("c", "a", "b")]
    paths = [str(big), *map(str, small)]
    pooled = json.loads(witness("audit", "--json", "--jobs", "4", *paths).stdout)
    assert [session["path"] for session in pooled["sessions"]] == paths
    assert pooled == json.loads(witness("audit", "--json", "--jobs", "1", *paths).stdout)
