"""GitHub Copilot CLI session event log (``~/.copilot/session-state/<session>/events.jsonl``) as events.

Every line is ``{type, data, id, timestamp, parentId}``; the types are those of the session-event
schema Copilot CLI ships (``schemas/session-events.schema.json``, read in 1.0.102) and the fixture
``other/copilot-cli/JeffreyCA__azure-dev__45f1a36c.jsonl`` (written by 1.0.72-1). How host facts
are mapped:

- ``session.start``: the session id and the working directory (``data.context.cwd``), which
  ``session.context_changed`` and ``session.resume`` move; every call runs in the one current then.
- ``user.message``: a ``UserMessage`` with ``data.content`` (the text as the user typed it, not
  the ``transformedContent`` the model got). A message with a ``source`` was not typed by the user
  (a skill's hidden injection, another agent's message, a hook's): a hidden ``HostMessage`` (of
  kind ``hook-feedback`` when the source names a hook), which starts no task; so is one
  autopilot injected (``isAutopilotContinuation``).
- ``assistant.message``: an ``AssistantMessage`` (``content``, with ``reasoningText`` as its
  reasoning). Its ``toolRequests`` are what the model asked for; what ran is told by
  ``tool.execution_start`` (a ``ToolDispatched`` with ``toolName`` and ``arguments``) and
  ``tool.execution_complete`` (a ``ToolCompleted``: ``result.content`` when ``success``, else
  ``error.message`` with ``is_error``).
- Sub-agents: an event that carries ``data.parentToolCallId`` comes from the sub-agent that tool
  call (``task``) started; that id is the agent's, announced by ``AgentSpawned(parent_id="root",
  role="local-subagent")`` at its ``subagent.started`` or first event.
- ``session.compaction_complete`` that succeeded is a ``Compaction`` with ``summaryContent``.
- ``session.snapshot_rewind`` withdrew events: ``eventIds`` names them, or, without it,
  ``upToEventId`` and every event after it up to the rewind. They are not replayed (counted as
  ``abandoned``), found by a first pass that runs only when the file holds a rewind.
- Every other type of the schema is known and makes no event; a type outside it is counted.

**Exit codes of shell calls** (tools ``bash`` and ``powershell``): ``shellExecution.exitCode``
when the host recorded it (experimental in 1.0.102); otherwise the result's last line,
``<shellId: NAME completed with exit code N>`` (``<detached command with shellId: …>`` for a
detached one), which Copilot appends after the command's output — the notices about the sandbox
it may write below it are passed over, exactly as the CLI's own display does (its ``uio``
pattern). The command's own output comes before, so it cannot forge that line. A shell result
without that line (an ``async`` command still running, a refused one) has no exit code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .._events._assistant_message import AssistantMessage
from .._events._compaction import Compaction
from .._events._host_message import HostMessage
from .._events._tool_completed import ToolCompleted
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from .._events._user_message import UserMessage
from .._vocabulary import HostMessageKind
from ..errors import Rewound
from ._common import ROOT, Bounded, Stamp, error_code, exit_status, integer, kind_of, string
from ._entry_types import COPILOT_TYPES
from ._lines import read_lines
from ._plans import NOTHING, Planned
from ._report import TranscriptReport

COPILOT_SHELL_TOOLS = frozenset({"bash", "powershell"})
"""Copilot CLI's shell tools: their results end with the exit code."""
_COMPLETED = re.compile(r"^<(?:detached command with )?shellId: [^\r\n]+ completed with exit code (-?\d+)>[ \t]*$")
_SANDBOX_NOTES = ("<sandbox is active ", "<this failure may be caused by the active sandbox policy.",
                  "<This command was retried outside the Copilot sandbox with user approval and still failed.")
"""Lines Copilot may write after the exit code line (its ``pio``), passed over to find it."""
_REWIND = b'"session.snapshot_rewind"'


