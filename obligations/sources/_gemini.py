"""Gemini CLI chat recordings (``~/.gemini/tmp/<project>/chats/``) as events, in both eras.

- **JSON Lines** (``session-<time>-<id8>.jsonl``; append-only since gemini-cli PR #23749, read in
  gemini-cli 0.61.0's ``packages/core/src/services/chatRecordingService.ts``): a first line of
  metadata (``sessionId``, ``projectHash``, ``startTime``, ``kind`` …), then message records
  ``{id, timestamp, type, content, toolCalls?, thoughts?}`` — the same message is written again,
  whole, each time it changes (a tool call added or finished, its tokens counted) and the later
  copy replaces the earlier, as the host's own loader does —, ``{"$set": {…}}`` metadata updates
  (``$set.messages`` rewrites the whole history: on resume, after an aborted turn, after a
  compression) and ``{"$rewindTo": id}``, which withdraws that message and every one after it.
- **One JSON document** (``session-<time>-<id8>.json``, earlier versions, rewritten in place):
  ``{sessionId, projectHash, startTime, lastUpdated, messages: […]}``; read whole (the host reads
  and writes it whole too), each message as a record of the first era. Origins are
  ``<file>:<n>`` with ``n`` the message's place in ``messages``.

How host facts are mapped: a ``user`` message is a ``UserMessage``, unless it is a command or the
host's context (``/…``, ``?…``, ``<session_context>``, ``<hook_context>``: the texts the host itself
does not resume as a prompt); a ``gemini`` message is an ``AssistantMessage`` (its ``thoughts`` as
reasoning) and a ``ToolDispatched`` per tool call the first time the call is seen, then a
``ToolCompleted`` once the call's ``status`` is ``success``, ``error`` or ``cancelled``;
``info``/``error``/``warning`` messages are the host's notices, not read. A message that first
appears inside a ``$set.messages`` rewrite is the host's (a compression's summary) and is a
``Compaction``. Messages withdrawn by ``$rewindTo`` are not replayed (``abandoned``), found by a
first pass that keeps only message ids. A sub-agent's chat (``chats/<parent>/<id>.jsonl``, metadata
``kind: "subagent"``) is that agent's own session, read like any other.

**Exit codes of ``run_shell_command``** (gemini-cli ``packages/core/src/tools/shell.ts``): the
result the model gets is ``Output: …`` followed by sections the tool appends after the command's
output — ``Error:``, ``Exit Code: N`` (only when non-zero since 0.3x; always, ``0`` included, in
earlier versions, which also started with ``Command:`` and ``Directory:``), ``Signal:``,
``Background PIDs:``, ``Process Group PGID:`` —, wrapped in ``<untrusted_context>`` by recent
versions. The sections are read from the end up, so output above them cannot forge one: the
last ``Exit Code`` there is the exit; without one, a successful call whose text opens with
``Output:`` and carries no ``Error`` or ``Signal`` exited 0. A cancelled command (``Command was
cancelled by user``, ``… automatically cancelled because it exceeded the timeout``), one moved to
the background, or a summarised output has no exit code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from .._events._assistant_message import AssistantMessage
from .._events._compaction import Compaction
from .._events._tool_completed import ToolCompleted
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from .._events._user_message import UserMessage
from .._vocabulary import ErrorCode
from ..errors import NotATranscript, Rewound
from ._common import Bounded, Stamp, error_code, exit_status, kind_of, string
from ._lines import MAX_LINE_BYTES, raw_lines
from ._plans import NOTHING, Planned
from ._replay import counted
from ._report import TranscriptReport

GEMINI_SHELL_TOOLS = frozenset({"run_shell_command"})
"""Gemini CLI's shell tool: its result carries the exit code in its closing sections."""
MESSAGE_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
_NOT_PROMPTS = ("/", "?", "<session_context>", "<hook_context>")
_DONE = frozenset({"success", "error", "cancelled"})
_SECTION = re.compile(r"^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$")
_CANCELLED = "Command was cancelled by user"
_TIMED_OUT = "Command was automatically cancelled because it exceeded the timeout"
_BACKGROUND = ("Command moved to background", "Command is running in background")
MAX_DOCUMENT_BYTES = MAX_LINE_BYTES
"""The largest one-document session read: it is read whole, as one line of JSON Lines is, so it has
a line's bound (memory never holds more than one line)."""


