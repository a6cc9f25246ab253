"""Codex CLI rollout JSONL (``~/.codex/sessions/…/rollout-*.jsonl``) as events.

Every line is ``{timestamp, type, payload}``. How host facts are mapped:

- ``session_meta`` (the first one): session id and cwd. When its ``source`` is a sub-agent's
  (``{"subagent": …}``, e.g. a thread spawned by ``spawn_agent``), the whole file is that
  sub-agent's record: its id is the agent id, announced by ``AgentSpawned(parent_id="root",
  role="local-subagent")``. A forked rollout begins with history copied from its parent (another
  ``session_meta`` among it); the copy carries no marker where it ends, so it is replayed as the
  file's own agent's.
- ``turn_context``: the working directory from then on. A call's ``workdir`` argument, taken
  relative to it, is the call's ``cwd``; without one the call runs in the turn's.
- ``response_item`` ``function_call`` / ``custom_tool_call`` / ``local_shell_call`` /
  ``tool_search_call``: ``ToolDispatched`` with the parsed arguments (``exec_command``'s ``cmd``,
  ``shell``'s argv ``command`` as it is, ``apply_patch``'s patch as ``input``); their
  ``*_output`` items: ``ToolCompleted``.
- An MCP tool's call is a ``function_call`` of its server's namespace (0.171.0: ``name: "advisor"``,
  ``namespace: "mcp__witness"``), read as ``mcp__<server>__<tool>``, the name Claude Code gives
  it too. Its output opens with Codex's own ``Wall time: … seconds\nOutput:`` part, which is not
  the tool's and is left out; the ``item_completed`` ``McpToolCall`` event before it says whether
  the tool answered with an error (``result.isError``).
- Messages: the user's words are ``event_msg`` ``user_message`` and ``response_item`` user
  messages that are not injected context (``<environment_context>``, ``<permissions
  instructions>``, ``# AGENTS.md instructions`` …); the assistant's are ``agent_message`` and
  assistant ``message`` items. Codex records most messages twice, once as each; the second
  copy is dropped. ``compacted`` is a ``Compaction``.
- Every event's ``entry_id`` is ``L<line>`` (rollout lines have no ids). A ``reasoning`` item's
  summary (its encrypted content is never readable) is the ``reasoning`` of the next assistant
  message, or of an ``AssistantMessage`` of its own when the step only calls tools. Images in a
  user message are counted, never kept; a session's ``dynamic_tools`` are a ``ToolCatalogue``;
  an ``exec_command_end`` whose ``source`` is ``user_shell`` is the user's own command.
- A Stop hook's block is recorded as a *user* message ``<hook_prompt hook_run_id="…">reason
  </hook_prompt>`` (the reason's ``<``, ``>`` and ``&`` as XML entities, unescaped here) whose
  content items carry ``provenance: {"type": "harness", "hook": true}``
  (0.171.0; also an ``item_completed`` ``HookPrompt`` event, not read): a ``HostMessage`` of kind
  ``hook-feedback`` per prompt, which starts no task.

**Exit codes** come, first available, from ``event_msg`` ``exec_command_end`` (its
``exit_code``; persisted in extended-history rollouts, before the call's output), the
``metadata.exit_code`` of a JSON ``{"output", "metadata"}`` output (older ``shell``), or the
header Codex puts above the command's output (``Process exited with code N`` for
``exec_command``, ``Exit code: N`` for ``shell`` and ``apply_patch``) — never from the command's
own output below ``Output:``. A unified-exec command still running when its call returns
(``Process running with session ID N``) completes when a later ``write_stdin`` poll of that
session, or its ``exec_command_end``, reports the exit; ``write_stdin`` is not a call of its own.
A declined command (``exec command rejected by user``, ``status: declined``) has no exit code
and ``error_code "permission_denied"``. A result with no exit code anywhere has none.

Codex "code mode" wraps every call in a JavaScript ``exec`` cell that calls the tools itself,
whose results can arrive later through ``wait`` calls: see ``_codex_cells``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from xml.sax.saxutils import unescape

from .._events._assistant_message import AssistantMessage
from .._events._compaction import Compaction
from .._events._host_message import HostMessage
from .._events._tool_catalogue import ToolCatalogue, ToolInfo
from .._events._tool_completed import ToolCompleted
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from .._events._user_message import UserMessage
from .._vocabulary import ErrorCode
from ..errors import MalformedEntry
from ._codex_cells import CodeCells
from ._common import (
    ROOT,
    Bounded,
    Stamp,
    count_parts,
    error_code,
    exit_status,
    integer,
    kind_of,
    resolve,
    string,
    text_of,
)
from ._report import TranscriptReport
from ._resume import record

KNOWN_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted", "session_state"})
KNOWN_ITEMS = frozenset({
    "message", "reasoning", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output",
    "local_shell_call", "web_search_call", "tool_search_call", "tool_search_output", "ghost_snapshot", "compaction",
    "compaction_summary", "image_generation_call", "other",
})
CODEX_SHELL_TOOLS = frozenset({"exec_command", "shell", "shell_command", "local_shell", "container.exec"})
"""Codex's shell tools: their results are counted as shell results with or without an exit code."""
CODEX_HEADER_TOOLS = CODEX_SHELL_TOOLS | {"apply_patch"}
"""Tools whose output Codex wraps in a header with the exit code."""
_CALLS = ("function_call", "custom_tool_call", "local_shell_call", "tool_search_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output", "tool_search_output")
_PROCESS_EXIT = re.compile(r"^Process exited with code (-?\d+)\s*$", re.M)
_EXIT_LINE = re.compile(r"^Exit code: (-?\d+)\s*$", re.M)
_RUNNING = re.compile(r"^Process running with session ID (\S+?)\s*$", re.M)
_CONTEXT = re.compile(r"^(?:<([A-Za-z_][\w -]*)>.*</\1>|# AGENTS\.md instructions\b.*)$", re.S)
_OUTPUT_MARK = "\nOutput:\n"
_MCP_NAMESPACE = "mcp__"
_MCP_HEADER = re.compile(r"\AWall time: [^\n]*\nOutput:(?:\n|\Z)")
_HOOK_PROMPT_OPEN = re.compile(r"\s*<hook_prompt\b[^>]*>")
_HOOK_PROMPT_CLOSE = "</hook_prompt>"
_PWSH = re.compile(r"(?:^|[\\/])(?:pwsh|powershell)(?:\.exe)?$", re.I)