class CopilotReader:
    """Copilot CLI events to ``obligations`` events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.cwd: str | None = None
        self.pending: Bounded[str, str] = Bounded()
        """Calls awaiting their result: call id -> tool name."""

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        kind = kind_of(entry.get("type"))
        self.stamp.at(line, entry.get("timestamp"), entry.get("id"))
        data = entry.get("data")
        data = data if isinstance(data, dict) else {}
        if kind not in COPILOT_TYPES:
            self.report.unknown(kind if kind is not None else "(untyped)")
            return []
        agent = string(data.get("parentToolCallId")) or ROOT
        if kind == "tool.execution_start":
            return self._announce(agent) + self._dispatch(data, agent)
        if kind == "tool.execution_complete":
            return self._announce(agent) + self._complete(data, agent)
        if kind == "assistant.message":
            return self._announce(agent) + self._assistant(data, agent)
        if kind == "user.message":
            return self._announce(agent) + self._user(data, agent)
        if kind == "subagent.started":
            return self._announce(string(data.get("toolCallId")) or ROOT)
        if kind == "session.compaction_complete" and data.get("success") is True:
            return [Compaction(summary=string(data.get("summaryContent")) or "", **self.stamp.base(agent))]
        if kind in ("session.start", "session.resume", "session.context_changed"):
            self._session(data)
        return []

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        self.report.unfinished_calls = len(self.pending)
        self.report.unanswered(list(self.pending))
        return []

    def _announce(self, agent: str) -> list[Event]:
        return self.stamp.announce(agent) if agent != ROOT and agent not in self.stamp.announced else []

    def _session(self, data: dict[str, Any]) -> None:
        context = data.get("context")
        context = context if isinstance(context, dict) else data
        self.cwd = string(context.get("cwd")) or self.cwd
        if self.report.session_id is None:
            self.report.session_id = string(data.get("sessionId"))
        if self.report.cwd is None:
            self.report.cwd = self.cwd

    def _user(self, data: dict[str, Any], agent: str) -> list[Event]:
        text = (string(data.get("content")) or "").strip()
        attachments = data.get("attachments")
        images = sum(1 for item in attachments if isinstance(item, dict) and item.get("type") == "image") \
            if isinstance(attachments, list) else 0
        source = string(data.get("source"))
        base = self.stamp.base(agent)
        if source is not None or data.get("isAutopilotContinuation") is True:
            name = source or "autopilot"
            kind: HostMessageKind = "hook-feedback" if "hook" in name.lower() else "extension"
            return [HostMessage(kind=kind, name=name, text=text, hidden=True, **base)]
        return [UserMessage(text=text, images=images, **base)] if text or images else []

    def _assistant(self, data: dict[str, Any], agent: str) -> list[Event]:
        text = string(data.get("content")) or ""
        reasoning = string(data.get("reasoningText")) or ""
        if not (text or reasoning):
            return []
        return [self.stamp.event(AssistantMessage, agent, {"text": text, "reasoning": reasoning})]

    def _dispatch(self, data: dict[str, Any], agent: str) -> list[Event]:
        call_id = string(data.get("toolCallId")) or f"{self.stamp.origin}#call"
        name = string(data.get("toolName")) or "unknown"
        arguments = data.get("arguments")
        self.pending[call_id] = name
        return [self.stamp.event(ToolDispatched, agent, {
            "call_id": call_id, "tool": name, "arguments": arguments if isinstance(arguments, dict) else {},
            "cwd": self.cwd})]

    def _complete(self, data: dict[str, Any], agent: str) -> list[Event]:
        call_id = string(data.get("toolCallId")) or f"{self.stamp.origin}#result"
        tool = self.pending.pop(call_id, None)
        success = data.get("success") is True
        result, error = _object(data.get("result")), _object(data.get("error"))
        text = (string(result.get("content")) if success else string(error.get("message"))) or ""
        exit_code = code = None
        if tool is not None and tool.lower() in COPILOT_SHELL_TOOLS:
            exit_code = shell_exit(text, data.get("shellExecution"))
            if exit_code is None:
                self.report.no_exit_code += 1
            else:
                self.report.exit_codes += 1
        if not success:
            code = _refusal(string(error.get("code"))) or error_code(text)
        return [self.stamp.event(ToolCompleted, agent, {
            "call_id": call_id, "exit_code": exit_code, "is_error": not success, "error_code": code,
            "error_message": None if success else text, "output": text, "images": 0})]


def shell_exit(text: str, execution: Any) -> int | None:
    """The exit code of a shell call: the host's ``shellExecution``, else its closing line (see the module
    docstring); ``None`` when neither is there."""
    if isinstance(execution, dict) and integer(execution.get("exitCode")) is not None:
        return integer(execution.get("exitCode"))
    lines = text[-4096:].replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for line in reversed(lines):
        if not line or line.startswith(_SANDBOX_NOTES):
            continue
        found = _COMPLETED.match(line)
        return exit_status(found.group(1)) if found else None
    return None


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _refusal(code: str | None) -> Any:
    """The structured code of Copilot's own error codes that say the call was refused."""
    return "permission_denied" if code in ("denied", "rejected", "permission_denied") else None


