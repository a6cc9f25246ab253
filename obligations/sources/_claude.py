"""Claude Code session JSONL (``~/.claude/projects/<project>/<session>.jsonl``) as events.

How host facts are mapped:

- ``assistant`` entries: one ``AssistantMessage`` per API message (entries sharing
  ``message.id`` are one turn; synthetic ``<synthetic>`` messages are not turns), then a
  ``ToolDispatched`` per ``tool_use`` block, with the entry's ``cwd``.
- ``user`` entries: ``tool_result`` blocks become ``ToolCompleted`` (``is_error`` as the host
  set it); an entry holding tool results is never a ``UserMessage``. A Stop or SubagentStop
  hook's block is recorded as a user entry ``"Stop hook feedback:\n<reason>"`` (``isMeta``,
  ``rowSource: "hook"`` in 2.1.x; older versions wrote it without ``isMeta``): it is a
  ``HostMessage`` of kind ``hook-feedback``, which starts no task. A slash command
  (``<command-name>/x</command-name><command-args>…</command-args>``) is the user's words — the
  command and its arguments as typed, ``/x …``, a ``UserMessage`` — unless it manages the session
  (``/compact``, ``/clear``, ``/model`` …). Other meta entries (a command's expanded prompt), the
  commands' echoed output (``<local-command-stdout>`` …) and interruption markers are no user
  messages: when in doubt an entry does not start a new task, because a false task boundary would
  drop open obligations. The user's ``!`` shell (``<bash-input>``)
  is a ``Bash`` call of its own, without an exit code.
- Compaction: a ``compact_boundary`` system entry and the ``isCompactSummary`` entry after it
  are one ``Compaction`` carrying the summary text.
- Rewinds (``/rewind``, an edited prompt) leave the replaced prompt's subtree in the file: only
  the active branch is replayed (see ``_claude_branch``), and the report counts the entries left
  out as ``abandoned``.
- Every event carries its entry's ``uuid`` as ``entry_id``. A response's ``thinking`` (an entry
  of its own, before its text and calls) is the ``reasoning`` of its ``AssistantMessage``; images
  pasted into a user entry, and images in a tool result, are counted, never kept. Claude Code's
  own advisor is a server tool (``server_tool_use`` named ``advisor`` and its
  ``advisor_tool_result`` in the assistant's entries): a call and result of its own, whose advice
  is usually stored encrypted (then the result has no output).
- Sub-agents: entries with ``isSidechain`` belong to their ``agentId`` (``sidechain`` when it is
  missing); ``agent_progress`` entries that mirror a sub-agent's messages into the main file
  are read the same way. Each sub-agent is announced by ``AgentSpawned(parent_id="root",
  role="local-subagent")`` before its first event. A sub-agent's own file
  (``<session>/subagents/agent-<id>.jsonl``, or ``agent-<id>.jsonl`` beside the session in older
  versions), whose first message is already a sidechain's, is that agent's session: its agent is
  never announced, so it is the file's root agent and its checks are its own obligations.

**Exit codes of Bash results.** Claude Code records none: ``toolUseResult`` for Bash holds
``stdout``, ``stderr`` and ``interrupted`` only, and a command that exits non-zero is routed to
the error path (the ``PostToolUseFailure`` hook), where the result is ``is_error: true`` with
text that starts ``Exit code N`` (``Error: Exit code N`` in ``toolUseResult``); reference notes
anchors-style §2.1, anthropics/claude-code #12115 and #22105. So:

- ``is_error`` with text starting ``Exit code N`` gives exit code N;
- ``is_error`` without it is a refusal or tool failure, not an exit: permission prompts and
  sandbox blocks ("requested permissions", "requires approval", "was blocked" — all five
  errored Bash calls in the fixture ``claude/convo.jsonl`` are these) get ``error_code
  "permission_denied"``, interruptions ``"interrupted"``, time-outs ``"timeout"``, and a call
  cancelled before it ran because another call of the same turn errored (``<tool_use_error>Sibling
  tool call errored``: the turn's calls run in parallel) ``"cancelled"``; no exit code;
- a result *without* ``is_error`` is read as **exit 0**, because the Bash tool turns every
  non-zero exit into an error — except the exit 1 it deliberately tolerates for ``grep``,
  ``rg``, ``find``, ``diff``, ``test`` and ``[`` (marked by ``returnCodeInterpretation``, read as
  exit 1; an interpretation not known here gives no exit code), a background run
  (``run_in_background`` / ``backgroundTaskId``: still running, no exit code) and an
  interrupted one (no exit code).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from .._consultations import is_advisor_tool
from .._events._assistant_message import AssistantMessage
from .._events._compaction import Compaction
from .._events._host_message import HostMessage
from .._events._tool_completed import ToolCompleted
from .._events._tool_dispatched import ToolDispatched
from .._events._union import Event
from .._events._user_message import UserMessage
from .._vocabulary import ErrorCode
from ._common import ROOT, Bounded, Stamp, count_parts, error_code, exit_status, kind_of, string, text_of
from ._report import TranscriptReport
from ._resume import record

KNOWN_TYPES = frozenset({
    "user", "assistant", "system", "summary", "progress", "attachment", "file-history-snapshot", "queue-operation",
    "last-prompt", "ai-title", "custom-title", "agent-name", "mode", "permission-mode", "pr-link", "relocated",
    "worktree-state", "compact_boundary", "tag",
})
CLAUDE_CODE_SHELL_TOOLS = frozenset({"bash", "powershell"})
"""Claude Code's shell tools (lower case): their results carry the exit code in the error text."""
# The exit-1 meanings Claude Code's Bash tool reports as success (its commandSemantics table).
_EXIT_ONE = frozenset({"No matches found", "Some directories were inaccessible", "Files differ", "Condition is false"})
_EXIT = re.compile(r"^\s*(?:Error: )?Exit code (-?\d+)\b")
_WRAPPED = re.compile(r"^<(command-name|command-message|command-args|local-command-stdout|local-command-stderr"
                      r"|local-command-caveat|bash-stdout|bash-stderr|task-notification|system-reminder"
                      r"|user-prompt-submit-hook)>")
