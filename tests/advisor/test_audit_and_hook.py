"""`witness audit` and `witness hook`, run as real processes on example transcripts."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import obligations.sources._replay as replay_module
from advisor._audit import run_audit
from advisor._hook import run_hook
from obligations.sources._lines import read_lines
from tests.obligations.transcript_files import codex, codex_patch, codex_run, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
WITNESS = str(Path(sys.executable).with_name("witness"))
EXAMPLE = ROOT / "examples" / "session.jsonl"
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"


def witness(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
            cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([WITNESS, *args], input=stdin, capture_output=True, timeout=120, cwd=cwd,
                          env={**os.environ, **(env or {})})


def codex_rollout(path: Path, passes: bool) -> Path:
    """A Codex rollout: `npm test` fails, the agent edits, then re-runs it (passing or masked)."""
    return write_jsonl(path, [
        codex("session_meta", {"id": "thread-7", "cwd": "/repo", "originator": "codex_cli_rs",
                               "cli_version": "0.139.0", "source": "cli"}),
        codex("turn_context", {"turn_id": "t1", "cwd": "/repo", "approval_policy": "on-request"}),
        codex("event_msg", {"type": "user_message", "message": "make the tests pass"}),
        *codex_run("c1", "npm test", 1, "Tests:  1 failed, 2 passed, 3 total"),
        *codex_patch("c2", "src/a.ts"),
        *codex_run("c3", "npm test" if passes else "npm test || true", 0, "Tests:  3 passed, 3 total"),
    ])


# -- audit ----------------------------------------------------------------------------------------


def test_audit_reports_the_open_obligation_and_why_the_rerun_did_not_count() -> None:
    """The example session: the masked test re-run leaves `npm test` open; lint is closed; exit 1."""
    done = witness("audit", str(EXAMPLE))
    out = done.stdout.decode()
    assert done.returncode == 1, done.stderr
    assert "OPEN: `npm test` (test) in /home/dev/sum-app" in out
    assert "failed at session.jsonl:4" in out
    assert "(session.jsonl:12) did not count — masked" in out
    assert "resolved: `npm run lint` (lint)" in out and "witnessed by toolu_sumapp0006 at session.jsonl:14" in out


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
    """The real transcripts run no checks: every session is read, none has an obligation, exit 0."""
    done = witness("audit", "--json", str(FIXTURES))
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
    assert "2 session(s) audited under policy seed, 2 file(s) skipped (not transcripts); 1 with unresolved" in out


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
    """An edit after the witness re-opens the check; the report names that edit and still points at the failure."""
    path = codex_rollout(tmp_path / "s.jsonl", passes=True)
    path.write_text(path.read_text() + "".join(json.dumps(entry) + "\n" for entry in codex_patch("c4", "src/b.ts")))
    done = witness("audit", str(path))
    out = done.stdout.decode()
    assert done.returncode == 1
    assert "OPEN: `npm test` (test) in /repo\n      failed at s.jsonl:6: exited 1: Tests:  1 failed" in out
    assert "re-opened (s.jsonl:12): apply_patch may have edited the workspace after the witness" in out

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
    assert b"not a Claude Code, Codex or Pi transcript: it holds binary data, not text" in done.stderr
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


# -- hooks ------------------------------------------------------------------------------------------


def stop(transcript: Path | None, home: Path, host: str = "claude-code", **extra: Any) -> tuple[int, Any, str]:
    payload = {"hook_event_name": "Stop", "session_id": "s-1", "cwd": "/home/dev/sum-app",
               "permission_mode": "default", "stop_hook_active": False, **extra}
    if transcript is not None:
        payload["transcript_path"] = str(transcript)
    done = witness("hook", host, stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(home)})
    out = done.stdout.decode().strip()
    return done.returncode, json.loads(out) if out else None, done.stderr.decode()


def test_stop_hook_blocks_while_an_obligation_is_open(tmp_path: Path) -> None:
    """Claude Code Stop with an open obligation: exit 0, `decision: block`, the check and what closes it."""
    code, answer, _ = stop(EXAMPLE, tmp_path, last_assistant_message="All tests pass.")
    assert code == 0
    assert answer["decision"] == "block"
    assert "`npm test`" in answer["reason"] and "closes only through" in answer["reason"]
    assert "npm run lint" not in answer["reason"]


def test_stop_hook_gives_up_after_its_cap(tmp_path: Path) -> None:
    """Three blocks per task, then the stop is allowed with a message for the user."""
    answers = [stop(EXAMPLE, tmp_path, stop_hook_active=n > 0)[1] for n in range(5)]
    assert [a.get("decision") for a in answers] == ["block", "block", "block", None, None]
    assert "unresolved verification obligation" in answers[3]["systemMessage"]


def test_stop_hook_cap_is_configurable(tmp_path: Path) -> None:
    """`WITNESS_STOP_BLOCKS=1` allows after one block."""
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "s-9", "transcript_path": str(EXAMPLE)})
    answers = [witness("hook", "claude-code", stdin=payload.encode(),
                       env={"WITNESS_HOME": str(tmp_path), "WITNESS_STOP_BLOCKS": "1"}).stdout for _ in range(2)]
    assert json.loads(answers[0])["decision"] == "block"
    assert "decision" not in json.loads(answers[1])


def test_codex_stop_hook_blocks_then_allows_after_a_genuine_pass(tmp_path: Path) -> None:
    """Codex: a masked re-run keeps the block; once the session goes on to a genuine re-run, the stop is allowed."""
    session = codex_rollout(tmp_path / "rollout.jsonl", passes=False)
    code, answer, _ = stop(session, tmp_path, host="codex", turn_id="t1", model="gpt-5")
    assert code == 0 and answer["decision"] == "block"
    assert "`npm test`" in answer["reason"]
    session.write_text(session.read_text() + "".join(
        json.dumps(entry) + "\n" for entry in codex_run("c4", "npm test", 0, "Tests:  3 passed, 3 total")))
    assert stop(session, tmp_path, host="codex", turn_id="t1", model="gpt-5") == (0, None, "")


def test_subagent_stop_uses_the_agents_transcript(tmp_path: Path) -> None:
    """SubagentStop reads `agent_transcript_path` when it is given."""
    payload = {"hook_event_name": "SubagentStop", "session_id": "s-2", "stop_hook_active": False,
               "agent_id": "a1", "agent_type": "general-purpose", "transcript_path": "/nonexistent.jsonl",
               "agent_transcript_path": str(EXAMPLE)}
    done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "block"


def test_subagent_stop_holds_the_subagent_to_its_own_checks(tmp_path: Path) -> None:
    """A sub-agent's own transcript (a sidechain) is judged as if the sub-agent were the root."""
    sidechain = tmp_path / "agent-a7f3.jsonl"
    lines = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
    sidechain.write_text("".join(json.dumps({**line, "isSidechain": True, "agentId": "a7f3"}) + "\n"
                                 for line in lines))
    payload = {"hook_event_name": "SubagentStop", "session_id": "s-3", "stop_hook_active": False,
               "agent_id": "a7f3", "transcript_path": str(EXAMPLE), "agent_transcript_path": str(sidechain)}
    done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "block"