class GeminiReader:
    """Gemini CLI message records to events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.seen: Bounded[str, bool] = Bounded()
        """Messages already read (their first copy made their events)."""
        self.calls: Bounded[str, bool] = Bounded()
        """Tool calls dispatched: call id -> completed."""
        self.tools: Bounded[str, str] = Bounded()

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        if "$rewindTo" in entry:
            return []  # planned before the replay: the withdrawn messages never reach here
        changes = entry.get("$set")
        if isinstance(changes, dict):
            self._metadata(changes)
            messages = changes.get("messages")
            return self._rewrite(line, messages) if isinstance(messages, list) else []
        if isinstance(entry.get("projectHash"), str) or ("sessionId" in entry and "id" not in entry):
            self._metadata(entry)
            messages = entry.get("messages")
            return self._rewrite(line, messages, history=False) if isinstance(messages, list) else []
        return self.message(line, entry)

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        pending = [call for call, done in self.calls.items() if not done]
        self.report.unfinished_calls = len(pending)
        self.report.unanswered(pending)
        return []

    def message(self, line: int, record: dict[str, Any], rewritten: bool = False) -> list[Event]:
        """The events of one message record (a later copy of a message adds only what is new in it)."""
        kind = kind_of(record.get("type"))
        ident = string(record.get("id"))
        self.stamp.at(line, record.get("timestamp"), ident)
        if kind not in MESSAGE_TYPES:
            self.report.unknown(kind if kind is not None else "(untyped)")
            return []
        first = ident is None or ident not in self.seen
        if ident is not None:
            self.seen[ident] = True
        if kind == "user":
            return self._user(record, rewritten) if first else []
        if kind == "gemini":
            return (self._assistant(record) if first and not rewritten else []) + self._calls(record)
        return []

    def _metadata(self, fields: dict[str, Any]) -> None:
        if self.report.session_id is None:
            self.report.session_id = string(fields.get("sessionId"))
        directories = fields.get("directories")
        if self.report.cwd is None and isinstance(directories, list) and directories:
            self.report.cwd = string(directories[0])

    def _rewrite(self, line: int, messages: list[Any], history: bool = True) -> list[Event]:
        events: list[Event] = []
        for record in messages:
            if isinstance(record, dict):
                events.extend(self.message(line, record, rewritten=history))
        return events

    def _user(self, record: dict[str, Any], rewritten: bool) -> list[Event]:
        content = record.get("content")
        text = parts_text(content).strip()
        if rewritten:
            return [Compaction(summary=text, **self.stamp.base())] if text else []
        images = inline_images(content)
        if (not text and not images) or text.startswith(_NOT_PROMPTS):
            return []
        return [UserMessage(text=text, images=images, **self.stamp.base())]

    def _assistant(self, record: dict[str, Any]) -> list[Event]:
        text = parts_text(record.get("content"))
        thoughts = record.get("thoughts")
        reasoning = "\n".join(part for thought in thoughts if isinstance(thought, dict)
                              if (part := string(thought.get("description")))) if isinstance(thoughts, list) else ""
        if not (text or reasoning):
            return []
        return [AssistantMessage(text=text, reasoning=reasoning, **self.stamp.base())]

    def _calls(self, record: dict[str, Any]) -> list[Event]:
        calls = record.get("toolCalls")
        if not isinstance(calls, list):
            return []
        events: list[Event] = []
        for index, call in enumerate(calls):
            if not isinstance(call, dict):
                continue
            call_id = string(call.get("id")) or f"{self.stamp.origin}#{index}"
            name = string(call.get("name")) or "unknown"
            if call_id not in self.calls:
                self.calls[call_id] = False
                arguments = call.get("args")
                events.append(ToolDispatched(call_id=call_id, tool=name,
                                             arguments=arguments if isinstance(arguments, dict) else {},
                                             **self.stamp.base()))
            if not self.calls[call_id] and call.get("status") in _DONE:
                self.calls[call_id] = True
                events.append(self._result(call_id, name, call))
        return events

    def _result(self, call_id: str, name: str, call: dict[str, Any]) -> ToolCompleted:
        status = call.get("status")
        text, failed = function_response(call.get("result"))
        is_error = status != "success" or failed
        exit_code: int | None = None
        code: ErrorCode | None = "interrupted" if status == "cancelled" else None
        if name.lower() in GEMINI_SHELL_TOOLS:
            exit_code, shell_code = shell_exit(text, status == "success")
            code = code or shell_code
            if exit_code is None:
                self.report.no_exit_code += 1
            else:
                self.report.exit_codes += 1
        elif is_error and code is None:
            code = error_code(text)
        return ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=is_error, error_code=code,
                             error_message=text if is_error else None, output=text, **self.stamp.base())


def parts_text(content: Any) -> str:
    """The text of a message's content: a string, or its parts' ``text`` (Gemini parts have no ``type``)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    return "\n".join(part["text"] for part in content
                     if isinstance(part, dict) and isinstance(part.get("text"), str) and not part.get("thought"))


def inline_images(content: Any) -> int:
    """Images pasted into a user message (``inlineData`` parts)."""
    if not isinstance(content, list):
        return 0
    return sum(1 for part in content if isinstance(part, dict) and "inlineData" in part)


