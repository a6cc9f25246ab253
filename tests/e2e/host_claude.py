"""Claude Code, headless (``claude -p``), against the scripted model server.

Measured on Claude Code 2.1.332 (see ``docs/hosts-findings.md``): ``ANTHROPIC_BASE_URL`` and
``ANTHROPIC_API_KEY`` point it at the server (it calls ``POST /v1/messages?beta=true``,
streamed); ``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`` (with the auto-updater, telemetry and
error reporting off) leaves the model requests as its only traffic; hooks come from
``~/.claude/settings.json``; as root it refuses ``bypassPermissions`` unless ``IS_SANDBOX=1``,
so the tools a scenario uses are allowed by name instead. Its file tools refuse to edit a file
that was not read in the session, so an edit is scripted as a ``Read`` answer and then an
``Edit`` answer.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.host_base import Hooks, HostName, HostRun, run_process
from tests.e2e.installation import HostInstall
from tests.e2e.sandbox import WITNESS, Sandbox
from tests.e2e.scenario import Scenario, Turn
from tests.e2e.scripted_agent import CompiledConversation
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

PACKAGE = "@anthropic-ai/claude-code"
ALLOWED_TOOLS = "Bash,Read,Edit,Write,Agent"
QUIET = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1", "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
}
"""Environment that keeps Claude Code from calling anything but the model."""


@dataclass
class ClaudeCode:
    """The pinned Claude Code."""

    install: HostInstall
    name: HostName = "claude-code"

    @property
    def version(self) -> str:
        return self.install.versions[PACKAGE]

    def compile(self, scenario: Scenario, sandbox: Sandbox) -> list[CompiledConversation]:
        return [CompiledConversation(name, conversation.prompt,
                                     tuple(reply for turn in conversation.turns
                                           for reply in self._replies(turn, scenario, sandbox)))
                for name, conversation in scenario.conversations.items()]

    def _replies(self, turn: Turn, scenario: Scenario, sandbox: Sandbox) -> list[Reply]:
        calls = [ToolCall("Bash", {"command": command, "description": "Run a command"}) for command in turn.run]
        calls += [ToolCall(f"mcp__witness__{call.tool}", dict(call.arguments)) for call in turn.mcp]
        replies = []
        if turn.edit is not None:
            path = str(sandbox.project / turn.edit.file)
            replies.append(Reply(tool_calls=[ToolCall("Read", {"file_path": path})]))
            calls.append(ToolCall("Edit", {"file_path": path, "old_string": turn.edit.find,
                                           "new_string": turn.edit.replace}))
        if turn.delegate is not None:
            calls.append(ToolCall("Agent", {"description": "Delegated task",
                                            "prompt": scenario.conversations[turn.delegate].prompt,
                                            "subagent_type": "general-purpose", "run_in_background": False}))
        return [*replies, Reply(text=turn.say, tool_calls=calls)]

    def run(self, sandbox: Sandbox, server: ModelServer, prompt: str, hooks: Hooks) -> HostRun:
        settings = sandbox.home / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps(settings_with(hooks), indent=2), encoding="utf-8")
        env = {**sandbox.env(), **QUIET, "ANTHROPIC_BASE_URL": server.anthropic_base_url,
               "ANTHROPIC_API_KEY": "sk-ant-scripted-test-double"}
        if hooks.mcp_env is not None:
            self.add_mcp(sandbox, env, hooks.mcp_env)
            # Else `claude -p` asks the model before the server is up; and a loaded machine starts it slowly.
            env.update(MCP_CONNECTION_NONBLOCKING="false", MCP_TIMEOUT="60000")
        command = [str(self.install.bin("claude")), "-p", prompt, "--output-format", "stream-json", "--verbose",
                   "--allowedTools", ALLOWED_TOOLS]
        code, out, err, seconds = run_process(command, sandbox, env)
        return HostRun(self.name, self.version, code, out, err, seconds, transcripts(sandbox.home), sandbox)


    def add_mcp(self, sandbox: Sandbox, env: dict[str, str], server_env: dict[str, str]) -> None:
        """``claude mcp add --scope user witness -e … -- witness mcp``, as ``docs/hosts.md`` has a user do."""
        options = [part for name, value in server_env.items() for part in ("-e", f"{name}={value}")]
        claude = str(self.install.bin("claude"))
        subprocess.run([claude, "mcp", "remove", "--scope", "user", "witness"], cwd=sandbox.project, env=env,
                       capture_output=True, timeout=120, stdin=subprocess.DEVNULL)  # a second run in the same home
        done = subprocess.run([claude, "mcp", "add", "--scope", "user", "witness", *options,
                               "--", str(WITNESS), "mcp"], cwd=sandbox.project, env=env, capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"claude mcp add failed:\n{done.stdout}\n{done.stderr}"


def settings_with(hooks: Hooks) -> dict[str, object]:
    """``settings.json`` with each hook command, in the shape Claude Code reads (and, with ``witness mcp``, the
    permission rule ``docs/hosts.md`` gives for its tools)."""
    settings: dict[str, object] = {
        "hooks": {event: [{"hooks": [{"type": "command", "command": command, "timeout": hooks.timeout}
                                     for command in commands]}]
                  for event, commands in hooks.commands.items()}}
    if hooks.mcp_env is not None:
        settings["permissions"] = {"allow": ["mcp__witness"]}
    return settings


def transcripts(home: Path) -> list[Path]:
    """Session transcripts under ``~/.claude/projects`` (sub-agents' ``subagents/agent-*.jsonl`` too)."""
    return sorted((home / ".claude" / "projects").glob("**/*.jsonl"), key=lambda path: path.stat().st_mtime_ns)


def main_transcript(run: HostRun) -> Path:
    """The main session's transcript (the one not under ``subagents/``)."""
    (path,) = [p for p in run.transcripts if p.parent.name != "subagents"]
    return path


def entries(path: Path) -> list[dict[str, object]]:
    """A transcript's entries."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
