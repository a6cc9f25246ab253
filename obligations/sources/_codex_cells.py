"""Codex "code mode": every call is a JavaScript cell (a ``custom_tool_call`` named ``exec``) that
calls the real tools itself — ``tools.exec_command({cmd, workdir})``, ``tools.apply_patch(patch)``,
``tools.write_stdin({session_id})`` — and prints what it wants with ``text(…)``.

How cells are read:

- Each tool a cell calls is a call of its own (``exec_command`` with its ``cmd`` and ``workdir``,
  ``apply_patch`` with its patch, any other tool by its name); the arguments are read from the
  cell's source, which spells them as literals (an identifier is looked up in the cell's
  ``const NAME = "…"``). A ``write_stdin`` is a poll of a running command, not a call.
- A cell's result is its output, after Codex's header: ``Script completed`` (the ``text`` parts
  follow), or ``Script running with cell ID N`` — then its output comes later, through ``wait``
  calls for cell N.
- Code mode records **no exit codes**. A cell that prints one itself (``text(`exit:${r.exit_code}`)``)
  gives one: its output part equal to that template is the exit code. Otherwise the result has
  none (it is never a pass; its output can still show a failure).
- A command still running when its cell ends (the cell prints ``SESSION_ID=…`` from
  ``r.session_id``) completes when its output is all seen: polls of its session add to it, and
  it completes when a poll prints its exit code, when the agent starts another command, or when
  the file ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .._events._tool_completed import ToolCompleted
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from ._common import Bounded, Stamp, exit_status, resolve, text_of
from ._report import TranscriptReport
from ._resume import in_place, record

_TOOL_CALL = re.compile(r"\btools\.(\w+)\s*\(")
_CONSTANT = r"(?:const|let|var)\s+{name}\s*=\s*"
_TEMPLATE = re.compile(r"`([^`$]*)\$\{\s*(\w+)\.(exit_code|session_id)\s*\}([^`]*)`")
_RUNNING = re.compile(r"^Script running with cell ID (\S+)")
_HEADER_END = "Output:\n"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


@record
@dataclass(slots=True)
class _Tool:
    """One tool call in a cell."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    variable: str | None
    """The name its result is bound to (``const r = await tools.exec_command(…)``)."""


@record
@dataclass(slots=True)
class _Cell:
    tools: list[_Tool]
    exits: dict[str, re.Pattern[str]]
    """Per variable, the output part that prints its exit code."""
    sessions: dict[str, re.Pattern[str]]
    """Per variable, the output part that prints its running session's id."""


@record
@dataclass(slots=True)
class _Running:
    """A command still running after its cell ended."""

    call_id: str
    exits: re.Pattern[str] | None
    output: list[str] = field(default_factory=list)


