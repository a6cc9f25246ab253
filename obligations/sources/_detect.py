"""Which host wrote a transcript, judged from the first lines' content, never the file name."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from .._vocabulary import TRANSCRIPT_FORMATS, TranscriptFormat
from ..errors import NotATranscript
from ._entry_types import COPILOT_NAMESPACES, DROID_TYPES, PI_TYPES, QWEN_ONLY_SUBTYPES
from ._lines import read_lines

FORMATS = TRANSCRIPT_FORMATS
"""The formats the readers know (``TranscriptFormat``)."""

_SNIFF_LINES = 20
_SNIFF_LINE_BYTES = 16 * 1024 * 1024
_HEAD_BYTES = 8192
_CODEX_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted",
                          "session_state"})
_CLAUDE_ONLY_TYPES = frozenset({"file-history-snapshot", "queue-operation", "summary", "progress", "attachment",
                                "last-prompt", "ai-title", "custom-title", "agent-name", "permission-mode", "pr-link",
                                "worktree-state"})
_CLAUDE_KEYS = ("parentUuid", "sessionId", "leafUuid")
_PI_ONLY_ROLES = frozenset({"toolResult", "bashExecution", "branchSummary", "compactionSummary", "hookMessage"})

_GEMINI_MESSAGES = frozenset({"user", "gemini", "info", "error", "warning"})
_GEMINI_DOCUMENT = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(?:sessionId|projectHash)"\s*:')

Judgement = TranscriptFormat | tuple[TranscriptFormat, ...] | None
"""What one entry says of its file: a format, the formats it could belong to, or nothing."""


def detect_format(path: str | os.PathLike[str]) -> TranscriptFormat | None:
    """The format of ``path`` judged from its first lines (``TranscriptFormat``); ``None`` otherwise."""
    try:
        return sniff(Path(path))
    except NotATranscript:
        return None


def sniff(path: Path) -> TranscriptFormat:
    """The format of ``path``, reading only its first lines; raises ``NotATranscript`` with the reason."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the name
        raise NotATranscript(path, f"it cannot be read ({getattr(error, 'strerror', None) or error})") from None
    if stat.S_ISDIR(mode):
        raise NotATranscript(path, "it is a directory")
    if not stat.S_ISREG(mode):
        # Read once to judge and again to replay, a pipe or a device would lose (or never end) its data.
        raise NotATranscript(path, f"it is {file_kind(mode)}, not a regular file (copy a stream to a file first)")
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError as error:
        raise NotATranscript(path, f"it cannot be read ({error.strerror or error})") from None
    if not head:
        raise NotATranscript(path, "the file is empty")
    if b"\x00" in head:
        raise NotATranscript(path, "it holds binary data, not text")
    if _GEMINI_DOCUMENT.match(head) and b'"projectHash"' in head:
        return "gemini"  # the first era of Gemini CLI's sessions: one JSON document, written whole
    if head.lstrip().split(b"\n", 1)[0].strip() in (b"{", b"["):
        raise NotATranscript(path, "it looks like one JSON document spread over lines, not JSON Lines")
    return _from_lines(path)


def _from_lines(path: Path) -> TranscriptFormat:
    seen = texts = objects = 0
    hint: str | None = None
    could: tuple[TranscriptFormat, ...] = ()
    try:
        for line in read_lines(path, _SNIFF_LINE_BYTES):
            if line.entry is None and line.problem is None:
                continue
            seen += 1
            if line.problem is None or not line.problem.startswith("not valid UTF-8"):
                texts += 1
            if line.entry is not None:
                objects += 1
                found = judge(line.entry)
                if isinstance(found, str):
                    return found
                could = could or found or ()
                hint = hint or _hint(line.entry)
            if seen >= _SNIFF_LINES:
                break
    except OSError as error:
        raise NotATranscript(path, f"it cannot be read ({error.strerror or error})") from None
    if not seen:
        raise NotATranscript(path, "the file holds only blank lines")
    if not texts:
        raise NotATranscript(path, "it is not UTF-8 text")
    if not objects:
        raise NotATranscript(path, "it is not JSON Lines (no line among the first is a JSON object)")
    if could:
        raise NotATranscript(path, f"its first entries could be {' or '.join(could)} entries, and none says which")
    raise NotATranscript(path, hint or "its lines are JSON objects, but of no transcript shape known here")


