"""Bad input, command by command, as data: one table of inputs × commands × the exit status and the one line on
standard error a user sees — never a traceback, never a hang. Each row runs the real `witness` under bash, in a
folder holding the example session (`s.jsonl`), a note that is no transcript, a folder, a named pipe, a line of
JSON nested 5,000 deep, a file where `$WITNESS_HOME` should be a folder, and a log that is a folder."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.advisor.sessions import EXAMPLE, WITNESS

STOP = '{"hook_event_name": "Stop", "session_id": "s", "transcript_path": "s.jsonl"}'


class Row(NamedTuple):
    """One bad input given to one command."""

    script: str
    """The command line, run by bash in the prepared folder (``$W`` is witness)."""
    status: int
    """The exit status expected (of witness, in a pipeline)."""
    says: str
    """What standard error must say (``""``: nothing at all)."""
    prints: str | tuple[str, ...] = ""
    """What standard output must hold, if anything (each of several)."""
    stage: int = -1
    """Which command of a pipeline is witness (its status is the one checked)."""


ROWS: dict[str, Row] = {
    # witness check --batch
    "check: JSON nested 5,000 deep": Row('"$W" check --batch deep.jsonl', 2, "",
                                         ('{"line": 1, "error": "line starts with \'{\' but its JSON is nested too '
                                          'deeply to read"}', '{"line": 2, "command": "pytest -q"')),
    "check: a device that never ends": Row('"$W" check --batch /dev/zero', 2,
                                           "witness check: /dev/zero: a character device, not a file or stream "
                                           "(it would never end)"),
    "check: standard input from a device": Row('"$W" check --batch < /dev/zero', 2,
                                               "witness check: standard input: a character device"),
    "check: binary data on standard input": Row('head -c 100000 /dev/zero | "$W" check --batch', 2,
                                                "line 1 holds a NUL byte: this is binary data, not commands"),
    "check: --help into a full disk": Row('"$W" check --help > /dev/full', 0, ""),
    # witness audit
    "audit: a missing path beside a session": Row('"$W" audit s.jsonl missing', 1,
                                                  "witness audit: missing: no such file or directory"),
    "audit: an empty path": Row("\"$W\" audit ''", 2, "witness audit: '': an empty path names nothing"),
    "audit: a note that is no transcript": Row('"$W" audit notes.txt', 2,
                                               "witness audit: notes.txt: not a session transcript of a host "
                                               "witness reads"),
    "audit: a folder's skip names the file once": Row('"$W" audit folder', 1, "",
                                                      "   folder/notes.jsonl: not a session transcript"),
    "audit: standard input from a device": Row('"$W" audit - < /dev/zero', 2,
                                               "witness audit: standard input: a character device"),
    "audit: into a full disk": Row('"$W" audit s.jsonl > /dev/full', 1, ""),
    "audit: a reader that leaves": Row('"$W" audit s.jsonl | head -1', 1, "", stage=0),
    # witness packet
    "packet: an empty path": Row("\"$W\" packet ''", 2, "witness packet: '': an empty path names nothing"),
    "packet: a missing path": Row('"$W" packet missing', 2, "witness packet: missing: no such file or directory"),
    "packet: a folder": Row('"$W" packet folder', 2, "witness packet: folder: a directory, not a transcript file"),
    "packet: a device": Row('"$W" packet /dev/null', 2,
                            "witness packet: /dev/null: a character device, not a transcript file or stream"),
    "packet: standard input": Row('"$W" packet - < s.jsonl', 0, "", "case packet for root"),
    "packet: --upto past the end": Row('"$W" packet --upto 999 s.jsonl', 2,
                                       "witness packet: --upto 999: the session has only 6 tool call(s)"),
    "packet: into a full disk": Row('"$W" packet s.jsonl > /dev/full', 0, ""),
    # witness consult (--dry-run: no model)
    "consult: an empty path": Row("\"$W\" consult --dry-run ''", 2, "witness consult: '': an empty path names nothing"),
    "consult: a missing path": Row('"$W" consult --dry-run missing', 2,
                                   "witness consult: missing: no such file or directory"),
    "consult: a folder": Row('"$W" consult --dry-run folder', 2,
                             "witness consult: folder: a directory, not a transcript file"),
    "consult: standard input": Row('"$W" consult --dry-run - < s.jsonl', 0, "", "── system ──"),
    "consult: --upto past the end": Row('"$W" consult --dry-run --upto 999 s.jsonl', 2,
                                        "witness consult: --upto 999: the session has only 6 tool call(s)"),
    "consult: into a full disk": Row('"$W" consult --dry-run s.jsonl > /dev/full', 0, ""),
    "consult: a reader that leaves": Row('"$W" consult --dry-run s.jsonl | head -1', 0, "", stage=0),
    # witness log
    "log: WITNESS_HOME is a file": Row('WITNESS_HOME="$PWD/home-file" "$W" log', 2,
                                       "witness log: cannot read", ""),
    "log: the log is a folder": Row('WITNESS_HOME="$PWD/home-dir" "$W" log', 2,
                                    "consultations.jsonl (Is a directory)"),
    "log: WITNESS_HOME is relative": Row('WITNESS_HOME=state "$W" log', 2,
                                         "witness log: WITNESS_HOME='state' is not an absolute path"),
    "log: into a full disk": Row('"$W" log --json > /dev/full', 0, ""),
    # witness hook (always exit 0)
    "hook: empty input": Row('printf "" | "$W" hook claude-code', 0,
                             "witness hook: bad hook input: empty (the host sent nothing); allowing"),
    "hook: a deadline past an hour": Row(f"echo '{STOP}' | WITNESS_HOOK_DEADLINE=1e308 \"$W\" hook claude-code", 0,
                                         "WITNESS_HOOK_DEADLINE='1e308' is not a number of seconds greater than 0 "
                                         "and at most 3600", "checks nothing until its setting is fixed"),
    "hook: WITNESS_HOME is relative": Row(f"echo '{STOP}' | WITNESS_HOME=state \"$W\" hook claude-code", 0,
                                          "WITNESS_HOME='state' is not an absolute path",
                                          "checks nothing until its setting is fixed"),
    "hook: an agent_id that is a number": Row(
        "echo '{\"hook_event_name\": \"SubagentStop\", \"session_id\": \"s\", \"transcript_path\": \"s.jsonl\", "
        "\"agent_id\": 123}' | \"$W\" hook claude-code", 0,
        "names neither the sub-agent's transcript nor its agent_id"),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bad-input")
    shutil.copy(EXAMPLE, root / "s.jsonl")
    (root / "notes.txt").write_text("hello\n")
    (root / "folder").mkdir()
    shutil.copy(EXAMPLE, root / "folder" / "s.jsonl")
    (root / "folder" / "notes.jsonl").write_text('{"a": 1}\n')
    (root / "deep.jsonl").write_text('{"command": ' + "[" * 5000 + "]" * 5000 + "}\npytest -q\n")
    (root / "home-file").write_text("")
    (root / "home-dir" / "log" / "consultations.jsonl").mkdir(parents=True)
    return root


@pytest.mark.parametrize("row", ROWS.values(), ids=ROWS.keys())
def test_bad_input_gets_its_exit_status_and_one_clear_line(folder: Path, row: Row, tmp_path: Path) -> None:
    """Each row: the documented exit status, the line on standard error (or nothing), no traceback, no hang,
    and nothing written where it does not belong (no relative state folder)."""
    env = {**os.environ, "W": WITNESS, "WITNESS_HOME": str(tmp_path / "home")}
    done = subprocess.run(["bash", "-c", f"{row.script}; exit ${{PIPESTATUS[{row.stage}]}}"], capture_output=True,
                          timeout=120, cwd=folder, env=env)
    err, out = done.stderr.decode(), done.stdout.decode()
    assert done.returncode == row.status, (out, err)
    assert "Traceback" not in err
    assert row.says in err if row.says else err == "", err
    assert all(part in out for part in ((row.prints,) if isinstance(row.prints, str) else row.prints)), out
    assert not (folder / "state").exists()


def test_a_named_pipe_nobody_writes_to_is_waited_for_with_a_note(tmp_path: Path) -> None:
    """`witness audit FIFO` and `check --batch FIFO` with no writer yet say they are waiting (not a silent hang),
    then read what is written once a writer comes."""
    for args, expected in ((["audit"], b"OPEN: `npm test`"), (["check", "--batch"], b'"witness_eligible": true')):
        fifo = tmp_path / f"{args[0]}.fifo"
        os.mkfifo(fifo)
        with subprocess.Popen([WITNESS, *args, str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
            assert run.stderr is not None and run.stdout is not None
            note = run.stderr.readline()
            assert note == f"witness {args[0]}: waiting for something to write to {fifo} (a named pipe) …\n".encode()
            fifo.write_bytes(EXAMPLE.read_bytes() if args[0] == "audit" else b"pytest -q\n")
            assert expected in run.stdout.read()
            run.wait(timeout=60)


def test_a_named_pipe_nobody_ever_writes_to_is_given_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the wait, a named pipe without a writer is refused with the reason, and the other paths are audited."""
    from advisor.cli import _inputs
    from advisor.cli._audit import run_audit

    monkeypatch.setattr(_inputs, "STREAM_WAIT", 0.2)
    fifo = tmp_path / "quiet.fifo"
    os.mkfifo(fifo)
    out, err = io.StringIO(), io.StringIO()
    assert run_audit([str(fifo), str(EXAMPLE)], "seed", 1, as_json=False, out=out, err=err) == 1
    assert f"{fifo}: nothing was written to this named pipe in 0.2 s (is anything writing to it?)" in err.getvalue()


