"""Qwen Code chat recordings (``~/.qwen/projects/<project>/chats/<session>.jsonl``) as events.

Read in Qwen Code 0.24.4's published bundle (``@qwen-code/qwen-code`` on npm; the sources are
``packages/core/src/services/chatRecordingService.ts``, ``sessionService.ts``, its transcript
record module and ``tools/shell.ts``): every line is one record with Claude Code's envelope —
``{uuid, parentUuid, sessionId, timestamp, type, subtype?, cwd, version, gitBranch, provenance}``
— and a Gemini-style payload, ``message: {role, parts}``. Recording is on by default
(``--chat-recording``). How host facts are mapped:

- ``user`` (no ``subtype``): a ``UserMessage`` with the text of its parts (images counted), unless
  it is a command (``/…``, ``?…``) — or, with a ``subtype`` (``notification``, ``cron``,
  ``goal_runtime``: ``provenance: "system"``), the host's own text: a hidden ``HostMessage`` that
  starts no task. ``mid_turn_user_message`` is words the user typed while the agent worked, read
  into the same turn: a ``HostMessage`` (kind ``extension``, not hidden), so no open check is
  dropped by a false task boundary. Parts the host added around the prompt
  (``<qwen:user-prompt-submit-context>``, a hook's context) are not the user's words.
- ``assistant``: an ``AssistantMessage`` (text parts; ``thought: true`` parts are its
  reasoning), then a ``ToolDispatched`` per ``functionCall`` part (``id``, ``name``, ``args``).
- ``tool_result``: a ``ToolCompleted`` per ``functionResponse`` part, with ``toolCallResult``
  (``callId``, ``status`` ``success|error|cancelled``) deciding the error and a cancellation.
- ``system`` ``chat_compression``: a ``Compaction`` whose summary is the compressed history's
  text; every other ``system`` subtype is the host's bookkeeping.
- The records form a tree through ``parentUuid``: a rewind (``/rewind``, subtype ``rewind``)
  re-roots the chain at an earlier turn, and the host resumes the branch that ends at the last
  record. Only that branch is replayed (found by one pass that keeps ids and parents, run only
  when the file holds a rewind); the rest is counted as ``abandoned``. Records of one ``uuid``
  with different times are fragments of one message, read in turn; an exact copy is read once.
  A replay resumed where an earlier one stopped (the Stop hook's) reads only the records appended
  since, unless the session holds a rewind: the last record decides the active branch, and a
  record appended later may move it back past what was replayed, so such a file is replayed whole.
- A sub-agent (the ``agent`` tool) records to a file of its own, read like any other session.

**Exit codes of ``run_shell_command``**: the result text is ``Command: …``, ``Directory: …``,
``Output: …``, then ``Error: …``, ``Exit Code: N`` (``(none)`` when a signal ended it),
``Signal: …`` and ``Process Group PGID: …`` — written after the command's output, so output above
cannot forge them; the host may append notes below (a long-run hint, a commit attribution
warning), each after a blank line. The last ``Process Group PGID`` line is the host's; the exit
code is the ``Exit Code`` two lines above it. A timed-out command (``Command timed out after …``)
or a cancelled one has no exit code.
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
from .._vocabulary import ErrorCode
from ..errors import Rewound
from ._common import Bounded, Stamp, error_code, exit_status, kind_of, string
from ._entry_types import QWEN_TYPES
from ._gemini import function_response, inline_images
from ._lines import raw_lines
from ._plans import Planned
from ._report import TranscriptReport

QWEN_SHELL_TOOLS = frozenset({"run_shell_command"})
"""Qwen Code's shell tool: its result carries the exit code in its closing sections."""
_NOT_PROMPTS = ("/", "?")
_HOOK_CONTEXT = "<qwen:user-prompt-submit-context>"
_PGID = re.compile(r"^Process Group PGID: ")
_EXIT = re.compile(r"^Exit Code: (-?\d+|\(none\))$")
_SIGNAL = re.compile(r"^Signal: ")
_TIMED_OUT = re.compile(r"^Command timed out after ")
_CANCELLED = "Command was cancelled by user"
_REWIND = (b'"subtype":"rewind"', b'"subtype": "rewind"')


