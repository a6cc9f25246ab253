"""Where each host keeps its hooks and MCP servers, and the entry witness writes there: one row per host,
scope and piece.

The facts come from the hosts' documentation and from the versions witness is tested against (see
docs/hooks.md): Claude Code 2.1.332 and Codex CLI 0.171.0 run with these entries in ``tests/e2e/``; GitHub
Copilot CLI's entries follow its hooks reference (``~/.copilot/hooks/*.json`` and ``.github/hooks/*.json``,
``version: 1``, ``bash``/``powershell`` commands, ``timeoutSec``) and its ``mcp-config.json``; Gemini CLI's
its hooks reference (``hooks.AfterAgent`` groups in ``settings.json``, time-outs in milliseconds; the
settings file may hold comments) and its MCP settings (``mcpServers``); Factory Droid's its hooks reference
(Claude Code's events, entries and answers, in ``~/.factory/settings.json`` or ``.factory/settings.json``;
0.225.2 reads ``hooks`` there and takes ``decision: block`` with a ``reason``), so Droid runs witness's Claude
Code hook, which reads Droid's session files too; Qwen Code 0.24.4's, read in its published bundle (Claude
Code's hook groups under ``hooks`` in ``~/.qwen/settings.json`` or ``.qwen/settings.json``, comments stripped,
time-outs in seconds, ``decision: block`` honoured at ``Stop``), so Qwen runs the Claude Code hook as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

InstallHost = Literal["claude-code", "codex", "copilot", "gemini", "droid", "qwen"]
"""The hosts ``witness install`` writes settings for."""
Scope = Literal["user", "project"]
"""Which settings: the user's (every project) or the project's (checked in with it)."""
Piece = Literal["hook", "review", "mcp", "permission"]
"""What an entry is for: the Stop hook (``review``: with the completion review), the MCP server, or the permission
that lets the host call its tools."""
FileFormat = Literal["json", "jsonc", "toml"]
"""How a settings file is written: strict JSON, JSON with comments (the host strips them), or TOML."""
HOOK_TIMEOUT = 30
"""Seconds a Stop hook may take (witness answers within 20, ``WITNESS_HOOK_DEADLINE``)."""
REVIEW_TIMEOUT = 180
"""Seconds a Stop hook with the completion review may take (a consultation)."""
MCP_TIMEOUT = 480
"""Seconds an MCP tool call may take (a consultation takes up to 420)."""


@dataclass(frozen=True)
class Row:
    """One entry witness writes into one host settings file."""

    host: InstallHost
    """The host."""
    scope: Scope
    """User or project settings."""
    piece: Piece
    """What the entry is for."""
    path: str
    """The file: ``~`` is the home directory, ``$CODEX_HOME`` and ``$COPILOT_HOME`` the host's own when set;
    a project path is relative to the project's root."""
    format: FileFormat
    """How the file is written."""
    where: tuple[str, ...]
    """The keys leading to the list (or, for a last key naming an object member, the table) that holds the
    entry."""
    entry: str
    """The entry's template (JSON): ``{command}`` is the witness command line, ``{program}`` the program."""
    own_file: bool = False
    """The file is witness's own (removed whole by ``uninstall``)."""
    skeleton: str = "{}"
    """What a new file starts as (JSON)."""


def _claude_group(host: str, timeout: int, review: str = "") -> str:
    return f'{{"hooks": [{{"type": "command", "command": "{{program}} hook {host}{review}", "timeout": {timeout}}}]}}'


def _copilot_hook(review: str, timeout: int) -> str:
    command = f"{{program}} hook copilot{review}"
    return f'{{"type": "command", "bash": "{command}", "powershell": "{command}", "timeoutSec": {timeout}}}'


def _gemini_group(review: str, timeout_ms: int) -> str:
    return (f'{{"hooks": [{{"name": "witness", "type": "command", "command": "{{program}} hook gemini{review}", '
            f'"timeout": {timeout_ms}}}]}}')


_COPILOT_SKELETON = '{"version": 1, "hooks": {}}'
_USER: Scope = "user"
_PROJECT: Scope = "project"


