"""Editing a JSON settings file in place: each value's place in the text is found, and only the text of the
member or element added (or removed) changes — the rest of the file, its layout and, where the host allows
them, its comments, stay byte for byte.

Python's ``json`` reads values but forgets where they were, and the libraries that keep a JSON document's text
(a concrete syntax tree) for writing it back are unmaintained; so this small reader finds spans itself. It reads
strict JSON, plus ``//`` and ``/* */`` comments when the host's own reader strips them (Gemini CLI).
An insertion is undone exactly by the matching removal (``install`` then ``uninstall`` gives the file back).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError

_SPACE = re.compile(r"[ \t\r\n]*")
_COMMENTS = re.compile(r"(?:[ \t\r\n]+|//[^\n]*|/\*.*?\*/)*", re.S)
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}
_scanstring: Any = json.decoder.scanstring  # type: ignore[attr-defined]  # public, though typeshed omits it


@dataclass
class Node:
    """A value and where it is in the text."""

    start: int
    """Offset of its first character."""
    end: int
    """Offset just past its last character."""
    value: Any = None
    """The value, as ``json`` reads it."""
    members: list[tuple[str, int, Node]] = field(default_factory=list)
    """An object's members in order: (key, offset of the key's opening quote, value)."""
    items: list[Node] = field(default_factory=list)
    """An array's elements in order."""

    def member(self, key: str) -> Node | None:
        """The value of member ``key`` (the last, as JSON readers take it), if the object has one."""
        found = [node for name, _, node in self.members if name == key]
        return found[-1] if found else None


class _Reader:
    def __init__(self, text: str, comments: bool, name: str) -> None:
        self.text, self.name, self.position = text, name, 0
        self.gap = _COMMENTS if comments else _SPACE

    def fail(self, message: str) -> ConfigError:
        line = self.text.count("\n", 0, self.position) + 1
        column = self.position - (self.text.rfind("\n", 0, self.position) + 1) + 1
        return ConfigError(f"{self.name} cannot be read as JSON (line {line}, column {column}: {message}); "
                           f"it was left as it is")

    def skip(self) -> None:
        found = self.gap.match(self.text, self.position)
        self.position = found.end() if found else self.position

    def value(self, depth: int = 0) -> Node:
        if depth > 200:
            raise self.fail("nested too deeply")
        self.skip()
        start, char = self.position, self.text[self.position:self.position + 1]
        if char == "{":
            return self._object(start, depth)
        if char == "[":
            return self._array(start, depth)
        if char == '"':
            text = self._string()
            return Node(start, self.position, text)
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, start):
                self.position = start + len(word)
                return Node(start, self.position, literal)
        number = _NUMBER.match(self.text, start)
        if number is None:
            raise self.fail("a value was expected" if char else "the text ends where a value was expected")
        self.position = number.end()
        return Node(start, self.position, json.loads(number.group()))

    def _string(self) -> str:
        try:
            text, self.position = _scanstring(self.text, self.position + 1)
        except json.JSONDecodeError as error:
            self.position = error.pos
            raise self.fail(error.msg) from None
        return str(text)

    def _object(self, start: int, depth: int) -> Node:
        node = Node(start, start, {})
        self.position += 1
        self.skip()
        if self.text.startswith("}", self.position):
            node.end = self.position = self.position + 1
            return node
        while True:
            self.skip()
            if not self.text.startswith('"', self.position):
                raise self.fail("a member name in double quotes was expected")
            key_at = self.position
            key = self._string()
            self.skip()
            if not self.text.startswith(":", self.position):
                raise self.fail("':' was expected")
            self.position += 1
            child = self.value(depth + 1)
            node.members.append((key, key_at, child))
            node.value[key] = child.value
            if self._close("}"):
                node.end = self.position
                return node

    def _array(self, start: int, depth: int) -> Node:
        node = Node(start, start, [])
        self.position += 1
        self.skip()
        if self.text.startswith("]", self.position):
            node.end = self.position = self.position + 1
            return node
        while True:
            child = self.value(depth + 1)
            node.items.append(child)
            node.value.append(child.value)
            if self._close("]"):
                node.end = self.position
                return node

    def _close(self, bracket: str) -> bool:
        """After a member or element: ``True`` at the closing bracket (consumed), ``False`` after a comma."""
        self.skip()
        char = self.text[self.position:self.position + 1]
        self.position += 1
        if char == bracket:
            return True
        if char != ",":
            self.position -= 1
            raise self.fail(f"',' or '{bracket}' was expected")
        return False