@record
@dataclass(frozen=True, slots=True)
class _Call:
    tool: str
    session: str | None = None


@record
@dataclass(frozen=True, slots=True)
class _End:
    exit_code: int | None
    output: str | None
    is_error: bool
    code: ErrorCode | None


class CodexReader:
    """Codex rollout entries to events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.agent = ROOT
        self.started = False
        self.cwd: str | None = None
        self.calls: Bounded[str, _Call] = Bounded()
        self.ends: Bounded[str, _End] = Bounded()
        self.deferred: Bounded[str, _Call] = Bounded()
        self.sessions: Bounded[str, str] = Bounded()
        self.polls: Bounded[str, str] = Bounded()
        self.done: Bounded[str, bool] = Bounded()
        self.echo: tuple[str, str, str] | None = None
        self.cells = CodeCells(self.stamp, report)
        self.reasoning = ""

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        self.stamp.at(line, entry.get("timestamp"))
        kind = kind_of(entry.get("type"))
        if kind not in KNOWN_TYPES:
            self.report.unknown(kind if kind is not None else "(untyped)")
            return []
        payload = entry.get("payload")
        if not isinstance(payload, dict):
            raise MalformedEntry("the payload is not a JSON object")
        if kind == "session_meta":
            return self._meta(payload)
        if kind == "turn_context":
            self.cwd = string(payload.get("cwd")) or self.cwd
            return []
        if kind == "response_item":
            return self._item(payload)
        if kind == "event_msg":
            return self._event(payload)
        if kind == "compacted":
            return self._out([Compaction(summary=string(payload.get("message")) or "", **self.stamp.base(self.agent))])
        return []

    def _take_reasoning(self) -> str:
        reasoning, self.reasoning = self.reasoning, ""
        return reasoning

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        self.report.unfinished_calls = len(self.calls) + len(self.deferred) + self.cells.unfinished
        self.report.unanswered(list(self.calls))
        return self._out(self.cells.finish(self.agent))

    # -- entries ------------------------------------------------------------------------------

    def _meta(self, payload: dict[str, Any]) -> list[Event]:
        if self.started:
            return []  # the parent's metadata inside history copied into a fork
        self.started = True
        ident = string(payload.get("id"))
        self.cwd = string(payload.get("cwd"))
        self.report.session_id, self.report.cwd = ident, self.cwd
        source = payload.get("source")
        events: list[Event] = []
        if isinstance(source, dict) and "subagent" in source:
            self.agent = ident or "subagent"
            events = self.stamp.announce(self.agent)
        tools = _dynamic_tools(payload.get("dynamic_tools"))
        if tools:
            events.append(ToolCatalogue(tools=tools, **self.stamp.base(self.agent)))
        return events

    def _item(self, payload: dict[str, Any]) -> list[Event]:
        kind = kind_of(payload.get("type"))
        if kind == "message":
            role = payload.get("role")
            text = text_of(payload.get("content"), ("input_text", "output_text", "text")).strip()
            if role == "user" and _from_hook(payload):
                return self._said("host", text, "item")
            if role == "user" and not _CONTEXT.match(text):
                return self._said("user", text, "item", count_parts(payload.get("content"), ("input_image",)))
            if role == "assistant":
                return self._said("assistant", text, "item")
            return []
        if kind == "reasoning":
            summary = payload.get("summary")
            self.reasoning = "\n".join(part for part in (self.reasoning, text_of(summary, ("summary_text",)),
                                                          text_of(payload.get("content"), ("reasoning_text",))) if part)
            return []
        if kind in _CALLS:
            return self._call(payload, kind)
        if kind in _OUTPUTS:
            return self._output(payload)
        if kind not in KNOWN_ITEMS:
            self.report.unknown(f"response_item:{kind if kind is not None else '(untyped)'}")
        return []

    def _event(self, payload: dict[str, Any]) -> list[Event]:
        kind = payload.get("type")
        if kind == "user_message":
            if payload.get("kind") not in (None, "plain"):
                return []  # older rollouts tag injected instructions and context this way
            images = payload.get("images")
            return self._said("user", (string(payload.get("message")) or "").strip(), "event",
                              len(images) if isinstance(images, list) else 0)
        if kind == "agent_message":
            return self._said("assistant", (string(payload.get("message")) or "").strip(), "event")
        if kind == "exec_command_end":
            return self._exec_end(payload)
        if kind == "item_completed":
            self._mcp_end(payload.get("item"))
            return []
        if kind == "patch_apply_end":
            call_id = string(payload.get("call_id"))
            if call_id is not None and call_id in self.calls:
                self.ends[call_id] = _End(None, None, payload.get("success") is False, None)
        return []  # the other ~70 event kinds: tokens, turn markers, progress

    def _mcp_end(self, item: Any) -> None:
        """An MCP tool call's completion: whether the tool answered with an error."""
        if not isinstance(item, dict) or item.get("type") != "McpToolCall":
            return
        call_id = string(item.get("id"))
        result = item.get("result")
        failed = item.get("status") == "failed" or (isinstance(result, dict) and result.get("isError") is True)
        if call_id is not None and call_id in self.calls and failed:
            self.ends[call_id] = _End(None, None, True, None)

    def _said(self, role: str, text: str, source: str, images: int = 0) -> list[Event]:
        if not text and not images:
            return []
        if role == "user" and _hook_prompts(text):
            role = "host"  # a hook's prompt recorded without its provenance (an event, an older rollout)
        if self.echo is not None and self.echo[:2] == (role, text) and self.echo[2] != source:
            self.echo = None
            return []  # the same message, recorded once as a response item and once as an event
        base = self.stamp.base(self.agent)
        said: list[Event]
        if role == "host":
            prompts = _hook_prompts(text) or [text]
            said = [HostMessage(kind="hook-feedback", text=prompt.strip(), **base) for prompt in prompts]
        elif role == "user":
            said = [UserMessage(text=text, images=images, **base)]
        else:
            said = [AssistantMessage(text=text, reasoning=self._take_reasoning(), **base)]
        events = self._out(said)
        self.echo = (role, text, source)
        return events

    def _call(self, payload: dict[str, Any], kind: str) -> list[Event]:
        call_id = string(payload.get("call_id")) or string(payload.get("id")) or f"{self.stamp.origin}"
        workdir: Any = None
        if kind == "function_call":
            name = string(payload.get("name")) or "unknown"
            namespace = string(payload.get("namespace"))
            if namespace is not None and namespace.startswith(_MCP_NAMESPACE):
                name = f"{namespace}__{name}"
            arguments = _arguments(payload.get("arguments"))
            workdir = arguments.get("workdir")
        elif kind == "custom_tool_call":
            name = string(payload.get("name")) or "unknown"
            raw = payload.get("input")
            if name == "exec" and isinstance(raw, str):
                # Code mode: a JavaScript cell that calls the tools itself.
                return self._out(self.cells.dispatch(call_id, raw, self.cwd, self.agent))
            arguments = {"input": raw} if isinstance(raw, str) else _arguments(raw)
        elif kind == "local_shell_call":
            name = "local_shell"
            action = payload.get("action")
            action = action if isinstance(action, dict) else {}
            arguments = {"command": action.get("command")}
            workdir = action.get("working_directory")
        else:
            name = "tool_search"
            arguments = _arguments(payload.get("arguments"))
        if name == "write_stdin":
            # A poll of (or input to) a running command: part of that command's call, not a new one.
            self.polls[call_id] = str(arguments.get("session_id"))
            return []
        if name == "wait" and "cell_id" in arguments:
            self.cells.wait(call_id, arguments)  # a poll of a running code-mode cell
            return []
        self.calls[call_id] = _Call(name)
        shell: Literal["pwsh"] | None = None
        if isinstance(arguments.get("shell"), str) and _PWSH.search(arguments["shell"]):
            shell = "pwsh"
        reasoning = self._take_reasoning()
        step: list[Event] = [AssistantMessage(reasoning=reasoning, **self.stamp.base(self.agent))] if reasoning else []
        return self._out([*step, ToolDispatched(call_id=call_id, tool=name, arguments=arguments, shell=shell,
                                                cwd=resolve(workdir, self.cwd), **self.stamp.base(self.agent))])

    def _output(self, payload: dict[str, Any]) -> list[Event]:
        call_id = string(payload.get("call_id")) or f"{self.stamp.origin}"
        raw = payload.get("output")
        cell = self.cells.output(call_id, raw, self.agent)
        if cell is not None:
            return self._out(cell)
        if call_id in self.polls:
            return self._poll(self.polls.pop(call_id), raw)
        call = self.calls.pop(call_id, None)
        end = self.ends.pop(call_id, None)
        base = self.stamp.base(self.agent)
        if call is None or call.tool not in CODEX_HEADER_TOOLS:
            self.done[call_id] = True
            output = _mcp_output(raw) if call is not None and call.tool.startswith(_MCP_NAMESPACE) else _plain(raw)
            return self._out([ToolCompleted(call_id=call_id, is_error=end.is_error if end else False,
                                            output=output, **base)])
        head, body, exit_code = _exec_output(raw)
        code = end.code if end else None
        if end is not None and end.exit_code is not None:
            exit_code = end.exit_code
        if exit_code is None and code is None:
            running = _RUNNING.search(head)
            if running:
                self.sessions[running.group(1)] = call_id
                self.deferred[call_id] = _Call(call.tool, running.group(1))
                return []  # completes when the process exits
            code = error_code(head)
        return self._complete(call_id, call.tool, exit_code, body or (end.output if end else None) or "",
                              end.is_error if end else code == "permission_denied", code)

    def _poll(self, session: str, raw: Any) -> list[Event]:
        original = self.sessions.get(session)
        if original is None:
            return []
        head, body, exit_code = _exec_output(raw)
        if exit_code is None and _RUNNING.search(head):
            return []  # still running; only the last poll's output is kept
        self.sessions.pop(session, None)
        call = self.deferred.pop(original, None)
        return self._complete(original, call.tool if call else "exec_command", exit_code, body, False, None)

    def _exec_end(self, payload: dict[str, Any]) -> list[Event]:
        call_id = string(payload.get("call_id"))
        declined = payload.get("status") == "declined"
        exit_code = None if declined else integer(payload.get("exit_code"))
        output = string(payload.get("aggregated_output")) or "\n".join(
            part for part in (string(payload.get("stdout")), string(payload.get("stderr"))) if part)
        code: ErrorCode | None = "permission_denied" if declined else None
        if call_id is None or call_id in self.done:
            return []
        if call_id in self.deferred:
            call = self.deferred.pop(call_id)
            if call.session is not None:
                self.sessions.pop(call.session, None)
            return self._complete(call_id, call.tool, exit_code, output, declined, code)
        if call_id in self.calls:
            self.ends[call_id] = _End(exit_code, output, declined, code)
            return []
        # A command no tool call dispatched: the user's own shell command (`!`), or a call whose
        # dispatch was lost. It ran in the workspace, so it is replayed as a call of its own.
        command = payload.get("command")
        dispatch = ToolDispatched(call_id=call_id, tool="local_shell", arguments={"command": command},
                                  user_shell=payload.get("source") == "user_shell",
                                  cwd=resolve(payload.get("cwd"), self.cwd), **self.stamp.base(self.agent))
        return self._out([dispatch]) + self._complete(call_id, "local_shell", exit_code, output, declined, code)

    def _complete(self, call_id: str, tool: str, exit_code: int | None, output: str, is_error: bool,
                  code: ErrorCode | None) -> list[Event]:
        self.done[call_id] = True
        if tool in CODEX_SHELL_TOOLS:
            if exit_code is None:
                self.report.no_exit_code += 1
            else:
                self.report.exit_codes += 1
        return self._out([ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=is_error, error_code=code,
                                        error_message=output if is_error else None, output=output,
                                        **self.stamp.base(self.agent))])

    def _out(self, events: list[Event]) -> list[Event]:
        self.echo = None
        return self.stamp.announce(self.agent) + events if events else []


