"""What a card says about a call's arguments: its primary argument and, for edits, their shape.

One ordered list of argument names for every tool (no per-tool adapters): the first that holds
a non-blank string or a number is the call's primary argument; failing that, the files a patch
names, else the first non-blank string. Edits of every host show their shape:

==========================================  ==================================================
arguments                                   shape
==========================================  ==================================================
``content`` of a tool named ``*write*``     ``N lines written``
``old_string``/``new_string`` (Claude       ``+added −removed``, lines of the new and old text
Code ``Edit``), ``oldString``/              (an empty string is one line); ``edits`` lists
``newString``, ``old``/``new``,             (``MultiEdit``, Pi's ``edit``) are summed
``oldText``/``newText`` (Pi ``edit``)
a patch (``*** Begin Patch``: Codex         ``+added −removed``, the patch's ``+`` and ``-``
``apply_patch``, Oh My Pi ``edit``)         lines
==========================================  ==================================================

A path under the call's working directory is shown relative to it (the investigation tools take
workspace-relative paths; the full path is in the expanded card). A Codex code-mode script
(``exec`` whose ``input`` is ``await tools.exec_command({cmd: "…"})``) is shown by the command it
runs rather than by its wrapper.
"""

from __future__ import annotations

import json
import re
from typing import Any

from obligations import PATCH_MARK, PATH_KEYS, redact_value, targets_of

from ._text import clip

ARGUMENT_LIMIT = 120
PRIMARY_KEYS = (*PATH_KEYS, "command", "cmd", "url", "pattern", "query", "name", "id")
"""Tried in order for the primary argument: the path keys the tracker reads targets from, then the rest."""
_PAIRS = (("old_string", "new_string"), ("oldString", "newString"), ("old", "new"), ("oldText", "newText"))
_PATH_KEYS = frozenset(PATH_KEYS)
_CODE_MODE = re.compile(r'^\s*(?:(?:const|let|var)\s+\w+\s*=\s*)?await\s+tools\.\w+\(\{\s*'
                        r'"?cmd"?\s*:\s*("(?:[^"\\]|\\.)*")')


def _patch(arguments: dict[str, Any]) -> str | None:
    for value in arguments.values():
        if isinstance(value, str) and PATCH_MARK in value:
            return value
    return None


def _relative(path: str, cwd: str | None) -> str:
    root = cwd.rstrip("/") + "/" if cwd else None
    return path[len(root):] if root and root != "/" and path.startswith(root) and len(path) > len(root) else path


def _code_mode_command(text: str) -> str | None:
    """The command a Codex code-mode script runs through ``tools.exec_command`` (``None``: not one)."""
    found = _CODE_MODE.match(text)
    if found is None:
        return None
    try:
        command = json.loads(found.group(1))
    except ValueError:
        return None
    return command if isinstance(command, str) and command.strip() else None


def primary_argument(arguments: Any, cwd: str | None = None, *, limit: int = ARGUMENT_LIMIT) -> str:
    """The argument that says what a call is about, on one line, at most ``limit`` characters, redacted (a
    path under ``cwd`` relative to it)."""
    return argument_of(redact_value(arguments), cwd, limit=limit)


def argument_of(arguments: Any, cwd: str | None = None, *, limit: int = ARGUMENT_LIMIT) -> str:
    """:func:`primary_argument` of arguments already redacted (a :class:`~advisor.ledger.Ledger`'s)."""
    if not isinstance(arguments, dict):
        return ""
    for key in PRIMARY_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return clip(_relative(value, cwd) if key in _PATH_KEYS else value, limit)
        if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
            return clip(" ".join(value), limit)  # an argv (Codex's `shell`)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    if _patch(arguments) is not None:
        files = [name for name in targets_of(arguments) if name.strip()]  # no path argument: the patch's files
        if files:
            more = f" (+{len(files) - 1} more)" if len(files) > 1 else ""
            return clip(files[0], limit) + more
    for value in arguments.values():
        if isinstance(value, str) and value.strip():
            return clip(_code_mode_command(value) or value, limit)
    return ""


def _lines(text: str) -> int:
    return text.count("\n") + 1


def _pair_counts(arguments: dict[str, Any]) -> tuple[int, int]:
    added = removed = 0
    for old_key, new_key in _PAIRS:
        old, new = arguments.get(old_key), arguments.get(new_key)
        if isinstance(old, str):
            removed += _lines(old)
        if isinstance(new, str):
            added += _lines(new)
    return added, removed


def edit_shape(tool: str, arguments: Any) -> str:
    """``N lines written`` or ``+added −removed`` for an edit, ``""`` for anything else."""
    if not isinstance(arguments, dict):
        return ""
    content = arguments.get("content")
    if "write" in tool.lower() and isinstance(content, str):
        return f"{_lines(content)} lines written"
    added, removed = _pair_counts(arguments)
    edits = arguments.get("edits")
    if isinstance(edits, list):
        for edit in edits:
            if isinstance(edit, dict):
                more_added, more_removed = _pair_counts(edit)
                added, removed = added + more_added, removed + more_removed
    patch = _patch(arguments)
    if patch is not None and not (added or removed):
        for line in patch.splitlines():
            if line.startswith("+") and not line.startswith("+++"):
                added += 1
            elif line.startswith("-") and not line.startswith("---"):
                removed += 1
    return f"+{added} −{removed}" if added or removed else ""
