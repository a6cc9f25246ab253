"""Pi session JSONL (v3 tree: ``~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl``) as events.

A Pi session is a tree: every entry after the ``session`` header names its ``parentId``, and
going back to an earlier entry to try again starts a new branch in the same file. Only the
active branch happened as far as the session's outcome goes: the chain from the leaf (the last
entry in the file, where Pi resumes) back to the root. Entries on abandoned branches are not
replayed — a failing check there says nothing about the code the session ended with.

Finding the branch without holding the file: a first pass records only where the chain jumps
(an entry whose parent is not the entry before it) and which ids the jumps point at; a second
pass, needed only when there are jumps, finds those ids' lines; the last pass replays the line
ranges on the branch. Memory grows with the number of branch points, not with the file. A
corrupt line inside a chain is bridged: the entry after it continues the chain it interrupted.

How host facts are mapped:

- ``message`` role ``user``: ``UserMessage``; ``assistant``: ``AssistantMessage`` (its
  ``thinking`` parts as ``reasoning``) and a ``ToolDispatched`` per ``toolCall`` part (with the
  header's ``cwd``) — none for a message whose ``stopReason`` is ``aborted`` or ``error``: Pi
  returns before running its tool calls, so they never ran (they are counted in the report as
  ``never_ran``); ``toolResult``: ``ToolCompleted`` with ``isError``; ``bashExecution`` (the
  user's ``!`` command): a ``bash`` call (``user_shell``; ``excluded`` for ``!!``, which Pi keeps
  out of the agent's context) and its result with ``exitCode``. A ``custom_message`` is an
  extension's ``HostMessage`` (``hidden`` unless ``display`` is true); ``custom`` entries are
  extensions' state and are not replayed. A ``system`` message listing ``tools`` (Pi 0.86's
  snapshot) is a ``ToolCatalogue``. Images are counted, never kept; every event carries its
  entry's ``id``.
- An ``advisor`` result whose ``details`` say the consultation failed, was skipped or aborted is
  an error result: its text is a notice, not advice.
- ``compaction`` and ``branch_summary``: ``Compaction`` (kind ``branch`` for the latter) with the
  summary, and for a compaction the ``firstKeptEntryId`` as ``first_kept``.

**Exit codes of the ``bash`` tool** (Pi's ``core/tools/bash.ts``): a non-zero exit throws,
so the result is ``isError`` with ``Command exited with code N`` as its last line — exit N;
``Command aborted`` and ``Command timed out after N seconds`` are a cancellation and a time-out
without exit code. A result *without* ``isError`` is read as **exit 0**: the tool returns
normally only when the exit code is 0 or the process died from a signal with no code, which it
does not tell apart — that one gap is Pi's.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._consultations import is_advisor_tool
from .._events._assistant_message import AssistantMessage
from .._events._compaction import Compaction
from .._events._host_message import HostMessage
from .._events._tool_catalogue import ToolCatalogue, ToolInfo
from .._events._tool_completed import ToolCompleted
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from .._events._user_message import UserMessage
from .._vocabulary import ErrorCode
from ..errors import Rewound
from ._common import (
    Bounded,
    Stamp,
    count_parts,
    error_code,
    exit_status,
    integer,
    kind_of,
    string,
    text_of,
    thinking_of,
)
from ._entry_types import PI_TYPES
from ._lines import parse_line, raw_lines
from ._plans import Planned
from ._report import TranscriptReport

KNOWN_TYPES = PI_TYPES
KNOWN_ROLES = frozenset({"user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage", "branchSummary",
                         "compactionSummary", "system"})
PI_SHELL_TOOLS = frozenset({"bash"})
"""Pi's shell tools: their results carry the exit code in the error text."""
_EXITED = re.compile(r"Command exited with code (-?\d+)\s*$")
_ABORTED = re.compile(r"Command aborted\s*$")
_TIMED_OUT = re.compile(r"Command timed out after [^\n]*$")
_MAX_GAPS = 100_000
_NOT_EXECUTED = ("aborted", "error")
"""Pi's ``stopReason`` values with which the agent loop returns before running the message's tool calls."""


@dataclass(slots=True)
class _Segment:
    start: int
    parent: str | None


@dataclass(slots=True)
class Plan:
    """Which lines of the file are on the active branch."""

    last_line: int = 0
    ranges: list[tuple[int, int]] | None = None
    """Inclusive line ranges on the branch, in order; ``None`` when every line is."""
    leaf: str | None = None
    """The last entry: the branch's end."""
    _index: int = field(default=0, repr=False)

    def keeps(self, line: int, entry: dict[str, Any]) -> bool:
        """Whether the entry on ``line`` is replayed (lines are asked in increasing order)."""
        if self.ranges is None or entry.get("type") == "session":
            return True
        while self._index < len(self.ranges) and self.ranges[self._index][1] < line:
            self._index += 1
        return self._index < len(self.ranges) and self.ranges[self._index][0] <= line


