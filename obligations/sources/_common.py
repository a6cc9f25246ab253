"""What the three readers share: stamping events, reading text out of content, bounded maps,
and recognising host refusals, interruptions and timeouts in error text."""

from __future__ import annotations

import posixpath
import re
from collections import OrderedDict
from datetime import datetime
from typing import Any, Generic, TypeVar

from .._events._agent_spawned import AgentSpawned
from .._events._base import BaseEvent, trusted
from .._events._union import Event
from .._vocabulary import ROOT_AGENT, ErrorCode
from ..errors import MalformedEntry
from ._resume import in_place, limited

ROOT = ROOT_AGENT
MAX_PENDING = 10_000
"""Calls awaiting results that a reader remembers; older ones are forgotten first."""

# Each recognised message gets an ``ErrorCode`` the tracker's classifier knows (its table of
# error codes), so a refusal never reads as a failed check.
_REFUSAL = re.compile(
    r"requested permissions?|haven't granted|requires? approval|was blocked|has been denied|permission denied"
    r"|doesn't want to proceed|tool use was rejected|rejected by (?:the )?user|denied by|blocked by (?:a )?hook"
    r"|rejected due to unacceptable risk|declined by", re.I)
_INTERRUPT = re.compile(
    r"\[Request interrupted by user|(?:interrupted|aborted) by (?:the )?user|^\s*(?:Command )?aborted", re.I)
_TIMEOUT = re.compile(r"^\s*(?:Command |Process )?timed out|command timed out after", re.I)
# A call the host cancelled before it ran, because another call of the same turn failed (Claude Code
# runs a turn's calls in parallel and cancels the rest: "<tool_use_error>Sibling tool call errored").
_CANCELLED = re.compile(r"^\s*(?:<tool_use_error>)?\s*(?:Error: )?Sibling tool call errored", re.I)
# Every message the patterns above recognise contains one of these words.
_CUES = re.compile(r"permission|grant|approv|block|denied|want to proceed|reject|declin|interrupt|abort|timed out"
                   r"|sibling", re.I)

HOST_MESSAGES: tuple[tuple[ErrorCode, re.Pattern[str]], ...] = (
    ("interrupted", _INTERRUPT), ("cancelled", _CANCELLED), ("timeout", _TIMEOUT), ("permission_denied", _REFUSAL))
"""A host's error texts that say a call was not a run of its own, and the code each gets, first match
winning (an interruption's text may quote a refusal)."""

K = TypeVar("K")
V = TypeVar("V")
E = TypeVar("E", bound=BaseEvent)


@limited
class Bounded(OrderedDict[K, V], Generic[K, V]):
    """A dict that forgets its oldest entries beyond ``limit``, so no file can grow it without bound."""

    def __init__(self, limit: int = MAX_PENDING) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        _store(self, key, value)  # not super(): a reader stores several times per tool call
        if len(self) > self.limit:  # one item is added at a time: at most one is over
            self.popitem(last=False)


_store = OrderedDict.__setitem__