@in_place
class CodeCells:
    """Code-mode cells to events, for one rollout."""

    def __init__(self, stamp: Stamp, report: TranscriptReport) -> None:
        self.stamp = stamp
        self.report = report
        self.cells: Bounded[str, _Cell] = Bounded()
        """Cells dispatched, by their call id, until their output is read."""
        self.cell_ids: Bounded[str, str] = Bounded()
        """Codex's cell ids of cells still running, to their call ids."""
        self.waits: Bounded[str, str] = Bounded()
        """``wait`` calls, to the cell id they poll."""
        self.running: dict[str, _Running] = {}
        """Commands still running after their cell, by session id."""
        self.polls: Bounded[str, str] = Bounded()
        """Cells that poll a session, by call id, to that session."""

    # -- dispatch ---------------------------------------------------------------------------

    def dispatch(self, call_id: str, source: str, cwd: str | None, agent: str) -> list[Event]:
        """A cell was sent: a dispatch per tool it calls (a poll of a running command is none)."""
        tools = _tools(call_id, source)
        polled = [_session(tool.arguments) for tool in tools if tool.name == "write_stdin"]
        events = self._flush(agent, keep={session for session in polled if session is not None})
        self.cells[call_id] = _Cell([tool for tool in tools if tool.name != "write_stdin"], *_templates(source))
        for session in polled:
            if session is not None:
                self.polls[call_id] = session
        for tool in self.cells[call_id].tools:
            arguments = tool.arguments
            if tool.name == "apply_patch" and "input" not in arguments:
                arguments = {"input": arguments.get("patch") or arguments.get("arguments") or ""}
            events.append(ToolDispatched(call_id=tool.call_id, tool=tool.name, arguments=arguments,
                                         cwd=resolve(arguments.get("workdir"), cwd), **self.stamp.base(agent)))
        return events

    def wait(self, call_id: str, arguments: dict[str, Any]) -> None:
        """A ``wait`` call polls a running cell."""
        cell = arguments.get("cell_id")
        if cell is not None:
            self.waits[call_id] = str(cell)

    # -- results ----------------------------------------------------------------------------

    def output(self, call_id: str, raw: Any, agent: str) -> list[Event] | None:
        """The events a cell's or a ``wait``'s output completes (``None``: not a code-mode output)."""
        if call_id in self.waits:
            cell = self.cell_ids.get(self.waits.pop(call_id))
            return self._result(cell, raw, agent) if cell is not None else []
        if call_id in self.cells:
            return self._result(call_id, raw, agent)
        return None

    def _result(self, call_id: str, raw: Any, agent: str) -> list[Event]:
        header, parts = _split(raw)
        running = _RUNNING.match(header)
        if running is not None:
            self.cell_ids[running.group(1)] = call_id
            return []  # its output comes through a later `wait`
        cell = self.cells.pop(call_id, None)
        if cell is None:
            return []
        failed = header.startswith("Script failed")
        session = self.polls.pop(call_id, None)
        events = self._polled(session, cell, parts, agent) if session is not None else []
        for tool in cell.tools:
            events += self._tool_result(tool, cell, parts, failed, agent, alone=len(cell.tools) == 1)
        return events

    def _tool_result(self, tool: _Tool, cell: _Cell, parts: list[str], failed: bool, agent: str, *,
                     alone: bool) -> list[Event]:
        exits = cell.exits.get(tool.variable or "")
        sessions = cell.sessions.get(tool.variable or "")
        exit_code = _printed(exits, parts)
        session = _printed(sessions, parts)
        shown = [part for part in parts if not _is(exits, part) and not _is(sessions, part)] if alone else parts
        if session is not None and tool.name == "exec_command" and exit_code is None:
            self.running[str(session)] = _Running(tool.call_id, exits, shown)
            return []
        if tool.name == "exec_command":
            self._count(exit_code)
        return [ToolCompleted(call_id=tool.call_id, exit_code=exit_code, is_error=failed, output="".join(shown),
                              **self.stamp.base(agent))]

    def _count(self, exit_code: int | None) -> None:
        if exit_code is None:
            self.report.no_exit_code += 1
        else:
            self.report.exit_codes += 1

    def _polled(self, session: str, cell: _Cell, parts: list[str], agent: str) -> list[Event]:
        """A poll of a running command: its output adds to the command's; an exit code ends it."""
        running = self.running.get(session)
        if running is None:
            return []
        pattern = next(iter(cell.exits.values()), None)
        exit_code = _printed(pattern, parts)
        running.output.extend(part for part in parts if not _is(pattern, part)
                              and not any(_is(p, part) for p in cell.sessions.values()))
        if exit_code is None:
            return []
        del self.running[session]
        self._count(exit_code)
        return [ToolCompleted(call_id=running.call_id, exit_code=exit_code, output="".join(running.output),
                              **self.stamp.base(agent))]

    def _flush(self, agent: str, keep: set[str] | None = None) -> list[Event]:
        """The agent moved on: commands still running complete with the output seen (no exit code)."""
        events: list[Event] = []
        for session in [s for s in self.running if not keep or s not in keep]:
            running = self.running.pop(session)
            self._count(None)
            events.append(ToolCompleted(call_id=running.call_id, output="".join(running.output),
                                        **self.stamp.base(agent)))
        return events

    def finish(self, agent: str) -> list[Event]:
        """The file ended: commands still running complete with the output seen."""
        return self._flush(agent)

    @property
    def unfinished(self) -> int:
        """Cells and commands whose result never came."""
        return len(self.cells) + len(self.running)


def _session(arguments: dict[str, Any]) -> str | None:
    value = arguments.get("session_id")
    return str(value) if value is not None else None


def _split(raw: Any) -> tuple[str, list[str]]:
    """(Codex's header, the cell's printed parts)."""
    if isinstance(raw, list):
        texts = [part.get("text") for part in raw if isinstance(part, dict)]
        parts = [text for text in texts if isinstance(text, str)]
    else:
        parts = [raw] if isinstance(raw, str) else [text_of(raw, ("input_text", "output_text", "text"))]
    if not parts:
        return "", []
    head, found, rest = parts[0].partition(_HEADER_END)
    if not found:
        return parts[0], parts[1:]
    return head, ([rest] if rest else []) + parts[1:]


def _printed(pattern: re.Pattern[str] | None, parts: list[str]) -> int | None:
    """The number a template printed as one whole output part, if it did."""
    if pattern is None:
        return None
    for part in reversed(parts):
        found = pattern.fullmatch(part.strip())
        if found is not None:
            return exit_status(found.group(1))
    return None


def _is(pattern: re.Pattern[str] | None, part: str) -> bool:
    return pattern is not None and pattern.fullmatch(part.strip()) is not None


