"""Fixtures of the end-to-end suite: the pinned hosts (installed once per lock file), a scripted
model server and a throwaway sandbox per test, and :func:`play` to run a scenario on a host."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.host_base import Hooks, Host, HostRun
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.host_codex import Codex
from tests.e2e.installation import HostInstall, install_hosts
from tests.e2e.sandbox import EgressTrap, Sandbox
from tests.e2e.scenario import load
from tests.e2e.scripted_agent import ScriptedAgent, describe
from tests.support.model_server import ModelServer

ADVISOR_MODEL = "advisor-test-double"
"""The advisor model's id on the second scripted server."""


@pytest.fixture(scope="session")
def hosts_install() -> HostInstall:
    """The pinned hosts, installed with ``npm ci`` (or found installed for this lock file)."""
    return install_hosts()


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A scripted model server on loopback for one test."""
    with ModelServer() as server:
        yield server


@pytest.fixture
def advisor_server() -> Iterator[ModelServer]:
    """A second scripted model server, standing in for the advisor model (OpenAI chat completions)."""
    with ModelServer(models=(ADVISOR_MODEL,)) as server:
        yield server


def advisor_env(sandbox: Sandbox, server: ModelServer) -> dict[str, str]:
    """The settings that point witness's advisor at ``server`` (what a user sets for the real model)."""
    return {"WITNESS_ADVISOR_PROVIDER": "openai", "WITNESS_ADVISOR_MODEL": ADVISOR_MODEL,
            "WITNESS_ADVISOR_BASE_URL": server.openai_base_url, "OPENAI_API_KEY": "sk-advisor-test-double",
            "WITNESS_HOME": str(sandbox.witness_home)}


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    """A throwaway HOME, project and witness state, with every proxy pointed at an egress trap."""
    with EgressTrap() as trap:
        yield Sandbox(tmp_path, trap).create()


@pytest.fixture
def claude(hosts_install: HostInstall) -> ClaudeCode:
    return ClaudeCode(hosts_install)


@pytest.fixture
def codex(hosts_install: HostInstall) -> Codex:
    return Codex(hosts_install)


@dataclass
class Played:
    """A scenario played on a host: the run, and what the scripted model answered."""

    run: HostRun
    agent: ScriptedAgent

    def explain(self) -> str:
        return f"{self.run.explain()}\nscripted model: {describe(self.agent)}"


def play(host: Host, scenario_name: str, sandbox: Sandbox, server: ModelServer, hooks: Hooks) -> Played:
    """Run ``scenarios/<scenario_name>.toml`` on ``host`` with ``hooks`` installed."""
    scenario = load(scenario_name)
    agent = ScriptedAgent(host.compile(scenario, sandbox))
    server.on(agent)
    run = host.run(sandbox, server, scenario.main.prompt, hooks)
    played = Played(run, agent)
    assert run.exit_code == 0, played.explain()
    assert not sandbox.trap.attempts, f"{host.name} tried to reach the network: {sandbox.trap.attempts}"
    return played