def plan(path: Path, *, start: int = 0, number: int = 0, end: int | None = None, prior: Any = None) -> Planned:
    """Which lines of the bytes ``start`` to ``end`` are on the active branch. Planned after ``start``
    (a resumed replay), the lines must go on from the entry the earlier ones ended with (``prior``
    names it): one that starts a branch elsewhere may leave what was replayed behind, and raises
    ``Rewound``. Raises ``OSError`` when the file cannot be read."""
    if start:
        previous = prior.get("previous") if isinstance(prior, dict) else None
        for line, ident, parent in _tree(path, start=start, number=number, end=end):
            if ident is None:
                continue
            if parent != previous:
                raise Rewound(f"the entry on line {line} starts a branch")
            previous = ident
        return Planned(None, {"previous": previous})
    branch = plan_branch(path, end=end)
    return Planned(branch.keeps if branch.ranges is not None else None, {"previous": branch.leaf})


def plan_branch(path: Path, *, end: int | None = None) -> Plan:
    """Find the active branch of the file's first ``end`` bytes (see the module docstring)."""
    segments: list[_Segment] = []
    targets: set[str] = set()
    gaps: list[int] = []
    previous: str | None = None
    plan = Plan()
    for number, ident, parent in _tree(path, end=end):
        plan.last_line = number
        if ident is None:
            if parent == "gap" and len(gaps) < _MAX_GAPS:
                gaps.append(number)
            continue
        if not segments or parent != previous:
            segments.append(_Segment(number, parent))
            if parent is not None:
                targets.add(parent)
        previous = ident
    plan.leaf = previous
    if len(segments) <= 1:
        return plan
    where = {ident: number for number, ident, _ in _tree(path, end=end) if ident in targets}
    starts = [segment.start for segment in segments]
    ranges: list[tuple[int, int]] = []
    index, last = len(segments) - 1, plan.last_line
    for _ in range(len(segments) + 1):
        segment = segments[index]
        ranges.append((segment.start, last))
        if segment.parent is None:
            break
        line = where.get(segment.parent)
        if line is None:
            # The parent is no readable entry: most likely the corrupt line closest before, so
            # the chain is bridged over it rather than cut there.
            before = bisect.bisect_left(gaps, segment.start) - 1
            if before < 0:
                break
            line = gaps[before]
        if line >= segment.start:
            break
        index, last = bisect.bisect_right(starts, line) - 1, line
        if index < 0:
            break
    plan.ranges = sorted(ranges)
    return plan


def _tree(path: Path, *, start: int = 0, number: int = 0,
          end: int | None = None) -> Iterator[tuple[int, str | None, str | None]]:
    """(line, id, parent id) for every line of the bytes ``start`` to ``end``: the id is ``None`` off the
    tree (the header, a blank line), and the parent is ``"gap"`` for an unreadable line."""
    for found, raw in raw_lines(path, start=start, number=number, end=end):
        if raw is None:
            yield found, None, "gap"
            continue
        # Every line is parsed here too, so the plan and the replay agree on which lines are
        # readable: a truncated line can look like a whole entry's beginning.
        line = parse_line(found, raw)
        if line.entry is None:
            yield found, None, "gap" if line.problem is not None else None
            continue
        ident, parent = line.entry.get("id"), line.entry.get("parentId")
        if line.entry.get("type") != "session" and isinstance(ident, str):
            yield found, ident, parent if isinstance(parent, str) else None
        else:
            yield found, None, None


