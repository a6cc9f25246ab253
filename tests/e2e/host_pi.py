"""Pi (``@mariozechner/pi-coding-agent``), headless (``pi -p``), against the scripted model server.

Measured on Pi 0.73.1 (see ``docs/hosts-findings.md``): a provider in
``~/.pi/agent/models.json`` (``baseUrl``, ``api``, ``apiKey``, ``models``) points it at the
server — here ``openai-completions``, OpenAI chat completions; ``--offline`` stops its start-up
version check and install telemetry. Pi has no hook protocol and no MCP: witness reads its
session files (``~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl``) through ``witness audit``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.host_base import Hooks, HostName, HostRun, run_process
from tests.e2e.installation import HostInstall
from tests.e2e.sandbox import Sandbox
from tests.e2e.scenario import Scenario, Turn
from tests.e2e.scripted_agent import CompiledConversation
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

PACKAGE = "@mariozechner/pi-coding-agent"
PROVIDER = "scripted"
MODEL = "scripted-test-double"


@dataclass
class Pi:
    """The pinned Pi."""

    install: HostInstall
    name: HostName = "pi"

    @property
    def version(self) -> str:
        return self.install.versions[PACKAGE]

    def compile(self, scenario: Scenario, sandbox: Sandbox) -> list[CompiledConversation]:
        return [CompiledConversation(name, conversation.prompt, tuple(self._reply(turn) for turn in conversation.turns))
                for name, conversation in scenario.conversations.items()]

    def _reply(self, turn: Turn) -> Reply:
        if turn.delegate is not None:
            raise NotImplementedError("Pi has no sub-agents of its own")
        calls = [ToolCall("bash", {"command": command}) for command in turn.run]
        if turn.edit is not None:
            calls.append(ToolCall("edit", {"path": turn.edit.file,
                                           "edits": [{"oldText": turn.edit.find, "newText": turn.edit.replace}]}))
        return Reply(text=turn.say, tool_calls=calls)

    def run(self, sandbox: Sandbox, server: ModelServer, prompt: str, hooks: Hooks) -> HostRun:
        if hooks.commands:
            raise NotImplementedError("Pi has no hook protocol to install hooks in")
        agent_dir = sandbox.home / ".pi" / "agent"
        agent_dir.mkdir(parents=True, exist_ok=True)
        (agent_dir / "models.json").write_text(json.dumps(models_json(server), indent=2), encoding="utf-8")
        env = {**sandbox.env(), "PI_OFFLINE": "1"}
        command = [str(self.install.bin("pi")), "-p", "--offline", "--provider", PROVIDER, "--model", MODEL, prompt]
        code, out, err, seconds = run_process(command, sandbox, env)
        return HostRun(self.name, self.version, code, out, err, seconds, transcripts(sandbox.home), sandbox)


def models_json(server: ModelServer) -> dict[str, object]:
    """``models.json`` with one provider: the scripted server, over OpenAI chat completions."""
    return {"providers": {PROVIDER: {"baseUrl": server.openai_base_url, "api": "openai-completions",
                                     "apiKey": "sk-scripted-test-double", "models": [{"id": MODEL}]}}}


def transcripts(home: Path) -> list[Path]:
    """Session files under ``~/.pi/agent/sessions``."""
    return sorted((home / ".pi" / "agent" / "sessions").glob("**/*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
