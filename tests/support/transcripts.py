"""Agent sessions written as Claude Code, Codex and Pi transcripts, for reader and ledger tests.

A session is a list of actions — the user speaks, the agent writes a step (prose and reasoning)
and calls tools in it, consults an advisor, the host compacts, the user runs a command — and
each host's writer turns it into the JSON lines that host writes, the way the real transcripts
in ``tests/fixtures`` have them: Claude Code one entry per content block with ``uuid`` links and
``Exit code N`` error results; Codex ``session_meta``, reasoning items, ``exec_command`` with
``Process exited with code N`` headers, ``apply_patch`` custom calls, doubled messages; Pi a
``session`` header and an ``id``/``parentId`` chain of messages. ``sessions()`` generates them
with Hypothesis.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from hypothesis import strategies as st

Host = Literal["claude-code", "codex", "pi"]
HOSTS: tuple[Host, ...] = ("claude-code", "codex", "pi")
TIME = "2026-11-20T10:00:00.000Z"


@dataclass(frozen=True)
class User:
    text: str
    images: int = 0


@dataclass(frozen=True)
class Call:
    """A tool call in the current step: ``kind`` is a shell command, a read or an edit."""

    kind: Literal["shell", "read", "edit"]
    argument: str
    """The command, or the path."""
    output: str
    exit_code: int = 0


@dataclass(frozen=True)
class Step:
    """The agent writes (``text``, thinking ``reasoning``) and calls tools."""

    text: str
    reasoning: str = ""
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class Ask:
    """The agent asks the advisor; ``answer`` is ``None`` for a consultation that failed. ``calls`` are
    made in the same step, and their results arrive after the advice."""

    question: str
    answer: str | None
    calls: tuple[Call, ...] = ()


@dataclass(frozen=True)
class Compact:
    summary: str


@dataclass(frozen=True)
class UserShell:
    """The user's own command (``!``)."""

    command: str
    output: str
    exit_code: int = 0


Action = User | Step | Ask | Compact | UserShell


@dataclass
class _Ids:
    """Ids in order, so the same session always gets the same ids."""

    count: int = 0
    last: str | None = None
    names: dict[str, int] = field(default_factory=dict)

    def next(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count:07x}"


# -- Claude Code -----------------------------------------------------------------------------------