class PiReader:
    """Pi entries to events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.cwd: str | None = None
        self.pending: Bounded[str, bool] = Bounded()
        self.never_ran: Bounded[str, bool] = Bounded()

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        self.stamp.at(line, entry.get("timestamp"), entry.get("id"))
        kind = kind_of(entry.get("type"))
        base = self.stamp.base()
        if kind == "session":
            self.cwd = string(entry.get("cwd"))
            self.report.session_id, self.report.cwd = string(entry.get("id")), self.cwd
            return []
        if kind == "message":
            message = entry.get("message")
            return self._message(message if isinstance(message, dict) else {}, entry)
        if kind in ("compaction", "branch_summary"):
            summary = string(entry.get("summary")) or ""
            if kind == "branch_summary":
                return [Compaction(summary=summary, kind="branch", **base)]
            return [Compaction(summary=summary, first_kept=string(entry.get("firstKeptEntryId")), **base)]
        if kind == "custom_message":
            return [_extension_message(entry, base)]
        if kind not in KNOWN_TYPES:
            self.report.unknown(kind if kind is not None else "(untyped)")
        return []

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        self.report.unfinished_calls = len(self.pending)
        self.report.unanswered(list(self.pending))
        return []

    def _message(self, message: dict[str, Any], entry: dict[str, Any]) -> list[Event]:
        role = kind_of(message.get("role"))
        base = self.stamp.base()
        if role == "user":
            text = text_of(message.get("content")).strip()
            images = count_parts(message.get("content"), ("image",))
            return [UserMessage(text=text, images=images, **base)] if text or images else []
        if role == "assistant":
            content = message.get("content")
            events: list[Event] = [AssistantMessage(text=text_of(content), reasoning=thinking_of(content), **base)]
            return events + self._tool_calls(message, content if isinstance(content, list) else [])
        if role == "toolResult":
            if string(message.get("toolCallId")) in self.never_ran:
                return []  # a result for a call that never ran (there should be none)
            return [self._result(message)]
        if role == "bashExecution":
            return self._user_shell(message, entry)
        if role in ("branchSummary", "compactionSummary"):
            return [Compaction(summary=string(message.get("summary")) or "",
                               kind="branch" if role == "branchSummary" else "compaction", **base)]
        if role == "system" and isinstance(message.get("tools"), list):
            return [ToolCatalogue(tools=_tools(message["tools"]), **base)]
        if role not in KNOWN_ROLES:
            self.report.unknown(f"message:{role if role is not None else '(no role)'}")
        return []

    def _tool_calls(self, message: dict[str, Any], content: list[Any]) -> list[Event]:
        """The ``toolCall`` parts of an assistant message, dispatched — unless the message ended
        ``aborted`` or ``error``: Pi returns before executing its tool calls then, so they never ran."""
        base = self.stamp.base()
        stopped = message.get("stopReason") in _NOT_EXECUTED
        events: list[Event] = []
        for index, part in enumerate(content):
            if not isinstance(part, dict) or part.get("type") != "toolCall":
                continue
            call_id = string(part.get("id")) or f"{self.stamp.origin}#{index}"
            if stopped:
                self.never_ran[call_id] = True
                self.report.never_ran += 1
                continue
            arguments = part.get("arguments")
            self.pending[call_id] = True
            events.append(ToolDispatched(call_id=call_id, tool=string(part.get("name")) or "unknown",
                                         arguments=arguments if isinstance(arguments, dict) else {},
                                         cwd=self.cwd, **base))
        return events

    def _result(self, message: dict[str, Any]) -> ToolCompleted:
        call_id = string(message.get("toolCallId")) or f"{self.stamp.origin}#result"
        self.pending.pop(call_id, None)
        text = text_of(message.get("content"))
        is_error = message.get("isError") is True
        exit_code: int | None = None
        code = None
        if (string(message.get("toolName")) or "").lower() in PI_SHELL_TOOLS:
            exit_code, code = _bash_exit(text, is_error)
            if exit_code is None:
                self.report.no_exit_code += 1
            else:
                self.report.exit_codes += 1
        elif is_error:
            code = error_code(text)
        failure = _consultation_failure(message) if is_advisor_tool(string(message.get("toolName")) or "") else None
        if failure is not None:
            is_error, text = True, failure
        return ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=is_error, error_code=code,
                             error_message=text if is_error else None, output=text,
                             images=count_parts(message.get("content"), ("image",)), **self.stamp.base())

    def _user_shell(self, message: dict[str, Any], entry: dict[str, Any]) -> list[Event]:
        call_id = f"user-shell:{string(entry.get('id')) or self.stamp.origin}"
        base = self.stamp.base()
        exit_code = integer(message.get("exitCode"))
        cancelled = message.get("cancelled") is True
        if exit_code is None:
            self.report.no_exit_code += 1
        else:
            self.report.exit_codes += 1
        excluded = message.get("excludeFromContext") is True
        return [ToolDispatched(call_id=call_id, tool="bash", arguments={"command": message.get("command")},
                               user_shell=True, excluded=excluded, cwd=self.cwd, **base),
                ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=exit_code not in (0, None),
                              error_code="interrupted" if cancelled else None, output=string(message.get("output")),
                              **base)]


def _extension_message(entry: dict[str, Any], base: dict[str, Any]) -> HostMessage:
    """A ``custom_message``: an extension's message; a completion review's carries its advice in ``details``."""
    name = string(entry.get("customType"))
    details = entry.get("details")
    advice = details.get("advice") if isinstance(details, dict) and name == "advisor-review" else None
    text = advice if isinstance(advice, str) and advice.strip() else text_of(entry.get("content"))
    return HostMessage(kind="extension", name=name, text=text, hidden=entry.get("display") is not True, **base)


def _consultation_failure(message: dict[str, Any]) -> str | None:
    """Why an advisor consultation's result holds no advice (it failed, was skipped or aborted), if it does not."""
    details = message.get("details")
    if not isinstance(details, dict):
        return None
    if isinstance(details.get("errorMessage"), str) and details["errorMessage"]:
        return f"advisor consultation failed: {details['errorMessage']}"
    if details.get("skipped") is True:
        return "advisor consultation skipped"
    if details.get("stopReason") in ("error", "aborted"):
        return f"advisor consultation {'aborted' if details['stopReason'] == 'aborted' else 'failed'}"
    return None


def _tools(raw: list[Any]) -> tuple[ToolInfo, ...]:
    return tuple(ToolInfo(name=tool["name"], description=string(tool.get("description")) or "")
                 for tool in raw if isinstance(tool, dict) and string(tool.get("name")))


def _bash_exit(text: str, is_error: bool) -> tuple[int | None, ErrorCode | None]:
    if not is_error:
        return 0, None
    tail = text.rstrip()[-300:]
    found = _EXITED.search(tail)
    if found:
        return exit_status(found.group(1)), None
    if _ABORTED.search(tail):
        return None, "interrupted"
    if _TIMED_OUT.search(tail):
        return None, "timeout"
    return None, error_code(text)
