"""`witness hook` exits 0 in every failure mode — to the hosts exit 2 means "block" — and says on stderr whether the
host's input was bad or witness failed; its input is bounded in size and time. Run as real processes under bash."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.advisor.sessions import EXAMPLE, WITNESS

STOP = json.dumps({"hook_event_name": "Stop", "session_id": "s-1", "transcript_path": str(EXAMPLE)})


def sh(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    """Run ``script`` under bash with ``$W`` the witness script and ``$STOP`` a Stop payload with an open check."""
    return subprocess.run(["bash", "-c", script], capture_output=True, timeout=120, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "W": WITNESS, "STOP": STOP, "WITNESS_HOME": str(tmp_path),
                               **env})


@pytest.mark.parametrize(("script", "message"), [
    ('"$W" hook claude-code <&-', "bad hook input: standard input is closed"),
    ('"$W" hook claude-code 0>stdin-opened-for-writing', "bad hook input: standard input cannot be read"),
    ('"$W" hook claude-code < /dev/zero', "bad hook input: larger than 16 MB"),
    ('python3 -c "print(\'[\' * 100000)" | "$W" hook claude-code', "bad hook input: JSON nested too deeply"),
    ('printf \'{"hook_event_name": "Stop", "transcript_path": "a\\\\u0000b"}\' | "$W" hook claude-code',
     "not a usable file name"),
    ('printf \'{"hook_event_name": "Stop", "transcript_path": "a\\\\ud800b"}\' | "$W" hook claude-code',
     "not a usable file name"),
    ('mkfifo fifo; printf \'{"hook_event_name": "Stop", "transcript_path": "fifo"}\' | "$W" hook claude-code',
     "is not a regular file (a named pipe)"),
    ('"$W" hook --bogus claude-code < /dev/null', "unknown option '--bogus'"),
    ('"$W" hook claude-code codex < /dev/null', "too many arguments"),
])
def test_bad_input_allows_with_a_reason(tmp_path: Path, script: str, message: str) -> None:
    """Closed, unreadable, endless, deeply nested or unusable input, and bad arguments: exit 0, nothing on stdout,
    the reason on stderr — never an internal error or a traceback."""
    done = sh(script, tmp_path)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    assert message in done.stderr.decode() and b"internal error" not in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize("script", [
    'echo "$STOP" | "$W" hook claude-code >&-',
    'echo "$STOP" | "$W" hook claude-code > /dev/full',
    'echo "$STOP" | "$W" hook claude-code > /dev/full 2> /dev/full',
    'echo "$STOP" | "$W" hook claude-code >&- 2>&-',
    'echo "$STOP" | "$W" hook claude-code | true',
])
def test_an_answer_nobody_can_read_still_exits_0(tmp_path: Path, script: str) -> None:
    """A closed, full or vanished standard output (or error): the hook still exits 0, without a traceback."""
    done = sh(script + '; echo "${PIPESTATUS[1]}" > status', tmp_path)
    assert (tmp_path / "status").read_text().strip() == "0", done.stderr
    assert b"Traceback" not in done.stderr


def test_help_with_a_bogus_option_is_help_and_exit_0(tmp_path: Path) -> None:
    """`witness hook --bogus --help` prints the help and exits 0 (click's usage error would be exit 2: a block)."""
    done = sh('"$W" hook --bogus --help', tmp_path)
    assert done.returncode == 0 and b"Answer a Claude Code or Codex hook call" in done.stdout


def test_a_hook_past_its_deadline_allows(tmp_path: Path) -> None:
    """Input that never ends within `WITNESS_HOOK_DEADLINE`: the hook allows, says why, and exits 0."""
    env = {"WITNESS_HOOK_DEADLINE": "1", "WITNESS_HOME": str(tmp_path)}
    with subprocess.Popen([WITNESS, "hook", "claude-code"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env) as hook:
        code = hook.wait(timeout=60)  # standard input stays open and empty: the host never finishes writing
        out, err = hook.communicate()
    assert (code, out) == (0, b"")
    assert b"no answer within 1 s (WITNESS_HOOK_DEADLINE); allowing" in err


@pytest.mark.parametrize(("variable", "value", "named"), [
    ("WITNESS_POLICY", "bogus", "is not a policy: use seed"), ("WITNESS_POLICY", "Strict", "is not a policy"),
    ("WITNESS_STOP_BLOCKS", "abc", "is not a whole number"), ("WITNESS_STOP_BLOCKS", "-1", "is not a whole number"),
    ("WITNESS_HOOK_DEADLINE", "soon", "is not a number of seconds"),
    ("WITNESS_HOOK_DEADLINE", "0", "is not a number of seconds"),
])
def test_a_bad_setting_is_said_to_the_user_not_guessed(tmp_path: Path, variable: str, value: str,
                                                        named: str) -> None:
    """A setting that is not valid is not replaced by its default: the stop is allowed and the user is told
    (systemMessage) which variable is wrong; exit 0."""
    done = sh('echo "$STOP" | "$W" hook claude-code', tmp_path, **{variable: value})
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert "decision" not in answer and f"{variable}={value!r}" in answer["systemMessage"]
    assert named in answer["systemMessage"] and named in done.stderr.decode()


def test_valid_settings_are_read(tmp_path: Path) -> None:
    """`WITNESS_STOP_BLOCKS=0` never blocks (the user is told what is open); spaces around values are fine."""
    done = sh('echo "$STOP" | "$W" hook claude-code', tmp_path, WITNESS_STOP_BLOCKS=" 0 ", WITNESS_POLICY="strict ")
    assert "`npm test`" in json.loads(done.stdout)["systemMessage"]


def test_environment_is_not_needed(tmp_path: Path) -> None:
    """The hook runs with an empty environment (no HOME): it keeps its counts where WITNESS_HOME says."""
    done = subprocess.run([WITNESS, "hook", "claude-code"], input=STOP.encode(), capture_output=True, timeout=60,
                          env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "block"
    assert os.listdir(tmp_path / "hooks")
