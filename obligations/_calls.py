"""What a dispatched tool call is: a shell command (and which check it runs), an edit, a read.

Only shell-like tools are analysed as commands, and the command is their ``command`` or ``cmd``
argument — never every string argument glued together (a ``description`` argument saying "run
the tests" is not a test run).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

import shellparse

from ._config import DEFAULT_PWSH_TOOLS, TrackerConfig
from ._consultations import advisor_named, obligations_named
from ._vocabulary import CallKind

_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)
PATCH_MARK = "*** Begin Patch"
"""How a patch argument opens (Codex's ``apply_patch``, Oh My Pi's ``edit``)."""
PATH_KEYS = ("file_path", "path", "filePath", "notebook_path", "target_file", "filename", "file")
"""The argument names that hold the path a tool works on, every host's, in the order they are tried."""
_SHELL_PROGRAMS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
_DEFAULT = TrackerConfig()
"""Programs whose ``-c`` argument is the command line, in an argv such as ``["bash", "-lc", "npm test"]``."""


@dataclass(frozen=True, slots=True)
class Call:
    """A dispatched tool call, interpreted."""

    tool: str
    """The tool's name as the host gave it."""
    kind: CallKind
    """``shell``, ``edit``, ``read``, ``ignored`` or ``other`` (an unknown tool)."""
    command: str | None
    """For shell tools, the command line."""
    analysis: shellparse.Analysis | None
    """For shell tools, shellparse's verdict on the command."""
    mutates: bool
    """The call may change the workspace (anything not proven read-only)."""
    targets: tuple[str, ...]
    """Paths an edit names, or that a shell command's words name (for repeated-mutation counting)."""

    @property
    def validation(self) -> shellparse.Validation | None:
        """The check the command runs, if it runs one."""
        return self.analysis.validation if self.analysis is not None else None


def interpret(tool: str, arguments: dict[str, Any], shell: shellparse.Shell | None, config: TrackerConfig) -> Call:
    """Interpret a call of ``tool`` with ``arguments``."""
    name = tool.lower()
    if name in config.ignored_tools or advisor_named(name) or obligations_named(name):
        return Call(tool, "ignored", None, None, False, ())
    if name in config.shell_tools:
        command = _command(arguments)
        if command is None:
            return Call(tool, "shell", None, None, True, ())
        dialect = _dialect(name, shell)
        analysis = shellparse.analyze(command, dialect, config.policy, max_chars=config.max_command_chars)
        return Call(tool, "shell", command, analysis, analysis.effect != "read-only", ())
    if name in config.read_only_tools:
        return Call(tool, "read", None, None, False, ())
    if name in config.edit_tools:
        return Call(tool, "edit", None, None, True, targets_of(arguments))
    return Call(tool, "other", None, None, True, targets_of(arguments))


class Interpreter:
    """:func:`interpret` under one configuration, remembering the calls that repeat.

    A session runs the same few commands again and again, and what a shell call is depends only
    on its tool, its command line and its dialect; a read or an ignored call, only on its tool.
    An edit's targets are its own, so edits and unknown tools are interpreted every time."""

    def __init__(self, config: TrackerConfig, limit: int = 4096) -> None:
        self.config = config
        self.limit = limit
        """Calls remembered; past it the memory starts afresh (a file cannot grow it without bound)."""
        self._kinds: dict[str, CallKind] = {}
        self._calls: dict[tuple[str, str | None, shellparse.Shell | None], Call] = {}

    def __call__(self, tool: str, arguments: dict[str, Any], shell: shellparse.Shell | None) -> Call:
        """The same as ``interpret(tool, arguments, shell, config)``."""
        kind = self._kinds.get(tool)
        if kind is None:
            kind = interpret(tool, {}, None, self.config).kind  # without a command: its kind, not an analysis
            self._remember(self._kinds, tool, kind)
        if kind == "edit" or kind == "other":
            return Call(tool, kind, None, None, True, targets_of(arguments))
        key = (tool, _command(arguments), shell) if kind == "shell" else (tool, None, None)
        call = self._calls.get(key)
        if call is None:
            call = interpret(tool, arguments, shell, self.config)
            self._remember(self._calls, key, call)
        return call

    def _remember(self, memory: dict[Any, Any], key: Any, value: Any) -> None:
        if len(memory) >= self.limit:
            memory.clear()
        memory[key] = value


def shell_command(tool: str, arguments: dict[str, Any], shell: shellparse.Shell | None = None,
                  config: TrackerConfig | None = None) -> tuple[str, shellparse.Shell] | None:
    """The command line a call of a shell tool runs and its dialect, as the tracker reads it;
    ``None`` for a call of any other tool, or one without a command."""
    name = tool.lower()
    if name not in (config or _DEFAULT).shell_tools:
        return None
    command = _command(arguments)
    return None if command is None else (command, _dialect(name, shell))


def _dialect(name: str, shell: shellparse.Shell | None) -> shellparse.Shell:
    return shell or ("pwsh" if name in DEFAULT_PWSH_TOOLS else "bash")


def _command(arguments: dict[str, Any]) -> str | None:
    value: Any = arguments.get("command", arguments.get("cmd"))
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
        # Codex's `shell` tool takes an argv: ["bash", "-lc", "npm test"].
        if len(value) >= 3 and value[0].rsplit("/", 1)[-1] in _SHELL_PROGRAMS and value[1].startswith("-") \
                and "c" in value[1]:
            return str(value[2])
        return shlex.join(value)
    return None


def targets_of(arguments: dict[str, Any]) -> tuple[str, ...]:
    """The paths a call's arguments name: its path arguments (:data:`PATH_KEYS`), then the files a patch
    adds, updates or deletes (a ``patch``, ``input`` or ``content`` argument, or any that opens with
    :data:`PATCH_MARK`), each once."""
    found = [str(arguments[key]) for key in PATH_KEYS if isinstance(arguments.get(key), str)]
    for key, value in arguments.items():
        if isinstance(value, str) and "*** " in value and (key in ("patch", "input", "content") or PATCH_MARK in value):
            found.extend(match.strip() for match in _PATCH_FILE.findall(value))
    return tuple(dict.fromkeys(found))
