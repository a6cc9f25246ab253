"""The `witness` group and its exit statuses: every subcommand reachable through click, each
exception that can end a command mapped to its documented status, in one place."""

from __future__ import annotations

import gc
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import advisor.cli
from advisor.cli import ExitCode, cli, main
from advisor.cli._exits import exit_code_for
from advisor.errors import ConfigError
from obligations import SnapshotVersionError
from tests.advisor.sessions import WITNESS


def test_exit_codes_are_the_documented_ones() -> None:
    """0 ok, 1 findings, 2 usage, 130 interrupted, 143 terminated."""
    assert [(code.name, int(code)) for code in ExitCode] == [("OK", 0), ("FINDINGS", 1), ("USAGE", 2),
                                                             ("INTERRUPTED", 130), ("TERMINATED", 143)]


def test_the_group_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    """`witness --help` names every subcommand, each loaded on demand, and exits 0."""
    assert main(["--help"]) == ExitCode.OK
    out = capsys.readouterr().out
    for name in ("check", "audit", "hook", "consult", "log", "mcp", "packet", "serve", "install", "uninstall"):
        assert f"  {name} " in out
    assert sorted(cli.list_commands(click.Context(cli))) == [
        "audit", "check", "consult", "hook", "install", "log", "mcp", "packet", "serve", "uninstall"]


@pytest.mark.parametrize("name", ["check", "audit", "hook", "consult", "log", "mcp", "packet", "serve", "install",
                                  "uninstall"])
def test_each_subcommand_has_its_help(name: str) -> None:
    """`witness NAME --help` shows that command's usage."""
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0
    assert result.output.startswith(f"Usage: cli {name}")


def test_the_package_builds_the_group_only_when_asked() -> None:
    """`advisor.cli.cli` is the click group; asking for a name that does not exist is an AttributeError."""
    assert isinstance(advisor.cli.cli, click.Group)
    with pytest.raises(AttributeError):
        _ = advisor.cli.no_such_name


@pytest.mark.parametrize(
    ("error", "code", "message"),
    [(KeyboardInterrupt(), ExitCode.INTERRUPTED, "witness: interrupted\n"),
     (click.UsageError("give a COMMAND"), ExitCode.USAGE, "Error: give a COMMAND\n"),
     (click.exceptions.Exit(0), ExitCode.OK, ""),
     (click.Abort(), ExitCode.FINDINGS, "witness: aborted\n"),
     (ConfigError("no model named"), ExitCode.USAGE, "witness: no model named\n"),
     (SnapshotVersionError(9, 2), ExitCode.USAGE, "witness: unsupported snapshot version 9 (this tracker reads 2)\n")],
)
def test_each_exception_has_one_exit_status(error: BaseException, code: int, message: str) -> None:
    """Interrupts, click's errors and the packages' own errors become their exit statuses, with a
    one-line message and no traceback."""
    err = io.StringIO()
    assert exit_code_for(error, err) == code
    assert err.getvalue() == message


def test_ctrl_c_inside_click_is_an_interrupt() -> None:
    """click turns Ctrl-C into Abort; it still exits 130, "interrupted"."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise click.Abort() from interrupt
    except click.Abort as abort:
        err = io.StringIO()
        assert exit_code_for(abort, err) == ExitCode.INTERRUPTED
        assert err.getvalue() == "witness: interrupted\n"


def test_a_bug_is_not_turned_into_an_exit_status() -> None:
    """An exception nobody raised on purpose is raised again, to be seen."""
    with pytest.raises(KeyError):
        exit_code_for(KeyError("oops"), io.StringIO())


def test_an_interrupted_batch_exits_130() -> None:
    """Ctrl-C while `witness check --batch` waits for its next line: exit 130 and one line, no traceback."""
    with subprocess.Popen([WITNESS, "check", "--batch", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        process.stdin.write(b"pytest\n")
        process.stdin.flush()
        assert b'"witness_eligible": true' in process.stdout.readline()  # it is running, waiting for more
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
        assert process.stderr.read() == b"witness check: interrupted\n"


def test_python_dash_m_advisor_is_the_same_command() -> None:
    """`python -m advisor check …` gives the same verdict and status as `witness check …`."""
    done = subprocess.run([sys.executable, "-m", "advisor", "check", "--", "pytest -q || true"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout.startswith("masked: `pytest -q` (test)")


REAL = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts" / "real"


@pytest.mark.slow
@pytest.mark.parametrize(("host", "folder"), [("claude-code", "claude"), ("codex", "codex")])
def test_a_stop_call_leaves_almost_no_cyclic_garbage(host: str, folder: str) -> None:
    """The hook process runs without the cyclic collector: answering Stop on each real session (after a
    first answer has loaded what it loads) leaves a few dozen unreachable objects at most, not more for a
    longer session."""
    from advisor.hosts._stop import answer_stop

    for path in sorted((REAL / folder).glob("*.jsonl")):
        payload = {"hook_event_name": "Stop", "session_id": path.stem, "transcript_path": str(path),
                   "stop_hook_active": False}
        answer_stop(host, payload, io.StringIO())
        gc.collect()
        gc.disable()
        try:
            answer_stop(host, {**payload, "session_id": f"{path.stem}-again"}, io.StringIO())
            garbage = gc.collect()
        finally:
            gc.enable()
        assert garbage <= 64, (path.name, garbage)  # what holding the agent leaves (its lock), whatever the length


def test_the_hook_process_freezes_what_it_leaves_and_a_caller_keeps_its_collector(tmp_path: Path) -> None:
    """`witness hook` as the console script ends with what it loaded frozen and its collector back on; a
    program calling `main()` gets the same answer and its collector as it was, nothing frozen."""
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "s", "stop_hook_active": False,
                          "transcript_path": str(Path(__file__).resolve().parents[3] / "examples" / "session.jsonl")})
    report = "import atexit, gc, sys; atexit.register(lambda: print(gc.get_freeze_count() > 0, gc.isenabled(), " \
             "file=sys.stderr)); "
    script = report + f"import runpy; sys.argv = [{WITNESS!r}, 'hook', 'claude-code']; " \
                      f"runpy.run_path({WITNESS!r}, run_name='__main__')"
    program = report + "from advisor.cli import main; sys.argv = ['witness', 'hook', 'claude-code']; sys.exit(main())"
    done = {name: subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True, text=True,
                                 timeout=60, env={**os.environ, "WITNESS_HOME": str(tmp_path / name)})
            for name, code in (("script", script), ("program", program))}
    assert done["script"].stderr.split()[-2:] == ["True", "True"], done["script"].stderr
    assert done["program"].stderr.split()[-2:] == ["False", "True"], done["program"].stderr
    assert done["script"].stdout == done["program"].stdout and '"decision": "block"' in done["script"].stdout
    assert done["script"].returncode == done["program"].returncode == 0
