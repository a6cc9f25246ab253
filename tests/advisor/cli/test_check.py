"""`witness check`: output, exit codes, batch mode, and bad input — in process and as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import cli, main
from advisor.cli._fast import parse_check

WITNESS = str(Path(sys.executable).with_name("witness"))


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_genuine_check_exits_0_and_says_witness(capsys: pytest.CaptureFixture[str]) -> None:
    """A bare check is a witness: exit 0, and the headline names the check and its kind."""
    code, out, _ = run(["check", "--", "pytest -q"], capsys)
    assert code == 0
    assert out.startswith("witness: `pytest -q` (test)")


def test_masked_exits_1_and_points_at_the_masking_text(capsys: pytest.CaptureFixture[str]) -> None:
    """A masked check exits 1 and shows the command with a caret line under the masking text."""
    code, out, _ = run(["check", "--", "npm test; echo done"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("masked: `npm test` (test)")
    command_line, caret_line = lines[1], lines[2]
    start = caret_line.index("^")
    assert command_line[start : start + caret_line.count("^")] == "; echo done"
    assert "[echo-tail]" in caret_line


@pytest.mark.parametrize("command", ["ruff check --exit-zero .", "pytest --co", "make -ik test",
                                     "timeout --preserve-status 60 pytest"])
def test_a_check_forced_to_succeed_is_never_said_to_prove_a_pass(command: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """An option that lets a check exit 0 whatever it finds: exit 1, a headline saying so, never "proves it passed"."""
    code, out, _ = run(["check", "--", command], capsys)
    assert code == 1
    assert out.startswith("forced success: ") and "proves it passed" not in out
    assert "[forced-success]" in out


def test_words_after_the_separator_are_joined_into_one_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`witness check -- npm test` analyses `npm test`, and options after the command are its own."""
    code, out, _ = run(["check", "--json", "--", "npm", "test", "--", "--watch=false"], capsys)
    assert code == 0
    assert json.loads(out)["command"] == "npm test -- --watch=false"
    code, out, _ = run(["check", "pytest", "-q", "--json"], capsys)
    assert code == 0
    assert out.startswith("witness: `pytest -q --json` (test)")