def parse(text: str, *, comments: bool, name: str) -> Node:
    """The document's root value with every value's span; raises ``ConfigError`` (naming ``name``, the line
    and the column) for text that is not JSON (with ``comments``: JSON with ``//`` and ``/* */`` comments)."""
    reader = _Reader(text, comments, name)
    root = reader.value()
    reader.skip()
    if reader.position != len(text):
        raise reader.fail("text follows the document")
    return root


def indent_unit(text: str) -> str:
    """The file's indentation step (the least indentation of any line), two spaces when it has none."""
    found = [len(line) - len(line.lstrip(" ")) for line in text.splitlines() if line.startswith(" ") and line.strip()]
    return " " * min(found) if found else "  "


def _line_indent(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    return text[start:len(text) - len(text[start:].lstrip(" \t"))] if start < len(text) else ""


def _rendered(value: Any, indent: str, unit: str) -> str:
    return json.dumps(value, indent=len(unit), ensure_ascii=False).replace("\n", "\n" + indent)


def insert_member(text: str, node: Node, key: str, value: Any) -> str:
    """``text`` with member ``key: value`` appended to the object ``node``."""
    unit = indent_unit(text)
    if node.members:
        _, key_at, last = node.members[-1]
        indent = _line_indent(text, key_at)
        one_line = "\n" not in text[node.start:key_at]
        if one_line:
            piece = f", {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
        else:
            piece = f",\n{indent}{json.dumps(key)}: {_rendered(value, indent, unit)}"
        return text[:last.end] + piece + text[last.end:]
    base = _line_indent(text, node.start)
    inner = base + unit
    piece = f"\n{inner}{json.dumps(key)}: {_rendered(value, inner, unit)}\n{base}"
    return text[:node.start + 1] + piece + text[node.start + 1:]


def append_item(text: str, node: Node, value: Any) -> str:
    """``text`` with ``value`` appended to the array ``node``."""
    unit = indent_unit(text)
    if node.items:
        last = node.items[-1]
        indent = _line_indent(text, last.start)
        if "\n" not in text[node.start:last.start]:
            return text[:last.end] + ", " + json.dumps(value, ensure_ascii=False) + text[last.end:]
        return text[:last.end] + f",\n{indent}{_rendered(value, indent, unit)}" + text[last.end:]
    base = _line_indent(text, node.start)
    inner = base + unit
    return text[:node.start + 1] + f"\n{inner}{_rendered(value, inner, unit)}\n{base}" + text[node.start + 1:]


def remove_member(text: str, node: Node, key: str) -> str:
    """``text`` without member ``key`` of the object ``node`` (the exact inverse of :func:`insert_member`)."""
    index = next(i for i, (name, _, _) in enumerate(node.members) if name == key)
    _, key_at, child = node.members[index]
    if index > 0:
        return text[:node.members[index - 1][2].end] + text[child.end:]
    if len(node.members) > 1:
        return text[:key_at] + text[node.members[1][1]:]
    return _remove_only(text, node.start, child.end)


def remove_item(text: str, node: Node, index: int) -> str:
    """``text`` without element ``index`` of the array ``node`` (the exact inverse of :func:`append_item`)."""
    child = node.items[index]
    if index > 0:
        return text[:node.items[index - 1].end] + text[child.end:]
    if len(node.items) > 1:
        return text[:child.start] + text[node.items[1].start:]
    return _remove_only(text, node.start, child.end)


def _remove_only(text: str, opening: int, end: int) -> str:
    """Remove a container's only member or element: everything after its opening bracket up to its end, and
    the line break and indentation an insertion put after it."""
    tail = "\n" + _line_indent(text, opening)
    after = end + len(tail) if text.startswith(tail, end) else end
    return text[:opening + 1] + text[after:]