def test_stop_hook_allows_when_nothing_is_open(tmp_path: Path) -> None:
    """A session without failed checks stops freely, with no output."""
    assert stop(FIXTURES / "claude" / "convo.jsonl", tmp_path) == (0, None, "")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [(["hook", "claude-code"], b"not json", "not JSON"), (["hook", "claude-code"], b"[1, 2]", "not a JSON object"),
     (["hook", "nonsense"], b"{}", "unknown host"), (["hook"], b"{}", "unknown host"),
     (["hook", "claude-code"], b'{"hook_event_name": "Stop"}', "no transcript_path"),
     (["hook", "codex"], b'{"hook_event_name": "Stop", "transcript_path": null}', "no transcript_path"),
     (["hook", "claude-code"], b'{"hook_event_name": "Stop", "transcript_path": "/no/such.jsonl"}',
      "cannot read the transcript")],
)
def test_hooks_fail_open_and_never_exit_2(tmp_path: Path, args: list[str], stdin: bytes, message: str) -> None:
    """Bad input, a bad host or a missing transcript allow the stop: exit 0, a message on stderr."""
    done = witness(*args, stdin=stdin, env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0
    assert done.stdout.strip() == b""
    assert message in done.stderr.decode() and b"Traceback" not in done.stderr


def test_tool_events_are_accepted_without_reading_anything(tmp_path: Path) -> None:
    """PostToolUse and PostToolUseFailure return at once, even with a transcript that does not exist."""
    for event in ("PostToolUse", "PostToolUseFailure", "PreToolUse"):
        payload = {"hook_event_name": event, "session_id": "s", "transcript_path": "/no/such.jsonl",
                   "tool_name": "Bash", "tool_input": {"command": "npm test"}, "tool_use_id": "toolu_1"}
        done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(tmp_path)})
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_without_its_counter_the_hook_falls_back_on_stop_hook_active(tmp_path: Path) -> None:
    """If the block counter cannot be saved, a first stop is blocked once and a stop that follows a block is let go."""
    home = tmp_path / "file-not-dir"
    home.write_text("x")
    code, answer, err = stop(EXAMPLE, home)
    assert (code, answer["decision"]) == (0, "block")
    assert "cannot keep the block count" in err and "blocking once" in err
    code, answer, err = stop(EXAMPLE, home, stop_hook_active=True)
    assert code == 0 and "decision" not in answer
    assert "`npm test`" in answer["systemMessage"] and "allowing a stop that already follows a block" in err