@in_place
class Stamp:
    """Where and when the entry being read happened, and which agents were announced."""

    NOT_STATE = ("name",)
    """The file's name comes from its path, not from a replay's state."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.line = 0
        self.timestamp: Any = None
        self.entry_id: Any = None
        self.announced: set[str] = set()

    def at(self, line: int, timestamp: Any, entry_id: Any = None) -> None:
        """Move to ``line``; ``timestamp`` and ``entry_id`` are the entry's, if it has them (an
        entry without an id is named ``L<line>``)."""
        # Read only when an event is made: most entries make none.
        self.line, self.timestamp, self.entry_id = line, timestamp, entry_id

    @property
    def origin(self) -> str:
        """``<file name>:<line>`` of the entry being read."""
        return f"{self.name}:{self.line}"

    @property
    def time(self) -> datetime | None:
        """The entry's time, when it has a readable one."""
        return parse_time(self.timestamp)

    def base(self, agent_id: str = ROOT) -> dict[str, Any]:
        """The fields every event gets (``origin`` and ``time`` as their properties say, made here
        directly: every event asks)."""
        ident = self.entry_id
        return {"agent_id": agent_id, "origin": f"{self.name}:{self.line}", "time": parse_time(self.timestamp),
                "entry_id": ident if isinstance(ident, str) and ident else f"L{self.line}"}

    def event(self, kind: type[E], agent_id: str, fields: dict[str, Any]) -> E:
        """An event of ``kind`` with ``fields`` (a dict of the caller's, which becomes the event's)
        and the stamp's, for a reader that made every value to its field's type (see ``trusted``):
        a transcript makes tens of thousands of events, and validating each costs more than
        reading its entry."""
        ident = self.entry_id
        fields["agent_id"] = agent_id
        fields["origin"] = f"{self.name}:{self.line}"
        fields["time"] = parse_time(self.timestamp)
        fields["entry_id"] = ident if isinstance(ident, str) and ident else f"L{self.line}"
        return trusted(kind, fields)

    def announce(self, agent_id: str) -> list[Event]:
        """``AgentSpawned`` for a sub-agent's first event (nothing for root, or when already done)."""
        if agent_id == ROOT or agent_id in self.announced:
            return []
        self.announced.add(agent_id)
        return [AgentSpawned(parent_id=ROOT, role="local-subagent", **self.base(agent_id))]


def parse_time(value: Any) -> datetime | None:
    """An ISO-8601 timestamp, or ``None`` when it is missing or unreadable."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def count_parts(content: Any, kinds: tuple[str, ...]) -> int:
    """How many parts of a message's content are of one of ``kinds`` (images, typically)."""
    if not isinstance(content, list):
        return 0
    return sum(1 for block in content if isinstance(block, dict) and block.get("type") in kinds)


def thinking_of(content: Any, kind: str = "thinking") -> str:
    """The reasoning text of a message's ``thinking`` parts (``""`` when it kept none in clear)."""
    if not isinstance(content, list):
        return ""
    parts = [block.get(kind) for block in content if isinstance(block, dict) and block.get("type") == kind]
    return "\n".join(part for part in parts if isinstance(part, str) and part)


def text_of(content: Any, kinds: tuple[str, ...] = ("text",)) -> str:
    """The text in a message's content: a string, or the text parts of a list of blocks."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [block.get("text") for block in content if isinstance(block, dict) and block.get("type") in kinds]
    return "\n".join(part for part in parts if isinstance(part, str))


def string(value: Any) -> str | None:
    """``value`` if it is a non-empty string."""
    return value if isinstance(value, str) and value else None


def integer(value: Any) -> int | None:
    """``value`` if it is an integer (a JSON ``true`` is not one)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def error_code(text: str) -> ErrorCode | None:
    """The structured code for a host's refusal, interruption, cancellation or timeout message, if it is one
    (see :data:`HOST_MESSAGES`)."""
    head = text[:600]
    if not _CUES.search(head):
        return None  # most errors are plain failures: one cheap scan decides that
    return next((code for code, pattern in HOST_MESSAGES if pattern.search(head)), None)


def exit_status(digits: str) -> int:
    """An exit code written as decimal digits in a host's text. Raises ``MalformedEntry`` for digits
    no integer can be made of (thousands of them)."""
    try:
        return int(digits)
    except ValueError:
        raise MalformedEntry(f"an exit code of {len(digits)} digits") from None


def kind_of(value: Any) -> str | None:
    """An entry's ``type`` (or a part's), when it is a string: only a string can name a known kind."""
    return value if isinstance(value, str) else None


def resolve(workdir: Any, base: str | None) -> str | None:
    """A call's working directory: ``workdir`` taken relative to ``base``, else ``base``."""
    path = string(workdir)
    if path is None:
        return base
    if path.startswith("/"):
        return posixpath.normpath(path)
    if base is not None and base.startswith("/") and not re.match(r"^[A-Za-z]:[\\/]", path):
        return posixpath.normpath(posixpath.join(base, path))
    return path
