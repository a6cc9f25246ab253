"""Which session called witness's MCP server, from what the host sends with each tool call.

Measured on the real hosts (``docs/hosts-findings.md``):

- **Claude Code** (2.1.332) starts one MCP server process per session, with
  ``CLAUDE_CODE_SESSION_ID`` and ``CLAUDE_PROJECT_DIR`` in its environment, and every
  ``tools/call`` carries ``_meta["claudecode/toolUseId"]``: the id of the ``tool_use`` block in the
  transcript of the agent that called (a sub-agent's own file under ``<session>/subagents/``).
  The host writes that block at about the moment it sends the call, sometimes just after it.
- **Codex** (0.171.0) passes an MCP server only ``HOME``, ``PATH``, ``LANG``, ``TERM`` and
  ``TMPDIR`` (plus what its configuration names), and every ``tools/call`` carries
  ``_meta.threadId`` (the session: its rollout file ends in ``-<thread id>.jsonl``) and
  ``_meta.callId`` (the ``function_call``'s ``call_id``, already in the rollout).

A transcript is taken as the caller's only when it holds the call's own id as the call's own
field: the ``"id"`` of a ``tool_use`` block of a Claude Code assistant message, the ``"call_id"``
of a Codex ``function_call``. The id is looked for as bytes first (an id that only appears quoted
in some output, JSON-escaped, never matches), then the line it is in is read as JSON to confirm
it (an object ``{"id": …}`` in some tool's input, or in another kind of line, does not count and
the search goes on) — waiting a little
for a host that writes it late — so a call is never answered from another session's file, not
even with two sessions in one directory, nor after Claude Code's ``/clear`` started a new session
in the same process. When nothing says which session called, :class:`~advisor.errors.SessionNotFound`
says why.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.errors import SessionNotFound

from ._vocabulary import Host

CALL_WAIT = 3.0
"""Seconds, at most, to wait for the calling transcript to record the call."""
POLL = 0.05
"""Seconds between looks."""
RECENT = 3600.0
"""Other transcripts of the project folder modified this recently (seconds) are searched too."""
MAX_CANDIDATES = 64
"""Transcripts searched for one call, at most."""
MODEL_TAIL = 1 << 20
"""How much of a transcript's end is read for the executor's model (its newest answers)."""
_ID = re.compile(r"[A-Za-z0-9_.:-]{1,200}")


@dataclass(frozen=True)
class CallingSession:
    """The session (and agent) whose tool call is being answered."""

    host: Host
    """``claude-code`` or ``codex``."""
    transcript: Path
    """The transcript of the agent that called (a Claude Code sub-agent's own file, for its calls)."""
    session_id: str | None
    """The host's session id."""
    call_id: str
    """The call's id in that transcript."""
    cwd: str | None
    """The session's project directory, as the host says it."""
    executor_model: str | None = None
    """The model the calling agent runs, when the host says (Codex does)."""


def calling_session(meta: Mapping[str, Any] | None, *, env: Mapping[str, str] | None = None, cwd: str | None = None,
                    wait: float = CALL_WAIT) -> CallingSession:
    """The session whose call carries ``meta`` (the request's ``_meta``), for a server started with
    ``env`` in ``cwd`` (defaults: this process's). Raises :class:`~advisor.errors.SessionNotFound`."""
    meta = meta or {}
    env = os.environ if env is None else env
    cwd = os.getcwd() if cwd is None else cwd
    claude_call = _identifier(meta.get("claudecode/toolUseId"))
    if claude_call is not None:
        return _claude(claude_call, env, cwd, wait)
    thread = _identifier(meta.get("threadId") or meta.get("sessionId") or _turn(meta).get("thread_id"))
    codex_call = _identifier(meta.get("callId"))
    if thread is not None and codex_call is not None:
        return _codex(thread, codex_call, env, meta, wait)
    raise SessionNotFound("the call carries no session or call id witness knows (Claude Code sends "
                          "`claudecode/toolUseId`, Codex `threadId` and `callId`), so it cannot tell which "
                          "session is asking")


def _identifier(value: Any) -> str | None:
    return value if isinstance(value, str) and _ID.fullmatch(value) else None


def _turn(meta: Mapping[str, Any]) -> Mapping[str, Any]:
    turn = meta.get("x-codex-turn-metadata")
    return turn if isinstance(turn, Mapping) else {}


def project_folder(directory: str) -> str:
    """Claude Code's folder name for a project: the path with every character but letters and digits as ``-``."""
    return re.sub(r"[^A-Za-z0-9]", "-", directory)


def _claude(call: str, env: Mapping[str, str], cwd: str, wait: float) -> CallingSession:
    config = Path(env.get("CLAUDE_CONFIG_DIR") or Path(env.get("HOME") or Path.home()) / ".claude")
    project = env.get("CLAUDE_PROJECT_DIR") or cwd
    folder = config / "projects" / project_folder(project)
    session = _identifier(env.get("CLAUDE_CODE_SESSION_ID"))

    def candidates() -> list[Path]:
        # The session the server was started for first, then its sub-agents, then the folder's other
        # recent sessions (a `/clear` starts a new one in the same process).
        own = [folder / f"{session}.jsonl", *sorted((folder / session / "subagents").glob("agent-*.jsonl"))] \
            if session else []
        return list(dict.fromkeys([*own, *_recent(folder)]))[:MAX_CANDIDATES]

    found = _search(candidates, _field("id", call), lambda line: _claude_call(line, call), wait)
    if found is None:
        raise SessionNotFound(f"no Claude Code transcript under {folder} holds the call {call} (looked for "
                              f"{wait:g} s), so witness cannot tell which session is asking")
    return CallingSession("claude-code", found, _session_of(found, folder), call, project, claude_model(found))


def claude_model(path: Path | str) -> str | None:
    """The model of the newest assistant message in a Claude Code transcript (its ``message.model``):
    Claude Code's payloads do not name the executor's model, its transcript does on every answer."""
    import json

    if not os.path.isfile(path):  # opening a FIFO would block
        return None
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, handle.seek(0, os.SEEK_END) - MODEL_TAIL))
            tail = handle.read().splitlines()
    except OSError:
        return None
    for line in reversed(tail):
        if b'"assistant"' not in line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:  # the first line of the tail may be cut
            continue
        message = entry.get("message") if isinstance(entry, dict) and entry.get("type") == "assistant" else None
        model = message.get("model") if isinstance(message, dict) else None
        if isinstance(model, str) and model and model != "<synthetic>":
            return model
    return None


