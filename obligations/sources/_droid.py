"""Factory Droid sessions (``~/.factory/sessions/<project>/<session>.jsonl``) as events.

Read in Factory Droid 0.225.2 (``@factory/cli-linux-x64`` on npm: a compiled binary whose bundled
JavaScript was read; the program's source is not public). The first line is
``{"type": "session_start", "id", "title", "owner", "cwd", …}``; then
``{"type": "message", "id", "timestamp", "parentId"?, "message": {role, content, …}}`` lines, whose
content is Claude-style blocks (``text``, ``thinking``, ``image``, ``tool_use`` {id, name, input},
``tool_result`` {tool_use_id, content, is_error}), and the host's own lines: ``compaction_state``
(``summaryText``, ``summaryKind``, ``removedCount``…), ``todo_state`` and ``agent_turn_outcome``.
How host facts are mapped:

- an ``assistant`` message: an ``AssistantMessage`` (text blocks; ``thinking`` blocks as its
  reasoning), then a ``ToolDispatched`` per ``tool_use`` block, in the session's ``cwd``;
- a ``user`` message: a ``ToolCompleted`` per ``tool_result`` block (``is_error`` as the host set
  it); its text is a ``UserMessage`` — unless the message is the host's: one it marks
  ``visibility: "llm_only"`` (context it injects) or a hook's (``hookEventName``), a hidden
  ``HostMessage`` that starts no task; ``<system-reminder>`` text blocks are never the user's words;
- ``compaction_state``: a ``Compaction`` with ``summaryText`` (the messages it replaced stay in the
  file, before it);
- sub-agents (the ``Task`` tool) run as sessions of their own, read like any other.

**Exit codes of ``Execute``** (Droid's shell tool): the host appends
``[Process exited with code N]`` as the result's last line, after the command's output (and after
its own notes: a non-zero exit starts the text ``Command failed (exit code: N)``, a sandbox denial
and a saved-output path come before the closing line), so output cannot forge it. A command that
timed out (``Command timed out after …``) or ended by a signal has no closing line and no exit
code.
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
from .._vocabulary import ErrorCode, HostMessageKind
from ._common import Bounded, Stamp, count_parts, error_code, exit_status, kind_of, string, text_of, thinking_of
from ._entry_types import DROID_TYPES
from ._report import TranscriptReport

DROID_SHELL_TOOLS = frozenset({"execute"})
"""Factory Droid's shell tool (lower case): its result ends with the exit code."""
_CLOSING = re.compile(r"^\[Process exited with code (-?\d+)\]$")
_TIMED_OUT = re.compile(r"^\s*Command timed out after ")
_REMINDER = "<system-reminder>"


class DroidReader:
    """Factory Droid session lines to events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.cwd: str | None = None
        self.pending: Bounded[str, str] = Bounded()
        """Calls awaiting their result: call id -> tool name."""

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        kind = kind_of(entry.get("type"))
        self.stamp.at(line, entry.get("timestamp"), entry.get("id"))
        if kind not in DROID_TYPES:
            self.report.unknown(kind if kind is not None else "(untyped)")
            return []
        if kind == "message":
            message = entry.get("message")
            if not isinstance(message, dict):
                return []
            if message.get("role") == "assistant":
                return self._assistant(message.get("content"))
            return self._user(message)
        if kind == "session_start":
            self.cwd = string(entry.get("cwd")) or self.cwd
            self.report.session_id = self.report.session_id or string(entry.get("id"))
            self.report.cwd = self.report.cwd or self.cwd
        elif kind == "compaction_state":
            return [Compaction(summary=string(entry.get("summaryText")) or "", **self.stamp.base())]
        return []

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        self.report.unfinished_calls = len(self.pending)
        self.report.unanswered(list(self.pending))
        return []

    def _assistant(self, content: Any) -> list[Event]:
        events: list[Event] = []
        text, reasoning = text_of(content), thinking_of(content)
        if text or reasoning:
            events.append(AssistantMessage(text=text, reasoning=reasoning, **self.stamp.base()))
        blocks = content if isinstance(content, list) else []
        for index, block in enumerate(blocks):
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            call_id = string(block.get("id")) or f"{self.stamp.origin}#{index}"
            name = string(block.get("name")) or "unknown"
            arguments = block.get("input")
            self.pending[call_id] = name
            events.append(ToolDispatched(call_id=call_id, tool=name,
                                         arguments=arguments if isinstance(arguments, dict) else {},
                                         cwd=self.cwd, **self.stamp.base()))
        return events

    def _user(self, message: dict[str, Any]) -> list[Event]:
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        events: list[Event] = [self._result(block) for block in blocks
                               if isinstance(block, dict) and block.get("type") == "tool_result"]
        words = [block for block in blocks if not (isinstance(block, dict) and block.get("type") == "text"
                                                   and str(block.get("text", "")).lstrip().startswith(_REMINDER))]
        text = (content if isinstance(content, str) else text_of(words)).strip()
        images = count_parts(words, ("image",))
        if events or not (text or images):
            return events
        hook = string(message.get("hookEventName"))
        if hook is not None or message.get("visibility") == "llm_only":
            kind: HostMessageKind = "hook-feedback" if hook is not None else "extension"
            return [HostMessage(kind=kind, name=hook or "context", text=text, hidden=True, **self.stamp.base())]
        return [UserMessage(text=text, images=images, **self.stamp.base())]

    def _result(self, block: dict[str, Any]) -> ToolCompleted:
        call_id = string(block.get("tool_use_id")) or f"{self.stamp.origin}#result"
        tool = self.pending.pop(call_id, None)
        text = text_of(block.get("content"))
        is_error = block.get("is_error") is True
        exit_code: int | None = None
        code: ErrorCode | None = None
        if tool is not None and tool.lower() in DROID_SHELL_TOOLS:
            exit_code = shell_exit(text)
            if exit_code is None:
                self.report.no_exit_code += 1
                code = "timeout" if _TIMED_OUT.match(text) else None
            else:
                self.report.exit_codes += 1
        if is_error and code is None and exit_code is None:
            code = error_code(text)
        return ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=is_error, error_code=code,
                             error_message=text if is_error else None, output=text,
                             images=count_parts(block.get("content"), ("image",)), **self.stamp.base())


def shell_exit(text: str) -> int | None:
    """The exit code of an ``Execute`` result: its closing line (see the module docstring), else ``None``."""
    for line in reversed(text[-4096:].replace("\r\n", "\n").split("\n")):
        if not line.strip():
            continue
        found = _CLOSING.match(line.strip())
        return exit_status(found.group(1)) if found else None
    return None
