"""What every host adapter shares: the hooks to install, running the host, what a run left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from tests.e2e.installation import HostInstall
from tests.e2e.sandbox import RECORD_HOOK, WITNESS, Sandbox
from tests.e2e.scenario import Scenario
from tests.e2e.scripted_agent import CompiledConversation
from tests.support.model_server import ModelServer

HostName = Literal["claude-code", "codex", "pi"]
HookEvent = Literal["Stop", "SubagentStop", "PostToolUse", "PostToolUseFailure", "SubagentStart", "SessionStart"]
REVIEW_TIMEOUT = 180
"""Seconds a host gives ``witness hook … --review`` (its own deadline is 150 s)."""
RUN_TIMEOUT = 180.0
"""Seconds one host run may take (a scripted session takes a few)."""


@dataclass(frozen=True)
class Hooks:
    """The hook commands to install, per event, in the order the host should list them."""

    commands: dict[HookEvent, tuple[str, ...]] = field(default_factory=dict)
    mcp_env: dict[str, str] | None = None
    """When set, ``witness mcp`` is configured as the MCP server ``witness``, with this environment."""
    timeout: int = 30
    """Seconds the host gives each hook (set explicitly: Claude Code's default has changed between versions)."""

    def with_mcp(self, env: dict[str, str]) -> Hooks:
        """These hooks, and ``witness mcp`` as the MCP server ``witness`` with ``env``."""
        return Hooks(dict(self.commands), dict(env), self.timeout)

    @staticmethod
    def reviewing(host: HostName) -> Hooks:
        """``witness hook <host> --review`` as the Stop hook, with the time-out ``docs/hosts.md`` gives it."""
        return Hooks({"Stop": (f"{WITNESS} hook {host} --review", recorder("Stop"))}, timeout=REVIEW_TIMEOUT)

    @staticmethod
    def witness(host: HostName, *, record: bool = True) -> Hooks:
        """``witness hook <host>`` as the Stop and SubagentStop hook, with the recorder beside it."""
        witness = f"{WITNESS} hook {host}"
        return Hooks({event: (witness, *([recorder(event)] if record else ())) for event in ("Stop", "SubagentStop")})

    @staticmethod
    def recording(*events: HookEvent) -> Hooks:
        """Only the recorder, on each of ``events``."""
        return Hooks({event: (recorder(event),) for event in events})


def recorder(event: HookEvent) -> str:
    """The command line of the recording hook, installed for ``event``."""
    return f"{sys.executable} {RECORD_HOOK} {event}"


@dataclass
class HostRun:
    """What one run of a host left behind."""

    host: HostName
    version: str
    exit_code: int
    stdout: str
    stderr: str
    seconds: float
    transcripts: list[Path]
    """The session transcripts the host wrote (sub-agents' included), oldest first."""
    sandbox: Sandbox

    def hook_calls(self) -> list[dict[str, Any]]:
        """Every call of the recording hook, in the order they started."""
        log = self.sandbox.hook_log
        if not log.exists():
            return []
        calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        return sorted(calls, key=lambda call: call["started"])

    def hook_copy(self, call: dict[str, Any], key: str = "transcript_path") -> list[dict[str, Any]]:
        """The transcript a recorded hook call saw, as parsed JSON lines."""
        copy = self.sandbox.hook_log.with_name(call["copies"][key])
        return [json.loads(line) for line in copy.read_text(encoding="utf-8").splitlines() if line.strip()]

    def explain(self) -> str:
        """The run's output, for assertion messages."""
        return f"{self.host} {self.version} exited {self.exit_code} in {self.seconds:.1f} s\n" \
               f"stdout:\n{self.stdout[-4000:]}\nstderr:\n{self.stderr[-4000:]}"


class Host(Protocol):
    """An agent host the suite can drive headless against the scripted model server."""

    name: HostName
    install: HostInstall

    @property
    def version(self) -> str: ...

    def compile(self, scenario: Scenario, sandbox: Sandbox) -> list[CompiledConversation]:
        """The scenario's conversations as this host's tool calls."""
        ...

    def run(self, sandbox: Sandbox, server: ModelServer, prompt: str, hooks: Hooks) -> HostRun:
        """Configure the sandbox for this host, run it headless on ``prompt``, and collect what it left."""
        ...


def run_process(command: list[str], sandbox: Sandbox, env: dict[str, str]) -> tuple[int, str, str, float]:
    """Run a host to completion in the sandbox's project: exit code, stdout, stderr, seconds.

    The host runs in a session of its own, so a run past :data:`RUN_TIMEOUT` is ended with every
    process it started (the npm launchers start the native binaries as children)."""
    started = time.monotonic()
    with subprocess.Popen(command, cwd=sandbox.project, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            raise AssertionError(f"{command[0]} did not finish in {RUN_TIMEOUT:.0f} s:\n{out[-4000:]}") from None
    return process.returncode, out, err, time.monotonic() - started