def _claude_entry(ids: _Ids, kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    uuid = ids.next("u") + "-0000-4000-8000-000000000000"
    entry = {"parentUuid": ids.last, "isSidechain": False, "type": kind, "message": message, "uuid": uuid,
             "timestamp": TIME, "sessionId": "s-claude", "cwd": "/work/app", "userType": "external", **extra}
    ids.last = uuid
    return entry


def _claude_tool(call: Call) -> tuple[str, dict[str, Any]]:
    if call.kind == "shell":
        return "Bash", {"command": call.argument, "description": "run it"}
    if call.kind == "read":
        return "Read", {"file_path": call.argument}
    return "Edit", {"file_path": call.argument, "old_string": "a = 1", "new_string": "a = 2\nb = 3"}


def _claude_step(ids: _Ids, step: Step, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    message_id = ids.next("msg_")
    blocks: list[dict[str, Any]] = []
    if step.reasoning:
        blocks.append({"type": "thinking", "thinking": step.reasoning, "signature": "c2ln"})
    if step.text:
        blocks.append({"type": "text", "text": step.text})
    blocks += [{"type": "tool_use", "id": cid, "name": name, "input": args} for cid, (name, args) in
               zip([f"toolu_{ids.next('')}" for _ in calls], calls, strict=True)]
    return [_claude_entry(ids, "assistant", {"model": "claude-test", "id": message_id, "type": "message",
                                             "role": "assistant", "content": [block]}) for block in blocks]


def _claude_result(ids: _Ids, tool_use_id: str, output: str, error: bool, shell: bool) -> dict[str, Any]:
    detail = {"stdout": output, "stderr": "", "interrupted": False} if shell else {"type": "text"}
    return _claude_entry(ids, "user", {"role": "user", "content": [
        {"tool_use_id": tool_use_id, "type": "tool_result", "content": output, "is_error": error}]},
        toolUseResult=detail)


def claude(actions: list[Action]) -> list[dict[str, Any]]:
    """The session as a Claude Code transcript."""
    ids = _Ids()
    lines: list[dict[str, Any]] = []
    for action in actions:
        if isinstance(action, User):
            content: Any = action.text
            if action.images:
                content = [{"type": "text", "text": action.text}] + [
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}}
                ] * action.images
            lines.append(_claude_entry(ids, "user", {"role": "user", "content": content}))
        elif isinstance(action, Step | Ask):
            step = action if isinstance(action, Step) else Step(action.question, calls=action.calls)
            calls = [_claude_tool(call) for call in step.calls]
            if isinstance(action, Ask):
                calls.append(("mcp__witness__advisor", {}))
            entries = _claude_step(ids, step, calls)
            lines += entries
            uses = [block for entry in entries for block in entry["message"]["content"] if block["type"] == "tool_use"]
            if isinstance(action, Ask):
                answer = action.answer if action.answer is not None else "advisor unavailable"
                lines.append(_claude_result(ids, uses[-1]["id"], answer, action.answer is None, False))
                uses = uses[:-1]
            for use, call in zip(uses, step.calls, strict=True):
                failed = call.kind == "shell" and call.exit_code != 0
                text = f"Exit code {call.exit_code}\n{call.output}" if failed else call.output
                lines.append(_claude_result(ids, use["id"], text, failed, call.kind == "shell"))
        elif isinstance(action, Compact):
            lines.append({"type": "system", "subtype": "compact_boundary", "uuid": ids.next("c"), "timestamp": TIME,
                          "sessionId": "s-claude", "compactMetadata": {"trigger": "auto", "preTokens": 1000}})
            lines.append(_claude_entry(ids, "user", {"role": "user", "content": action.summary},
                                       isCompactSummary=True))
        else:
            lines.append(_claude_entry(ids, "user", {"role": "user",
                                                     "content": f"<bash-input>{action.command}</bash-input>"}))
            lines.append(_claude_entry(ids, "user", {"role": "user", "content":
                                                     f"<bash-stdout>{action.output}</bash-stdout><bash-stderr></bash-stderr>"}))
    return lines


# -- Codex -----------------------------------------------------------------------------------------


def _codex(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": TIME, "type": kind, "payload": payload}


def _codex_call(ids: _Ids, call: Call) -> list[dict[str, Any]]:
    cid = ids.next("call_")
    if call.kind == "edit":
        patch = f"*** Begin Patch\n*** Update File: {call.argument}\n@@\n-a = 1\n+a = 2\n+b = 3\n*** End Patch"
        return [_codex("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": cid,
                                         "name": "apply_patch", "input": patch}),
                _codex("response_item", {"type": "custom_tool_call_output", "call_id": cid,
                                         "output": f"Exit code: 0\nOutput:\n{call.output}"})]
    command = call.argument if call.kind == "shell" else f"cat {call.argument}"
    return [_codex("response_item", {"type": "function_call", "name": "exec_command", "call_id": cid,
                                     "arguments": json.dumps({"cmd": command, "workdir": "/work/app"})}),
            _codex("response_item", {"type": "function_call_output", "call_id": cid, "output":
                                     f"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code "
                                     f"{call.exit_code}\nOriginal token count: 9\nOutput:\n{call.output}"})]


def _codex_said(role: str, text: str, images: int = 0) -> list[dict[str, Any]]:
    part = "input_text" if role == "user" else "output_text"
    event = "user_message" if role == "user" else "agent_message"
    pictures = [{"type": "input_image", "image_url": "data:image/png;base64,iVBOR"}] * images
    extra = {"images": ["data:image/png;base64,iVBOR"] * images} if images else {}
    return [_codex("response_item", {"type": "message", "role": role,
                                     "content": [{"type": part, "text": text}, *pictures]}),
            _codex("event_msg", {"type": event, "message": text, **extra})]