def _from_hook(payload: dict[str, Any]) -> bool:
    """A user message that a hook wrote: every content item is of hook provenance, or the text is
    nothing but ``<hook_prompt>`` elements."""
    if _hook_prompts(text_of(payload.get("content"), ("input_text", "text"))):
        return True
    metadata = payload.get("internal_chat_message_metadata_passthrough")
    items = metadata.get("content_item_metadata") if isinstance(metadata, dict) else None
    if not isinstance(items, list) or not items:
        return False
    return all(isinstance(item, dict) and isinstance(item.get("provenance"), dict)
               and item["provenance"].get("hook") is True for item in items)


def _hook_prompts(text: str) -> list[str]:
    """The prompts of a text made of nothing but ``<hook_prompt …>…</hook_prompt>`` elements (empty
    for any other text). Linear in the text, whatever it holds."""
    *elements, tail = text.split(_HOOK_PROMPT_CLOSE)
    if not elements or tail.strip():
        return []
    prompts = []
    for element in elements:
        opening = _HOOK_PROMPT_OPEN.match(element)
        if opening is None:
            return []
        prompts.append(unescape(element[opening.end():].strip()))  # Codex 0.171.0 writes `<` `>` as `&lt;` `&gt;`
    return prompts


def _dynamic_tools(raw: Any) -> tuple[ToolInfo, ...]:
    """The tools a session's ``dynamic_tools`` declare (functions, and the functions of namespaces)."""
    found: list[ToolInfo] = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict):
            continue
        members = item.get("tools") if item.get("type") == "namespace" else [item]
        for tool in members if isinstance(members, list) else []:
            if isinstance(tool, dict) and string(tool.get("name")):
                found.append(ToolInfo(name=tool["name"], description=string(tool.get("description")) or ""))
    return tuple(found)