class QwenReader:
    """Qwen Code records to events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.pending: Bounded[str, str] = Bounded()
        """Calls awaiting their result: call id -> tool name."""
        self.dispatched: Bounded[str, bool] = Bounded()

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        kind = kind_of(entry.get("type"))
        self.stamp.at(line, entry.get("timestamp"), entry.get("uuid"))
        if kind not in QWEN_TYPES:
            self.report.unknown(kind if kind is not None else "(untyped)")
            return []
        if self.report.session_id is None:
            self.report.session_id = string(entry.get("sessionId"))
        if self.report.cwd is None:
            self.report.cwd = string(entry.get("cwd"))
        message = entry.get("message")
        parts = message.get("parts") if isinstance(message, dict) else None
        parts = parts if isinstance(parts, list) else []
        if kind == "user":
            return self._user(entry, parts)
        if kind == "assistant":
            return self._assistant(parts, string(entry.get("cwd")))
        if kind == "tool_result":
            return self._results(entry, parts)
        if entry.get("subtype") == "chat_compression":
            return self._compaction(entry.get("systemPayload"))
        return []

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        self.report.unfinished_calls = len(self.pending)
        self.report.unanswered(list(self.pending))
        return []

    def _user(self, entry: dict[str, Any], parts: list[Any]) -> list[Event]:
        words = [part for part in parts if not (isinstance(part, dict) and _hook_context(part.get("text")))]
        text = _text(words).strip()
        images = inline_images(words)
        subtype = string(entry.get("subtype"))
        if subtype is not None:
            if not text:
                return []
            typed = subtype == "mid_turn_user_message"
            return [HostMessage(kind="extension", name=subtype, text=text, hidden=not typed, **self.stamp.base())]
        if (not text and not images) or text.startswith(_NOT_PROMPTS):
            return []
        return [UserMessage(text=text, images=images, **self.stamp.base())]

    def _assistant(self, parts: list[Any], cwd: str | None) -> list[Event]:
        events: list[Event] = []
        text = _text(parts)
        reasoning = _text(parts, thoughts=True)
        if text or reasoning:
            events.append(AssistantMessage(text=text, reasoning=reasoning, **self.stamp.base()))
        for index, part in enumerate(parts):
            call = part.get("functionCall") if isinstance(part, dict) else None
            if not isinstance(call, dict):
                continue
            call_id = string(call.get("id")) or f"{self.stamp.origin}#{index}"
            if call_id in self.dispatched:
                continue
            name = string(call.get("name")) or "unknown"
            arguments = call.get("args")
            self.dispatched[call_id] = True
            self.pending[call_id] = name
            events.append(ToolDispatched(call_id=call_id, tool=name,
                                         arguments=arguments if isinstance(arguments, dict) else {},
                                         cwd=cwd, **self.stamp.base()))
        return events

    def _results(self, entry: dict[str, Any], parts: list[Any]) -> list[Event]:
        outcome = entry.get("toolCallResult")
        outcome = outcome if isinstance(outcome, dict) else {}
        events: list[Event] = []
        for index, part in enumerate(parts):
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if not isinstance(response, dict):
                continue
            call_id = string(response.get("id")) or string(outcome.get("callId")) or f"{self.stamp.origin}#{index}"
            if call_id not in self.pending:
                continue  # a result already read (a fragment written again), or of no call seen
            tool = self.pending.pop(call_id)
            events.append(self._result(call_id, tool, part, string(outcome.get("status"))))
        return events

    def _result(self, call_id: str, tool: str, part: dict[str, Any], status: str | None) -> ToolCompleted:
        text, failed = function_response(part)
        is_error = failed or status in ("error", "cancelled")
        code: ErrorCode | None = "interrupted" if status == "cancelled" else None
        exit_code: int | None = None
        if tool.lower() in QWEN_SHELL_TOOLS:
            exit_code, shell_code = shell_exit(text)
            code = code or shell_code
            if exit_code is None:
                self.report.no_exit_code += 1
            else:
                self.report.exit_codes += 1
        elif is_error and code is None:
            code = error_code(text)
        return ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=is_error, error_code=code,
                             error_message=text if is_error else None, output=text, **self.stamp.base())

    def _compaction(self, payload: Any) -> list[Event]:
        history = payload.get("compressedHistory") if isinstance(payload, dict) else None
        if not isinstance(history, list):
            return [Compaction(summary="", **self.stamp.base())]
        texts = [_text(content.get("parts") or []) for content in history
                 if isinstance(content, dict) and content.get("role") == "user"]
        return [Compaction(summary=next((text for text in texts if text.strip()), ""), **self.stamp.base())]


def _hook_context(text: Any) -> bool:
    return isinstance(text, str) and text.lstrip().startswith(_HOOK_CONTEXT)


def _text(parts: list[Any], *, thoughts: bool = False) -> str:
    """The text parts of a message (``thoughts``: only its reasoning parts, else only the others)."""
    return "\n".join(part["text"] for part in parts if isinstance(part, dict) and isinstance(part.get("text"), str)
                     and bool(part.get("thought")) is thoughts)


def shell_exit(text: str) -> tuple[int | None, ErrorCode | None]:
    """The exit code of a ``run_shell_command`` result, and the code of a time-out or cancellation (see
    the module docstring)."""
    body = text.strip()
    if _TIMED_OUT.match(body):
        return None, "timeout"
    if body.startswith(_CANCELLED):
        return None, "interrupted"
    lines = body[-16384:].replace("\r\n", "\n").split("\n")
    for index in range(len(lines) - 1, 1, -1):
        if not _PGID.match(lines[index]):
            continue
        found = _EXIT.match(lines[index - 2])
        if found is None or not _SIGNAL.match(lines[index - 1]):
            return None, None
        digits = found.group(1)
        return (None, None) if digits == "(none)" else (exit_status(digits), None)
    return None, None


def plan(path: Path, *, start: int = 0, number: int = 0, end: int | None = None, prior: Any = None) -> Planned:
    """Which records of the bytes ``start`` to ``end`` to replay: every one when no rewind left a branch
    behind (see the module docstring). A rewound session's active branch is decided by its last
    record, which any record appended later may move: planned after ``start`` (a resumed replay), a
    rewind before ``start`` (``prior`` says) or after it raises ``Rewound``, and the file is replayed
    whole. Raises ``OSError`` when the file cannot be read."""
    if start and isinstance(prior, dict) and prior.get("rewound"):
        raise Rewound("the session was rewound before: its active branch is decided by its last record")
    parents: dict[str, str | None] = {}
    leaf: str | None = None
    rewound = False
    for line, raw in raw_lines(path, start=start, number=number, end=end):
        if raw is None:
            continue
        if not rewound and any(marker in raw for marker in _REWIND):
            if start:
                raise Rewound(f"the record on line {line} rewinds the session")
            rewound = True
        ident = _field(raw, b'"uuid"')
        if ident is None:
            continue
        parent = _field(raw, b'"parentUuid"')
        parents.setdefault(ident, parent)
        if b'"session_sources_snapshot"' not in raw and b'"session_artifact_' not in raw \
                and b'"managed_session_' not in raw:
            leaf = ident
    state = {"rewound": rewound}
    if not rewound or leaf is None:
        return Planned(None, state)
    active: set[str] = set()
    current: str | None = leaf
    while current is not None and current not in active and current in parents:
        active.add(current)
        current = parents[current]

    def keeps(_line: int, entry: dict[str, Any]) -> bool:
        ident = entry.get("uuid")
        return not isinstance(ident, str) or ident in active

    return Planned(keeps, state)


_FIELD = re.compile(rb'\s*:\s*(?:"((?:[^"\\]|\\.)*)"|null)')


def _field(raw: bytes | bytearray, key: bytes) -> str | None:
    """The string value of ``key`` at the record's top level, found without parsing the line (ids and
    parents are the envelope's first fields; a ``uuid`` inside a payload comes after them)."""
    at = raw.find(key)
    if at < 0:
        return None
    found = _FIELD.match(raw, at + len(key))
    if found is None or found.group(1) is None:
        return None
    return found.group(1).decode("utf-8", "replace")