def test_a_stream_longer_than_the_bound_is_refused_and_its_copy_removed(tmp_path: Path) -> None:
    """`audit -` copies standard input to a temporary file up to a bound (here lowered to 10,000 bytes): past it
    the stream is refused with the reason, its copy is gone at once, and the other paths are still audited."""
    code = ("import sys; import advisor.cli._inputs as inputs; inputs.STREAM_MAX_BYTES = 10_000; "
            "from advisor.cli import main; raise SystemExit(main(['audit', '-', sys.argv[1]]))")
    feeder = subprocess.Popen(["bash", "-c", f'cat "{EXAMPLE}"; yes "$(tail -1 "{EXAMPLE}")"'],
                              stdout=subprocess.PIPE)
    assert feeder.stdout is not None
    with feeder.stdout:
        done = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], stdin=feeder.stdout, capture_output=True,
                              timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)})
    feeder.kill()
    feeder.wait()
    assert done.returncode == 1, done.stderr
    assert (b"witness audit: standard input: longer than 10,000 bytes, the most copied from a stream; write it to a "
            b"file and name the file") in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_terminated_audit_removes_its_copy_of_a_stream(tmp_path: Path) -> None:
    """SIGTERM while `audit -` copies an endless stream: it stops (exit 143, "terminated") and the temporary copy
    is removed, as on Ctrl-C."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    feeder = subprocess.Popen(["bash", "-c", f'cat "{EXAMPLE}"; yes "$(tail -1 "{EXAMPLE}")"'],
                              stdout=subprocess.PIPE)
    assert feeder.stdout is not None
    with feeder.stdout, subprocess.Popen([WITNESS, "audit", "-"], stdin=feeder.stdout, stderr=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, env=env) as run:
        deadline = time.monotonic() + 60
        while not any(tmp_path.rglob("stdin")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(tmp_path.rglob("stdin")), "the copy never started"
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=60) == 143
        assert run.stderr is not None and run.stderr.read() == b"witness audit: terminated\n"
    feeder.kill()
    feeder.wait()
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_block_count_is_not_trusted(tmp_path: Path) -> None:
    """A count file whose count is negative (or not a number) counts nothing: the next block is reminder 1 of 3,
    never "reminder -99 of 3"."""
    from advisor.hosts import BlockCounter, BlockKey

    key = BlockKey("claude-code", "s", "main", "t")
    counter = BlockCounter(tmp_path)
    counter.count(key, 3)
    for damaged in (-100, "2", True, 2.5):
        data = json.loads(counter.path(key).read_text())
        data["agents"]["main"]["blocks"] = damaged
        counter.path(key).write_text(json.dumps(data))
        assert counter.count(key, 3) == 1, damaged


@pytest.mark.parametrize("others", [["x/y", "x_y", "x:y"], ["a" * 300 + "1", "a" * 300 + "2"]],
                         ids=["unsafe characters", "long ids"])
def test_each_session_spends_its_own_budget(tmp_path: Path, others: list[str]) -> None:
    """Session ids that differ only in characters a file name cannot hold, or only past the part of the id a file
    name shows, never share a block budget."""
    from advisor.hosts import BlockCounter, BlockKey

    counter = BlockCounter(tmp_path)
    for session in others:
        assert [counter.count(BlockKey("claude-code", session, "main", "t"), 3) for _ in range(3)] == [1, 2, 3]
    assert len({counter.path(BlockKey("claude-code", session, "main", "t")) for session in others}) == len(others)
