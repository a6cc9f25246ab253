"""`witness check` with hostile or odd input: bounded lines and commands, an empty batch that is no all-clear, line
and byte numbers counted from 1, and exit statuses kept when nobody reads the output. Run as real processes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.advisor.sessions import WITNESS


def sh(script: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["bash", "-c", script], input=stdin, capture_output=True, timeout=120, cwd=cwd,
                          env={**os.environ, "W": WITNESS})


@pytest.mark.parametrize("stdin", [b"", b"\n\n  \n"])
def test_an_empty_batch_is_not_an_all_clear(tmp_path: Path, stdin: bytes) -> None:
    """No command in the `--batch` input: exit 2 and a message saying nothing was checked."""
    done = sh('"$W" check --batch', tmp_path, stdin)
    assert (done.returncode, done.stdout) == (2, b"")
    assert b"nothing was checked, which is not an all-clear" in done.stderr


def test_a_ten_megabyte_command_is_refused_at_once(tmp_path: Path) -> None:
    """A 10 MB `npm test; echo x; …` line (endless `/dev/zero` alike) gets an error record naming the bound and the
    batch goes on with the next line; nothing of it is held in memory."""
    source = tmp_path / "big.txt"
    source.write_bytes(b"npm test; echo x; " * 600_000 + b"\npytest\n")
    done = sh(f'"$W" check --batch {source}', tmp_path)
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == {"line": 1, "error": "line longer than 1,048,576 bytes; not read"}
    assert second["line"] == 2 and second["witness_eligible"] is True
    assert done.returncode == 2


def test_an_endless_line_ends(tmp_path: Path) -> None:
    """`head -c 50M /dev/zero` as one line: binary data, not commands; the batch stops at once with the reason,
    exit 2 — no MemoryError, no endless read."""
    done = sh('printf "pytest\\n" | cat - <(head -c 50000000 /dev/zero) | "$W" check --batch', tmp_path)
    assert done.returncode == 2 and b"MemoryError" not in done.stderr
    assert [json.loads(line)["line"] for line in done.stdout.splitlines()] == [1]
    assert done.stderr == (b"witness check: standard input: line 2 holds a NUL byte: this is binary data, not "
                           b"commands; the batch stopped there\n")


def test_a_long_command_on_the_command_line_is_fail_closed(tmp_path: Path) -> None:
    """A command over the bound given after `--` is `unreadable`, with the reason, exit 1."""
    command = "npm test; echo x; " * 5_000
    done = subprocess.run([WITNESS, "check", "--", command], capture_output=True, timeout=60)
    assert done.returncode == 1
    assert b"unreadable: the command is 90,000 characters long; commands over 65,536 characters" in done.stdout


def test_bytes_are_counted_from_1_like_lines(tmp_path: Path) -> None:
    """A line that is not UTF-8 names its first bad byte counting from 1, as transcript readers do."""
    done = sh('printf "pytest\\n\\xffabc\\n" | "$W" check --batch', tmp_path)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records[1] == {"line": 2, "error": "line is not valid UTF-8 (byte 1)"}


@pytest.mark.parametrize(("command", "code"), [("pytest -q", 0), ("npm test; true", 1)])
@pytest.mark.parametrize("redirect", [">&-", "> /dev/full", "| true"])
def test_a_verdict_nobody_reads_keeps_its_exit_status(tmp_path: Path, command: str, code: int, redirect: str) -> None:
    """Standard output closed, full or gone: the exit status is still the verdict's, and nothing is said on stderr."""
    done = sh(f'"$W" check -- "{command}" {redirect}; echo "${{PIPESTATUS[0]}}" > status', tmp_path)
    assert (tmp_path / "status").read_text().strip() == str(code)
    assert done.stderr == b""


def test_a_batch_whose_reader_left_stops(tmp_path: Path) -> None:
    """`yes pytest | witness check --batch | head -1` ends (the batch stops when its output is gone), exit 0."""
    done = sh('yes pytest | "$W" check --batch | head -1; echo "${PIPESTATUS[1]}" > status', tmp_path)
    assert json.loads(done.stdout)["line"] == 1
    assert (tmp_path / "status").read_text().strip() == "0" and done.stderr == b""


def test_check_output_cannot_drive_a_terminal(tmp_path: Path) -> None:
    """Escapes, BEL, C1 controls and bidi overrides in a command are `?` in the verdict and escaped in JSON."""
    command = "npm test \x1b]0;pwned\x07 \u202eevil \x9b2J; true"
    text = subprocess.run([WITNESS, "check", "--", command], capture_output=True, timeout=60).stdout.decode()
    assert "masked" in text and not any(char in text for char in "\x1b\x07\x9b\u202e")
    raw = subprocess.run([WITNESS, "check", "--json", "--", command], capture_output=True, timeout=60).stdout.decode()
    assert not any(char in raw for char in "\x1b\x07\x9b\u202e") and json.loads(raw)["command"] == command


def test_the_batch_file_option_and_json_together(tmp_path: Path) -> None:
    """`check --batch FILE --json` reads FILE (not standard input) and prints JSON records."""
    source = tmp_path / "commands.txt"
    source.write_text("npm test\n")
    done = sh(f'echo pytest | "$W" check --batch {source} --json', tmp_path)
    assert [json.loads(line)["command"] for line in done.stdout.splitlines()] == ["npm test"]