def plan(path: Path, *, start: int = 0, number: int = 0, end: int | None = None, prior: Any = None) -> Planned:
    """Which events of the bytes ``start`` to ``end`` to replay: all of them unless a
    ``session.snapshot_rewind`` withdrew some. Planned after ``start`` (a resumed replay), a rewind
    there raises ``Rewound`` (it withdraws what was replayed); ``prior`` holds the ids withdrawn
    before, which stay withdrawn."""
    removed: set[str] = set(prior.get("removed", ())) if isinstance(prior, dict) else set()
    ranges: list[tuple[int, int]] = []
    if _holds(path, _REWIND, start=start, end=end):
        if start:
            raise Rewound("a snapshot rewind after the lines already replayed")
        ranges = _rewinds(path, end, removed)
    if not removed and not ranges:
        return NOTHING

    def keeps(number: int, entry: dict[str, Any]) -> bool:
        ident = entry.get("id")
        if isinstance(ident, str) and ident in removed:
            return False
        return not any(start <= number < end for start, end in ranges)

    return Planned(keeps, {"removed": sorted(removed)})


def _rewinds(path: Path, end: int | None, removed: set[str]) -> list[tuple[int, int]]:
    """The rewinds of the file's first ``end`` bytes: the ids they withdraw (added to ``removed``),
    and the line ranges they withdraw."""
    spans: list[tuple[str, int]] = []  # (first removed id, line of the rewind): that id up to the rewind
    for line in read_lines(path, end=end):
        entry = line.entry
        if entry is None or entry.get("type") != "session.snapshot_rewind" or not isinstance(entry.get("data"), dict):
            continue
        data = entry["data"]
        ids = data.get("eventIds")
        if isinstance(ids, list) and ids:
            removed.update(ident for ident in ids if isinstance(ident, str))
        elif string(data.get("upToEventId")):
            spans.append((data["upToEventId"], line.number))
    if not spans:
        return []
    starts = {ident for ident, _ in spans}
    first = {ident: line.number for line in read_lines(path, end=end)
             if line.entry is not None and (ident := line.entry.get("id")) in starts}
    return [(first[ident], last) for ident, last in spans if ident in first and first[ident] < last]


def _holds(path: Path, marker: bytes, chunk: int = 1 << 22, *, start: int = 0, end: int | None = None) -> bool:
    """Whether the bytes ``start`` to ``end`` of the file contain ``marker`` (read in chunks, never whole)."""
    tail = b""
    left = end - start if end is not None else None
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            while left != 0 and (block := handle.read(chunk if left is None else min(chunk, left))):
                if left is not None:
                    left -= len(block)
                if marker in tail + block[:len(marker)] or marker in block:
                    return True
                tail = block[-len(marker):]
    except OSError:
        return False  # unreadable here: the replay reports it
    return False