def _disk_fault_after(monkeypatch: pytest.MonkeyPatch, lines: int) -> None:
    """Make every transcript read fail with EIO after ``lines`` lines: a disk fault cannot be produced here."""
    real = read_lines

    def failing(path: Path, *args: Any) -> Any:
        for line in real(path, *args):
            if line.number > lines:
                raise OSError(5, "Input/output error")
            yield line

    monkeypatch.setattr(replay_module, "read_lines", failing)


def test_audit_of_a_transcript_that_stops_reading_says_it_is_incomplete(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read error mid-file keeps what was read, and the report says it covers only those lines."""
    _disk_fault_after(monkeypatch, 6)
    out, err = io.StringIO(), io.StringIO()
    code = run_audit([str(EXAMPLE)], "seed", 1, as_json=False, out=out, err=err)
    text = out.getvalue()
    assert code == 1
    assert "OPEN: `npm test`" in text and "OPEN: `npm run lint`" in text
    assert "INCOMPLETE: reading stopped after line 6: Input/output error; this covers only the lines read" in text
    out = io.StringIO()
    run_audit([str(EXAMPLE)], "seed", 1, as_json=True, out=out, err=err)
    assert json.loads(out.getvalue())["sessions"][0]["read_error"] == "reading stopped after line 6: Input/output error"


def test_stop_hook_allows_when_the_transcript_cannot_be_read_to_its_end(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """An obligation seen before a read error may be closed after it: the hook allows and says why."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path))
    payload = {"hook_event_name": "Stop", "session_id": "s-1", "transcript_path": str(EXAMPLE),
               "stop_hook_active": False}
    err = io.StringIO()
    assert json.loads(run_hook("claude-code", json.dumps(payload).encode(), err))["decision"] == "block"
    _disk_fault_after(monkeypatch, 6)
    err = io.StringIO()
    assert run_hook("claude-code", json.dumps(payload).encode(), err) == ""
    assert "could not be read to its end (reading stopped after line 6: Input/output error); allowing" in err.getvalue()