def codex(actions: list[Action]) -> list[dict[str, Any]]:
    """The session as a Codex rollout."""
    ids = _Ids()
    lines = [_codex("session_meta", {"id": "s-codex", "timestamp": TIME, "cwd": "/work/app",
                                     "originator": "codex_cli_rs", "cli_version": "0.147.0", "source": "cli"}),
             _codex("turn_context", {"turn_id": "t1", "cwd": "/work/app", "approval_policy": "never"})]
    for action in actions:
        if isinstance(action, User):
            lines += _codex_said("user", action.text, action.images)
        elif isinstance(action, Step):
            if action.reasoning:
                lines.append(_codex("response_item", {"type": "reasoning", "summary": [
                    {"type": "summary_text", "text": action.reasoning}], "encrypted_content": "REDACTED"}))
            if action.text:
                lines += _codex_said("assistant", action.text)
            for call in action.calls:
                lines += _codex_call(ids, call)
        elif isinstance(action, Ask):
            lines += _codex_said("assistant", action.question)
            parallel = [_codex_call(ids, call) for call in action.calls]
            lines += [pair[0] for pair in parallel]
            cid = ids.next("call_")
            lines.append(_codex("response_item", {"type": "function_call", "name": "witness_advisor",
                                                  "call_id": cid, "arguments": "{}"}))
            lines.append(_codex("response_item", {"type": "function_call_output", "call_id": cid,
                                                  "output": action.answer or ""}))
            lines += [pair[1] for pair in parallel]
        elif isinstance(action, Compact):
            lines.append(_codex("compacted", {"message": action.summary, "replacement_history": []}))
        else:
            lines.append(_codex("event_msg", {"type": "exec_command_end", "call_id": ids.next("user_"),
                                              "command": action.command, "exit_code": action.exit_code,
                                              "aggregated_output": action.output, "source": "user_shell"}))
    return lines


# -- Pi --------------------------------------------------------------------------------------------