_BASH_INPUT = re.compile(r"^<bash-input>(.*)</bash-input>\s*$", re.S)
_BASH_OUTPUT = re.compile(r"<(bash-stdout|bash-stderr)>(.*?)</\1>", re.S)
_INTERRUPTION = "[Request interrupted by user"
_SESSION_COMMANDS = re.compile(
    r"^/(?:compact|context|cost|status|model|config|help|memory|permissions|doctor|resume|rewind|export|hooks"
    r"|agents|mcp|ide|statusline|usage|todos|bashes|release-notes|output-style|privacy-settings|vim|clear|exit"
    r"|login|logout|add-dir|upgrade|terminal-setup|theme|plugin)(?:\s.*)?$", re.S)
"""Claude Code's own commands typed as a prompt (``/compact``), or entered as slash commands: they manage
the session, they are no new task (a false task boundary would drop open obligations)."""
_COMMAND = re.compile(r"<command-name>\s*(/[^<\s]+)\s*</command-name>")
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_HOOK_FEEDBACK = re.compile(r"^(?:Subagent)?Stop hook feedback:\n")


def _slash_command(text: str) -> str | None:
    """The user's words in a slash-command entry (``<command-name>/x</command-name>`` and its
    ``<command-args>``): the command and its arguments, as typed (``None``: not a command, or one that
    manages the session)."""
    name = _COMMAND.search(text)
    if name is None:
        return None
    arguments = _COMMAND_ARGS.search(text)
    typed = f"{name.group(1)} {arguments.group(1).strip() if arguments else ''}".strip()
    return None if _SESSION_COMMANDS.match(typed) else typed


@record
class _Call(NamedTuple):
    tool: str
    background: bool


@record
@dataclass(frozen=True, slots=True)
class _Boundary:
    origin: str
    time: datetime | None
    agent: str