def _session_of(path: Path, folder: Path) -> str:
    """The session a Claude Code transcript belongs to (a sub-agent's: its parent's)."""
    relative = path.relative_to(folder).parts
    return relative[0] if len(relative) > 1 else path.stem


def _recent(folder: Path) -> list[Path]:
    """The project folder's transcripts (sub-agents' too) modified within :data:`RECENT`, newest first."""
    horizon = time.time() - RECENT
    found = []
    for path in (*folder.glob("*.jsonl"), *folder.glob("*/subagents/agent-*.jsonl")):
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        if modified >= horizon:
            found.append((modified, path))
    return [path for _, path in sorted(found, reverse=True)]


def _codex(thread: str, call: str, env: Mapping[str, str], meta: Mapping[str, Any], wait: float) -> CallingSession:
    home = Path(env.get("CODEX_HOME") or Path(env.get("HOME") or Path.home()) / ".codex")
    name = f"rollout-*-{thread}.jsonl"

    def candidates() -> list[Path]:
        return [*sorted((home / "sessions").glob(f"*/*/*/{name}")), *_held_open(f"-{thread}.jsonl")]

    found = _search(candidates, _field("call_id", call), lambda line: _codex_call(line, call), wait)
    if found is None:
        raise SessionNotFound(f"no Codex rollout of thread {thread} under {home / 'sessions'} holds the call {call} "
                              "(if CODEX_HOME is not ~/.codex, pass it to the server: env_vars = [\"CODEX_HOME\"])")
    model = _turn(meta).get("model")
    return CallingSession("codex", found, thread, call, _codex_cwd(found),
                          model if isinstance(model, str) else None)


def _held_open(suffix: str) -> list[Path]:
    """Files ending in ``suffix`` that this process's parent (the host) holds open (Linux's ``/proc``):
    Codex keeps its rollout open, wherever its home is."""
    folder = Path(f"/proc/{os.getppid()}/fd")
    found = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    for entry in entries:
        try:
            target = Path(os.readlink(entry))
        except OSError:
            continue
        if target.name.endswith(suffix) and target not in found:
            found.append(target)
    return found


