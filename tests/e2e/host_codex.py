"""The Codex CLI, headless (``codex exec``), against the scripted model server.

Measured on codex-cli 0.171.0 (see ``docs/hosts-findings.md``): a ``[model_providers.<id>]``
entry in ``$CODEX_HOME/config.toml`` with ``base_url`` and ``env_key`` points it at the server;
``wire_api = "responses"`` is the only wire API it accepts (``POST /v1/responses``, streamed).
Left to its defaults it also looks up ``github.com``, ``api.github.com``, ``chatgpt.com`` and
``ab.chatgpt.com`` at start-up; the settings below stop every one of them. Hooks come from
``$CODEX_HOME/hooks.json`` and run only when trusted: ``--dangerously-bypass-hook-trust`` trusts
them for one invocation (without it, ``codex exec`` skips them and says nothing). Edits are
scripted as an ``apply_patch`` here-document in ``exec_command``, which Codex intercepts and
applies itself (as a ``file_change``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.host_base import Hooks, HostName, HostRun, run_process
from tests.e2e.installation import HostInstall
from tests.e2e.sandbox import WITNESS, Sandbox
from tests.e2e.scenario import Edit, Scenario, Turn
from tests.e2e.scripted_agent import CompiledConversation
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

PACKAGE = "@openai/codex"
MODEL = "scripted-test-double"
API_KEY_ENV = "SCRIPTED_MODEL_API_KEY"
MCP_NAMESPACE = "mcp__witness"
"""The namespace Codex declares the ``witness`` MCP server's tools in."""
CONFIG = """\
model = "{model}"
model_provider = "scripted"
# No release check, analytics, feedback upload, plugin or app catalogue, model discovery: each
# of these otherwise calls a remote service at start-up.
check_for_update_on_startup = false

[model_providers.scripted]
name = "Scripted model server (a test double)"
base_url = "{base_url}"
env_key = "{env_key}"
wire_api = "responses"

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
in_app_updates = false
api_key_model_discovery = false
"""


@dataclass
class Codex:
    """The pinned Codex CLI."""

    install: HostInstall
    name: HostName = "codex"
    trust_hooks: bool = True
    """Run with ``--dangerously-bypass-hook-trust`` (without it the hooks do not run)."""

    @property
    def version(self) -> str:
        return self.install.versions[PACKAGE]

    def compile(self, scenario: Scenario, sandbox: Sandbox) -> list[CompiledConversation]:
        return [CompiledConversation(name, conversation.prompt, tuple(self._reply(turn) for turn in conversation.turns))
                for name, conversation in scenario.conversations.items()]

    def _reply(self, turn: Turn) -> Reply:
        if turn.delegate is not None:
            raise NotImplementedError("the Codex adapter scripts no sub-agents")
        commands = [*turn.run, *([apply_patch(turn.edit)] if turn.edit else [])]
        calls = [ToolCall("exec_command", {"cmd": command}) for command in commands]
        calls += [ToolCall(call.tool, dict(call.arguments), namespace=MCP_NAMESPACE) for call in turn.mcp]
        return Reply(text=turn.say, tool_calls=calls)

    def run(self, sandbox: Sandbox, server: ModelServer, prompt: str, hooks: Hooks) -> HostRun:
        codex_home = sandbox.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        config = CONFIG.format(model=MODEL, base_url=server.openai_base_url, env_key=API_KEY_ENV)
        if hooks.mcp_env is not None:
            config += mcp_server(hooks.mcp_env)
        (codex_home / "config.toml").write_text(config, encoding="utf-8")
        (codex_home / "hooks.json").write_text(json.dumps(hooks_json(hooks), indent=2), encoding="utf-8")
        env = {**sandbox.env(), "CODEX_HOME": str(codex_home), API_KEY_ENV: "sk-scripted-test-double"}
        command = [str(self.install.bin("codex")), "exec", "--json", "--skip-git-repo-check",
                   "--dangerously-bypass-approvals-and-sandbox",
                   *(["--dangerously-bypass-hook-trust"] if self.trust_hooks else []), prompt]
        code, out, err, seconds = run_process(command, sandbox, env)
        return HostRun(self.name, self.version, code, out, err, seconds, transcripts(sandbox.home), sandbox)


def mcp_server(env: dict[str, str]) -> str:
    """The ``[mcp_servers.witness]`` table of ``docs/hosts.md``: ``witness mcp``, with ``env`` (Codex gives an
    MCP server only a few variables of its own, so ``CODEX_HOME`` is passed on by name). ``required``: without
    it ``codex exec`` does not wait for the server, and the first requests go out without its tools."""
    table = ", ".join(f"{name} = {json.dumps(value)}" for name, value in env.items())
    return (f"\n[mcp_servers.witness]\ncommand = {json.dumps(str(WITNESS))}\nargs = [\"mcp\"]\nrequired = true\n"
            f"env_vars = [\"CODEX_HOME\"]\nenv = {{ {table} }}\n")


def apply_patch(edit: Edit) -> str:
    """The ``apply_patch`` command that makes an edit (a one-line replacement)."""
    return (f"apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: {edit.file}\n@@\n"
            f"-{edit.find.rstrip(chr(10))}\n+{edit.replace.rstrip(chr(10))}\n*** End Patch\nPATCH")


def hooks_json(hooks: Hooks) -> dict[str, object]:
    """``hooks.json`` with each hook command, in the shape Codex reads."""
    return {"hooks": {event: [{"hooks": [{"type": "command", "command": command, "timeout": hooks.timeout}
                                         for command in commands]}]
                      for event, commands in hooks.commands.items()}}


def transcripts(home: Path) -> list[Path]:
    """Rollout files under ``$CODEX_HOME/sessions/YYYY/MM/DD/``."""
    return sorted((home / ".codex" / "sessions").glob("**/rollout-*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
