"""What the host keeps of each agent's current task, for its case packets.

Recording is cheap (the host runs it on every event): the event's fields, with outputs kept as
their head and tail only. Reading them as evidence — outcome class, check identity, exit
attribution, failure fingerprint — happens when a packet is built, through the same public
functions the tracker uses (``shellparse.analyze`` is cached, so a command the tracker already
read costs a lookup).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

import shellparse
from obligations import TrackerConfig, classify, fingerprint

KEEP_CHARS = 4096
"""Characters kept of an output's head and of its tail."""

Kind = Literal["user", "assistant", "tool"]


@dataclass(slots=True)
class Activity:
    """One entry of an agent's task: a message, or a tool call with its result."""

    seq: int
    """The host's tick when it was recorded (dispatch, for a tool call)."""
    kind: Kind
    text: str = ""
    call_id: str | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    shell: str | None = None
    completed: int | None = None
    """The tick of its result."""
    exit_code: int | None = None
    is_error: bool = False
    error_code: str | None = None
    error_message: str | None = None
    head: str = ""
    tail: str = ""
    clipped: bool = False


@dataclass(slots=True)
class Classified:
    """A completed tool call read as evidence."""

    row: Activity
    outcome: str
    argument: str
    validation_key: str | None
    check: str | None
    check_kind: str | None
    exit_source: str | None
    witness_eligible: bool
    fingerprint: str | None
    mutating: bool
    targets: tuple[str, ...]


@dataclass(slots=True)
class AgentActivity:
    """One agent's current task."""

    floor: int = 0
    """The tick its current task began (nothing before it enters a packet)."""
    entries: deque[Activity] = field(default_factory=deque)
    calls: dict[str, Activity] = field(default_factory=dict)

    def new_task(self, tick: int) -> None:
        """A new user task: older activity no longer counts."""
        self.floor = tick
        self.entries.clear()
        self.calls.clear()


def keep_output(row: Activity, output: str | None) -> None:
    """Keep an output's head and tail."""
    text = output or ""
    if len(text) <= 2 * KEEP_CHARS:
        row.head, row.tail = text, ""
        return
    row.head, row.tail, row.clipped = text[:KEEP_CHARS], text[-KEEP_CHARS:], True


def primary_argument(arguments: dict[str, Any] | None) -> str:
    """The argument that says what a call did: its command, path or pattern."""
    for key in ("command", "cmd", "path", "file_path", "pattern", "query", "input"):
        value = (arguments or {}).get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return " ".join(value)
    return ""


def classify_row(row: Activity, config: TrackerConfig) -> Classified:
    """A completed call's outcome class, check identity and failure fingerprint."""
    tool = (row.tool or "").lower()
    argument = primary_argument(row.arguments)
    analysis = None
    if tool in config.shell_tools and argument:
        shell = row.shell or ("pwsh" if tool in ("pwsh", "powershell") else "bash")
        analysis = shellparse.analyze(argument, shell, config.policy)
    outcome: str = classify(None, row.exit_code, row.is_error, row.error_code, row.error_message)
    failed = outcome == "unknown-failure"
    validation = analysis.validation if analysis is not None else None
    if failed and analysis is not None and row.exit_code == 1 and analysis.expected_negative:
        outcome = "expected-negative"
    elif failed and validation is not None:
        outcome = "validation-failure"
    elif outcome == "success" and validation is not None and row.exit_code == 0 and (row.head or row.tail) \
            and shellparse.failure_evidence(validation.family, row.head + "\n" + row.tail) is not None:
        outcome = "validation-failure"  # the output refutes the reported pass
    failing = outcome in ("validation-failure", "unknown-failure")
    output = row.head + row.tail
    mark = fingerprint(row.tool or "", row.error_message or output or f"exit {row.exit_code}") if failing else None
    is_edit = tool in config.edit_tools
    mutating = is_edit or (analysis is not None and validation is None and analysis.effect != "read-only") or \
        (tool not in config.shell_tools and tool not in config.read_only_tools and not is_edit
         and tool not in config.ignored_tools)
    targets = _targets(row.arguments) if is_edit else ()
    return Classified(row, outcome, argument, validation.key if validation else None,
                      validation.statement if validation else None, validation.kind if validation else None,
                      analysis.exit_source if analysis is not None else None,
                      bool(analysis is not None and analysis.witness_eligible), mark, mutating, targets)


def _targets(arguments: dict[str, Any] | None) -> tuple[str, ...]:
    found = []
    for key in ("path", "file_path", "filename", "notebook_path", "target"):
        value = (arguments or {}).get(key)
        if isinstance(value, str) and value:
            found.append(value)
    return tuple(found)