def _rows() -> tuple[Row, ...]:
    rows: list[Row] = []
    for scope, claude, mcp in ((_USER, "~/.claude/settings.json", "~/.claude.json"),
                               (_PROJECT, ".claude/settings.json", ".mcp.json")):
        rows += [
            Row("claude-code", scope, "hook", claude, "json", ("hooks", "Stop"),
                _claude_group("claude-code", HOOK_TIMEOUT)),
            Row("claude-code", scope, "hook", claude, "json", ("hooks", "SubagentStop"),
                _claude_group("claude-code", HOOK_TIMEOUT)),
            Row("claude-code", scope, "review", claude, "json", ("hooks", "Stop"),
                _claude_group("claude-code", REVIEW_TIMEOUT, " --review")),
            Row("claude-code", scope, "mcp", mcp, "json", ("mcpServers", "witness"),
                '{"type": "stdio", "command": "{program}", "args": ["mcp"]}'),
            Row("claude-code", scope, "permission", claude, "json", ("permissions", "allow"), '"mcp__witness"'),
        ]
    for scope, base in ((_USER, "$CODEX_HOME"), (_PROJECT, ".codex")):
        rows += [
            Row("codex", scope, "hook", f"{base}/hooks.json", "json", ("hooks", "Stop"),
                _claude_group("codex", HOOK_TIMEOUT)),
            Row("codex", scope, "review", f"{base}/hooks.json", "json", ("hooks", "Stop"),
                _claude_group("codex", REVIEW_TIMEOUT, " --review")),
            Row("codex", scope, "mcp", f"{base}/config.toml", "toml", ("mcp_servers", "witness"),
                '{"command": "{program}", "args": ["mcp"], "required": true, "tool_timeout_sec": '
                + f'{MCP_TIMEOUT}}}'),
        ]
    for scope, hooks in ((_USER, "$COPILOT_HOME/hooks/witness.json"), (_PROJECT, ".github/hooks/witness.json")):
        rows += [
            Row("copilot", scope, "hook", hooks, "json", ("hooks", "agentStop"), _copilot_hook("", HOOK_TIMEOUT),
                own_file=True, skeleton=_COPILOT_SKELETON),
            Row("copilot", scope, "hook", hooks, "json", ("hooks", "subagentStop"),
                _copilot_hook("", HOOK_TIMEOUT), own_file=True, skeleton=_COPILOT_SKELETON),
            Row("copilot", scope, "review", hooks, "json", ("hooks", "agentStop"),
                _copilot_hook(" --review", REVIEW_TIMEOUT), own_file=True,
                skeleton=_COPILOT_SKELETON),
        ]
    # Copilot CLI documents a user MCP file only (a project's servers come from its IDE configuration).
    rows.append(Row("copilot", _USER, "mcp", "$COPILOT_HOME/mcp-config.json", "json", ("mcpServers", "witness"),
                    '{"type": "local", "command": "{program}", "args": ["mcp"], "tools": ["*"]}'))
    for scope, settings in ((_USER, "~/.gemini/settings.json"), (_PROJECT, ".gemini/settings.json")):
        rows += [
            Row("gemini", scope, "hook", settings, "jsonc", ("hooks", "AfterAgent"),
                _gemini_group("", HOOK_TIMEOUT * 1000)),
            Row("gemini", scope, "review", settings, "jsonc", ("hooks", "AfterAgent"),
                _gemini_group(" --review", REVIEW_TIMEOUT * 1000)),
            Row("gemini", scope, "mcp", settings, "jsonc", ("mcpServers", "witness"),
                '{"command": "{program}", "args": ["mcp"], "timeout": ' + f"{MCP_TIMEOUT * 1000}}}"),
        ]
    for scope, settings in ((_USER, "~/.factory/settings.json"), (_PROJECT, ".factory/settings.json")):
        rows += [
            Row("droid", scope, "hook", settings, "jsonc", ("hooks", "Stop"),
                _claude_group("claude-code", HOOK_TIMEOUT)),
            Row("droid", scope, "hook", settings, "jsonc", ("hooks", "SubagentStop"),
                _claude_group("claude-code", HOOK_TIMEOUT)),
            Row("droid", scope, "review", settings, "jsonc", ("hooks", "Stop"),
                _claude_group("claude-code", REVIEW_TIMEOUT, " --review")),
        ]
    for scope, settings in ((_USER, "~/.qwen/settings.json"), (_PROJECT, ".qwen/settings.json")):
        rows += [
            Row("qwen", scope, "hook", settings, "jsonc", ("hooks", "Stop"),
                _claude_group("claude-code", HOOK_TIMEOUT)),
            Row("qwen", scope, "hook", settings, "jsonc", ("hooks", "SubagentStop"),
                _claude_group("claude-code", HOOK_TIMEOUT)),
            Row("qwen", scope, "review", settings, "jsonc", ("hooks", "Stop"),
                _claude_group("claude-code", REVIEW_TIMEOUT, " --review")),
        ]
    return tuple(rows)


HOOK_OF: dict[InstallHost, str] = {"droid": "claude-code", "qwen": "claude-code"}
"""The ``witness hook`` a host runs when it is not the host's own name (Droid and Qwen Code speak Claude Code's
protocol)."""

ROWS: tuple[Row, ...] = _rows()
"""Every entry ``witness install`` can write."""
INSTALL_HOSTS: tuple[InstallHost, ...] = ("claude-code", "codex", "copilot", "gemini", "droid", "qwen")


def rows_for(host: InstallHost, scope: Scope, *, review: bool, mcp: bool) -> list[Row]:
    """The entries one installation writes: the Stop hooks (the Stop hook with the review instead of the plain
    one when ``review``), and with ``mcp`` the MCP server and its permission."""
    wanted: set[Piece] = {"hook", "mcp", "permission"} if mcp else {"hook"}
    chosen = [row for row in ROWS if row.host == host and row.scope == scope and row.piece in wanted]
    if review:
        replaced = {row.where for row in ROWS if row.host == host and row.scope == scope and row.piece == "review"}
        chosen = [row for row in chosen if not (row.piece == "hook" and row.where in replaced)]
        chosen += [row for row in ROWS if row.host == host and row.scope == scope and row.piece == "review"]
    return chosen


def entry_value(row: Row, program: str) -> Any:
    """The entry of ``row`` with ``program`` (the witness command) in place."""
    import json

    text = row.entry.replace("{program}", json.dumps(program)[1:-1])
    return json.loads(text)