def _codex_cwd(path: Path) -> str | None:
    """The working directory a rollout's ``session_meta`` records (the first line)."""
    import json

    try:
        with path.open("rb") as handle:
            first = json.loads(handle.readline() or b"{}")
    except (OSError, ValueError):
        return None
    payload = first.get("payload") if isinstance(first, dict) else None
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return cwd if isinstance(cwd, str) else None


def _field(key: str, call: str) -> tuple[bytes, ...]:
    """The call's id as the value of ``key`` in a JSON line: compact, as the hosts write it, or spaced.

    Inside a string (a tool's output that quotes a transcript) the quotes are escaped, so the id a
    session merely printed is not taken for a call of its own."""
    return (f'"{key}":"{call}"'.encode(), f'"{key}": "{call}"'.encode())


def _entry(line: bytes) -> dict[str, Any]:
    """A transcript line's JSON object; empty when it is none (cut, or not JSON)."""
    import json

    try:
        entry = json.loads(line)
    except (ValueError, RecursionError):
        return {}
    return entry if isinstance(entry, dict) else {}


def _claude_call(line: bytes, call: str) -> bool:
    """``line`` is a Claude Code assistant message with a ``tool_use`` block whose id is ``call``."""
    entry = _entry(line)
    message = entry.get("message") if entry.get("type") == "assistant" else None
    content = message.get("content") if isinstance(message, dict) and message.get("role") == "assistant" else None
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id") == call for block in content)


def _codex_call(line: bytes, call: str) -> bool:
    """``line`` is a Codex rollout's ``function_call`` whose ``call_id`` is ``call``."""
    entry = _entry(line)
    payload = entry.get("payload") if entry.get("type") == "response_item" else None
    return isinstance(payload, dict) and payload.get("type") == "function_call" and payload.get("call_id") == call


def _search(candidates: Callable[[], list[Path]], needles: tuple[bytes, ...], confirm: Callable[[bytes], bool],
            wait: float) -> Path | None:
    """The first of ``candidates()`` (asked again each round, as files appear) with a line that holds
    one of ``needles`` and that ``confirm`` accepts, waiting up to ``wait`` seconds; each file is read
    once, then only what is added to it."""
    scanners: dict[Path, _Scanner] = {}
    until = time.monotonic() + wait
    while True:
        for path in candidates():
            scanner = scanners.setdefault(path, _Scanner(path, needles, confirm))
            if scanner.holds():
                return path
        if time.monotonic() + POLL > until:
            return None
        time.sleep(POLL)


class _Scanner:
    """Looks for a line holding any of some byte strings in a growing file, reading each byte once (a
    transcript can be large); only a line ``confirm`` accepts counts."""

    def __init__(self, path: Path, needles: tuple[bytes, ...], confirm: Callable[[bytes], bool]) -> None:
        self.path = path
        self.needles = needles
        self.confirm = confirm
        self.offset = 0
        self.partial: list[bytes] = []
        """What was read of the line the last read ended in (a host may still be writing it)."""

    def holds(self) -> bool:
        if not self.path.is_file():  # a FIFO (or a folder) named like a transcript would block the read
            return False
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                chunks: Iterable[bytes] = iter(lambda: handle.read(1 << 20), b"")
                for chunk in chunks:
                    self.offset += len(chunk)
                    end = chunk.rfind(b"\n") + 1
                    if not end:
                        self.partial.append(chunk)
                        continue
                    lines = b"".join([*self.partial, chunk[:end]])
                    self.partial = [chunk[end:]] if end < len(chunk) else []
                    if self._confirmed(lines):
                        return True
        except OSError:
            return False
        # The last line may be whole without its newline yet; if it is cut, a later look reads the rest.
        return bool(self.partial) and self._confirmed(b"".join(self.partial))

    def _confirmed(self, lines: bytes) -> bool:
        """Some line of ``lines`` holds a needle and is confirmed (a false hit is passed over)."""
        for needle in self.needles:
            at = lines.find(needle)
            while at >= 0:
                start = lines.rfind(b"\n", 0, at) + 1
                end = lines.find(b"\n", at)
                end = len(lines) if end < 0 else end
                if self.confirm(lines[start:end]):
                    return True
                at = lines.find(needle, end)
        return False
