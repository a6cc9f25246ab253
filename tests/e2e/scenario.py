"""Scenario scripts: what the scripted model does, turn by turn, written as data.

A scenario (``scenarios/<name>.toml``) holds one or more *conversations*: ``main`` is the
session the host starts with its prompt; any other is a sub-agent the main conversation
delegates to. Each conversation is a list of turns; a turn is what the model answers to one
request — some text (``say``), shell commands to run (``run``, one tool call each), a file edit
(``edit``), a delegation to another conversation (``delegate``), or calls of witness's MCP tools
(``mcp = [{ tool = "advisor", arguments = { question = "…" } }]``). A turn without tool calls
ends the agent's turn, so the host tries to stop there and its Stop hook decides whether the
next turn is ever asked for.

::

    description = "The test fails; the agent re-runs it masked and says it is done."

    [conversation.main]
    prompt = "Make the failing test in sum.test.js pass."
    turns = [
      { say = "Running the tests.", run = ["npm test"] },
      { say = "All tests pass." },
    ]

The turns are host-neutral: each host's adapter (``hosts.py``) turns them into the tool calls
of that host (``Bash`` for Claude Code, ``exec_command`` for Codex, ``bash`` for Pi).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
"""Where the scenario scripts live."""
MAIN = "main"
"""The conversation the host starts with its prompt."""


class ScenarioError(ValueError):
    """A scenario script that does not follow the format above."""


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of ``find`` in ``file`` (relative to the project) by ``replace``."""

    file: str
    find: str
    replace: str


@dataclass(frozen=True)
class McpCall:
    """A call of one of witness's MCP tools (``advisor``, ``obligations``) with its arguments."""

    tool: str
    arguments: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    """One answer of the scripted model."""

    say: str = ""
    """The answer's text."""
    run: tuple[str, ...] = ()
    """Shell commands, one tool call each, all in this answer."""
    edit: Edit | None = None
    """A file edit made in this answer."""
    delegate: str | None = None
    """The name of the conversation a sub-agent is started with."""
    mcp: tuple[McpCall, ...] = ()
    """Calls of witness's MCP tools, in this answer."""

    @property
    def ends_turn(self) -> bool:
        """Whether this answer calls no tool, so the agent's turn ends with it."""
        return not (self.run or self.edit or self.delegate or self.mcp)


@dataclass(frozen=True)
class Conversation:
    """What one agent is told and what it answers."""

    name: str
    prompt: str
    """The task it starts with: the host's prompt for ``main``, the delegation's for others."""
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Scenario:
    """A scenario script."""

    name: str
    description: str
    conversations: Mapping[str, Conversation] = field(default_factory=dict)

    @property
    def main(self) -> Conversation:
        """The conversation the host starts with."""
        return self.conversations[MAIN]


def load(name: str, folder: Path = SCENARIOS) -> Scenario:
    """The scenario ``<folder>/<name>.toml``."""
    path = folder / f"{name}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ScenarioError(f"{path}: {error}") from error
    conversations = {key: _conversation(path, key, value) for key, value in data.get("conversation", {}).items()}
    if MAIN not in conversations:
        raise ScenarioError(f"{path}: no [conversation.main]")
    for conversation in conversations.values():
        for turn in conversation.turns:
            if turn.delegate is not None and turn.delegate not in conversations:
                raise ScenarioError(f"{path}: {conversation.name} delegates to unknown {turn.delegate!r}")
    return Scenario(name=name, description=str(data.get("description", "")), conversations=conversations)


def _conversation(path: Path, name: str, data: Any) -> Conversation:
    if not isinstance(data, dict) or not isinstance(data.get("prompt"), str) or not data.get("turns"):
        raise ScenarioError(f"{path}: [conversation.{name}] needs a prompt and turns")
    return Conversation(name=name, prompt=data["prompt"], turns=tuple(_turn(path, name, t) for t in data["turns"]))


def _turn(path: Path, name: str, data: Any) -> Turn:
    known = {"say", "run", "edit", "delegate", "mcp"}
    if not isinstance(data, dict) or not set(data) <= known:
        raise ScenarioError(f"{path}: a turn of {name} has keys outside {sorted(known)}: {data!r}")
    edit = data.get("edit")
    if edit is not None and not (isinstance(edit, dict) and set(edit) == {"file", "find", "replace"}):
        raise ScenarioError(f"{path}: an edit in {name} needs exactly file, find and replace")
    calls = data.get("mcp", [])
    if not isinstance(calls, list) or not all(isinstance(c, dict) and isinstance(c.get("tool"), str) and
                                              set(c) <= {"tool", "arguments"} for c in calls):
        raise ScenarioError(f"{path}: an mcp call in {name} needs a tool (and may have arguments)")
    return Turn(say=str(data.get("say", "")), run=tuple(data.get("run", ())),
                edit=Edit(**edit) if edit else None, delegate=data.get("delegate"),
                mcp=tuple(McpCall(c["tool"], c.get("arguments", {})) for c in calls))