def _arguments(raw: Any) -> dict[str, Any]:
    """A call's arguments: Codex stores them as a JSON string."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            return {"arguments": raw}
        except RecursionError:
            raise MalformedEntry("the call's arguments are nested too deeply") from None
        return value if isinstance(value, dict) else {"arguments": value}
    return {} if raw is None else {"arguments": raw}


def _plain(raw: Any) -> str:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, dict):
        return text_of(raw.get("content"), ("input_text", "output_text", "text"))
    return text_of(raw, ("input_text", "output_text", "text"))


def _mcp_output(raw: Any) -> str:
    """An MCP tool's own output, without the ``Wall time: …\nOutput:`` part Codex puts first."""
    return _MCP_HEADER.sub("", _plain(raw), count=1)


def _exec_output(raw: Any) -> tuple[str, str, int | None]:
    """(Codex's header, the command's output, the exit code the header or metadata reports)."""
    text = _plain(raw)
    exit_code: int | None = None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        except RecursionError:
            raise MalformedEntry("the call's output is JSON nested too deeply") from None
        if isinstance(data, dict) and isinstance(data.get("output"), str):
            metadata = data.get("metadata")
            exit_code = integer(metadata.get("exit_code")) if isinstance(metadata, dict) else None
            text = data["output"]
    cut = text.find(_OUTPUT_MARK)
    if cut >= 0:
        head, body = text[:cut], text[cut + len(_OUTPUT_MARK):]
    elif text.startswith("Output:\n"):
        head, body = "", text[len("Output:\n"):]
    else:
        # No header: only the first lines can be Codex's own words (a refusal, a time-out).
        head, body = "\n".join(text.split("\n", 3)[:3]), text
    if exit_code is None:
        found = _PROCESS_EXIT.search(head) or _EXIT_LINE.search(head)
        exit_code = exit_status(found.group(1)) if found else None
    return head, body, exit_code
