"""Shapes tree-sitter-bash misreads, and how they are read instead.

**Groups after ``time`` and ``!``.** At the start of a pipeline, bash reads ``time`` (with ``-p``,
then ``--``) and ``!`` as reserved words, and a ``{ …; }`` group after either as a group.
tree-sitter-bash knows ``time`` only as a command name, and lets ``!`` negate a simple command, a
test or a subshell only, so it reads the group as words: ``time { pytest; }`` becomes the command
``time { pytest`` and a command ``}``, whose check is never found; ``time ! true | pytest`` becomes
a pipeline ending in ``pytest``, where bash negates the whole pipeline. The keyword is blanked —
with spaces, so byte offsets stay as they were — and the text parsed again:

- ``time``: the keyword only reports times, and the status is what follows it, so nothing the
  analysis reads changes (a ``!`` after it is then read as the negation it is);
- ``!`` before a group: the negation is kept aside (the span of the ``!``, by the byte the group
  starts at) and put back before the group, where tree-sitter puts a ``negated_command``'s.

Nothing else is touched: ``time`` after ``|``, after an assignment, or first inside ``$(`` is a
command name to bash too (bash 5.2 then finds the ``}`` unexpected), and a quoted ``"time"`` is
never the keyword.

**A newline before a word that starts with a backslash.** tree-sitter-bash reads ``pytest -q``,
a newline and ``\\true`` as one command, ``\\true`` an argument of ``pytest``; so it does when a
line continuation (backslash, newline) starts the next line. Bash ends the command at the newline
and runs ``true`` after it, whose status it reports. A newline between a command's words that no
odd run of backslashes escapes is replaced by ``;`` (one byte for one), which ends a command
wherever a newline does, and the text parsed again.

**A line continuation inside a word.** Bash removes a backslash-newline wherever it stands, so
``dec\\``, a newline and ``lare`` is the one word ``declare``; tree-sitter-bash reads two words. The
continuation is replaced by ``""`` (two bytes for two), which joins the word's parts as bash does.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise
from typing import Any

_CANDIDATES = (
    rb"t(?<!\wt)ime[ \t]+(?:-p[ \t]+)?(?:--[ \t]+)?[{!]\s",  # `\btime …`, the boundary checked after the `t`
    rb"![ \t]+\{\s",
    rb"\n[ \t]*\\",
    rb"\\(?<=\S\\)\n\S",  # `\S\\\n\S`, the character before the backslash checked after it
)
"""A byte-level look for the shapes, so that almost every command line is parsed once. Each starts
with a literal byte, so the regular expression engine skips to where it can begin: one alternation of
the four (or one starting with a class or a boundary) is tried at every byte of a long command line."""
_WORDS = frozenset({"command", "declaration_command", "unset_command"})
"""Nodes whose children are words, between which a bare newline cannot stand."""
_MAX_REPAIRS = 64
"""Reparses, at most (one per nesting level of such groups; deeper ones stay misread)."""


def repaired(data: bytes, tree: Any, parse: Any) -> tuple[bytes, Any, dict[int, tuple[int, int]]]:
    """The text to convert, its tree, and the negations kept aside (``{group start: (start, end)}``
    of each ``!``). ``data`` is returned as it is when nothing is misread."""
    negations: dict[int, tuple[int, int]] = {}
    if not _may_misread(data):
        return data, tree, negations
    for _ in range(_MAX_REPAIRS):
        edits = _misread(tree.root_node, data, negations)
        if not edits:
            break
        text = bytearray(data)
        for start, end, fill in edits:
            text[start:end] = fill * (end - start)
        data = bytes(text)
        tree = parse(data)
    return data, tree, negations


def _may_misread(data: bytes) -> bool:
    """Whether ``data`` holds one of the shapes (:data:`_CANDIDATES`), each looked for only where the
    bytes it needs are there (the newline the parse may add after the text starts none of them)."""
    candidates = _candidates()
    brace, bang = b"{" in data, b"!" in data
    if (brace or bang) and (b"time" in data or (bang and brace)) and (
            candidates[0].search(data) or candidates[1].search(data)):
        return True
    return b"\\" in data and data.find(b"\n", 0, len(data) - 1) >= 0 and (
        candidates[2].search(data) is not None or candidates[3].search(data) is not None)


@cache
def _candidates() -> tuple[re.Pattern[bytes], ...]:
    # Compiled when first needed: every `witness check` process loads this module.
    return tuple(map(re.compile, _CANDIDATES))


def _misread(root: Any, data: bytes, negations: dict[int, tuple[int, int]]) -> list[tuple[int, int, bytes]]:
    """What to write over (``start``, ``end``, the byte to fill with) to repair the misread shapes
    under ``root``, noting the negations kept aside."""
    edits: list[tuple[int, int, bytes]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in _WORDS:
            edits.extend((at, at + 1, b";") for at in _bare_newlines(node.children, data))
            edits.extend((at, at + 2, b'"') for at in _split_words(node.children, data))
        if kind == "command" and _starts_pipeline(node) and not _first_in_substitution(node, data):
            keyword = _after_time(node.children)
            if keyword is not None:
                edits.append((node.start_byte, keyword.start_byte, b" "))
        elif kind == "negated_command" and _starts_pipeline(node) and len(node.children) > 1:
            bang, body = node.children[0], node.children[1]
            if body.type == "command" and _name(body) == b"{":
                edits.append((bang.start_byte, bang.end_byte, b" "))
                negations[body.start_byte] = (bang.start_byte, bang.end_byte)
        stack.extend(node.children)
    return edits


def _bare_newlines(children: list[Any], data: bytes) -> list[int]:
    """The newlines between ``children`` (words of one command) that no backslash escapes."""
    found = []
    for before, after in pairwise(children):
        end = after.start_byte
        while data[end:end + 1] in (b" ", b"\t", b"\n"):  # the grammar may start the word at the newline
            end += 1
        at = data.find(b"\n", before.end_byte, end)
        while at >= 0:
            escapes = 0
            while data[at - escapes - 1:at - escapes] == b"\\":
                escapes += 1
            if escapes % 2 == 0:
                found.append(at)
            at = data.find(b"\n", at + 1, end)
    return found


def _split_words(children: list[Any], data: bytes) -> list[int]:
    """The line continuations between ``children`` with no space around them: one word to bash."""
    found = []
    for before, after in pairwise(children):
        at = before.end_byte
        if after.start_byte == at + 2 and data[at:at + 2] == b"\\\n":
            escapes = 1
            while data[at - escapes:at - escapes + 1] == b"\\":
                escapes += 1
            if escapes % 2:
                found.append(at)
    return found


def _first_in_substitution(node: Any, data: bytes) -> bool:
    # Bash 5.2 does not read `time` as the keyword right after `$(`.
    return data[:node.start_byte].rstrip().endswith(b"$(")


def _starts_pipeline(node: Any) -> bool:
    parent = node.parent
    return parent is None or parent.type != "pipeline" or parent.children[0] == node


def _name(command: Any) -> bytes | None:
    first = command.children[0] if command.children else None
    return first.text if first is not None and first.type == "command_name" else None


def _after_time(children: list[Any]) -> Any:
    """The ``{`` or ``!`` word after ``time [-p] [--]``, when the command is that."""
    if not children or children[0].type != "command_name" or children[0].text != b"time":
        return None
    options = [b"-p", b"--"]
    for child in children[1:]:
        if child.type != "word":
            return None
        if child.text in (b"{", b"!"):
            return child
        if child.text not in options:
            return None
        del options[:options.index(child.text) + 1]  # `-p` at most once, and before `--`
    return None