def _templates(source: str) -> tuple[dict[str, re.Pattern[str]], dict[str, re.Pattern[str]]]:
    """The cell's ``text(`…${r.exit_code}…`)`` and ``${r.session_id}`` prints, as patterns per variable."""
    exits: dict[str, re.Pattern[str]] = {}
    sessions: dict[str, re.Pattern[str]] = {}
    for prefix, variable, attribute, suffix in _TEMPLATE.findall(source):
        pattern = re.compile(re.escape(prefix.strip()) + r"(-?\d+)" + re.escape(suffix.strip()))
        (exits if attribute == "exit_code" else sessions).setdefault(variable, pattern)
    return exits, sessions


def _tools(call_id: str, source: str) -> list[_Tool]:
    """The tools a cell's source calls, with the arguments it spells out."""
    found = list(_TOOL_CALL.finditer(source))
    tools = []
    for number, match in enumerate(found):
        ident = call_id if len(found) == 1 else f"{call_id}#{number}"
        before = source[max(0, match.start() - 80) : match.start()]
        bound = re.search(r"(?:const|let|var)\s+(\w+)\s*=\s*(?:await\s+)?$", before)
        value, _ = _value(source, match.end(), source)
        arguments = value if isinstance(value, dict) else ({"input": value} if isinstance(value, str) else {})
        tools.append(_Tool(ident, match.group(1), arguments, bound.group(1) if bound else None))
    return tools


def _value(text: str, at: int, source: str, depth: int = 0) -> tuple[Any, int]:
    """The JavaScript literal at ``text[at]`` (an object, a string, a number, or an identifier
    resolved through the cell's constants), and where it ends; ``None`` for anything else."""
    at = _space(text, at)
    if at >= len(text) or depth > 20:
        return None, at
    char = text[at]
    if char in "\"'`":
        return _string(text, at)
    if char == "{":
        return _object(text, at, source, depth)
    if char == "[":
        return None, _skip(text, at)
    number = re.match(r"-?\d+(?:\.\d+)?", text[at:])
    if number:
        return int(float(number.group())), at + number.end()
    name = re.match(r"[A-Za-z_$][\w$]*", text[at:])
    if name:
        constant = re.search(_CONSTANT.format(name=re.escape(name.group())), source)
        resolved = _value(source, constant.end(), source, depth + 1)[0] if constant else None
        return resolved, at + name.end()
    return None, at + 1


def _object(text: str, at: int, source: str, depth: int) -> tuple[dict[str, Any], int]:
    values: dict[str, Any] = {}
    at += 1
    while at < len(text):
        at = _space(text, at)
        if at >= len(text) or text[at] == "}":
            return values, at + 1
        if text[at] in "\"'":
            key, at = _string(text, at)
        else:
            name = re.match(r"[A-Za-z_$][\w$]*", text[at:])
            if name is None:
                return values, _skip(text, at - 1)
            key, at = name.group(), at + name.end()
        at = _space(text, at)
        if at >= len(text) or text[at] != ":":
            return values, at
        value, at = _value(text, at + 1, source, depth + 1)
        if isinstance(key, str):
            values[key] = value
        at = _space(text, at)
        if at < len(text) and text[at] == ",":
            at += 1
    return values, at


def _string(text: str, at: int) -> tuple[str | None, int]:
    """A string literal (a template with ``${…}`` in it has no static value)."""
    quote, at = text[at], at + 1
    chars: list[str] = []
    while at < len(text):
        char = text[at]
        if char == quote:
            return "".join(chars), at + 1
        if char == "\\" and at + 1 < len(text):
            escape, at = _escape(text, at + 1)
            chars.append(escape)
            continue
        if quote == "`" and text.startswith("${", at):
            return None, _template_end(text, at)  # it expands at run time: no static value
        chars.append(char)
        at += 1
    return None, at


def _template_end(text: str, at: int) -> int:
    """The end of a template literal, from inside it (``${…}`` parts skipped)."""
    while at < len(text):
        if text.startswith("${", at):
            at = _skip(text, at + 1)
            continue
        if text[at] == "\\":
            at += 2
            continue
        if text[at] == "`":
            return at + 1
        at += 1
    return at


def _escape(text: str, at: int) -> tuple[str, int]:
    char = text[at]
    if char == "u" and text.startswith("{", at + 1):
        end = text.find("}", at)
        return chr(int(text[at + 2 : end], 16)), end + 1
    if char in "ux":
        size = 4 if char == "u" else 2
        digits = text[at + 1 : at + 1 + size]
        if re.fullmatch(r"[0-9a-fA-F]+", digits or "-"):
            return chr(int(digits, 16)), at + 1 + size
    if char == "\n":
        return "", at + 1  # a line continuation
    return _ESCAPES.get(char, char), at + 1


def _space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _skip(text: str, at: int) -> int:
    """The end of the bracketed value at ``text[at]`` (strings inside it skipped)."""
    depth = 0
    while at < len(text):
        char = text[at]
        if char in "\"'`":
            _, at = _string(text, at)
            continue
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth <= 0:
                return at + 1
        at += 1
    return at