def test_json_output_is_the_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    """`--json` prints the whole analysis, exit code unchanged."""
    code, out, _ = run(["check", "--json", "--", "cd api && npm test 2>&1 | tail -5"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["exit_source"] == "reporting-pipe"
    assert data["validation"]["statement"] == "npm test"
    assert data["validation"]["directory"] == "api"
    assert {reason["code"] for reason in data["reasons"]} >= {"reporting-pipe"}


def test_policy_and_shell_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`--policy strict` refuses a bash reporting pipe; `--shell pwsh` keeps a quoted report tail."""
    assert run(["check", "--policy", "strict", "--", "npm test | tail -5"], capsys)[0] == 1
    assert run(["check", "--policy=seed", "--", "npm test | tail -5"], capsys)[0] == 0
    assert run(["check", "--shell", "pwsh", "--", 'npm test; "EXIT=$LASTEXITCODE"'], capsys)[0] == 0
    assert run(["check", "--", 'npm test; "EXIT=$LASTEXITCODE"'], capsys)[0] == 1


def test_explain_shows_every_reason_and_the_identity(capsys: pytest.CaptureFixture[str]) -> None:
    """`--explain` adds kept reasons, identity, directory, key and effect."""
    code, out, _ = run(["check", "--explain", "--", "cd api && CI=1 timeout 60 npm test > log 2>&1"], capsys)
    assert code == 0
    for text in ("[wrapper]", "[env-prefix]", "[redirect]", "check: test · npm-script · npm test",
                 "directory: api", "effect: mutating"):
        assert text in out


def test_not_a_check_explains_mentions(capsys: pytest.CaptureFixture[str]) -> None:
    """A command that only mentions a check exits 1 and says where the mention is."""
    code, out, _ = run(["check", "--", "git commit -m 'run pytest'"], capsys)
    assert code == 1
    assert out.startswith("not a check")
    assert "[mention-only]" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [(["check"], "give a COMMAND"), (["check", "--shell", "fish", "--", "x"], "Invalid value for '--shell'"),
     (["check", "--shell"], "requires an argument"), (["check", "--nope", "--", "x"], "No such option"),
     (["check", "--batch", "x.txt", "--", "pytest"], "not both"), (["bogus"], "No such command")],
)
def test_usage_errors_exit_2_without_a_traceback(args: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Usage errors get click's message on stderr and exit code 2, never a traceback."""
    code, out, err = run(args, capsys)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "command",
    ["", "   ", "'unterminated", "echo $(" * 1000, "pytest -q ;;", "\t\n", "\u202e" + "pytest"],
)
def test_bad_commands_get_a_clear_verdict(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Empty, blank, unterminated or absurdly nested commands get a verdict, not an exception."""
    code, out, err = run(["check", "--", command], capsys)
    assert code == 1
    assert out.split(":")[0] in ("not a check", "unreadable", "masked")
    assert err == ""


def test_terminal_escapes_in_commands_are_not_printed_raw(capsys: pytest.CaptureFixture[str]) -> None:
    """Control characters from the command are shown as `?`, so a command cannot drive the terminal."""
    _, out, _ = run(["check", "--", "npm test; echo \x1b[31mdone"], capsys)
    assert "\x1b" not in out
    assert "echo ?[31mdone" in out


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_batch_gives_one_json_record_per_line_and_survives_bad_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Malformed lines get an error record, the run continues, and the exit code is 2."""
    source = write(tmp_path / "in.txt", [
        b"pytest -q",
        b"",
        b'{"command": "npm test; \\"EXIT=$LASTEXITCODE\\"", "shell": "pwsh", "id": 7}',
        b"{not json",
        b'{"command": 3}',
        b'{"command": "pytest", "shell": "fish"}',
        b"\xff\xfe npm test",
        b'{"command": "npm test\\u0000"}',
        b"npm test | grep ok",
    ])
    code, out, _ = run(["check", "--batch", str(source)], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [record["line"] for record in records] == [1, 3, 4, 5, 6, 7, 8, 9]
    assert records[0]["witness_eligible"] is True
    assert records[1]["id"] == 7 and records[1]["exit_source"] == "check"
    assert all("error" in record for record in records[2:6])
    assert records[6]["parse_error"] is not None and not records[6]["witness_eligible"]
    assert records[7]["exit_source"] == "masked"


def test_batch_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """All eligible: 0; any ineligible: 1."""
    assert run(["check", "--batch", str(write(tmp_path / "a", [b"pytest", b"npm test"]))], capsys)[0] == 0
    assert run(["check", "--batch", str(write(tmp_path / "b", [b"pytest", b"ls"]))], capsys)[0] == 1


def test_batch_text_format_renders_each_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--format text` prints each command and its verdict for people."""
    source = write(tmp_path / "c", [b"pytest", b"npm test || true"])
    code, out, _ = run(["check", "--batch", str(source), "--format", "text"], capsys)
    assert code == 1
    assert "$ pytest\nwitness:" in out
    assert "$ npm test || true\nmasked:" in out


def test_batch_reads_standard_input_and_reports_unreadable_files(tmp_path: Path) -> None:
    """`--batch` alone (or `-`) reads stdin; a missing file is an input error (2), not a traceback."""
    done = subprocess.run([WITNESS, "check", "--batch"], input=b"pytest\nnpm test | tail -1\n",
                          capture_output=True, timeout=60)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 2
    done = subprocess.run([WITNESS, "check", "--batch", str(tmp_path / "missing.txt")], capture_output=True,
                          timeout=60)
    assert done.returncode == 2
    assert b"missing.txt: it cannot be read (No such file or directory)" in done.stderr
    assert b"Traceback" not in done.stderr


def test_a_long_command_in_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 60 000-character command (too long for argv) is analysed through --batch; one past the bound
    (`MAX_COMMAND_CHARS`) is unreadable, fail-closed, with the reason."""
    from advisor.cli._check import MAX_COMMAND_CHARS

    source = tmp_path / "big.jsonl"
    source.write_text(json.dumps({"command": "pytest " + "a" * 60_000}) + "\n")
    code, out, _ = run(["check", "--batch", str(source)], capsys)
    assert code == 0 and json.loads(out)["validation"]["kind"] == "test"
    source.write_text(json.dumps({"command": "pytest " + "a" * MAX_COMMAND_CHARS}) + "\n")
    code, out, _ = run(["check", "--batch", str(source)], capsys)
    record = json.loads(out)
    assert code == 1 and record["witness_eligible"] is False
    assert record["parse_error"] == f"the command is {MAX_COMMAND_CHARS + 7:,} characters long; commands over " \
                                    f"{MAX_COMMAND_CHARS:,} characters are not analysed"


@pytest.mark.parametrize(
    "args",
    [["--", "pytest -q"], ["--json", "--", "npm test | tail"], ["--shell", "pwsh", "--", "npm test; 'x'"],
     ["--shell=pwsh", "--policy=strict", "--json", "npm", "test"], ["--explain", "--", "cd a && pytest"],
     ["--format", "json", "--policy", "strict", "--", "npm test | tee x"], ["--format=text", "pytest"],
     ["--", "--weird"], ["npm", "test", "--json"]],
)
def test_the_fast_path_agrees_with_click(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The click-free parser used for start-up speed gives exactly click's result."""
    assert parse_check(args) is not None
    fast = run(["check", *args], capsys)
    result = CliRunner().invoke(cli, ["check", *args], standalone_mode=False)
    assert (fast[0], fast[1]) == (result.return_value, result.output)


@pytest.mark.parametrize(
    "args", [["--help"], ["-h"], ["--shell", "fish", "--", "x"], ["--shell"], [], ["--batch", "f", "--", "x"]])
def test_the_fast_path_leaves_unusual_arguments_to_click(args: list[str]) -> None:
    """Help, bad values and misuse are not parsed by the fast path."""
    assert parse_check(args) is None


def test_the_real_process() -> None:
    """The installed `witness` script: exit codes, no traceback for bytes that are not UTF-8, --version."""
    ok = subprocess.run([WITNESS, "check", "--", "pytest -q"], capture_output=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.startswith(b"witness:")
    bad = subprocess.run([WITNESS.encode(), b"check", b"--", b"pytest \xff"], capture_output=True, timeout=60)
    assert bad.returncode == 1 and bad.stdout.startswith(b"unreadable")
    assert b"Traceback" not in bad.stderr
    version = subprocess.run([WITNESS, "--version"], capture_output=True, timeout=60, text=True)
    assert version.returncode == 0 and "witness" in version.stdout


def test_a_closed_pipe_is_not_an_error() -> None:
    """`witness check --batch … | head -c1` ends quietly: exit 0 and nothing on standard error."""
    done = subprocess.run(["bash", "-c", f"'{WITNESS}' check --batch --format text | head -c1; "
                                         "echo \" ${PIPESTATUS[0]}\""],
                          input=b"pytest\n" * 20000, capture_output=True, timeout=60)
    assert (done.stdout, done.stderr) == (b"$ 0\n", b"")
