"""The branch of a Claude Code session that is active after rewinds.

Every Claude Code entry names its ``parentUuid``. Parallel tool results and hook attachments
fork that tree all the time, and those forks are all one conversation. A *rewind* (``/rewind``,
or editing an earlier prompt) is different: the new prompt is written as a sibling of the prompt
it replaces, and everything under the old one is a branch the session abandoned — a check that
failed there says nothing about the code the session went on with.

So a rewind is two prompts (user entries that are not tool results) with the same parent and
different ids; the one written last is the active one, and the subtrees of the others are not
replayed. A prompt written again with the id it already had (Claude Code does so when VS Code
reopens a session or with ``--input-format stream-json``, and ``cat session session`` does too) is
the same prompt, never a rewind: only its first copy counts, wherever the copy is and whatever
parent it names. Finding them costs one scan for prompt lines (found in C, the rest never
parsed; only each prompt's id and parent are kept; a line longer than the replay reads is not a
prompt to it either) and, only when a rewind is found, one pass that follows parents in file order;
memory grows with the prompts and the abandoned entries.

Planned from a byte offset on (a resumed replay), the prompts and abandoned entries before it are
the earlier plan's state; a prompt after it that replaces one before it is a rewind reaching back
into what was replayed (``Rewound``). Entries name only parents written before them, as hosts write
them, so an entry before the offset is never a descendant of one after it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import Rewound
from ._lines import MAX_LINE_BYTES, parse_line, read_lines
from ._plans import Planned

_USER = b'"user"'
"""In every user entry (``"type":"user"``, however the JSON is spaced); the entry is parsed to be sure."""
_TOOL_RESULT = b'"tool_use_id"'
_CHUNK = 1 << 22
"""Bytes read at a time when looking for prompts."""


class Branches:
    """What the first pass knows: every prompt read (by id), the latest prompt under each parent,
    and the entries abandoned so far."""

    def __init__(self, state: Any = None) -> None:
        state = state if isinstance(state, dict) else {}
        self.prompts: set[str] = set(state.get("prompts", ()))
        self.latest: dict[str, str] = dict(state.get("latest", {}))
        self.abandoned: set[str] = set(state.get("abandoned", ()))
        self.before = set(self.latest)
        """Parents whose latest prompt is before the range planned now."""

    def state(self) -> dict[str, Any]:
        """This plan's state, as plain JSON."""
        return {"prompts": sorted(self.prompts), "latest": self.latest, "abandoned": sorted(self.abandoned)}

    def add(self, ident: str, parent: str | None) -> str | None:
        """Take a prompt; the prompt it replaces, if it replaces one. Raises ``Rewound`` when that one
        is before the range planned now."""
        if ident in self.prompts:
            return None  # the same prompt written again: no rewind
        self.prompts.add(ident)
        if parent is None:
            return None  # a session's first prompt, or one after a compaction: no sibling to replace
        replaced = self.latest.get(parent)
        if replaced is not None and parent in self.before:
            raise Rewound(f"prompt {ident} replaces prompt {replaced}, read before")
        self.latest[parent] = ident
        return replaced


def plan(path: Path, *, start: int = 0, number: int = 0, end: int | None = None, prior: Any = None) -> Planned:
    """Which entries of the bytes ``start`` to ``end`` to replay, given the state of the plan of the
    bytes before ``start`` (``prior``). Raises ``Rewound``."""
    branches = Branches(prior)
    replaced = [old for ident, parent in _prompts(path, start, end)
                if (old := branches.add(ident, parent)) is not None]
    abandoned = branches.abandoned
    abandoned.update(replaced)
    if abandoned:
        for line in read_lines(path, start=start, number=number, end=end):
            entry = line.entry
            if entry is None:
                continue
            ident = entry.get("uuid")
            parent = entry.get("parentUuid") or entry.get("logicalParentUuid")
            if isinstance(ident, str) and isinstance(parent, str) and parent in abandoned:
                abandoned.add(ident)
    select = (lambda _line, entry: _kept(entry.get("uuid"), abandoned)) if abandoned else None
    return Planned(select, branches.state())


def _kept(ident: Any, abandoned: set[str]) -> bool:
    """An entry is replayed unless its id is an abandoned one (an id that is no string never is,
    and cannot be looked up: a list is unhashable)."""
    return not isinstance(ident, str) or ident not in abandoned


def _prompts(path: Path, start: int = 0, end: int | None = None) -> list[tuple[str, str | None]]:
    """The id and parent id of each user entry that is not a tool result (nor a sub-agent's or a
    meta entry) in the bytes ``start`` to ``end``, found without parsing any other line. The file is
    read in chunks into one buffer rather than mapped: a mapping's touched pages count in the
    process's resident size, which would then grow with the transcript (and a fresh buffer per
    chunk costs more than the search itself). A line longer than ``MAX_LINE_BYTES`` is not kept
    while it is read past: the replay does not read it either."""
    found: list[tuple[str, str | None]] = []
    buffer = bytearray(_CHUNK)
    cut: bytearray | None = bytearray()  # the start of a line the last chunk ended inside (None: too long)
    left = end - start if end is not None else None
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            while left != 0 and (size := handle.readinto(buffer)):
                if left is not None:
                    size = min(size, left)
                    left -= size
                first = buffer.find(b"\n", 0, size) + 1
                if not first:  # inside a line longer than a chunk
                    cut = _grow(cut, buffer, size)
                    continue
                inside = cut is None or len(cut) > 0  # this chunk starts inside a line begun before
                if cut:
                    cut += buffer[:first]
                    if len(cut) <= MAX_LINE_BYTES + 1:  # as the replay reads it: its newline aside
                        _scan(cut, 0, len(cut), found)
                whole = buffer.rfind(b"\n", 0, size) + 1  # whole lines only; a cut line waits for the next chunk
                _scan(buffer, first if inside else 0, whole, found)
                cut = bytearray(buffer[whole:size])
            if cut:
                _scan(cut, 0, len(cut), found)
    except OSError:
        return []  # unreadable here: the replay reports it
    return found


def _grow(cut: bytearray | None, buffer: bytearray, size: int) -> bytearray | None:
    """``cut`` with the chunk added, or ``None`` once it is longer than any line the replay reads."""
    if cut is None or len(cut) + size > MAX_LINE_BYTES + 1:
        return None
    cut += buffer[:size]
    return cut


def _scan(data: bytearray, begin: int, limit: int, found: list[tuple[str, str | None]]) -> None:
    """Add the prompts among the lines of ``data[begin:limit]`` (whole lines) to ``found``."""
    position = data.find(_USER, begin, limit)
    while position >= 0:
        start = data.rfind(b"\n", begin, position) + 1 or begin
        end = data.find(b"\n", position, limit)
        end = limit if end < 0 else end
        if data.find(_TOOL_RESULT, start, end) < 0:  # most user lines are results: not copied
            entry = parse_line(0, bytes(data[start:end])).entry
            if entry is not None and entry.get("type") == "user":
                ident, parent = entry.get("uuid"), entry.get("parentUuid")
                if isinstance(ident, str) and not entry.get("isSidechain") and not entry.get("isMeta"):
                    found.append((ident, parent if isinstance(parent, str) else None))
        position = data.find(_USER, end, limit)
