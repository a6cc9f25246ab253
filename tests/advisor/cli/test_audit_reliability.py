"""`witness audit` keeps its promises: exit statuses that do not lose findings, streams read as streams, folder
audits that say what they skipped, and output that cannot drive a terminal. Run as real processes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.advisor.sessions import EXAMPLE, WITNESS, codex_rollout, witness
from tests.obligations.transcript_files import codex, codex_run, write_jsonl


def sh(script: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``script`` under bash, with ``$W`` the witness script and ``$S`` the example session (one check open)."""
    return subprocess.run(["bash", "-c", script], capture_output=True, timeout=120, cwd=cwd,
                          env={**os.environ, "W": WITNESS, "S": str(EXAMPLE)})


def test_a_missing_folder_is_a_warning_and_the_findings_in_the_other_count(tmp_path: Path) -> None:
    """The README's `witness audit ~/.claude/projects ~/.codex/sessions` with one folder missing: exit 1 for the
    open check found in the other, and the missing one named on stderr."""
    projects = tmp_path / "projects"
    projects.mkdir()
    shutil.copy(EXAMPLE, projects / "s.jsonl")
    done = witness("audit", str(projects), str(tmp_path / "sessions"))
    assert done.returncode == 1
    assert f"{tmp_path / 'sessions'}: no such file or directory" in done.stderr.decode()
    assert "OPEN: `npm test`" in done.stdout.decode()


def test_a_missing_path_beside_a_clean_session_exits_0(tmp_path: Path) -> None:
    """Clean sessions audited, one PATH missing: exit 0 (warned), not a usage error."""
    clean = codex_rollout(tmp_path / "clean.jsonl", passes=True)
    done = witness("audit", str(clean), str(tmp_path / "nope"))
    assert done.returncode == 0 and b"no such file or directory" in done.stderr


@pytest.mark.parametrize(("make", "why"), [
    (lambda root: root.mkdir(), "no *.jsonl file was found"),
    (lambda root: (root.mkdir(), (root / "notes.jsonl").write_text('{"a": 1}\n')), "no file read was a transcript"),
])
def test_an_audit_of_nothing_is_not_an_all_clear(tmp_path: Path, make: object, why: str) -> None:
    """A folder without transcripts exits 2 and says nothing was audited; it never prints "0 sessions … clean"."""
    root = tmp_path / "empty"
    make(root)  # type: ignore[operator]
    done = witness("audit", str(root))
    assert done.returncode == 2
    assert f"nothing audited ({why}); this is not an all-clear" in done.stderr.decode()
    assert b"0 session(s)" not in done.stdout


def test_an_empty_path_is_refused_not_read_as_the_current_directory(tmp_path: Path) -> None:
    """`witness audit ''` names nothing: a warning, and alone it audits nothing (exit 2), even in a folder of
    transcripts."""
    shutil.copy(EXAMPLE, tmp_path / "s.jsonl")
    done = witness("audit", "", cwd=tmp_path)
    assert done.returncode == 2 and b"an empty path names nothing" in done.stderr
    assert witness("audit", "", str(EXAMPLE), cwd=tmp_path).returncode == 1


@pytest.mark.parametrize("script", ['"$W" audit - < "$S"', 'cat "$S" | "$W" audit -', '"$W" audit <(cat "$S")',
                                    'cat "$S" | "$W" audit /dev/stdin'])
def test_streams_are_audited(tmp_path: Path, script: str) -> None:
    """Standard input (`-`), process substitution and a piped `/dev/stdin` are read as streams: the open check is
    found, with the transcript's own line numbers."""
    done = sh(script, tmp_path)
    assert done.returncode == 1, done.stderr
    assert "OPEN: `npm test`" in done.stdout.decode() and ":4: exited 1" in done.stdout.decode()


