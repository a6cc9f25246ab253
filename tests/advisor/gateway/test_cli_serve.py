"""`witness serve` as a real process: it serves the SDK on loopback, refuses what it must, and stops cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx2
import openai
import pytest

from tests.advisor.gateway.helpers import USER, advisor
from tests.advisor.sessions import WITNESS, witness
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_witness_serve_runs_the_advisor_for_the_sdk_and_stops_on_sigint(model_server: ModelServer,
                                                                         tmp_path: Path) -> None:
    """Started from the command line with a config file, it answers the SDK with advice run server-side,
    writes its access log to stderr without the keys, and exits 0 on Ctrl-C."""
    port = _free_port()
    config = tmp_path / "config.toml"
    config.write_text("[gateway]\nmax_rounds = 4\nlog_consultations = false\n")
    env = {**os.environ, "WITNESS_HOME": str(tmp_path), "UPSTREAM_KEY": "sk-upstream-cli-123",
           "GATEWAY_KEY": "gw-client-key-456", "WITNESS_TRACE_KEY": "trace-key-cli-0123456789"}
    process = subprocess.Popen([WITNESS, "serve", "--port", str(port), "--upstream", model_server.openai_base_url,
                                "--upstream-key-env", "UPSTREAM_KEY", "--api-key-env", "GATEWAY_KEY",
                                "--config", str(config)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "witness serve did not come up"
            time.sleep(0.05)
        model_server.enqueue(Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "?"})]),
                             Reply(text="Severity: none\nok"), Reply(text="served"))
        with openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="gw-client-key-456",
                           max_retries=0) as sdk:
            response = sdk.chat.completions.create(model="gpt-test", messages=USER, tools=[advisor(model="adv")])
        assert response.choices[0].message.content == "served"
        assert {r.headers["authorization"] for r in model_server.requests} == {"Bearer sk-upstream-cli-123"}
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0
    assert '"path":"/v1/chat/completions"' in stderr and '"advisor_requests":1' in stderr
    assert "sk-upstream-cli-123" not in stderr and "gw-client-key-456" not in stderr
    assert "trace-key-cli" not in stderr and "not replayed after a restart" not in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(("args", "env", "message"), [
    (["--host", "0.0.0.0"], {}, "refusing to listen on 0.0.0.0 without authentication"),
    (["--api-key-env", "WITNESS_TEST_UNSET_KEY"], {}, "WITNESS_TEST_UNSET_KEY, which is not set"),
    (["--port", "99999"], {}, "99999 is not in the range"),
    (["--config", "/nonexistent/config.toml"], {}, "is not a file"),
    ([], {"WITNESS_TRACE_KEY": "short"}, "must be at least 16 characters"),
], ids=["public bind without a key", "unset key variable", "bad port", "missing config", "short trace key"])
def test_witness_serve_refuses_bad_settings_with_exit_2(args: list[str], env: dict[str, str], message: str) -> None:
    """Bad flags or settings exit 2 with one clear line and no traceback, before anything listens."""
    done = witness("serve", *args, env=env)
    stderr = done.stderr.decode()
    assert done.returncode == 2 and message in stderr and "Traceback" not in stderr


def test_witness_serve_refuses_an_unknown_setting_in_the_config_file(tmp_path: Path) -> None:
    """A misspelt key in [gateway] is named, exit 2."""
    config = tmp_path / "config.toml"
    config.write_text("[gateway]\nmax_round = 3\n")
    done = witness("serve", "--config", str(config))
    assert done.returncode == 2 and "unknown setting 'max_round'" in done.stderr.decode()


def test_witness_serve_reports_a_port_in_use(tmp_path: Path) -> None:
    """Another server on the port: exit 2, saying it cannot listen there."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = witness("serve", "--port", str(port), env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr.decode()


def test_the_gateway_is_loaded_only_when_serve_runs(tmp_path: Path) -> None:
    """`witness --help` and `witness serve --help` load no web framework, server or gateway module."""
    import json
    import sys

    code = ("import json, sys\nfrom advisor.cli import main\nmain(sys.argv[1:])\n"
            "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    for args in (["--help"], ["serve", "--help"]):
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
        modules = json.loads(done.stderr.strip().splitlines()[-1])
        assert not [m for m in modules if m.split(".")[0] in ("starlette", "uvicorn", "openai")
                    or m.startswith("advisor.gateway")]