class ClaudeReader:
    """Claude Code entries to events (see the module docstring for the mapping)."""

    def __init__(self, path: Path, report: TranscriptReport) -> None:
        self.stamp = Stamp(path.name)
        self.report = report
        self.pending: Bounded[str, _Call] = Bounded()
        self.dispatched: Bounded[str, bool] = Bounded()
        self.completed: Bounded[str, bool] = Bounded()
        self.turns: Bounded[tuple[str, str], bool] = Bounded()
        self.user_shell: dict[str, str] = {}
        self.boundary: _Boundary | None = None
        self.thinking: Bounded[tuple[str, str], str] = Bounded(1000)
        self.first_message = True

    def entry(self, line: int, entry: dict[str, Any]) -> list[Event]:
        kind = entry.get("type")
        # Stamp.at, inlined: every line of the file passes here.
        stamp = self.stamp
        stamp.line, stamp.timestamp, stamp.entry_id = line, entry.get("timestamp"), entry.get("uuid")
        report = self.report
        if report.session_id is None:
            report.session_id = string(entry.get("sessionId"))
        if report.cwd is None:
            report.cwd = string(entry.get("cwd"))
        if kind == "assistant" or kind == "user":  # (only a string equals one)
            if self.first_message:
                self.first_message = False
                if entry.get("isSidechain") is True:
                    stamp.announced.add(_agent(entry))  # a sub-agent's own file: its session's root
            if entry.get("isSidechain") is True:
                return self._message(entry)
            # The root agent's entry, _message inlined: nearly every line is one. Root is never
            # announced, so only a compaction can be due before its events.
            events = self._assistant(entry, ROOT) if kind == "assistant" else self._user(entry, ROOT)
            return self._flush() + events if events and self.boundary is not None else events
        kind = kind_of(kind)
        if kind == "progress":
            return self._progress(entry)
        if kind == "system" and entry.get("subtype") == "compact_boundary":
            events = self._flush()
            self.boundary = _Boundary(self.stamp.origin, self.stamp.time, _agent(entry))
            return events
        if kind not in KNOWN_TYPES:
            report.unknown(kind if kind is not None else "(untyped)")
        return []

    def gap(self, line: int) -> None:
        return None

    def finish(self) -> list[Event]:
        self.report.unfinished_calls = len(self.pending) + len(self.user_shell)
        self.report.unanswered(list(self.pending))
        return self._flush()

    # -- entries ------------------------------------------------------------------------------

    def _progress(self, entry: dict[str, Any]) -> list[Event]:
        data = entry.get("data")
        if not isinstance(data, dict) or data.get("type") != "agent_progress":
            return []
        inner = data.get("message")
        if not isinstance(inner, dict) or inner.get("type") not in ("user", "assistant"):
            return []
        # A sub-agent's message mirrored into the main file: read as that sub-agent's entry.
        mirrored = {**inner, "isSidechain": True, "agentId": data.get("agentId") or inner.get("agentId"),
                    "cwd": inner.get("cwd") or entry.get("cwd")}
        if inner.get("timestamp") is not None:
            self.stamp.timestamp = inner.get("timestamp")
        self.stamp.entry_id = string(inner.get("uuid")) or self.stamp.entry_id
        return self._message(mirrored)

    def _message(self, entry: dict[str, Any]) -> list[Event]:
        """A user or assistant entry's events, after any compaction still due and the agent's announcement."""
        agent = _agent(entry) if entry.get("isSidechain") is True else ROOT
        events = self._user(entry, agent) if entry.get("type") == "user" else self._assistant(entry, agent)
        if not events or (self.boundary is None and (agent == ROOT or agent in self.stamp.announced)):
            return events  # the common case: nothing due before them
        return self._flush() + self.stamp.announce(agent) + events

    def _user(self, entry: dict[str, Any], agent: str) -> list[Event]:
        message = entry.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if entry.get("isCompactSummary"):
            boundary, self.boundary = self.boundary, None
            where = {"origin": boundary.origin, "time": boundary.time} if boundary else {}
            return [Compaction(summary=text_of(content), **{**self.stamp.base(agent), **where})]
        blocks = content if isinstance(content, list) else []
        if len(blocks) == 1 and isinstance(first := blocks[0], dict) and first.get("type") == "tool_result":
            # One result, as Claude Code writes them: read without building the list below.
            event = self._result(first, entry.get("toolUseResult"), agent)
            return [event] if event is not None else []
        results = [block for block in blocks if isinstance(block, dict) and block.get("type") == "tool_result"]
        if results:
            detail = entry.get("toolUseResult") if len(results) == 1 else None
            return [event for block in results if (event := self._result(block, detail, agent)) is not None]
        base = self.stamp.base(agent)
        feedback = _hook_feedback(entry, content)
        if feedback is not None:
            return [HostMessage(kind="hook-feedback", text=feedback, hidden=entry.get("isMeta") is True, **base)]
        if entry.get("isMeta") or entry.get("isVisibleInTranscriptOnly"):
            return []
        text = text_of(content).strip()
        images = count_parts(content, ("image",))
        if (not text and not images) or text.startswith(_INTERRUPTION):
            return []
        shell = _BASH_INPUT.match(text)
        if shell:
            return self._user_shell(shell.group(1), entry, agent)
        if text.startswith(("<bash-stdout>", "<bash-stderr>")):
            return self._user_shell_output(text, agent)
        if _WRAPPED.match(text):
            command = _slash_command(text)
            return [UserMessage(text=command, images=images, **base)] if command is not None else []
        if _SESSION_COMMANDS.match(text):
            return []
        return [UserMessage(text=text, images=images, **base)]

    def _assistant(self, entry: dict[str, Any], agent: str) -> list[Event]:
        message = entry.get("message")
        if not isinstance(message, dict):
            return []
        content = message.get("content")
        blocks: list[Any] = content if isinstance(content, list) else []
        if blocks:
            # Claude Code writes one line per content block: one block is read without the loop.
            calls, text, reasoning, server = _block(blocks[0]) if len(blocks) == 1 else _blocks(blocks)
        else:
            calls, text, reasoning, server = [], text_of(content), "", False
        if not (text or calls or reasoning or server):
            return []  # nothing to read (a response's thinking kept encrypted, an empty message)
        events: list[Event] = []
        ident = string(message.get("id"))
        new_turn = ident is None or (agent, ident) not in self.turns
        if message.get("model") != "<synthetic>" and (text or calls) and new_turn:
            if ident is not None:
                self.turns[(agent, ident)] = True
                earlier = self.thinking.pop((agent, ident), "") if self.thinking else ""
                reasoning = f"{earlier}\n{reasoning}" if earlier and reasoning else earlier or reasoning
            events.append(self.stamp.event(AssistantMessage, agent, {"text": text, "reasoning": reasoning}))
        elif reasoning and ident is not None and new_turn:
            # Claude Code writes a response's thinking as an entry of its own, before its text and calls.
            self.thinking[(agent, ident)] = reasoning
        for index, block in enumerate(calls):
            call_id = string(block.get("id")) or f"{self.stamp.origin}#{index}"
            if call_id in self.dispatched:
                continue  # the same call mirrored twice (a progress entry and the sidechain)
            self.dispatched[call_id] = True
            name = string(block.get("name")) or "unknown"
            arguments = block.get("input")
            arguments = arguments if isinstance(arguments, dict) else {}
            self.pending[call_id] = _Call(name, arguments.get("run_in_background") is True)
            events.append(self.stamp.event(ToolDispatched, agent, {"call_id": call_id, "tool": name,
                                                                   "arguments": arguments,
                                                                   "cwd": string(entry.get("cwd"))}))
        return events + self._server_advisor(blocks, agent) if server else events

    def _server_advisor(self, blocks: list[Any], agent: str) -> list[Event]:
        """Claude Code's own advisor, a server tool: its call and its result are in the assistant's entries."""
        events: list[Event] = []
        for block in blocks:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "server_tool_use" and is_advisor_tool(string(block.get("name")) or ""):
                call_id = string(block.get("id")) or f"{self.stamp.origin}#advisor"
                if call_id not in self.dispatched:
                    self.dispatched[call_id] = True
                    arguments = block.get("input")
                    events.append(ToolDispatched(call_id=call_id, tool=string(block.get("name")) or "advisor",
                                                 arguments=arguments if isinstance(arguments, dict) else {},
                                                 **self.stamp.base(agent)))
            elif kind == "advisor_tool_result":
                call_id = string(block.get("tool_use_id")) or f"{self.stamp.origin}#advisor"
                if call_id not in self.completed:
                    self.completed[call_id] = True
                    advice = _advice(block.get("content"))
                    events.append(ToolCompleted(call_id=call_id, output=advice,
                                                error_message=None if advice else "the host keeps the advice encrypted",
                                                **self.stamp.base(agent)))
        return events

    def _result(self, block: dict[str, Any], detail: Any, agent: str) -> ToolCompleted | None:
        call_id = string(block.get("tool_use_id")) or f"{self.stamp.origin}#result"
        if call_id in self.completed:
            return None
        self.completed[call_id] = True
        call = self.pending.pop(call_id, None)
        content = block.get("content")
        text = content if isinstance(content, str) else text_of(content)
        is_error = block.get("is_error") is True
        detail = detail if isinstance(detail, dict) else {}
        if call is not None:
            shell = call.tool.lower() in CLAUDE_CODE_SHELL_TOOLS
        else:
            shell = detail.keys() >= {"stdout", "interrupted"}
        exit_code: int | None = None
        if shell:
            exit_code, code = _bash_exit(text, is_error, detail, call)
            if exit_code is None:
                self.report.no_exit_code += 1
            else:
                self.report.exit_codes += 1
        else:
            code = error_code(text) if is_error else None
        return self.stamp.event(ToolCompleted, agent, {
            "call_id": call_id, "exit_code": exit_code, "is_error": is_error, "error_code": code,
            "error_message": text if is_error else None, "output": text,
            "images": count_parts(content, ("image",)) if isinstance(content, list) else 0})

    def _user_shell(self, command: str, entry: dict[str, Any], agent: str) -> list[Event]:
        call_id = f"user-shell:{string(entry.get('uuid')) or self.stamp.origin}"
        self.user_shell[agent] = call_id
        return [ToolDispatched(call_id=call_id, tool="Bash", arguments={"command": command}, user_shell=True,
                               cwd=string(entry.get("cwd")), **self.stamp.base(agent))]

    def _user_shell_output(self, text: str, agent: str) -> list[Event]:
        call_id = self.user_shell.pop(agent, None)
        if call_id is None:
            return []
        output = "\n".join(part for _, part in _BASH_OUTPUT.findall(text) if part)
        self.report.no_exit_code += 1  # the `!` shell's output carries no exit status
        return [ToolCompleted(call_id=call_id, output=output, **self.stamp.base(agent))]

    def _flush(self) -> list[Event]:
        """A compaction boundary whose summary never came is still a compaction."""
        boundary, self.boundary = self.boundary, None
        if boundary is None:
            return []
        return [Compaction(agent_id=boundary.agent, origin=boundary.origin, time=boundary.time)]