@pytest.mark.parametrize(("script", "reason"), [
    ('"$W" audit /dev/zero', "/dev/zero: a character device, not a transcript file or stream"),
    ('yes | "$W" audit -', "standard input: not a session transcript of a host witness reads"),
    ('"$W" audit <(yes)', "not a session transcript of a host witness reads: it is not JSON Lines"),
])
def test_what_cannot_be_a_transcript_is_named_for_what_it_is(tmp_path: Path, script: str, reason: str) -> None:
    """A device, or an endless stream that is not JSON Lines, is refused with the real reason (not "no such
    file"), after reading only the stream's head."""
    done = sh(script, tmp_path)
    assert done.returncode == 2 and reason in done.stderr.decode(), done.stderr


def test_a_folder_audit_names_what_it_skipped_and_only_reads_jsonl(tmp_path: Path) -> None:
    """`*.jsonl` files only (witness's own `.json` state and `.ndjson` files are not read); a named pipe, a
    dangling link and a link to a session are skipped (links are not followed: a session is not counted twice),
    each with its reason, and counted."""
    root = tmp_path / "sessions"
    (root / "hooks").mkdir(parents=True)
    shutil.copy(EXAMPLE, root / "a.jsonl")
    shutil.copy(EXAMPLE, root / "b.ndjson")
    (root / "hooks" / "claude-code-s.json").write_text('{"version": 2, "agents": {}}')
    os.mkfifo(root / "pipe.jsonl")
    (root / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (root / "again.jsonl").symlink_to(root / "a.jsonl")
    done = witness("audit", "--json", str(root))
    report = json.loads(done.stdout)
    assert done.returncode == 1
    assert [Path(s["path"]).name for s in report["sessions"]] == ["a.jsonl"]
    reasons = {Path(s["path"]).name: s["reason"] for s in report["skipped"]}
    link = "a symbolic link, not followed (name it to audit what it points to)"
    assert reasons == {"gone.jsonl": link, "again.jsonl": link, "pipe.jsonl": "a named pipe, not a regular file"}
    text = witness("audit", str(root)).stdout.decode()
    assert "skipped 3 file(s) or folder(s):" in text and "pipe.jsonl: a named pipe, not a regular file" in text


def test_an_unlistable_subfolder_is_skipped_and_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sub-folder that cannot be listed is named with its reason (injected: these tests run as root, whom
    permissions do not stop)."""
    from collections.abc import Callable, Iterator

    from advisor.cli import _audit_paths

    root = tmp_path / "projects"
    (root / "locked").mkdir(parents=True)
    shutil.copy(EXAMPLE, root / "a.jsonl")
    real_walk = os.walk

    def walk(top: Path, onerror: Callable[[OSError], None]) -> Iterator[tuple[str, list[str], list[str]]]:
        onerror(PermissionError(13, "Permission denied", str(root / "locked")))
        return real_walk(top)

    monkeypatch.setattr(os, "walk", walk)
    found = _audit_paths.find([str(root)], tmp_path)
    assert found.skipped == [(str(root / "locked"), "folder cannot be read (Permission denied)")]
    assert [source.path.name for source in found.sources] == ["a.jsonl"]


def hostile_session(tmp_path: Path) -> Path:
    """A Codex session whose failing check prints terminal escapes, a bell and a bidi override."""
    evil = "Tests: 1 failed \x1b[2J\x1b]0;pwned\x07 \u202eevil\x9b31m"
    return write_jsonl(tmp_path / "hostile.jsonl", [
        codex("session_meta", {"id": "t", "cwd": "/repo\x1b[31m"}),
        codex("event_msg", {"type": "user_message", "message": "go"}),
        *codex_run("c1", "npm test", 1, evil),
    ])


def test_audit_output_cannot_drive_a_terminal(tmp_path: Path) -> None:
    """Escapes, BEL, C1 controls and bidi overrides from a transcript never reach the terminal raw; in `--json` they
    are escaped, so the data stay exact."""
    path = hostile_session(tmp_path)
    text = witness("audit", str(path)).stdout.decode()
    assert "OPEN: `npm test`" in text
    assert not any(char in text for char in "\x1b\x07\x9b\u202e")
    assert "?[31m" in text  # the cwd's escape, made visible (the failure line is read with colour codes removed)
    raw = witness("audit", "--json", str(path)).stdout.decode()
    assert not any(char in raw for char in "\x1b\x07\x9b\u202e")
    assert "\\u001b[31m" in raw and "\\u009b" in raw and "\\u202e" in raw
    assert "\x1b[2J" in json.loads(raw)["sessions"][0]["open"][0]["summary"]


@pytest.mark.parametrize("redirect", [">&-", "> /dev/full", "| head -c1 > /dev/null"])
def test_a_closed_or_full_output_keeps_the_exit_status(tmp_path: Path, redirect: str) -> None:
    """With standard output closed, full or gone, `witness audit` still exits 1 for the open check, quietly."""
    done = sh(f'"$W" audit "$S" {redirect}; echo "${{PIPESTATUS[0]}}" > status', tmp_path)
    assert (tmp_path / "status").read_text().strip() == "1"
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr


def test_results_of_calls_never_dispatched_are_counted(tmp_path: Path) -> None:
    """A result whose call the file never showed is counted and reported (it counts as a possible edit)."""
    path = write_jsonl(tmp_path / "s.jsonl", [
        codex("session_meta", {"id": "t", "cwd": "/repo"}),
        codex("response_item", {"type": "function_call_output", "call_id": "ghost", "output": "ok"}),
    ])
    done = witness("audit", "--json", str(path))
    assert json.loads(done.stdout)["sessions"][0]["unknown_results"] == 1
    assert "1 result(s) of calls never dispatched in this file" in witness("audit", str(path)).stdout.decode()


def _on_a_terminal(args: list[str]) -> tuple[int, bytes, bytes]:
    """Run witness with standard error on a terminal (standard output piped): its status, stdout, and what it drew."""
    import pty

    primary, secondary = pty.openpty()
    drawn = b""
    with subprocess.Popen([WITNESS, *args], stdout=subprocess.PIPE, stderr=secondary,
                          env={**os.environ, "COLUMNS": "120"}) as run:
        os.close(secondary)
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the other side closed: the process is done
                break
            if not chunk:
                break
            drawn += chunk
        assert run.stdout is not None
        out = run.stdout.read()
        status = run.wait(timeout=120)
    os.close(primary)
    return status, out, drawn


@pytest.mark.slow
def test_a_single_large_file_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    """Auditing one large session with standard error on a terminal draws a bar of the bytes read (the file is
    audited in this process, its progress told as it is read), gone at the end; piped, nothing is drawn."""
    large = tmp_path / "large.jsonl"
    large.write_bytes(EXAMPLE.read_bytes() * 4000)  # 40 MB: the example written again and again (read once)
    status, out, drawn = _on_a_terminal(["audit", str(large)])
    assert status == 1 and b"OPEN: `npm test`" in out
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn.decode(errors="replace"))
    assert "auditing 1 file" in text and "/38.9 MB" in text, text
    piped = witness("audit", str(large))
    assert piped.returncode == 1 and piped.stderr == b""


def test_a_path_that_cannot_be_read_is_a_warning_and_the_others_are_audited(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A PATH the user may not read beside a session: a warning naming it and why, and the session's open check
    still exits 1 — nothing aborts the run. (These tests may run as root, whom no mode stops: the refusal is
    injected where the file is checked and opened.)"""
    import io
    from pathlib import Path as RealPath

    from advisor.cli import main

    locked = tmp_path / "locked.jsonl"
    shutil.copy(EXAMPLE, locked)
    locked.chmod(0)
    real_open, real_access = RealPath.open, os.access

    def denied_open(path: RealPath, *args: object, **kwargs: object) -> object:
        if path == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(RealPath, "open", denied_open)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: str(path) != str(locked) and real_access(path, mode))
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert main(["audit", "--jobs", "1", str(EXAMPLE), str(locked)]) == 1
    assert f"witness audit: {locked}: not a session transcript of a host witness reads: it cannot be read " \
           "(Permission denied)" in err.getvalue()
