"""The real Pi (pinned), headless against the scripted model server over OpenAI chat completions,
and its session files read by `witness audit`. Pi has no hook protocol and no MCP, so witness
reaches it through its transcripts only (Pi 0.73.1's README: "No MCP … build an extension that adds MCP
support"): `witness audit` and `witness consult` read its session files."""

from __future__ import annotations

import subprocess

import pytest

from tests.e2e.conftest import play
from tests.e2e.host_base import Hooks
from tests.e2e.host_pi import Pi
from tests.e2e.installation import HostInstall
from tests.e2e.observe import audit
from tests.e2e.sandbox import WITNESS, Sandbox
from tests.support.model_server import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def pi(hosts_install: HostInstall) -> Pi:
    return Pi(hosts_install)


def test_model_requests(pi: Pi, sandbox: Sandbox, model_server: ModelServer) -> None:
    """Every request is a streamed chat completion with the provider's key and Pi's bash, read and edit tools."""
    played = play(pi, "genuine_rerun", sandbox, model_server, Hooks())
    requests = model_server.requests
    assert requests and {r.api for r in requests} == {"chat"} and all(r.stream for r in requests)
    assert {r.headers["authorization"] for r in requests} == {"Bearer sk-scripted-test-double"}
    names = {tool["function"]["name"] for tool in requests[0].body["tools"]}
    assert {"bash", "read", "edit"} <= names, names
    assert played.agent.played_through("main"), played.explain()


def test_session_file_audits(pi: Pi, sandbox: Sandbox, model_server: ModelServer) -> None:
    """Pi's session file, where it writes it, audits like the others: a genuine re-run resolves the failed test."""
    played = play(pi, "genuine_rerun", sandbox, model_server, Hooks())
    (session,) = played.run.transcripts
    assert session.parent.parent == sandbox.home / ".pi" / "agent" / "sessions"
    assert session.parent.name == "--" + str(sandbox.project).strip("/").replace("/", "-") + "--"
    report = audit(session)
    assert report.exit_code == 0 and report.checks("resolved") == ["npm test"], report.report


def test_masked_rerun_audits_open(pi: Pi, sandbox: Sandbox, model_server: ModelServer) -> None:
    """A masked re-run in a Pi session leaves the check open in the audit."""
    played = play(pi, "masked_rerun_no_hook", sandbox, model_server, Hooks())
    assert played.agent.played_through("main"), played.explain()
    report = audit(*played.run.transcripts)
    assert report.exit_code == 1 and report.checks("open") == ["npm test"], report.report


def test_session_file_consults(pi: Pi, sandbox: Sandbox, model_server: ModelServer) -> None:
    """`witness consult --dry-run` on Pi's session file shows the advisor that session: the task, the masked re-run,
    and the obligation it left open."""
    played = play(pi, "masked_rerun_no_hook", sandbox, model_server, Hooks())
    (session,) = played.run.transcripts
    done = subprocess.run([str(WITNESS), "consult", "--dry-run", str(session)], capture_output=True, text=True,
                          env=sandbox.env(), timeout=120)
    assert done.returncode == 0, done.stderr
    request = done.stdout
    assert "[user] Make the failing test in sum.test.js pass." in request
    assert "npm test; echo done" in request and "Verification obligations witness records as open" in request
