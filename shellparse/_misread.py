"""Groups after ``time`` and ``!``, which tree-sitter-bash misreads, and how they are read instead.

At the start of a pipeline, bash reads ``time`` (with ``-p`` and ``--``) and ``!`` as reserved
words, and a ``{ …; }`` group after either as a group. tree-sitter-bash knows ``time`` only as a
command name, and lets ``!`` negate a simple command, a test or a subshell only, so it reads the
group as words: ``time { pytest; }`` becomes the command ``time { pytest`` and a command ``}``,
whose check is never found. Here the keyword is blanked — with spaces, so byte offsets stay as
they were — and the text parsed again, so the group parses as a group:

- ``time``: the keyword only reports times, and the status is the group's, so nothing the
  analysis reads changes;
- ``!``: the negation is kept aside (the span of the ``!``, by the byte the group starts at) and
  put back before the group, where tree-sitter puts a ``negated_command``'s.

Nothing else is touched: ``time`` after ``|`` or after an assignment is a command name to bash
too (it runs the ``time`` program, which cannot run ``{``), and a quoted ``"time"`` is never the
keyword.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_CANDIDATE = rb"(?:\btime|!)[ \t]+(?:-p[ \t]+)?(?:--[ \t]+)?\{\s"
"""A byte-level look for the shape, so that almost every command line is parsed once."""
_TIME_OPTIONS = (b"-p", b"--")
_MAX_REPAIRS = 64
"""Reparses, at most (one per nesting level of such groups; deeper ones stay misread)."""


def repaired(data: bytes, tree: Any, parse: Any) -> tuple[bytes, Any, dict[int, tuple[int, int]]]:
    """The text to convert, its tree, and the negations kept aside (``{group start: (start, end)}``
    of each ``!``). ``data`` is returned as it is when nothing is misread."""
    negations: dict[int, tuple[int, int]] = {}
    if b"{" not in data or (b"time" not in data and b"!" not in data) or _candidate().search(data) is None:
        return data, tree, negations
    for _ in range(_MAX_REPAIRS):
        blanks = _misread(tree.root_node, negations)
        if not blanks:
            break
        text = bytearray(data)
        for start, end in blanks:
            text[start:end] = b" " * (end - start)
        data = bytes(text)
        tree = parse(data)
    return data, tree, negations


@cache
def _candidate() -> re.Pattern[bytes]:
    # Compiled when first needed: every `witness check` process loads this module.
    return re.compile(_CANDIDATE)


def _misread(root: Any, negations: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    """The byte ranges of the keywords before misread groups under ``root`` (noting negations)."""
    blanks: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "command" and _starts_pipeline(node):
            brace = _timed_brace(node.children)
            if brace is not None:
                blanks.append((node.start_byte, brace.start_byte))
        elif kind == "negated_command" and _starts_pipeline(node) and len(node.children) > 1:
            bang, body = node.children[0], node.children[1]
            if body.type == "command" and _name(body) == b"{":
                blanks.append((bang.start_byte, bang.end_byte))
                negations[body.start_byte] = (bang.start_byte, bang.end_byte)
        stack.extend(node.children)
    return blanks


def _starts_pipeline(node: Any) -> bool:
    parent = node.parent
    return parent is None or parent.type != "pipeline" or parent.children[0] == node


def _name(command: Any) -> bytes | None:
    first = command.children[0] if command.children else None
    return first.text if first is not None and first.type == "command_name" else None


def _timed_brace(children: list[Any]) -> Any:
    """The ``{`` word after ``time [-p] [--]``, when the command is that."""
    if not children or children[0].type != "command_name" or children[0].text != b"time":
        return None
    for child in children[1:]:
        if child.type != "word":
            return None
        if child.text == b"{":
            return child
        if child.text not in _TIME_OPTIONS:
            return None
    return None