def _agent(entry: dict[str, Any]) -> str:
    if entry.get("isSidechain") is True:
        return string(entry.get("agentId")) or "sidechain"
    return ROOT


def _block(block: Any) -> tuple[list[dict[str, Any]], str, str, bool]:
    """What ``_blocks`` finds in a message of one block, without its loop and joins."""
    if not isinstance(block, dict):
        return [], "", "", False
    kind = block.get("type")
    if kind == "tool_use":
        return [block], "", "", False
    if kind == "text":
        part = block.get("text")
        return [], part if isinstance(part, str) else "", "", False
    if kind == "thinking":
        part = block.get("thinking")
        return [], "", part if isinstance(part, str) else "", False
    return [], "", "", kind == "server_tool_use" or kind == "advisor_tool_result"


def _blocks(blocks: list[Any]) -> tuple[list[dict[str, Any]], str, str, bool]:
    """An assistant entry's tool calls, text, thinking, and whether it holds server-tool blocks — in one pass."""
    calls: list[dict[str, Any]] = []
    texts: list[str] = []
    thinking: list[str] = []
    server = False
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "tool_use":
            calls.append(block)
        elif kind == "text":
            part = block.get("text")
            if isinstance(part, str):
                texts.append(part)
        elif kind == "thinking":
            part = block.get("thinking")
            if isinstance(part, str) and part:
                thinking.append(part)
        elif kind == "server_tool_use" or kind == "advisor_tool_result":
            server = True
    # A join of one part is that part: most entries hold one block.
    return calls, "\n".join(texts), "\n".join(thinking), server


