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
parsed; only each prompt's id and parent are kept) and, only when a rewind is found, one pass
that follows parents in file order; memory grows with the abandoned entries.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._lines import parse_line, read_lines

_USER = b'"user"'
"""In every user entry (``"type":"user"``, however the JSON is spaced); the entry is parsed to be sure."""
_TOOL_RESULT = b'"tool_use_id"'
_CHUNK = 1 << 22
"""Bytes read at a time when looking for prompts."""

Select = Callable[[int, dict[str, Any]], bool]


def plan(path: Path) -> Select | None:
    """Which entries to replay: ``None`` when the session has no rewind (replay every entry)."""
    replaced = _replaced_prompts(path)
    if not replaced:
        return None
    abandoned = set(replaced)
    for line in read_lines(path):
        entry = line.entry
        if entry is None:
            continue
        ident = entry.get("uuid")
        parent = entry.get("parentUuid") or entry.get("logicalParentUuid")
        if isinstance(ident, str) and isinstance(parent, str) and parent in abandoned:
            abandoned.add(ident)
    return lambda _line, entry: _kept(entry.get("uuid"), abandoned)


def _kept(ident: Any, abandoned: set[str]) -> bool:
    """An entry is replayed unless its id is an abandoned one (an id that is no string never is,
    and cannot be looked up: a list is unhashable)."""
    return not isinstance(ident, str) or ident not in abandoned


def _replaced_prompts(path: Path) -> list[str]:
    """The prompts a later prompt with the same parent replaced (rewound or edited)."""
    latest: dict[str, str] = {}
    seen: set[str] = set()
    replaced: list[str] = []
    for ident, parent in _prompts(path):
        if ident in seen:
            continue  # the same prompt written again: no rewind
        seen.add(ident)
        if parent is None:
            continue  # a session's first prompt, or one after a compaction: no sibling to replace
        if parent in latest:
            replaced.append(latest[parent])
        latest[parent] = ident
    return replaced


def _prompts(path: Path) -> list[tuple[str, str | None]]:
    """The id and parent id of each user entry that is not a tool result (nor a sub-agent's or a
    meta entry), found without parsing any other line. The file is read in chunks into one buffer
    rather than mapped: a mapping's touched pages count in the process's resident size, which
    would then grow with the transcript (and a fresh buffer per chunk costs more than the search
    itself)."""
    found: list[tuple[str, str | None]] = []
    buffer = bytearray(_CHUNK)
    cut = bytearray()  # the start of a line the last chunk ended inside
    try:
        with path.open("rb") as handle:
            while size := handle.readinto(buffer):
                first = buffer.find(b"\n", 0, size) + 1
                if cut and not first:
                    cut += buffer[:size]  # a line longer than a chunk
                    continue
                begin = first if cut else 0
                if cut:
                    cut += buffer[:first]
                    _scan(cut, 0, len(cut), found)
                whole = buffer.rfind(b"\n", 0, size) + 1  # whole lines only; a cut line waits for the next chunk
                _scan(buffer, begin, whole, found)
                cut = bytearray(buffer[whole:size])
            _scan(cut, 0, len(cut), found)
    except OSError:
        return []  # unreadable here: the replay reports it
    return found


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