def function_response(result: Any) -> tuple[str, bool]:
    """The text the model got for a tool call, and whether the tool answered with an error."""
    if isinstance(result, str):
        return result, False
    parts = result if isinstance(result, list) else [result] if isinstance(result, dict) else []
    texts: list[str] = []
    failed = False
    for part in parts:
        if not isinstance(part, dict):
            continue
        response = part.get("functionResponse")
        body = response.get("response") if isinstance(response, dict) else None
        if isinstance(body, dict):
            if "error" in body:
                failed = True
                texts.append(str(body["error"]) if not isinstance(body["error"], str) else body["error"])
            output = body.get("output")
            if isinstance(output, str):
                texts.append(output)
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
    return "\n".join(texts), failed


def shell_exit(text: str, success: bool) -> tuple[int | None, ErrorCode | None]:
    """The exit code of a ``run_shell_command`` result, and the code of a cancellation or time-out (see the
    module docstring)."""
    body = text.strip()
    if body.startswith("<untrusted_context>") and body.endswith("</untrusted_context>"):
        body = body[len("<untrusted_context>"):-len("</untrusted_context>")].strip()
    if body.startswith(_TIMED_OUT):
        return None, "timeout"
    if body.startswith(_CANCELLED):
        return None, "interrupted"
    if body.startswith(_BACKGROUND):
        return None, None
    sections: dict[str, str] = {}
    for line in reversed(body[-8192:].split("\n")):
        found = _SECTION.match(line)
        if found is None:
            break
        sections.setdefault(found.group(1), found.group(2).strip())
    exit_text = sections.get("Exit Code")
    if exit_text is not None:
        digits = re.fullmatch(r"-?\d+", exit_text)
        return (exit_status(exit_text), None) if digits else (None, None)
    clean = sections.get("Error", "(none)") == "(none)" and sections.get("Signal", "(none)") == "(none)"
    if success and clean and body.startswith(("Output:", "Command:")) and "Process Group PGID" in sections:
        return 0, None
    return None, None


def plan(path: Path, *, start: int = 0, number: int = 0, end: int | None = None, prior: Any = None) -> Planned:
    """Which records of the bytes ``start`` to ``end`` to replay: all of them unless a ``$rewindTo``
    withdrew messages. Planned after ``start`` (a resumed replay), a ``$rewindTo`` there raises
    ``Rewound`` (it withdraws what was replayed); ``prior`` holds the messages withdrawn before,
    which stay withdrawn."""
    withdrawn: set[str] = set(prior.get("withdrawn", ())) if isinstance(prior, dict) else set()
    order: dict[str, None] = {}  # message ids in the order first seen (a dict keeps it)
    for _, raw in raw_lines(path, start=start, number=number, end=end):
        if raw is None or (b'"$rewindTo"' not in raw and b'"$set"' not in raw[:50] and b'"id"' not in raw[:200]):
            continue
        try:
            record = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(record, dict):
            continue
        target = record.get("$rewindTo")
        if isinstance(target, str):
            if start:
                raise Rewound(f"$rewindTo {target} after the lines already replayed")
            ids = list(order)
            cut = ids.index(target) if target in order else 0
            for ident in ids[cut:]:
                withdrawn.add(ident)
                del order[ident]
        elif isinstance(record.get("id"), str):
            order.setdefault(record["id"], None)
        elif isinstance(record.get("$set"), dict) and isinstance(record["$set"].get("messages"), list):
            # The host's loader starts its list afresh from a rewrite of the history.
            order = {message["id"]: None for message in record["$set"]["messages"]
                     if isinstance(message, dict) and isinstance(message.get("id"), str)}
    if not withdrawn:
        return NOTHING
    return Planned(lambda _line, record: not (isinstance(record.get("id"), str) and record["id"] in withdrawn),
                   {"withdrawn": sorted(withdrawn)})


def one_document(path: Path) -> bool:
    """Whether the file is one JSON document spread over lines (the first era), not JSON Lines."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"{") and head[1:].lstrip(b" \t\r").startswith(b"\n")


def read_document(path: Path, report: TranscriptReport) -> Iterator[Event]:
    """The events of a session of the first era (one JSON document), read whole."""
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            report.error = f"a one-document session of {size} bytes is more than {MAX_DOCUMENT_BYTES} read whole"
            return
        data = path.read_bytes()
    except OSError as error:
        report.error = f"reading stopped: {error.strerror or error}"
        return
    report.lines = data.count(b"\n") + (not data.endswith(b"\n"))
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise NotATranscript(path, f"its one JSON document cannot be read ({error})") from None
    messages = document.get("messages") if isinstance(document, dict) else None
    if not isinstance(messages, list):
        raise NotATranscript(path, "its JSON document holds no list of messages")
    reader = GeminiReader(path, report)
    reader.entry(0, {key: value for key, value in document.items() if key != "messages"})
    for number, record in enumerate(messages, start=1):
        if not isinstance(record, dict):
            report.skip(number, "message is not a JSON object")
            continue
        report.entries += 1
        yield from counted(reader.message(number, record), report)
    yield from counted(reader.finish(), report)
    report.complete = True
    if report.entries and not report.understood:
        raise NotATranscript(path, report.nothing_understood())