def _advice(content: Any) -> str | None:
    """The text of a server-side advisor's result; ``None`` when the host stores it encrypted."""
    if isinstance(content, dict):
        text = content.get("text")
        return text if isinstance(text, str) and text.strip() else None
    return text_of(content) or None


def _hook_feedback(entry: dict[str, Any], content: Any) -> str | None:
    """The reason of a hook's block recorded as a user entry, or ``None`` when the entry is not one."""
    text = text_of(content)
    found = _HOOK_FEEDBACK.match(text)
    if found is not None:
        return text[found.end():].strip()
    if entry.get("rowSource") == "hook" or entry.get("hookText") is True:
        return text.strip()
    return None


def _bash_exit(text: str, is_error: bool, detail: dict[str, Any],
               call: _Call | None) -> tuple[int | None, ErrorCode | None]:
    """The exit code and error code of a Bash result (see the module docstring for the evidence)."""
    interrupted = detail.get("interrupted") is True
    if is_error:
        found = _EXIT.match(text)
        if found is None:
            return None, error_code(text)
        # The interruption notice, when there is one, is the line right after "Exit code N" (found
        # without splitting the output: it can be megabytes).
        first = text.find("\n")
        end = text.find("\n", first + 1) if first >= 0 else -1
        second = text[first + 1:end if end >= 0 else len(text)] if first >= 0 else None
        if interrupted or (second is not None and second.strip().startswith(_INTERRUPTION)):
            return exit_status(found.group(1)), "interrupted"
        return exit_status(found.group(1)), None
    if interrupted:
        return None, "interrupted"
    if detail.get("backgroundTaskId") or (call is not None and call.background):
        return None, None
    meaning = detail.get("returnCodeInterpretation")
    if isinstance(meaning, str) and meaning:
        return (1 if meaning in _EXIT_ONE else None), None
    return 0, None