def format_of(entry: dict[str, Any]) -> TranscriptFormat | None:
    """The format one entry belongs to, when it says so unambiguously."""
    found = judge(entry)
    return found if isinstance(found, str) else None


def judge(entry: dict[str, Any]) -> Judgement:
    """The format ``entry`` belongs to; the formats it could belong to when its shape is shared (a
    Claude Code envelope, a Pi or Droid message); ``None`` when it is no host's."""
    kind = entry.get("type")
    if not isinstance(kind, str):
        kind = None  # only a string names a kind (and a list or an object cannot be looked up)
    if kind in _CODEX_TYPES and isinstance(entry.get("payload"), dict):
        return "codex"
    if _gemini(entry, kind):
        return "gemini"
    if kind == "session_start" and "id" in entry and ("title" in entry or "cwd" in entry or "owner" in entry):
        return "droid"  # (it may name a sessionId, as a Claude Code entry does)
    if any(key in entry for key in _CLAUDE_KEYS) or kind in _CLAUDE_ONLY_TYPES:
        return "qwen" if _qwen(entry, kind) else "claude-code"
    if kind in DROID_TYPES and kind != "message" and "id" in entry and ("timestamp" in entry or "summaryText" in entry):
        return "droid"
    if kind is not None and kind.split(".", 1)[0] in COPILOT_NAMESPACES and "." in kind \
            and isinstance(entry.get("data"), dict) and "id" in entry:
        return "copilot"
    if kind == "session" and ("version" in entry or "cwd" in entry):
        return "pi"
    if kind in PI_TYPES and "id" in entry and "parentId" in entry:
        return _pi_or_droid(entry)
    if kind == "message" and "id" in entry and _droid_message(entry.get("message")):
        return "droid"  # a Droid session's first message has no parentId
    return None


def _qwen(entry: dict[str, Any], kind: str | None) -> bool:
    """A Qwen Code record (its envelope is Claude Code's): Gemini-style ``parts`` in its message, a
    ``tool_result`` record, or a subtype only Qwen Code writes."""
    message = entry.get("message")
    if isinstance(message, dict) and isinstance(message.get("parts"), list):
        return True
    if kind == "tool_result" or "toolCallResult" in entry:
        return True
    return kind == "system" and entry.get("subtype") in QWEN_ONLY_SUBTYPES


def _droid_message(message: Any) -> bool:
    """A Factory Droid message: Claude-style content blocks (``tool_use``, ``tool_result``) under a
    ``user`` or ``assistant`` role, which a Pi message never has."""
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
        return False
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") in ("tool_use", "tool_result") for block in content)


def _pi_or_droid(entry: dict[str, Any]) -> Judgement:
    """A ``message`` with ``id`` and ``parentId``: Pi's, unless its content blocks are Droid's; one with
    neither kind of block could be either."""
    if entry.get("type") != "message":
        return "pi"
    message = entry.get("message")
    if _droid_message(message):
        return "droid"
    if isinstance(message, dict) and isinstance(message.get("role"), str) and message["role"] in _PI_ONLY_ROLES:
        return "pi"
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list) and any(isinstance(block, dict) and block.get("type") == "toolCall"
                                         for block in content):
        return "pi"
    return ("pi", "droid")


def _gemini(entry: dict[str, Any], kind: str | None) -> bool:
    """A Gemini CLI record: its metadata line, a ``$set`` or ``$rewindTo`` record, or a message (``id``,
    ``type`` and ``content``, with none of the Claude Code or Pi envelope's parent fields)."""
    if isinstance(entry.get("projectHash"), str) and "sessionId" in entry:
        return True
    if isinstance(entry.get("$set"), dict) or isinstance(entry.get("$rewindTo"), str):
        return True
    return kind in _GEMINI_MESSAGES and "id" in entry and "content" in entry \
        and not any(key in entry for key in ("parentId", "parentUuid", "uuid", "message"))


def file_kind(mode: int) -> str:
    """What a file of this mode is, in words (``a named pipe``, ``a character device`` …)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a regular file")):
        if test(mode):
            return name
    return "a special file"


def _hint(entry: dict[str, Any]) -> str | None:
    kind = entry.get("type")
    if isinstance(kind, str) and kind.split(".", 1)[0] in ("thread", "turn", "item"):
        return "it is a `codex exec --json` event stream; read the session's rollout file instead"
    return None
