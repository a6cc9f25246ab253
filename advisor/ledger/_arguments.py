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
"""

from __future__ import annotations

import re
from typing import Any

from obligations import redact

from ._text import clip

ARGUMENT_LIMIT = 120
PRIMARY_KEYS = ("file_path", "path", "filePath", "file", "notebook_path", "command", "cmd", "url", "pattern", "query",
                "name", "id")
"""Tried in order for the primary argument."""
_PAIRS = (("old_string", "new_string"), ("oldString", "newString"), ("old", "new"), ("oldText", "newText"))
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)
_PATCH_MARK = "*** Begin Patch"


def _patch(arguments: dict[str, Any]) -> str | None:
    for value in arguments.values():
        if isinstance(value, str) and _PATCH_MARK in value:
            return value
    return None


def primary_argument(arguments: Any) -> str:
    """The argument that says what a call is about, on one line, at most 120 characters, redacted."""
    if not isinstance(arguments, dict):
        return ""
    for key in PRIMARY_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return clip(redact(value), ARGUMENT_LIMIT)
        if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
            return clip(redact(" ".join(value)), ARGUMENT_LIMIT)  # an argv (Codex's `shell`)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    patch = _patch(arguments)
    if patch is not None:
        files = list(dict.fromkeys(name.strip() for name in _PATCH_FILE.findall(patch)))
        if files:
            more = f" (+{len(files) - 1} more)" if len(files) > 1 else ""
            return clip(redact(files[0]), ARGUMENT_LIMIT) + more
    for value in arguments.values():
        if isinstance(value, str) and value.strip():
            return clip(redact(value), ARGUMENT_LIMIT)
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