def _pi_entry(ids: _Ids, message: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    ident = ids.next("")[-8:]
    entry = {"type": "message", "id": ident, "parentId": ids.last, "timestamp": TIME, **fields}
    if message is not None:
        entry["message"] = {**message, "timestamp": 1}
    ids.last = ident
    return entry


def _pi_tool(call: Call) -> tuple[str, dict[str, Any]]:
    if call.kind == "shell":
        return "bash", {"command": call.argument}
    if call.kind == "read":
        return "read", {"path": call.argument}
    return "edit", {"path": call.argument, "oldText": "a = 1", "newText": "a = 2\nb = 3"}


def _pi_step(ids: _Ids, text: str, reasoning: str, calls: list[tuple[str, dict[str, Any]]]) -> tuple[dict[str, Any],
                                                                                                    list[str]]:
    content: list[dict[str, Any]] = [{"type": "thinking", "thinking": reasoning}] if reasoning else []
    content += [{"type": "text", "text": text}] if text else []
    call_ids = [f"call_{ids.next('')}" for _ in calls]
    content += [{"type": "toolCall", "id": cid, "name": name, "arguments": args}
                for cid, (name, args) in zip(call_ids, calls, strict=True)]
    return _pi_entry(ids, {"role": "assistant", "content": content, "api": "openai-completions", "provider": "test",
                           "model": "test", "stopReason": "toolUse" if calls else "stop"}), call_ids


def _pi_result(ids: _Ids, call_id: str, name: str, text: str, error: bool, **extra: Any) -> dict[str, Any]:
    return _pi_entry(ids, {"role": "toolResult", "toolCallId": call_id, "toolName": name,
                           "content": [{"type": "text", "text": text}], "isError": error, **extra})


def pi(actions: list[Action]) -> list[dict[str, Any]]:
    """The session as a Pi session file (one branch)."""
    ids = _Ids()
    lines: list[dict[str, Any]] = [{"type": "session", "version": 3, "id": "s-pi", "timestamp": TIME,
                                    "cwd": "/work/app"}]
    for action in actions:
        if isinstance(action, User):
            content = [{"type": "text", "text": action.text}] + [{"type": "image", "data": "iVBOR",
                                                                  "mimeType": "image/png"}] * action.images
            lines.append(_pi_entry(ids, {"role": "user", "content": content}))
        elif isinstance(action, Step):
            entry, call_ids = _pi_step(ids, action.text, action.reasoning, [_pi_tool(c) for c in action.calls])
            lines.append(entry)
            for cid, call in zip(call_ids, action.calls, strict=True):
                failed = call.kind == "shell" and call.exit_code != 0
                text = f"{call.output}\n\nCommand exited with code {call.exit_code}" if failed else call.output
                lines.append(_pi_result(ids, cid, _pi_tool(call)[0], text, failed))
        elif isinstance(action, Ask):
            entry, call_ids = _pi_step(ids, action.question, "", [*(_pi_tool(c) for c in action.calls),
                                                                  ("advisor", {})])
            lines.append(entry)
            details = {"errorMessage": "unreachable"} if action.answer is None else {"severity": "none"}
            lines.append(_pi_result(ids, call_ids[-1], "advisor", action.answer or "Advisor call failed", False,
                                    details=details))
            for cid, call in zip(call_ids, action.calls, strict=False):
                lines.append(_pi_result(ids, cid, _pi_tool(call)[0], call.output, False))
        elif isinstance(action, Compact):
            first = lines[1]["id"] if len(lines) > 1 else None
            lines.append(_pi_entry(ids, None, type="compaction", summary=action.summary, firstKeptEntryId=first,
                                   tokensBefore=1000))
        else:
            lines.append(_pi_entry(ids, {"role": "bashExecution", "command": action.command,
                                         "output": action.output, "exitCode": action.exit_code,
                                         "cancelled": False, "truncated": False}))
    return lines


WRITERS = {"claude-code": claude, "codex": codex, "pi": pi}


def write(path: Path, host: Host, actions: list[Action]) -> Path:
    """Write the session as ``host``'s transcript at ``path``."""
    path.write_text("".join(json.dumps(line) + "\n" for line in WRITERS[host](actions)), encoding="utf-8")
    return path


# -- generated sessions ----------------------------------------------------------------------------

_WORDS = st.sampled_from(["fix", "the", "retry", "loop", "tests", "pass", "now", "why", "café", "é", "$HOME", "`x`",
                          "sk-proj-Q2x8fP0aL9mT4rZ7vB1nK6cH3yW5dJ0s", "\n", "  "])
_TEXT = st.lists(_WORDS, min_size=1, max_size=8).map(" ".join)
_COMMANDS = st.sampled_from(["pytest -q", "pytest -q | tail -3", "npm test; echo done", "cargo test 2>&1 | tail -5",
                             "ls -la", "git status", "ruff check . || true", "make build"])
_OUTPUTS = st.sampled_from(["ok", "=== 1 failed, 2 passed in 0.12s ===", "3 passed in 0.1s", "", "line\n" * 5,
                            "x" * 300, "error: could not compile `app`"])
_CALLS = st.builds(Call, kind=st.just("shell"), argument=_COMMANDS, output=_OUTPUTS,
                   exit_code=st.sampled_from([0, 0, 1, 2])) | \
    st.builds(Call, kind=st.sampled_from(["read", "edit"]), argument=st.sampled_from(["src/a.py", "README.md"]),
              output=_OUTPUTS)
ACTIONS = st.one_of(
    st.builds(User, text=_TEXT),
    st.builds(Step, text=_TEXT | st.just(""), reasoning=_TEXT | st.just(""),
              calls=st.lists(_CALLS, max_size=3).map(tuple)),
    st.builds(Ask, question=_TEXT, answer=st.sampled_from(["Severity: none\nOn track.", "Severity: concern\nRe-run.",
                                                           None]), calls=st.lists(_CALLS, max_size=2).map(tuple)),
    st.builds(Compact, summary=_TEXT),
    st.builds(UserShell, command=_COMMANDS, output=_OUTPUTS, exit_code=st.sampled_from([0, 1])),
)


def sessions(max_size: int = 14) -> st.SearchStrategy[list[Action]]:
    """Sessions that start with the user's words."""
    return st.tuples(st.builds(User, text=_TEXT), st.lists(ACTIONS, max_size=max_size)).map(
        lambda parts: [parts[0], *parts[1]])
